//! The sharpest corner inside a clip's motion: the largest change of a joint's measured speed
//! from one frame interval to the next. A seam's slope jump no sharper than that is the
//! clip's ordinary motion (a fast dance turns its arms that sharply every frame), not a pop.

use super::measure::{Quantity, Sides, measure};
use crate::clip::ClipData;

/// Most frame intervals sampled over a clip (longer clips are sampled more coarsely).
pub(super) const MAX_FRAMES: usize = 1024;

/// The clip's frame times: `start` to `stop` at the sample rate (at most [`MAX_FRAMES`]
/// intervals, at least 2).
pub(super) fn frame_times(clip: &ClipData) -> Vec<f32> {
    let length = clip.length();
    let frames = (length * clip.sample_rate).round();
    let n = if frames.is_finite() && frames >= 2.0 {
        (frames as usize).min(MAX_FRAMES)
    } else {
        2
    };
    (0..=n)
        .map(|i| clip.start + length * i as f32 / n as f32)
        .collect()
}

/// The largest measured slope change between neighbouring frame intervals of values
/// sampled at `times` (each entry one time's component values).
pub(super) fn sharpest_corner(
    quantity: Quantity,
    times: &[f32],
    values: &[Vec<f32>],
    size: f32,
) -> f32 {
    let side = |k: usize| -> Option<Sides> {
        let dt = times.get(k + 1)? - times.get(k)?;
        if dt <= 0.0 {
            return None;
        }
        let (a, b) = (values.get(k)?, values.get(k + 1)?);
        let b = near(quantity, a, b);
        Some(a.iter().zip(&b).map(|(&x, &y)| (x, (y - x) / dt)).collect())
    };
    let mut sharpest = 0.0f32;
    for k in 1..times.len().saturating_sub(1) {
        let (Some(before), Some(mut after)) = (side(k - 1), side(k)) else {
            continue;
        };
        // Compare speeds at one point: the earlier interval's end.
        for (a, b) in after.iter_mut().zip(&before) {
            a.0 = b.0;
        }
        let (_, slope) = measure(quantity, &before, &after, size);
        if slope.is_finite() {
            sharpest = sharpest.max(slope);
        }
    }
    sharpest
}

/// `b` in `a`'s hemisphere, for rotations.
fn near(quantity: Quantity, a: &[f32], b: &[f32]) -> Vec<f32> {
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    if quantity == Quantity::Rotation && dot < 0.0 {
        b.iter().map(|x| -x).collect()
    } else {
        b.to_vec()
    }
}

/// [`sharpest_corner`] of a unit's curves over the clip.
pub(super) fn unit_corner(clip: &ClipData, curves: &[usize], quantity: Quantity, size: f32) -> f32 {
    let times = frame_times(clip);
    let values: Vec<Vec<f32>> = times
        .iter()
        .map(|&t| {
            curves
                .iter()
                .map(|&c| clip.curves[c].curve.sample(t))
                .collect()
        })
        .collect();
    sharpest_corner(quantity, &times, &values, size)
}
