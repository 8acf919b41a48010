//! Avatar (class 90) as stored (`unity-format.md` §9.5), every layout from Unity 3.5 to
//! Unity 6: the avatar skeleton and its poses, the human skeleton with its axes and T-pose,
//! the bone maps and the human settings. [`crate::avatar`] turns this into checked plain data.
//!
//! Fields that differ between versions are optional: before 4.3 the avatar skeleton and its
//! pose are `m_Skeleton`/`m_SkeletonPose`, and there is no default pose or reverse index;
//! before 5.4 the float3 fields are float4 (the `w` is skipped); before 5.6 there are 24
//! body bones (no UpperChest).

use std::collections::BTreeMap;

use serde::Deserialize;

use super::clip::OffsetPtr;
use super::{Float, Int, Quat, Vec3};

/// An Avatar object, up to `m_TOS` (the human description after it is not needed).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct AvatarObject {
    pub m_Name: String,
    pub m_Avatar: AvatarConstant,
    /// Path hash to transform path, relative to the Animator's GameObject.
    pub m_TOS: BTreeMap<u32, String>,
}

/// `m_Avatar`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct AvatarConstant {
    /// Unity 4.3+.
    pub m_AvatarSkeleton: Option<OffsetPtr<Skeleton>>,
    /// Before 4.3: the avatar skeleton's name.
    pub m_Skeleton: Option<OffsetPtr<Skeleton>>,
    /// Unity 4.3+.
    pub m_AvatarSkeletonPose: Option<OffsetPtr<SkeletonPose>>,
    /// Before 4.3: the avatar skeleton pose's name.
    pub m_SkeletonPose: Option<OffsetPtr<SkeletonPose>>,
    /// Unity 4.3+.
    pub m_DefaultPose: Option<OffsetPtr<SkeletonPose>>,
    pub m_Human: OffsetPtr<Human>,
    pub m_HumanSkeletonIndexArray: Vec<Int>,
    /// Unity 4.3+.
    pub m_HumanSkeletonReverseIndexArray: Option<Vec<Int>>,
    pub m_RootMotionBoneIndex: Int,
}

/// A skeleton: nodes parents first, their path hashes, and the axes of the nodes that have
/// them.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(default)]
pub struct Skeleton {
    pub m_Node: Vec<Node>,
    pub m_ID: Vec<Int>,
    pub m_AxesArray: Vec<Axes>,
}

/// Unity's `Node`, field for field as its type tree names them.
#[derive(Debug, Default, Clone, Copy, Deserialize)]
#[serde(default)]
pub struct Node {
    pub m_ParentId: Int,
    pub m_AxesId: Int,
}

/// One human bone's joint frame, signs and limits.
#[derive(Debug, Default, Clone, Copy, Deserialize)]
#[serde(default)]
pub struct Axes {
    pub m_PreQ: Quat,
    pub m_PostQ: Quat,
    pub m_Sgn: Vec3,
    pub m_Limit: Limit,
    pub m_Length: Float,
    pub m_Type: Int,
}

/// Unity's `Limit`, field for field as its type tree names them.
#[derive(Debug, Default, Clone, Copy, Deserialize)]
#[serde(default)]
pub struct Limit {
    pub m_Min: Vec3,
    pub m_Max: Vec3,
}

/// Unity's `SkeletonPose`, field for field as its type tree names them.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(default)]
pub struct SkeletonPose {
    pub m_X: Vec<Xform>,
}

/// A local transform: translation, rotation, scale.
#[derive(Debug, Default, Clone, Copy, Deserialize)]
#[serde(default)]
pub struct Xform {
    pub t: Vec3,
    pub q: Quat,
    pub s: Vec3,
}

/// `m_Human`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Human {
    pub m_RootX: Xform,
    pub m_Skeleton: OffsetPtr<Skeleton>,
    pub m_SkeletonPose: OffsetPtr<SkeletonPose>,
    pub m_LeftHand: OffsetPtr<Hand>,
    pub m_RightHand: OffsetPtr<Hand>,
    pub m_HumanBoneIndex: Vec<Int>,
    pub m_HumanBoneMass: Vec<Float>,
    pub m_Scale: Float,
    pub m_ArmTwist: Float,
    pub m_ForeArmTwist: Float,
    pub m_UpperLegTwist: Float,
    pub m_LegTwist: Float,
    pub m_ArmStretch: Float,
    pub m_LegStretch: Float,
    pub m_FeetSpacing: Float,
    pub m_HasLeftHand: Int,
    pub m_HasRightHand: Int,
    /// Unity 5.2+.
    pub m_HasTDoF: Option<Int>,
}

/// Unity's `Hand`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Hand {
    pub m_HandBoneIndex: Vec<Int>,
}
