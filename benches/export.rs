//! glTF export speed (`cargo bench --bench export`): a humanoid character (morbman) with a
//! dozen humanoid clips baked onto it, and a generic rig (duckhunted's) with a 60-second
//! legacy clip, in linear mode with meshes. Prints clip-seconds exported a second (goal: at
//! least 100 for a humanoid rig; clips are exported on every core) and the time of opening
//! the same files as `list` does, next to it.
//!
//! Needs `../shared/data`.

mod common;

use std::path::PathBuf;

use clipscope_core::export::{ExportClip, ExportOptions, ExportRig, clips_playing_on, export};
use clipscope_core::{OpenOptions, Workspace};
use common::{data, median};

fn paths(rels: &[&str]) -> Option<Vec<PathBuf>> {
    rels.iter().map(|r| data(r)).collect()
}

/// Exports `clips` on rig `rig` and prints the rate, next to `list`'s open of `files`.
fn measure(label: &str, files: &[PathBuf], ws: &Workspace, rig: usize, clips: &[ExportClip<'_>]) {
    let seconds: f32 = clips.iter().map(|c| c.clip.length()).sum();
    let target = ExportRig::of(&ws.rigs[rig]);
    let options = ExportOptions::default();
    let took = median(3, || {
        std::hint::black_box(export(ws, &target, clips, &options).unwrap());
    });
    let list = median(3, || {
        std::hint::black_box(Workspace::open(
            files,
            &OpenOptions {
                detail: clipscope_core::Detail::Summary,
                ..OpenOptions::default()
            },
        ));
    });
    println!(
        "{label}: {} joints, {} clips, {seconds:.1} clip-seconds exported in {:.1} ms: {:.0} clip-seconds a second (goal >= 100); list on the same files: {:.1} ms (export/list {:.2})",
        ws.rigs[rig].skeleton.joints.len(),
        clips.len(),
        took.as_secs_f64() * 1e3,
        f64::from(seconds) / took.as_secs_f64(),
        list.as_secs_f64() * 1e3,
        took.as_secs_f64() / list.as_secs_f64()
    );
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    if let Some(files) = paths(&[
        "binary/wetboys_plateupemotesapi/morbman",
        "binary/wetboys_plateupemotesapi/customemotespackage",
        "binary/wetboys_plateupemotesapi/moisture_animationreplacements",
    ]) {
        let ws = Workspace::open(&files, &OpenOptions::default());
        let rig = ws
            .rigs
            .iter()
            .position(|r| r.name == "morbman")
            .expect("morbman");
        let once = clips_playing_on(&ws, rig);
        let clips: Vec<ExportClip<'_>> = once.iter().cycle().take(12).copied().collect();
        measure("humanoid (morbman)", &files, &ws, rig, &clips);
    }
    if let Some(files) = paths(&["binary/duckhunted/WebPlayer.unity3d"]) {
        let ws = Workspace::open(&files, &OpenOptions::default());
        let rig = (0..ws.rigs.len())
            .max_by_key(|&i| ws.rigs[i].clips.len())
            .expect("a rig");
        let run = ws
            .clips
            .iter()
            .find(|c| c.name == "Run")
            .and_then(|c| c.data.as_ref().ok().map(|d| (c.at, d)))
            .expect("Run");
        let mut long = run.1.clone();
        long.stop = long.start + 60.0;
        let clips = [ExportClip {
            at: run.0,
            clip: &long,
        }];
        measure(
            "generic (duckhunted, Run held for 60 s)",
            &files,
            &ws,
            rig,
            &clips,
        );
    }
}
