//! Humanoid clips on rigs that differ from their avatar's human skeleton as real characters
//! do (`humanoid.md` §8 choices 10 and 11), on fixtures written byte by byte
//! (`support/avatar_fixtures.rs`), and morbman posed exactly as the closed forms say.

use crate::common;
use clipscope_authoring::fixtures::avatar as fixtures;
use clipscope_authoring::fixtures::humanoid as humanoid_fixture;

use std::path::{Path, PathBuf};

use clipscope_core::avatar::{AvatarData, HumanBone};
use clipscope_core::humanoid::math::Q;
use clipscope_core::humanoid::muscles::{BoneAxes, bone_muscles};
use clipscope_core::humanoid::{ClipMuscles, HumanPose, HumanoidRig, JointLocal, PoseOptions};
use clipscope_core::pose::ClipPoser;
use clipscope_core::rig::Skeleton;
use clipscope_core::{ClipData, OpenOptions, Workspace};

use common::{clipscope, data};
use fixtures::{Case, Fixture, RIG_NAME, SOCKET_DISTANCE, fixture};
use humanoid_fixture::{Morbman, angle_between, humanoid_clips, morbman, q4, v3};

/// A fixture opened as a workspace: its rig's skeleton and bound avatar.
struct Opened {
    fixture: Fixture,
    skeleton: Skeleton,
    rig: HumanoidRig,
    avatar: AvatarData,
    warnings: Vec<String>,
}

fn open_fixture(case: Case, m: &Morbman) -> Opened {
    let fixture = fixture(case, &m.avatar, &m.skeleton);
    let ws = Workspace::open_bytes(
        Path::new("fixture.bundle"),
        fixture.bytes.clone(),
        &OpenOptions::default(),
    );
    assert!(ws.errors.is_empty(), "{case:?}: {:?}", ws.errors);
    let rig = ws.rigs.iter().find(|r| r.name == RIG_NAME).expect("rig");
    let bound = rig
        .humanoid
        .as_deref()
        .unwrap_or_else(|| panic!("{case:?}: humanoid: {:?}", ws.warnings))
        .clone();
    assert_eq!(rig.humanoid_error, None);
    Opened {
        skeleton: clipscope_core::rig::Skeleton::clone(&rig.skeleton),
        rig: bound,
        avatar: humanoid_fixture::only_avatar(&ws),
        warnings: ws.warnings.clone(),
        fixture,
    }
}

/// A few times across each clip.
fn times(clip: &ClipData) -> impl Iterator<Item = f32> + '_ {
    (0..=8).map(|i| clip.start + clip.length() * i as f32 / 8.0)
}

/// Locals and world transforms of `skeleton` posed by `clip` at `t` (root motion on).
fn posed(
    clip: &ClipData,
    skeleton: &Skeleton,
    rig: &HumanoidRig,
    t: f32,
) -> (Vec<JointLocal>, Vec<JointLocal>) {
    let poser = ClipPoser::new(clip, skeleton, Some(rig));
    assert!(poser.is_humanoid());
    let locals = poser.locals(t, &PoseOptions::default());
    let world = poser.world(&locals);
    (locals, world)
}

/// Each mapped bone's local rotation as the muscles give it (§3.2–3.3), after TwistSolve
/// (§3.6, f = k), by human node; `None` for nodes that are no posed bone.
fn muscle_rotations(avatar: &AvatarData, pose: &HumanPose) -> Vec<Option<Q>> {
    let mut out = vec![None; avatar.human.skeleton.nodes.len()];
    let mut angles = vec![[0.0; 3]; out.len()];
    for (bone, node) in avatar.mapped_bones() {
        let Some(axes) = avatar.human.skeleton.node_axes(node) else {
            continue;
        };
        if bone == HumanBone::Hips {
            continue;
        }
        let ax = BoneAxes::new(axes);
        let u = bone_muscles(bone).map(|m| m.map_or(0.0, |m| f64::from(pose.muscles[m])));
        angles[node] = ax.angles(u);
        out[node] = Some(ax.rotation(angles[node]));
    }
    use HumanBone as B;
    let h = &avatar.human;
    let pairs = [
        (B::LeftLowerArm, B::LeftHand, h.fore_arm_twist),
        (B::LeftUpperArm, B::LeftLowerArm, h.arm_twist),
        (B::RightLowerArm, B::RightHand, h.fore_arm_twist),
        (B::RightUpperArm, B::RightLowerArm, h.arm_twist),
        (B::LeftLowerLeg, B::LeftFoot, h.leg_twist),
        (B::LeftUpperLeg, B::LeftLowerLeg, h.upper_leg_twist),
        (B::RightLowerLeg, B::RightFoot, h.leg_twist),
        (B::RightUpperLeg, B::RightLowerLeg, h.upper_leg_twist),
    ];
    for (p, c, k) in pairs {
        let (Some(pn), Some(cn)) = (avatar.bone_human_node(p), avatar.bone_human_node(c)) else {
            continue;
        };
        assert_eq!(h.skeleton.nodes[cn].parent, Some(pn), "{c} hangs below {p}");
        let ax = BoneAxes::new(avatar.human.skeleton.node_axes(pn).unwrap());
        let a = angles[pn];
        let old = out[pn].unwrap();
        let new = ax.rotation([a[0] * f64::from(k), a[1], a[2]]);
        out[pn] = Some(new);
        out[cn] = Some(new.conj() * old * out[cn].unwrap());
    }
    out
}

/// The body orientation of posed world positions (§4.3).
fn body_orientation(avatar: &AvatarData, rig: &HumanoidRig, world: &[JointLocal]) -> Q {
    let p = |b: HumanBone| v3(world[rig.bone_joint(b).unwrap()].t);
    let _ = avatar;
    let (la, ra) = (p(HumanBone::LeftUpperArm), p(HumanBone::RightUpperArm));
    let (ll, rl) = (p(HumanBone::LeftUpperLeg), p(HumanBone::RightUpperLeg));
    let up = ((la + ra) * 0.5 - (ll + rl) * 0.5).normalize();
    let right = ((ra - la) + (rl - ll)).normalize();
    let forward = right.cross(up).normalize();
    Q::from_columns(up.cross(forward), up, forward)
}

/// What every humanoid pose on a rig must satisfy: the body where RootT/RootQ put it (so
/// the Hips' world transform is the body-derived one), every human bone turned by its
/// muscles relative to its parent in the rig, and every joint no human node below the
/// Hips drives at rest. Returns the number of bones checked.
fn assert_pose_follows_the_muscles(
    what: &str,
    avatar: &AvatarData,
    skeleton: &Skeleton,
    rig: &HumanoidRig,
    clip: &ClipData,
    t: f32,
) -> usize {
    let (locals, world) = posed(clip, skeleton, rig, t);
    let mut pose = HumanPose::default();
    ClipMuscles::new(clip).sample(clip, t, &mut pose);
    // The body: centre of mass at RootT × human scale, orientation RootQ · m_RootX.q.
    let com = v3(rig
        .centre_of_mass(&world)
        .expect("every part is on the rig"));
    let root_t = v3(pose.root_t) * f64::from(avatar.human.scale);
    assert!(
        (com - root_t).length() < 1e-5,
        "{what} at {t}: centre of mass {com:?}, RootT {root_t:?}"
    );
    let expected_q = (q4(pose.root_q) * q4(avatar.human.root_x.q)).normalize();
    let off = angle_between(body_orientation(avatar, rig, &world), expected_q);
    assert!(off < 1e-5, "{what} at {t}: body orientation off by {off}");
    // Human bones: their muscles' rotation, relative to the joint's parent in the rig.
    let mut bones = 0;
    for (node, q) in muscle_rotations(avatar, &pose).into_iter().enumerate() {
        let Some(q) = q else { continue };
        let joint = rig_joint(avatar, skeleton, node).expect("the rig has every bone");
        let off = angle_between(q4(locals[joint].q), q);
        assert!(off < 1e-6, "{what} at {t}: joint {joint} off by {off} rad");
        bones += 1;
    }
    bones
}

/// The rig joint of a human node, by its path hash.
fn rig_joint(avatar: &AvatarData, skeleton: &Skeleton, node: usize) -> Option<usize> {
    skeleton.joint_by_hash(avatar.human.skeleton.nodes.get(node)?.id)
}

fn rest_of(skeleton: &Skeleton, path: &str) -> (usize, JointLocal) {
    let j = skeleton
        .joints
        .iter()
        .position(|j| j.path == path)
        .unwrap_or_else(|| panic!("joint {path:?}"));
    (j, JointLocal::rest(&skeleton.joints[j]))
}

#[test]
fn every_humanoid_clip_poses_morbman_by_the_closed_forms() {
    let (Some(m), Some(clips)) = (morbman(), humanoid_clips()) else {
        return;
    };
    let rig = HumanoidRig::new(&m.avatar, &m.skeleton).unwrap();
    assert!(rig.warnings().is_empty(), "{:?}", rig.warnings());
    // morbman's human skeleton starts at the Animator root, and its Hips hang directly
    // below it: the rig's parent chain and the T-pose chain of the Hips are both identity,
    // as before node 0 was bound by its m_ID.
    assert_eq!(m.avatar.human.skeleton.nodes[0].id, 0);
    let hips = rig.bone_joint(HumanBone::Hips).unwrap();
    assert_eq!(m.skeleton.joints[hips].parent, Some(0));
    let human: Vec<Option<usize>> = (0..m.avatar.human.skeleton.nodes.len())
        .map(|h| rig_joint(&m.avatar, &m.skeleton, h))
        .collect();
    for clip in &clips {
        for t in times(clip) {
            let bones =
                assert_pose_follows_the_muscles(&clip.name, &m.avatar, &m.skeleton, &rig, clip, t);
            assert_eq!(bones, 18, "every mapped bone but the Hips");
            let (locals, _) = posed(clip, &m.skeleton, &rig, t);
            for (j, joint) in m.skeleton.joints.iter().enumerate() {
                match human.iter().position(|&h| h == Some(j)) {
                    // Joints that are no human node keep their rest transform exactly.
                    None => assert_eq!(locals[j], JointLocal::rest(joint), "{}", joint.path),
                    Some(0) => assert_eq!(locals[j], JointLocal::rest(joint)),
                    // Every joint keeps the rig's own scale (Unity's human pose writes
                    // rotations and the Hips' position, never a scale).
                    Some(_) if j == hips => assert_eq!(locals[j].s, joint.scale),
                    // Human nodes below the Hips keep their T-pose translation (in the
                    // rig's units: morbman's rig scales are 1 to within 6e-8).
                    Some(h) => {
                        let x = &m.avatar.human.tpose[h];
                        let off = (v3(locals[j].t) - v3(x.t)).length();
                        assert!(off < 1e-6 * (1.0 + v3(x.t).length()), "{}", joint.path);
                        assert_eq!(locals[j].s, joint.scale, "{}", joint.path);
                    }
                }
            }
        }
    }
}

/// The fixtures with the clips, or `None` when the shared data is missing.
fn setup() -> Option<(Morbman, Vec<ClipData>)> {
    Some((morbman()?, humanoid_clips()?))
}

/// Checks a fixture against the closed forms and against morbman posed by the same clips.
fn check_fixture(case: Case) {
    let Some((m, clips)) = setup() else { return };
    let f = open_fixture(case, &m);
    let own = HumanoidRig::new(&m.avatar, &m.skeleton).unwrap();
    for clip in &clips {
        for t in times(clip) {
            let what = format!("{case:?} {}", clip.name);
            let bones =
                assert_pose_follows_the_muscles(&what, &f.avatar, &f.skeleton, &f.rig, clip, t);
            assert_eq!(bones, 18);
            // Retargeted onto morbman: the same human-bone local rotations, the same Hips
            // world transform.
            let (locals, world) = posed(clip, &f.skeleton, &f.rig, t);
            let (m_locals, m_world) = posed(clip, &m.skeleton, &own, t);
            for (bone, _) in m.avatar.mapped_bones() {
                let (a, b) = (
                    f.rig.bone_joint(bone).unwrap(),
                    own.bone_joint(bone).unwrap(),
                );
                if bone == HumanBone::Hips {
                    let d = (v3(world[a].t) - v3(m_world[b].t)).length();
                    let r = angle_between(q4(world[a].q), q4(m_world[b].q));
                    assert!(d < 1e-5 && r < 1e-5, "{what} at {t}: Hips {d} m, {r} rad");
                } else {
                    let r = angle_between(q4(locals[a].q), q4(m_locals[b].q));
                    assert!(r < 1e-6, "{what} at {t}: {bone} {r} rad from morbman's");
                }
            }
            // Joints above node 0 keep their rest transforms.
            for path in &f.fixture.above {
                let (j, rest) = rest_of(&f.skeleton, path);
                assert_eq!(locals[j], rest, "{path}");
            }
            if let Some(path) = &f.fixture.extra {
                let (j, rest) = rest_of(&f.skeleton, path);
                assert_eq!(locals[j], rest, "{path}");
            }
        }
    }
}

#[test]
fn a_human_skeleton_two_levels_below_the_animator_poses_like_morbman() {
    check_fixture(Case::Deep);
    let Some((m, _)) = setup() else { return };
    let f = open_fixture(Case::Deep, &m);
    assert!(f.warnings.is_empty(), "{:?}", f.warnings);
    assert_eq!(
        f.avatar.node_path(f.avatar.human_to_avatar[0]),
        Some("Armature/ROOT")
    );
    // Node 0 is bound to ROOT, which keeps its rest transform, as does Armature above it.
    let (root, rest) = rest_of(&f.skeleton, "Armature/ROOT");
    let mut locals = vec![JointLocal::IDENTITY; f.rig.joint_count()];
    f.rig
        .pose(&HumanPose::default(), &PoseOptions::default(), &mut locals);
    assert_eq!(locals[root], rest);
}

#[test]
fn a_rig_with_a_joint_between_two_human_bones_is_posed_with_one_warning() {
    check_fixture(Case::Inserted);
    let Some((m, _)) = setup() else { return };
    let f = open_fixture(Case::Inserted, &m);
    assert_eq!(f.warnings.len(), 1, "{:?}", f.warnings);
    let chest = m.avatar.bone_path(HumanBone::Chest).unwrap();
    let (spine, rest) = chest.rsplit_once('/').unwrap();
    let moved = format!("{spine}/Extra/{rest}");
    assert!(
        f.warnings[0].contains(&format!("{moved:?}")) && f.warnings[0].contains("Extra"),
        "{}",
        f.warnings[0]
    );
    assert_eq!(f.rig.warnings().len(), 1);
}

#[test]
fn a_socket_ten_kilometres_away_does_not_stop_posing() {
    check_fixture(Case::Socket);
    let Some((m, clips)) = setup() else { return };
    let f = open_fixture(Case::Socket, &m);
    assert!(f.warnings.is_empty(), "{:?}", f.warnings);
    let (socket, _) = rest_of(&f.skeleton, "Socket");
    let (_, world) = posed(&clips[0], &f.skeleton, &f.rig, clips[0].start);
    assert_eq!(v3(world[socket].t).length(), f64::from(SOCKET_DISTANCE));
}

/// The fixture written to a file in a folder of its own, removed when dropped.
struct Written {
    path: PathBuf,
}

impl Drop for Written {
    fn drop(&mut self) {
        if let Some(dir) = self.path.parent() {
            std::fs::remove_dir_all(dir).ok();
        }
    }
}

fn written(case: Case, m: &Morbman, name: &str) -> Written {
    let dir = std::env::temp_dir().join(format!(
        "clipscope-humanoid-rigs-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, fixture(case, &m.avatar, &m.skeleton).bytes).unwrap();
    Written { path }
}

#[test]
fn pose_and_list_say_the_deep_rig_is_humanoid() {
    let (Some(m), Some(clips)) = (
        morbman(),
        data("binary/wetboys_plateupemotesapi/moisture_animationreplacements"),
    ) else {
        return;
    };
    let file = written(Case::Deep, &m, "deep.bundle");
    let (p, c) = (file.path.to_str().unwrap(), clips.to_str().unwrap());
    let (code, out, err) = clipscope(&[
        "pose", p, c, "--clip", "Floss", "--rig", RIG_NAME, "--times", "0,1", "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["humanoid"], true, "{}", v["warnings"]);
    assert_eq!(
        v["warnings"].as_array().unwrap().len(),
        0,
        "{}",
        v["warnings"]
    );
    let joints = v["joints"].as_array().unwrap();
    let height = |bone: &str, frame: usize| {
        let j = joints.iter().find(|j| j["human"] == bone).unwrap();
        j["world"][frame][1].as_f64().unwrap()
    };
    for frame in 0..2 {
        // Feet near the floor, the head above the hips.
        for foot in ["LeftFoot", "RightFoot"] {
            let y = height(foot, frame);
            assert!((-0.05..0.25).contains(&y), "{foot} at {y}");
        }
        assert!(height("Head", frame) > height("Hips", frame) + 0.2);
    }
    // The same rig picked by its Animator's path id.
    let (_, listed, _) = clipscope(&["list", p, "--json"]);
    let listed: serde_json::Value = serde_json::from_str(&listed).unwrap();
    let rig = &listed["rigs"][0];
    assert_eq!(rig["humanoid"], true);
    assert_eq!(rig["humanoid_error"], serde_json::Value::Null);
    let id = rig["path_id"].as_i64().unwrap().to_string();
    let (code, by_id, err) = clipscope(&[
        "pose",
        p,
        c,
        "--clip",
        "Floss",
        "--rig-path-id",
        &id,
        "--times",
        "0,1",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(by_id, out);
    let (code, _, err) = clipscope(&["pose", p, c, "--clip", "Floss", "--rig-path-id", "999"]);
    assert_eq!(code, 2);
    assert!(err.contains("path id 999"), "{err}");
}

#[test]
fn an_avatar_without_an_upper_arm_is_refused_and_list_says_why() {
    let Some(m) = morbman() else { return };
    let file = written(Case::NoLeftUpperArm, &m, "one-armed.bundle");
    let (code, listed, err) = clipscope(&["list", file.path.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let listed: serde_json::Value = serde_json::from_str(&listed).unwrap();
    let rig = &listed["rigs"][0];
    assert_eq!(rig["humanoid"], false);
    let why = rig["humanoid_error"].as_str().unwrap();
    assert!(why.contains("upper arms"), "{why}");
    let warnings = listed["warnings"].as_array().unwrap();
    assert!(
        warnings.iter().any(|w| w.as_str().unwrap().contains(why)),
        "{warnings:?}"
    );
    // morbman itself is humanoid, without an error.
    let (_, listed, _) = clipscope(&["list", m_path().to_str().unwrap(), "--json"]);
    let listed: serde_json::Value = serde_json::from_str(&listed).unwrap();
    let rig = &listed["rigs"][0];
    assert_eq!(
        (&rig["humanoid"], &rig["humanoid_error"]),
        (&serde_json::Value::Bool(true), &serde_json::Value::Null)
    );
}

fn m_path() -> PathBuf {
    data("binary/wetboys_plateupemotesapi/morbman").unwrap()
}
