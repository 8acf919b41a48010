//! Curves that share their key times, packed side by side for fast sampling: the
//! components of a Transform track (3 for a position, 4 for a quaternion).
//!
//! Each segment is stored in Unity's "cache" form (`unity-semantics.md` A1): the polynomial
//! `((c0·Δ + c1)·Δ + c2)·Δ + c3` in `Δ = t - t0`, the form Unity's runtime keeps for every
//! curve and the one Mecanim clips store. Sampling finds the segment once and evaluates every
//! component with three multiply-adds, with no division and no per-component branch: a step
//! segment is the constant polynomial of its left value. The values agree with sampling each
//! curve in Hermite form to within `f32` rounding.

use std::sync::Arc;

use super::eval::{Local, segment_index, wrap_into_range};
use super::{Curve, CurveShape, Infinity, Key, WEIGHTED_IN, WEIGHTED_OUT};

/// One segment of every component: `c[k][component]`, highest power first.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Segment<const N: usize> {
    c: [[f32; N]; 4],
}

impl<const N: usize> Segment<N> {
    /// The segment from keys `a` to `b` of each component, or `None` when a coefficient
    /// overflows (the Hermite form then stays the reference).
    fn new(a: [&Key; N], b: [&Key; N]) -> Option<Self> {
        let mut c = [[0.0; N]; 4];
        for i in 0..N {
            let [c0, c1, c2, c3] = coefficients(a[i], b[i]);
            (c[0][i], c[1][i], c[2][i], c[3][i]) = (c0, c1, c2, c3);
        }
        c.iter()
            .flatten()
            .all(|x| x.is_finite())
            .then_some(Segment { c })
    }

    #[inline]
    fn eval(&self, d: f32) -> [f32; N] {
        let [c0, c1, c2, c3] = &self.c;
        std::array::from_fn(|i| ((c0[i] * d + c1[i]) * d + c2[i]) * d + c3[i])
    }
}

/// Unity's cache coefficients of the plain Hermite segment from `a` to `b`; a step (an
/// infinite or NaN slope on either side) or a zero-length segment holds `a`'s value.
fn coefficients(a: &Key, b: &Key) -> [f32; 4] {
    let dx = b.time - a.time;
    let usable = dx > 0.0 && a.out_slope.is_finite() && b.in_slope.is_finite();
    if !usable {
        return [0.0, 0.0, 0.0, a.value];
    }
    let dy = b.value - a.value;
    let (d0, d1) = (a.out_slope * dx, b.in_slope * dx);
    let c0 = (d0 + d1 - 2.0 * dy) / (dx * dx * dx);
    let c1 = (3.0 * dy - 2.0 * d0 - d1) / (dx * dx);
    [c0, c1, a.out_slope, a.value]
}

/// `N` unweighted key curves with the same key times and infinities.
#[derive(Clone, Debug, PartialEq)]
pub struct PackedCurves<const N: usize> {
    times: Arc<[f32]>,
    /// `times.len() - 1` segments.
    segments: Arc<[Segment<N>]>,
    first: [f32; N],
    last: [f32; N],
    pre: Infinity,
    post: Infinity,
}

impl<const N: usize> PackedCurves<N> {
    /// Packs the curves, or `None` when they are not all unweighted key curves with the same
    /// key times (at least two) and infinities, or when a segment's coefficients overflow.
    pub fn new(curves: &[Curve; N]) -> Option<Self> {
        let lead = curves.first()?;
        let times: Vec<f32> = lead.keys().iter().map(|k| k.time).collect();
        let fits = |c: &Curve| {
            matches!(c.shape, CurveShape::Keys(_))
                && (c.pre_infinity, c.post_infinity) == (lead.pre_infinity, lead.post_infinity)
                && c.keys().len() == times.len()
                && c.keys().iter().zip(&times).all(|(k, t)| k.time == *t)
                && c.keys()
                    .iter()
                    .all(|k| k.weighted_mode & (WEIGHTED_IN | WEIGHTED_OUT) == 0)
        };
        if times.len() < 2 || !curves.iter().all(fits) {
            return None;
        }
        let key = |i: usize| curves.each_ref().map(|c| &c.keys()[i]);
        let segments = (1..times.len())
            .map(|i| Segment::new(key(i - 1), key(i)))
            .collect::<Option<Arc<[_]>>>()?;
        Some(PackedCurves {
            first: key(0).map(|k| k.value),
            last: key(times.len() - 1).map(|k| k.value),
            times: times.into(),
            segments,
            pre: lead.pre_infinity,
            post: lead.post_infinity,
        })
    }

    /// The value of every component at `t`, by Unity's rules.
    #[inline]
    pub fn sample(&self, t: f32) -> [f32; N] {
        let (Some(&t0), Some(&t1)) = (self.times.first(), self.times.last()) else {
            return self.first;
        };
        let local = match wrap_into_range(t, t0, t1, self.pre, self.post) {
            Local::First => return self.first,
            Local::Last => return self.last,
            Local::Inside(local) | Local::Mirrored(local) => local,
        };
        let lhs = segment_index(&self.times, local);
        match (self.segments.get(lhs), self.times.get(lhs)) {
            (Some(segment), Some(&start)) => segment.eval(local - start),
            // At (or, on unsorted keys, past) the last key.
            _ => self.last,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::Key;
    use proptest::prelude::*;

    fn curve(
        values: &[(f32, f32, f32)],
        step_at: Option<usize>,
        pre: Infinity,
        post: Infinity,
    ) -> Curve {
        let keys = values
            .iter()
            .enumerate()
            .map(|(i, &(v, a, b))| {
                let out = if step_at == Some(i) { f32::INFINITY } else { b };
                Key::new(i as f32 * 0.25, v, a, out)
            })
            .collect();
        Curve {
            shape: CurveShape::Keys(keys),
            pre_infinity: pre,
            post_infinity: post,
        }
    }

    proptest! {
        #[test]
        fn packed_sampling_equals_separate_sampling(
            raw in prop::collection::vec((-5f32..5.0, -9f32..9.0, -9f32..9.0, -5f32..5.0, -9f32..9.0, -9f32..9.0, -5f32..5.0), 2..12),
            step in prop::option::of(0usize..12),
            modes in (0i32..3, 0i32..3),
            t in -10f32..10.0,
        ) {
            let (pre, post) = (Infinity::from_unity(modes.0), Infinity::from_unity(modes.1));
            let a: Vec<_> = raw.iter().map(|r| (r.0, r.1, r.2)).collect();
            let b: Vec<_> = raw.iter().map(|r| (r.3, r.4, r.5)).collect();
            let c: Vec<_> = raw.iter().map(|r| (r.6, r.1, r.5)).collect();
            let curves = [curve(&a, step, pre, post), curve(&b, None, pre, post), curve(&c, step, pre, post)];
            let packed = PackedCurves::new(&curves).expect("packs");
            let separate = curves.each_ref().map(|c| c.sample(t));
            for (p, s) in packed.sample(t).into_iter().zip(separate) {
                // The cache form rounds differently from the Hermite form, within f32 error
                // of the segment's magnitudes (values up to 5, slopes up to 9 per 0.25 s).
                prop_assert!((p - s).abs() <= 1e-5 * (1.0 + s.abs()) * 10.0, "{p} vs {s}");
            }
        }
    }

    #[test]
    fn weighted_or_mismatched_curves_do_not_pack() {
        let a = curve(
            &[(0.0, 0.0, 0.0), (1.0, 0.0, 0.0)],
            None,
            Infinity::Clamp,
            Infinity::Clamp,
        );
        let mut b = a.clone();
        if let CurveShape::Keys(keys) = &mut b.shape {
            keys[0].weighted_mode = WEIGHTED_OUT;
        }
        assert!(PackedCurves::new(&[a.clone(), b]).is_none());
        let c = curve(
            &[(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (2.0, 0.0, 0.0)],
            None,
            Infinity::Clamp,
            Infinity::Clamp,
        );
        assert!(PackedCurves::new(&[a.clone(), c]).is_none());
        assert!(PackedCurves::new(&[a.clone(), a]).is_some());
    }

    #[test]
    fn steps_hold_and_overflowing_slopes_do_not_pack() {
        let step = curve(
            &[(1.5, 0.0, 0.0), (4.0, 0.0, 0.0), (-2.0, 0.0, 0.0)],
            Some(0),
            Infinity::Clamp,
            Infinity::Clamp,
        );
        let packed = PackedCurves::new(&[step]).expect("packs");
        assert_eq!(packed.sample(0.2499), [1.5]);
        assert_eq!(packed.sample(0.25), [4.0]);
        assert_eq!(packed.sample(0.5), [-2.0]);
        assert_eq!(packed.sample(9.0), [-2.0]);
        let steep = curve(
            &[(0.0, 0.0, 3e38), (1.0, 3e38, 0.0)],
            None,
            Infinity::Clamp,
            Infinity::Clamp,
        );
        assert!(PackedCurves::new(&[steep]).is_none());
    }
}
