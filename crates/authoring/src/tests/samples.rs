//! The descriptions the round-trip tests write.

use std::f32::consts::FRAC_1_SQRT_2;

use super::super::*;

/// A Mecanim clip touching every store: a root position (3 streamed curves), an Animator float
/// (streamed), a discrete int curve, one dense curve and two constants.
pub(super) fn mecanim_sample() -> MecanimClip {
    let key = |index, c3| (index, [0.0, 0.0, 0.0, c3]);
    let mut clip = MecanimClip::new("Walk");
    clip.stop = 2.0;
    clip.sample_rate = 30.0;
    clip.loop_time = true;
    clip.cycle_offset = 0.25;
    clip.bindings = vec![
        Binding::transform(0, 1),
        Binding {
            path: 0,
            attribute: 0xC50B_CE51,
            type_id: 95,
            ..Default::default()
        },
        Binding {
            path: 7,
            attribute: 99,
            type_id: 114,
            is_int: true,
            ..Default::default()
        },
        Binding {
            path: 8,
            attribute: 5,
            type_id: 95,
            ..Default::default()
        },
        Binding {
            path: 9,
            attribute: 6,
            type_id: 95,
            custom_type: 8,
            ..Default::default()
        },
        Binding {
            path: 9,
            attribute: 7,
            type_id: 212,
            is_pptr: true,
            ..Default::default()
        },
    ];
    clip.streamed_curve_count = 4;
    clip.discrete_curve_count = 1;
    clip.frames = vec![
        Frame {
            time: -f32::MAX,
            keys: vec![
                key(0, 1.0),
                key(1, 2.0),
                key(2, 3.0),
                key(3, 0.5),
                key(4, 7.0),
            ],
        },
        Frame {
            time: 0.0,
            keys: vec![(0, [0.0, 0.0, 2.0, 1.0]), key(4, 8.0)],
        },
        Frame {
            time: 1.0,
            keys: vec![key(0, 3.0)],
        },
        Frame {
            time: f32::INFINITY,
            keys: vec![],
        },
    ];
    clip.dense = Some(Dense {
        frame_count: 2,
        curve_count: 1,
        sample_rate: 30.0,
        begin_time: 0.0,
        samples: vec![4.0, 5.0],
    });
    clip.constants = vec![1.5, 2.5];
    clip.pptr_mapping = vec![(0, 42), (1, -7)];
    clip.events = vec![Event {
        time: 0.5,
        function: "Step".into(),
        data: "left".into(),
        float: 0.75,
        int: -3,
        ..Event::default()
    }];
    clip
}

/// A legacy clip with one curve of each kind, a weighted key and a stepped key.
pub(super) fn legacy_sample() -> LegacyClip {
    let mut weighted = KeySpec::new(
        1.0,
        [0.0, FRAC_1_SQRT_2, 0.0, FRAC_1_SQRT_2],
        [0.1; 4],
        [0.2; 4],
    );
    weighted.weighted_mode = 3;
    weighted.in_weight = [0.25; 4];
    weighted.out_weight = [0.5; 4];
    let mut stepped = KeySpec::new(0.5, 1.0, f32::INFINITY, f32::INFINITY);
    stepped.weighted_mode = 1;
    let mut clip = LegacyClip::new("Idle");
    clip.sample_rate = 24.0;
    clip.wrap_mode = 4;
    clip.rotation = vec![PathCurve::new(
        "Hips",
        vec![KeySpec::flat(0.0, [0.0, 0.0, 0.0, 1.0]), weighted],
    )];
    clip.euler = vec![PathCurve::new(
        "Hips/Spine",
        vec![KeySpec::flat(0.0, [10.0, 20.0, 30.0])],
    )];
    clip.position = vec![PathCurve::new(
        "",
        vec![KeySpec::flat(0.25, [1.0, 2.0, 3.0])],
    )];
    clip.scale = vec![PathCurve::new(
        "Hips",
        vec![KeySpec::flat(2.0, [1.0, 1.0, 2.0])],
    )];
    clip.floats = vec![FloatCurve {
        path: "Body".into(),
        attribute: "blendShape.Smile".into(),
        class_id: 137,
        keys: vec![KeySpec::flat(0.0, 0.0), stepped],
        pre_infinity: 1,
        post_infinity: 0,
    }];
    clip
}

pub(super) fn sample_rig(component: RigComponent) -> RigSpec {
    let mut hips = Joint::new("Hips", Some(0), [0.0, 1.0, 0.0]);
    hips.rotation = [0.0, 0.0, FRAC_1_SQRT_2, FRAC_1_SQRT_2];
    hips.scale = [2.0, 2.0, 2.0];
    RigSpec {
        joints: vec![
            Joint::new("Root", None, [0.0; 3]),
            hips,
            Joint::new("Spine", Some(1), [0.0, 0.5, 0.1]),
            Joint::new("Tail", Some(0), [0.0, 0.2, -0.5]),
        ],
        component,
        renderers: Vec::new(),
    }
}

pub(super) fn sample_bundle(target: UnityTarget, compression: Compression) -> Bundle {
    let mut bundle = Bundle::new(target);
    bundle.compression = compression;
    bundle.clips = vec![
        ClipSpec::Mecanim(mecanim_sample()),
        ClipSpec::Legacy(legacy_sample()),
    ];
    bundle.rig = Some(sample_rig(RigComponent::Animation {
        clips: vec![1, 0],
        wrap_mode: 2,
    }));
    bundle
}
