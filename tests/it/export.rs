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

/// A folder exports from an index: the rig and its clips are chosen without holding every
/// clip, then only the files they lie in (and the rig's mesh, materials and textures) are
/// opened in full. The file written is the one a full opening of the whole folder gives.
#[test]
fn a_folder_exports_what_opening_it_all_in_full_exports_from_only_the_files_needed() {
    use clipscope_core::export::{ExportOptions, ExportRig, clips_playing_on, export};
    use clipscope_core::{Detail, OpenOptions, Workspace};
    let Some(binary) = common::data("binary") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("clipscope-export-folder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // The rig (morbman) and its clips (the emote bundles) lie in different files; the other
    // games' files are opened for the index only.
    for game in [
        "wetboys_plateupemotesapi",
        "lessscarymannequins",
        "day65platformer2d",
    ] {
        std::fs::create_dir_all(dir.join(game)).unwrap();
        for file in std::fs::read_dir(binary.join(game)).unwrap() {
            let file = file.unwrap().path();
            std::fs::copy(&file, dir.join(game).join(file.file_name().unwrap())).unwrap();
        }
    }
    let glb = dir.join("out.glb");
    let (code, out, err) = common::clipscope(&[
        "export",
        &dir.display().to_string(),
        "-o",
        &glb.display().to_string(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("rig morbman, 4 animations, 1 meshes"), "{out}");

    let full = Workspace::open(std::slice::from_ref(&dir), &OpenOptions::default());
    let rig = full.rigs.iter().position(|r| r.name == "morbman").unwrap();
    let clips = clips_playing_on(&full, rig);
    assert_eq!(clips.len(), 4);
    let expected = export(
        &full,
        &ExportRig::of(&full.rigs[rig]),
        &clips,
        &ExportOptions::default(),
    )
    .unwrap();
    assert!(
        std::fs::read(&glb).unwrap() == expected.glb,
        "the written file differs"
    );

    // What the export opened in full: the rig's bundle and the emote bundles holding the
    // clips, not the other games' files.
    let options = OpenOptions {
        detail: Detail::Index,
        ..OpenOptions::default()
    };
    let index = Workspace::open(std::slice::from_ref(&dir), &options);
    let at = index.same_object(&full, full.rigs[rig].at).unwrap();
    let indexed_rig = index.rigs.iter().find(|r| r.at == at).unwrap();
    let wanted: Vec<_> = clips
        .iter()
        .map(|c| index.same_object(&full, c.at).unwrap())
        .collect();
    let sources = index.sources_for(indexed_rig, &wanted);
    let names: Vec<String> = sources
        .iter()
        .map(|p| p.strip_prefix(&dir).unwrap().display().to_string())
        .collect();
    assert!(
        names
            .iter()
            .all(|n| n.starts_with("wetboys_plateupemotesapi/")),
        "{names:?}"
    );
    assert!(
        names.contains(&"wetboys_plateupemotesapi/morbman".to_string()),
        "{names:?}"
    );
    assert!(
        names.len() >= 2 && names.len() < index.files.len(),
        "{names:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
