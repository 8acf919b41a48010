//! The `clipscope unity` command: files, `.meta` guids stable across runs, the report's
//! measured errors, and a clip name that names nothing. What it writes is tested in the
//! core's `unity_write`.

use std::path::{Path, PathBuf};

use crate::common::{clipscope, data};

/// A folder under the system's temp folder, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("clipscope-unity-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn meta_guid(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix("guid: "))
        .unwrap()
        .to_string()
}

#[test]
fn the_command_writes_files_metas_and_a_report() {
    let Some(bundle) = data("binary/wetboys_plateupemotesapi/moisture_animationreplacements")
    else {
        return;
    };
    let out = TempDir::new("cli");
    let report = out.0.join("report.json");
    let dir = out.0.join("Assets");
    let args = [
        "unity",
        bundle.to_str().unwrap(),
        "-o",
        dir.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ];
    let (code, stdout, stderr) = clipscope(&args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("wrote ")).count(),
        3
    );
    // The LZMA bundle's decompressed file, kept for the second reading, is gone.
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(left, ["moisture_animationreplacements"], "{left:?}");
    let folder = dir.join("moisture_animationreplacements");
    let guid = meta_guid(&folder.join("Floss.anim.meta"));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let clips = json["clips"].as_array().unwrap();
    assert_eq!(clips.len(), 3);
    for c in clips {
        assert!(c["max_error"].as_f64().unwrap() <= 2e-5, "{c}");
        assert!(
            c["max_error_beyond_time_rounding"].as_f64().unwrap() <= 1e-6,
            "{c}"
        );
        assert!(Path::new(c["written"].as_str().unwrap()).is_file());
    }
    // A second run writes the same guids; measured by reading back, the same errors as the
    // default measure of the keys.
    let read_back = out.0.join("read_back.json");
    let (code, _, _) = clipscope(
        &[
            &args[..4],
            &["--read-back", "--report", read_back.to_str().unwrap()],
        ]
        .concat(),
    );
    assert_eq!(code, 0);
    assert_eq!(meta_guid(&folder.join("Floss.anim.meta")), guid);
    let again: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&read_back).unwrap()).unwrap();
    for (keys, back) in clips.iter().zip(again["clips"].as_array().unwrap()) {
        assert_eq!(keys["clip"], back["clip"]);
        assert_eq!(keys["measured"], "keys");
        assert_eq!(back["measured"], "read_back");
        assert_eq!(keys["max_error"], back["max_error"], "{keys} {back}");
    }
    // A name that names nothing: exit 1, listing what there is.
    let (code, _, stderr) = clipscope(&[
        "unity",
        bundle.to_str().unwrap(),
        "-o",
        dir.to_str().unwrap(),
        "--clip",
        "Nope",
    ]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("Floss") && stderr.contains("Dab"),
        "{stderr}"
    );
}

/// `clipscope unity` on a folder keeps each file's folders below it: one bundle found three
/// times, at the top and in two folders, is written three times into folders of its name,
/// each with the clips' own names (no `Floss 1`: they no longer share one folder).
#[test]
fn a_folders_files_keep_their_folders_in_the_output() {
    let name = "moisture_animationreplacements";
    let Some(bundle) = data(&format!("binary/wetboys_plateupemotesapi/{name}")) else {
        return;
    };
    let out = TempDir::new("mirror");
    let game = out.0.join("game");
    let places = [game.clone(), game.join("a"), game.join("b").join("c")];
    for place in &places {
        std::fs::create_dir_all(place).unwrap();
        std::fs::copy(&bundle, place.join(name)).unwrap();
    }
    let dir = out.0.join("Assets");
    let (code, stdout, stderr) = clipscope(&[
        "unity",
        game.to_str().unwrap(),
        "-o",
        dir.to_str().unwrap(),
        "--no-measure",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("wrote ")).count(),
        9,
        "{stdout}"
    );
    for below in [Path::new(""), Path::new("a"), Path::new("b/c")] {
        let folder = dir.join(below).join(name);
        let mut files: Vec<String> = std::fs::read_dir(&folder)
            .unwrap_or_else(|e| panic!("{}: {e}; {stdout}", folder.display()))
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        files.sort();
        assert_eq!(
            files,
            [
                "Dab.anim",
                "Dab.anim.meta",
                "Floss.anim",
                "Floss.anim.meta",
                "nobones.anim",
                "nobones.anim.meta"
            ],
            "{}",
            folder.display()
        );
    }
}
