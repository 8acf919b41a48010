//! Mirrored humanoid clips (`m_Mirror`, the importer's "Mirror") play mirrored wherever a
//! clip is posed: a fixture clip with the flag poses on morbman exactly as `humanoid.md`
//! §4.5's closed form of its unmirrored twin (left and right muscles swapped, `Left-Right`
//! muscles negated, `RootT.x` negated, `RootQ` = (x, −y, −z, w)), every human bone's local
//! rotation; its joints stand where the twin's other-side joints stand, mirrored about the
//! body's plane; and `check` reports the loop seam of a clip with Loop Pose on as a note.
//! `pose --mirror` is tested in the root package's `mirror`.

use crate::common;
use clipscope_authoring::fixtures::mirror as mirror_fixture;

use clipscope_authoring::{
    Binding, Bundle, ClipSpec, Dense, MecanimClip, UnityTarget, write_bundle,
};
use clipscope_core::avatar::HumanBone;
use clipscope_core::check::{Severity, Thresholds, check_clip_on};
use clipscope_core::clip::MirrorMode;
use clipscope_core::humanoid::body::mass_parts;
use clipscope_core::humanoid::{HumanPose, JointLocal, MUSCLE_COUNT, PoseOptions, muscle_name};
use clipscope_core::pose::ClipPoser;
use clipscope_core::{OpenOptions, Workspace};
use mirror_fixture::{MUSCLES, ROOT_Q, ROOT_T, fixture, twin_values};

/// §4.5 written out on slots: each muscle takes its other side's value (names `Left …` and
/// `Right …` swapped), negated where its name says `Left-Right` (body muscles); `RootT.x`
/// negated; `RootQ` (x, −y, −z, w).
fn closed_form_mirror(values: &[(usize, f32)]) -> Vec<(usize, f32)> {
    let value = |slot: usize| values.iter().find(|v| v.0 == slot).map_or(0.0, |v| v.1);
    let names: Vec<String> = (0..MUSCLE_COUNT).map(|m| muscle_name(m).unwrap()).collect();
    values
        .iter()
        .map(|&(slot, v)| {
            let out = match slot {
                s if s == ROOT_T => -v,
                s if s == ROOT_Q + 1 || s == ROOT_Q + 2 => -v,
                s if s >= MUSCLES => {
                    let name = &names[s - MUSCLES];
                    let other = if let Some(rest) = name.strip_prefix("Left ") {
                        format!("Right {rest}")
                    } else if let Some(rest) = name.strip_prefix("Right ") {
                        format!("Left {rest}")
                    } else {
                        name.clone()
                    };
                    let o = names.iter().position(|n| *n == other).unwrap();
                    let sign = if s - MUSCLES < 55 && name.contains("Left-Right") {
                        -1.0
                    } else {
                        1.0
                    };
                    sign * value(MUSCLES + o)
                }
                _ => v,
            };
            (slot, out)
        })
        .collect()
}

fn q_close(a: [f32; 4], b: [f32; 4]) -> bool {
    let dot: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
    1.0 - dot.abs() < 1e-6
}

/// A looping clip whose root x runs 0 to 1 m: a 1 m jump where it wraps.
fn seam_clip(loop_pose: bool) -> ClipSpec {
    let mut clip = MecanimClip::new(if loop_pose { "Blended" } else { "Raw" });
    clip.loop_time = true;
    clip.settings.loop_pose = loop_pose;
    clip.bindings = vec![Binding::transform(0, 1)];
    clip.dense = Some(Dense {
        frame_count: 2,
        curve_count: 3,
        sample_rate: 1.0,
        begin_time: 0.0,
        samples: vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0],
    });
    clip.sample_rate = 1.0;
    ClipSpec::Mecanim(clip)
}

#[test]
fn a_mirrored_clip_poses_as_the_closed_form_mirror_of_its_twin() {
    let Some(morbman) = common::data("binary/wetboys_plateupemotesapi/morbman") else {
        return;
    };
    let path = fixture("pose");
    let ws = common::open(&[morbman, path.clone()]);
    std::fs::remove_dir_all(path.parent().unwrap()).ok();
    let rig = ws.rigs.iter().find(|r| r.name == "morbman").unwrap();
    let humanoid = rig
        .humanoid
        .as_deref()
        .expect("morbman poses humanoid clips");
    let twin = common::clip(&ws, "Wave");
    let mirrored = common::clip(&ws, "Wave Mirrored");
    assert!(mirrored.settings.mirror && !twin.settings.mirror);
    let options = PoseOptions::default();
    let poser = ClipPoser::new(mirrored, &rig.skeleton, Some(humanoid));
    assert!(poser.is_mirrored());
    let got = poser.locals(0.5, &options);

    // The closed form of the twin's values, posed.
    let mut want: Vec<JointLocal> = rig.skeleton.joints.iter().map(JointLocal::rest).collect();
    let pose = HumanPose::from_values(closed_form_mirror(&twin_values()));
    humanoid.pose(&pose, &options, &mut want);
    let mut bones = 0;
    for j in 0..rig.skeleton.joints.len() {
        let Some(bone) = humanoid.joint_bone(j) else {
            continue;
        };
        bones += 1;
        assert!(
            q_close(got[j].q, want[j].q),
            "{}: {:?} against the closed form's {:?}",
            bone.name(),
            got[j].q,
            want[j].q
        );
    }
    assert!(bones >= 19, "only {bones} human bones");

    // Forced off it poses as the twin; the twin forced on poses as the mirrored clip.
    let off = ClipPoser::new(mirrored, &rig.skeleton, Some(humanoid)).mirrored(MirrorMode::Off);
    let plain = ClipPoser::new(twin, &rig.skeleton, Some(humanoid));
    assert!(!plain.is_mirrored());
    let (off, plain_locals) = (off.locals(0.5, &options), plain.locals(0.5, &options));
    let on = ClipPoser::new(twin, &rig.skeleton, Some(humanoid))
        .mirrored(MirrorMode::On)
        .locals(0.5, &options);
    for j in 0..rig.skeleton.joints.len() {
        assert_eq!(off[j], plain_locals[j]);
        assert_eq!(on[j], got[j]);
    }

    // Every human bone stands where its other side's bone stands in the twin, mirrored
    // about the body's plane (x = 0 of the Animator's space), up to Unity's centre of mass,
    // which is not mirror-symmetric: its left forearm centre is mid(LeftUpperArm, LeftHand)
    // (`body::mass_parts`), so each pose stands w/2 × (LeftUpperArm − LeftLowerArm) off
    // where the symmetric table would put it (w the forearm's mass fraction, 1.9 mm on
    // morbman). Undone on both sides, the poses are mirror images.
    let avatar = ws
        .avatars
        .iter()
        .find_map(|a| a.data.clone().filter(|d| d.is_human()))
        .expect("morbman's avatar");
    let total: f64 = mass_parts(&avatar).iter().map(|p| p.mass).sum();
    let w = (f64::from(avatar.bone_mass(HumanBone::LeftLowerArm)) / total) as f32;
    let offset = |world: &[JointLocal]| {
        let at = |b: HumanBone| world[humanoid.bone_joint(b).expect("mapped")].t;
        let (arm, elbow) = (at(HumanBone::LeftUpperArm), at(HumanBone::LeftLowerArm));
        [0, 1, 2].map(|i| (arm[i] - elbow[i]) * w / 2.0)
    };
    let (mirror_world, twin_world) = (poser.world(&got), plain.world(&plain_locals));
    let (dm, dt) = (offset(&mirror_world), offset(&twin_world));
    let (mut worst, mut placed) = (0.0f32, 0.0f32);
    for bone in HumanBone::all() {
        let (Some(a), Some(b)) = (
            humanoid.bone_joint(bone),
            humanoid.bone_joint(bone.mirror()),
        ) else {
            continue;
        };
        let (p, q) = (mirror_world[a].t, twin_world[b].t);
        let from_mirror = |p: [f32; 3], q: [f32; 3]| {
            ((p[0] + q[0]).powi(2) + (p[1] - q[1]).powi(2) + (p[2] - q[2]).powi(2)).sqrt()
        };
        let undone = |p: [f32; 3], d: [f32; 3]| [p[0] + d[0], p[1] + d[1], p[2] + d[2]];
        worst = worst.max(from_mirror(undone(p, dm), undone(q, dt)));
        placed = placed.max(from_mirror(p, q));
    }
    eprintln!(
        "largest distance from the mirror image: {worst} m with the centre-of-mass asymmetry \
         undone, {placed} m as placed"
    );
    assert!(
        worst < 1e-4,
        "a bone stands {worst} m from its mirror image"
    );
    // As placed, no more than the two offsets: w × upper arm = 3.9 mm on morbman.
    assert!(placed < 3.9e-3, "{placed}");
}

#[test]
fn check_reports_the_loop_seam_of_a_loop_pose_clip_as_a_note() {
    let mut bundle = Bundle::new(UnityTarget::Unity2020);
    bundle.clips = vec![seam_clip(false), seam_clip(true)];
    let ws = Workspace::open_bytes(
        std::path::Path::new("seams.bundle"),
        write_bundle(&bundle).unwrap(),
        &OpenOptions::default(),
    );
    let report = |name: &str| {
        let clip = common::clip(&ws, name);
        check_clip_on(
            clip,
            None,
            None,
            &Default::default(),
            &Thresholds::default(),
        )
    };
    let (raw, blended) = (report("Raw"), report("Blended"));
    assert!(common::clip(&ws, "Blended").settings.loop_pose);
    assert_eq!(raw.seams.len(), 1, "{:?}", raw.seams);
    assert_eq!(raw.seams[0].severity, Severity::Problem);
    assert!(
        (raw.seams[0].jump - 1.0).abs() < 1e-6,
        "{}",
        raw.seams[0].jump
    );
    assert_eq!(blended.seams.len(), 1);
    assert_eq!(blended.seams[0].jump, raw.seams[0].jump);
    assert_eq!(blended.seams[0].severity, Severity::Note);
    assert_eq!((raw.problems, blended.problems), (1, 0));
}
