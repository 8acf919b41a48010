//! Stored Avatar → [`AvatarData`], checking every count and index on the way.

use super::bones::{BODY_BONES_BEFORE_5_6, UPPER_CHEST_SLOT};
use super::{
    AvatarData, AvatarError, AvatarSkeleton, Axes, BODY_BONES, BODY_ORDER, HAND_BONES, HumanData,
    SkeletonNode, Xform,
};
use crate::unity::avatar::{self as raw, AvatarObject};
use crate::unity::{Float, Int};

pub(super) fn avatar(raw: AvatarObject) -> Result<AvatarData, AvatarError> {
    let c = raw.m_Avatar;
    let skeleton_raw = c
        .m_AvatarSkeleton
        .or(c.m_Skeleton)
        .map(|p| p.data)
        .unwrap_or_default();
    let skeleton = skeleton(&skeleton_raw, AVATAR_SKELETON)?;
    let n = skeleton.nodes.len();
    let pose_raw = c.m_AvatarSkeletonPose.or(c.m_SkeletonPose).map(|p| p.data);
    let skeleton_pose = pose(
        pose_raw.as_ref().map_or(&[][..], |p| &p.m_X),
        n,
        "avatar skeleton pose",
    )?;
    let default_pose = match c.m_DefaultPose.map(|p| p.data) {
        Some(p) if !p.m_X.is_empty() => pose(&p.m_X, n, "default pose")?,
        _ => skeleton_pose.clone(),
    };
    let human = human(c.m_Human.data)?;
    let human_to_avatar = indices(&c.m_HumanSkeletonIndexArray, n, "m_HumanSkeletonIndexArray")?
        .into_iter()
        .map(|i| i.ok_or(bad_index("m_HumanSkeletonIndexArray", -1, n)))
        .collect::<Result<Vec<usize>, _>>()?;
    expect_len(
        "m_HumanSkeletonIndexArray",
        human_to_avatar.len(),
        human.skeleton.nodes.len(),
    )?;
    let avatar_to_human = match &c.m_HumanSkeletonReverseIndexArray {
        Some(rev) if !rev.is_empty() => {
            let rev = indices(
                rev,
                human_to_avatar.len(),
                "m_HumanSkeletonReverseIndexArray",
            )?;
            expect_len("m_HumanSkeletonReverseIndexArray", rev.len(), n)?;
            rev
        }
        _ => reverse(&human_to_avatar, n),
    };
    let root_motion_node = optional_index(c.m_RootMotionBoneIndex, n, "m_RootMotionBoneIndex")?;
    Ok(AvatarData {
        name: raw.m_Name,
        skeleton,
        skeleton_pose,
        default_pose,
        human,
        human_to_avatar,
        avatar_to_human,
        root_motion_node,
        tos: raw.m_TOS,
    })
}

fn human(h: raw::Human) -> Result<HumanData, AvatarError> {
    let skeleton = skeleton(&h.m_Skeleton.data, HUMAN_SKELETON)?;
    let n = skeleton.nodes.len();
    let tpose = pose(&h.m_SkeletonPose.data.m_X, n, "human skeleton pose")?;
    let body = body_bones(&h.m_HumanBoneIndex, &skeleton)?;
    let hands = [
        hand(&h.m_LeftHand.data.m_HandBoneIndex, &skeleton, false)?,
        hand(&h.m_RightHand.data.m_HandBoneIndex, &skeleton, true)?,
    ];
    let masses = masses(&h.m_HumanBoneMass, h.m_HumanBoneIndex.len())?;
    let f = |v: Float| v.0;
    Ok(HumanData {
        root_x: xform(&h.m_RootX),
        skeleton,
        tpose,
        body,
        hands,
        masses,
        scale: f(h.m_Scale),
        arm_twist: f(h.m_ArmTwist),
        fore_arm_twist: f(h.m_ForeArmTwist),
        upper_leg_twist: f(h.m_UpperLegTwist),
        leg_twist: f(h.m_LegTwist),
        arm_stretch: f(h.m_ArmStretch),
        leg_stretch: f(h.m_LegStretch),
        feet_spacing: f(h.m_FeetSpacing),
        has_left_hand: h.m_HasLeftHand.flag(),
        has_right_hand: h.m_HasRightHand.flag(),
        has_tdof: h.m_HasTDoF.is_some_and(Int::flag),
    })
}

/// The names a skeleton's problems are reported under.
struct SkeletonNames {
    node: &'static str,
    axes: &'static str,
}

const AVATAR_SKELETON: SkeletonNames = SkeletonNames {
    node: "avatar skeleton",
    axes: "avatar skeleton m_AxesId",
};
const HUMAN_SKELETON: SkeletonNames = SkeletonNames {
    node: "human skeleton",
    axes: "human skeleton m_AxesId",
};

/// A skeleton whose parents come first and whose axes ids are in range.
fn skeleton(s: &raw::Skeleton, names: SkeletonNames) -> Result<AvatarSkeleton, AvatarError> {
    let what = names.node;
    expect_len(what, s.m_ID.len(), s.m_Node.len())?;
    let axes: Vec<Axes> = s.m_AxesArray.iter().map(axes).collect();
    let nodes = s
        .m_Node
        .iter()
        .zip(&s.m_ID)
        .enumerate()
        .map(|(i, (node, id))| {
            let parent = match node.m_ParentId.0 {
                p if p < 0 => None,
                p if (p as u64) < i as u64 => Some(p as usize),
                p => {
                    return Err(AvatarError::ParentOrder {
                        what,
                        node: i,
                        parent: p,
                    });
                }
            };
            Ok(SkeletonNode {
                parent,
                id: id.u32(),
                axes: optional_index(node.m_AxesId, axes.len(), names.axes)?,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(AvatarSkeleton { nodes, axes })
}

fn axes(a: &raw::Axes) -> Axes {
    Axes {
        pre_q: a.m_PreQ.to_array(),
        post_q: a.m_PostQ.to_array(),
        sgn: a.m_Sgn.to_array(),
        min: a.m_Limit.m_Min.to_array(),
        max: a.m_Limit.m_Max.to_array(),
        length: a.m_Length.0,
        kind: a.m_Type.u32(),
    }
}

fn xform(x: &raw::Xform) -> Xform {
    Xform {
        t: x.t.to_array(),
        q: x.q.to_array(),
        s: x.s.to_array(),
    }
}

/// A pose with one transform per node.
fn pose(x: &[raw::Xform], nodes: usize, what: &'static str) -> Result<Vec<Xform>, AvatarError> {
    expect_len(what, x.len(), nodes)?;
    Ok(x.iter().map(xform).collect())
}

/// `m_HumanBoneIndex`: 25 entries (24 before Unity 5.6, which had no UpperChest; none on a
/// generic avatar), each a human node that has axes, or -1.
fn body_bones(
    index: &[Int],
    skeleton: &AvatarSkeleton,
) -> Result<[Option<usize>; BODY_BONES], AvatarError> {
    const WHAT: &str = "m_HumanBoneIndex";
    let mut stored = indices(index, skeleton.nodes.len(), WHAT)?;
    match stored.len() {
        0 => return Ok([None; BODY_BONES]),
        BODY_BONES_BEFORE_5_6 => stored.insert(UPPER_CHEST_SLOT, None),
        BODY_BONES => {}
        len => return Err(length(WHAT, len, "24 or 25")),
    }
    let mut body = [None; BODY_BONES];
    for ((slot, node), bone) in body.iter_mut().zip(stored).zip(BODY_ORDER) {
        *slot = node;
        check_axes(WHAT, node, skeleton, bone.name())?;
    }
    Ok(body)
}

/// `m_HandBoneIndex`: 15 entries (or none), each a human node that has axes, or -1.
fn hand(
    index: &[Int],
    skeleton: &AvatarSkeleton,
    right: bool,
) -> Result<[Option<usize>; HAND_BONES], AvatarError> {
    const WHAT: &str = "m_HandBoneIndex";
    let stored = indices(index, skeleton.nodes.len(), WHAT)?;
    let mut hand = [None; HAND_BONES];
    match stored.len() {
        0 => return Ok(hand),
        HAND_BONES => {}
        len => return Err(length(WHAT, len, "0 or 15")),
    }
    for (slot, (dst, node)) in hand.iter_mut().zip(stored).enumerate() {
        *dst = node;
        let name = super::HumanBone::finger(right, slot).map_or("finger", |b| b.name());
        check_axes(WHAT, node, skeleton, name)?;
    }
    Ok(hand)
}

fn check_axes(
    what: &'static str,
    node: Option<usize>,
    skeleton: &AvatarSkeleton,
    bone: &'static str,
) -> Result<(), AvatarError> {
    match node {
        Some(node) if skeleton.node_axes(node).is_none() => {
            Err(AvatarError::NoAxes { what, bone, node })
        }
        _ => Ok(()),
    }
}

/// `m_HumanBoneMass` in the internal body order, one per `m_HumanBoneIndex` entry (24
/// before 5.6); none is all zero.
fn masses(stored: &[Float], body_len: usize) -> Result<[f32; BODY_BONES], AvatarError> {
    const WHAT: &str = "m_HumanBoneMass";
    let mut values: Vec<f32> = stored.iter().map(|m| m.0).collect();
    match values.len() {
        0 => values = vec![0.0; BODY_BONES],
        len if len != body_len => return Err(length(WHAT, len, &body_len.to_string())),
        BODY_BONES_BEFORE_5_6 => values.insert(UPPER_CHEST_SLOT, 0.0),
        BODY_BONES => {}
        len => return Err(length(WHAT, len, "24 or 25")),
    }
    let mut masses = [0.0; BODY_BONES];
    masses.copy_from_slice(&values);
    Ok(masses)
}

/// Indices that are -1 (none) or inside `0..len`.
fn indices(
    stored: &[Int],
    len: usize,
    what: &'static str,
) -> Result<Vec<Option<usize>>, AvatarError> {
    stored
        .iter()
        .map(|&i| optional_index(i, len, what))
        .collect()
}

fn optional_index(i: Int, len: usize, what: &'static str) -> Result<Option<usize>, AvatarError> {
    match i.0 {
        -1 => Ok(None),
        v if v >= 0 && (v as u64) < len as u64 => Ok(Some(v as usize)),
        v => Err(bad_index(what, v, len)),
    }
}

fn bad_index(what: &'static str, index: i64, len: usize) -> AvatarError {
    AvatarError::Index { what, index, len }
}

fn expect_len(what: &'static str, len: usize, expected: usize) -> Result<(), AvatarError> {
    if len == expected {
        Ok(())
    } else {
        Err(length(what, len, &expected.to_string()))
    }
}

fn length(what: &'static str, len: usize, expected: &str) -> AvatarError {
    AvatarError::Length {
        what,
        len,
        expected: expected.to_string(),
    }
}

/// Avatar node → human node, from the forward map (avatars before 4.3 store none).
fn reverse(human_to_avatar: &[usize], avatar_nodes: usize) -> Vec<Option<usize>> {
    let mut rev = vec![None; avatar_nodes];
    for (h, &a) in human_to_avatar.iter().enumerate() {
        if let Some(slot) = rev.get_mut(a) {
            *slot = Some(h);
        }
    }
    rev
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::avatar::HumanBone;
    use crate::unity::avatar::{Axes as RawAxes, Node};

    /// A three-node avatar: the root, Hips, Spine (both with axes), no reverse index.
    fn tiny() -> AvatarObject {
        let node = |parent: i64, axes: i64| Node {
            m_ParentId: Int(parent),
            m_AxesId: Int(axes),
        };
        let skeleton = raw::Skeleton {
            m_Node: vec![node(-1, -1), node(0, 0), node(1, 1)],
            m_ID: vec![Int(0), Int(11), Int(22)],
            m_AxesArray: vec![RawAxes::default(); 2],
        };
        let pose = raw::SkeletonPose {
            m_X: vec![raw::Xform::default(); 3],
        };
        let mut raw = AvatarObject {
            m_TOS: [
                (0, String::new()),
                (11, "Hips".into()),
                (22, "Hips/Spine".into()),
            ]
            .into(),
            ..Default::default()
        };
        let c = &mut raw.m_Avatar;
        c.m_AvatarSkeleton = Some(crate::unity::clip::OffsetPtr {
            data: raw::Skeleton {
                m_AxesArray: Vec::new(),
                m_Node: vec![node(-1, -1), node(0, -1), node(1, -1)],
                ..skeleton.clone()
            },
        });
        c.m_AvatarSkeletonPose = Some(crate::unity::clip::OffsetPtr { data: pose.clone() });
        let h = &mut c.m_Human.data;
        h.m_Skeleton.data = skeleton;
        h.m_SkeletonPose.data = pose;
        h.m_HumanBoneIndex = vec![Int(-1); BODY_BONES];
        h.m_HumanBoneIndex[0] = Int(1);
        h.m_HumanBoneIndex[7] = Int(2);
        h.m_HumanBoneMass = vec![Float(0.04); BODY_BONES];
        c.m_HumanSkeletonIndexArray = vec![Int(0), Int(1), Int(2)];
        c.m_RootMotionBoneIndex = Int(-1);
        raw
    }

    #[test]
    fn a_small_avatar_maps_its_bones_to_paths() {
        let av = avatar(tiny()).unwrap();
        assert!(av.is_human());
        assert_eq!(av.bone_path(HumanBone::Spine), Some("Hips/Spine"));
        assert_eq!(av.bone_of_path_hash(11), Some(HumanBone::Hips));
        assert_eq!(av.human_bone_node(HumanBone::Chest), None);
        // No stored reverse index (before Unity 4.3): derived from the forward one.
        assert_eq!(av.avatar_to_human, [Some(0), Some(1), Some(2)]);
        // No default pose stored: the skeleton pose stands in.
        assert_eq!(av.default_pose, av.skeleton_pose);
        let skeleton = av.to_skeleton();
        assert_eq!(skeleton.joints[2].path, "Hips/Spine");
        assert_eq!(skeleton.joints[2].name, "Spine");
        assert_eq!(skeleton.joints[2].parent, Some(1));
    }

    #[test]
    fn bad_indices_name_what_was_wrong() {
        let mut raw = tiny();
        raw.m_Avatar.m_Human.data.m_HumanBoneIndex[7] = Int(3);
        let err = avatar(raw).unwrap_err().to_string();
        assert_eq!(err, "m_HumanBoneIndex: index 3 is outside 0..3");
        let mut raw = tiny();
        raw.m_Avatar.m_Human.data.m_Skeleton.data.m_Node[2].m_AxesId = Int(2);
        let err = avatar(raw).unwrap_err().to_string();
        assert_eq!(err, "human skeleton m_AxesId: index 2 is outside 0..2");
        let mut raw = tiny();
        raw.m_Avatar.m_HumanSkeletonReverseIndexArray = Some(vec![Int(0), Int(1)]);
        let err = avatar(raw).unwrap_err().to_string();
        assert_eq!(
            err,
            "m_HumanSkeletonReverseIndexArray has 2 entries, expected 3"
        );
        let mut raw = tiny();
        raw.m_Avatar.m_HumanSkeletonIndexArray[2] = Int(-1);
        assert!(avatar(raw).is_err());
        let mut raw = tiny();
        raw.m_Avatar.m_Human.data.m_HumanBoneMass.pop();
        let err = avatar(raw).unwrap_err().to_string();
        assert_eq!(err, "m_HumanBoneMass has 24 entries, expected 25");
    }
}
