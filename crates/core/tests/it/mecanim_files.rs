//! Mecanim clips of real files: block counts, bindings and values against what the files
//! hold (the shared data README and the stored samples themselves).

use crate::common;

use clipscope_core::clip::{BindingKind, Storage};
use clipscope_core::curve::CurveShape;
use clipscope_core::rig::RigComponent;
use clipscope_core::{WrapMode, path_hash};
use common::{clip, data, open};

#[test]
fn default_dance_counts_and_loop() {
    let Some(path) = data("binary/wetboys_plateupemotesapi/customemotespackage") else {
        return;
    };
    let ws = open(&[path]);
    let c = clip(&ws, "Default Dance");
    assert!(!c.legacy);
    assert_eq!(
        (c.counts.streamed, c.counts.dense, c.counts.constant),
        (2, 102, 26)
    );
    assert_eq!(c.bindings.len(), 130);
    assert!((c.length() - 6.8).abs() < 1e-4, "length {}", c.length());
    assert_eq!(c.sample_rate, 30.0);
    assert_eq!(c.wrap_mode(), WrapMode::Loop);
    assert!(c.bindings.iter().all(|b| b.kind() == BindingKind::Muscle));
    assert!(c.bindings.iter().all(|b| b.attribute_name.is_some()));
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
}

#[test]
fn moisture_clips_counts_and_blend_shapes() {
    let Some(path) = data("binary/wetboys_plateupemotesapi/moisture_animationreplacements") else {
        return;
    };
    let ws = open(&[path]);
    let counts = |name| {
        let c = clip(&ws, name);
        (c.counts.streamed, c.counts.dense, c.counts.constant)
    };
    assert_eq!(counts("nobones"), (2, 103, 25));
    assert_eq!(counts("Dab"), (50, 75, 45));
    assert_eq!(counts("Floss"), (0, 78, 52));
    let dab = clip(&ws, "Dab");
    assert_eq!(dab.bindings.len(), 170);
    let shapes = dab
        .bindings
        .iter()
        .filter(|b| b.kind() == BindingKind::BlendShape)
        .count();
    assert_eq!(shapes, 40);
    assert!(
        dab.bindings
            .iter()
            .filter(|b| b.custom_type == 20)
            .all(|b| b.type_id == 137)
    );
}

#[test]
fn dense_curves_hit_their_stored_samples_and_interpolate_linearly() {
    let Some(path) = data("binary/wetboys_plateupemotesapi/moisture_animationreplacements") else {
        return;
    };
    let ws = open(&[path]);
    let floss = clip(&ws, "Floss");
    let mut checked = 0;
    for c in floss.curves.iter().filter(|c| c.storage == Storage::Dense) {
        let CurveShape::Sampled {
            begin,
            rate,
            values,
        } = &c.curve.shape
        else {
            panic!("dense curve not sampled")
        };
        for (i, w) in values.windows(2).enumerate() {
            let t0 = begin + i as f32 / rate;
            assert_eq!(c.curve.sample(t0), w[0], "frame {i}");
            let mid = c.curve.sample(t0 + 0.5 / rate);
            assert!(
                (mid - (w[0] + w[1]) / 2.0).abs() <= 1e-5 * w[0].abs().max(1.0),
                "frame {i}"
            );
            checked += 1;
        }
    }
    assert!(checked > 1000, "only {checked} dense segments checked");
}

#[test]
fn mannequin_constant_clip_matches_its_rig() {
    let Some(path) = data("binary/lessscarymannequins/copy.bundle") else {
        return;
    };
    let ws = open(&[path]);
    let c = clip(&ws, "TestClip");
    assert_eq!(
        (c.counts.streamed, c.counts.dense, c.counts.constant),
        (0, 0, 234)
    );
    assert_eq!(c.bindings.len(), 78);
    let euler = c
        .bindings
        .iter()
        .filter(|b| matches!(b.kind(), BindingKind::Euler { .. }))
        .count();
    assert_eq!(euler, 26);
    assert_eq!((c.length(), c.sample_rate), (1.0, 60.0));
    let rig = ws
        .rigs
        .iter()
        .find(|r| r.component == RigComponent::Animator)
        .expect("rig");
    // The Transform hierarchy under the Animator: the whole file has 30 Transforms, one of
    // them the Animator's parent.
    assert_eq!(rig.skeleton.joints.len(), 29);
    for b in &c.bindings {
        assert!(
            rig.skeleton.joint_by_hash(b.path).is_some(),
            "binding path {:#x} has no joint",
            b.path
        );
    }
    let root = &rig.skeleton.joints[0];
    assert_eq!((root.path.as_str(), root.path_hash), ("", 0));
    let armature = rig
        .skeleton
        .joints
        .iter()
        .find(|j| j.name == "Armature")
        .unwrap();
    assert_eq!(armature.path_hash, path_hash("Armature"));
}

#[test]
fn sprite_clips_index_their_pptr_mapping() {
    let Some(path) = data("binary/day65platformer2d") else {
        return;
    };
    let ws = open(&[path]);
    for name in ["Idle", "Walk"] {
        let c = clip(&ws, name);
        assert_eq!(c.bindings.len(), 1);
        assert!(c.bindings[0].is_pptr);
        assert!(!c.pptr_mapping.is_empty());
        let curve = &c.curves[0].curve;
        for frame in 0..=(c.length() * c.sample_rate) as usize {
            let v = curve.sample(frame as f32 / c.sample_rate);
            assert_eq!(v.fract(), 0.0, "{name}: PPtr values are whole indices");
            assert!(
                (v as usize) < c.pptr_mapping.len(),
                "{name}: index {v} past the mapping"
            );
        }
    }
    // The level's Animator reaches both clips through its controller in sharedassets0.
    let rig = ws
        .rigs
        .iter()
        .find(|r| r.component == RigComponent::Animator)
        .expect("rig");
    assert_eq!(rig.clips.len(), 3);
}

#[test]
fn morbman_rig_uses_its_avatar_and_controller_across_bundles() {
    let (Some(rig), Some(clips)) = (
        data("binary/wetboys_plateupemotesapi/morbman"),
        data("binary/wetboys_plateupemotesapi/moisture_animationreplacements"),
    ) else {
        return;
    };
    let ws = open(&[rig, clips]);
    let rig = ws
        .rigs
        .iter()
        .find(|r| r.name == "morbman")
        .expect("morbman rig");
    assert_eq!(rig.skeleton.joints.len(), 38);
    assert!(!rig.tos.is_empty());
    for (hash, path) in rig.tos.iter() {
        assert_eq!(path_hash(path), *hash, "m_TOS entry {path}");
    }
    let controller = ws
        .controllers
        .iter()
        .find(|c| c.name == "dancecontroller")
        .unwrap();
    let names: Vec<&str> = controller
        .clips
        .iter()
        .map(|&r| ws.clip(r).unwrap().name.as_str())
        .collect();
    assert!(
        names.contains(&"Floss") && names.contains(&"Dab"),
        "{names:?}"
    );
}

#[test]
fn decoded_curves_take_at_most_twice_the_stored_key_data() {
    use clipscope_core::unity::clip::AnimationClip;
    let Some(path) = data("binary/wetboys_plateupemotesapi/moisture_animationreplacements") else {
        return;
    };
    let ws = open(std::slice::from_ref(&path));
    let file =
        common::serialized_files("binary/wetboys_plateupemotesapi/moisture_animationreplacements")
            .unwrap()
            .remove(0);
    let mut checked = 0;
    for entry in &ws.clips {
        let info = file.object(entry.at.path_id).unwrap();
        let raw: AnimationClip = file.read(info).unwrap();
        let stored = raw.m_MuscleClip.as_ref().map_or(0, |m| {
            let c = &m.m_Clip.data;
            4 * (c.m_StreamedClip.data.len()
                + c.m_DenseClip.m_SampleArray.len()
                + c.m_ConstantClip.data.len())
        });
        let decoded = entry.data.as_ref().unwrap().curve_bytes();
        assert!(stored > 0);
        assert!(
            decoded <= 2 * stored,
            "{}: {decoded} bytes decoded from {stored} stored",
            entry.name
        );
        checked += 1;
    }
    assert_eq!(checked, 3);
}

#[test]
fn rigs_link_their_avatar_and_only_humanoid_ones_can_pose_muscles() {
    let (Some(morbman), Some(copy)) = (
        data("binary/wetboys_plateupemotesapi/morbman"),
        data("binary/lessscarymannequins/copy.bundle"),
    ) else {
        return;
    };
    let ws = open(&[morbman, copy]);
    let rig = |name: &str| ws.rigs.iter().find(|r| r.name == name).unwrap();
    let morbman = rig("morbman");
    let avatar = ws
        .avatar(morbman.avatar.expect("morbman's Animator has an Avatar"))
        .unwrap();
    assert!(avatar.data.as_ref().is_some_and(|d| d.is_human()));
    let humanoid = morbman.humanoid.as_ref().expect("morbman is humanoid");
    assert_eq!(humanoid.joint_count(), morbman.skeleton.joints.len());
    // The mannequin's Avatar is empty: its rig plays generic clips only.
    let quinn = rig("quinn");
    assert!(quinn.avatar.is_some() && quinn.humanoid.is_none());
    assert_eq!(ws.humanoid_rigs().count(), 1);
}
