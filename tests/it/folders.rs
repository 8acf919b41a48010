//! Whole folders: opened in parallel, a failing file reported while the others list, files
//! that are not Unity files skipped and counted, and clip summaries that agree with the full
//! decode.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use clipscope_core::{OpenOptions, Workspace};
use common::{clipscope, data};
use serde_json::Value;

/// A fresh folder under the target directory's temp area.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("clipscope-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A folder of three real bundles, a truncated copy of one, and two files that are not
/// Unity files.
fn game_folder(root: &Path, name: &str) -> Option<PathBuf> {
    let dir = scratch(name);
    for rel in [
        "binary/wetboys_plateupemotesapi/moisture_animationreplacements",
        "binary/wetboys_plateupemotesapi/morbman",
        "binary/lessscarymannequins/copy.bundle",
    ] {
        let src = data(rel)?;
        std::fs::copy(&src, dir.join(src.file_name().unwrap())).unwrap();
    }
    let bytes =
        std::fs::read(root.join("binary/wetboys_plateupemotesapi/customemotespackage")).unwrap();
    std::fs::write(dir.join("broken.bundle"), &bytes[..bytes.len() / 2]).unwrap();
    std::fs::write(dir.join("readme.txt"), "not a Unity file").unwrap();
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/notes.json"), "{}").unwrap();
    Some(dir)
}

fn shared() -> Option<PathBuf> {
    data("").map(|p| p.to_path_buf())
}

#[test]
fn a_broken_file_is_reported_and_the_others_still_list() {
    let Some(root) = shared() else { return };
    let Some(dir) = game_folder(&root, "broken") else {
        return;
    };
    let (code, out, err) = clipscope(&["list", "--json", dir.to_str().unwrap()]);
    assert_eq!(
        code, 1,
        "a Unity file failed, so scripts must notice: {err}"
    );
    let v: Value = serde_json::from_str(&out).unwrap();
    let errors = v["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].as_str().unwrap().contains("broken.bundle"),
        "{errors:?}"
    );
    assert_eq!(v["skipped_files"], 2);
    let mut names: Vec<&str> = v["clips"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["Dab", "Floss", "TestClip", "nobones"]);
    let rigs: Vec<&str> = v["rigs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert!(
        rigs.contains(&"morbman") && rigs.contains(&"quinn"),
        "{rigs:?}"
    );
    // The broken file's neighbour in the same folder still resolves the controller's clips.
    let morbman = v["rigs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "morbman")
        .unwrap();
    assert_eq!(morbman["joints"], 38);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn summaries_agree_with_the_full_decode_and_progress_counts_every_file() {
    let Some(root) = shared() else { return };
    let Some(dir) = game_folder(&root, "summaries") else {
        return;
    };
    let seen = Mutex::new(Vec::new());
    let full = Workspace::open_with_progress(
        std::slice::from_ref(&dir),
        &OpenOptions::default(),
        |done, total, _| {
            seen.lock().unwrap().push((done, total));
        },
    );
    let mut seen = seen.into_inner().unwrap();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen, (1..=6).map(|d| (d, 6)).collect::<Vec<_>>());
    let summary = Workspace::open(
        std::slice::from_ref(&dir),
        &OpenOptions {
            detail: clipscope_core::Detail::Summary,
            ..OpenOptions::default()
        },
    );
    assert_eq!(full.clips.len(), summary.clips.len());
    for (f, s) in full.clips.iter().zip(&summary.clips) {
        let (f, s) = (f.data.as_ref().unwrap(), s.data.as_ref().unwrap());
        assert!(s.curves.is_empty() && s.summary_only.is_some());
        assert_eq!(
            (
                f.curve_count(),
                f.binding_count(),
                f.event_count(),
                f.counts,
                f.stop
            ),
            (
                s.curve_count(),
                s.binding_count(),
                s.event_count(),
                s.counts,
                s.stop
            )
        );
        assert!(f.curve_count() > 0);
    }
    assert_eq!(full.rigs.len(), summary.rigs.len());
    std::fs::remove_dir_all(dir).unwrap();
}
