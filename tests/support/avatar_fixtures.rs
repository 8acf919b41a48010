//! Humanoid rigs that differ from morbman's in the ways real characters do, written byte by
//! byte as bundles (rig, Animator and Avatar) by the authoring module:
//! - [`Case::Deep`]: the human skeleton starts at `Armature/ROOT`, two levels below the
//!   Animator, and `Armature` has a non-identity rest rotation and scale (as FBX exports do);
//! - [`Case::Inserted`]: the rig inserts a joint (`Extra`) between Spine and Chest that the
//!   avatar's human skeleton does not list (Chest's parent differs);
//! - [`Case::Socket`]: a non-human joint 10 km from the body;
//! - [`Case::Parked`]: [`Case::Deep`]'s rotated, scaled `Armature` with two weapon sockets
//!   under it parked [`PARKED`] metres away, as Risk of Rain 2 parks unused weapons;
//! - [`Case::NoLeftUpperArm`]: morbman's rig with an avatar that does not map the left upper
//!   arm, which the body frame needs: it cannot pose humanoid clips.
//!
//! Each keeps morbman's human skeleton (axes, T-pose, masses, body frame), so a clip gives
//! the same human-bone rotations on it as on morbman, and every joint's world placement in
//! the rest pose and the T-pose is morbman's.
#![allow(dead_code)]

use std::collections::BTreeMap;

use clipscope::authoring::{
    AvatarSpec, Bundle, HumanSpec, Joint, RigComponent, RigSpec, SkeletonSpec, UnityTarget,
    XformSpec, write_bundle,
};
use clipscope::avatar::{AvatarData, HumanBone, Xform, body_slot};
use clipscope::humanoid::math::{Q, Trs, V3};
use clipscope::path_hash;
use clipscope::rig::Skeleton;

/// Which fixture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    Deep,
    Inserted,
    Socket,
    NoLeftUpperArm,
    Parked,
}

/// The rotation and scale of the `Armature` joint of [`Case::Deep`].
pub fn armature_rest() -> Trs {
    Trs {
        t: V3::new(0.0, 0.0, 0.0),
        q: Q::axis_angle(V3::new(1.0, 0.0, 0.0), -0.5 * std::f64::consts::PI),
        s: V3::new(0.01, 0.01, 0.01),
    }
}

/// The `ROOT` joint's rest transform under `Armature` in [`Case::Deep`].
pub fn root_rest() -> Trs {
    Trs {
        t: V3::new(0.0, 3.0, 0.0),
        q: Q::axis_angle(V3::new(0.0, 0.0, 1.0), 0.25),
        s: V3::ONE,
    }
}

/// The sockets of [`Case::Parked`]: name and world offset from the rig's root, in metres.
pub const PARKED: [(&str, [f64; 3]); 2] = [
    ("WeaponParked1km", [1000.0, 0.0, 0.0]),
    ("WeaponParked30km", [0.0, 0.0, -30_000.0]),
];

/// How far the socket joint of [`Case::Socket`] is from the rig's root, in metres.
pub const SOCKET_DISTANCE: f32 = 10_000.0;

/// A joint of the fixture's rig.
#[derive(Clone, Debug)]
struct TreeJoint {
    name: String,
    parent: Option<usize>,
    rest: Trs,
}

/// A fixture: the bundle's bytes and what it was built from.
pub struct Fixture {
    pub bytes: Vec<u8>,
    /// The joints above the human skeleton's node 0 (paths).
    pub above: Vec<String>,
    /// The inserted joint's path ([`Case::Inserted`]) or the socket's ([`Case::Socket`]).
    pub extra: Option<String>,
}

/// The rig's name in every fixture.
pub const RIG_NAME: &str = "fixture";

/// Writes the fixture `case` built from morbman's avatar and rig.
pub fn fixture(case: Case, avatar: &AvatarData, skeleton: &Skeleton) -> Fixture {
    // The rig: morbman's joints, one tree joint each (joint 0 the root), plus the case's own.
    let mut tree: Vec<TreeJoint> = skeleton
        .joints
        .iter()
        .map(|j| TreeJoint {
            name: j.name.clone(),
            parent: j.parent,
            rest: rest(j.position, j.rotation, j.scale),
        })
        .collect();
    let human_joint: Vec<usize> = (0..avatar.human.skeleton.nodes.len())
        .map(|h| morbman_joint(avatar, skeleton, h))
        .collect();
    let mut tpose: Vec<Xform> = avatar.human.tpose.clone();
    let mut node0 = 0;
    let mut above = Vec::new();
    let mut extra = None;
    match case {
        Case::Deep | Case::Parked => {
            let armature = push(&mut tree, "Armature", Some(0), armature_rest());
            let root = push(&mut tree, "ROOT", Some(armature), root_rest());
            let chain = armature_rest().then(&root_rest());
            // morbman's children of the root move below ROOT, keeping their world placement.
            for joint in tree.iter_mut().take(skeleton.joints.len()).skip(1) {
                if joint.parent == Some(0) {
                    joint.parent = Some(root);
                    joint.rest = chain.local_of(&joint.rest);
                }
            }
            let hips = avatar.bone_human_node(HumanBone::Hips).expect("hips");
            let hips_x = chain.local_of(&xform_trs(&tpose[hips]));
            tpose[hips] = trs_xform(&hips_x);
            node0 = root;
            tpose[0] = trs_xform(&root_rest());
            above = vec!["Armature".to_string()];
            if case == Case::Parked {
                for (name, at) in PARKED {
                    // Placed in the Armature's rotated, scaled frame.
                    let t = armature_rest().local_of(&Trs {
                        t: V3::new(at[0], at[1], at[2]),
                        ..Trs::IDENTITY
                    });
                    push(&mut tree, name, Some(armature), t);
                }
            }
        }
        Case::Inserted => {
            let chest_node = avatar.bone_human_node(HumanBone::Chest).expect("chest");
            let chest = human_joint[chest_node];
            let spine = tree[chest].parent.expect("chest has a parent");
            let half = xform_trs(&tpose[chest_node]).t * 0.5;
            let inserted = push(
                &mut tree,
                "Extra",
                Some(spine),
                Trs {
                    t: half,
                    ..Trs::IDENTITY
                },
            );
            tree[chest].parent = Some(inserted);
            tree[chest].rest.t = half;
            extra = Some(inserted);
        }
        Case::NoLeftUpperArm => {}
        Case::Socket => {
            let socket = push(
                &mut tree,
                "Socket",
                Some(0),
                Trs {
                    t: V3::new(f64::from(SOCKET_DISTANCE), 0.0, 0.0),
                    ..Trs::IDENTITY
                },
            );
            extra = Some(socket);
        }
    }
    let order = preorder(&tree);
    let paths = tree_paths(&tree);
    let mut human_joint = human_joint;
    human_joint[0] = node0;
    let mut avatar_spec = avatar_spec(avatar, &tree, &order, &paths, &human_joint, &tpose);
    if case == Case::NoLeftUpperArm {
        let slot = body_slot(HumanBone::LeftUpperArm).expect("a body bone");
        avatar_spec.human.bone_index[slot] = -1;
    }
    let position = |of: &[usize]| {
        let mut at = vec![0; of.len()];
        for (i, &j) in of.iter().enumerate() {
            at[j] = i;
        }
        at
    };
    let at = position(&order);
    let joints = order
        .iter()
        .map(|&j| {
            let t = &tree[j];
            let x = trs_xform(&t.rest);
            Joint {
                name: if j == 0 {
                    RIG_NAME.into()
                } else {
                    t.name.clone()
                },
                parent: t.parent.map(|p| at[p]),
                position: x.t,
                rotation: x.q,
                scale: x.s,
                active: true,
            }
        })
        .collect();
    let mut bundle = Bundle::new(UnityTarget::Unity2020);
    bundle.rig = Some(RigSpec {
        joints,
        component: RigComponent::AnimatorWithAvatar(Box::new(avatar_spec)),
        renderers: Vec::new(),
    });
    Fixture {
        bytes: write_bundle(&bundle).expect("the fixture writes"),
        above,
        extra: extra.map(|j| paths[j].clone()),
    }
}

/// morbman's rig joint of human node `h` (node 0 is the root there).
fn morbman_joint(avatar: &AvatarData, skeleton: &Skeleton, h: usize) -> usize {
    let id = avatar.human.skeleton.nodes[h].id;
    skeleton
        .joint_by_hash(id)
        .unwrap_or_else(|| panic!("morbman's rig has human node {h}"))
}

fn push(tree: &mut Vec<TreeJoint>, name: &str, parent: Option<usize>, rest: Trs) -> usize {
    tree.push(TreeJoint {
        name: name.into(),
        parent,
        rest,
    });
    tree.len() - 1
}

/// The tree's joints parents first, children in the order they were added.
fn preorder(tree: &[TreeJoint]) -> Vec<usize> {
    fn visit(tree: &[TreeJoint], j: usize, out: &mut Vec<usize>) {
        out.push(j);
        for (c, child) in tree.iter().enumerate() {
            if child.parent == Some(j) {
                visit(tree, c, out);
            }
        }
    }
    let mut out = Vec::new();
    visit(tree, 0, &mut out);
    assert_eq!(out.len(), tree.len(), "every joint hangs below the root");
    out
}

/// Each joint's path below the root ("" for the root).
fn tree_paths(tree: &[TreeJoint]) -> Vec<String> {
    (0..tree.len())
        .map(|j| {
            let mut parts = Vec::new();
            let mut at = j;
            while let Some(p) = tree[at].parent {
                parts.push(tree[at].name.clone());
                at = p;
            }
            parts.reverse();
            parts.join("/")
        })
        .collect()
}

/// The avatar of the fixture rig: its whole tree as the avatar skeleton (rest pose), and
/// morbman's human skeleton bound to `human_joint` with T-pose `tpose`.
fn avatar_spec(
    source: &AvatarData,
    tree: &[TreeJoint],
    order: &[usize],
    paths: &[String],
    human_joint: &[usize],
    tpose: &[Xform],
) -> AvatarSpec {
    let node_of: BTreeMap<usize, usize> = order.iter().enumerate().map(|(i, &j)| (j, i)).collect();
    let ids: Vec<u32> = order.iter().map(|&j| path_hash(&paths[j])).collect();
    let poses: Vec<XformSpec> = order.iter().map(|&j| trs_xform(&tree[j].rest)).collect();
    let h = &source.human;
    let human_to_avatar: Vec<i32> = human_joint.iter().map(|j| node_of[j] as i32).collect();
    let mut avatar_to_human = vec![-1; order.len()];
    for (hn, &a) in human_to_avatar.iter().enumerate() {
        avatar_to_human[a as usize] = hn as i32;
    }
    let index = |o: Option<usize>| o.map_or(-1, |v| v as i32);
    AvatarSpec {
        name: format!("{RIG_NAME}Avatar"),
        skeleton: SkeletonSpec {
            nodes: order
                .iter()
                .map(|&j| (tree[j].parent.map_or(-1, |p| node_of[&p] as i32), -1))
                .collect(),
            ids: ids.clone(),
            axes: Vec::new(),
        },
        skeleton_pose: poses.clone(),
        default_pose: poses,
        human: HumanSpec {
            root_x: h.root_x,
            skeleton: SkeletonSpec {
                nodes: h
                    .skeleton
                    .nodes
                    .iter()
                    .map(|n| (index(n.parent), index(n.axes)))
                    .collect(),
                ids: human_joint.iter().map(|&j| path_hash(&paths[j])).collect(),
                axes: h.skeleton.axes.clone(),
            },
            skeleton_pose: tpose.to_vec(),
            left_hand: h.hands[0].iter().map(|&o| index(o)).collect(),
            right_hand: h.hands[1].iter().map(|&o| index(o)).collect(),
            bone_index: h.body.iter().map(|&o| index(o)).collect(),
            bone_mass: h.masses.to_vec(),
            scale: h.scale,
            twists: [
                h.arm_twist,
                h.fore_arm_twist,
                h.upper_leg_twist,
                h.leg_twist,
            ],
            stretches: [h.arm_stretch, h.leg_stretch],
            feet_spacing: h.feet_spacing,
            has_left_hand: h.has_left_hand,
            has_right_hand: h.has_right_hand,
            has_tdof: h.has_tdof,
        },
        human_to_avatar,
        avatar_to_human,
        tos: order
            .iter()
            .map(|&j| (path_hash(&paths[j]), paths[j].clone()))
            .collect(),
    }
}

fn rest(t: [f32; 3], q: [f32; 4], s: [f32; 3]) -> Trs {
    Trs {
        t: V3::from_f32(t),
        q: Q::from_f32(q).normalize(),
        s: V3::from_f32(s),
    }
}

pub fn xform_trs(x: &Xform) -> Trs {
    rest(x.t, x.q, x.s)
}

fn trs_xform(x: &Trs) -> Xform {
    Xform {
        t: x.t.to_f32(),
        q: x.q.to_f32(),
        s: x.s.to_f32(),
    }
}
