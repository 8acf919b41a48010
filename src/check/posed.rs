//! Seams of a humanoid clip on a humanoid rig, measured on what its muscles pose: each human
//! bone's local rotation and the body's position (the Hips, posed without root motion, so
//! the travel a loop carries on with is not counted as a jump).

use std::cell::OnceCell;

use super::corners::{frame_times, sharpest_corner};
use super::measure::{Measure, Quantity, Sides, Thresholds, measure};
use super::seams::{Tolerance, align, dense_corner, seam_sides};
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
        let poses = [
            self.pose(&before, -SPEED_STEP),
            self.pose(&before, 0.0),
            self.pose(&after, 0.0),
            self.pose(&after, SPEED_STEP),
        ];
        let mut out = Vec::new();
        let times = frame_times(clip);
        let frames: OnceCell<Vec<Vec<JointLocal>>> = OnceCell::new();
        let mut push = |joint: usize, quantity: Quantity, what: &str| {
            let comps = |pose: usize| -> Vec<f32> {
                let p = &poses[pose][joint];
                match quantity {
                    Quantity::Rotation => p.q.to_vec(),
                    _ => p.t.to_vec(),
                }
            };
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
            let (jump, slope) = measure(quantity, &before, &after, ctx.size);
            let slope_jump = if slope_counts { slope } else { 0.0 };
            let m = quantity.measure();
            if Thresholds::negligible(m, jump, slope_jump) {
                return;
            }
            let frames = frames.get_or_init(|| self.frames(clip, &times));
            let values: Vec<Vec<f32>> = frames
                .iter()
                .map(|pose| match quantity {
                    Quantity::Rotation => pose[joint].q.to_vec(),
                    _ => pose[joint].t.to_vec(),
                })
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
        };
        let joints = self.rig.joint_count().min(self.skeleton.joints.len());
        for joint in (0..joints).filter(|&j| self.rig.joint_bone(j).is_some()) {
            push(joint, Quantity::Rotation, "rotation");
        }
        if let Some(hips) = self.rig.bone_joint(HumanBone::Hips).filter(|&j| j < joints) {
            push(hips, Quantity::Position, "body position");
        }
        debug_assert!(out.iter().all(|s| s.measure != Measure::Muscle));
        out
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
