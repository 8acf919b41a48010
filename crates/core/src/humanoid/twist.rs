//! Twist distribution (TwistSolve, `humanoid.md` §3.6): a limb bone keeps only part of its
//! twist, and its child is turned back so that the child keeps its whole orientation.

use super::math::Q;
use crate::avatar::{AvatarData, HumanBone};

/// One (parent, child) pair of limb bones, in Unity's fixed order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TwistPair {
    /// Index of the parent bone in the rig's posed bones.
    pub parent: usize,
    /// Index of the child bone in the rig's posed bones.
    pub child: usize,
    /// The parent's share of its twist: `f = k` (settled choice 7).
    pub factor: f64,
    /// The T-pose rotation of the nodes between parent and child (identity when the child
    /// hangs directly below the parent).
    pub between: Q,
}

/// The eight pairs, in order, as (parent, child, which twist setting).
pub fn pair_bones(avatar: &AvatarData) -> [(HumanBone, HumanBone, f32); 8] {
    use HumanBone as B;
    let h = &avatar.human;
    [
        (B::LeftLowerArm, B::LeftHand, h.fore_arm_twist),
        (B::LeftUpperArm, B::LeftLowerArm, h.arm_twist),
        (B::RightLowerArm, B::RightHand, h.fore_arm_twist),
        (B::RightUpperArm, B::RightLowerArm, h.arm_twist),
        (B::LeftLowerLeg, B::LeftFoot, h.leg_twist),
        (B::LeftUpperLeg, B::LeftLowerLeg, h.upper_leg_twist),
        (B::RightLowerLeg, B::RightFoot, h.leg_twist),
        (B::RightUpperLeg, B::RightLowerLeg, h.upper_leg_twist),
    ]
}

/// The child's new local rotation after its parent went from `parent_old` to `parent_new`,
/// keeping the child's world rotation.
pub fn compensate(pair: &TwistPair, parent_old: Q, parent_new: Q, child: Q) -> Q {
    ((parent_new * pair.between).conj() * (parent_old * pair.between) * child).normalize()
}
