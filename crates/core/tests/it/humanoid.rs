//! Humanoid clips on humanoid rigs, on the real avatar and clips of the shared data. No file
//! in reach holds Unity's own pose for a humanoid clip, so these tests check what the maths
//! of `humanoid.md` guarantees: stored values read back, symmetry, exact limits, the stored
//! body rotation, mirror and retargeting invariants, and plausibility on every real clip.

use crate::common;
use clipscope_authoring::fixtures::humanoid as fixture;

use clipscope_core::avatar::{AvatarData, HumanBone};
use clipscope_core::humanoid::body::{mass_parts, tpose_body};
use clipscope_core::humanoid::math::{Q, V3};
use clipscope_core::humanoid::muscles::BoneAxes;
use clipscope_core::humanoid::{
    ClipMuscles, HumanPose, HumanoidRig, JointLocal, MUSCLE_COUNT, PoseOptions, RigError,
    muscle_bone, report,
};
use clipscope_core::unity::Int;
use clipscope_core::unity::avatar::{AvatarObject, Node};
use clipscope_core::{OpenOptions, Workspace};
use common::data;
use fixture::{
    angle_between, humanoid_clips, mirror, morbman, only_avatar, pose_of, q4, rebuilt, v3,
};

#[test]
fn morbman_avatar_reads_as_stored() {
    let Some(m) = morbman() else { return };
    let av = &m.avatar;
    assert_eq!(av.name, "morbmanAvatar");
    assert_eq!(av.skeleton.nodes.len(), 35);
    assert_eq!(av.human.skeleton.nodes.len(), 21);
    assert_eq!(av.mapped_bones().count(), 19);
    // The human scale is the T-pose centre of mass height (§1.1).
    assert_eq!(av.human.scale, 0.460_744_86);
    assert_eq!(av.human.root_x.t[1], av.human.scale);
    // Masses: the defaults over 82.5, UpperChest's 12 merged into Chest, Toes' 0.2 into Foot.
    let mass = |b| av.bone_mass(b) * 82.5;
    assert!((mass(HumanBone::Chest) - 24.0).abs() < 1e-4);
    assert!((mass(HumanBone::LeftFoot) - 1.0).abs() < 1e-4);
    assert_eq!(mass(HumanBone::UpperChest), 0.0);
    let total: f32 = av.human.masses.iter().sum();
    assert!((total - 1.0).abs() < 1e-5, "{total}");
    for twist in [
        av.human.arm_twist,
        av.human.fore_arm_twist,
        av.human.upper_leg_twist,
        av.human.leg_twist,
    ] {
        assert_eq!(twist, 0.5);
    }
    assert!(!av.human.has_tdof && !av.human.has_left_hand);
    // Bones, their nodes and paths.
    assert_eq!(av.bone_path(HumanBone::Hips), Some("Armature"));
    assert_eq!(
        av.bone_path(HumanBone::RightHand),
        Some("Armature/LowerSpine/Spine/UpperSpine/Shoulder.R/UpperArm.R/LowerArm.R/Hand.R")
    );
    assert_eq!(
        av.bone_path(HumanBone::Chest),
        Some("Armature/LowerSpine/Spine/UpperSpine")
    );
    for missing in [HumanBone::UpperChest, HumanBone::LeftToes, HumanBone::Jaw] {
        assert_eq!(av.human_bone_node(missing), None, "{missing}");
    }
    let hash = clipscope_core::path_hash("Armature/LowerSpine/UpperLeg.L");
    assert_eq!(av.bone_of_path_hash(hash), Some(HumanBone::LeftUpperLeg));
    // Limits in radians; ZYRoll axes everywhere; the human and avatar maps agree.
    let spine = av.bone_axes(HumanBone::Spine).unwrap();
    assert_eq!((spine.min[0], spine.max[2]), (-0.698_131_7, 0.698_131_7));
    assert!(
        av.mapped_bones()
            .all(|(b, _)| av.bone_axes(b).unwrap().kind == 1)
    );
    for (h, &a) in av.human_to_avatar.iter().enumerate() {
        assert_eq!(av.avatar_to_human[a], Some(h));
        assert_eq!(av.human.skeleton.nodes[h].id, av.skeleton.nodes[a].id);
    }
}

#[test]
fn copy_bundle_avatar_is_empty_so_not_humanoid() {
    let Some(path) = data("binary/lessscarymannequins/copy.bundle") else {
        return;
    };
    let ws = Workspace::open(&[path], &OpenOptions::default());
    let av = only_avatar(&ws);
    assert_eq!(av.name, "quinnAvatar");
    assert!(av.skeleton.nodes.is_empty() && av.human.skeleton.nodes.is_empty());
    assert!(!av.is_human());
    let rig = &ws.rigs[0];
    let err = HumanoidRig::new(&av, &rig.skeleton).unwrap_err();
    assert!(matches!(err, RigError::NotHumanoid(_)), "{err}");
}

#[test]
fn t_pose_body_rotation_reproduces_the_stored_root_x() {
    let Some(m) = morbman() else { return };
    let (com, q) = tpose_body(&m.avatar).unwrap();
    let stored = q4(m.avatar.human.root_x.q);
    let angle = angle_between(q, stored);
    assert!(angle < 1e-6, "body rotation off by {angle} rad");
    // The centre of mass is Unity's too (`body::mass_parts`, with Unity's left forearm row):
    // it reproduces the stored m_RootX.t, measured 3e-8 of the human scale on morbman.
    let scale = f64::from(m.avatar.human.scale);
    let off = com - v3(m.avatar.human.root_x.t);
    assert!(off.length() < 1e-5 * scale, "{off:?}");
}

/// Where the mirror-symmetric centre-of-mass table would put a posed body, relative to where
/// Unity's puts it. Unity's left forearm centre is mid(LeftUpperArm, LeftHand), not
/// mid(LeftLowerArm, LeftHand) (`body::mass_parts`), so its centre of mass is
/// `w/2 × (LeftUpperArm − LeftLowerArm)` off the symmetric one (w the forearm's mass
/// fraction) and the hips placement moves the whole body back by that: adding this offset
/// to every joint gives the pose of the symmetric table. Poses are mirror images only up to
/// it (at most w × the upper arm, 3.9 mm on morbman).
fn symmetric_table_offset(avatar: &AvatarData, rig: &HumanoidRig, world: &[JointLocal]) -> V3 {
    let total: f64 = mass_parts(avatar).iter().map(|p| p.mass).sum();
    let w = f64::from(avatar.bone_mass(HumanBone::LeftLowerArm)) / total;
    let at = |b: HumanBone| v3(world[rig.bone_joint(b).expect("mapped")].t);
    (at(HumanBone::LeftUpperArm) - at(HumanBone::LeftLowerArm)) * (w / 2.0)
}

#[test]
fn all_muscles_at_zero_give_an_exactly_mirror_symmetric_pose() {
    let Some(m) = morbman() else { return };
    let rig = HumanoidRig::new(&m.avatar, &m.skeleton).unwrap();
    let world = pose_of(&rig, &HumanPose::default(), true);
    // The joints are exactly symmetric; the body's placement is not, by Unity's asymmetric
    // centre of mass only: undone, the pose is its own mirror image.
    let offset = symmetric_table_offset(&m.avatar, &rig, &world);
    let mut checked = 0;
    for bone in HumanBone::all() {
        let (Some(a), Some(b)) = (rig.bone_joint(bone), rig.bone_joint(bone.mirror())) else {
            continue;
        };
        let (pa, pb) = (v3(world[a].t) + offset, v3(world[b].t) + offset);
        let d = (pa - mirror(pb)).length();
        assert!(d < 1e-6, "{bone}: {d} m from its mirror image");
        checked += 1;
    }
    assert_eq!(checked, 19);
    // As placed, the hips sit off the mirror plane by the offset's x: 1.4 mm on morbman.
    let hips = v3(world[rig.bone_joint(HumanBone::Hips).unwrap()].t);
    let off_plane = (hips - mirror(hips)).length();
    assert!(
        (off_plane - 2.0 * offset.x.abs()).abs() < 1e-6 && offset.x.abs() > 1e-3,
        "hips {off_plane} m from their mirror image, offset {offset:?}"
    );
    // Not the T-pose: the hands hang down and forward of the shoulders (§1.2).
    let (hand, arm) = (
        world[rig.bone_joint(HumanBone::LeftHand).unwrap()].t,
        world[rig.bone_joint(HumanBone::LeftUpperArm).unwrap()].t,
    );
    assert!(
        hand[1] < arm[1] && hand[2] > arm[2] + 0.1,
        "{hand:?} {arm:?}"
    );
}

/// The bones whose twist TwistSolve shares with their child: they keep f = 0.5 of it.
const TWIST_PARENTS: [HumanBone; 8] = [
    HumanBone::LeftUpperArm,
    HumanBone::RightUpperArm,
    HumanBone::LeftLowerArm,
    HumanBone::RightLowerArm,
    HumanBone::LeftUpperLeg,
    HumanBone::RightUpperLeg,
    HumanBone::LeftLowerLeg,
    HumanBone::RightLowerLeg,
];

#[test]
fn one_muscle_at_plus_and_minus_one_turns_its_bone_by_the_stored_limit() {
    let Some(m) = morbman() else { return };
    let rig = HumanoidRig::new(&m.avatar, &m.skeleton).unwrap();
    let mut checked = 0;
    for muscle in 0..MUSCLE_COUNT {
        let (bone, axis) = muscle_bone(muscle).unwrap();
        let (Some(joint), Some(axes)) = (rig.bone_joint(bone), m.avatar.bone_axes(bone)) else {
            assert!(rig.unmapped_muscles().contains(&muscle));
            continue;
        };
        let ax = BoneAxes::new(axes);
        for u in [1.0f32, -1.0] {
            let mut pose = HumanPose::default();
            pose.muscles[muscle] = u;
            let mut locals = vec![JointLocal::IDENTITY; rig.joint_count()];
            rig.pose(&pose, &PoseOptions::default(), &mut locals);
            // The rotation in the bone's own axes frame.
            let a = ax.pre_q.conj() * q4(locals[joint].q) * ax.post_q;
            let limit = f64::from(if u > 0.0 {
                axes.max[axis]
            } else {
                -axes.min[axis]
            });
            let share = if axis == 0 && TWIST_PARENTS.contains(&bone) {
                0.5
            } else {
                1.0
            };
            let expected = limit * share;
            assert!(
                (a.angle() - expected).abs() < 1e-5,
                "muscle {muscle} at {u}: {} rad, limit {expected}",
                a.angle()
            );
            // About the muscle's own axis, in the direction its sign gives.
            let mut unit = [0.0; 3];
            unit[axis] = f64::from(axes.sgn[axis]) * f64::from(u.signum());
            let dir = Q::axis_angle(V3::new(unit[0], unit[1], unit[2]), expected);
            assert!(
                angle_between(a, dir) < 1e-5,
                "muscle {muscle} at {u}: {a:?}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 2 * 44, "morbman maps 44 of the 95 muscles");
}

#[test]
fn a_twist_muscle_turns_the_limb_by_half_and_its_child_by_the_whole() {
    let Some(m) = morbman() else { return };
    let rig = HumanoidRig::new(&m.avatar, &m.skeleton).unwrap();
    let forearm_twist = 43; // Left Forearm Twist In-Out
    let mut pose = HumanPose::default();
    pose.muscles[forearm_twist] = 1.0;
    let twisted = pose_of(&rig, &pose, true);
    let neutral = pose_of(&rig, &HumanPose::default(), true);
    let joint = |b| rig.bone_joint(b).unwrap();
    let (elbow, hand) = (joint(HumanBone::LeftLowerArm), joint(HumanBone::LeftHand));
    let axes = BoneAxes::new(m.avatar.bone_axes(HumanBone::LeftLowerArm).unwrap());
    let full = axes.rotation(axes.angles([1.0, 0.0, 0.0]));
    let zero = axes.rotation([0.0; 3]);
    // The hand's world rotation is what a whole twist at the elbow gives.
    let upper = q4(neutral[joint(HumanBone::LeftUpperArm)].q);
    let hand_local = (upper * zero).conj() * q4(neutral[hand].q);
    let expected = upper * full * hand_local;
    let off = angle_between(q4(twisted[hand].q), expected);
    assert!(off < 1e-5, "hand off by {off} rad");
    // The forearm itself turned by half the limit (0.5 × 90°).
    let turned = angle_between(q4(twisted[elbow].q), q4(neutral[elbow].q));
    assert!(
        (turned - 0.25 * std::f64::consts::PI).abs() < 1e-5,
        "{turned}"
    );
}

#[test]
fn a_clip_and_its_mirror_give_mirrored_poses() {
    let (Some(m), Some(clips)) = (morbman(), humanoid_clips()) else {
        return;
    };
    let rig = HumanoidRig::new(&m.avatar, &m.skeleton).unwrap();
    let (mut worst, mut placed) = (0.0f64, 0.0f64);
    for clip in &clips {
        let muscles = ClipMuscles::new(clip);
        for i in 0..=20 {
            let t = clip.start + clip.length() * i as f32 / 20.0;
            let mut pose = HumanPose::default();
            muscles.sample(clip, t, &mut pose);
            let a = pose_of(&rig, &pose, true);
            let b = pose_of(&rig, &pose.mirrored(), true);
            // Mirror images up to Unity's asymmetric centre of mass, undone on each side.
            let (da, db) = (
                symmetric_table_offset(&m.avatar, &rig, &a),
                symmetric_table_offset(&m.avatar, &rig, &b),
            );
            for bone in HumanBone::all() {
                let (Some(x), Some(y)) = (rig.bone_joint(bone), rig.bone_joint(bone.mirror()))
                else {
                    continue;
                };
                let (pa, pb) = (v3(a[x].t), v3(b[y].t));
                worst = worst.max((pa + da - mirror(pb + db)).length());
                placed = placed.max((pa - mirror(pb)).length());
            }
        }
    }
    eprintln!(
        "mirror: worst joint distance {worst:e} m with the centre-of-mass asymmetry undone, \
         {placed:e} m as placed"
    );
    assert!(worst < 2e-6, "{worst}");
    // As placed, no more than the two offsets: w × upper arm = 3.9 mm on morbman.
    assert!(placed < 3.9e-3, "{placed}");
}

#[test]
fn text_floss_and_bundle_floss_give_the_same_poses() {
    let (Some(m), Some(text_path), Some(clips)) = (
        morbman(),
        data("yaml/plateupemotesapi/Floss.anim"),
        humanoid_clips(),
    ) else {
        return;
    };
    let ws = Workspace::open(&[text_path], &OpenOptions::default());
    let text = ws.clips[0].data.as_ref().expect("text Floss decodes");
    let binary = clips.iter().find(|c| c.name == "Floss").unwrap();
    let (tm, bm) = (ClipMuscles::new(text), ClipMuscles::new(binary));
    let slots = |m: &ClipMuscles| {
        let mut s: Vec<usize> = m.curves.iter().map(|c| c.1).collect();
        s.sort_unstable();
        s
    };
    assert_eq!(slots(&tm), (7..=136).collect::<Vec<_>>());
    assert_eq!(slots(&tm), slots(&bm));
    let rig = HumanoidRig::new(&m.avatar, &m.skeleton).unwrap();
    let frames = (binary.length() * binary.sample_rate).round() as usize;
    let mut worst = 0.0f64;
    for f in 0..=frames {
        let t = f as f32 / binary.sample_rate;
        let (mut a, mut b) = (HumanPose::default(), HumanPose::default());
        tm.sample(text, t, &mut a);
        bm.sample(binary, t, &mut b);
        let (wa, wb) = (pose_of(&rig, &a, true), pose_of(&rig, &b, true));
        for (x, y) in wa.iter().zip(&wb) {
            worst = worst.max((v3(x.t) - v3(y.t)).length());
            worst = worst.max(angle_between(q4(x.q), q4(y.q)));
        }
    }
    eprintln!("Floss text vs bundle: worst {worst:e} (m or rad)");
    assert!(worst < 2e-6, "{worst}");
}

#[test]
fn real_clips_keep_feet_near_the_floor_and_never_jump() {
    let (Some(m), Some(clips)) = (morbman(), humanoid_clips()) else {
        return;
    };
    let stretched = rebuilt(&m.avatar, "long legs", true, |b| match b {
        Some(b) if b.name().contains("Leg") || b.name().contains("Foot") => 1.3,
        _ => 1.0,
    });
    // morbman's own feet stay within 5 cm; on the long-legged copy the leg angles move the
    // feet 1.3 times as far (no Foot IK corrects them, as in Unity without it).
    for (av, bound) in [(&m.avatar, 0.05), (&stretched, 0.05 * 1.3)] {
        let rig = HumanoidRig::new(av, &m.skeleton).unwrap();
        let feet = [HumanBone::LeftFoot, HumanBone::RightFoot].map(|b| rig.bone_joint(b).unwrap());
        // The foot's height above the ground in the T-pose (`m_Length` of its axes).
        let ankle = f64::from(av.bone_axes(HumanBone::LeftFoot).unwrap().length);
        for clip in &clips {
            let muscles = ClipMuscles::new(clip);
            let frames = (clip.length() * 60.0).floor() as usize;
            let mut previous: Option<Vec<JointLocal>> = None;
            let (mut lowest, mut highest, mut turn) = (f64::MAX, f64::MIN, 0.0f64);
            for f in 0..=frames {
                let mut pose = HumanPose::default();
                muscles.sample(clip, clip.start + f as f32 / 60.0, &mut pose);
                let world = pose_of(&rig, &pose, true);
                assert!(
                    world
                        .iter()
                        .all(|w| w.t.iter().chain(&w.q).all(|v| v.is_finite())),
                    "{} frame {f}: not finite",
                    clip.name
                );
                // Where the clip stands: its own lower foot goal is on the floor.
                let goals = rig.goals(&pose, &PoseOptions::default());
                let stands = goals[0].t[1].min(goals[1].t[1]) < 0.02;
                let sole = feet
                    .map(|j| f64::from(world[j].t[1]))
                    .into_iter()
                    .fold(f64::MAX, f64::min)
                    - ankle;
                if stands {
                    lowest = lowest.min(sole);
                    highest = highest.max(sole);
                }
                if let Some(prev) = &previous {
                    for (a, b) in prev.iter().zip(&world) {
                        turn = turn.max(angle_between(q4(a.q), q4(b.q)));
                    }
                }
                previous = Some(world);
            }
            eprintln!(
                "{} on {}: sole {lowest:.3}..{highest:.3} m where it stands, largest turn per frame {:.1}°",
                clip.name,
                av.name,
                turn.to_degrees()
            );
            assert!(
                lowest > -bound && highest < bound,
                "{}: {lowest}..{highest}",
                clip.name
            );
            assert!(turn < std::f64::consts::FRAC_PI_2, "{}: {turn}", clip.name);
        }
    }
}

#[test]
fn root_motion_off_keeps_the_body_over_the_origin_facing_forward() {
    let (Some(m), Some(clips)) = (morbman(), humanoid_clips()) else {
        return;
    };
    let rig = HumanoidRig::new(&m.avatar, &m.skeleton).unwrap();
    let clip = clips.iter().find(|c| c.name == "Default Dance").unwrap();
    let mut pose = HumanPose::default();
    ClipMuscles::new(clip).sample(clip, 3.0, &mut pose);
    let scale = f64::from(rig.human_scale());
    for root_motion in [true, false] {
        let world = pose_of(&rig, &pose, root_motion);
        let com = v3(rig.centre_of_mass(&world).unwrap());
        let body = rig.body(&pose, &PoseOptions { root_motion });
        let expected = if root_motion {
            v3(pose.root_t) * scale
        } else {
            V3::new(0.0, f64::from(pose.root_t[1]) * scale, 0.0)
        };
        // The hips are placed so that the posed centre of mass is the body position.
        assert!((com - expected).length() < 1e-5, "{com:?} {expected:?}");
        assert!((v3(body.t) - expected).length() < 1e-6);
        if !root_motion {
            let forward = q4(body.q).rotate(V3::new(0.0, 0.0, 1.0));
            assert!(forward.x.abs() < 1e-6 && forward.z > 0.0, "{forward:?}");
        }
    }
}

#[test]
fn retargeting_keeps_muscle_angles_in_each_avatars_axes_and_scales_the_body() {
    let (Some(m), Some(clips)) = (morbman(), humanoid_clips()) else {
        return;
    };
    // morbman with unit T-pose scales, and the same ×1.25 in other joint frames: positions
    // scale exactly, and every bone's axes frame turns the same in the world.
    let base = rebuilt(&m.avatar, "base", false, |_| 1.0);
    let tall = rebuilt(&m.avatar, "tall", true, |_| 1.25);
    // Longer legs and shorter arms: proportions differ, so only muscle-level angles agree.
    let odd = rebuilt(&m.avatar, "odd", true, |b| match b.map(|b| b.name()) {
        Some(n) if n.contains("Leg") => 1.4,
        Some(n) if n.contains("Arm") => 0.8,
        _ => 1.0,
    });
    let ratio = f64::from(tall.human.scale / base.human.scale);
    assert!((ratio - 1.25).abs() < 1e-6, "{ratio}");
    let avatars = [&base, &tall, &odd, &m.avatar];
    let rigs = avatars.map(|a| HumanoidRig::new(a, &m.skeleton).unwrap());
    let clip = clips.iter().find(|c| c.name == "Dab").unwrap();
    let muscles = ClipMuscles::new(clip);
    for i in 0..=10 {
        let mut pose = HumanPose::default();
        muscles.sample(
            clip,
            clip.start + clip.length() * i as f32 / 10.0,
            &mut pose,
        );
        let worlds: Vec<Vec<JointLocal>> = rigs.iter().map(|r| pose_of(r, &pose, true)).collect();
        let mut locals = vec![vec![JointLocal::IDENTITY; m.skeleton.joints.len()]; 4];
        for (r, l) in rigs.iter().zip(locals.iter_mut()) {
            r.pose(&pose, &PoseOptions::default(), l);
        }
        for (bone, _) in m.avatar.mapped_bones() {
            let j = rigs[0].bone_joint(bone).unwrap();
            let ax: Vec<BoneAxes> = avatars
                .iter()
                .map(|a| BoneAxes::new(a.bone_axes(bone).unwrap()))
                .collect();
            // The world axes frame (world rotation · postQ) is the same on morbman and tall.
            let frame = |k: usize| q4(worlds[k][j].q) * ax[k].post_q;
            assert!(angle_between(frame(0), frame(1)) < 1e-5, "{bone}");
            let (p0, p1) = (v3(worlds[0][j].t), v3(worlds[1][j].t));
            assert!((p1 - p0 * ratio).length() < 1e-5, "{bone}: {p0:?} {p1:?}");
            if bone == HumanBone::Hips {
                continue;
            }
            // The muscle-level angles (inverse ZYRoll in each avatar's own axes) agree on all.
            let angles: Vec<[f64; 3]> = (0..4)
                .map(|k| ax[k].angles_of(q4(locals[k][j].q)))
                .collect();
            for k in 1..4 {
                for d in 0..3 {
                    assert!(
                        (angles[k][d] - angles[0][d]).abs() < 1e-5,
                        "{bone} axis {d}: {angles:?}"
                    );
                }
            }
        }
        // The body stands at RootT times each avatar's own human scale.
        for (r, w) in rigs.iter().zip(&worlds) {
            let com = v3(r.centre_of_mass(w).unwrap());
            let expected = v3(pose.root_t) * f64::from(r.human_scale());
            assert!((com - expected).length() < 1e-5);
        }
    }
}

#[test]
fn unmapped_muscles_are_reported_and_ignored() {
    let (Some(m), Some(clips)) = (morbman(), humanoid_clips()) else {
        return;
    };
    let rig = HumanoidRig::new(&m.avatar, &m.skeleton).unwrap();
    let mut expected: Vec<usize> = vec![6, 7, 8, 15, 16, 17, 18, 19, 20, 28, 36];
    expected.extend(55..95);
    assert_eq!(rig.unmapped_muscles(), expected.as_slice());
    let mut pose = HumanPose::default();
    let neutral = pose_of(&rig, &pose, true);
    for &u in rig.unmapped_muscles() {
        pose.muscles[u] = 0.8;
    }
    assert_eq!(pose_of(&rig, &pose, true), neutral);
    let floss = clips.iter().find(|c| c.name == "Floss").unwrap();
    let r = report(floss, &rig);
    let names: Vec<&str> = r.unmapped.iter().map(|f| f.name.as_str()).collect();
    assert!(names.contains(&"UpperChest Left-Right"), "{names:?}");
    let left_right = r.unmapped.iter().find(|f| f.muscle == 7).unwrap();
    assert!(
        left_right.min < -0.5 && left_right.max > 0.8,
        "{left_right:?}"
    );
    let far: Vec<&str> = r.far_outside.iter().map(|f| f.name.as_str()).collect();
    assert!(far.contains(&"Right Shoulder Front-Back"), "{far:?}");
}

/// morbman's Avatar as stored, to break.
fn raw_morbman() -> Option<AvatarObject> {
    let file = common::serialized_files("binary/wetboys_plateupemotesapi/morbman")?.remove(0);
    let info = file.objects.iter().find(|o| o.class_id == 90).unwrap();
    Some(file.read(info).expect("reads"))
}

#[test]
fn malformed_avatars_are_errors_not_panics() {
    let Some(_) = raw_morbman() else { return };
    type Break = fn(&mut AvatarObject);
    let breaks: [(&str, Break); 9] = [
        ("human bone past the human skeleton", |a| {
            a.m_Avatar.m_Human.data.m_HumanBoneIndex[3] = Int(21)
        }),
        ("negative human bone other than -1", |a| {
            a.m_Avatar.m_Human.data.m_HumanBoneIndex[0] = Int(-7)
        }),
        ("human bone on a node without axes", |a| {
            a.m_Avatar.m_Human.data.m_HumanBoneIndex[8] = Int(2) // LowerSpine
        }),
        ("finger past the human skeleton", |a| {
            a.m_Avatar.m_Human.data.m_LeftHand.data.m_HandBoneIndex = vec![Int(99); 15]
        }),
        ("hand map of the wrong length", |a| {
            a.m_Avatar.m_Human.data.m_RightHand.data.m_HandBoneIndex = vec![Int(-1); 7]
        }),
        ("parent after its child", |a| {
            a.m_Avatar.m_Human.data.m_Skeleton.data.m_Node[4].m_ParentId = Int(9)
        }),
        ("axes past the axes array", |a| {
            a.m_Avatar.m_Human.data.m_Skeleton.data.m_Node[3].m_AxesId = Int(400)
        }),
        ("human node past the avatar skeleton", |a| {
            a.m_Avatar.m_HumanSkeletonIndexArray[5] = Int(35)
        }),
        ("T-pose shorter than the skeleton", |a| {
            a.m_Avatar.m_Human.data.m_SkeletonPose.data.m_X.pop();
        }),
    ];
    for (what, damage) in breaks {
        let mut raw = raw_morbman().unwrap();
        damage(&mut raw);
        match AvatarData::from_raw(raw) {
            Err(e) => eprintln!("{what}: {e}"),
            Ok(_) => panic!("{what}: accepted"),
        }
    }
}

#[test]
fn avatars_before_unity_5_6_read_with_24_body_bones() {
    let Some(mut raw) = raw_morbman() else { return };
    let human = &mut raw.m_Avatar.m_Human.data;
    // Unity 5.5 and before stored no UpperChest slot (the tenth).
    assert_eq!(human.m_HumanBoneIndex.remove(9), Int(-1));
    human.m_HumanBoneMass.remove(9);
    let old = AvatarData::from_raw(raw).unwrap();
    let Some(m) = morbman() else { return };
    assert_eq!(old.human.body, m.avatar.human.body);
    assert_eq!(old.human.masses, m.avatar.human.masses);
    assert_eq!(
        old.bone_path(HumanBone::Neck),
        m.avatar.bone_path(HumanBone::Neck)
    );
}

#[test]
fn a_human_skeleton_too_large_to_pose_is_refused() {
    let (Some(m), Some(mut raw)) = (morbman(), raw_morbman()) else {
        return;
    };
    // 300 extra human nodes hanging below the Head.
    let c = &mut raw.m_Avatar;
    let skeleton = &mut c.m_Human.data.m_Skeleton.data;
    for _ in 0..300 {
        skeleton.m_Node.push(Node {
            m_ParentId: Int(6),
            m_AxesId: Int(-1),
        });
        skeleton.m_ID.push(Int(12345));
        c.m_Human
            .data
            .m_SkeletonPose
            .data
            .m_X
            .push(Default::default());
        c.m_HumanSkeletonIndexArray.push(Int(16));
    }
    c.m_HumanSkeletonReverseIndexArray = None;
    let big = AvatarData::from_raw(raw).unwrap();
    let err = HumanoidRig::new(&big, &m.skeleton).unwrap_err();
    assert!(
        matches!(err, RigError::TooManyNodes { nodes: 321, .. }),
        "{err}"
    );
}
