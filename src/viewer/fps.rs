//! `clipscope view … --fps SECONDS`: once the scene has been shown long enough for the
//! pipelines to compile, count the frames drawn (vsync off) for SECONDS of wall time, print
//! the rate and exit. A measure of how the viewer keeps up on the machine it runs on.

use std::time::Instant;

use bevy::prelude::*;

use super::ViewerOptions;
use super::capture::WARMUP_FRAMES;
use super::scene::SceneState;

/// Where the measurement stands: when it started, and the frames drawn since.
#[derive(Default)]
pub struct Measure {
    started: Option<Instant>,
    frames: u64,
}

/// Counts frames after the warm-up; prints the rate and exits after the requested time.
pub fn measure_fps(
    options: Res<ViewerOptions>,
    scene: Res<SceneState>,
    mut measure: Local<Measure>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(seconds) = options.fps else { return };
    if scene.root.is_none() || scene.frames < WARMUP_FRAMES {
        return;
    }
    let Some(started) = measure.started else {
        measure.started = Some(Instant::now());
        return;
    };
    measure.frames += 1;
    let elapsed = started.elapsed().as_secs_f64();
    if elapsed >= f64::from(seconds) {
        let rate = measure.frames as f64 / elapsed;
        println!(
            "{} frames in {elapsed:.1} s: {rate:.1} frames a second ({:.1} ms a frame)",
            measure.frames,
            1e3 / rate
        );
        exit.write(AppExit::Success);
    }
}
