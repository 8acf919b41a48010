//! The clip check report: what a clip's author or a build pipeline should know before
//! shipping a clip.
//!
//! For every clip: its length, sample rate and wrap mode; for a looping or ping-pong clip,
//! each curve's value and slope jump at the seam; the curves and keys with steps; values that
//! are not finite; streamed keys that index curves past the curve count; bindings that no
//! joint of the clip's rig matches; bindings listed more than once.
//!
//! Seams and steps are measured on what they do to the joint they move ([`measure`]): a
//! position by the distance relative to the rig's size, a rotation by its angle, a scale by
//! its relative change, a float by its range over the clip, a humanoid clip on its posed
//! bones. Above a visible threshold ([`Thresholds`]) they are *problems*, below it *notes*.
//! Problem seams and steps, non-finite values, keys past the curve count, unmatched and
//! duplicate bindings (and a clip that does not decode) are *problems*: `clipscope check
//! --strict` fails on them.
//!
//! Everything here is plain data and plain functions (no Bevy), so the viewer's check view and
//! the command line share it.

mod corners;
pub mod measure;
mod posed;
mod rig;
mod seams;
mod steps;
#[cfg(test)]
mod tests;
mod units;
mod values;
mod whole;

use std::collections::BTreeMap;

use serde::Serialize;

use crate::OpenOptions;
use crate::clip::{ClipData, GenericBinding};
use crate::rig::{RigComponent, Skeleton};
use crate::workspace::{ClipEntry, Workspace};
pub use whole::{check_clips, check_clips_each};

use crate::humanoid::{ClipMuscles, HumanoidReport, HumanoidRig};
pub use measure::{Measure, Severity, Thresholds};
use rig::*;
pub use rig::{RigPick, RigReach, pick_rig};
use seams::*;
pub use seams::{SEAM_TOLERANCE, SLOPE_TOLERANCE, SNAP_SECONDS, left_limit, right_limit};
pub use steps::step_times;
use values::*;
pub use values::{KEYS_PAST_WARNING, keys_past_curve_count};

/// The check report of one clip.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClipReport {
    pub clip: String,
    pub path_id: i64,
    /// The file holding the clip (`path` or `path/inner name`).
    pub file: String,
    pub legacy: bool,
    /// `stop - start`, seconds.
    pub length: f32,
    pub sample_rate: f32,
    /// The clip's own wrap mode ([`WrapMode::name`](crate::curve::WrapMode::name)).
    pub wrap: String,
    /// The rig whose joints the bindings were checked against; `None` when no rig was found,
    /// and then `unmatched_bindings` is empty because nothing was checked.
    pub rig: Option<String>,
    /// Why that rig (or why none): "its Animator's controller lists the clip", "its Animation
    /// component lists the clip", "matches N of M paths", "no rig matches its paths: bindings
    /// not checked".
    pub rig_note: String,
    /// The rig's size positions are measured against: its body's largest extent at rest
    /// (a humanoid's human bones, else its joints less sockets parked far away); 1 without
    /// a rig.
    pub rig_size: f32,
    /// Joints and float curves whose value or slope jumps where the clip wraps (loop and
    /// ping-pong only).
    pub seams: Vec<SeamJump>,
    /// Joints and float curves with step (held) segments, measured where each ends.
    pub steps: Vec<StepInfo>,
    /// NaN or infinite values, one entry per curve and kind.
    pub non_finite: Vec<NonFinite>,
    /// Streamed keys that indexed curves past the clip's curve count (left out by the decoder).
    pub keys_past_curve_count: usize,
    /// Binding paths no joint of the rig has.
    pub unmatched_bindings: Vec<Unmatched>,
    /// Bindings that occur more than once.
    pub duplicate_bindings: Vec<Duplicate>,
    /// A humanoid clip on a humanoid rig: the muscles it moves whose bones the rig's avatar
    /// does not map (problems: those motions are lost on this rig) and those whose values go
    /// far outside [-1, 1] (informational: real clips go past the limits on purpose).
    pub humanoid: Option<HumanoidReport>,
    /// Why the clip could not be decoded; every other list is then empty.
    pub error: Option<String>,
    /// How many problems are listed: one per problem seam or step, non-finite entry,
    /// unmatched path, duplicate binding and unmapped muscle; one for any keys past the curve
    /// count; one for a decode error.
    pub problems: usize,
    /// How many seams and steps are below the visible thresholds.
    pub notes: usize,
}

/// Where a seam is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Seam {
    /// A looping clip: from `stop` back to `start`.
    Loop,
    /// A ping-pong clip turning back at `stop`.
    PingPongStop,
    /// A ping-pong clip turning forward again at `start`.
    PingPongStart,
}

/// A joint's (or float curve's) jump at a seam: what plays just before the seam against what
/// plays just after, measured on the joint ([`Measure`]).
///
/// * Loop: `value(stop⁻) - value(start)`, `slope(stop⁻) - slope(start)`, with `stop⁻` the
///   limit from the left (the last segment as it ends, not the key that only applies from
///   `stop` on, which a loop never shows).
/// * Ping-pong at stop: the value is continuous; the slope turns from `s` to `-s`, so the
///   jump is `2 · slope(stop⁻)`.
/// * Ping-pong at start: from `-s` to `s`, so `-2 · slope(start)`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeamJump {
    /// Global index of the curve whose value jumps most (for a posed human bone: the
    /// humanoid curve that jumps most).
    pub curve: usize,
    /// [`GenericBinding::describe`] of its binding, with the path named where known.
    pub binding: String,
    /// The curve's place in its binding (x, y, z, w).
    pub component: u8,
    pub seam: Seam,
    /// That curve's raw value jump (before - after; a rotation's after side taken in the
    /// before side's hemisphere).
    pub value_jump: f32,
    /// The joint's path (`""` the rig's root), or the binding for float curves.
    pub joint: String,
    pub measure: Measure,
    /// The measured jump: rig sizes, degrees, relative scale, or a fraction of the range.
    pub jump: f32,
    /// The measured slope jump, in the same unit per second.
    pub slope_jump: f32,
    /// The sharpest slope change between neighbouring frame intervals inside the clip's
    /// motion of the same joint: a slope jump no sharper is ordinary motion (a note).
    pub inner_slope_jump: f32,
    pub severity: Severity,
}

/// A joint (or float curve) with steps: the times of the keys whose outgoing segment holds
/// their value, and the largest jump where a held stretch ends, measured on the joint.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepInfo {
    /// The first of the joint's curves with steps.
    pub curve: usize,
    pub binding: String,
    pub component: u8,
    /// Times of the keys that start a step, in time order.
    pub times: Vec<f32>,
    pub joint: String,
    pub measure: Measure,
    /// The largest measured jump where a held stretch ends.
    pub jump: f32,
    /// The largest measured slope jump there, per second.
    pub slope_jump: f32,
    /// When the largest jump happens (the key ending the held stretch; the first step's
    /// time when none jumps).
    pub at: f32,
    pub severity: Severity,
}

/// What part of a curve is not finite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NonFiniteWhat {
    KeyTime,
    KeyValue,
    /// A NaN slope (an infinite slope is a step, not a problem).
    InSlope,
    OutSlope,
    /// A non-finite Bezier weight on a weighted side.
    InWeight,
    OutWeight,
    /// A dense curve's sample.
    Sample,
    /// A constant curve's value.
    Constant,
}

/// Non-finite values of one kind in one curve.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NonFinite {
    pub curve: usize,
    pub binding: String,
    pub component: u8,
    pub what: NonFiniteWhat,
    /// Index of the first such key or sample (0 for a constant).
    pub first_index: usize,
    /// How many keys or samples of the curve have it.
    pub count: usize,
    /// The first such value as text ("NaN", "inf", "-inf"): JSON has no non-finite numbers.
    pub value: String,
}

/// A binding path that no joint of the rig has.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Unmatched {
    /// CRC-32 of the path.
    pub path: u32,
    /// The path, where the clip, the Avatar or a skeleton names it.
    pub name: Option<String>,
    /// How many bindings use the path.
    pub bindings: usize,
}

/// A binding that occurs more than once.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Duplicate {
    /// [`GenericBinding::describe`] of the binding.
    pub binding: String,
    /// Indices of the equal bindings.
    pub indices: Vec<usize>,
    pub count: usize,
}

/// Checks one clip with the default thresholds and no humanoid posing: [`check_clip_on`].
pub fn check_clip(
    clip: &ClipData,
    skeleton: Option<&Skeleton>,
    names: &BTreeMap<u32, String>,
) -> ClipReport {
    check_clip_on(clip, skeleton, None, names, &Thresholds::default())
}

/// Checks one clip. `skeleton` is the rig the bindings should match (`None`: not checked)
/// and whose size positions are measured against; `humanoid` its avatar, which poses a
/// humanoid clip's muscles so their seams are measured on the bones; `names` maps path
/// hashes to paths (the Avatar's `m_TOS`, a skeleton's joint paths) for naming bindings.
///
/// The returned report's `path_id` and `file` are empty and `rig` is `None`: the caller knows
/// where the clip came from and which rig the skeleton belongs to ([`check_workspace`] fills
/// them in).
pub fn check_clip_on(
    clip: &ClipData,
    skeleton: Option<&Skeleton>,
    humanoid: Option<&HumanoidRig>,
    names: &BTreeMap<u32, String>,
    thresholds: &Thresholds,
) -> ClipReport {
    let namer = Namer { clip, names };
    let muscles = ClipMuscles::new(clip);
    let posed = match (skeleton, humanoid) {
        (Some(skeleton), Some(rig)) if muscles.is_humanoid() => Some(posed::Posed {
            rig,
            skeleton,
            muscles,
            mirror: clip.settings.mirror,
        }),
        _ => None,
    };
    let ctx = Context {
        namer: &namer,
        size: measure::rig_size(skeleton, humanoid),
        thresholds: *thresholds,
        humanoid: posed,
    };
    let wrap = clip.wrap_mode();
    let mut report = ClipReport {
        clip: clip.name.clone(),
        path_id: 0,
        file: String::new(),
        legacy: clip.legacy,
        length: clip.length(),
        sample_rate: clip.sample_rate,
        wrap: wrap.name().to_string(),
        rig: None,
        rig_note: if skeleton.is_some() {
            "bindings checked against the given skeleton".to_string()
        } else {
            "no rig: bindings not checked".to_string()
        },
        rig_size: ctx.size,
        seams: loop_pose_notes(seam_jumps(clip, wrap, &ctx), clip.settings.loop_pose),
        steps: steps::steps(clip, &ctx),
        non_finite: non_finite(clip, &namer),
        keys_past_curve_count: keys_past_curve_count(&clip.warnings),
        unmatched_bindings: skeleton.map_or_else(Vec::new, |s| unmatched(clip, s, names)),
        duplicate_bindings: duplicates(clip, &namer),
        humanoid: None,
        error: None,
        problems: 0,
        notes: 0,
    };
    report.problems = count_problems(&report);
    report.notes = count_notes(&report);
    report
}

/// What measuring a clip's seams and steps needs.
pub(super) struct Context<'a> {
    namer: &'a Namer<'a>,
    /// The rig's size ([`measure::rig_size`]).
    size: f32,
    thresholds: Thresholds,
    /// The humanoid rig posing the clip's muscles, when there is one.
    humanoid: Option<posed::Posed<'a>>,
}

impl Context<'_> {
    /// True when muscle curves are measured on the posed bones.
    fn posed(&self) -> bool {
        self.humanoid.is_some()
    }
}

/// Checks every clip of a workspace (or only those named `clip`), each against its rig: a rig
/// that reaches it (through its controller or Animation component), else the rig whose
/// skeleton has the most of the clip's binding paths, else none. Clips that failed to decode
/// get a report with `error` set.
pub fn check_workspace(ws: &Workspace, clip: Option<&str>) -> Vec<ClipReport> {
    check_workspace_with(ws, clip, &Thresholds::default())
}

/// [`check_workspace`] with the given thresholds.
pub fn check_workspace_with(
    ws: &Workspace,
    clip: Option<&str>,
    thresholds: &Thresholds,
) -> Vec<ClipReport> {
    whole::check_clips(ws, clip, thresholds, &OpenOptions::default(), &|| {})
}

pub(super) fn check_entry(
    ws: &Workspace,
    reach: &RigReach,
    entry: &ClipEntry,
    names: &BTreeMap<u32, String>,
    thresholds: &Thresholds,
) -> ClipReport {
    let file = ws
        .files
        .get(entry.at.file)
        .map(|f| f.location())
        .unwrap_or_default();
    let clip = match &entry.data {
        Ok(clip) => clip,
        Err(e) => return failed_report(entry, file, e.to_string()),
    };
    let pick = reach.pick(&ws.rigs, entry.at, clip);
    let skeleton = pick.map(|(i, _)| &*ws.rigs[i].skeleton);
    let humanoid = pick.and_then(|(i, _)| ws.rigs[i].humanoid.as_deref());
    let mut report = check_clip_on(clip, skeleton, humanoid, names, thresholds);
    report.path_id = entry.at.path_id;
    report.file = file;
    report.rig = pick.map(|(i, _)| ws.rigs[i].name.clone());
    report.rig_note = rig_note(pick.map(|(i, how)| (how, ws.rigs[i].component)));
    if let Some(rig) = humanoid.filter(|_| ClipMuscles::new(clip).is_humanoid()) {
        report.humanoid = Some(crate::humanoid::report(clip, rig));
        report.problems = count_problems(&report);
    }
    report
}

pub(super) fn rig_note(pick: Option<(RigPick, RigComponent)>) -> String {
    match pick {
        Some((RigPick::Reaches, RigComponent::Animator)) => {
            "its Animator's controller lists the clip".to_string()
        }
        Some((RigPick::Reaches, RigComponent::Animation)) => {
            "its Animation component lists the clip".to_string()
        }
        Some((RigPick::Paths { matched, of }, _)) => format!("matches {matched} of {of} paths"),
        Some((RigPick::Humanoid, _)) => {
            "no humanoid rig lists the clip: the first humanoid rig poses its muscles".to_string()
        }
        None => "no rig matches its paths: bindings not checked".to_string(),
    }
}

/// The report of a clip that could not be decoded: one problem, the error.
pub(super) fn failed_report(entry: &ClipEntry, file: String, error: String) -> ClipReport {
    ClipReport {
        clip: entry.name.clone(),
        path_id: entry.at.path_id,
        file,
        legacy: false,
        length: 0.0,
        sample_rate: 0.0,
        wrap: String::new(),
        rig: None,
        rig_note: "not decoded: nothing checked".to_string(),
        rig_size: 1.0,
        seams: Vec::new(),
        steps: Vec::new(),
        non_finite: Vec::new(),
        keys_past_curve_count: 0,
        unmatched_bindings: Vec::new(),
        duplicate_bindings: Vec::new(),
        humanoid: None,
        error: Some(error),
        problems: 1,
        notes: 0,
    }
}

/// Where the clip has Loop Pose on, Unity blends its loop's seam: the loop seam's jumps are
/// notes, not problems.
fn loop_pose_notes(mut seams: Vec<SeamJump>, loop_pose: bool) -> Vec<SeamJump> {
    if loop_pose {
        for s in seams.iter_mut().filter(|s| s.seam == Seam::Loop) {
            s.severity = Severity::Note;
        }
    }
    seams
}

pub(super) fn count_problems(r: &ClipReport) -> usize {
    seam_step_tally(r).0
        + r.non_finite.len()
        + usize::from(r.keys_past_curve_count > 0)
        + r.unmatched_bindings.len()
        + r.duplicate_bindings.len()
        + r.humanoid.as_ref().map_or(0, |h| h.unmapped.len())
        + usize::from(r.error.is_some())
}

/// Seams and steps below the thresholds.
pub(super) fn count_notes(r: &ClipReport) -> usize {
    seam_step_tally(r).1
}

/// (problems, notes) among the seams and steps.
fn seam_step_tally(r: &ClipReport) -> (usize, usize) {
    steps::tally(
        r.seams
            .iter()
            .map(|s| s.severity)
            .chain(r.steps.iter().map(|s| s.severity)),
    )
}

/// Describes curves' bindings, naming paths the clip itself does not name.
pub(super) struct Namer<'a> {
    clip: &'a ClipData,
    names: &'a BTreeMap<u32, String>,
}

impl Namer<'_> {
    fn binding(&self, b: &GenericBinding) -> String {
        match (&b.path_name, self.names.get(&b.path)) {
            (None, Some(name)) => GenericBinding {
                path_name: Some(name.clone()),
                ..b.clone()
            }
            .describe(),
            _ => b.describe(),
        }
    }

    fn curve(&self, index: usize) -> String {
        self.clip
            .binding_of(index)
            .map_or_else(|| "(no binding)".to_string(), |b| self.binding(b))
    }
}
