//! Non-finite values and keys past the curve count.

use super::*;
use crate::clip::ClipData;
use crate::curve::{Curve, CurveShape, Key, WEIGHTED_IN, WEIGHTED_OUT};

// ---------------------------------------------------------------------------------------
// Non-finite values

pub(super) fn non_finite(clip: &ClipData, namer: &Namer<'_>) -> Vec<NonFinite> {
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
pub(super) fn curve_non_finite(curve: &Curve) -> Vec<(NonFiniteWhat, usize, usize, f32)> {
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
pub(super) fn key_non_finite(k: &Key) -> Vec<(NonFiniteWhat, f32)> {
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
