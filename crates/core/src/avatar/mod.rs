//! Avatars (class 90) decoded into plain, checked data: the avatar skeleton with its poses,
//! the human skeleton with its T-pose and per-bone axes, the bone maps, masses and the human
//! settings (`humanoid.md` §1). Every index read from the file is checked against the array
//! it points into before [`AvatarData`] exists, so users index it freely.

mod bones;
mod convert;

use std::collections::BTreeMap;

pub use bones::{BODY_BONES, BODY_ORDER, HAND_BONES, HumanBone};

use crate::rig::{Joint, Skeleton};
use crate::serialized::{ObjectInfo, SerializedError, SerializedFile};
use crate::unity::avatar::AvatarObject;
use crate::unity::class;

/// Why an Avatar could not be decoded.
#[derive(Debug, thiserror::Error)]
pub enum AvatarError {
    #[error("object is class {0}, not an Avatar (90)")]
    NotAvatar(i32),
    #[error(transparent)]
    Read(#[from] SerializedError),
    #[error("{what}: index {index} is outside 0..{len}")]
    Index {
        what: &'static str,
        index: i64,
        len: usize,
    },
    #[error("{what} has {len} entries, expected {expected}")]
    Length {
        what: &'static str,
        len: usize,
        expected: String,
    },
    #[error("{what}: node {node} has parent {parent}; parents must come first")]
    ParentOrder {
        what: &'static str,
        node: usize,
        parent: i64,
    },
    #[error("{what}: human bone {bone} sits on human node {node}, which has no axes")]
    NoAxes {
        what: &'static str,
        bone: &'static str,
        node: usize,
    },
}

/// A local transform as the Avatar stores it (`xform`), in Unity space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Xform {
    pub t: [f32; 3],
    /// x, y, z, w.
    pub q: [f32; 4],
    pub s: [f32; 3],
}

impl Xform {
    /// The identity transform: no translation or rotation, unit scale.
    pub const IDENTITY: Xform = Xform {
        t: [0.0; 3],
        q: [0.0, 0.0, 0.0, 1.0],
        s: [1.0; 3],
    };
}

/// One human bone's joint frame, signs and limits (`Axes`, §1.2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axes {
    /// The muscle-zero frame in the parent node's space.
    pub pre_q: [f32; 4],
    /// The bone's joint frame relative to the bone; `post_q·X` is the bone's axis.
    pub post_q: [f32; 4],
    /// Per-axis sign (x twist, y and z swings), ±1.
    pub sgn: [f32; 3],
    /// Per-axis limits in radians; 0 on both sides locks an axis.
    pub min: [f32; 3],
    pub max: [f32; 3],
    /// Distance to the child joint in the T-pose (for a foot, its height above ground).
    pub length: f32,
    /// The axes type; 1 (ZYRoll) on every avatar seen.
    pub kind: u32,
}

/// One node of a skeleton.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SkeletonNode {
    /// The parent node; always an earlier node.
    pub parent: Option<usize>,
    /// CRC-32 of the node's path below the Animator (`m_TOS` names it).
    pub id: u32,
    /// Index into the skeleton's `axes`.
    pub axes: Option<usize>,
}

/// A skeleton as the Avatar stores it: nodes parents first, with their axes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AvatarSkeleton {
    pub nodes: Vec<SkeletonNode>,
    pub axes: Vec<Axes>,
}

impl AvatarSkeleton {
    /// The axes of a node, if it has any.
    pub fn node_axes(&self, node: usize) -> Option<&Axes> {
        self.axes.get(self.nodes.get(node)?.axes?)
    }
}

/// `m_Human`: the human skeleton, its T-pose, the bone maps and the human settings.
#[derive(Clone, Debug, PartialEq)]
pub struct HumanData {
    /// The T-pose body frame (centre of mass and body orientation), in Animator space.
    pub root_x: Xform,
    /// Node 0 is the top of the human skeleton (the Animator root on some avatars, an
    /// armature joint such as `Armature/ROOT` on others: bind it by its `m_ID`), then every
    /// human bone and every node between them.
    pub skeleton: AvatarSkeleton,
    /// Local T-pose of every human-skeleton node.
    pub tpose: Vec<Xform>,
    /// Body bone → human-skeleton node, in the internal body order ([`BODY_ORDER`]).
    pub body: [Option<usize>; BODY_BONES],
    /// Finger bone → human-skeleton node (left, right), finger-major.
    pub hands: [[Option<usize>; HAND_BONES]; 2],
    /// Normalised part masses in the internal body order (an unmapped bone's mass is
    /// already added to its parent's by Unity).
    pub masses: [f32; BODY_BONES],
    /// The human scale: the T-pose centre of mass height; clip `RootT` is in these units.
    pub scale: f32,
    pub arm_twist: f32,
    pub fore_arm_twist: f32,
    pub upper_leg_twist: f32,
    pub leg_twist: f32,
    pub arm_stretch: f32,
    pub leg_stretch: f32,
    pub feet_spacing: f32,
    pub has_left_hand: bool,
    pub has_right_hand: bool,
    /// The avatar uses translation DoF curves (Unity 5.2+; false before).
    pub has_tdof: bool,
}

/// A decoded Avatar.
#[derive(Clone, Debug, PartialEq)]
pub struct AvatarData {
    pub name: String,
    /// The whole rig below the Animator, parents first.
    pub skeleton: AvatarSkeleton,
    /// Local pose of every avatar node in the pose the avatar was built from.
    pub skeleton_pose: Vec<Xform>,
    /// Local default (scene) pose of every avatar node; the skeleton pose before Unity 4.3.
    pub default_pose: Vec<Xform>,
    pub human: HumanData,
    /// Human-skeleton node → avatar-skeleton node (`m_HumanSkeletonIndexArray`).
    pub human_to_avatar: Vec<usize>,
    /// Avatar node → human node (`m_HumanSkeletonReverseIndexArray`, or derived before 4.3).
    pub avatar_to_human: Vec<Option<usize>>,
    /// The generic root-motion node (none on humanoid avatars).
    pub root_motion_node: Option<usize>,
    /// Path hash → path below the Animator.
    pub tos: BTreeMap<u32, String>,
}

/// Decodes the Avatar `info` of `file`.
pub fn read(file: &SerializedFile, info: &ObjectInfo) -> Result<AvatarData, AvatarError> {
    if info.class_id != class::AVATAR {
        return Err(AvatarError::NotAvatar(info.class_id));
    }
    let raw: AvatarObject = file.read(info)?;
    AvatarData::from_raw(raw)
}

impl AvatarData {
    /// Checks and converts an Avatar as stored.
    pub fn from_raw(raw: AvatarObject) -> Result<AvatarData, AvatarError> {
        convert::avatar(raw)
    }

    /// True when the avatar maps a human skeleton (its Hips at least).
    pub fn is_human(&self) -> bool {
        self.human.body[0].is_some()
    }

    /// The human-skeleton node of a bone, where the avatar maps it.
    pub fn bone_human_node(&self, bone: HumanBone) -> Option<usize> {
        match bone.finger_parts() {
            Some((right, finger, phalanx)) => {
                self.human.hands[usize::from(right)][finger * 3 + phalanx]
            }
            None => self.human.body[body_slot(bone)?],
        }
    }

    /// The avatar-skeleton node of a bone (whose path `node_path` gives), where mapped.
    pub fn human_bone_node(&self, bone: HumanBone) -> Option<usize> {
        self.human_to_avatar
            .get(self.bone_human_node(bone)?)
            .copied()
    }

    /// The axes of a mapped bone.
    pub fn bone_axes(&self, bone: HumanBone) -> Option<&Axes> {
        self.human.skeleton.node_axes(self.bone_human_node(bone)?)
    }

    /// A body bone's normalised mass (0 for fingers).
    pub fn bone_mass(&self, bone: HumanBone) -> f32 {
        body_slot(bone).map_or(0.0, |i| self.human.masses[i])
    }

    /// The path (below the Animator) of an avatar node, where `m_TOS` names it.
    pub fn node_path(&self, node: usize) -> Option<&str> {
        let id = self.skeleton.nodes.get(node)?.id;
        self.tos.get(&id).map(String::as_str)
    }

    /// The path hash of a mapped bone's node.
    pub fn bone_path_hash(&self, bone: HumanBone) -> Option<u32> {
        Some(self.skeleton.nodes.get(self.human_bone_node(bone)?)?.id)
    }

    /// The path of a mapped bone's node.
    pub fn bone_path(&self, bone: HumanBone) -> Option<&str> {
        self.node_path(self.human_bone_node(bone)?)
    }

    /// The bone whose node has this path hash.
    pub fn bone_of_path_hash(&self, hash: u32) -> Option<HumanBone> {
        HumanBone::all().find(|&b| self.bone_path_hash(b) == Some(hash))
    }

    /// Every mapped bone with its human-skeleton node.
    pub fn mapped_bones(&self) -> impl Iterator<Item = (HumanBone, usize)> + '_ {
        HumanBone::all().filter_map(|b| Some((b, self.bone_human_node(b)?)))
    }

    /// The avatar skeleton as a rig skeleton in its default pose: what a rig whose
    /// Transforms are stripped looks like. Nodes `m_TOS` does not name get an empty path
    /// and keep their hash.
    pub fn to_skeleton(&self) -> Skeleton {
        self.skeleton_in(&self.default_pose, false)
    }

    /// A rig made from the Avatar itself, for an Avatar without its model (a text `.asset`
    /// alone): one joint per `m_AvatarSkeleton` node, its path from `m_TOS[m_ID]`, its
    /// parent the node whose path is its path's parent (the stored parent where the path
    /// names none earlier), its rest transform from `m_AvatarSkeletonPose`, the pose the
    /// Avatar was built from.
    pub fn rest_skeleton(&self) -> Skeleton {
        self.skeleton_in(&self.skeleton_pose, true)
    }

    fn skeleton_in(&self, pose: &[Xform], parent_by_path: bool) -> Skeleton {
        let by_path: BTreeMap<&str, usize> = (0..self.skeleton.nodes.len())
            .filter_map(|i| Some((self.node_path(i)?, i)))
            .collect();
        let path_parent = |i: usize| {
            let path = self.node_path(i)?;
            let parent = match path.rfind('/') {
                Some(cut) => &path[..cut],
                None if path.is_empty() => return None,
                None => "",
            };
            by_path.get(parent).copied().filter(|&p| p < i)
        };
        let joints = self
            .skeleton
            .nodes
            .iter()
            .zip(pose)
            .enumerate()
            .map(|(i, (node, x))| {
                let parent = if parent_by_path {
                    path_parent(i).or(node.parent)
                } else {
                    node.parent
                };
                let path = self.node_path(i).unwrap_or_default().to_string();
                let name = match path.rsplit('/').next() {
                    Some(n) if !n.is_empty() || i == 0 => n.to_string(),
                    _ => format!("#{:08x}", node.id),
                };
                Joint {
                    name,
                    path,
                    path_hash: node.id,
                    parent,
                    position: x.t,
                    rotation: x.q,
                    scale: x.s,
                    transform_id: 0,
                }
            })
            .collect();
        Skeleton { joints }
    }
}

/// A body bone's place in the internal body order.
pub fn body_slot(bone: HumanBone) -> Option<usize> {
    BODY_ORDER.iter().position(|&b| b == bone)
}
