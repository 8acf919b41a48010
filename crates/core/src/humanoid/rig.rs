//! [`HumanoidRig`]: an Avatar bound to a rig's skeleton once (human nodes to joints by path
//! hash, axes in f64, masses, T-pose, what is unmapped), so that posing it every frame does
//! no lookup and no allocation.

use super::body::{self, OrientationNodes, Part};
use super::math::{Q, Trs, V3};
use super::muscles::{BoneAxes, bone_muscles};
use super::twist::{self, TwistPair};
use crate::avatar::{AvatarData, HumanBone};
use crate::rig::{Joint, Skeleton};
use crate::world::World;

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
    /// No translation or rotation, unit scale.
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
        "avatar {avatar:?} maps the Hips to {path:?}, which the rig lacks: nothing to pose the body by"
    )]
    NoHipsJoint { avatar: String, path: String },
}

/// A human-skeleton node as the rig poses it.
#[derive(Clone, Debug)]
pub(super) struct HumanNode {
    /// The node's parent in the avatar's human skeleton.
    pub parent: Option<usize>,
    pub tpose: Trs,
    /// The T-pose translation in the rig's units: `tpose.t` turned by the T-pose chain's
    /// scale above the node and back by the rig's rest scale above its joint, so the pose
    /// does not depend on where a scale sits (an FBX's 100 on an ancestor, a scaled
    /// armature or Hips) or on whether the avatar stored it folded into translations.
    pub rig_t: V3,
    /// The skeleton joint it drives, where the skeleton has it (found by `m_ID`, node 0
    /// included).
    pub joint: Option<usize>,
    /// What posing writes to that joint.
    pub write: NodeWrite,
}

/// What posing writes to a human node's joint (settled choices 10 and 11).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum NodeWrite {
    /// Nothing: the joint keeps the rig's own local transform. Node 0 and the nodes above
    /// the Hips: the Hips are placed under the rig's own parent chain.
    Rest,
    /// The Hips, placed from the body frame (§4.4).
    Hips,
    /// The muscles' (or, for an in-between node, the T-pose's) local rotation with the
    /// T-pose translation in the rig's units ([`HumanNode::rig_t`]); the scale stays the
    /// rig's: the rig nests the node as the avatar does.
    Posed,
    /// The same local rotation, relative to the joint's parent in the rig, which is not
    /// the node's parent in the avatar; translation and scale stay the rig's.
    Reparented,
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
    /// World transform of the Hips' parent joint in the rig's rest pose, as Unity composes
    /// it (its `localToWorldMatrix`): the Hips are placed through its inverse.
    pub(super) hips_parent_world: World,
    /// The Hips' world scale in the avatar's T-pose chain, in Animator units
    /// ([`tpose_unit`]): the provisional pose is built in the T-pose's proportions at the
    /// size of `m_Scale` and `RootT`.
    pub(super) hips_tpose_scale: V3,
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
    /// The feet's `postQ` and `m_Length` (left, right), where mapped: their soles (§5).
    pub(super) feet: [Option<(Q, f64)>; 2],
    joint_bones: Vec<Option<HumanBone>>,
    bone_joints: [Option<usize>; HumanBone::COUNT],
    unmapped_muscles: Vec<usize>,
    /// How the rig differs from the avatar's human skeleton, when it does.
    warnings: Vec<String>,
}

impl HumanoidRig {
    /// Binds `avatar` to `skeleton` (the rig's joints, matched to human-skeleton nodes by
    /// path hash, node 0 included). Human nodes the skeleton lacks are posed but not
    /// written; their muscles are reported with those of the bones the avatar does not map.
    /// A rig that nests the human nodes otherwise than the avatar is posed anyway (each
    /// node turned relative to its parent in the rig), with a warning
    /// ([`HumanoidRig::warnings`]); only an avatar without Hips or without the limbs of the
    /// body frame, or a rig without the Hips' joint, is refused.
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
        let (nodes, warning) = human_nodes(avatar, skeleton, hips)?;
        let orientation = OrientationNodes::new(avatar).ok_or_else(|| RigError::MissingBone {
            avatar: name(),
            bone: "upper arms and upper legs",
        })?;
        let (bones, bone_index) = posed_bones(avatar);
        let twist = twist_pairs(avatar, &nodes, &bones, &bone_index);
        let hips_joint = nodes[hips].joint.ok_or_else(|| RigError::NoHipsJoint {
            avatar: name(),
            path: avatar
                .bone_path(HumanBone::Hips)
                .unwrap_or_default()
                .to_string(),
        })?;
        let hips_parent_world = skeleton.joints[hips_joint]
            .parent
            .map_or(World::IDENTITY, |p| rest_world(skeleton, p));
        let hips_parent = trs_of(&hips_parent_world);
        let below_hips = below(&nodes, hips);
        let unit = tpose_unit(avatar, &nodes, hips, hips_parent.s);
        let mut nodes = nodes;
        to_rig_units(&mut nodes, skeleton, unit);
        let hips_tpose_scale = tpose_world_scales(&nodes)[hips] * unit;
        let mut rig = HumanoidRig {
            hips,
            hips_parent_world,
            hips_tpose_scale,
            below_hips,
            parts: body::mass_parts(avatar),
            orientation,
            body_q_tpose: Q::from_f32(avatar.human.root_x.q).normalize(),
            scale: f64::from(avatar.human.scale),
            base: skeleton.joints.iter().map(JointLocal::rest).collect(),
            parents: skeleton.joints.iter().map(|j| j.parent).collect(),
            feet: [HumanBone::LeftFoot, HumanBone::RightFoot].map(|b| {
                let a = avatar.bone_axes(b)?;
                Some((Q::from_f32(a.post_q).normalize(), f64::from(a.length)))
            }),
            joint_bones: vec![None; skeleton.joints.len()],
            bone_joints: [None; HumanBone::COUNT],
            unmapped_muscles: Vec::new(),
            warnings: warning.into_iter().collect(),
            nodes,
            bones,
            twist,
        };
        rig.bind_joints(avatar);
        Ok(rig)
    }

    /// Records which joint each bone drives and the muscles no joint shows.
    fn bind_joints(&mut self, avatar: &AvatarData) {
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

    /// How the rig differs from its avatar's human skeleton (one line naming the first
    /// joint that differs); empty when it nests the human nodes as the avatar does.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
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

    /// The skeleton joints `pose` sets from the human pose (the Hips, the mapped bones and
    /// the in-between nodes it nests); `pose` leaves every other joint at its rest value.
    pub fn posed_joints(&self) -> Vec<usize> {
        let mut out: Vec<usize> = self
            .nodes
            .iter()
            .filter(|n| n.write != NodeWrite::Rest)
            .filter_map(|n| n.joint)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
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

/// The human-skeleton nodes with their T-pose, skeleton joint and what posing writes to
/// it, and a warning when the rig nests them otherwise than the avatar.
fn human_nodes(
    avatar: &AvatarData,
    skeleton: &Skeleton,
    hips: usize,
) -> Result<(Vec<HumanNode>, Option<String>), RigError> {
    let h = &avatar.human;
    let mut nodes: Vec<HumanNode> = h
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
            rig_t: V3::from_f32(x.t),
            joint: human_joint(avatar, skeleton, i),
            write: NodeWrite::Rest,
        })
        .collect();

    if let Some(i) = (0..nodes.len()).find(|&i| nodes[i].parent.is_some_and(|p| p >= i)) {
        return Err(RigError::Malformed {
            avatar: avatar.name.clone(),
            detail: format!("human node {i} comes before its parent"),
        });
    }
    let below_hips = below(&nodes, hips);
    let mut differ = Vec::new();
    for i in 0..nodes.len() {
        let parent_joint = nodes[i].parent.and_then(|p| nodes[p].joint);
        let Some(j) = nodes[i].joint else { continue };
        let rig_parent = skeleton.joints.get(j).and_then(|joint| joint.parent);
        let same = parent_joint.is_some() && rig_parent == parent_joint;
        nodes[i].write = match (i == hips, below_hips[i], same) {
            (true, _, _) => NodeWrite::Hips,
            (false, false, _) => NodeWrite::Rest,
            (false, true, true) => NodeWrite::Posed,
            (false, true, false) => {
                differ.push((i, j, rig_parent));
                NodeWrite::Reparented
            }
        };
    }
    let warning = differ.first().map(|&(i, j, rig_parent)| {
        let path = |j: Option<usize>| {
            j.and_then(|j| skeleton.joints.get(j))
                .map_or("(none)".to_string(), |j| format!("{:?}", j.path))
        };
        let avatar_parent = nodes[i].parent.and_then(|p| {
            let id = h.skeleton.nodes.get(p)?.id;
            avatar.tos.get(&id).map(|p| format!("{p:?}"))
        });
        let more = match differ.len() {
            1 => String::new(),
            n => format!(" ({} more joints differ)", n - 1),
        };
        format!(
            "the rig nests avatar {:?}'s human skeleton otherwise: joint {} has parent {} in \
             the rig, {} in the avatar{more}; humanoid clips pose it anyway, each human joint \
             turned relative to its parent in the rig",
            avatar.name,
            path(Some(j)),
            path(rig_parent),
            avatar_parent.unwrap_or_else(|| "none found in the rig".into()),
        )
    });
    Ok((nodes, warning))
}

/// The skeleton joint of human node `node`, by the node's `m_ID` (the path hash), else by
/// its avatar-skeleton node's.
fn human_joint(avatar: &AvatarData, skeleton: &Skeleton, node: usize) -> Option<usize> {
    let own = avatar.human.skeleton.nodes.get(node)?.id;
    skeleton.joint_by_hash(own).or_else(|| {
        let a = *avatar.human_to_avatar.get(node)?;
        skeleton.joint_by_hash(avatar.skeleton.nodes.get(a)?.id)
    })
}

/// Each human node's world scale in the avatar's T-pose chain, node 0 at the identity.
fn tpose_world_scales(nodes: &[HumanNode]) -> Vec<V3> {
    let mut out: Vec<V3> = Vec::with_capacity(nodes.len());
    for node in nodes {
        let s = match node.parent.and_then(|p| out.get(p)) {
            Some(parent) => parent.scale(node.tpose.s),
            None => V3::ONE,
        };
        out.push(s);
    }
    out
}

/// Each joint's world scale in the rig's rest pose, the root at the identity.
fn rest_world_scales(skeleton: &Skeleton) -> Vec<V3> {
    let mut out: Vec<V3> = Vec::with_capacity(skeleton.joints.len());
    for (j, joint) in skeleton.joints.iter().enumerate() {
        let s = match joint.parent.filter(|&p| p < j).and_then(|p| out.get(p)) {
            Some(parent) => parent.scale(V3::from_f32(joint.scale)),
            None => V3::ONE,
        };
        out.push(s);
    }
    out
}

/// Animator units per T-pose unit. Avatars store the T-pose either in the Animator's
/// units, a scale above the Hips folded into the translations (a Blender FBX: `Body`
/// scaled 100, the armature 1.024, bones in centimetres; its T-pose chain alone stands
/// `m_Scale` high), or as the rig's own local transforms, whose chain is in the units below
/// the Hips' parent joint (a scale on a joint above the human skeleton's node 0 then
/// applies to it). Of the two, the one that puts the T-pose centre of mass `m_Scale` from
/// node 0 (the human scale is the centre of mass's height) is taken; they agree when
/// nothing above the Hips is scaled.
fn tpose_unit(avatar: &AvatarData, nodes: &[HumanNode], hips: usize, hips_parent: V3) -> f64 {
    let above = nodes
        .get(hips)
        .and_then(|n| n.parent)
        .and_then(|p| tpose_world_scales(nodes).get(p).copied())
        .unwrap_or(V3::ONE);
    let rig_unit = (hips_parent.x / above.x).abs();
    // The distance from node 0, not the height: a T-pose copied from the rig may stand
    // turned (an FBX armature's -90° about X) until the joints above it turn it upright.
    let height = body::tpose_body(avatar).map_or(0.0, |(com, _)| com.length());
    let scale = f64::from(avatar.human.scale);
    let usable = |u: f64| u.is_finite() && u > 0.0;
    if !usable(rig_unit) || !usable(height) || !usable(scale) {
        return 1.0;
    }
    let miss = |u: f64| (u * height / scale).ln().abs();
    if miss(rig_unit) < miss(1.0) {
        rig_unit
    } else {
        1.0
    }
}

/// Sets every node's [`HumanNode::rig_t`]: its T-pose translation measured in the
/// T-pose chain's scale above it (in Animator units, `unit` per T-pose unit), expressed
/// under the rig's rest scale above its joint. Where the two chains carry the same scales
/// (every avatar built from its own rig with unit or matching scales) this is the T-pose
/// translation itself.
fn to_rig_units(nodes: &mut [HumanNode], skeleton: &Skeleton, unit: f64) {
    let tpose = tpose_world_scales(nodes);
    let rest = rest_world_scales(skeleton);
    for node in nodes.iter_mut() {
        let (Some(p), Some(j)) = (node.parent, node.joint) else {
            continue;
        };
        let above = skeleton
            .joints
            .get(j)
            .and_then(|joint| joint.parent)
            .and_then(|jp| rest.get(jp).copied())
            .unwrap_or(V3::ONE);
        let usable = [above.x, above.y, above.z]
            .iter()
            .all(|v| v.is_finite() && v.abs() > 1e-12);
        if usable {
            node.rig_t = (node.tpose.t.scale(tpose[p]) * unit).unscale(above);
        }
    }
}

/// Which human nodes lie below the Hips (the Hips included).
fn below(nodes: &[HumanNode], hips: usize) -> Vec<bool> {
    let mut out = vec![false; nodes.len()];
    for h in hips..nodes.len() {
        let parent_below = nodes[h].parent.and_then(|p| out.get(p).copied());
        out[h] = h == hips || parent_below == Some(true);
    }
    out
}

/// World transform of `joint` in the rig's rest pose, the root at identity (as
/// [`HumanoidRig::world`] places joints), composed as Unity does ([`crate::world`]).
fn rest_world(skeleton: &Skeleton, joint: usize) -> World {
    let mut worlds = Vec::with_capacity(skeleton.joints.len());
    crate::world::compose(
        skeleton.joints.iter().map(|j| j.parent),
        skeleton
            .joints
            .iter()
            .map(|j| (j.position, j.rotation, j.scale)),
        &mut worlds,
    );
    worlds.get(joint).copied().unwrap_or(World::IDENTITY)
}

/// A world transform as position, rotation and Unity's `lossyScale`.
fn trs_of(w: &World) -> Trs {
    let [x, y, z] = w.position();
    let [qx, qy, qz, qw] = w.q;
    let [sx, sy, sz] = w.lossy_scale();
    Trs {
        t: V3::new(x, y, z),
        q: Q::new(qx, qy, qz, qw),
        s: V3::new(sx, sy, sz),
    }
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
