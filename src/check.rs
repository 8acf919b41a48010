//! The clip check report: what a clip's author or a build pipeline should know before
//! shipping a clip.
//!
//! For every clip: its length, sample rate and wrap mode; for a looping or ping-pong clip,
//! each curve's value and slope jump at the seam; the curves and keys with steps; values that
//! are not finite; streamed keys that index curves past the curve count; bindings that no
//! joint of the clip's rig matches; bindings listed more than once.
//!
//! Seam jumps, non-finite values, keys past the curve count, unmatched and duplicate bindings
//! (and a clip that does not decode) are *problems*: `clipscope check --strict` fails on them.
//! Steps are informational: they are usually authored on purpose.
//!
//! Everything here is plain data and plain functions (no Bevy), so the viewer's check view and
//! the command line share it.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use crate::clip::{ClipData, GenericBinding, Storage};
use crate::curve::{Curve, CurveShape, Key, WEIGHTED_IN, WEIGHTED_OUT, WrapMode};
use crate::rig::{RigComponent, Skeleton};
use crate::workspace::{ClipEntry, ObjectRef, RigEntry, Workspace};

/// Relative tolerance of a seam jump: a jump counts when it exceeds this times the larger of
/// 1 and the magnitudes on either side of the seam.
pub const SEAM_TOLERANCE: f32 = 1e-4;

/// How far (seconds) a key may sit from the clip's start or stop and still count as the key
/// at that end. Stored times drift by an `f32` rounding or two from the clip's stop time;
/// without this, a last key at `stop - 1e-7` would leave a 0.1 µs clamped stretch whose slope
/// (0) would be reported as the slope at the seam. Far below a frame at any sample rate.
pub const SNAP_SECONDS: f32 = 1e-4;

/// How far (in frames) a time may sit from a dense curve's frame and still count as on it.
const SNAP_FRAMES: f32 = 1e-3;

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
    /// The clip's own wrap mode ([`WrapMode::name`]).
    pub wrap: String,
    /// The rig whose joints the bindings were checked against; `None` when no rig was found,
    /// and then `unmatched_bindings` is empty because nothing was checked.
    pub rig: Option<String>,
    /// Why that rig (or why none): "its Animator's controller lists the clip", "its Animation
    /// component lists the clip", "matches N of M paths", "no rig matches its paths: bindings
    /// not checked".
    pub rig_note: String,
    /// Curves whose value or slope jumps where the clip wraps (loop and ping-pong only).
    pub seams: Vec<SeamJump>,
    /// Curves with step (held) segments. Informational, not a problem.
    pub steps: Vec<StepInfo>,
    /// NaN or infinite values, one entry per curve and kind.
    pub non_finite: Vec<NonFinite>,
    /// Streamed keys that indexed curves past the clip's curve count (left out by the decoder).
    pub keys_past_curve_count: usize,
    /// Binding paths no joint of the rig has.
    pub unmatched_bindings: Vec<Unmatched>,
    /// Bindings that occur more than once.
    pub duplicate_bindings: Vec<Duplicate>,
    /// Why the clip could not be decoded; every other list is then empty.
    pub error: Option<String>,
    /// How many problems are listed: one per seam jump, non-finite entry, unmatched path and
    /// duplicate binding; one for any keys past the curve count; one for a decode error.
    pub problems: usize,
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

/// A curve's jump at a seam: what plays just before the seam minus what plays just after.
///
/// * Loop: `value(stop⁻) - value(start)`, `slope(stop⁻) - slope(start)`, with `stop⁻` the
///   limit from the left (the last segment as it ends, not the key that only applies from
///   `stop` on, which a loop never shows).
/// * Ping-pong at stop: the value is continuous; the slope turns from `s` to `-s`, so the
///   jump is `2 · slope(stop⁻)`.
/// * Ping-pong at start: from `-s` to `s`, so `-2 · slope(start)`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeamJump {
    /// Global curve index.
    pub curve: usize,
    /// [`GenericBinding::describe`] of its binding, with the path named where known.
    pub binding: String,
    /// The curve's place in its binding (x, y, z, w).
    pub component: u8,
    pub seam: Seam,
    pub value_jump: f32,
    /// Per second.
    pub slope_jump: f32,
}

/// A curve with steps: the times of the keys whose outgoing segment holds their value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepInfo {
    pub curve: usize,
    pub binding: String,
    pub component: u8,
    /// Times of the keys that start a step, in key order.
    pub times: Vec<f32>,
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

/// Checks one clip. `skeleton` is the rig the bindings should match (`None`: not checked);
/// `names` maps path hashes to paths (the Avatar's `m_TOS`, a skeleton's joint paths) for
/// naming bindings in the report.
///
/// The returned report's `path_id` and `file` are empty and `rig` is `None`: the caller knows
/// where the clip came from and which rig the skeleton belongs to ([`check_workspace`] fills
/// them in).
pub fn check_clip(
    clip: &ClipData,
    skeleton: Option<&Skeleton>,
    names: &BTreeMap<u32, String>,
) -> ClipReport {
    let namer = Namer { clip, names };
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
        seams: seam_jumps(clip, wrap, &namer),
        steps: steps(clip, &namer),
        non_finite: non_finite(clip, &namer),
        keys_past_curve_count: keys_past_curve_count(&clip.warnings),
        unmatched_bindings: skeleton.map_or_else(Vec::new, |s| unmatched(clip, s, names)),
        duplicate_bindings: duplicates(clip, &namer),
        error: None,
        problems: 0,
    };
    report.problems = count_problems(&report);
    report
}

/// Checks every clip of a workspace (or only those named `clip`), each against its rig: a rig
/// that reaches it (through its controller or Animation component), else the rig whose
/// skeleton has the most of the clip's binding paths, else none. Clips that failed to decode
/// get a report with `error` set.
pub fn check_workspace(ws: &Workspace, clip: Option<&str>) -> Vec<ClipReport> {
    let names = workspace_names(&ws.rigs);
    ws.clips
        .iter()
        .filter(|entry| clip.is_none_or(|name| entry.name == name))
        .map(|entry| check_entry(ws, entry, &names))
        .collect()
}

/// How a clip's rig was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RigPick {
    /// The rig's controller or Animation component lists the clip.
    Reaches,
    /// The rig's skeleton has `matched` of the clip's `of` distinct binding paths, more than
    /// any other rig's.
    Paths { matched: usize, of: usize },
}

/// The rig to check a clip against (index into `rigs`), and why.
pub fn pick_rig(rigs: &[RigEntry], at: ObjectRef, clip: &ClipData) -> Option<(usize, RigPick)> {
    if let Some(i) = rigs.iter().position(|r| r.clips.contains(&at)) {
        return Some((i, RigPick::Reaches));
    }
    let paths = distinct_paths(clip);
    let matched = |rig: &RigEntry| {
        paths
            .iter()
            .filter(|&&p| rig.skeleton.joint_by_hash(p).is_some())
            .count()
    };
    let mut best: Option<(usize, usize)> = None;
    for (i, rig) in rigs.iter().enumerate() {
        let m = matched(rig);
        if m > 0 && best.is_none_or(|(_, b)| m > b) {
            best = Some((i, m));
        }
    }
    best.map(|(i, matched)| {
        (
            i,
            RigPick::Paths {
                matched,
                of: paths.len(),
            },
        )
    })
}

fn check_entry(ws: &Workspace, entry: &ClipEntry, names: &BTreeMap<u32, String>) -> ClipReport {
    let file = ws
        .files
        .get(entry.at.file)
        .map(|f| f.location())
        .unwrap_or_default();
    let clip = match &entry.data {
        Ok(clip) => clip,
        Err(e) => return failed_report(entry, file, e.to_string()),
    };
    let pick = pick_rig(&ws.rigs, entry.at, clip);
    let skeleton = pick.map(|(i, _)| &ws.rigs[i].skeleton);
    let mut report = check_clip(clip, skeleton, names);
    report.path_id = entry.at.path_id;
    report.file = file;
    report.rig = pick.map(|(i, _)| ws.rigs[i].name.clone());
    report.rig_note = rig_note(pick.map(|(i, how)| (how, ws.rigs[i].component)));
    report
}

fn rig_note(pick: Option<(RigPick, RigComponent)>) -> String {
    match pick {
        Some((RigPick::Reaches, RigComponent::Animator)) => {
            "its Animator's controller lists the clip".to_string()
        }
        Some((RigPick::Reaches, RigComponent::Animation)) => {
            "its Animation component lists the clip".to_string()
        }
        Some((RigPick::Paths { matched, of }, _)) => format!("matches {matched} of {of} paths"),
        None => "no rig matches its paths: bindings not checked".to_string(),
    }
}

/// The report of a clip that could not be decoded: one problem, the error.
fn failed_report(entry: &ClipEntry, file: String, error: String) -> ClipReport {
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
        seams: Vec::new(),
        steps: Vec::new(),
        non_finite: Vec::new(),
        keys_past_curve_count: 0,
        unmatched_bindings: Vec::new(),
        duplicate_bindings: Vec::new(),
        error: Some(error),
        problems: 1,
    }
}

/// Path names from every rig: the Avatars' `m_TOS` and the skeletons' joint paths.
fn workspace_names(rigs: &[RigEntry]) -> BTreeMap<u32, String> {
    let mut names = BTreeMap::new();
    for rig in rigs {
        for (&hash, path) in rig.tos.iter() {
            names.entry(hash).or_insert_with(|| path.clone());
        }
        for joint in &rig.skeleton.joints {
            names
                .entry(joint.path_hash)
                .or_insert_with(|| joint.path.clone());
        }
    }
    names
}

fn count_problems(r: &ClipReport) -> usize {
    r.seams.len()
        + r.non_finite.len()
        + usize::from(r.keys_past_curve_count > 0)
        + r.unmatched_bindings.len()
        + r.duplicate_bindings.len()
        + usize::from(r.error.is_some())
}

/// Describes curves' bindings, naming paths the clip itself does not name.
struct Namer<'a> {
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

/// True for curves whose values are indices or integers (PPtr and int bindings): they hold
/// each value by nature, so their steps and jumps are not reported.
fn is_discrete(clip: &ClipData, index: usize) -> bool {
    let storage_pptr = matches!(
        clip.curves[index].storage,
        Storage::Legacy(crate::clip::LegacyKind::PPtr)
    );
    storage_pptr
        || clip
            .binding_of(index)
            .is_some_and(|b| b.is_pptr || b.is_int)
}

// ---------------------------------------------------------------------------------------
// Seams

fn seam_jumps(clip: &ClipData, wrap: WrapMode, namer: &Namer<'_>) -> Vec<SeamJump> {
    if !matches!(wrap, WrapMode::Loop | WrapMode::PingPong) || clip.length() <= 0.0 {
        return Vec::new();
    }
    let frame = frame_seconds(clip.sample_rate);
    let mut out = Vec::new();
    for (i, c) in clip.curves.iter().enumerate() {
        if is_discrete(clip, i) {
            continue;
        }
        let tolerance = Tolerance {
            frame,
            corner: dense_corner(&c.curve),
        };
        let before = left_limit(&c.curve, clip.stop);
        let after = right_limit(&c.curve, clip.start);
        let jumps = match wrap {
            WrapMode::Loop => vec![(Seam::Loop, tolerance.jump(before, after))],
            _ => vec![
                (Seam::PingPongStop, tolerance.turn(before)),
                (Seam::PingPongStart, tolerance.turn((after.0, -after.1))),
            ],
        };
        for (seam, (value_jump, slope_jump)) in jumps
            .into_iter()
            .filter_map(|(seam, jump)| Some((seam, jump?)))
        {
            out.push(SeamJump {
                curve: i,
                binding: namer.curve(i),
                component: c.component,
                seam,
                value_jump,
                slope_jump,
            });
        }
    }
    out
}

/// One frame in seconds at `sample_rate` (at 60 Hz when the rate is unusable).
fn frame_seconds(sample_rate: f32) -> f32 {
    if sample_rate.is_finite() && sample_rate > 0.0 {
        1.0 / sample_rate
    } else {
        1.0 / 60.0
    }
}

/// (value, slope) at one side of a seam.
type Side = (f32, f32);

/// When a seam jump counts.
///
/// * A value jump counts above [`SEAM_TOLERANCE`] times the larger value (at least 1).
/// * A slope jump counts when, over one frame, it moves the value by more than that, and
///   when it is sharper than every corner inside the curve (`corner`, nonzero only for dense
///   curves: baked samples whose secant slope changes at every frame, so a seam corner no
///   sharper than those is ordinary motion, not a seam).
#[derive(Clone, Copy, Debug)]
struct Tolerance {
    /// Seconds per frame.
    frame: f32,
    /// The largest slope change (per second) between neighbouring intervals inside the curve.
    corner: f32,
}

impl Tolerance {
    /// The jump from `before` to `after`, when it counts.
    fn jump(self, before: Side, after: Side) -> Option<Side> {
        let value = before.0 - after.0;
        let slope = before.1 - after.1;
        let allowed = SEAM_TOLERANCE * before.0.abs().max(after.0.abs()).max(1.0);
        let value_counts = value.abs() > allowed;
        let slope_counts = slope.abs() * self.frame > allowed && slope.abs() > self.corner;
        (value_counts || slope_counts).then_some((value, slope))
    }

    /// A ping-pong turn's jump: the slope `s` before it becomes `-s` after.
    fn turn(self, before: Side) -> Option<Side> {
        self.jump(before, (before.0, -before.1))
    }
}

/// The sharpest corner inside a dense curve: the largest change of the secant slope (per
/// second) from one frame interval to the next; 0 for other curves.
fn dense_corner(curve: &Curve) -> f32 {
    let CurveShape::Sampled { rate, values, .. } = &curve.shape else {
        return 0.0;
    };
    values
        .windows(3)
        .map(|w| ((w[2] - w[1]) - (w[1] - w[0])).abs() * rate)
        .filter(|c| c.is_finite())
        .fold(0.0, f32::max)
}

/// The value and slope a curve approaches as time rises to `t` (its limit from the left).
///
/// [`Curve::sample`] at a key's time answers the key that applies from that time on, and
/// [`Curve::slope`] at the last key or a dense curve's last frame answers 0 (held); a loop
/// never shows either, it shows the segment that ends there.
pub fn left_limit(curve: &Curve, t: f32) -> (f32, f32) {
    match &curve.shape {
        CurveShape::Keys(keys) => keys_left(keys, t).unwrap_or_else(|| plain(curve, t)),
        CurveShape::Sampled {
            begin,
            rate,
            values,
        } => dense_side(*begin, *rate, values, t, true).unwrap_or_else(|| plain(curve, t)),
        CurveShape::Constant(v) => (*v, 0.0),
    }
}

/// The value and slope a curve starts with at `t` (its limit from the right), with a key
/// within [`SNAP_SECONDS`] of `t` taken as at `t`.
pub fn right_limit(curve: &Curve, t: f32) -> (f32, f32) {
    match &curve.shape {
        CurveShape::Keys(keys) => {
            let at = keys
                .iter()
                .find(|k| (k.time - t).abs() <= SNAP_SECONDS)
                .map_or(t, |k| k.time);
            plain(curve, at)
        }
        CurveShape::Sampled {
            begin,
            rate,
            values,
        } => dense_side(*begin, *rate, values, t, false).unwrap_or_else(|| plain(curve, t)),
        CurveShape::Constant(v) => (*v, 0.0),
    }
}

fn plain(curve: &Curve, t: f32) -> (f32, f32) {
    (curve.sample(t), curve.slope(t))
}

/// The end of the segment arriving at the key at (or within [`SNAP_SECONDS`] of) `t`: the
/// next key's value and in slope, or the held left value for a step. `None` when no key is
/// there (the curve is then continuous at `t`) or no segment arrives at it.
fn keys_left(keys: &[Key], t: f32) -> Option<(f32, f32)> {
    let at = keys.partition_point(|k| k.time < t - SNAP_SECONDS);
    let rhs = keys
        .get(at)
        .filter(|k| (k.time - t).abs() <= SNAP_SECONDS)?;
    let lhs = keys.get(at.checked_sub(1)?)?;
    if !lhs.out_slope.is_finite() || !rhs.in_slope.is_finite() {
        Some((lhs.value, 0.0))
    } else {
        Some((rhs.value, rhs.in_slope))
    }
}

/// One side of a dense curve at `t`: the frame interval ending at `t` (`left`) or starting at
/// it, with `t` snapped to a frame within [`SNAP_FRAMES`]. `None` for a curve too short or
/// with an unusable rate.
fn dense_side(begin: f32, rate: f32, values: &[f32], t: f32, left: bool) -> Option<(f32, f32)> {
    let last = values.len().checked_sub(1).filter(|&l| l > 0)?;
    if !(rate.is_finite() && rate > 0.0) {
        return None;
    }
    let mut p = (t - begin) * rate;
    if (p - p.round()).abs() <= SNAP_FRAMES {
        p = p.round();
    }
    let held = |i: usize| Some((values[i], 0.0));
    if p.is_nan() || (left && p <= 0.0) || (!left && p < 0.0) {
        return held(0);
    }
    if (left && p > last as f32) || (!left && p >= last as f32) {
        return held(last);
    }
    let i0 = if left {
        p.ceil() as usize - 1
    } else {
        p as usize
    };
    let (v0, v1) = (values[i0], values[i0 + 1]);
    let fraction = p - i0 as f32;
    Some((v0 + (v1 - v0) * fraction, (v1 - v0) * rate))
}

// ---------------------------------------------------------------------------------------
// Steps

fn steps(clip: &ClipData, namer: &Namer<'_>) -> Vec<StepInfo> {
    (0..clip.curves.len())
        .filter(|&i| !is_discrete(clip, i))
        .filter_map(|i| {
            let times = step_times(clip.curves[i].curve.keys());
            (!times.is_empty()).then(|| StepInfo {
                curve: i,
                binding: namer.curve(i),
                component: clip.curves[i].component,
                times,
            })
        })
        .collect()
}

/// Times of the keys whose outgoing segment is a step: an infinite out slope, or an infinite
/// in slope on the next key. The `-f32::MAX` initial key of a streamed curve is left out: it
/// holds the initial value by construction, nobody authored it.
pub fn step_times(keys: &[Key]) -> Vec<f32> {
    keys.windows(2)
        .filter(|pair| pair[0].time != -f32::MAX)
        .filter(|pair| pair[0].is_step_out() || pair[1].in_slope.is_infinite())
        .map(|pair| pair[0].time)
        .collect()
}

// ---------------------------------------------------------------------------------------
// Non-finite values

fn non_finite(clip: &ClipData, namer: &Namer<'_>) -> Vec<NonFinite> {
    let mut out = Vec::new();
    for (i, c) in clip.curves.iter().enumerate() {
        for (what, first_index, count, value) in curve_non_finite(&c.curve) {
            out.push(NonFinite {
                curve: i,
                binding: namer.curve(i),
                component: c.component,
                what,
                first_index,
                count,
                value: value.to_string(),
            });
        }
    }
    out
}

/// A curve's non-finite values grouped by kind: (kind, first index, count, first value).
fn curve_non_finite(curve: &Curve) -> Vec<(NonFiniteWhat, usize, usize, f32)> {
    let mut groups: Vec<(NonFiniteWhat, usize, usize, f32)> = Vec::new();
    let mut add = |what: NonFiniteWhat, index: usize, value: f32| match groups
        .iter_mut()
        .find(|g| g.0 == what)
    {
        Some(g) => g.2 += 1,
        None => groups.push((what, index, 1, value)),
    };
    match &curve.shape {
        CurveShape::Keys(keys) => {
            for (i, k) in keys.iter().enumerate() {
                for (what, value) in key_non_finite(k) {
                    add(what, i, value);
                }
            }
        }
        CurveShape::Sampled { values, .. } => {
            for (i, v) in values.iter().enumerate().filter(|(_, v)| !v.is_finite()) {
                add(NonFiniteWhat::Sample, i, *v);
            }
        }
        CurveShape::Constant(v) if !v.is_finite() => add(NonFiniteWhat::Constant, 0, *v),
        CurveShape::Constant(_) => {}
    }
    groups
}

/// The non-finite parts of a key: time and value when not finite, slopes when NaN, weights
/// when the side is weighted and the weight is not finite.
fn key_non_finite(k: &Key) -> Vec<(NonFiniteWhat, f32)> {
    let weighted_in = k.weighted_mode & WEIGHTED_IN != 0;
    let weighted_out = k.weighted_mode & WEIGHTED_OUT != 0;
    [
        (NonFiniteWhat::KeyTime, k.time, !k.time.is_finite()),
        (NonFiniteWhat::KeyValue, k.value, !k.value.is_finite()),
        (NonFiniteWhat::InSlope, k.in_slope, k.in_slope.is_nan()),
        (NonFiniteWhat::OutSlope, k.out_slope, k.out_slope.is_nan()),
        (
            NonFiniteWhat::InWeight,
            k.in_weight,
            weighted_in && !k.in_weight.is_finite(),
        ),
        (
            NonFiniteWhat::OutWeight,
            k.out_weight,
            weighted_out && !k.out_weight.is_finite(),
        ),
    ]
    .into_iter()
    .filter(|&(_, _, bad)| bad)
    .map(|(what, value, _)| (what, value))
    .collect()
}

// ---------------------------------------------------------------------------------------
// Keys past the curve count

/// The text of the decoder's warning about streamed keys past the curve count (written in
/// `clip/mecanim.rs` as "N streamed keys index curves past the M streamed curves; …").
///
/// `ClipData` does not keep the count itself, so it is read back from the warning; a change to
/// that wording must change this too (the unit and integration tests pin both ends).
pub const KEYS_PAST_WARNING: &str = "streamed keys index curves past";

/// The number of streamed keys the decoder left out for indexing curves past the count, read
/// from the clip's warnings (0 when none says so).
pub fn keys_past_curve_count(warnings: &[String]) -> usize {
    warnings
        .iter()
        .filter(|w| w.contains(KEYS_PAST_WARNING))
        .filter_map(|w| w.split_whitespace().next()?.parse::<usize>().ok())
        .sum()
}

// ---------------------------------------------------------------------------------------
// Bindings

/// The clip's distinct binding paths, in order of first use.
fn distinct_paths(clip: &ClipData) -> Vec<u32> {
    let mut paths = Vec::new();
    for b in &clip.bindings {
        if !paths.contains(&b.path) {
            paths.push(b.path);
        }
    }
    paths
}

/// Binding paths that no joint of `skeleton` has, in order of first use.
fn unmatched(
    clip: &ClipData,
    skeleton: &Skeleton,
    names: &BTreeMap<u32, String>,
) -> Vec<Unmatched> {
    distinct_paths(clip)
        .into_iter()
        .filter(|&p| skeleton.joint_by_hash(p).is_none())
        .map(|path| {
            let users = clip.bindings.iter().filter(|b| b.path == path);
            let own_name = users.clone().find_map(|b| b.path_name.clone());
            Unmatched {
                path,
                name: own_name
                    .or_else(|| names.get(&path).cloned())
                    .filter(|n| !n.is_empty()),
                bindings: users.count(),
            }
        })
        .collect()
}

/// What makes two bindings the same target: path, attribute, class, custom type and script.
type BindingKey = (u32, u32, i32, u8, (i32, i64));

fn binding_key(b: &GenericBinding) -> BindingKey {
    (b.path, b.attribute, b.type_id, b.custom_type, b.script)
}

/// Bindings that occur more than once, in order of first occurrence.
fn duplicates(clip: &ClipData, namer: &Namer<'_>) -> Vec<Duplicate> {
    let mut groups: HashMap<BindingKey, Vec<usize>> = HashMap::new();
    for (i, b) in clip.bindings.iter().enumerate() {
        groups.entry(binding_key(b)).or_default().push(i);
    }
    let mut dups: Vec<Vec<usize>> = groups.into_values().filter(|g| g.len() > 1).collect();
    dups.sort_unstable();
    dups.into_iter()
        .map(|indices| Duplicate {
            binding: namer.binding(&clip.bindings[indices[0]]),
            count: indices.len(),
            indices,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clip::{BlockCounts, ClipCurve, LegacyKind, build_tracks};
    use crate::hash::path_hash;
    use crate::workspace::ClipEntry;

    const INF: f32 = f32::INFINITY;

    fn binding(path: u32, attribute: u32) -> GenericBinding {
        GenericBinding {
            path,
            attribute,
            type_id: 114,
            custom_type: 0,
            is_pptr: false,
            is_int: false,
            script: (0, 0),
            path_name: None,
            attribute_name: None,
        }
    }

    /// A legacy one-second clip at `rate` Hz with wrap code `wrap` and one float binding per
    /// curve (path 7, attribute = curve index).
    fn clip_at(wrap: i32, rate: f32, curves: Vec<Curve>) -> ClipData {
        let bindings: Vec<GenericBinding> =
            (0..curves.len()).map(|i| binding(7, i as u32)).collect();
        let curves: Vec<ClipCurve> = curves
            .into_iter()
            .enumerate()
            .map(|(i, curve)| ClipCurve {
                curve,
                storage: Storage::Legacy(LegacyKind::Float),
                binding: Some(i),
                component: 0,
            })
            .collect();
        ClipData {
            name: "Clip".into(),
            legacy: true,
            keyframed: true,
            start: 0.0,
            stop: 1.0,
            sample_rate: rate,
            wrap_mode_code: wrap,
            loop_time: false,
            cycle_offset: 0.0,
            counts: BlockCounts::default(),
            tracks: build_tracks(bindings.len(), &curves),
            bindings,
            curves,
            pptr_mapping: Vec::new(),
            events: Vec::new(),
            warnings: Vec::new(),
            summary_only: None,
        }
    }

    const LOOP: i32 = 2;
    const PING_PONG: i32 = 4;
    const ONCE: i32 = 1;

    fn clip(wrap: i32, curves: Vec<Curve>) -> ClipData {
        clip_at(wrap, 60.0, curves)
    }

    fn keys(keys: &[(f32, f32, f32, f32)]) -> Curve {
        Curve::from_keys(
            keys.iter()
                .map(|&(t, v, i, o)| Key::new(t, v, i, o))
                .collect(),
        )
    }

    fn check(clip: &ClipData) -> ClipReport {
        check_clip(clip, None, &BTreeMap::new())
    }

    fn seams(clip: &ClipData) -> Vec<(usize, Seam, f32, f32)> {
        check(clip)
            .seams
            .iter()
            .map(|s| (s.curve, s.seam, s.value_jump, s.slope_jump))
            .collect()
    }

    #[test]
    fn a_loop_from_0_to_1_jumps_by_1_and_matching_end_slopes_do_not_jump() {
        let c = clip(
            LOOP,
            vec![keys(&[(0.0, 0.0, 2.0, 2.0), (1.0, 1.0, 2.0, 2.0)])],
        );
        let names = BTreeMap::from([(7, "Body".to_string())]);
        let r = check_clip(&c, None, &names);
        assert_eq!(r.wrap, "loop");
        assert_eq!((r.length, r.sample_rate), (1.0, 60.0));
        assert_eq!(
            r.seams,
            [SeamJump {
                curve: 0,
                binding: "Body: attribute 0x00000000".into(),
                component: 0,
                seam: Seam::Loop,
                value_jump: 1.0,
                slope_jump: 0.0,
            }]
        );
        assert_eq!(r.problems, 1);
    }

    #[test]
    fn a_loop_whose_end_slopes_differ_has_a_slope_jump_only() {
        // 0 at both ends; leaves with slope 1, arrives with slope -1.
        let c = clip(
            LOOP,
            vec![keys(&[(0.0, 0.0, 0.0, 1.0), (1.0, 0.0, -1.0, 0.0)])],
        );
        assert_eq!(seams(&c), [(0, Seam::Loop, 0.0, -2.0)]);
    }

    #[test]
    fn a_seamless_loop_and_clips_that_do_not_loop_report_no_seam() {
        let seamless = keys(&[
            (0.0, 0.0, 1.0, 1.0),
            (0.5, 1.0, 0.0, 0.0),
            (1.0, 0.0, 1.0, 1.0),
        ]);
        assert!(seams(&clip(LOOP, vec![seamless])).is_empty());
        let ramp = || keys(&[(0.0, 0.0, 2.0, 2.0), (1.0, 1.0, 2.0, 2.0)]);
        for wrap in [0, ONCE, 8] {
            assert!(seams(&clip(wrap, vec![ramp()])).is_empty(), "wrap {wrap}");
        }
        // Mecanim: Loop Time makes it a loop; without it the Animator holds the last frame.
        let mut mecanim = clip(0, vec![ramp()]);
        mecanim.legacy = false;
        assert_eq!(check(&mecanim).wrap, "clamp");
        assert!(seams(&mecanim).is_empty());
        mecanim.loop_time = true;
        assert_eq!(check(&mecanim).wrap, "loop");
        assert_eq!(seams(&mecanim), [(0, Seam::Loop, 1.0, 0.0)]);
    }

    #[test]
    fn the_seam_uses_the_segment_arriving_at_stop_not_the_key_applying_from_it() {
        // A jump to 0 exactly at stop: Curve::sample(stop) is 0, but a loop shows 5 there.
        let jump = keys(&[
            (0.0, 0.0, 0.0, 0.0),
            (1.0, 5.0, 0.0, 0.0),
            (1.0, 0.0, 0.0, 0.0),
        ]);
        assert_eq!(jump.sample(1.0), 0.0);
        assert_eq!(seams(&clip(LOOP, vec![jump])), [(0, Seam::Loop, 5.0, 0.0)]);
        // A step held into stop: the loop shows 3 until the seam and 3 after it.
        let held = Curve::from_keys(vec![Key::step(0.0, 3.0), Key::new(1.0, 0.0, 0.0, 0.0)]);
        assert_eq!(held.sample(1.0), 0.0);
        assert!(seams(&clip(LOOP, vec![held])).is_empty());
    }

    #[test]
    fn a_last_key_an_ulp_before_stop_still_counts_as_at_stop() {
        // Without snapping, the 0.06 µs clamped stretch would give slope 0 at stop.
        let before_stop = 1.0f32.next_down();
        let c = clip(
            LOOP,
            vec![keys(&[(0.0, 0.0, 1.0, 1.0), (before_stop, 1.0, 1.0, 1.0)])],
        );
        assert_eq!(c.curves[0].curve.slope(1.0), 0.0);
        assert_eq!(seams(&c), [(0, Seam::Loop, 1.0, 0.0)]);
    }

    #[test]
    fn a_ping_pong_clip_turns_its_slopes_at_both_ends() {
        let c = clip(
            PING_PONG,
            vec![keys(&[(0.0, 0.0, 1.0, 1.0), (1.0, 1.0, 3.0, 3.0)])],
        );
        let r = check(&c);
        assert_eq!(r.wrap, "pingpong");
        assert_eq!(
            seams(&c),
            [
                (0, Seam::PingPongStop, 0.0, 6.0),
                (0, Seam::PingPongStart, 0.0, -2.0)
            ]
        );
        // Flat ends turn smoothly.
        let flat = keys(&[(0.0, 0.0, 0.0, 0.0), (1.0, 1.0, 0.0, 0.0)]);
        assert!(seams(&clip(PING_PONG, vec![flat])).is_empty());
    }

    #[test]
    fn jumps_within_the_tolerance_are_not_reported() {
        let step_to = |a: f32, b: f32| keys(&[(0.0, a, 0.0, 0.0), (1.0, b, 0.0, 0.0)]);
        // 5e-5 on 1; 0.5 on 10000 (5e-5 relative): below 1e-4.
        assert!(seams(&clip(LOOP, vec![step_to(1.0, 1.00005)])).is_empty());
        assert!(seams(&clip(LOOP, vec![step_to(10000.0, 10000.5)])).is_empty());
        // 0.02 on 100 is 2e-4 relative: reported.
        let r = seams(&clip(LOOP, vec![step_to(100.0, 100.02)]));
        assert_eq!(r.len(), 1);
        assert!((r[0].2 - 0.02).abs() < 1e-4, "{r:?}");
        // A slope jump of 0.001/s moves the value 1.7e-5 in a 60 Hz frame: not reported; in a
        // 1 Hz frame it moves it 1e-3: reported.
        let slow = || keys(&[(0.0, 0.0, 0.001, 0.001), (1.0, 0.0, 0.0, 0.0)]);
        assert!(seams(&clip_at(LOOP, 60.0, vec![slow()])).is_empty());
        assert_eq!(
            seams(&clip_at(LOOP, 1.0, vec![slow()])),
            [(0, Seam::Loop, 0.0, -0.001)]
        );
    }

    #[test]
    fn dense_seams_count_only_when_sharper_than_every_corner_inside() {
        // Frames every 0.25 s. A triangle: the seam corner (-8/s) is as sharp as the peak's.
        let triangle = Curve::sampled(0.0, 4.0, vec![0.0, 1.0, 2.0, 1.0, 0.0]);
        assert!(seams(&clip(LOOP, vec![triangle])).is_empty());
        // A plateau: corners of 4/s inside, -8/s at the seam.
        let plateau = Curve::sampled(0.0, 4.0, vec![0.0, 1.0, 1.0, 1.0, 0.0]);
        assert_eq!(
            seams(&clip(LOOP, vec![plateau])),
            [(0, Seam::Loop, 0.0, -8.0)]
        );
        // A dense value jump counts whatever the corners.
        let ramp = Curve::sampled(0.0, 4.0, vec![0.0, 1.0, 2.0, 3.0, 4.0]);
        assert_eq!(seams(&clip(LOOP, vec![ramp])), [(0, Seam::Loop, 4.0, 0.0)]);
    }

    #[test]
    fn one_sided_limits_of_dense_curves() {
        let c = Curve::sampled(0.0, 4.0, vec![0.0, 1.0, 3.0]);
        assert_eq!(left_limit(&c, 0.5), (3.0, 8.0));
        assert_eq!(right_limit(&c, 0.0), (0.0, 4.0));
        assert_eq!(left_limit(&c, 0.25), (1.0, 4.0));
        assert_eq!(right_limit(&c, 0.25), (1.0, 8.0));
        // Curve::slope holds at both ends.
        assert_eq!((c.slope(0.0), c.slope(0.5)), (0.0, 0.0));
        // Past the frames the curve holds.
        assert_eq!(left_limit(&c, 2.0), (3.0, 0.0));
        assert_eq!(right_limit(&c, -1.0), (0.0, 0.0));
        assert_eq!(left_limit(&Curve::constant(2.0), 1.0), (2.0, 0.0));
    }

    #[test]
    fn steps_list_the_keys_that_start_held_segments() {
        let stepped = Curve::from_keys(vec![
            Key::new(0.0, 0.0, 0.0, 0.0),
            Key::step(0.25, 1.0),
            Key::new(0.5, 2.0, 0.0, 0.0),
            Key::new(0.75, 3.0, INF, 0.0),
            Key::new(1.0, 4.0, 0.0, 0.0),
        ]);
        let smooth = keys(&[(0.0, 0.0, 0.0, 0.0), (1.0, 1.0, 0.0, 0.0)]);
        let mut c = clip(ONCE, vec![stepped, smooth]);
        let r = check(&c);
        assert_eq!(
            r.steps,
            [StepInfo {
                curve: 0,
                binding: "path 0x00000007: attribute 0x00000000".into(),
                component: 0,
                times: vec![0.25, 0.5],
            }]
        );
        assert_eq!(r.problems, 0, "steps are not problems");
        // A PPtr curve holds every key by nature: not listed.
        c.bindings[0].is_pptr = true;
        assert!(check(&c).steps.is_empty());
    }

    #[test]
    fn the_initial_key_of_a_streamed_curve_is_not_a_step() {
        let keys = [
            Key::step(-f32::MAX, 0.0),
            Key::new(0.5, 1.0, 0.0, 0.0),
            Key::new(1.0, 1.0, 0.0, 0.0),
        ];
        assert!(step_times(&keys).is_empty());
        assert_eq!(
            step_times(&[Key::step(0.0, 1.0), Key::step(0.5, 2.0)]),
            [0.0]
        );
    }

    #[test]
    fn non_finite_values_are_grouped_per_curve_and_kind() {
        let mut weighted = Key::new(0.5, 1.0, f32::NAN, INF);
        weighted.weighted_mode = WEIGHTED_IN;
        weighted.in_weight = f32::NAN;
        weighted.out_weight = f32::NAN; // not weighted out: unused, not reported
        let bad_keys = Curve::from_keys(vec![
            Key::new(0.0, f32::NAN, 0.0, 0.0),
            weighted,
            Key::new(1.0, INF, 0.0, 0.0),
        ]);
        let dense = Curve::sampled(0.0, 4.0, vec![0.0, f32::NAN, INF, 1.0]);
        let constant = Curve::constant(f32::NEG_INFINITY);
        let fine = keys(&[(0.0, 0.0, INF, INF), (1.0, 1.0, -INF, 0.0)]);
        let r = check(&clip(ONCE, vec![bad_keys, dense, constant, fine]));
        let got: Vec<(usize, NonFiniteWhat, usize, usize, &str)> = r
            .non_finite
            .iter()
            .map(|n| (n.curve, n.what, n.first_index, n.count, n.value.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (0, NonFiniteWhat::KeyValue, 0, 2, "NaN"),
                (0, NonFiniteWhat::InSlope, 1, 1, "NaN"),
                (0, NonFiniteWhat::InWeight, 1, 1, "NaN"),
                (1, NonFiniteWhat::Sample, 1, 2, "NaN"),
                (2, NonFiniteWhat::Constant, 0, 1, "-inf"),
            ]
        );
        assert_eq!(r.problems, 5);
        let json = serde_json::to_value(&r.non_finite[3]).unwrap();
        assert_eq!(json["what"], "sample");
        assert_eq!(json["value"], "NaN");
    }

    #[test]
    fn keys_past_the_curve_count_are_read_from_the_decoder_warning() {
        let warnings = vec![
            "3 streamed keys index curves past the 5 streamed curves; they were left out"
                .to_string(),
            "streamed block does not end with the +inf frame".to_string(),
            "some streamed keys index curves past the end".to_string(),
        ];
        assert_eq!(keys_past_curve_count(&warnings), 3);
        assert_eq!(keys_past_curve_count(&[]), 0);
        let mut c = clip(ONCE, vec![Curve::constant(0.0)]);
        c.warnings = warnings;
        let r = check(&c);
        assert_eq!((r.keys_past_curve_count, r.problems), (3, 1));
    }

    #[test]
    fn unmatched_binding_paths_are_named_and_counted_when_a_skeleton_is_given() {
        let skeleton = Skeleton::from_paths(["Hips", "Hips/Spine"]);
        let arm = path_hash("Hips/Arm");
        let mut c = clip(ONCE, vec![Curve::constant(0.0); 6]);
        let mut gun = binding(path_hash("Gun"), 0);
        gun.path_name = Some("Gun".into());
        c.bindings = vec![
            binding(path_hash("Hips"), 1),
            binding(arm, 1),
            binding(arm, 2),
            binding(0xdead_beef, 1),
            binding(0, 1),
            gun,
        ];
        let names = BTreeMap::from([(arm, "Hips/Arm".to_string())]);
        let r = check_clip(&c, Some(&skeleton), &names);
        assert_eq!(
            r.unmatched_bindings,
            [
                Unmatched {
                    path: arm,
                    name: Some("Hips/Arm".into()),
                    bindings: 2
                },
                Unmatched {
                    path: 0xdead_beef,
                    name: None,
                    bindings: 1
                },
                Unmatched {
                    path: path_hash("Gun"),
                    name: Some("Gun".into()),
                    bindings: 1
                },
            ]
        );
        assert_eq!(r.problems, 3);
        // Without a skeleton nothing is checked, and the report says so.
        let unchecked = check_clip(&c, None, &names);
        assert!(unchecked.unmatched_bindings.is_empty());
        assert_eq!(unchecked.rig, None);
        assert!(unchecked.rig_note.contains("not checked"));
    }

    #[test]
    fn equal_bindings_are_duplicates_and_near_ones_are_not() {
        let mut c = clip(ONCE, vec![Curve::constant(0.0); 5]);
        let a = binding(5, 9);
        let mut same_target = a.clone();
        same_target.attribute_name = Some("m_Weight".into());
        let mut other_custom = a.clone();
        other_custom.custom_type = 20;
        let mut other_script = a.clone();
        other_script.script = (0, 42);
        c.bindings = vec![a.clone(), other_custom, same_target, other_script, a];
        let r = check(&c);
        assert_eq!(
            r.duplicate_bindings,
            [Duplicate {
                binding: "path 0x00000005: attribute 0x00000009".into(),
                indices: vec![0, 2, 4],
                count: 3,
            }]
        );
        assert_eq!(r.problems, 1);
    }

    #[test]
    fn problems_count_every_listed_problem_but_not_steps() {
        let seam = keys(&[(0.0, 0.0, 0.0, 0.0), (1.0, 1.0, 0.0, 0.0)]);
        let stepped = Curve::from_keys(vec![Key::step(0.0, 0.0), Key::new(1.0, 0.0, 0.0, 0.0)]);
        let mut c = clip(LOOP, vec![seam, stepped, Curve::constant(f32::NAN)]);
        c.bindings[2] = c.bindings[1].clone();
        c.warnings
            .push("2 streamed keys index curves past the 3 streamed curves".into());
        let skeleton = Skeleton::from_paths(["Other"]);
        let r = check_clip(&c, Some(&skeleton), &BTreeMap::new());
        assert_eq!(r.seams.len(), 1);
        assert_eq!(r.steps.len(), 1);
        assert_eq!(r.non_finite.len(), 1);
        assert_eq!(r.keys_past_curve_count, 2);
        assert_eq!(r.unmatched_bindings.len(), 1);
        assert_eq!(r.duplicate_bindings.len(), 1);
        assert_eq!(r.problems, 5);
    }

    fn rig(name: &str, paths: &[&str], clips: Vec<ObjectRef>) -> RigEntry {
        RigEntry {
            at: ObjectRef {
                file: 0,
                path_id: 100,
            },
            name: name.into(),
            component: RigComponent::Animator,
            skeleton: Skeleton::from_paths(paths.iter().copied()),
            tos: Default::default(),
            avatar: None,
            humanoid: None,
            clips,
            unresolved_clips: 0,
        }
    }

    fn entry(path_id: i64, name: &str, paths: &[&str]) -> ClipEntry {
        let mut c = clip(ONCE, vec![Curve::constant(0.0); paths.len()]);
        c.name = name.into();
        c.bindings = paths.iter().map(|p| binding(path_hash(p), 1)).collect();
        ClipEntry {
            at: ObjectRef { file: 0, path_id },
            name: name.into(),
            data: Ok(c),
        }
    }

    #[test]
    fn each_clip_is_checked_against_the_rig_that_reaches_it_or_matches_most() {
        let reached = ObjectRef {
            file: 0,
            path_id: 1,
        };
        let ws = Workspace {
            rigs: vec![
                rig("A", &["Arm"], vec![reached]),
                rig("B", &["Leg", "Leg/Foot"], Vec::new()),
            ],
            clips: vec![
                entry(1, "Reached", &["Leg", "Tail"]),
                entry(2, "Walk", &["Leg", "Leg/Foot", "Tail"]),
                entry(3, "Lost", &["Nowhere"]),
                ClipEntry {
                    at: ObjectRef {
                        file: 0,
                        path_id: 4,
                    },
                    name: "Broken".into(),
                    data: Err(crate::Error::Object {
                        location: "f".into(),
                        path_id: 4,
                        class: "AnimationClip".into(),
                        detail: "bad".into(),
                    }),
                },
            ],
            ..Default::default()
        };
        let reports = check_workspace(&ws, None);
        let summary: Vec<(&str, Option<&str>, usize, usize)> = reports
            .iter()
            .map(|r| {
                (
                    r.clip.as_str(),
                    r.rig.as_deref(),
                    r.unmatched_bindings.len(),
                    r.problems,
                )
            })
            .collect();
        assert_eq!(
            summary,
            [
                ("Reached", Some("A"), 2, 2),
                ("Walk", Some("B"), 1, 1),
                ("Lost", None, 0, 0),
                ("Broken", None, 0, 1),
            ]
        );
        assert_eq!(
            reports[0].rig_note,
            "its Animator's controller lists the clip"
        );
        assert_eq!(reports[1].rig_note, "matches 2 of 3 paths");
        assert_eq!(
            reports[2].rig_note,
            "no rig matches its paths: bindings not checked"
        );
        assert_eq!(
            reports[3].error.as_deref(),
            Some("f: object 4 (AnimationClip): bad")
        );
        assert_eq!(reports[1].path_id, 2);
        // Unmatched paths are named from the other rigs' joints where they have them.
        assert_eq!(
            reports[0].unmatched_bindings[0].name.as_deref(),
            Some("Leg")
        );
        // Only the named clip.
        let walk = check_workspace(&ws, Some("Walk"));
        assert_eq!(walk.len(), 1);
        assert!(check_workspace(&ws, Some("Nope")).is_empty());
    }

    #[test]
    fn a_report_serializes_to_the_documented_fields() {
        let r = check(&clip(
            LOOP,
            vec![keys(&[(0.0, 0.0, 0.0, 0.0), (1.0, 1.0, 0.0, 0.0)])],
        ));
        let v = serde_json::to_value(&r).unwrap();
        let mut fields: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        fields.sort_unstable();
        assert_eq!(
            fields,
            [
                "clip",
                "duplicate_bindings",
                "error",
                "file",
                "keys_past_curve_count",
                "legacy",
                "length",
                "non_finite",
                "path_id",
                "problems",
                "rig",
                "rig_note",
                "sample_rate",
                "seams",
                "steps",
                "unmatched_bindings",
                "wrap",
            ]
        );
        assert_eq!(v["seams"][0]["seam"], "loop");
        assert_eq!(v["seams"][0]["value_jump"], 1.0);
    }
}
