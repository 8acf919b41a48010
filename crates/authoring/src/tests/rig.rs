//! Rig round trips and rig validation.

use std::f32::consts::FRAC_1_SQRT_2;

use serde_json::Value;

use super::super::*;
use super::TARGETS;
use super::readback::{f, read_bundle, words};
use super::samples::{sample_bundle, sample_rig};

#[test]
fn rig_with_animation_component_round_trips() {
    for target in TARGETS {
        let back = read_bundle(&sample_bundle(target, Compression::Lzma));
        // 2 clips, then 4 GameObjects (3..=6), 4 Transforms (7..=10), the Animation (11).
        assert_eq!(back.objects.len(), 11);
        let root = back.object(3, 1);
        assert_eq!(root["m_Name"], "Root");
        assert_eq!(root["m_IsActive"], true);
        let components: Vec<&Value> = root["m_Component"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| &c["component"]["m_PathID"])
            .collect();
        assert_eq!(components, [7, 11]);
        assert_eq!(back.object(4, 1)["m_Name"], "Hips");

        let hips = back.object(8, 4);
        assert_eq!(hips["m_GameObject"]["m_PathID"], 4);
        assert_eq!(hips["m_Father"]["m_PathID"], 7);
        assert_eq!(f(&hips["m_LocalPosition"]["y"]), 1.0);
        assert_eq!(f(&hips["m_LocalRotation"]["w"]), FRAC_1_SQRT_2);
        assert_eq!(f(&hips["m_LocalScale"]["x"]), 2.0);
        assert_eq!(hips["m_Children"][0]["m_PathID"], 9);
        let root_transform = back.object(7, 4);
        assert_eq!(root_transform["m_Father"]["m_PathID"], 0);
        let children: Vec<&Value> = root_transform["m_Children"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| &c["m_PathID"])
            .collect();
        assert_eq!(children, [8, 10]);
        assert_eq!(f(&back.object(10, 4)["m_LocalPosition"]["z"]), -0.5);

        let animation = back.object(11, 111);
        assert_eq!(animation["m_GameObject"]["m_PathID"], 3);
        assert_eq!(animation["m_Animation"]["m_PathID"], 2);
        assert_eq!(animation["m_Animations"][1]["m_PathID"], 1);
        assert_eq!(animation["m_WrapMode"], 2);
        assert_eq!(animation["m_Enabled"], 1);
    }
}

#[test]
fn rig_with_animator_round_trips() {
    for target in TARGETS {
        let mut bundle = Bundle::new(target);
        bundle.clips = vec![ClipSpec::Mecanim(MecanimClip::new("Empty"))];
        bundle.rig = Some(sample_rig(RigComponent::Animator));
        let back = read_bundle(&bundle);
        let animator = back.object(10, 95);
        assert_eq!(animator["m_GameObject"]["m_PathID"], 2);
        assert_eq!(animator["m_Avatar"]["m_PathID"], 0);
        assert_eq!(animator["m_Controller"]["m_PathID"], 0);
        assert_eq!(animator["m_HasTransformHierarchy"], true);
        let empty = back.object(1, 74);
        assert_eq!(empty["m_Name"], "Empty");
        assert_eq!(
            words(&empty["m_MuscleClip"]["m_Clip"]["data"]["m_StreamedClip"]["data"]),
            Vec::<u32>::new()
        );
    }
}

#[test]
fn malformed_rigs_are_rejected() {
    let cases = [
        RigSpec {
            joints: vec![],
            component: RigComponent::Animator,
            renderers: Vec::new(),
        },
        RigSpec {
            joints: vec![
                Joint::new("a", None, [0.0; 3]),
                Joint::new("b", Some(1), [0.0; 3]),
            ],
            component: RigComponent::Animator,
            renderers: Vec::new(),
        },
        RigSpec {
            joints: vec![
                Joint::new("a", None, [0.0; 3]),
                Joint::new("b", None, [0.0; 3]),
            ],
            component: RigComponent::Animator,
            renderers: Vec::new(),
        },
        sample_rig(RigComponent::Animation {
            clips: vec![5],
            wrap_mode: 0,
        }),
    ];
    for rig in cases {
        let mut bundle = Bundle::new(UnityTarget::Unity2020);
        bundle.rig = Some(rig);
        let error = write_serialized(&bundle).unwrap_err();
        assert!(matches!(error, AuthoringError::InvalidRig(_)), "{error}");
    }
}
