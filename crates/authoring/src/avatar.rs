//! Avatars (class 90) from plain descriptions ([`AvatarSpec`]): the avatar skeleton and its
//! poses, the human skeleton with its axes and T-pose, the bone maps, masses and human
//! settings, and `m_TOS`, as Unity 2020.3 stores them (`humanoid.md` §1). The editor-side
//! human description is written empty.

use std::collections::BTreeMap;

use super::AuthoringError;
use super::classes::avatar::{
    Avatar, AvatarConstant, Axes, Hand, Human, HumanDescription, Limit, Node, Skeleton,
    SkeletonPose,
};
use super::classes::clip::OffsetPtr;
use super::classes::{Vec3, Vec4, Xform};
use super::target::UnityTarget;

/// A local transform and a human bone's frame and limits: the decoder's own types
/// ([`clipscope_core::avatar::Xform`], [`clipscope_core::avatar::Axes`]), so a fixture is written from what
/// the decoder reads back.
pub use clipscope_core::avatar::{Axes as AxesSpec, Xform as XformSpec};

/// A skeleton: nodes parents first, as (parent index or -1, axes index or -1), with the
/// path hash (`m_ID`) of each node.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SkeletonSpec {
    pub nodes: Vec<(i32, i32)>,
    pub ids: Vec<u32>,
    pub axes: Vec<AxesSpec>,
}

/// `m_Human`.
#[derive(Clone, Debug, PartialEq)]
pub struct HumanSpec {
    /// The T-pose body frame (centre of mass, body orientation) in Animator space.
    pub root_x: XformSpec,
    /// Node 0 is the top of the human skeleton (not necessarily the Animator root).
    pub skeleton: SkeletonSpec,
    /// Local T-pose of each human-skeleton node.
    pub skeleton_pose: Vec<XformSpec>,
    /// Finger bone → human node or -1 (15 each).
    pub left_hand: Vec<i32>,
    pub right_hand: Vec<i32>,
    /// Body bone → human node or -1 (25, Mecanim's internal order).
    pub bone_index: Vec<i32>,
    /// 25 normalised masses.
    pub bone_mass: Vec<f32>,
    pub scale: f32,
    /// Arm, fore-arm, upper-leg and leg twist.
    pub twists: [f32; 4],
    /// Arm and leg stretch.
    pub stretches: [f32; 2],
    pub feet_spacing: f32,
    pub has_left_hand: bool,
    pub has_right_hand: bool,
    pub has_tdof: bool,
}

/// An Avatar, written beside the rig and referenced by its Animator.
#[derive(Clone, Debug, PartialEq)]
pub struct AvatarSpec {
    pub name: String,
    /// Every node of the rig below (and including) the Animator's GameObject.
    pub skeleton: SkeletonSpec,
    pub skeleton_pose: Vec<XformSpec>,
    pub default_pose: Vec<XformSpec>,
    pub human: HumanSpec,
    /// Human node → avatar node.
    pub human_to_avatar: Vec<i32>,
    /// Avatar node → human node or -1.
    pub avatar_to_human: Vec<i32>,
    /// Path hash → path below the Animator.
    pub tos: BTreeMap<u32, String>,
}

/// The Avatar object of `spec`; Unity 2020.3 only (the layout written here).
pub(crate) fn build_avatar(
    spec: &AvatarSpec,
    target: UnityTarget,
) -> Result<Avatar, AuthoringError> {
    if target != UnityTarget::Unity2020 {
        return Err(AuthoringError::InvalidRig(
            "an Avatar is written in Unity 2020.3's layout only".into(),
        ));
    }
    let h = &spec.human;
    let empty = || OffsetPtr {
        data: Skeleton {
            m_Node: Vec::new(),
            m_ID: Vec::new(),
            m_AxesArray: Vec::new(),
        },
    };
    let [arm, fore_arm, upper_leg, leg] = h.twists;
    Ok(Avatar {
        m_Name: spec.name.clone(),
        m_AvatarSize: 0,
        m_Avatar: AvatarConstant {
            m_AvatarSkeleton: OffsetPtr {
                data: skeleton(&spec.skeleton),
            },
            m_AvatarSkeletonPose: pose(&spec.skeleton_pose),
            m_DefaultPose: pose(&spec.default_pose),
            m_SkeletonNameIDArray: spec.skeleton.ids.clone(),
            m_Human: OffsetPtr {
                data: Human {
                    m_RootX: xform(&h.root_x),
                    m_Skeleton: OffsetPtr {
                        data: skeleton(&h.skeleton),
                    },
                    m_SkeletonPose: pose(&h.skeleton_pose),
                    m_LeftHand: hand(&h.left_hand),
                    m_RightHand: hand(&h.right_hand),
                    m_HumanBoneIndex: h.bone_index.clone(),
                    m_HumanBoneMass: h.bone_mass.clone(),
                    m_Scale: h.scale,
                    m_ArmTwist: arm,
                    m_ForeArmTwist: fore_arm,
                    m_UpperLegTwist: upper_leg,
                    m_LegTwist: leg,
                    m_ArmStretch: h.stretches[0],
                    m_LegStretch: h.stretches[1],
                    m_FeetSpacing: h.feet_spacing,
                    m_HasLeftHand: h.has_left_hand,
                    m_HasRightHand: h.has_right_hand,
                    m_HasTDoF: h.has_tdof,
                },
            },
            m_HumanSkeletonIndexArray: spec.human_to_avatar.clone(),
            m_HumanSkeletonReverseIndexArray: spec.avatar_to_human.clone(),
            m_RootMotionBoneIndex: -1,
            m_RootMotionBoneX: Xform::IDENTITY,
            m_RootMotionSkeleton: empty(),
            m_RootMotionSkeletonPose: pose(&[]),
            m_RootMotionSkeletonIndexArray: Vec::new(),
        },
        m_TOS: spec.tos.clone(),
        m_HumanDescription: HumanDescription {
            m_Human: Vec::new(),
            m_Skeleton: Vec::new(),
            m_ArmTwist: arm,
            m_ForeArmTwist: fore_arm,
            m_UpperLegTwist: upper_leg,
            m_LegTwist: leg,
            m_ArmStretch: h.stretches[0],
            m_LegStretch: h.stretches[1],
            m_FeetSpacing: h.feet_spacing,
            m_GlobalScale: 1.0,
            m_RootMotionBoneName: String::new(),
            m_HasTranslationDoF: h.has_tdof,
            m_HasExtraRoot: false,
            m_SkeletonHasParents: true,
        },
    })
}

fn skeleton(s: &SkeletonSpec) -> Skeleton {
    Skeleton {
        m_Node: s
            .nodes
            .iter()
            .map(|&(parent, axes)| Node {
                m_ParentId: parent,
                m_AxesId: axes,
            })
            .collect(),
        m_ID: s.ids.clone(),
        m_AxesArray: s
            .axes
            .iter()
            .map(|a| Axes {
                m_PreQ: Vec4::from(a.pre_q),
                m_PostQ: Vec4::from(a.post_q),
                m_Sgn: Vec3::from(a.sgn),
                m_Limit: Limit {
                    m_Min: Vec3::from(a.min),
                    m_Max: Vec3::from(a.max),
                },
                m_Length: a.length,
                m_Type: a.kind,
            })
            .collect(),
    }
}

fn pose(x: &[XformSpec]) -> OffsetPtr<SkeletonPose> {
    OffsetPtr {
        data: SkeletonPose {
            m_X: x.iter().map(xform).collect(),
        },
    }
}

fn xform(x: &XformSpec) -> Xform {
    Xform {
        t: Vec3::from(x.t),
        q: Vec4::from(x.q),
        s: Vec3::from(x.s),
    }
}

fn hand(bones: &[i32]) -> OffsetPtr<Hand> {
    OffsetPtr {
        data: Hand {
            m_HandBoneIndex: bones.to_vec(),
        },
    }
}
