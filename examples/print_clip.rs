//! Open a Unity file, list its clips and print one clip's tracks sampled at a time.
//!
//! `cargo run --release --example print_clip -- ../shared/data/binary/duckhunted/WebPlayer.unity3d Run 0.25`

use std::path::PathBuf;

use clipscope_core::{OpenOptions, Workspace};

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(path), Some(name)) = (args.next(), args.next()) else {
        eprintln!("usage: print_clip FILE CLIP [TIME]");
        std::process::exit(2);
    };
    let time: f32 = args.next().and_then(|t| t.parse().ok()).unwrap_or(0.0);
    let ws = Workspace::open(&[PathBuf::from(path)], &OpenOptions::default());
    for error in &ws.errors {
        eprintln!("error: {error}");
    }
    let Some(clip) = ws
        .clips
        .iter()
        .filter_map(|c| c.data.as_ref().ok())
        .find(|c| c.name == name)
    else {
        eprintln!("no clip named {name}");
        std::process::exit(1);
    };
    println!(
        "{} ({:.3} s at {} fps, {})",
        clip.name,
        clip.length(),
        clip.sample_rate,
        clip.wrap_mode()
    );
    let t = clip.wrap_mode().map_time(time, clip.start, clip.stop);
    for track in &clip.tracks {
        let binding = &clip.bindings[track.binding];
        let values: Vec<f32> = track
            .curves
            .iter()
            .map(|&i| clip.curves[i].curve.sample(t))
            .collect();
        println!("  {:<50} {values:?}", binding.describe());
    }
}
