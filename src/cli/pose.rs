//! `clipscope pose`: every joint of a rig posed by a clip at given times, in Unity's space.

use std::path::PathBuf;
use std::process::ExitCode;

use clipscope_core::check::pick_rig;
use clipscope_core::clip::MirrorMode;
use clipscope_core::humanoid::{HumanoidRig, JointLocal, PoseOptions};
use clipscope_core::pose::{ClipPoser, to_row};
use clipscope_core::rig::Skeleton;
use clipscope_core::sample::{frame_times, wrapped_time};
use clipscope_core::{ClipData, Workspace};
use serde_json::{Value, json};

use super::{Inputs, report_problems};

#[derive(clap::Args)]
pub struct PoseArgs {
    /// Unity files or folders holding the clip and the rig (they may be different files).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Name of the clip.
    #[arg(long)]
    clip: String,
    /// Path id of the clip, when several clips share the name.
    #[arg(long, allow_negative_numbers = true)]
    path_id: Option<i64>,
    /// Name of the rig (an Animator's or Animation's GameObject). Without it: for a humanoid
    /// clip, a humanoid rig that lists it, else the first humanoid rig; for others, a rig that
    /// lists the clip, else the one matching most of its paths (as the viewer picks).
    #[arg(long)]
    rig: Option<String>,
    /// Path id of the rig's Animator or Animation component (`list` shows it): picks one of
    /// several rigs that share a name (a character and its copy). With `--rig`, the name
    /// must match too.
    #[arg(long, allow_negative_numbers = true)]
    rig_path_id: Option<i64>,
    /// Comma-separated times in seconds (default: every frame at the clip's sample rate,
    /// then the stop time).
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
    times: Option<Vec<f64>>,
    /// Wrap mode applied to each time: once, loop, pingpong, clamp, default, or clip (the
    /// clip's own).
    #[arg(long, default_value = "clip")]
    wrap: String,
    /// Keep the body over the origin, facing forward (humanoid clips; generic clips keep
    /// their root's rest transform).
    #[arg(long)]
    no_root_motion: bool,
    /// Mirror a humanoid clip (left and right swapped, as Unity's Mirror does): on, off, or
    /// clip (the clip's own `m_Mirror`, as Unity plays it).
    #[arg(long, default_value = "clip", value_parser = parse_mirror)]
    mirror: MirrorMode,
    /// Print the JSON object instead of a table per time.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    inputs: Inputs,
}

/// One time's pose: every joint's local transform, and its transform in the rig's space.
type Frame = (Vec<JointLocal>, Vec<JointLocal>);

/// The rig a clip is posed on.
struct Target<'a> {
    name: String,
    skeleton: std::borrow::Cow<'a, Skeleton>,
    humanoid: Option<&'a HumanoidRig>,
    /// Why the rig's humanoid avatar cannot pose it.
    humanoid_error: Option<String>,
}

pub fn run(args: &PoseArgs) -> ExitCode {
    let ws = args.inputs.open(&args.paths);
    let shown = args.paths.first().cloned().unwrap_or_default();
    let (entry, clip, wrap) = match super::find_clip(&ws, &args.clip, args.path_id, &shown)
        .and_then(|entry| super::wrap_for(entry, &args.wrap).map(|(c, w)| (entry, c, w)))
    {
        Ok(found) => found,
        Err(code) => return code,
    };
    let mut warnings = Vec::new();
    let wanted = RigWanted {
        name: args.rig.as_deref(),
        path_id: args.rig_path_id,
    };
    let Some(target) = choose(&ws, entry.at, clip, &wanted, &mut warnings) else {
        return wanted.not_found(&ws);
    };
    let poser = ClipPoser::new(clip, &target.skeleton, target.humanoid).mirrored(args.mirror);
    if clipscope_core::humanoid::ClipMuscles::new(clip).is_humanoid() && !poser.is_humanoid() {
        warnings.push(match &target.humanoid_error {
            Some(e) => format!(
                "rig {:?} cannot pose humanoid clips ({e}): the clip's muscles are not applied",
                target.name
            ),
            None => format!(
                "rig {:?} has no humanoid avatar: the clip's muscles are not applied",
                target.name
            ),
        });
    }
    if let Some(h) = target.humanoid.filter(|_| poser.is_humanoid()) {
        warnings.extend(h.warnings().iter().cloned());
    }
    let options = PoseOptions {
        root_motion: !args.no_root_motion,
    };
    let times = args.times.clone().unwrap_or_else(|| frame_times(clip));
    let frames: Vec<Frame> = times
        .iter()
        .map(|&t| {
            let locals = poser.locals(wrapped_time(clip, wrap, t), &options);
            let world = poser.world(&locals);
            (locals, world)
        })
        .collect();
    if args.json {
        let mut out = to_json(clip, &target, &poser, &times, &frames, &warnings);
        out["goals"] = goals_json(&poser, &options, clip, &times, &frames, wrap);
        println!("{}", serde_json::to_string(&out).unwrap_or_default());
    } else {
        print_table(clip, &target, &times, &frames);
        for w in &warnings {
            eprintln!("warning: {w}");
        }
    }
    report_problems(&ws)
}

/// The rig `--rig` and `--rig-path-id` ask for.
pub(super) struct RigWanted<'a> {
    pub(super) name: Option<&'a str>,
    pub(super) path_id: Option<i64>,
}

impl RigWanted<'_> {
    pub(super) fn given(&self) -> bool {
        self.name.is_some() || self.path_id.is_some()
    }

    pub(super) fn matches(&self, rig: &clipscope_core::workspace::RigEntry) -> bool {
        self.name.is_none_or(|n| rig.name == n)
            && self.path_id.is_none_or(|id| rig.at.path_id == id)
    }

    /// Says that no rig is the one wanted, and which rigs there are: a usage error.
    pub(super) fn not_found(&self, ws: &Workspace) -> ExitCode {
        eprintln!("error: no rig {}", self.describe());
        let names: Vec<String> = ws
            .rigs
            .iter()
            .map(|r| format!("{} (path id {})", r.name, r.at.path_id))
            .collect();
        if !names.is_empty() {
            eprintln!("rigs there: {}", names.join(", "));
        }
        ExitCode::from(2)
    }

    pub(super) fn describe(&self) -> String {
        match (self.name, self.path_id) {
            (Some(n), Some(id)) => format!("named {n:?} with path id {id}"),
            (Some(n), None) => format!("named {n:?}"),
            (None, Some(id)) => format!("with path id {id}"),
            (None, None) => String::new(),
        }
    }
}

/// The rig `--rig`/`--rig-path-id` name, else the rig the viewer would pick, else a
/// stand-in built from the clip's own paths (with a warning).
fn choose<'a>(
    ws: &'a Workspace,
    at: clipscope_core::workspace::ObjectRef,
    clip: &ClipData,
    wanted: &RigWanted<'_>,
    warnings: &mut Vec<String>,
) -> Option<Target<'a>> {
    let rig = if wanted.given() {
        Some(ws.rigs.iter().find(|r| wanted.matches(r))?)
    } else {
        pick_rig(&ws.rigs, at, clip).map(|(i, _)| &ws.rigs[i])
    };
    if let Some(rig) = rig {
        return Some(Target {
            name: rig.name.clone(),
            skeleton: std::borrow::Cow::Borrowed(&rig.skeleton),
            humanoid: rig.humanoid.as_deref(),
            humanoid_error: rig.humanoid_error.clone(),
        });
    }
    warnings.push("no rig in the files fits the clip: joints stand in for its bound paths".into());
    let names = ws
        .rigs
        .iter()
        .flat_map(|r| r.tos.iter().map(|(&h, p)| (h, p.clone())))
        .collect();
    Some(Target {
        name: String::new(),
        skeleton: std::borrow::Cow::Owned(Skeleton::placeholder(
            clip.bindings.iter().map(|b| b.path),
            &names,
        )),
        humanoid: None,
        humanoid_error: None,
    })
}

fn to_json(
    clip: &ClipData,
    target: &Target<'_>,
    poser: &ClipPoser<'_>,
    times: &[f64],
    frames: &[Frame],
    warnings: &[String],
) -> Value {
    let joints: Vec<Value> = target
        .skeleton
        .joints
        .iter()
        .enumerate()
        .map(|(j, joint)| {
            let rows = |pick: fn(&Frame) -> &Vec<JointLocal>| {
                frames
                    .iter()
                    .map(|f| pick(f).get(j).map(to_row).map(finite))
                    .collect::<Vec<_>>()
            };
            json!({
                "path": target.skeleton.path_label(j),
                "path_hash": joint.path_hash,
                "human": target.humanoid.and_then(|h| h.joint_bone(j)).map(|b| b.name()),
                "local": rows(|f| &f.0),
                "world": rows(|f| &f.1),
            })
        })
        .collect();
    json!({
        "clip": clip.name, "rig": target.name, "humanoid": poser.is_humanoid(),
        "mirrored": poser.is_mirrored(),
        "times": times, "joints": joints, "warnings": warnings,
    })
}

/// `--mirror`: on, off or clip.
pub(super) fn parse_mirror(text: &str) -> Result<MirrorMode, String> {
    MirrorMode::parse(text).ok_or_else(|| format!("{text:?} is not on, off or clip"))
}

/// Per time, the clip's IK goals in the rig's space (`humanoid.md` §5) with, for each
/// foot, the distance from the posed sole to its goal; `null` for a clip not posed from
/// muscles. Goals the clip has no curves for are left out.
fn goals_json(
    poser: &ClipPoser<'_>,
    options: &PoseOptions,
    clip: &ClipData,
    times: &[f64],
    frames: &[Frame],
    wrap: clipscope_core::WrapMode,
) -> Value {
    const NAMES: [&str; 4] = ["LeftFoot", "RightFoot", "LeftHand", "RightHand"];
    let Some((rig, muscles)) = poser.humanoid() else {
        return Value::Null;
    };
    let per_time = times.iter().zip(frames).map(|(&t, (_, world))| {
        let mut pose = clipscope_core::humanoid::HumanPose::default();
        muscles.sample(clip, wrapped_time(clip, wrap, t), &mut pose);
        let goals = rig.goals(&pose, options);
        let distances = rig.foot_goal_distances(&pose, options, world);
        let mut out = serde_json::Map::new();
        for (i, goal) in goals
            .iter()
            .enumerate()
            .filter(|(i, _)| muscles.has_goal(*i))
        {
            let mut entry = json!({ "position": goal.t, "rotation": goal.q });
            if let Some(d) = distances.get(i).copied().flatten() {
                entry["sole_distance"] = json!(d);
            }
            out.insert(NAMES[i].to_string(), entry);
        }
        Value::Object(out)
    });
    Value::Array(per_time.collect())
}

/// A row with non-finite numbers as JSON nulls.
pub(super) fn finite(row: [f32; 10]) -> Vec<Option<f32>> {
    row.iter().map(|v| v.is_finite().then_some(*v)).collect()
}

fn print_table(clip: &ClipData, target: &Target<'_>, times: &[f64], frames: &[Frame]) {
    println!(
        "{} on {} ({} joints), local transforms (Unity space)",
        clip.name,
        if target.name.is_empty() {
            "(stand-in)"
        } else {
            &target.name
        },
        target.skeleton.joints.len()
    );
    for (t, (locals, _)) in times.iter().zip(frames) {
        println!("t = {t}");
        for (j, joint) in target.skeleton.joints.iter().enumerate() {
            let r = locals.get(j).map(to_row).unwrap_or_default();
            let human = target
                .humanoid
                .and_then(|h| h.joint_bone(j))
                .map(|b| format!(" [{}]", b.name()))
                .unwrap_or_default();
            println!(
                "  {:<40} t ({:.4}, {:.4}, {:.4})  q ({:.4}, {:.4}, {:.4}, {:.4})  s ({:.3}, {:.3}, {:.3}){human}",
                if j == 0 && joint.path.is_empty() {
                    "(root)".to_string()
                } else {
                    target.skeleton.path_label(j)
                },
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                r[5],
                r[6],
                r[7],
                r[8],
                r[9]
            );
        }
    }
}
