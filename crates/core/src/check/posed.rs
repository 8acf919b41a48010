//! Seams of a humanoid clip on a humanoid rig, measured on what its muscles pose: each human
//! bone's local rotation and the body's position (the Hips, posed without root motion, so
//! the travel a loop carries on with is not counted as a jump).

use std::cell::OnceCell;

use super::corners::{frame_times, sharpest_corner};
use super::measure::{Measure, Quantity, Sides, Thresholds, measure};
use super::seams::{
    Tolerance, align, dense_corner, finite_values, left_limit, right_limit, seam_sides,
};
use super::steps::{sort_snapped, step_ends};
use super::*;
use crate::avatar::HumanBone;
use crate::clip::ClipData;
use crate::humanoid::{ClipMuscles, HumanPose, HumanoidRig, JointLocal, PoseOptions};
use crate::rig::Skeleton;

/// Seconds between the poses whose difference gives a side's speed.
const SPEED_STEP: f32 = 1e-3;

/// A humanoid clip bound to the rig that poses it.
pub(super) struct Posed<'a> {
    pub rig: &'a HumanoidRig,
    pub skeleton: &'a Skeleton,
    pub muscles: ClipMuscles,
    /// The clip plays mirrored (its `m_Mirror`): poses are the mirror images.
    pub mirror: bool,
}

impl Posed<'_> {
    /// The human bones (and the body position) that jump at `seam`.
    pub fn seam(
        &self,
        clip: &ClipData,
        seam: Seam,
        frame: f32,
        ctx: &Context<'_>,
    ) -> Vec<SeamJump> {
        let curves: Vec<usize> = self
            .muscles
            .curves
            .iter()
            .map(|&(c, _)| c)
            .filter(|&c| c < clip.curves.len())
            .collect();
        if curves.len() != self.muscles.curves.len() {
            return Vec::new();
        }
        let (before, after) = seam_sides(clip, &curves, seam);
        let (mut value_counts, mut slope_counts) = (false, false);
        let mut largest: Option<(usize, f32)> = None;
        for (i, (&b, &a)) in before.iter().zip(&after).enumerate() {
            let tolerance = Tolerance {
                frame,
                corner: dense_corner(&clip.curves[curves[i]].curve),
            };
            let (v, s) = tolerance.counts(b, a);
            value_counts |= v;
            slope_counts |= s;
            if largest.is_none_or(|(_, l)| (b.0 - a.0).abs() > l.abs()) {
                largest = Some((i, b.0 - a.0));
            }
        }
        let Some((largest, value_jump)) = largest.filter(|_| value_counts || slope_counts) else {
            return Vec::new();
        };
        let curve = curves[largest];
        let poses = self.poses_around(&before, &after);
        let mut out = Vec::new();
        let times = frame_times(clip);
        let frames: OnceCell<Vec<Vec<JointLocal>>> = OnceCell::new();
        for (joint, quantity, what) in self.measured_joints() {
            let (jump, slope) = joint_jump(&poses, joint, quantity, ctx.size);
            let slope_jump = if slope_counts { slope } else { 0.0 };
            let m = quantity.measure();
            if Thresholds::negligible(m, jump, slope_jump) {
                continue;
            }
            let frames = frames.get_or_init(|| self.frames(clip, &times));
            let values: Vec<Vec<f32>> = frames
                .iter()
                .map(|pose| components(&pose[joint], quantity))
                .collect();
            let corner = sharpest_corner(quantity, &times, &values, ctx.size);
            let path = self.skeleton.joints[joint].path.clone();
            out.push(SeamJump {
                curve,
                binding: format!("{path}: posed {what}"),
                component: clip.curves[curve].component,
                seam,
                value_jump,
                joint: path,
                measure: m,
                jump,
                slope_jump,
                inner_slope_jump: corner,
                severity: ctx.thresholds.severity(m, jump, slope_jump, corner),
            });
        }
        debug_assert!(out.iter().all(|s| s.measure != Measure::Muscle));
        out
    }

    /// The steps of the clip's stepped humanoid curves, measured on the posed bones: at each
    /// key ending a held stretch of any of them, the pose of every curve's left limit
    /// against that of its right limit. One entry per human bone (and the body position)
    /// that jumps, with its largest jump and when.
    pub fn steps(&self, clip: &ClipData, ctx: &Context<'_>) -> Vec<StepInfo> {
        let curves: Vec<usize> = self
            .muscles
            .curves
            .iter()
            .map(|&(c, _)| c)
            .filter(|&c| c < clip.curves.len())
            .collect();
        if curves.len() != self.muscles.curves.len() {
            return Vec::new();
        }
        let stepped: Vec<usize> = curves
            .iter()
            .copied()
            .filter(|&c| !step_times(clip.curves[c].curve.keys()).is_empty())
            .collect();
        let Some(&first) = stepped.first() else {
            return Vec::new();
        };
        let mut times: Vec<f32> = stepped
            .iter()
            .flat_map(|&c| step_times(clip.curves[c].curve.keys()))
            .collect();
        let mut ends: Vec<f32> = stepped
            .iter()
            .flat_map(|&c| step_ends(clip.curves[c].curve.keys()))
            .collect();
        sort_snapped(&mut times);
        sort_snapped(&mut ends);
        let joints = self.measured_joints();
        // Per measured joint: (largest jump, when, largest slope jump).
        let mut largest = vec![(0.0f32, times[0], 0.0f32); joints.len()];
        for &t in &ends {
            let side = |limit: fn(&crate::curve::Curve, f32) -> (f32, f32)| -> Sides {
                curves
                    .iter()
                    .map(|&c| limit(&clip.curves[c].curve, t))
                    .collect()
            };
            let (before, after) = (side(left_limit), side(right_limit));
            if !finite_values(&before) || !finite_values(&after) {
                continue;
            }
            let poses = self.poses_around(&before, &after);
            for (k, &(joint, quantity, _)) in joints.iter().enumerate() {
                let (jump, slope) = joint_jump(&poses, joint, quantity, ctx.size);
                let l = &mut largest[k];
                if jump > l.0 {
                    (l.0, l.1) = (jump, t);
                }
                l.2 = l.2.max(slope);
            }
        }
        let mut out = Vec::new();
        for (&(joint, quantity, what), &(jump, at, slope_jump)) in joints.iter().zip(&largest) {
            let measure = quantity.measure();
            if Thresholds::negligible(measure, jump, slope_jump) {
                continue;
            }
            let path = self.skeleton.joints[joint].path.clone();
            out.push(StepInfo {
                curve: first,
                binding: format!("{path}: posed {what}"),
                component: clip.curves[first].component,
                times: times.clone(),
                joint: path,
                measure,
                jump,
                slope_jump,
                at,
                severity: ctx.thresholds.severity(measure, jump, slope_jump, 0.0),
            });
        }
        out
    }

    /// The joints measured on a posed humanoid clip: each human bone's joint by its local
    /// rotation, and the Hips by the body position.
    fn measured_joints(&self) -> Vec<(usize, Quantity, &'static str)> {
        let joints = self.rig.joint_count().min(self.skeleton.joints.len());
        let mut out: Vec<(usize, Quantity, &'static str)> = (0..joints)
            .filter(|&j| self.rig.joint_bone(j).is_some())
            .map(|j| (j, Quantity::Rotation, "rotation"))
            .collect();
        if let Some(hips) = self.rig.bone_joint(HumanBone::Hips).filter(|&j| j < joints) {
            out.push((hips, Quantity::Position, "body position"));
        }
        out
    }

    /// The poses around a jump: `before` moved back [`SPEED_STEP`] along its slopes,
    /// `before`, `after`, and `after` moved on along its slopes.
    fn poses_around(&self, before: &Sides, after: &Sides) -> [Vec<JointLocal>; 4] {
        [
            self.pose(before, -SPEED_STEP),
            self.pose(before, 0.0),
            self.pose(after, 0.0),
            self.pose(after, SPEED_STEP),
        ]
    }

    /// The rig's joint locals posed by the clip at each of `times`, without root motion.
    fn frames(&self, clip: &ClipData, times: &[f32]) -> Vec<Vec<JointLocal>> {
        times
            .iter()
            .map(|&t| {
                let mut pose = HumanPose::default();
                self.muscles.sample(clip, t, &mut pose);
                self.posed(&pose)
            })
            .collect()
    }

    fn posed(&self, pose: &HumanPose) -> Vec<JointLocal> {
        let mirrored;
        let pose = if self.mirror {
            mirrored = pose.mirrored();
            &mirrored
        } else {
            pose
        };
        let mut locals: Vec<JointLocal> =
            self.skeleton.joints.iter().map(JointLocal::rest).collect();
        locals.resize(
            self.rig.joint_count().max(locals.len()),
            JointLocal::IDENTITY,
        );
        self.rig
            .pose(pose, &PoseOptions { root_motion: false }, &mut locals);
        locals
    }

    /// The rig's joint locals posed by the muscle values of `sides` moved `dt` seconds along
    /// their slopes, without root motion.
    fn pose(&self, sides: &Sides, dt: f32) -> Vec<JointLocal> {
        let values = self
            .muscles
            .curves
            .iter()
            .zip(sides)
            .map(|(&(_, slot), &(v, s))| {
                let s = if s.is_finite() { s } else { 0.0 };
                (slot, v + s * dt)
            });
        self.posed(&HumanPose::from_values(values))
    }
}

/// A posed joint's rotation (x, y, z, w) or position, as measured.
fn components(local: &JointLocal, quantity: Quantity) -> Vec<f32> {
    match quantity {
        Quantity::Rotation => local.q.to_vec(),
        _ => local.t.to_vec(),
    }
}

/// One joint's (jump, slope jump) across [`Posed::poses_around`]'s poses: each side's value
/// and its slope over [`SPEED_STEP`], a rotation's neighbours taken in its hemisphere.
fn joint_jump(
    poses: &[Vec<JointLocal>; 4],
    joint: usize,
    quantity: Quantity,
    size: f32,
) -> (f32, f32) {
    let comps = |pose: usize| components(&poses[pose][joint], quantity);
    // (value at `at`, slope from `prev` to `next`), both ends in `at`'s hemisphere.
    let side = |at: usize, prev: usize, next: usize| -> Sides {
        let v = comps(at);
        let near = |x: Vec<f32>| {
            let dot: f32 = x.iter().zip(&v).map(|(p, q)| p * q).sum();
            let flip = quantity == Quantity::Rotation && dot < 0.0;
            x.into_iter()
                .map(|c| if flip { -c } else { c })
                .collect::<Vec<f32>>()
        };
        let (p, n) = (near(comps(prev)), near(comps(next)));
        (0..v.len())
            .map(|i| (v[i], (n[i] - p[i]) / SPEED_STEP))
            .collect()
    };
    let before = side(1, 0, 1);
    let mut after = side(2, 2, 3);
    align(quantity, &before, &mut after);
    measure(quantity, &before, &after, size)
}
