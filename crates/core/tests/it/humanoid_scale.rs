//! Humanoid poses do not depend on where a rig's scale sits (issue 30, item 0): morbman's
//! rig laid out as a Blender FBX import is (an ancestor `Body` scaled 100, the armature
//! `metarig` scaled 1.024 and turned -90° about X, the Hips' own Transform carrying the
//! scale that puts the bones' translations in centimetres), and with the scale on the Hips'
//! own node alone, each with the avatar's T-pose stored both ways Unity may store it (in the
//! Animator's units, the scale folded into the translations; or as the rig's own local
//! transforms), at morbman's size and at 2.5 times it.
//!
//! Every posed joint must land where it lands on morbman itself (times the size factor),
//! and the posed centre of mass at `RootT × m_Scale` (the closed form of §4.4).

use clipscope_authoring::fixtures::humanoid as humanoid_fixture;

use clipscope_core::avatar::{AvatarData, HumanBone, Xform};
use clipscope_core::humanoid::math::{Q, Trs, V3};
use clipscope_core::humanoid::{ClipMuscles, HumanPose, HumanoidRig, JointLocal, PoseOptions};
use clipscope_core::path_hash;
use clipscope_core::rig::{Joint, Skeleton};
use clipscope_core::{ClipData, pose};

use humanoid_fixture::{Morbman, angle_between, humanoid_clips, morbman, q4, v3};

/// Where the scale sits.
#[derive(Clone, Copy, Debug)]
enum Shape {
    /// `Body` (100) / `metarig` (1.024, turned) above the Hips; the Hips' world scale
    /// 0.01, so every bone below it is in centimetres.
    Blender,
    /// Nothing above the Hips; the Hips' own scale is 0.01 (bones in centimetres).
    HipsOnly,
    /// A Blender armature as Unity imports it (issue 41, item 3): `metarig` scaled 102.4 and
    /// turned -90° about X right under the unscaled root, the Hips and every bone below at
    /// scale 1, so their translations are in the armature's units (metres / 102.4). The
    /// avatar's human skeleton starts at the armature (node 0 is `metarig`, the Hips'
    /// parent, as on real avatars made from such a rig) and stores the armature's own
    /// transform as node 0's.
    Armature,
}

/// How the avatar stores its T-pose.
#[derive(Clone, Copy, Debug)]
enum TPose {
    /// In the Animator's units: the scale folded into the translations, scales 1.
    Folded,
    /// As the rig's own local transforms (scales and centimetres as the rig has them).
    RigLocal,
}

/// One joint placed in the world, with the world scale it should carry.
#[derive(Clone, Debug)]
struct Placed {
    name: String,
    parent: Option<usize>,
    world: Trs,
}

fn trs(j: &JointLocal) -> Trs {
    Trs {
        t: v3(j.t),
        q: q4(j.q),
        s: v3(j.s),
    }
}

/// The local transform that puts `world` under `parent` (uniform scales).
fn local_under(parent: &Trs, world: &Trs) -> Trs {
    parent.local_of(world)
}

fn xform(x: &Trs) -> Xform {
    Xform {
        t: x.t.to_f32(),
        q: x.q.to_f32(),
        s: x.s.to_f32(),
    }
}

/// World transforms of the human skeleton's T-pose (node 0 at the identity).
fn tpose_world(avatar: &AvatarData) -> Vec<Trs> {
    let mut out: Vec<Trs> = Vec::new();
    for (node, x) in avatar.human.skeleton.nodes.iter().zip(&avatar.human.tpose) {
        let local = Trs {
            t: v3(x.t),
            q: q4(x.q),
            s: v3(x.s),
        };
        out.push(match node.parent {
            Some(p) => out[p].then(&local),
            None => Trs::IDENTITY,
        });
    }
    out
}

/// A fixture: morbman's rig and avatar laid out as `shape`, sized `k` times morbman,
/// the T-pose stored as `tpose`.
fn layout(m: &Morbman, shape: Shape, tpose: TPose, k: f64) -> (AvatarData, Skeleton) {
    let rest: Vec<JointLocal> = m.skeleton.joints.iter().map(JointLocal::rest).collect();
    let world = pose::world(&m.skeleton, &rest);
    let hips_joint = m
        .skeleton
        .joint_by_hash(m.avatar.bone_path_hash(HumanBone::Hips).expect("hips"))
        .expect("morbman's hips joint");
    let below_hips = |j: usize| {
        let mut at = Some(j);
        while let Some(a) = at {
            if a == hips_joint {
                return true;
            }
            at = m.skeleton.joints[a].parent;
        }
        false
    };
    let grow = |w: &Trs, s: f64| Trs {
        t: w.t * k,
        q: w.q,
        s: V3::new(s, s, s),
    };
    let metarig_q = Q::axis_angle(V3::new(1.0, 0.0, 0.0), -0.5 * std::f64::consts::PI);
    let mut placed = vec![Placed {
        name: String::new(),
        parent: None,
        world: Trs::IDENTITY,
    }];
    let above = match shape {
        Shape::Blender => {
            placed.push(Placed {
                name: "Body".into(),
                parent: Some(0),
                world: grow(&Trs::IDENTITY, 100.0 * k),
            });
            placed.push(Placed {
                name: "metarig".into(),
                parent: Some(1),
                world: Trs {
                    q: metarig_q,
                    ..grow(&Trs::IDENTITY, 102.4 * k)
                },
            });
            2
        }
        Shape::Armature => {
            placed.push(Placed {
                name: "metarig".into(),
                parent: Some(0),
                world: Trs {
                    q: metarig_q,
                    ..grow(&Trs::IDENTITY, 102.4 * k)
                },
            });
            1
        }
        Shape::HipsOnly => 0,
    };
    let offset = placed.len() - 1;
    for (j, joint) in m.skeleton.joints.iter().enumerate().skip(1) {
        let s = match (shape, below_hips(j)) {
            (Shape::Armature, true) => 102.4 * k,
            (_, true) => 0.01 * k,
            (_, false) => k,
        };
        placed.push(Placed {
            name: joint.name.clone(),
            parent: joint
                .parent
                .map(|p| if p == 0 { above } else { p + offset }),
            world: grow(&trs(&world[j]), s),
        });
    }
    let joints: Vec<Joint> = skeleton_of(&placed);
    let skeleton = Skeleton { joints };
    let new_joint = |old: usize| if old == 0 { 0 } else { old + offset };
    // The avatar: morbman's, its nodes renamed to the new paths, sized k, T-pose as asked.
    let mut avatar = m.avatar.clone();
    let old_world = tpose_world(&m.avatar);
    let human_joints: Vec<usize> = m
        .avatar
        .human
        .skeleton
        .nodes
        .iter()
        .map(|n| new_joint(m.skeleton.joint_by_hash(n.id).expect("morbman joint")))
        .collect();
    let mut human_joints = human_joints;
    if matches!(shape, Shape::Armature) {
        human_joints[0] = above;
        avatar.human.tpose[0] = xform(&placed[above].world);
    }
    for (h, node) in avatar.human.skeleton.nodes.iter_mut().enumerate() {
        node.id = skeleton.joints[human_joints[h]].path_hash;
    }
    avatar.tos = skeleton
        .joints
        .iter()
        .map(|j| (j.path_hash, j.path.clone()))
        .collect();
    let hips = m.avatar.bone_human_node(HumanBone::Hips).expect("hips");
    for (h, x) in avatar.human.tpose.iter_mut().enumerate() {
        let Some(p) = m.avatar.human.skeleton.nodes[h].parent else {
            continue;
        };
        *x = match tpose {
            TPose::Folded if h == hips && matches!(shape, Shape::Armature) => {
                // Under the armature's turn, in the Animator's units.
                let parent = Trs {
                    s: V3::ONE,
                    ..placed[above].world
                };
                let me = Trs {
                    t: old_world[h].t * k,
                    ..old_world[h]
                };
                xform(&local_under(&parent, &me))
            }
            TPose::Folded => {
                let local = old_world[p].local_of(&old_world[h]);
                xform(&Trs {
                    t: local.t * k,
                    ..local
                })
            }
            TPose::RigLocal => {
                let scale_of = |h: usize| {
                    let j = human_joints[h];
                    skeleton_world_scale(&placed, j)
                };
                let parent_world = if h == hips {
                    placed[skeleton.joints[human_joints[h]].parent.expect("parent")].world
                } else {
                    let w = &old_world[p];
                    Trs {
                        t: w.t * k,
                        q: w.q,
                        s: V3::new(scale_of(p), scale_of(p), scale_of(p)),
                    }
                };
                let me = &old_world[h];
                let me = Trs {
                    t: me.t * k,
                    q: me.q,
                    s: V3::new(scale_of(h), scale_of(h), scale_of(h)),
                };
                xform(&local_under(&parent_world, &me))
            }
        };
    }
    let h = &mut avatar.human;
    for axes in &mut h.skeleton.axes {
        axes.length = (f64::from(axes.length) * k) as f32;
    }
    h.scale = (f64::from(h.scale) * k) as f32;
    h.root_x.t = (v3(h.root_x.t) * k).to_f32();
    (avatar, skeleton)
}

fn skeleton_world_scale(placed: &[Placed], j: usize) -> f64 {
    placed[j].world.s.x
}

/// The rig of placed joints: local rests under each parent, paths and their hashes.
fn skeleton_of(placed: &[Placed]) -> Vec<Joint> {
    let mut paths: Vec<String> = Vec::new();
    placed
        .iter()
        .enumerate()
        .map(|(j, p)| {
            let (path, local) = match p.parent {
                Some(parent) => {
                    let prefix = &paths[parent];
                    let path = if prefix.is_empty() {
                        p.name.clone()
                    } else {
                        format!("{prefix}/{}", p.name)
                    };
                    (path, local_under(&placed[parent].world, &p.world))
                }
                None => (String::new(), Trs::IDENTITY),
            };
            paths.push(path.clone());
            let x = xform(&local);
            Joint {
                name: p.name.clone(),
                path_hash: path_hash(&path),
                path,
                parent: p.parent.filter(|&q| q < j),
                position: x.t,
                rotation: x.q,
                scale: x.s,
                transform_id: 0,
            }
        })
        .collect()
}

/// Posed world transforms of `rig` on `skeleton` by `clip` at `t` (root motion on).
fn posed(clip: &ClipData, skeleton: &Skeleton, rig: &HumanoidRig, t: f32) -> Vec<JointLocal> {
    let poser = pose::ClipPoser::new(clip, skeleton, Some(rig));
    assert!(poser.is_humanoid());
    poser.world(&poser.locals(t, &PoseOptions::default()))
}

fn check(shape: Shape, tpose: TPose, k: f64) {
    let (Some(m), Some(clips)) = (morbman(), humanoid_clips()) else {
        return;
    };
    let reference = HumanoidRig::new(&m.avatar, &m.skeleton).expect("morbman poses");
    let (avatar, skeleton) = layout(&m, shape, tpose, k);
    let rig = HumanoidRig::new(&avatar, &skeleton).expect("the fixture poses");
    let case = format!("{shape:?}/{tpose:?}/x{k}");
    let mut worst = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for clip in &clips {
        let muscles = ClipMuscles::new(clip);
        for i in 0..=6 {
            let t = clip.start + clip.length() * i as f32 / 6.0;
            let want = posed(clip, &m.skeleton, &reference, t);
            let got = posed(clip, &skeleton, &rig, t);
            for (bone, _) in m.avatar.mapped_bones() {
                let (Some(a), Some(b)) = (reference.bone_joint(bone), rig.bone_joint(bone)) else {
                    continue;
                };
                let (w, g) = (&want[a], &got[b]);
                let miss = (v3(g.t) - v3(w.t) * k).length() / k;
                let turn = angle_between(q4(g.q), q4(w.q));
                assert!(
                    miss < 2e-5 && turn < 1e-4,
                    "{case}: {} at {t}: {bone:?} {:?} against {:?} x {k} (turned {turn})",
                    clip.name,
                    g.t,
                    w.t
                );
                worst.0 = worst.0.max(miss);
                worst.1 = worst.1.max(turn);
            }
            // The closed form: the posed centre of mass is RootT × m_Scale.
            let mut pose = HumanPose::default();
            muscles.sample(clip, t, &mut pose);
            worst.3 = worst
                .3
                .max(goals_miss(&m, &avatar, &rig, &mut pose, &want, &got, k));
            let com = v3(rig.centre_of_mass(&got).expect("every part is in the rig"));
            let want_com = v3(pose.root_t) * f64::from(avatar.human.scale);
            let off = (com - want_com).length() / k;
            assert!(off < 2e-5, "{case}: {} at {t}: COM {com:?}", clip.name);
            worst.2 = worst.2.max(off);
        }
    }
    println!(
        "{case}: worst joint miss {:.2e} m (per unit size), {:.2e} rad, COM {:.2e}, goals \
         {:.2e} of the human scale",
        worst.0, worst.1, worst.2, worst.3
    );
}

/// Writes into `pose` the IK goals of morbman's own pose `want` (its world transforms, sized
/// `k` times), by the frame `humanoid.md` §5 measured on Unity's data: `goalT =
/// conj(RootQ)·(P/s − RootT)` (a foot's P its sole: the ankle plus `R·postQ·(m_Length, 0,
/// 0)`), `goalQ = conj(RootQ)·R·postQ`. Then measures, on the fixture's posed world `got`,
/// how far its soles and hands are from those goals, as a fraction of the human scale, and
/// fails past 1e-4: the goals Unity stored from the pose land where the fixture's chain
/// puts the limbs.
fn goals_miss(
    m: &Morbman,
    avatar: &AvatarData,
    rig: &HumanoidRig,
    pose: &mut HumanPose,
    want: &[JointLocal],
    got: &[JointLocal],
    k: f64,
) -> f64 {
    let reference = HumanoidRig::new(&m.avatar, &m.skeleton).expect("morbman poses");
    let s = f64::from(avatar.human.scale);
    let root_t = v3(pose.root_t);
    let root_q = q4(pose.root_q).normalize();
    let bones = [
        HumanBone::LeftFoot,
        HumanBone::RightFoot,
        HumanBone::LeftHand,
        HumanBone::RightHand,
    ];
    for (g, bone) in bones.iter().enumerate() {
        let w = &want[reference.bone_joint(*bone).expect("mapped")];
        let axes = avatar.bone_axes(*bone).expect("axes");
        let r = q4(w.q) * Q::from_f32(axes.post_q).normalize();
        let mut p = v3(w.t) * k;
        if g < 2 {
            p = p + r.rotate(V3::new(f64::from(axes.length), 0.0, 0.0));
        }
        pose.goals[g].t = root_q.conj().rotate(p * (1.0 / s) - root_t).to_f32();
        pose.goals[g].q = (root_q.conj() * r).to_f32();
    }
    let options = PoseOptions::default();
    let mut worst = 0.0f64;
    for d in rig.foot_goal_distances(pose, &options, got) {
        worst = worst.max(f64::from(d.expect("feet mapped")) / s);
    }
    let goals = rig.goals(pose, &options);
    for (g, bone) in bones.iter().enumerate().skip(2) {
        let hand = &got[rig.bone_joint(*bone).expect("mapped")];
        worst = worst.max((v3(goals[g].t) - v3(hand.t)).length() / s);
    }
    assert!(
        worst < 1e-4,
        "a goal {worst} of the human scale from its limb"
    );
    worst
}

#[test]
fn a_blender_armature_scaled_100_lands_the_clips_goals() {
    check(Shape::Armature, TPose::RigLocal, 1.0);
    check(Shape::Armature, TPose::Folded, 1.0);
    check(Shape::Armature, TPose::RigLocal, 2.5);
    check(Shape::Armature, TPose::Folded, 2.5);
}

#[test]
fn a_blender_rig_with_the_tpose_folded_poses_like_morbman() {
    check(Shape::Blender, TPose::Folded, 1.0);
    check(Shape::Blender, TPose::Folded, 2.5);
}

#[test]
fn a_blender_rig_with_the_rigs_own_tpose_poses_like_morbman() {
    check(Shape::Blender, TPose::RigLocal, 1.0);
    check(Shape::Blender, TPose::RigLocal, 2.5);
}

#[test]
fn scale_on_the_hips_own_node_poses_like_morbman() {
    check(Shape::HipsOnly, TPose::Folded, 1.0);
    check(Shape::HipsOnly, TPose::RigLocal, 1.0);
    check(Shape::HipsOnly, TPose::Folded, 2.5);
    check(Shape::HipsOnly, TPose::RigLocal, 2.5);
}
