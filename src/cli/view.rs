//! `clipscope view`: the viewer window.

use std::path::PathBuf;
use std::process::ExitCode;

use bevy::app::AppExit;
use clipscope::viewer::{self, ViewerOptions};

use super::Inputs;

#[derive(clap::Args)]
pub struct ViewArgs {
    /// Unity files or folders to open (none: the built-in demo).
    paths: Vec<PathBuf>,
    /// Clip to show first.
    #[arg(long)]
    clip: Option<String>,
    /// Pin a clip as the reference the shown clip is compared with (ghost lines in the curve
    /// view, each track's largest difference): the first clip of that name other than the
    /// shown one, in any opened file, so `view Floss.anim game.bundle --clip Floss --reference
    /// Floss` compares the text clip with its build.
    #[arg(long, value_name = "NAME")]
    reference: Option<String>,
    /// A file or folder whose rig the clips play on (matched by path hash).
    #[arg(long)]
    rig: Option<PathBuf>,
    /// Show this clip time, paused.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    at: Option<f32>,
    /// Render one frame to this PNG and exit (joint screen positions go to PNG.joints.json).
    #[arg(long, value_name = "PNG")]
    screenshot: Option<PathBuf>,
    /// Hide the meshes: the skeleton alone.
    #[arg(long)]
    no_mesh: bool,
    /// Measure the viewer's speed: once the scene is ready, play for SECONDS with vsync off,
    /// print the frames a second drawn and exit.
    #[arg(long, value_name = "SECONDS", value_parser = positive_seconds, allow_negative_numbers = true)]
    fps: Option<f32>,
    #[command(flatten)]
    inputs: Inputs,
}

pub fn run_demo() -> ExitCode {
    exit_code(viewer::run(ViewerOptions::default()))
}

pub fn run(args: &ViewArgs) -> ExitCode {
    let options = ViewerOptions {
        paths: args.paths.clone(),
        clip: args.clip.clone(),
        reference: args.reference.clone(),
        rig: args.rig.clone(),
        at: args.at,
        screenshot: args.screenshot.clone(),
        unity_version: args.inputs.unity_version.clone(),
        no_mesh: args.no_mesh,
        fps: args.fps,
    };
    exit_code(viewer::run(options))
}

/// A finite number of seconds above zero.
fn positive_seconds(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("{s:?} is not a number of seconds above zero")),
    }
}

fn exit_code(exit: AppExit) -> ExitCode {
    match exit {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}
