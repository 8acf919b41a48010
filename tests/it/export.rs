//! The `clipscope export` command: the file and its report, and the exit codes when it cannot
//! export (a name that names nothing, a rig without clips). The export itself is tested in
//! the core's `export`.

use crate::common;

#[test]
fn the_command_writes_the_file_and_the_report_and_says_why_when_it_cannot() {
    let Some(bundle) = common::data("binary/lessscarymannequins/copy.bundle") else {
        return;
    };
    let bundle = bundle.display().to_string();
    let dir = std::env::temp_dir().join(format!("clipscope-export-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let glb = dir.join("quinn.glb").display().to_string();
    let json = dir.join("quinn.json").display().to_string();
    let (code, out, err) = common::clipscope(&[
        "export", &bundle, "--mode", "exact", "-o", &glb, "--report", &json,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("TestClip: 78 channels"), "{out}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["rig"], "quinn");
    assert_eq!(report["mode"], "exact");
    assert_eq!(report["clips"][0]["name"], "TestClip");
    assert_eq!(report["meshes"][0]["vertices"], 2369);
    let bytes = std::fs::read(&glb).unwrap();
    assert_eq!(
        gltf::Gltf::from_slice(&bytes).unwrap().animations().count(),
        1
    );
    // Usage errors: 2; nothing to export: 1.
    let (code, _, err) = common::clipscope(&["export", &bundle, "--clip", "Nope", "-o", &glb]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("clips there: TestClip"), "{err}");
    let (code, _, err) = common::clipscope(&["export", &bundle, "--rig", "Nope", "-o", &glb]);
    assert_eq!(code, 2, "{err}");
    if let Some(morbman) = common::data("binary/wetboys_plateupemotesapi/morbman") {
        let (code, _, err) =
            common::clipscope(&["export", &morbman.display().to_string(), "-o", &glb]);
        assert_eq!(code, 1, "a rig without clips: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
