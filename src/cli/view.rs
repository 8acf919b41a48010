//! `clipscope view`: the viewer window.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use crate::viewer::{self, ClipIndex, Library, RigChoice, RootMotionMode, ViewerOptions};
use bevy::app::AppExit;
use clipscope_core::demo::{DEMO, DEMO_FILE_NAME};
use clipscope_core::{OpenOptions, Workspace};

use super::Inputs;
use super::pose::RigWanted;

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
    /// Name of the rig the clips play on (an Animator's or Animation's GameObject, as
    /// `pose --rig` takes it), in the opened files; a name no rig has is an error listing
    /// the rigs there. Without it: a rig per clip, as `pose` picks.
    #[arg(long)]
    rig: Option<String>,
    /// Path id of the rig's Animator or Animation component (`list` shows it): picks one of
    /// several rigs that share a name. With `--rig`, the name must match too.
    #[arg(long, allow_negative_numbers = true)]
    rig_path_id: Option<i64>,
    /// Show this clip time, paused.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    at: Option<f32>,
    /// Play only clip times A to B (seconds), looping or ping-ponging inside them as the
    /// clip's wrap mode does; `i` and `o` set the markers in the window, Backspace clears
    /// them. A range outside the clip plays the whole clip.
    #[arg(long, value_name = "A..B", value_parser = parse_range, allow_hyphen_values = true)]
    range: Option<(f32, f32)>,
    /// Onion skins: draw N poses before (red) and after (blue) the playhead as translucent
    /// skeletons (the rig panel sets them too).
    #[arg(long, value_name = "N", default_value_t = 0)]
    onion: u32,
    /// Frames between onion poses.
    #[arg(long, value_name = "FRAMES", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    onion_step: u32,
    /// Draw this joint's motion path (its name, as `pose` lists it): its world position at
    /// every frame of the clip or the play range.
    #[arg(long, value_name = "JOINT")]
    path: Option<String>,
    /// Render one frame to this PNG and exit (joint screen positions go to PNG.joints.json).
    #[arg(long, value_name = "PNG")]
    screenshot: Option<PathBuf>,
    /// Hide the meshes: the skeleton alone.
    #[arg(long)]
    no_mesh: bool,
    /// Draw the joint markers over the meshes too (off by default where a mesh is shown, so
    /// the skeleton's thin bones do not hide the character; `s` toggles the skeleton).
    #[arg(long)]
    joints: bool,
    /// Draw the body's root-motion trajectory on the ground (a humanoid's Hips, else the
    /// root the clip moves): a dot per frame and an arrow every quarter second for the way
    /// the body faces.
    #[arg(long)]
    trajectory: bool,
    /// How root motion plays over loops: `in-place` (the root holds still), `reset` (each
    /// loop starts back where the clip starts, as the clip is stored) or `accumulate` (each
    /// loop starts where the last ended, as a game moves the character; the camera follows).
    #[arg(long, value_name = "MODE", value_enum, default_value_t = RootMotionMode::Reset)]
    root_motion: RootMotionMode,
    /// Draw the motion paths of the end joints too: a humanoid's head, hands and feet (a
    /// generic rig's joints named like them), over the clip or the play range.
    #[arg(long)]
    end_paths: bool,
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
    let rig = RigChoice {
        name: args.rig.clone(),
        path_id: args.rig_path_id,
    };
    // A named rig or clip must be there before the window opens: open the files here,
    // check, and hand them to the viewer (which then does not read them again).
    let named = rig.given() || args.clip.is_some() || args.reference.is_some();
    let workspace = if named {
        let (ws, options) = if args.paths.is_empty() {
            let options = OpenOptions::default();
            let demo = Workspace::open_bytes(Path::new(DEMO_FILE_NAME), DEMO.to_vec(), &options);
            (demo, options)
        } else {
            args.inputs.open_index(&args.paths)
        };
        if rig.given() && rig.find(&ws).is_none() {
            let wanted = RigWanted {
                name: args.rig.as_deref(),
                path_id: args.rig_path_id,
            };
            return wanted.not_found(&ws);
        }
        if let Some(code) = clip_not_found(&ws, args.clip.as_deref(), args.reference.as_deref()) {
            return code;
        }
        // Weighed here, with a bar, as a whole game takes a while: the window then opens
        // with every clip ready to pick.
        let library = Library::new(Arc::new(ws), options);
        let bar = super::progress::work(library.main.clips.len(), "clips weighed");
        bar.set_message("their files read again");
        let index = ClipIndex::weigh_with(&library, || bar.inc(1));
        bar.finish_and_clear();
        Some((library, index))
    } else {
        None
    };
    let options = ViewerOptions {
        paths: args.paths.clone(),
        clip: args.clip.clone(),
        reference: args.reference.clone(),
        rig,
        workspace,
        at: args.at,
        range: args.range,
        onion: args.onion,
        onion_step: args.onion_step,
        path: args.path.clone(),
        screenshot: args.screenshot.clone(),
        unity_version: args.inputs.unity_version.clone(),
        no_mesh: args.no_mesh,
        joints: args.joints,
        trajectory: args.trajectory,
        end_paths: args.end_paths,
        root_motion: args.root_motion,
        fps: args.fps,
    };
    exit_code(viewer::run(options))
}

/// Most clip names an error lists.
const LISTED: usize = 40;

/// An error naming what `--clip` or `--reference` named that no decoded clip has, with the
/// clip names there; `None` when both name clips (the reference one other than the shown).
fn clip_not_found(ws: &Workspace, clip: Option<&str>, reference: Option<&str>) -> Option<ExitCode> {
    let shown = viewer::initial_clip(ws, clip);
    let missing = match (clip, reference) {
        (Some(name), _) if shown.is_none() => ("--clip", name, "no decoded clip is named"),
        (_, Some(name)) if viewer::initial_reference(ws, name, shown).is_none() => (
            "--reference",
            name,
            "no decoded clip other than the shown one is named",
        ),
        _ => return None,
    };
    eprintln!("error: {}: {} {:?}", missing.0, missing.2, missing.1);
    let mut names: Vec<&str> = ws
        .clips
        .iter()
        .filter(|c| c.data.is_ok())
        .map(|c| c.name.as_str())
        .collect();
    names.sort_unstable();
    names.dedup();
    if names.is_empty() {
        eprintln!("the opened files have no clip that decodes");
    } else {
        let more = names.len().saturating_sub(LISTED);
        let mut list = names[..names.len().min(LISTED)].join(", ");
        if more > 0 {
            list.push_str(&format!(
                " and {more} more (`clipscope list` shows them all)"
            ));
        }
        eprintln!("clips there: {list}");
    }
    Some(ExitCode::from(2))
}

/// `A..B`: two finite clip times, A before B.
fn parse_range(s: &str) -> Result<(f32, f32), String> {
    let (a, b) = s
        .split_once("..")
        .ok_or_else(|| format!("{s:?} is not a range A..B (seconds, such as 0.5..1.25)"))?;
    let time = |t: &str| {
        t.trim()
            .parse::<f32>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("{t:?} in {s:?} is not a number of seconds"))
    };
    let (a, b) = (time(a)?, time(b)?);
    if a >= b {
        return Err(format!("the range {s:?} is empty: A must come before B"));
    }
    Ok((a, b))
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
