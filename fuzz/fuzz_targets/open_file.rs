//! Opening any bytes as a Unity file (bundle, serialized file, web container, YAML) and
//! decoding every clip in it must return, never panic, hang or exhaust memory.
#![no_main]

use std::path::Path;

use clipscope_core::{OpenOptions, Workspace};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let ws = Workspace::open_bytes(
        Path::new("fuzz.bin"),
        data.to_vec(),
        &OpenOptions::default(),
    );
    for clip in ws.clips.iter().filter_map(|c| c.data.as_ref().ok()) {
        let _ = clip.curves.iter().map(|c| c.curve.sample(0.5)).sum::<f32>();
    }
});
