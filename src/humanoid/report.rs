//! What a check report says about a humanoid clip on a rig: muscles that drive bones the
//! rig's avatar does not map, and muscle values far outside [-1, 1].

use super::muscles::{MUSCLE_COUNT, muscle_name};
use super::pose::{ClipMuscles, slot};
use super::rig::HumanoidRig;
use crate::clip::ClipData;

/// Muscle values beyond ±this are "far outside" the normalised range (real clips reach
/// 4.7, and values a little past 1 are common and harmless).
pub const FAR_OUTSIDE: f32 = 1.5;

/// One muscle of a clip.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MuscleFact {
    /// Unity's muscle index (0..95).
    pub muscle: usize,
    /// Unity's muscle name (`Neck Nod Down-Up`).
    pub name: String,
    /// The smallest and largest value the clip gives it, sampled at every frame and the
    /// stop time.
    pub min: f32,
    pub max: f32,
}

/// The humanoid facts of a clip on a rig.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct HumanoidReport {
    /// Muscles the clip animates (not constantly 0) whose bone the rig does not show.
    pub unmapped: Vec<MuscleFact>,
    /// Muscles whose values go beyond ±[`FAR_OUTSIDE`].
    pub far_outside: Vec<MuscleFact>,
}

/// The report of `clip` on `rig`.
pub fn report(clip: &ClipData, rig: &HumanoidRig) -> HumanoidReport {
    let mut out = HumanoidReport::default();
    for &(curve, s) in &ClipMuscles::new(clip).curves {
        let Some(muscle) = s.checked_sub(slot::MUSCLES).filter(|&m| m < MUSCLE_COUNT) else {
            continue;
        };
        let (min, max) = value_range(clip, curve);
        let fact = MuscleFact {
            muscle,
            name: muscle_name(muscle).unwrap_or_default(),
            min,
            max,
        };
        let moves = min != 0.0 || max != 0.0;
        if moves && rig.unmapped_muscles().contains(&muscle) {
            out.unmapped.push(fact.clone());
        }
        if min < -FAR_OUTSIDE || max > FAR_OUTSIDE {
            out.far_outside.push(fact);
        }
    }
    out
}

/// Most frames sampled for a range (a clip longer than this is sampled more sparsely).
const MAX_FRAMES: usize = 100_000;

/// A curve's value range over the clip: every frame at the clip's sample rate, and the
/// stop time.
fn value_range(clip: &ClipData, curve: usize) -> (f32, f32) {
    let length = clip.length();
    let rate = if clip.sample_rate.is_finite() && clip.sample_rate > 0.0 {
        clip.sample_rate
    } else {
        60.0
    };
    let frames = ((length * rate).ceil() as usize).min(MAX_FRAMES);
    let step = if frames > 0 {
        length / frames as f32
    } else {
        0.0
    };
    let mut range = (f32::INFINITY, f32::NEG_INFINITY);
    for i in 0..=frames {
        if let Some(v) = clip.sample_curve(curve, clip.start + i as f32 * step) {
            range = (range.0.min(v), range.1.max(v));
        }
    }
    range
}
