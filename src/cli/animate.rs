//! `clipscope animate`: a controller run from its entry states under a parameter script; per
//! requested time, every layer's states, transition and leaf clips (weights and clip times),
//! and with `--rig` every joint's pose (the layers blended on the rig), as JSON.

use std::path::PathBuf;
use std::process::ExitCode;

use clipscope_core::Workspace;
use clipscope_core::animator::json;
use clipscope_core::animator::machine::LayerOutput;
use clipscope_core::animator::model::Controller;
use clipscope_core::animator::pose::PoseBlender;
use clipscope_core::animator::script::{self, Action, Frame, Step};
use clipscope_core::humanoid::{JointLocal, PoseOptions};
use clipscope_core::pose::{to_row, world};
use clipscope_core::workspace::{ObjectRef, RigEntry};
use serde_json::{Value, json};

use super::Inputs;
use super::pose::{RigWanted, finite};

#[derive(clap::Args)]
pub struct AnimateArgs {
    /// Unity files or folders holding the controller and its clips.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Name of the controller to run.
    #[arg(long)]
    controller: String,
    /// Parameter script: entries `SECONDS:ACTION` separated by `;`, ACTION one of
    /// `Name=VALUE` (float, int, true/false), `Name!` (set a trigger), `play LAYER.STATE[@NT]`,
    /// `crossfade LAYER.STATE SECONDS`. An action at time t applies before the update that
    /// reaches t. Example: "0:Speed=0.4;1.5:Jump!;2:Grounded=false".
    #[arg(long, default_value = "")]
    script: String,
    /// Comma-separated times in seconds to report (default: every update until one second
    /// after the script's last action).
    #[arg(long, value_delimiter = ',')]
    times: Option<Vec<f64>>,
    /// Updates per second.
    #[arg(long, default_value_t = 60.0)]
    fps: f64,
    /// Name of the rig to pose (an Animator's or Animation's GameObject): each frame then
    /// carries every joint's local and rig-space transform, the controller's layers blended
    /// on it (`pose`'s rows).
    #[arg(long)]
    rig: Option<String>,
    /// Path id of the rig's Animator or Animation component (`list` shows it), to pick one
    /// of several rigs that share a name; alone, it names the rig.
    #[arg(long, allow_negative_numbers = true)]
    rig_path_id: Option<i64>,
    /// Keep the body over the origin, facing forward (humanoid clips).
    #[arg(long)]
    no_root_motion: bool,
    /// Print JSON (the only output format).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    inputs: Inputs,
}

pub fn run(args: &AnimateArgs) -> ExitCode {
    if !(args.fps.is_finite() && args.fps > 0.0) {
        eprintln!("error: --fps must be a positive number");
        return ExitCode::from(2);
    }
    let actions = match script::parse(&args.script) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: --script: {e}");
            return ExitCode::from(2);
        }
    };
    let wanted = RigWanted {
        name: args.rig.as_deref(),
        path_id: args.rig_path_id,
    };
    let ws = if wanted.given() {
        args.inputs.open(&args.paths)
    } else {
        args.inputs.open_summaries(&args.paths)
    };
    let found: Vec<_> = ws
        .controllers
        .iter()
        .filter(|c| c.name == args.controller)
        .collect();
    let entry = match found.as_slice() {
        [one] => one,
        [] => {
            let code = super::report_problems(&ws);
            eprintln!("error: no controller named {:?}", args.controller);
            let names: Vec<&str> = ws.controllers.iter().map(|c| c.name.as_str()).collect();
            if !names.is_empty() {
                eprintln!("controllers there: {}", names.join(", "));
            }
            return if code == ExitCode::SUCCESS {
                ExitCode::from(2)
            } else {
                code
            };
        }
        [first, ..] => {
            eprintln!(
                "warning: {} controllers are named {:?}; running the first ({})",
                found.len(),
                args.controller,
                ws.files[first.at.file].location()
            );
            first
        }
    };
    let model = match &entry.model {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: controller {:?}: {e}", entry.name);
            return ExitCode::from(1);
        }
    };
    let times = args.times.clone().unwrap_or_default();
    let out = if wanted.given() {
        let Some(rig) = ws.rigs.iter().find(|r| wanted.matches(r)) else {
            return wanted.not_found(&ws);
        };
        let options = PoseOptions {
            root_motion: !args.no_root_motion,
        };
        posed(&ws, model, rig, &actions, args.fps, &times, options)
    } else {
        let (frames, warnings) = script::run(model, &actions, args.fps, &times);
        (json::frames(&frames), warnings)
    };
    println!("{}", serde_json::to_string(&out.0).unwrap_or_default());
    for w in ws.warnings.iter().chain(&out.1) {
        eprintln!("warning: {w}");
    }
    ExitCode::SUCCESS
}

/// The scripted run with every update's output blended on `rig`: the frames' JSON with
/// `"joints"` added to each, and the warnings.
fn posed(
    ws: &Workspace,
    model: &Controller,
    rig: &RigEntry,
    actions: &[(f64, Action)],
    fps: f64,
    times: &[f64],
    options: PoseOptions,
) -> (Value, Vec<String>) {
    let clip = |r: &clipscope_core::animator::model::ResolvedClip| {
        ws.clip(ObjectRef {
            file: r.file,
            path_id: r.path_id,
        })
        .and_then(|e| e.data.as_ref().ok())
    };
    let mut blender = PoseBlender::new(model, &rig.skeleton, rig.humanoid.as_deref(), &clip);
    blender.set_options(options);
    let mut latest: Vec<JointLocal> = Vec::new();
    let mut poses: Vec<Vec<JointLocal>> = Vec::new();
    let mut observe = |step: Step<'_>| match step {
        Step::Update(layers) => latest = blend(&mut blender, layers),
        Step::Frame => poses.push(latest.clone()),
    };
    let (frames, mut warnings) =
        script::run_observed(model, actions, fps, times, Some(&mut observe));
    warnings.splice(0..0, blender.warnings().iter().cloned());
    if let Some(h) = rig.humanoid.as_deref() {
        warnings.extend(h.warnings().iter().cloned());
    }
    (frames_json(&frames, &poses, rig), warnings)
}

fn blend(blender: &mut PoseBlender<'_>, layers: &[LayerOutput]) -> Vec<JointLocal> {
    blender.blend(layers).to_vec()
}

/// `json::frames` with each frame's `"joints"`: `{"path", "path_hash", "human", "local", "world"}`, the
/// rows as `pose` prints them (translation, rotation, scale).
fn frames_json(frames: &[Frame], poses: &[Vec<JointLocal>], rig: &RigEntry) -> Value {
    let mut out = json::frames(frames);
    let Value::Array(items) = &mut out else {
        return out;
    };
    for (item, locals) in items.iter_mut().zip(poses) {
        let worlds = world(&rig.skeleton, locals);
        let joints: Vec<Value> = rig
            .skeleton
            .joints
            .iter()
            .enumerate()
            .map(|(j, joint)| {
                json!({
                    "path": joint.path,
                    "path_hash": joint.path_hash,
                    "human": rig.humanoid.as_deref().and_then(|h| h.joint_bone(j)).map(|b| b.name()),
                    "local": locals.get(j).map(to_row).map(finite),
                    "world": worlds.get(j).map(to_row).map(finite),
                })
            })
            .collect();
        item["joints"] = Value::Array(joints);
    }
    out
}
