//! The body where Unity puts it (issue 30): text Avatars read into the same data as built
//! ones, the rig made from an Avatar alone, and the centre of mass that reproduces Unity's
//! stored `m_RootX`.

use crate::common;
use clipscope_authoring::fixtures::humanoid as humanoid_fixture;

use std::path::PathBuf;

use clipscope_core::avatar::{AvatarData, HumanBone};
use clipscope_core::humanoid::body::{mass_parts, tpose_body, tpose_positions};
use clipscope_core::humanoid::math::V3;
use clipscope_core::humanoid::{ClipMuscles, HumanPose, HumanoidRig};
use clipscope_core::{OpenOptions, Workspace};

use common::data;
use humanoid_fixture::{angle_between, humanoid_clips, morbman, pose_of, q4, v3};

fn vroid_path() -> Option<PathBuf> {
    data("yaml/animationcliptovrma/VrmAvatar.asset")
}

fn vroid() -> Option<(Workspace, AvatarData)> {
    let ws = Workspace::open(&[vroid_path()?], &OpenOptions::default());
    assert!(ws.errors.is_empty(), "{:?}", ws.errors);
    let avatar = humanoid_fixture::only_avatar(&ws);
    Some((ws, avatar))
}

/// `{x: a, y: b, z: c[, w: d]}` as floats, parsed from the document's own text.
fn flow_floats(text: &str) -> Vec<f32> {
    let inner = text.trim().trim_start_matches('{').trim_end_matches('}');
    inner
        .split(',')
        .map(|kv| {
            let v = kv.split(':').nth(1).expect("key: value").trim();
            v.parse::<f32>().expect("a float")
        })
        .collect()
}

/// The value after `key:` on a line, where the line holds it.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let rest = line.trim_start().trim_start_matches("- ");
    rest.strip_prefix(key)?.strip_prefix(':').map(str::trim)
}

/// The axes the document lists (`m_Human.m_Skeleton.m_AxesArray`), as (preQ, postQ,
/// sgn, min, max, length), read line by line from the text.
type DocAxes = (Vec<f32>, Vec<f32>, Vec<f32>, Vec<f32>, Vec<f32>, f32);

fn document_axes(text: &str) -> Vec<DocAxes> {
    let mut out: Vec<DocAxes> = Vec::new();
    let mut cur: Option<DocAxes> = None;
    for line in text.lines() {
        if let Some(v) = field(line, "m_PreQ") {
            cur = Some((flow_floats(v), vec![], vec![], vec![], vec![], 0.0));
        }
        let Some(c) = cur.as_mut() else { continue };
        if let Some(v) = field(line, "m_PostQ") {
            c.1 = flow_floats(v);
        } else if let Some(v) = field(line, "m_Sgn") {
            c.2 = flow_floats(v);
        } else if let Some(v) = field(line, "m_Min") {
            c.3 = flow_floats(v);
        } else if let Some(v) = field(line, "m_Max") {
            c.4 = flow_floats(v);
        } else if let Some(v) = field(line, "m_Length") {
            c.5 = v.parse().expect("a length");
            out.extend(cur.take());
        }
    }
    out
}

/// The number of `m_ParentId` entries between two lines of the document.
fn nodes_between(text: &str, from: &str, to: &str) -> usize {
    let start = text.find(from).expect("start marker");
    let end = start + text[start..].find(to).expect("end marker");
    text[start..end].matches("m_ParentId:").count()
}

#[test]
fn the_text_vroid_avatar_reads_as_the_document_says() {
    let (Some(path), Some((ws, avatar))) = (vroid_path(), vroid()) else {
        return;
    };
    let text = std::fs::read_to_string(path).expect("readable");
    assert_eq!(avatar.name, "VrmAvatar");
    assert!(avatar.is_human());
    // Node counts: the avatar skeleton and the human skeleton.
    let avatar_nodes = nodes_between(&text, "m_AvatarSkeleton:", "m_AvatarSkeletonPose:");
    let human_nodes = nodes_between(&text, "m_Human:\n      data:", "m_SkeletonPose:");
    assert_eq!(avatar.skeleton.nodes.len(), avatar_nodes);
    assert_eq!(avatar.human.skeleton.nodes.len(), human_nodes);
    assert_eq!(avatar.human.tpose.len(), human_nodes);
    assert_eq!(avatar.skeleton_pose.len(), avatar_nodes);
    assert_eq!(avatar.tos.len(), avatar_nodes, "one m_TOS path per node");
    println!("VrmAvatar: {avatar_nodes} avatar nodes, {human_nodes} human nodes");
    // Axes, exactly as written.
    let axes = document_axes(&text);
    assert_eq!(avatar.human.skeleton.axes.len(), axes.len());
    assert_eq!(axes.len(), 54);
    for (i, (a, d)) in avatar.human.skeleton.axes.iter().zip(&axes).enumerate() {
        assert_eq!(a.pre_q.to_vec(), d.0, "axes {i} preQ");
        assert_eq!(a.post_q.to_vec(), d.1, "axes {i} postQ");
        assert_eq!(a.sgn.to_vec(), d.2, "axes {i} sgn");
        assert_eq!(a.min.to_vec(), d.3, "axes {i} min");
        assert_eq!(a.max.to_vec(), d.4, "axes {i} max");
        assert_eq!(a.length, d.5, "axes {i} length");
        assert_eq!(a.kind, 1, "axes {i} type");
    }
    // The human scale and body frame.
    let scale_line = text
        .lines()
        .find_map(|l| field(l, "m_Scale").filter(|v| !v.starts_with('{')))
        .expect("m_Scale");
    assert_eq!(avatar.human.scale, scale_line.parse::<f32>().unwrap());
    assert_eq!(
        avatar.human.root_x.t,
        [0.0022025525, 0.9168831, 0.0018193086]
    );
    assert!(avatar.human.has_left_hand && avatar.human.has_right_hand);
    assert!(!avatar.human.has_tdof);
    // Bone maps from the hex dumps: the Hips is human node 1, at avatar node 4 (its path
    // in m_TOS), the left hand's thumb proximal is human node 25 (0x19).
    assert_eq!(avatar.bone_human_node(HumanBone::Hips), Some(1));
    assert_eq!(avatar.human_bone_node(HumanBone::Hips), Some(4));
    assert_eq!(avatar.bone_path(HumanBone::Hips), Some("Root/J_Bip_C_Hips"));
    assert_eq!(
        avatar.bone_human_node(HumanBone::LeftThumbProximal),
        Some(25)
    );
    assert_eq!(
        avatar.bone_path(HumanBone::RightHand),
        Some(
            "Root/J_Bip_C_Hips/J_Bip_C_Spine/J_Bip_C_Chest/J_Bip_C_UpperChest/J_Bip_R_Shoulder/J_Bip_R_UpperArm/J_Bip_R_LowerArm/J_Bip_R_Hand"
        )
    );
    for (h, &a) in avatar.human_to_avatar.iter().enumerate() {
        assert_eq!(
            avatar.avatar_to_human[a],
            Some(h),
            "the reverse map inverts the forward"
        );
        assert_eq!(
            avatar.human.skeleton.nodes[h].id, avatar.skeleton.nodes[a].id,
            "a human node and its avatar node share their path"
        );
    }
    // The masses as stored (sum 1, Unity's defaults: every bone but the jaw is mapped).
    let sum: f32 = avatar.human.masses.iter().sum();
    assert!((sum - 1.0).abs() < 1e-5, "{sum}");
    assert_eq!(avatar.human.masses[0], 0.14545456);
    // The workspace lists it and makes a humanoid rig from it.
    assert_eq!(ws.avatars.len(), 1);
    let rig = ws
        .rigs
        .iter()
        .find(|r| r.name == "VrmAvatar")
        .expect("an avatar rig");
    assert!(rig.humanoid.is_some(), "{:?}", rig.humanoid_error);
    assert_eq!(rig.skeleton.joints.len(), avatar_nodes);
}

#[test]
fn the_rig_made_from_the_vroid_avatar_poses_wave() {
    let (Some(avatar_path), Some(clip_path)) =
        (vroid_path(), data("yaml/animationcliptovrma/Wave.anim"))
    else {
        return;
    };
    let ws = Workspace::open(&[avatar_path, clip_path], &OpenOptions::default());
    assert!(ws.errors.is_empty(), "{:?}", ws.errors);
    let rig = ws
        .rigs
        .iter()
        .find(|r| r.name == "VrmAvatar")
        .expect("an avatar rig");
    let humanoid = rig.humanoid.as_deref().expect("humanoid");
    assert!(humanoid.warnings().is_empty(), "{:?}", humanoid.warnings());
    let clip = common::clip(&ws, "Wave");
    let muscles = clipscope_core::humanoid::ClipMuscles::new(clip);
    assert!(muscles.is_humanoid());
    let poser = clipscope_core::pose::ClipPoser::new(clip, &rig.skeleton, Some(humanoid));
    assert!(poser.is_humanoid());
    let scale = f64::from(humanoid.human_scale());
    let mut worst = 0.0f64;
    let mut feet = 0.0f32;
    for i in 0..=20 {
        let t = clip.start + clip.length() * i as f32 / 20.0;
        let locals = poser.locals(t, &clipscope_core::humanoid::PoseOptions::default());
        let world = poser.world(&locals);
        for (j, w) in world.iter().enumerate() {
            let finite = w.t.iter().chain(&w.q).chain(&w.s).all(|v| v.is_finite());
            assert!(
                finite,
                "joint {} at {t}: {w:?}",
                rig.skeleton.joints[j].path
            );
        }
        let mut pose = clipscope_core::humanoid::HumanPose::default();
        muscles.sample(clip, t, &mut pose);
        let com = humanoid_fixture::v3(humanoid.centre_of_mass(&world).expect("parts"));
        let want = humanoid_fixture::v3(pose.root_t) * scale;
        let off = (com - want).length() / scale;
        assert!(
            off < 1e-5,
            "at {t}: body at {com:?}, RootT × m_Scale = {want:?}"
        );
        worst = worst.max(off);
        // Wave was not made on this avatar: its foot goals say where its source's soles
        // were, a retargeting measure of centimetres at most, not an error.
        let options = clipscope_core::humanoid::PoseOptions::default();
        for d in humanoid.foot_goal_distances(&pose, &options, &world) {
            let d = d.expect("both feet are mapped");
            assert!(d < 0.05, "at {t}: a sole {d} m from its goal");
            feet = feet.max(d);
        }
    }
    // The soles stay 12-15 mm from the goals: a change far below the 2 % note.
    let report = clipscope_core::humanoid::report(clip, humanoid);
    assert!(report.sliding_feet.is_empty(), "{:?}", report.sliding_feet);
    println!(
        "Wave on VrmAvatar: body frame at RootT × m_Scale to {worst:.2e} of the scale; soles \
         at most {feet:.4} m from the clip's foot goals"
    );
}

/// A clip's goals written from its own pose by the §5 frame (`goalT = conj(RootQ)·(P/s −
/// RootT)`, the foot's P its sole, `goalQ = conj(RootQ)·R·postQ`) are read back by
/// `goals` where the pose puts them: the distances from the soles are zero.
#[test]
fn goals_written_from_the_own_pose_sit_on_the_soles() {
    use clipscope_core::humanoid::math::{Q, V3};
    use clipscope_core::humanoid::{ClipMuscles, HumanPose, HumanoidRig, PoseOptions};
    use humanoid_fixture::{humanoid_clips, pose_of, q4, v3};
    let (Some(m), Some(clips)) = (morbman(), humanoid_clips()) else {
        return;
    };
    let rig = HumanoidRig::new(&m.avatar, &m.skeleton).expect("morbman poses");
    let s = f64::from(m.avatar.human.scale);
    let options = PoseOptions::default();
    let bones = [
        HumanBone::LeftFoot,
        HumanBone::RightFoot,
        HumanBone::LeftHand,
        HumanBone::RightHand,
    ];
    let mut worst = 0.0f32;
    for clip in &clips {
        let muscles = ClipMuscles::new(clip);
        for i in 0..=10 {
            let t = clip.start + clip.length() * i as f32 / 10.0;
            let mut pose = HumanPose::default();
            muscles.sample(clip, t, &mut pose);
            let world = pose_of(&rig, &pose, true);
            let root_t = v3(pose.root_t);
            let root_q = q4(pose.root_q);
            for (g, bone) in bones.iter().enumerate() {
                let w = &world[rig.bone_joint(*bone).expect("mapped")];
                let axes = m.avatar.bone_axes(*bone).expect("axes");
                let r = q4(w.q) * Q::from_f32(axes.post_q).normalize();
                let mut goal_t = root_q.conj().rotate(v3(w.t) * (1.0 / s) - root_t);
                if g < 2 {
                    let sole = r.rotate(V3::new(f64::from(axes.length) / s, 0.0, 0.0));
                    goal_t = goal_t + root_q.conj().rotate(sole);
                }
                pose.goals[g].t = goal_t.to_f32();
                pose.goals[g].q = (root_q.conj() * r).to_f32();
            }
            for d in rig.foot_goal_distances(&pose, &options, &world) {
                let d = d.expect("feet mapped");
                assert!(d < 1e-5, "{} at {t}: {d}", clip.name);
                worst = worst.max(d);
            }
            let goals = rig.goals(&pose, &options);
            for (g, bone) in bones.iter().enumerate().skip(2) {
                let w = &world[rig.bone_joint(*bone).expect("mapped")];
                let off = (v3(goals[g].t) - v3(w.t)).length();
                assert!(
                    off < 1e-5,
                    "{} at {t}: {bone:?} goal {off} from the hand",
                    clip.name
                );
            }
        }
    }
    println!("goals written from morbman's own pose: soles within {worst:.2e} m");
}

/// The weight of the left forearm in the centre of mass: its mass over the parts' total.
fn left_forearm_weight(a: &AvatarData) -> f64 {
    let total: f64 = mass_parts(a).iter().map(|p| p.mass).sum();
    f64::from(a.bone_mass(HumanBone::LeftLowerArm)) / total
}

/// `m_RootX` is the body frame of the T-pose by Unity's rule (`humanoid.md` §4.2, §4.3):
/// the centre of mass and the body rotation Unity stored, on a binary 2020.3 Avatar and a
/// text 2022.3 one. The data tell the rules apart: the mirror-symmetric forearm row,
/// mid(LeftLowerArm, LeftHand), misses both by more than 0.2 % of the scale, in x.
#[test]
fn the_t_pose_body_frame_is_the_stored_root_x() {
    let (Some(m), Some((_, v))) = (morbman(), vroid()) else {
        return;
    };
    for a in [&m.avatar, &v] {
        let (com, q) = tpose_body(a).expect("humanoid");
        let s = f64::from(a.human.scale);
        let stored = v3(a.human.root_x.t);
        let off = (com - stored) * (1.0 / s);
        let angle = angle_between(q, q4(a.human.root_x.q));
        println!(
            "{}: centre of mass - m_RootX.t = ({:+.1e}, {:+.1e}, {:+.1e}) of the scale, \
             body rotation {angle:.1e} rad from m_RootX.q",
            a.name, off.x, off.y, off.z
        );
        assert!(off.length() < 1e-5, "{}: {off:?}", a.name);
        assert!(angle < 1e-5, "{}: {angle} rad", a.name);
        // The symmetric row moves the left forearm's centre from the upper arm's joint to
        // the elbow's: the centre of mass by w/2 times that bone.
        let p = tpose_positions(a);
        let at = |b: HumanBone| p[a.bone_human_node(b).expect("mapped")];
        let shift = (at(HumanBone::LeftLowerArm) - at(HumanBone::LeftUpperArm))
            * (left_forearm_weight(a) / 2.0);
        let symmetric = (com + shift - stored) * (1.0 / s);
        println!(
            "{}: the symmetric row misses by ({:+.2e}, {:+.2e}, {:+.2e})",
            a.name, symmetric.x, symmetric.y, symmetric.z
        );
        assert!(symmetric.x < -2e-3, "{}: {symmetric:?}", a.name);
        assert!(
            symmetric.y.abs() < 5e-4 && symmetric.z.abs() < 1e-4,
            "{symmetric:?}"
        );
    }
}

/// The centre of mass of posed joint positions, written out from §4.2 for morbman's
/// mapped bones (no UpperChest, no toes: its Chest takes the top-of-torso row), with Unity's
/// left forearm row.
fn morbman_centre_of_mass(a: &AvatarData, at: &dyn Fn(HumanBone) -> V3) -> V3 {
    use HumanBone as B;
    let mid = |x: B, y: B| (at(x) + at(y)) * 0.5;
    let parts: [(B, V3); 19] = [
        (
            B::Hips,
            (at(B::LeftUpperLeg) + at(B::RightUpperLeg) + at(B::Spine)) * (1.0 / 3.0),
        ),
        (B::LeftUpperLeg, mid(B::LeftUpperLeg, B::LeftLowerLeg)),
        (B::RightUpperLeg, mid(B::RightUpperLeg, B::RightLowerLeg)),
        (B::LeftLowerLeg, mid(B::LeftLowerLeg, B::LeftFoot)),
        (B::RightLowerLeg, mid(B::RightLowerLeg, B::RightFoot)),
        (B::LeftFoot, at(B::LeftFoot)),
        (B::RightFoot, at(B::RightFoot)),
        (B::Spine, mid(B::Spine, B::Chest)),
        (
            B::Chest,
            (at(B::Chest) + at(B::Neck) + at(B::LeftShoulder) + at(B::RightShoulder)) * 0.25,
        ),
        (B::Neck, mid(B::Neck, B::Head)),
        (B::Head, at(B::Head)),
        (B::LeftShoulder, mid(B::LeftShoulder, B::LeftUpperArm)),
        (B::RightShoulder, mid(B::RightShoulder, B::RightUpperArm)),
        (B::LeftUpperArm, mid(B::LeftUpperArm, B::LeftLowerArm)),
        (B::RightUpperArm, mid(B::RightUpperArm, B::RightLowerArm)),
        (B::LeftLowerArm, mid(B::LeftUpperArm, B::LeftHand)),
        (B::RightLowerArm, mid(B::RightLowerArm, B::RightHand)),
        (B::LeftHand, at(B::LeftHand)),
        (B::RightHand, at(B::RightHand)),
    ];
    let mut sum = V3::ZERO;
    let mut total = 0.0;
    for (bone, centre) in parts {
        let mass = f64::from(a.bone_mass(bone));
        sum = sum + centre * mass;
        total += mass;
    }
    sum * (1.0 / total)
}

/// morbman's poses of every shared humanoid clip: the body stands at RootT × m_Scale by
/// Unity's rule, and against the symmetric table the poses differ only by the
/// centre-of-mass correction: the whole body below the hips moves by w/2 times the left
/// upper arm (w the forearm's mass fraction), a vector of constant length, 1.9 mm here;
/// rotations are untouched (the body rotation is RootQ · m_RootX.q).
#[test]
fn morbman_poses_move_only_by_the_centre_of_mass_correction() {
    let (Some(m), Some(clips)) = (morbman(), humanoid_clips()) else {
        return;
    };
    let a = &m.avatar;
    let rig = HumanoidRig::new(a, &m.skeleton).expect("morbman poses");
    let s = f64::from(a.human.scale);
    let w = left_forearm_weight(a);
    let upper_arm = f64::from(a.bone_axes(HumanBone::LeftUpperArm).expect("axes").length);
    let mut worst_body = 0.0f64;
    let mut worst_turn = 0.0f64;
    let (mut least, mut most) = (f64::MAX, 0.0f64);
    for clip in &clips {
        let muscles = ClipMuscles::new(clip);
        for i in 0..=20 {
            let t = clip.start + clip.length() * i as f32 / 20.0;
            let mut pose = HumanPose::default();
            muscles.sample(clip, t, &mut pose);
            let world = pose_of(&rig, &pose, true);
            let at = |b: HumanBone| v3(world[rig.bone_joint(b).expect("mapped")].t);
            let com = morbman_centre_of_mass(a, &at);
            let library = v3(rig.centre_of_mass(&world).expect("parts"));
            assert!(
                (com - library).length() < 1e-6,
                "{}: {com:?} {library:?}",
                clip.name
            );
            let body = (com - v3(pose.root_t) * s).length() / s;
            assert!(
                body < 1e-5,
                "{} at {t}: body {body} of the scale off",
                clip.name
            );
            worst_body = worst_body.max(body);
            // The symmetric table's body would be this far off: the hips move by it.
            let correction =
                (at(HumanBone::LeftLowerArm) - at(HumanBone::LeftUpperArm)) * (w / 2.0);
            least = least.min(correction.length());
            most = most.max(correction.length());
            // The body's up (§4.3) is where RootQ · m_RootX.q puts it.
            let up = ((at(HumanBone::LeftUpperArm) + at(HumanBone::RightUpperArm))
                - (at(HumanBone::LeftUpperLeg) + at(HumanBone::RightUpperLeg)))
            .normalize();
            let body_q = q4(pose.root_q) * q4(a.human.root_x.q);
            let want = body_q.rotate(V3::new(0.0, 1.0, 0.0));
            let turn = up.dot(want).clamp(-1.0, 1.0).acos();
            assert!(turn < 2e-3, "{} at {t}: body up {turn} rad off", clip.name);
            worst_turn = worst_turn.max(turn);
        }
    }
    let expected = w * upper_arm / 2.0;
    println!(
        "morbman, {} clips: body at RootT x m_Scale to {worst_body:.1e} of the scale, body up \
         within {worst_turn:.1e} rad of RootQ; the hips moved by {least:.6}..{most:.6} m from \
         the symmetric table's (w/2 x upper arm = {expected:.6} m, {:.2} % of the scale)",
        clips.len(),
        100.0 * expected / s
    );
    assert!((least - expected).abs() < 1e-5 && (most - expected).abs() < 1e-5);
}
