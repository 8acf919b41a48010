//! The IK goals of a humanoid clip in the rig's space, in the frame `humanoid.md` §5
//! measured on Unity's own data, and how far the posed feet are from them: where the
//! clip's source avatar had its feet (its soles) and hands, against where this rig's are.

use super::body;
use super::math::{Q, V3};
use super::pose::{Goal, HumanPose};
use super::posing::PoseOptions;
use super::rig::{HumanoidRig, JointLocal};
use crate::avatar::HumanBone;

impl HumanoidRig {
    /// The IK goals (LeftFoot, RightFoot, LeftHand, RightHand) in rig space: position
    /// `s·(RootT + RootQ·goalT)`, rotation `RootQ·goalQ` (§5: the goals are in the frame of
    /// RootQ alone, in human-scale units; a foot's goal is its sole, a hand's its joint).
    /// Without root motion they follow the body as it is placed. They are not solved: Unity
    /// applies them only with Foot IK on.
    pub fn goals(&self, pose: &HumanPose, options: &PoseOptions) -> [Goal; 4] {
        let f = body::body_frame(pose.root_t, pose.root_q, self.scale, options.root_motion);
        pose.goals.map(|g| {
            let t = f.t + f.q.rotate(V3::from_f32(g.t) * self.scale);
            let q = (f.q * Q::from_f32(g.q)).normalize();
            Goal {
                t: t.to_f32(),
                q: q.to_f32(),
            }
        })
    }

    /// Where each foot's sole is (left, right) in posed world transforms (from
    /// [`HumanoidRig::world`]): the ankle plus the foot's axis (`R·postQ·X`) times its
    /// `m_Length`, the height of the ankle above the ground in the T-pose (§5). `None`
    /// where the rig lacks the foot.
    pub fn soles(&self, world: &[JointLocal]) -> [Option<[f32; 3]>; 2] {
        [HumanBone::LeftFoot, HumanBone::RightFoot].map(|bone| {
            let (post_q, length) = self.feet[usize::from(bone == HumanBone::RightFoot)]?;
            let w = world.get(self.bone_joint(bone)?)?;
            let axis = (Q::from_f32(w.q).normalize() * post_q).rotate(V3::new(1.0, 0.0, 0.0));
            Some((V3::from_f32(w.t) + axis * length).to_f32())
        })
    }

    /// The distance from each posed sole (left, right) to its goal: millimetres on the
    /// clip's own avatar, the retargeting error Unity's Foot IK would correct on another.
    pub fn foot_goal_distances(
        &self,
        pose: &HumanPose,
        options: &PoseOptions,
        world: &[JointLocal],
    ) -> [Option<f32>; 2] {
        let goals = self.goals(pose, options);
        let soles = self.soles(world);
        [0, 1].map(|i| {
            let sole = V3::from_f32(soles[i]?);
            Some((sole - V3::from_f32(goals[i].t)).length() as f32)
        })
    }
}
