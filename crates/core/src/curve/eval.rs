//! Evaluating a [`Curve`] the way Unity's `AnimationCurve.Evaluate` does.
//!
//! The rules (unity-semantics.md A1, and its "Edge rules settled" section):
//! * the segment is found by an upper-bound binary search, so a key applies from its own
//!   time on, and of several keys at one time the last applies;
//! * a segment with an infinite (or NaN) slope on either side holds its left value (a step);
//! * a segment is a cubic Hermite in per-second slopes unless one of its sides is weighted,
//!   in which case it is Unity's Bezier (see [`super::weighted`]);
//! * outside the keys the curve's pre/post infinity clamps, repeats or ping-pongs.
//!
//! Everything is `f32`, and nothing allocates: this runs for every curve at every frame.

use super::weighted::Segment;
use super::wrap::{ping_pong, ping_pong_direction, repeat};
use super::{Curve, CurveShape, DEFAULT_WEIGHT, Infinity, Key, WEIGHTED_IN, WEIGHTED_OUT};

/// Index of the key that starts the segment containing `t`: the last key with
/// `time <= t` (Unity's upper-bound search minus one).
///
/// With several keys at the same time the last of them is returned, so it applies from that
/// time on. Before the first key (or for NaN `t`, or no keys) the answer is 0. Never panics,
/// even on unsorted keys (the answer is then some index, as a binary search finds it).
///
/// Keys are usually evenly spaced (baked at the clip's frame rate), so the index is first
/// guessed from the time and checked against its two neighbours; when the guess is wrong
/// the answer comes from a binary search. Both give the same index on sorted keys.
pub fn segment_index<K: KeyTime>(keys: &[K], t: f32) -> usize {
    guess_segment(keys, t).unwrap_or_else(|| upper_bound(keys, t).saturating_sub(1))
}

/// Something with a key time: a [`Key`], or a bare time.
pub trait KeyTime {
    fn key_time(&self) -> f32;
}

impl KeyTime for Key {
    #[inline]
    fn key_time(&self) -> f32 {
        self.time
    }
}

impl KeyTime for f32 {
    #[inline]
    fn key_time(&self) -> f32 {
        *self
    }
}

/// The first index whose key time is greater than `t` (a plain binary search).
fn upper_bound<K: KeyTime>(keys: &[K], t: f32) -> usize {
    keys.partition_point(|key| key.key_time() <= t)
}

/// The segment index read off evenly spaced keys, if the keys around the guess confirm it:
/// `keys[i].time <= t < keys[i + 1].time`. `None` when it cannot be confirmed.
fn guess_segment<K: KeyTime>(keys: &[K], t: f32) -> Option<usize> {
    let (first, last) = (keys.first()?.key_time(), keys.last()?.key_time());
    let span = last - first;
    let last_segment = keys.len().checked_sub(2)?;
    let segments = (last_segment + 1) as f32;
    // The scale does not depend on `t`, so its division overlaps the subtraction.
    let position = (t - first) * (segments / span);
    // Also rejects NaN (from t, or an empty or non-finite span).
    if !(position >= 0.0 && position < segments) {
        return None;
    }
    // In range, so the truncating cast is exact and at most `last_segment`.
    let index = (position as usize).min(last_segment);
    let (lhs, rhs) = (keys.get(index)?, keys.get(index + 1)?);
    (lhs.key_time() <= t && t < rhs.key_time()).then_some(index)
}

/// Where a time falls relative to a curve's defined range, after pre/post infinity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Local {
    /// Evaluate the curve inside its range at this time.
    Inside(f32),
    /// Evaluate inside at this time; the local time runs backwards (ping-pong return leg),
    /// which flips the sign of the slope.
    Mirrored(f32),
    /// Hold the first stored value.
    First,
    /// Hold the last stored value.
    Last,
}

/// Maps `t` into `[first, last]` by the pre/post infinity rules.
///
/// NaN samples the first time; ±infinity holds the ends whatever the modes; a range that is
/// not finite and positive clamps.
#[inline]
pub(super) fn wrap_into_range(
    t: f32,
    first: f32,
    last: f32,
    pre: Infinity,
    post: Infinity,
) -> Local {
    if t.is_nan() {
        return Local::Inside(first);
    }
    let (mode, hold) = if t < first {
        (pre, Local::First)
    } else if t > last {
        (post, Local::Last)
    } else {
        return Local::Inside(t);
    };
    let length = last - first;
    if t.is_infinite() || !length.is_finite() || length <= 0.0 {
        return hold;
    }
    let offset = t - first;
    match mode {
        Infinity::Clamp => hold,
        Infinity::Repeat => Local::Inside(first + repeat(offset, length)),
        Infinity::PingPong => {
            let local = first + ping_pong(offset, length);
            if ping_pong_direction(offset, length) < 0.0 {
                Local::Mirrored(local)
            } else {
                Local::Inside(local)
            }
        }
    }
}

/// True when a segment holds its left value: an infinite or NaN slope on either side.
fn is_step(lhs: &Key, rhs: &Key) -> bool {
    !lhs.out_slope.is_finite() || !rhs.in_slope.is_finite()
}

/// True when either side of the segment uses its Bezier weight.
fn is_weighted(lhs: &Key, rhs: &Key) -> bool {
    lhs.weighted_mode & WEIGHTED_OUT != 0 || rhs.weighted_mode & WEIGHTED_IN != 0
}

/// A handle weight, with the default for an unweighted side and for a non-finite weight
/// (which would otherwise turn the whole segment into NaN).
fn weight(weighted: bool, w: f32) -> f32 {
    if weighted && w.is_finite() {
        w
    } else {
        DEFAULT_WEIGHT
    }
}

/// The weighted segment from `lhs` to `rhs` (duration `dx`) in normalized form.
fn bezier_segment(lhs: &Key, rhs: &Key, dx: f32) -> Segment {
    Segment {
        v0: lhs.value,
        m0: lhs.out_slope * dx,
        w1: weight(lhs.weighted_mode & WEIGHTED_OUT != 0, lhs.out_weight),
        v1: rhs.value,
        m1: rhs.in_slope * dx,
        w2: weight(rhs.weighted_mode & WEIGHTED_IN != 0, rhs.in_weight),
    }
}

/// Unity's cubic Hermite in basis form: `s` in `[0, 1]`, end values `p0`, `p1` and end
/// tangents `m0`, `m1` already scaled by the segment duration.
fn hermite(s: f32, p0: f32, m0: f32, m1: f32, p1: f32) -> f32 {
    HermiteBasis::at(s).apply(p0, m0, m1, p1)
}

/// The four Hermite basis weights at `s`, shared by curves that share a segment.
#[derive(Clone, Copy)]
pub(super) struct HermiteBasis([f32; 4]);

impl HermiteBasis {
    #[inline]
    pub(super) fn at(s: f32) -> Self {
        let s2 = s * s;
        let s3 = s2 * s;
        HermiteBasis([
            2.0 * s3 - 3.0 * s2 + 1.0,
            s3 - 2.0 * s2 + s,
            s3 - s2,
            -2.0 * s3 + 3.0 * s2,
        ])
    }

    #[inline]
    pub(super) fn apply(self, p0: f32, m0: f32, m1: f32, p1: f32) -> f32 {
        let [a, b, c, d] = self.0;
        a * p0 + b * m0 + c * m1 + d * p1
    }
}

/// The derivative of [`hermite`] with respect to `s`.
fn hermite_derivative(s: f32, p0: f32, m0: f32, m1: f32, p1: f32) -> f32 {
    let s2 = s * s;
    let a = 6.0 * s2 - 6.0 * s;
    let b = 3.0 * s2 - 4.0 * s + 1.0;
    let c = 3.0 * s2 - 2.0 * s;
    a * p0 + b * m0 + c * m1 - a * p1
}

/// The value of the segment from `lhs` to `rhs` at time `t` (within it).
fn segment_value(lhs: &Key, rhs: &Key, t: f32) -> f32 {
    let dx = rhs.time - lhs.time;
    if dx == 0.0 || is_step(lhs, rhs) {
        return lhs.value;
    }
    let s = (t - lhs.time) / dx;
    if s == 0.0 {
        // The Hermite sum at s = 0 is exactly v0 (the Bezier's is v0 up to its root solve);
        // returning it directly keeps a huge finite tangent from making 0 · inf = NaN.
        return lhs.value;
    }
    if is_weighted(lhs, rhs) {
        bezier_segment(lhs, rhs, dx).value(s)
    } else {
        let (m0, m1) = (lhs.out_slope * dx, rhs.in_slope * dx);
        hermite(s, lhs.value, m0, m1, rhs.value)
    }
}

/// The per-second slope of the segment from `lhs` to `rhs` at time `t` (within it).
fn segment_slope(lhs: &Key, rhs: &Key, t: f32) -> f32 {
    let dx = rhs.time - lhs.time;
    if dx == 0.0 || !dx.is_finite() || is_step(lhs, rhs) {
        return 0.0;
    }
    let s = (t - lhs.time) / dx;
    let per_unit = if is_weighted(lhs, rhs) {
        bezier_segment(lhs, rhs, dx).slope(s)
    } else {
        let (m0, m1) = (lhs.out_slope * dx, rhs.in_slope * dx);
        hermite_derivative(s, lhs.value, m0, m1, rhs.value)
    };
    let slope = per_unit / dx;
    if slope.is_finite() { slope } else { 0.0 }
}

/// The two keys of the segment containing `t`: `lhs` and `min(lhs + 1, n - 1)`.
fn segment_keys(keys: &[Key], t: f32) -> Option<(&Key, &Key)> {
    let lhs = segment_index(keys, t);
    let rhs = (lhs + 1).min(keys.len().saturating_sub(1));
    Some((keys.get(lhs)?, keys.get(rhs)?))
}

/// Value of a key curve at `t`.
#[inline]
fn keys_value(keys: &[Key], pre: Infinity, post: Infinity, t: f32) -> f32 {
    let (Some(first), Some(last)) = (keys.first(), keys.last()) else {
        return 0.0;
    };
    if keys.len() == 1 {
        return first.value;
    }
    let local = match wrap_into_range(t, first.time, last.time, pre, post) {
        Local::First => return first.value,
        Local::Last => return last.value,
        Local::Inside(local) | Local::Mirrored(local) => local,
    };
    segment_keys(keys, local).map_or(0.0, |(lhs, rhs)| segment_value(lhs, rhs, local))
}

/// Per-second slope of a key curve at `t`.
fn keys_slope(keys: &[Key], pre: Infinity, post: Infinity, t: f32) -> f32 {
    let (Some(first), Some(last)) = (keys.first(), keys.last()) else {
        return 0.0;
    };
    if keys.len() == 1 {
        return 0.0;
    }
    let (local, sign) = match wrap_into_range(t, first.time, last.time, pre, post) {
        Local::First | Local::Last => return 0.0,
        Local::Inside(local) => (local, 1.0),
        Local::Mirrored(local) => (local, -1.0),
    };
    segment_keys(keys, local).map_or(0.0, |(lhs, rhs)| sign * segment_slope(lhs, rhs, local))
}

/// Where `t` falls in a sampled curve: inside a frame interval, or held at an end frame.
enum Frame {
    /// Between frames `index` and `index + 1`, at `fraction` in `[0, 1)`.
    Between(usize, f32),
    /// Held at frame `index`.
    Held(usize),
}

/// Locates `t` among `len >= 1` samples starting at `begin`, `rate` per second.
fn locate_frame(begin: f32, rate: f32, len: usize, t: f32) -> Frame {
    let last = len.saturating_sub(1);
    if !rate.is_finite() || rate <= 0.0 || last == 0 {
        return Frame::Held(0);
    }
    // NaN (from a NaN `t` or a non-finite `begin`) samples the first frame.
    let position = (t - begin) * rate;
    if position.is_nan() || position <= 0.0 {
        return Frame::Held(0);
    }
    if position >= last as f32 {
        return Frame::Held(last);
    }
    let floor = position.floor();
    // In range: 0 <= floor < last, so the cast is exact and the index valid.
    let index = (floor as usize).min(last - 1);
    Frame::Between(index, position - floor)
}

/// Value of a sampled curve at `t`: linear between frames (`v0 + (v1 - v0) · fraction`),
/// clamped outside.
fn sampled_value(begin: f32, rate: f32, values: &[f32], t: f32) -> f32 {
    match locate_frame(begin, rate, values.len(), t) {
        Frame::Held(index) => values.get(index).copied().unwrap_or(0.0),
        Frame::Between(index, fraction) => match (values.get(index), values.get(index + 1)) {
            (Some(&v0), Some(&v1)) => v0 + (v1 - v0) * fraction,
            _ => 0.0,
        },
    }
}

/// Per-second slope of a sampled curve at `t`: the secant of its frame interval, 0 where
/// clamped.
fn sampled_slope(begin: f32, rate: f32, values: &[f32], t: f32) -> f32 {
    match locate_frame(begin, rate, values.len(), t) {
        Frame::Held(_) => 0.0,
        Frame::Between(index, _) => match (values.get(index), values.get(index + 1)) {
            (Some(&v0), Some(&v1)) => (v1 - v0) * rate,
            _ => 0.0,
        },
    }
}

impl Curve {
    /// The curve's value at time `t` (seconds), exactly as Unity's `AnimationCurve.Evaluate`.
    ///
    /// * Keys: empty gives 0, one key its value; Hermite, weighted Bezier or step segments
    ///   inside; pre/post infinity outside (clamp holds the first/last key's value).
    /// * Sampled: linear between frames, clamped outside (the infinities are ignored).
    /// * Constant: the value.
    ///
    /// NaN `t` samples the first time, ±infinity holds the ends; never panics, never loops,
    /// never allocates.
    #[inline]
    pub fn sample(&self, t: f32) -> f32 {
        match &self.shape {
            CurveShape::Keys(keys) => keys_value(keys, self.pre_infinity, self.post_infinity, t),
            CurveShape::Sampled {
                begin,
                rate,
                values,
            } => sampled_value(*begin, *rate, values, t),
            CurveShape::Constant(value) => *value,
        }
    }

    /// The derivative `dv/dt` (per second) at `t`, by the same rules as [`Curve::sample`].
    ///
    /// 0 on step segments, in clamped regions and for constant curves; the secant of the frame
    /// interval for sampled curves; sign-flipped on the return leg of a ping-pong infinity.
    /// Always finite.
    pub fn slope(&self, t: f32) -> f32 {
        match &self.shape {
            CurveShape::Keys(keys) => keys_slope(keys, self.pre_infinity, self.post_infinity, t),
            CurveShape::Sampled {
                begin,
                rate,
                values,
            } => sampled_slope(*begin, *rate, values, t),
            CurveShape::Constant(_) => 0.0,
        }
    }

    /// The time span the curve's data covers: first to last key time for keys, `begin` to
    /// the last frame's time for sampled curves; `None` for constant or empty curves.
    pub fn time_range(&self) -> Option<(f32, f32)> {
        match &self.shape {
            CurveShape::Keys(keys) => Some((keys.first()?.time, keys.last()?.time)),
            CurveShape::Sampled {
                begin,
                rate,
                values,
            } => {
                let frames = values.len().checked_sub(1)?;
                let span = if rate.is_finite() && *rate > 0.0 {
                    frames as f32 / rate
                } else {
                    0.0
                };
                Some((*begin, begin + span))
            }
            CurveShape::Constant(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::WEIGHTED_IN;
    use proptest::prelude::*;

    fn close(a: f32, b: f32, tol: f32) -> bool {
        (a - b).abs() <= tol * (1.0 + b.abs())
    }

    fn curve_with(keys: Vec<Key>, pre: Infinity, post: Infinity) -> Curve {
        Curve {
            shape: CurveShape::Keys(keys),
            pre_infinity: pre,
            post_infinity: post,
        }
    }

    /// The Hermite segment in Unity's polynomial ("cache") form of A1, in f64.
    fn polynomial(k0: &Key, k1: &Key, t: f64) -> f64 {
        let dx = ((k1.time - k0.time) as f64).max(1e-4);
        let dy = (k1.value - k0.value) as f64;
        let d0 = k0.out_slope as f64 * dx;
        let d1 = k1.in_slope as f64 * dx;
        let c0 = (d0 + d1 - 2.0 * dy) / (dx * dx * dx);
        let c1 = (3.0 * dy - 2.0 * d0 - d1) / (dx * dx);
        let c2 = k0.out_slope as f64;
        let c3 = k0.value as f64;
        let delta = t - k0.time as f64;
        ((c0 * delta + c1) * delta + c2) * delta + c3
    }

    fn three_keys() -> Vec<Key> {
        vec![
            Key::new(0.0, 2.15, 0.0, 0.0),
            Key::new(0.5, 6.44, 0.0, -1.5),
            Key::new(1.25, -2.0, 4.0, 0.0),
        ]
    }

    #[test]
    fn hermite_matches_polynomial_form() {
        let keys = three_keys();
        let curve = Curve::from_keys(keys.clone());
        for i in 0..=50 {
            let t = i as f32 * 0.025;
            let seg = segment_index(&keys, t).min(1);
            let want = polynomial(&keys[seg], &keys[seg + 1], t as f64);
            let got = curve.sample(t);
            assert!(close(got, want as f32, 1e-5), "t={t}: {got} vs {want}");
        }
        // The example of unity-format.md 7.2: flat keys (0, 2.15), (0.5, 6.44).
        assert!(close(curve.sample(0.5), 6.44, 1e-6));
        assert!(close(curve.sample(0.25), (2.15 + 6.44) / 2.0, 1e-6));
    }

    #[test]
    fn slope_matches_polynomial_derivative() {
        let keys = three_keys();
        let curve = Curve::from_keys(keys.clone());
        for i in 0..50 {
            let t = i as f32 * 0.025 + 0.01;
            let seg = segment_index(&keys, t).min(1);
            let h = 1e-6;
            let want = (polynomial(&keys[seg], &keys[seg + 1], t as f64 + h)
                - polynomial(&keys[seg], &keys[seg + 1], t as f64 - h))
                / (2.0 * h);
            let got = curve.slope(t);
            assert!(close(got, want as f32, 1e-4), "t={t}: {got} vs {want}");
        }
        assert!(close(curve.slope(0.5), -1.5, 1e-5), "out slope at a key");
        assert_eq!(curve.slope(-1.0), 0.0);
        assert_eq!(curve.slope(2.0), 0.0);
    }

    #[test]
    fn key_times_give_key_values() {
        let keys = three_keys();
        let curve = Curve::from_keys(keys.clone());
        for key in &keys {
            assert_eq!(curve.sample(key.time), key.value);
        }
    }

    #[test]
    fn step_holds_until_the_next_key() {
        for step in [f32::INFINITY, f32::NEG_INFINITY, f32::NAN] {
            let keys = vec![
                Key::new(0.0, 1.0, 0.0, step),
                Key::new(1.0, 5.0, 0.0, 0.0),
                Key::new(2.0, 9.0, 0.0, 0.0),
            ];
            let curve = Curve::from_keys(keys);
            assert_eq!(curve.sample(0.0), 1.0);
            assert_eq!(curve.sample(0.5), 1.0);
            assert_eq!(curve.sample(1.0f32.next_down()), 1.0);
            assert_eq!(curve.sample(1.0), 5.0);
            assert_eq!(curve.slope(0.5), 0.0);
        }
        // A step from the incoming side of the right key.
        let keys = vec![
            Key::new(0.0, 1.0, 0.0, 0.0),
            Key::new(1.0, 5.0, f32::NEG_INFINITY, 0.0),
        ];
        let curve = Curve::from_keys(keys);
        assert_eq!(curve.sample(0.999), 1.0);
        assert_eq!(curve.sample(1.0), 5.0);
        // Key::step builds the same thing.
        let curve = Curve::from_keys(vec![Key::step(0.0, 3.0), Key::new(0.5, 4.0, 0.0, 0.0)]);
        assert_eq!(curve.sample(0.25), 3.0);
        assert_eq!(curve.sample(0.5), 4.0);
    }

    #[test]
    fn duplicate_times_last_applies() {
        let keys = vec![
            Key::new(0.0, 0.0, 0.0, 0.0),
            Key::new(1.0, 10.0, 0.0, 0.0),
            Key::new(1.0, 20.0, 0.0, 0.0),
            Key::new(2.0, 20.0, 0.0, 0.0),
        ];
        assert_eq!(segment_index(&keys, 1.0), 2);
        assert_eq!(segment_index(&keys, 0.5), 0);
        assert_eq!(segment_index(&keys, -1.0), 0);
        assert_eq!(segment_index(&keys, f32::NAN), 0);
        assert_eq!(segment_index(&keys, 5.0), 3);
        let curve = Curve::from_keys(keys);
        assert_eq!(curve.sample(1.0), 20.0);
        assert_eq!(curve.sample(1.5), 20.0);
        // Just before: the first segment, flat Hermite 0 -> 10.
        assert!(close(curve.sample(0.5), 5.0, 1e-6));
    }

    #[test]
    fn duplicate_times_at_the_start() {
        let keys = vec![
            Key::new(0.0, 7.0, 0.0, 0.0),
            Key::new(0.0, 1.0, 0.0, 0.0),
            Key::new(1.0, 3.0, 0.0, 0.0),
        ];
        let curve = Curve::from_keys(keys);
        assert_eq!(curve.sample(0.0), 1.0, "the last key at a time applies");
        assert_eq!(curve.sample(-1.0), 7.0, "clamp holds the first key's value");
    }

    fn weighted_key(time: f32, value: f32, slopes: (f32, f32), weights: (f32, f32)) -> Key {
        Key {
            time,
            value,
            in_slope: slopes.0,
            out_slope: slopes.1,
            in_weight: weights.0,
            out_weight: weights.1,
            weighted_mode: WEIGHTED_IN | WEIGHTED_OUT,
        }
    }

    #[test]
    fn default_weights_equal_hermite() {
        let w = DEFAULT_WEIGHT;
        let weighted = Curve::from_keys(vec![
            weighted_key(0.0, 1.0, (0.0, 2.0), (w, w)),
            weighted_key(0.8, -1.0, (-3.0, 1.0), (w, w)),
            weighted_key(2.0, 4.0, (0.5, 0.0), (w, w)),
        ]);
        let plain = Curve::from_keys(vec![
            Key::new(0.0, 1.0, 0.0, 2.0),
            Key::new(0.8, -1.0, -3.0, 1.0),
            Key::new(2.0, 4.0, 0.5, 0.0),
        ]);
        for i in 0..=100 {
            let t = i as f32 * 0.02;
            let (a, b) = (weighted.sample(t), plain.sample(t));
            assert!(close(a, b, 2e-5), "t={t}: weighted {a} vs hermite {b}");
            let (sa, sb) = (weighted.slope(t), plain.slope(t));
            assert!(close(sa, sb, 1e-3), "t={t}: slope {sa} vs {sb}");
        }
    }

    /// Brute-force weighted value: bisection on x(u) = s in f64, then the Bernstein value.
    fn brute_weighted(k0: &Key, k1: &Key, t: f64) -> f64 {
        let dx = (k1.time - k0.time) as f64;
        let s = (t - k0.time as f64) / dx;
        let (w1, w2) = (k0.out_weight as f64, k1.in_weight as f64);
        let bez = |u: f64, p: [f64; 4]| {
            let nu = 1.0 - u;
            nu * nu * nu * p[0]
                + 3.0 * nu * nu * u * p[1]
                + 3.0 * nu * u * u * p[2]
                + u * u * u * p[3]
        };
        let xs = [0.0, w1, 1.0 - w2, 1.0];
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if bez(mid, xs) < s {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let u = 0.5 * (lo + hi);
        let (v0, v1) = (k0.value as f64, k1.value as f64);
        let vs = [
            v0,
            v0 + w1 * k0.out_slope as f64 * dx,
            v1 - w2 * k1.in_slope as f64 * dx,
            v1,
        ];
        bez(u, vs)
    }

    #[test]
    fn weighted_segment_matches_brute_force() {
        let k0 = weighted_key(0.5, 1.0, (0.0, 4.0), (0.0, 0.5));
        let k1 = weighted_key(2.0, 3.0, (-2.0, 0.0), (0.8, 0.0));
        let curve = Curve::from_keys(vec![k0, k1]);
        for i in 0..=200 {
            let t = 0.5 + i as f32 * 1.5 / 200.0;
            let want = brute_weighted(&k0, &k1, t as f64);
            let got = curve.sample(t);
            assert!((got as f64 - want).abs() < 1e-4, "t={t}: {got} vs {want}");
        }
        // Slope against a central difference of the brute force.
        for i in 1..100 {
            let t = 0.5 + i as f32 * 1.5 / 100.0;
            let h = 1e-5;
            let want = (brute_weighted(&k0, &k1, t as f64 + h)
                - brute_weighted(&k0, &k1, t as f64 - h))
                / (2.0 * h);
            let got = curve.slope(t);
            assert!(
                (got as f64 - want).abs() < 1e-2 * (1.0 + want.abs()),
                "t={t}: {got} vs {want}"
            );
        }
    }

    #[test]
    fn one_weighted_side_uses_default_on_the_other() {
        // Only the right key's incoming weight counts; the left side uses 1/3 even though its
        // out_weight field says 0.9.
        let mut k0 = Key::new(0.0, 0.0, 0.0, 1.0);
        k0.out_weight = 0.9;
        let mut k1 = Key::new(1.0, 1.0, 1.0, 0.0);
        k1.in_weight = 0.6;
        k1.weighted_mode = WEIGHTED_IN;
        let curve = Curve::from_keys(vec![k0, k1]);
        let mut reference_k0 = k0;
        reference_k0.out_weight = DEFAULT_WEIGHT;
        for i in 0..=20 {
            let t = i as f32 / 20.0;
            let want = brute_weighted(&reference_k0, &k1, t as f64);
            assert!((curve.sample(t) as f64 - want).abs() < 1e-4, "t={t}");
        }
    }

    fn wave() -> Vec<Key> {
        vec![
            Key::new(1.0, 0.0, 0.0, 0.0),
            Key::new(2.0, 4.0, 0.0, 0.0),
            Key::new(3.0, 2.0, 0.0, 0.0),
        ]
    }

    #[test]
    fn repeat_infinity() {
        let inside = Curve::from_keys(wave());
        let curve = curve_with(wave(), Infinity::Repeat, Infinity::Repeat);
        // Length 2, first key at 1.
        assert_eq!(curve.sample(5.5), inside.sample(1.5));
        assert_eq!(curve.sample(4.0), inside.sample(2.0));
        assert_eq!(
            curve.sample(5.0),
            0.0,
            "a whole period past the end is the start"
        );
        assert_eq!(curve.sample(0.5), inside.sample(2.5));
        assert_eq!(curve.sample(-3.0), inside.sample(1.0));
        assert_eq!(curve.sample(3.0), 2.0, "the last key time itself is inside");
        assert_eq!(curve.slope(5.5), inside.slope(1.5));
        let huge = curve.sample(1e30);
        assert!(huge.is_finite());
        assert_eq!(curve.sample(f32::INFINITY), 2.0);
        assert_eq!(curve.sample(f32::NEG_INFINITY), 0.0);
    }

    #[test]
    fn ping_pong_infinity() {
        let inside = Curve::from_keys(wave());
        let curve = curve_with(wave(), Infinity::PingPong, Infinity::PingPong);
        // Post: 3.5 mirrors to 2.5, 5 to 1, 6 to 2.
        assert_eq!(curve.sample(3.5), inside.sample(2.5));
        assert_eq!(curve.sample(5.0), inside.sample(1.0));
        assert_eq!(curve.sample(6.0), inside.sample(2.0));
        // Pre: 0.5 mirrors to 1.5, -1 to 3.
        assert_eq!(curve.sample(0.5), inside.sample(1.5));
        assert_eq!(curve.sample(-1.0), inside.sample(3.0));
        // Slope flips on the return leg.
        assert_eq!(curve.slope(3.5), -inside.slope(2.5));
        assert_eq!(curve.slope(5.5), inside.slope(1.5));
    }

    #[test]
    fn mixed_infinities_and_clamp() {
        let curve = curve_with(wave(), Infinity::Clamp, Infinity::Repeat);
        assert_eq!(curve.sample(0.0), 0.0);
        assert_eq!(curve.sample(-100.0), 0.0);
        assert_eq!(curve.sample(4.0), 4.0);
        let clamped = Curve::from_keys(wave());
        assert_eq!(clamped.sample(100.0), 2.0);
        assert_eq!(clamped.sample(-100.0), 0.0);
        assert_eq!(clamped.sample(f32::NAN), 0.0);
        // Zero-length key range: nothing to repeat, so clamp.
        let flat = curve_with(
            vec![Key::new(1.0, 3.0, 0.0, 0.0), Key::new(1.0, 4.0, 0.0, 0.0)],
            Infinity::Repeat,
            Infinity::PingPong,
        );
        assert_eq!(flat.sample(0.0), 3.0);
        assert_eq!(flat.sample(1.0), 4.0);
        assert_eq!(flat.sample(7.0), 4.0);
    }

    #[test]
    fn empty_single_and_constant() {
        assert_eq!(Curve::from_keys(vec![]).sample(1.0), 0.0);
        assert_eq!(Curve::from_keys(vec![]).slope(1.0), 0.0);
        assert_eq!(Curve::from_keys(vec![]).time_range(), None);
        let one = Curve::from_keys(vec![Key::new(2.0, 5.0, 1.0, 1.0)]);
        for t in [-1.0, 2.0, 9.0, f32::NAN, f32::INFINITY] {
            assert_eq!(one.sample(t), 5.0);
            assert_eq!(one.slope(t), 0.0);
        }
        assert_eq!(one.time_range(), Some((2.0, 2.0)));
        let constant = Curve::constant(-3.5);
        assert_eq!(constant.sample(f32::NAN), -3.5);
        assert_eq!(constant.slope(0.0), 0.0);
        assert_eq!(constant.time_range(), None);
    }

    #[test]
    fn sampled_interpolates_and_clamps() {
        let curve = Curve::sampled(1.0, 4.0, vec![0.0, 2.0, 6.0, 5.0]);
        assert_eq!(curve.sample(1.0), 0.0);
        assert_eq!(curve.sample(1.125), 1.0);
        assert_eq!(curve.sample(1.25), 2.0);
        assert_eq!(curve.sample(1.4375), 5.0);
        assert_eq!(curve.sample(1.75), 5.0);
        assert_eq!(curve.sample(0.0), 0.0);
        assert_eq!(curve.sample(10.0), 5.0);
        assert_eq!(curve.sample(f32::NAN), 0.0);
        assert_eq!(curve.sample(f32::INFINITY), 5.0);
        assert_eq!(curve.sample(f32::NEG_INFINITY), 0.0);
        assert_eq!(curve.slope(1.1), 8.0);
        assert_eq!(curve.slope(1.3), 16.0);
        assert_eq!(curve.slope(1.25), 16.0, "a frame starts its own interval");
        assert_eq!(curve.slope(0.0), 0.0);
        assert_eq!(curve.slope(2.0), 0.0);
        assert_eq!(curve.time_range(), Some((1.0, 1.75)));
        // The curve's infinities are ignored for sampled data.
        let mut repeating = curve.clone();
        repeating.pre_infinity = Infinity::Repeat;
        repeating.post_infinity = Infinity::PingPong;
        assert_eq!(repeating.sample(2.0), 5.0);
        assert_eq!(repeating.sample(0.5), 0.0);
    }

    #[test]
    fn sampled_degenerate() {
        assert_eq!(Curve::sampled(0.0, 30.0, vec![]).sample(1.0), 0.0);
        assert_eq!(Curve::sampled(0.0, 30.0, vec![]).time_range(), None);
        assert_eq!(Curve::sampled(0.0, 30.0, vec![4.0]).sample(1.0), 4.0);
        for rate in [0.0, -5.0, f32::NAN, f32::INFINITY] {
            let curve = Curve::sampled(0.0, rate, vec![3.0, 9.0]);
            assert_eq!(curve.sample(0.5), 3.0);
            assert_eq!(curve.slope(0.5), 0.0);
            assert_eq!(curve.time_range(), Some((0.0, 0.0)));
        }
        let curve = Curve::sampled(f32::NAN, 10.0, vec![3.0, 9.0]);
        assert_eq!(curve.sample(0.5), 3.0);
    }

    #[test]
    fn non_finite_times() {
        let curve = curve_with(three_keys(), Infinity::Repeat, Infinity::PingPong);
        assert_eq!(curve.sample(f32::NAN), 2.15);
        assert_eq!(curve.sample(f32::INFINITY), -2.0);
        assert_eq!(curve.sample(f32::NEG_INFINITY), 2.15);
        for t in [1e30, -1e30, f32::MAX, f32::MIN, f32::MIN_POSITIVE] {
            assert!(curve.sample(t).is_finite(), "t={t}");
            assert!(curve.slope(t).is_finite(), "t={t}");
        }
    }

    #[test]
    fn huge_slopes_do_not_make_nan_at_keys() {
        let curve = Curve::from_keys(vec![
            Key::new(0.0, 1.0, 0.0, f32::MAX),
            Key::new(10.0, 2.0, f32::MAX, 0.0),
        ]);
        assert_eq!(curve.sample(0.0), 1.0);
        assert_eq!(curve.sample(10.0), 2.0);
    }

    #[test]
    fn time_range_of_keys() {
        assert_eq!(Curve::from_keys(wave()).time_range(), Some((1.0, 3.0)));
    }

    fn any_time() -> impl Strategy<Value = f32> {
        prop_oneof![
            -100f32..100f32,
            prop::num::f32::ANY,
            Just(f32::NAN),
            Just(f32::INFINITY),
            Just(f32::NEG_INFINITY),
            Just(1e30f32),
            Just(-1e30f32),
        ]
    }

    fn any_slope() -> impl Strategy<Value = f32> {
        prop_oneof![
            8 => -1e3f32..1e3f32,
            1 => Just(f32::INFINITY),
            1 => Just(f32::NEG_INFINITY),
        ]
    }

    fn any_infinity() -> impl Strategy<Value = Infinity> {
        prop::sample::select(vec![Infinity::Clamp, Infinity::Repeat, Infinity::PingPong])
    }

    /// Keys with sorted finite times (duplicates allowed), bounded values and slopes, and
    /// any weighting with weights in a generous range.
    fn any_keys(weighted: bool) -> impl Strategy<Value = Vec<Key>> {
        let key = (
            -50f32..50f32,
            -1e3f32..1e3f32,
            any_slope(),
            any_slope(),
            -0.5f32..1.5f32,
            -0.5f32..1.5f32,
            0u8..4,
        );
        prop::collection::vec(key, 0..8).prop_map(move |raw| {
            let mut keys: Vec<Key> = raw
                .into_iter()
                .map(
                    |(time, value, in_slope, out_slope, in_w, out_w, mode)| Key {
                        time: (time * 8.0).round() / 8.0,
                        value,
                        in_slope,
                        out_slope,
                        in_weight: in_w,
                        out_weight: out_w,
                        weighted_mode: if weighted { mode } else { 0 },
                    },
                )
                .collect();
            keys.sort_by(|a, b| a.time.total_cmp(&b.time));
            keys
        })
    }

    proptest! {
        #[test]
        fn sample_is_finite_everywhere(
            keys in any_keys(true),
            pre in any_infinity(),
            post in any_infinity(),
            t in any_time(),
        ) {
            let curve = curve_with(keys, pre, post);
            let v = curve.sample(t);
            prop_assert!(v.is_finite(), "t={t} -> {v}");
            prop_assert!(curve.slope(t).is_finite());
        }

        #[test]
        fn hermite_hits_key_values(keys in any_keys(false), pre in any_infinity(), post in any_infinity()) {
            let curve = curve_with(keys.clone(), pre, post);
            for (i, key) in keys.iter().enumerate() {
                // The last of several keys at one time is the one that applies.
                let shadowed = keys.get(i + 1).is_some_and(|next| next.time == key.time);
                if !shadowed {
                    prop_assert_eq!(curve.sample(key.time), key.value);
                }
            }
        }

        #[test]
        fn sampled_is_finite_and_bounded(
            begin in -10f32..10f32,
            rate in prop_oneof![1f32..120f32, Just(0.0f32), Just(f32::NAN)],
            values in prop::collection::vec(-1e3f32..1e3f32, 0..10),
            t in any_time(),
        ) {
            let curve = Curve::sampled(begin, rate, values.clone());
            let v = curve.sample(t);
            prop_assert!(v.is_finite());
            if let (Some(lo), Some(hi)) = (
                values.iter().copied().reduce(f32::min),
                values.iter().copied().reduce(f32::max),
            ) {
                prop_assert!(v >= lo - 1e-3 && v <= hi + 1e-3);
            }
        }

        #[test]
        fn arbitrary_keys_never_panic(
            raw in prop::collection::vec(
                (prop::num::f32::ANY, prop::num::f32::ANY, prop::num::f32::ANY, prop::num::f32::ANY, any::<u8>()),
                0..6,
            ),
            t in any_time(),
        ) {
            let keys = raw
                .into_iter()
                .map(|(time, value, slope, weight, mode)| Key {
                    time,
                    value,
                    in_slope: slope,
                    out_slope: slope,
                    in_weight: weight,
                    out_weight: weight,
                    weighted_mode: mode,
                })
                .collect();
            let curve = curve_with(keys, Infinity::Repeat, Infinity::PingPong);
            let _ = curve.sample(t);
            let _ = curve.slope(t);
            let _ = curve.time_range();
        }
    }
}
