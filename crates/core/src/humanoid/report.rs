//! What a check report says about a humanoid clip on a rig: muscles that drive bones the
//! rig's avatar does not map, muscle values far outside [-1, 1], and feet that slide (the
//! distance from a posed sole to its IK goal changing while the goal stands still: the
//! retargeting error Foot IK would correct).

use super::muscles::{MUSCLE_COUNT, muscle_name};
use super::pose::{ClipMuscles, HumanPose, slot};
use super::posing::PoseOptions;
use super::rig::{HumanoidRig, JointLocal};
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
    /// Feet whose sole-to-goal distance changes by more than [`SLIDE_FRACTION`] of the
    /// human scale while their goal stands still (a retargeting note, not a problem).
    pub sliding_feet: Vec<SlidingFoot>,
}

/// A sole-to-goal distance changing by more than this fraction of the human scale while
/// the goal stands still is a sliding foot.
pub const SLIDE_FRACTION: f32 = 0.02;

/// A goal "stands still" while it moves less than this fraction of the human scale per
/// second.
pub const STILL_SPEED: f32 = 0.05;

/// A foot that slides on this rig: during a stretch of frames when its goal stands still,
/// the distance from the posed sole to the goal changes by `change` metres.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SlidingFoot {
    /// `LeftFoot` or `RightFoot`.
    pub foot: String,
    /// The stretch of clip time (seconds) with the largest change.
    pub start: f32,
    pub stop: f32,
    /// Smallest and largest sole-to-goal distance in it, metres.
    pub min_distance: f32,
    pub max_distance: f32,
    /// `max_distance - min_distance`, as a fraction of the human scale.
    pub change: f32,
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
    out.sliding_feet = sliding_feet(clip, rig);
    out
}

/// Most frames posed for the sliding-feet note.
const MAX_POSED_FRAMES: usize = 10_000;

/// The feet (with goal curves) that slide on `rig`, each at its largest stretch.
pub fn sliding_feet(clip: &ClipData, rig: &HumanoidRig) -> Vec<SlidingFoot> {
    let muscles = ClipMuscles::new(clip);
    let feet: Vec<usize> = (0..2).filter(|&g| muscles.has_goal(g)).collect();
    if feet.is_empty() {
        return Vec::new();
    }
    let (frames, step) = frame_steps(clip, MAX_POSED_FRAMES);
    let options = PoseOptions::default();
    let mut locals = vec![JointLocal::IDENTITY; rig.joint_count()];
    let mut world = vec![JointLocal::IDENTITY; rig.joint_count()];
    // Per frame: time, goal positions and distances of both feet.
    let mut samples: Vec<FootSample> = Vec::new();
    for i in 0..=frames {
        let t = clip.start + i as f32 * step;
        let mut pose = HumanPose::default();
        muscles.sample(clip, t, &mut pose);
        rig.pose(&pose, &options, &mut locals);
        rig.world_into(&locals, &mut world);
        let goals = rig.goals(&pose, &options);
        let d = rig.foot_goal_distances(&pose, &options, &world);
        samples.push((t, [goals[0].t, goals[1].t], d));
    }
    let scale = rig.human_scale();
    feet.into_iter()
        .filter_map(|g| largest_slide(&samples, g, scale, step))
        .collect()
}

/// One posed frame for the sliding-feet check: its time, both foot goals' positions and the
/// feet's distances to them.
type FootSample = (f32, [[f32; 3]; 2], [Option<f32>; 2]);

/// The stretch of still goal `g` over which its distance changes most, when that change
/// passes [`SLIDE_FRACTION`] of `scale`.
fn largest_slide(samples: &[FootSample], g: usize, scale: f32, step: f32) -> Option<SlidingFoot> {
    let still = |a: [f32; 3], b: [f32; 3]| {
        let d = a
            .iter()
            .zip(&b)
            .map(|(x, y)| (x - y) * (x - y))
            .sum::<f32>()
            .sqrt();
        step > 0.0 && d / step < STILL_SPEED * scale
    };
    let mut best: Option<SlidingFoot> = None;
    let mut run: Option<(f32, f32, f32, f32)> = None;
    for pair in samples.windows(2) {
        let (t0, g0, d0) = pair[0];
        let (t1, g1, d1) = pair[1];
        let (Some(d0), Some(d1)) = (d0[g], d1[g]) else {
            run = None;
            continue;
        };
        if !still(g0[g], g1[g]) {
            run = None;
            continue;
        }
        let r = run.get_or_insert((t0, t0, d0, d0));
        *r = (r.0, t1, r.2.min(d1), r.3.max(d1));
        let change = (r.3 - r.2) / scale;
        if change > SLIDE_FRACTION && best.as_ref().is_none_or(|b| change > b.change) {
            best = Some(SlidingFoot {
                foot: ["LeftFoot", "RightFoot"][g].to_string(),
                start: r.0,
                stop: r.1,
                min_distance: r.2,
                max_distance: r.3,
                change,
            });
        }
    }
    best
}

/// How many steps of what length cover the clip at its sample rate (at most `max`).
fn frame_steps(clip: &ClipData, max: usize) -> (usize, f32) {
    let length = clip.length();
    let rate = if clip.sample_rate.is_finite() && clip.sample_rate > 0.0 {
        clip.sample_rate
    } else {
        60.0
    };
    let frames = ((length * rate).ceil() as usize).min(max);
    let step = if frames > 0 {
        length / frames as f32
    } else {
        0.0
    };
    (frames, step)
}

/// Most frames sampled for a range (a clip longer than this is sampled more sparsely).
const MAX_FRAMES: usize = 100_000;

/// A curve's value range over the clip: every frame at the clip's sample rate, and the
/// stop time.
fn value_range(clip: &ClipData, curve: usize) -> (f32, f32) {
    let (frames, step) = frame_steps(clip, MAX_FRAMES);
    let mut range = (f32::INFINITY, f32::NEG_INFINITY);
    for i in 0..=frames {
        if let Some(v) = clip.sample_curve(curve, clip.start + i as f32 * step) {
            range = (range.0.min(v), range.1.max(v));
        }
    }
    range
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples 0.1 s apart: the left goal at `goal(t)`, its distance `d(t)`.
    fn samples(goal: impl Fn(f32) -> [f32; 3], d: impl Fn(f32) -> f32) -> Vec<FootSample> {
        (0..=10)
            .map(|i| {
                let t = i as f32 * 0.1;
                (t, [goal(t), [0.0; 3]], [Some(d(t)), None])
            })
            .collect()
    }

    #[test]
    fn a_still_goal_whose_distance_grows_is_a_sliding_foot() {
        // Scale 1: the distance grows by 3 cm (3 %) while the goal stands still.
        let s = samples(|_| [0.1, 0.0, 0.2], |t| 0.01 + 0.03 * t);
        let slide = largest_slide(&s, 0, 1.0, 0.1).expect("slides");
        assert_eq!(slide.foot, "LeftFoot");
        assert!((slide.change - 0.03).abs() < 1e-6, "{slide:?}");
        assert_eq!((slide.start, slide.stop), (0.0, 1.0));
        // 1.5 % is below the note's 2 %.
        let s = samples(|_| [0.1, 0.0, 0.2], |t| 0.01 + 0.015 * t);
        assert_eq!(largest_slide(&s, 0, 1.0, 0.1), None);
        // A goal that travels (a step, 1 m/s) is not standing still: no note.
        let s = samples(|t| [t, 0.0, 0.0], |t| 0.01 + 0.03 * t);
        assert_eq!(largest_slide(&s, 0, 1.0, 0.1), None);
        // The right foot has no distances here.
        assert_eq!(largest_slide(&s, 1, 1.0, 0.1), None);
    }
}
