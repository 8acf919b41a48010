//! Curves that share their key times, packed side by side for fast sampling: the
//! components of a Transform track (3 for a position, 4 for a quaternion). Sampling finds
//! the segment once and reads each key's components from one place; the values are the same
//! as sampling each curve on its own.

use super::eval::{HermiteBasis, Local, segment_index, wrap_into_range};
use super::{Curve, CurveShape, Infinity, WEIGHTED_IN, WEIGHTED_OUT};

/// One key of every component.
#[derive(Clone, Copy, Debug, PartialEq)]
struct PackedKey<const N: usize> {
    value: [f32; N],
    in_slope: [f32; N],
    out_slope: [f32; N],
}

/// `N` unweighted key curves with the same key times and infinities.
#[derive(Clone, Debug, PartialEq)]
pub struct PackedCurves<const N: usize> {
    times: Vec<f32>,
    keys: Vec<PackedKey<N>>,
    pre: Infinity,
    post: Infinity,
}

impl<const N: usize> PackedCurves<N> {
    /// Packs the curves, or `None` when they are not all unweighted key curves with the same
    /// key times (at least two) and infinities.
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
        let keys = (0..times.len())
            .map(|i| PackedKey {
                value: curves.each_ref().map(|c| c.keys()[i].value),
                in_slope: curves.each_ref().map(|c| c.keys()[i].in_slope),
                out_slope: curves.each_ref().map(|c| c.keys()[i].out_slope),
            })
            .collect();
        Some(PackedCurves {
            times,
            keys,
            pre: lead.pre_infinity,
            post: lead.post_infinity,
        })
    }

    /// The value of every component at `t`, by Unity's rules.
    #[inline]
    pub fn sample(&self, t: f32) -> [f32; N] {
        let (Some(first), Some(last)) = (self.keys.first(), self.keys.last()) else {
            return [0.0; N];
        };
        let (t0, t1) = (self.times[0], self.times[self.times.len() - 1]);
        let local = match wrap_into_range(t, t0, t1, self.pre, self.post) {
            Local::First => return first.value,
            Local::Last => return last.value,
            Local::Inside(local) | Local::Mirrored(local) => local,
        };
        let lhs = segment_index(&self.times, local);
        let rhs = (lhs + 1).min(self.keys.len() - 1);
        let (a, b) = (&self.keys[lhs], &self.keys[rhs]);
        let dx = self.times[rhs] - self.times[lhs];
        if dx == 0.0 {
            return a.value;
        }
        let s = (local - self.times[lhs]) / dx;
        if s == 0.0 {
            return a.value;
        }
        let basis = HermiteBasis::at(s);
        std::array::from_fn(|c| {
            if !a.out_slope[c].is_finite() || !b.in_slope[c].is_finite() {
                a.value[c]
            } else {
                basis.apply(
                    a.value[c],
                    a.out_slope[c] * dx,
                    b.in_slope[c] * dx,
                    b.value[c],
                )
            }
        })
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
            prop_assert_eq!(packed.sample(t), separate);
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
}
