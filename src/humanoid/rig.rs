//! [`HumanoidRig`]: an Avatar bound to a rig's skeleton once (human nodes to joints by path
//! hash, axes in f64, masses, T-pose, what is unmapped), so that posing it every frame does
//! no lookup and no allocation.

use super::body::{self, OrientationNodes, Part};
use super::math::{Q, Trs, V3};
use super::muscles::{BoneAxes, bone_muscles};
use super::twist::{self, TwistPair};
use crate::avatar::{AvatarData, HumanBone};
use crate::rig::{Joint, Skeleton};

/// Most human-skeleton nodes a rig may have (Unity's have about 60: the root, up to 55
/// bones and the nodes between them). Posing keeps per-node scratch on the stack.
pub const MAX_HUMAN_NODES: usize = 256;

/// A joint's local transform (relative to its parent joint), in Unity space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointLocal {
    pub t: [f32; 3],
    /// x, y, z, w.
    pub q: [f32; 4],
    pub s: [f32; 3],
}

impl JointLocal {
    pub const IDENTITY: JointLocal = JointLocal {
        t: [0.0; 3],
        q: [0.0, 0.0, 0.0, 1.0],
        s: [1.0; 3],
    };

    /// A joint's rest transform.
    pub fn rest(joint: &Joint) -> JointLocal {
        JointLocal {
            t: joint.position,
            q: joint.rotation,
            s: joint.scale,
        }
    }

    pub(crate) fn from_trs(x: &Trs) -> JointLocal {
        JointLocal {
            t: x.t.to_f32(),
            q: x.q.to_f32(),
            s: x.s.to_f32(),
        }
    }

    pub(crate) fn to_trs(self) -> Trs {
        Trs {
            t: V3::from_f32(self.t),
            q: Q::from_f32(self.q),
            s: V3::from_f32(self.s),
        }
    }
}

/// Why an Avatar cannot pose a skeleton.
#[derive(Debug, thiserror::Error)]
pub enum RigError {
    #[error("avatar {0:?} is not humanoid: it maps no Hips")]
    NotHumanoid(String),
    #[error("avatar {avatar:?} does not map the {bone}, which the body frame needs")]
    MissingBone { avatar: String, bone: &'static str },
    #[error(
        "avatar {avatar:?}: {nodes} human-skeleton nodes; at most {MAX_HUMAN_NODES} are supported"
    )]
    TooManyNodes { avatar: String, nodes: usize },
    #[error("avatar {avatar:?}: {detail}")]
    Malformed { avatar: String, detail: String },
    #[error(
        "joint {path:?} has another parent in the rig than in avatar {avatar:?}'s human skeleton"
    )]
    Hierarchy { avatar: String, path: String },
}

/// A human-skeleton node as the rig poses it.
#[derive(Clone, Debug)]
pub(super) struct HumanNode {
    pub parent: Option<usize>,
    pub tpose: Trs,
    /// The skeleton joint it drives, where the skeleton has it.
    pub joint: Option<usize>,
}

/// A mapped bone other than the Hips, posed from its muscles.
#[derive(Clone, Debug)]
pub(super) struct PosedBone {
    pub node: usize,
    pub axes: BoneAxes,
    pub muscles: [Option<usize>; 3],
}

/// An Avatar bound to a skeleton, ready to pose every frame.
#[derive(Clone, Debug)]
pub struct HumanoidRig {
    pub(super) nodes: Vec<HumanNode>,
    pub(super) bones: Vec<PosedBone>,
    pub(super) twist: Vec<TwistPair>,
    pub(super) hips: usize,
    /// World transform of the Hips' parent (its ancestors keep their T-pose).
    pub(super) hips_parent: Trs,
    /// Human nodes below the Hips (the Hips included).
    pub(super) below_hips: Vec<bool>,
    pub(super) parts: Vec<Part>,
    pub(super) orientation: OrientationNodes,
    /// `m_RootX.q`: the T-pose body orientation.
    pub(super) body_q_tpose: Q,
    pub(super) scale: f64,
    /// Every joint's transform when nothing poses it.
    pub(super) base: Vec<JointLocal>,
    pub(super) parents: Vec<Option<usize>>,
    joint_bones: Vec<Option<HumanBone>>,
    bone_joints: [Option<usize>; HumanBone::COUNT],
    unmapped_muscles: Vec<usize>,
}

impl HumanoidRig {
    /// Binds `avatar` to `skeleton` (the rig's joints, matched to avatar nodes by path
    /// hash). Human nodes the skeleton lacks are posed but not written; their muscles are
    /// reported with those of the bones the avatar does not map.
    pub fn new(avatar: &AvatarData, skeleton: &Skeleton) -> Result<HumanoidRig, RigError> {
        let name = || avatar.name.clone();
        let hips = avatar
            .bone_human_node(HumanBone::Hips)
            .ok_or_else(|| RigError::NotHumanoid(name()))?;
        if hips
            >= avatar
                .human
                .tpose
                .len()
                .min(avatar.human.skeleton.nodes.len())
        {
            return Err(RigError::Malformed {
                avatar: name(),
                detail: format!("the Hips' human node {hips} is past the human skeleton"),
            });
        }
        let count = avatar.human.skeleton.nodes.len();
        if count > MAX_HUMAN_NODES {
            return Err(RigError::TooManyNodes {
                avatar: name(),
                nodes: count,
            });
        }
        let nodes = human_nodes(avatar, skeleton)?;
        let orientation = OrientationNodes::new(avatar).ok_or_else(|| RigError::MissingBone {
            avatar: name(),
            bone: "upper arms and upper legs",
        })?;
        let (bones, bone_index) = posed_bones(avatar);
        let twist = twist_pairs(avatar, &nodes, &bones, &bone_index);
        let world = tpose_world(&nodes);
        let hips_parent = nodes
            .get(hips)
            .and_then(|n| n.parent)
            .and_then(|p| world.get(p).copied())
            .unwrap_or(Trs::IDENTITY);
        let mut below_hips = vec![false; nodes.len()];
        for h in hips..nodes.len() {
            let parent_below = nodes[h].parent.and_then(|p| below_hips.get(p).copied());
            below_hips[h] = h == hips || parent_below == Some(true);
        }
        let mut rig = HumanoidRig {
            hips,
            hips_parent,
            below_hips,
            parts: body::mass_parts(avatar),
            orientation,
            body_q_tpose: Q::from_f32(avatar.human.root_x.q).normalize(),
            scale: f64::from(avatar.human.scale),
            base: skeleton.joints.iter().map(JointLocal::rest).collect(),
            parents: skeleton.joints.iter().map(|j| j.parent).collect(),
            joint_bones: vec![None; skeleton.joints.len()],
            bone_joints: [None; HumanBone::COUNT],
            unmapped_muscles: Vec::new(),
            nodes,
            bones,
            twist,
        };
        rig.bind_joints(avatar);
        Ok(rig)
    }

    /// Records which joint each bone drives, the T-pose of the non-human nodes inside the
    /// human skeleton (settled choice 4) and the muscles no joint shows.
    fn bind_joints(&mut self, avatar: &AvatarData) {
        for (h, node) in self.nodes.iter().enumerate().skip(1) {
            let has_axes = avatar.human.skeleton.node_axes(h).is_some();
            if let (Some(j), false) = (node.joint, has_axes)
                && let Some(base) = self.base.get_mut(j)
            {
                *base = JointLocal::from_trs(&node.tpose);
            }
        }
        for (bone, h) in avatar.mapped_bones() {
            let joint = self.nodes.get(h).and_then(|n| n.joint);
            self.bone_joints[bone.index()] = joint;
            if let Some(slot) = joint.and_then(|j| self.joint_bones.get_mut(j)) {
                *slot = Some(bone);
            }
        }
        let mut unmapped: Vec<usize> = HumanBone::all()
            .filter(|b| self.bone_joints[b.index()].is_none())
            .flat_map(|b| bone_muscles(b).into_iter().flatten())
            .collect();
        unmapped.sort_unstable();
        self.unmapped_muscles = unmapped;
    }

    /// The human bone a skeleton joint carries.
    pub fn joint_bone(&self, joint: usize) -> Option<HumanBone> {
        self.joint_bones.get(joint).copied().flatten()
    }

    /// The skeleton joint of a human bone.
    pub fn bone_joint(&self, bone: HumanBone) -> Option<usize> {
        self.bone_joints[bone.index()]
    }

    /// Muscles (0..95, Unity's index) whose bone the avatar does not map or the skeleton
    /// lacks: a clip's values for them are ignored (settled choice 1).
    pub fn unmapped_muscles(&self) -> &[usize] {
        &self.unmapped_muscles
    }

    /// Number of skeleton joints `pose` writes.
    pub fn joint_count(&self) -> usize {
        self.base.len()
    }

    /// The avatar's human scale (metres per clip `RootT` unit).
    pub fn human_scale(&self) -> f32 {
        self.scale as f32
    }
}

/// The human-skeleton nodes with their T-pose and skeleton joint, checking that the
/// skeleton nests them as the avatar does.
fn human_nodes(avatar: &AvatarData, skeleton: &Skeleton) -> Result<Vec<HumanNode>, RigError> {
    let h = &avatar.human;
    let joint_of = |node: usize| -> Option<usize> {
        if node == 0 {
            return (!skeleton.joints.is_empty()).then_some(0);
        }
        let a = *avatar.human_to_avatar.get(node)?;
        skeleton.joint_by_hash(avatar.skeleton.nodes.get(a)?.id)
    };
    let nodes: Vec<HumanNode> = h
        .skeleton
        .nodes
        .iter()
        .zip(&h.tpose)
        .enumerate()
        .map(|(i, (node, x))| HumanNode {
            parent: node.parent,
            tpose: Trs {
                t: V3::from_f32(x.t),
                q: Q::from_f32(x.q).normalize(),
                s: V3::from_f32(x.s),
            },
            joint: joint_of(i),
        })
        .collect();
    if let Some(i) = (0..nodes.len()).find(|&i| nodes[i].parent.is_some_and(|p| p >= i)) {
        return Err(RigError::Malformed {
            avatar: avatar.name.clone(),
            detail: format!("human node {i} comes before its parent"),
        });
    }
    for node in &nodes {
        let (Some(j), Some(p)) = (node.joint, node.parent) else {
            continue;
        };
        let parent_joint = nodes.get(p).and_then(|n| n.joint);
        let rig_parent = skeleton.joints.get(j).and_then(|joint| joint.parent);
        if parent_joint.is_none() || rig_parent != parent_joint {
            return Err(RigError::Hierarchy {
                avatar: avatar.name.clone(),
                path: skeleton
                    .joints
                    .get(j)
                    .map(|j| j.path.clone())
                    .unwrap_or_default(),
            });
        }
    }
    Ok(nodes)
}

/// The mapped bones other than the Hips, and each bone's place among them.
fn posed_bones(avatar: &AvatarData) -> (Vec<PosedBone>, [Option<usize>; HumanBone::COUNT]) {
    let mut index = [None; HumanBone::COUNT];
    let mut bones = Vec::new();
    let count = avatar
        .human
        .skeleton
        .nodes
        .len()
        .min(avatar.human.tpose.len());
    for (bone, node) in avatar.mapped_bones() {
        let Some(axes) = avatar.human.skeleton.node_axes(node) else {
            continue;
        };
        if bone == HumanBone::Hips || node >= count {
            continue;
        }
        index[bone.index()] = Some(bones.len());
        bones.push(PosedBone {
            node,
            axes: BoneAxes::new(axes),
            muscles: bone_muscles(bone),
        });
    }
    (bones, index)
}

/// The twist pairs whose two bones are mapped, with the T-pose rotation between them.
fn twist_pairs(
    avatar: &AvatarData,
    nodes: &[HumanNode],
    bones: &[PosedBone],
    index: &[Option<usize>; HumanBone::COUNT],
) -> Vec<TwistPair> {
    twist::pair_bones(avatar)
        .into_iter()
        .filter_map(|(p, c, k)| {
            let (parent, child) = (index[p.index()]?, index[c.index()]?);
            let between = between(nodes, bones.get(parent)?.node, bones.get(child)?.node)?;
            Some(TwistPair {
                parent,
                child,
                factor: f64::from(k),
                between,
            })
        })
        .collect()
}

/// The T-pose rotation of the nodes strictly between `ancestor` and `node`; `None` when
/// `ancestor` is not above `node`.
fn between(nodes: &[HumanNode], ancestor: usize, node: usize) -> Option<Q> {
    let mut q = Q::IDENTITY;
    let mut at = nodes.get(node)?.parent?;
    while at != ancestor {
        let n = nodes.get(at)?;
        q = n.tpose.q * q;
        at = n.parent.filter(|&p| p < at)?;
    }
    Some(q)
}

/// World transforms of the human nodes in the T-pose, the Animator root at identity.
pub(super) fn tpose_world(nodes: &[HumanNode]) -> Vec<Trs> {
    let mut world: Vec<Trs> = Vec::with_capacity(nodes.len());
    for node in nodes {
        let w = match node.parent.and_then(|p| world.get(p)) {
            Some(parent) => parent.then(&node.tpose),
            None => Trs::IDENTITY,
        };
        world.push(w);
    }
    world
}
