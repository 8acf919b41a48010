//! Avatar (90), 2020.3.34f1 layout: every field in the type tree's order, the human
//! description (editor-side) written empty but complete.

use std::collections::BTreeMap;

use rabex::objects::{ClassId, ClassIdType};
use serde::Serialize;

use super::clip::OffsetPtr;
use super::{Vec3, Vec4, Xform};

#[derive(Debug, Serialize)]
pub(crate) struct Avatar {
    pub m_Name: String,
    pub m_AvatarSize: u32,
    pub m_Avatar: AvatarConstant,
    pub m_TOS: BTreeMap<u32, String>,
    pub m_HumanDescription: HumanDescription,
}

impl ClassIdType for Avatar {
    const CLASS_ID: ClassId = ClassId::Avatar;
}

#[derive(Debug, Serialize)]
pub(crate) struct AvatarConstant {
    pub m_AvatarSkeleton: OffsetPtr<Skeleton>,
    pub m_AvatarSkeletonPose: OffsetPtr<SkeletonPose>,
    pub m_DefaultPose: OffsetPtr<SkeletonPose>,
    pub m_SkeletonNameIDArray: Vec<u32>,
    pub m_Human: OffsetPtr<Human>,
    pub m_HumanSkeletonIndexArray: Vec<i32>,
    pub m_HumanSkeletonReverseIndexArray: Vec<i32>,
    pub m_RootMotionBoneIndex: i32,
    pub m_RootMotionBoneX: Xform,
    pub m_RootMotionSkeleton: OffsetPtr<Skeleton>,
    pub m_RootMotionSkeletonPose: OffsetPtr<SkeletonPose>,
    pub m_RootMotionSkeletonIndexArray: Vec<i32>,
}

#[derive(Debug, Serialize)]
pub(crate) struct Skeleton {
    pub m_Node: Vec<Node>,
    pub m_ID: Vec<u32>,
    pub m_AxesArray: Vec<Axes>,
}

#[derive(Debug, Serialize)]
pub(crate) struct Node {
    pub m_ParentId: i32,
    pub m_AxesId: i32,
}

#[derive(Debug, Serialize)]
pub(crate) struct Axes {
    pub m_PreQ: Vec4,
    pub m_PostQ: Vec4,
    pub m_Sgn: Vec3,
    pub m_Limit: Limit,
    pub m_Length: f32,
    pub m_Type: u32,
}

#[derive(Debug, Serialize)]
pub(crate) struct Limit {
    pub m_Min: Vec3,
    pub m_Max: Vec3,
}

#[derive(Debug, Serialize)]
pub(crate) struct SkeletonPose {
    pub m_X: Vec<Xform>,
}

#[derive(Debug, Serialize)]
pub(crate) struct Human {
    pub m_RootX: Xform,
    pub m_Skeleton: OffsetPtr<Skeleton>,
    pub m_SkeletonPose: OffsetPtr<SkeletonPose>,
    pub m_LeftHand: OffsetPtr<Hand>,
    pub m_RightHand: OffsetPtr<Hand>,
    pub m_HumanBoneIndex: Vec<i32>,
    pub m_HumanBoneMass: Vec<f32>,
    pub m_Scale: f32,
    pub m_ArmTwist: f32,
    pub m_ForeArmTwist: f32,
    pub m_UpperLegTwist: f32,
    pub m_LegTwist: f32,
    pub m_ArmStretch: f32,
    pub m_LegStretch: f32,
    pub m_FeetSpacing: f32,
    pub m_HasLeftHand: bool,
    pub m_HasRightHand: bool,
    pub m_HasTDoF: bool,
}

#[derive(Debug, Serialize)]
pub(crate) struct Hand {
    pub m_HandBoneIndex: Vec<i32>,
}

/// `HumanDescription`, with no bones or skeleton listed (playback does not read it).
#[derive(Debug, Serialize)]
pub(crate) struct HumanDescription {
    pub m_Human: Vec<HumanBoneEntry>,
    pub m_Skeleton: Vec<SkeletonBone>,
    pub m_ArmTwist: f32,
    pub m_ForeArmTwist: f32,
    pub m_UpperLegTwist: f32,
    pub m_LegTwist: f32,
    pub m_ArmStretch: f32,
    pub m_LegStretch: f32,
    pub m_FeetSpacing: f32,
    pub m_GlobalScale: f32,
    pub m_RootMotionBoneName: String,
    pub m_HasTranslationDoF: bool,
    pub m_HasExtraRoot: bool,
    pub m_SkeletonHasParents: bool,
}

/// `HumanBone` of the human description (never written: the list is empty).
#[derive(Debug, Serialize)]
pub(crate) struct HumanBoneEntry {
    pub m_BoneName: String,
    pub m_HumanName: String,
}

/// `SkeletonBone` of the human description (never written: the list is empty).
#[derive(Debug, Serialize)]
pub(crate) struct SkeletonBone {
    pub m_Name: String,
}
