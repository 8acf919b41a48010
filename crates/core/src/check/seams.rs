//! The jumps of a looping or ping-pong clip at its seam: each curve's value and slope on
//! either side, read as one-sided limits.

use super::corners::unit_corner;
use super::measure::{Quantity, Severity, Sides, Thresholds};
use super::units::{Unit, units};
use super::*;
use crate::clip::{ClipData, Storage};
use crate::curve::{Curve, CurveShape, Key, WrapMode};

/// Relative tolerance of a seam's value jump: a jump is listed when it exceeds this times
/// the larger of 1 and the magnitudes on either side of the seam (a 0.1 mm jump is listed,
/// as a note; `f32` rounding of values near 1 is 100 times finer).
pub const SEAM_TOLERANCE: f32 = 1e-5;

/// Relative tolerance of a seam's slope jump: listed when, over one frame, it moves the value
/// by more than this times the larger of 1 and the magnitudes.
pub const SLOPE_TOLERANCE: f32 = 1e-4;

/// How far (seconds) a key may sit from the clip's start or stop and still count as the key
/// at that end. Stored times drift by an `f32` rounding or two from the clip's stop time;
/// without this, a last key at `stop - 1e-7` would leave a 0.1 µs clamped stretch whose slope
/// (0) would be reported as the slope at the seam. Far below a frame at any sample rate.
pub const SNAP_SECONDS: f32 = 1e-4;

/// How far (in frames) a time may sit from a dense curve's frame and still count as on it.
pub(super) const SNAP_FRAMES: f32 = 1e-3;

/// True for curves whose values are indices or integers (PPtr and int bindings): they hold
/// each value by nature, so their steps and jumps are not reported.
pub(super) fn is_discrete(clip: &ClipData, index: usize) -> bool {
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

pub(super) fn seam_jumps(clip: &ClipData, wrap: WrapMode, ctx: &Context<'_>) -> Vec<SeamJump> {
    if !matches!(wrap, WrapMode::Loop | WrapMode::PingPong) || clip.length() <= 0.0 {
        return Vec::new();
    }
    let seams: &[Seam] = match wrap {
        WrapMode::Loop => &[Seam::Loop],
        _ => &[Seam::PingPongStop, Seam::PingPongStart],
    };
    let frame = frame_seconds(clip.sample_rate);
    let mut out = Vec::new();
    for unit in units(clip, ctx.namer, ctx.posed()) {
        for &seam in seams {
            let (before, after) = seam_sides(clip, &unit.curves, seam);
            if let Some(jump) = unit_jump(clip, &unit, before, after, frame, ctx) {
                out.push(SeamJump {
                    curve: jump.curve,
                    binding: unit.binding.clone(),
                    component: jump.component,
                    seam,
                    value_jump: jump.value_jump,
                    joint: unit.joint.clone(),
                    measure: unit.quantity.measure(),
                    jump: jump.jump,
                    slope_jump: jump.slope_jump,
                    inner_slope_jump: jump.inner_slope_jump,
                    severity: jump.severity,
                });
            }
        }
    }
    if let Some(posed) = &ctx.humanoid {
        for &seam in seams {
            out.extend(posed.seam(clip, seam, frame, ctx));
        }
    }
    out
}

/// Each curve's (value, slope) just before and just after a seam.
///
/// * Loop: the left limit at `stop`, the right limit at `start`.
/// * Ping-pong at stop: the left limit at `stop`, then the same value moving back.
/// * Ping-pong at start: the right limit at `start` moving back, then moving forward.
pub(super) fn seam_sides(clip: &ClipData, curves: &[usize], seam: Seam) -> (Sides, Sides) {
    let side = |c: usize, left: bool| {
        let curve = &clip.curves[c].curve;
        if left {
            left_limit(curve, clip.stop)
        } else {
            right_limit(curve, clip.start)
        }
    };
    let before: Sides = curves.iter().map(|&c| side(c, true)).collect();
    let after: Sides = curves.iter().map(|&c| side(c, false)).collect();
    let back = |s: &Sides| s.iter().map(|&(v, d)| (v, -d)).collect::<Sides>();
    match seam {
        Seam::Loop => (before, after),
        Seam::PingPongStop => {
            let turned = back(&before);
            (before, turned)
        }
        Seam::PingPongStart => (back(&after), after),
    }
}

/// True when every value is finite (non-finite ones are reported as such, not as jumps).
pub(super) fn finite_values(sides: &Sides) -> bool {
    sides.iter().all(|s| s.0.is_finite())
}

/// Negates a rotation's `after` side (values and slopes) when it lies in the other
/// hemisphere from `before`: q and -q are one rotation.
pub(super) fn align(quantity: Quantity, before: &Sides, after: &mut Sides) {
    if quantity == Quantity::Rotation {
        let dot: f32 = before
            .iter()
            .zip(after.iter())
            .map(|(b, a)| b.0 * a.0)
            .sum();
        if dot < 0.0 {
            after.iter_mut().for_each(|s| *s = (-s.0, -s.1));
        }
    }
}

/// A unit's measured jump between two sides, with the component that jumps most.
#[derive(Clone, Copy, Debug)]
pub(super) struct UnitJump {
    pub curve: usize,
    pub component: u8,
    /// That component's raw value jump (before - after).
    pub value_jump: f32,
    pub jump: f32,
    pub slope_jump: f32,
    pub inner_slope_jump: f32,
    pub severity: Severity,
}

/// Measures a unit's jump from `before` to `after`; `None` when no component's jump counts
/// by [`Tolerance`] or the measured jump is negligible. A rotation's `after` side is
/// negated first when it lies in the other hemisphere (q and -q are one rotation). The
/// slope jump is 0 when no component's slope jump counts (a dense curve's seam corner no
/// sharper than its inner ones).
pub(super) fn unit_jump(
    clip: &ClipData,
    unit: &Unit,
    before: Sides,
    mut after: Sides,
    frame: f32,
    ctx: &Context<'_>,
) -> Option<UnitJump> {
    if !finite_values(&before) || !finite_values(&after) {
        return None;
    }
    align(unit.quantity, &before, &mut after);
    let mut value_counts = false;
    let mut slope_counts = false;
    let mut largest: Option<(usize, f32)> = None;
    for (i, (&b, &a)) in before.iter().zip(&after).enumerate() {
        let tolerance = Tolerance {
            frame,
            corner: dense_corner(&clip.curves[unit.curves[i]].curve),
        };
        let (v, s) = tolerance.counts(b, a);
        value_counts |= v;
        slope_counts |= s;
        let d = b.0 - a.0;
        if largest.is_none_or(|(_, l)| d.abs() > l.abs()) {
            largest = Some((i, d));
        }
    }
    if !(value_counts || slope_counts) {
        return None;
    }
    let measure = unit.quantity.measure();
    let (jump, slope) = super::measure::measure(unit.quantity, &before, &after, ctx.size);
    let slope_jump = if slope_counts { slope } else { 0.0 };
    if Thresholds::negligible(measure, jump, slope_jump) {
        return None;
    }
    let (i, value_jump) = largest?;
    let curve = unit.curves[i];
    let corner = unit_corner(clip, &unit.curves, unit.quantity, ctx.size);
    Some(UnitJump {
        curve,
        component: clip.curves[curve].component,
        value_jump,
        jump,
        slope_jump,
        inner_slope_jump: corner,
        severity: ctx.thresholds.severity(measure, jump, slope_jump, corner),
    })
}

/// One frame in seconds at `sample_rate` (at 60 Hz when the rate is unusable).
pub(super) fn frame_seconds(sample_rate: f32) -> f32 {
    if sample_rate.is_finite() && sample_rate > 0.0 {
        1.0 / sample_rate
    } else {
        1.0 / 60.0
    }
}

/// (value, slope) at one side of a seam.
pub(super) type Side = (f32, f32);

/// When a seam jump counts.
///
/// * A value jump counts above [`SEAM_TOLERANCE`] times the larger value (at least 1).
/// * A slope jump counts when, over one frame, it moves the value by more than
///   [`SLOPE_TOLERANCE`] times the larger value (at least 1), and
///   when it is sharper than every corner inside the curve (`corner`, nonzero only for dense
///   curves: baked samples whose secant slope changes at every frame, so a seam corner no
///   sharper than those is ordinary motion, not a seam).
#[derive(Clone, Copy, Debug)]
pub(super) struct Tolerance {
    /// Seconds per frame.
    pub frame: f32,
    /// The largest slope change (per second) between neighbouring intervals inside the curve.
    pub corner: f32,
}

impl Tolerance {
    /// Whether the value and the slope jump from `before` to `after` count.
    pub(super) fn counts(self, before: Side, after: Side) -> (bool, bool) {
        let value = before.0 - after.0;
        let slope = before.1 - after.1;
        let magnitude = before.0.abs().max(after.0.abs()).max(1.0);
        let value_counts = value.abs() > SEAM_TOLERANCE * magnitude;
        let slope_counts =
            slope.abs() * self.frame > SLOPE_TOLERANCE * magnitude && slope.abs() > self.corner;
        (value_counts, slope_counts)
    }
}

/// The sharpest corner inside a dense curve: the largest change of the secant slope (per
/// second) from one frame interval to the next; 0 for other curves.
pub(super) fn dense_corner(curve: &Curve) -> f32 {
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

pub(super) fn plain(curve: &Curve, t: f32) -> (f32, f32) {
    (curve.sample(t), curve.slope(t))
}

/// The end of the segment arriving at the key at (or within [`SNAP_SECONDS`] of) `t`: the
/// next key's value and in slope, or the held left value for a step. `None` when no key is
/// there (the curve is then continuous at `t`) or no segment arrives at it.
pub(super) fn keys_left(keys: &[Key], t: f32) -> Option<(f32, f32)> {
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
pub(super) fn dense_side(
    begin: f32,
    rate: f32,
    values: &[f32],
    t: f32,
    left: bool,
) -> Option<(f32, f32)> {
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
