//! Edge cases no shared file has, in real Unity files this project writes with `rabex`'s
//! writer (the `authoring` module): ping-pong legacy clips, weighted and step keys, discrete
//! and int curves in the Unity 6 layout, keys past the curve count, broken clips, stripped
//! versions.

use std::path::Path;

use clipscope_authoring::{
    Binding, Bundle, ClipSpec, Compression, FloatCurve, Frame, KeySpec, LegacyClip, MecanimClip,
    PathCurve, UnityTarget, write_bundle, write_serialized,
};
use clipscope_core::clip::BindingKind;
use clipscope_core::sample::sample_clip;
use clipscope_core::{ClipData, OpenOptions, Workspace, WrapMode};

fn open(bytes: Vec<u8>, options: &OpenOptions) -> Workspace {
    Workspace::open_bytes(Path::new("fixture.bundle"), bytes, options)
}

fn only_clip(ws: &Workspace, name: &str) -> ClipData {
    let entry = ws
        .clips
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("{name} listed"));
    entry.data.as_ref().expect("decodes").clone()
}

fn float_curve(keys: Vec<KeySpec<f32>>) -> FloatCurve {
    FloatCurve {
        path: "Body".into(),
        attribute: "m_Weight".into(),
        class_id: 114,
        keys,
        pre_infinity: 2,
        post_infinity: 2,
    }
}

fn legacy_bundle(clip: LegacyClip) -> Vec<u8> {
    let mut b = Bundle::new(UnityTarget::Unity2020);
    b.clips.push(ClipSpec::Legacy(clip));
    b.compression = Compression::Lz4;
    write_bundle(&b).unwrap()
}

#[test]
fn ping_pong_legacy_clip_runs_forward_then_back() {
    let mut clip = LegacyClip::new("Swing");
    clip.wrap_mode = 4;
    clip.floats.push(float_curve(vec![
        KeySpec::new(0.0, 0.0, 10.0, 10.0),
        KeySpec::new(1.0, 10.0, 10.0, 10.0),
    ]));
    let ws = open(legacy_bundle(clip), &OpenOptions::default());
    let c = only_clip(&ws, "Swing");
    assert!(c.legacy);
    assert_eq!(c.wrap_mode(), WrapMode::PingPong);
    assert_eq!(c.length(), 1.0);
    let report = sample_clip(
        &c,
        &[0.25, 1.0, 1.5, 2.0, 2.25, -0.25, 100.75],
        c.wrap_mode(),
    );
    let values: Vec<f64> = report.curves[0].values.iter().map(|v| v.unwrap()).collect();
    let expected = [2.5, 10.0, 5.0, 0.0, 2.5, 2.5, 7.5];
    for (v, e) in values.iter().zip(expected) {
        assert!((v - e).abs() < 1e-5, "{values:?}");
    }
    assert_eq!(c.bindings[0].attribute_name.as_deref(), Some("m_Weight"));
    assert_eq!(c.bindings[0].path, clipscope_core::path_hash("Body"));
}

/// One side of a segment: key value, slope (per second) and handle weight.
struct Side {
    value: f64,
    slope: f64,
    weight: f64,
}

/// Unity's weighted segment solved independently: bisection on x(u) = s in f64.
fn weighted_closed_form(s: f64, left: Side, right: Side, dx: f64) -> f64 {
    let bez = |p: [f64; 4], u: f64| {
        let n = 1.0 - u;
        n * n * n * p[0] + 3.0 * n * n * u * p[1] + 3.0 * n * u * u * p[2] + u * u * u * p[3]
    };
    let x = [0.0, left.weight, 1.0 - right.weight, 1.0];
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..100 {
        let mid = (lo + hi) / 2.0;
        if bez(x, mid) < s { lo = mid } else { hi = mid }
    }
    let p1 = left.value + left.weight * left.slope * dx;
    let p2 = right.value - right.weight * right.slope * dx;
    bez([left.value, p1, p2, right.value], lo)
}

#[test]
fn weighted_and_step_keys_follow_unity_rules() {
    let mut clip = LegacyClip::new("Keys");
    let mut a = KeySpec::new(0.0, 0.0, 0.0, 4.0);
    a.weighted_mode = 2;
    a.out_weight = 0.6;
    let mut b = KeySpec::new(2.0, 1.0, -1.0, f32::INFINITY);
    b.weighted_mode = 1;
    b.in_weight = 0.1;
    let c = KeySpec::new(3.0, 5.0, 0.0, 0.0);
    clip.floats.push(float_curve(vec![a, b, c]));
    let ws = open(legacy_bundle(clip), &OpenOptions::default());
    let clip = only_clip(&ws, "Keys");
    let curve = &clip.curves[0].curve;
    let keys = curve.keys();
    assert_eq!((keys[0].weighted_mode, keys[0].out_weight), (2, 0.6));
    assert_eq!((keys[1].weighted_mode, keys[1].in_weight), (1, 0.1));
    for t in [0.1f32, 0.5, 1.0, 1.5, 1.9] {
        let left = Side {
            value: 0.0,
            slope: 4.0,
            weight: 0.6,
        };
        let right = Side {
            value: 1.0,
            slope: -1.0,
            weight: 0.1,
        };
        let expected = weighted_closed_form(t as f64 / 2.0, left, right, 2.0);
        assert!(
            (curve.sample(t) as f64 - expected).abs() < 1e-4,
            "t={t}: {} vs {expected}",
            curve.sample(t)
        );
    }
    // Key 1's infinite out slope holds its value until exactly key 2.
    assert_eq!(curve.sample(2.0), 1.0);
    assert_eq!(curve.sample(2.999), 1.0);
    assert_eq!(curve.sample(3.0), 5.0);
}

fn stream(frames: Vec<Frame>) -> Vec<Frame> {
    let mut all = frames;
    all.push(Frame {
        time: f32::INFINITY,
        keys: vec![],
    });
    all
}

#[test]
fn unity6_discrete_and_int_curves_hold_their_values() {
    let mut clip = MecanimClip::new("Discrete");
    clip.stop = 1.0;
    clip.bindings = vec![
        Binding {
            path: 7,
            attribute: 11,
            type_id: 114,
            custom_type: 24,
            is_pptr: false,
            is_int: false,
            script: (0, 0),
        },
        Binding {
            path: 7,
            attribute: 12,
            type_id: 114,
            custom_type: 24,
            is_pptr: false,
            is_int: true,
            script: (0, 0),
        },
    ];
    clip.streamed_curve_count = 1;
    clip.discrete_curve_count = 1;
    clip.frames = stream(vec![
        Frame {
            time: -f32::MAX,
            keys: vec![
                (0, [0.0, 0.0, 0.0, 1.0]),
                (1, [0.0, 0.0, 0.0, f32::from_bits(2)]),
            ],
        },
        Frame {
            time: 0.0,
            keys: vec![
                (0, [0.0, 0.0, 2.0, 1.0]),
                (1, [0.0, 0.0, 0.0, f32::from_bits(2)]),
            ],
        },
        Frame {
            time: 0.5,
            keys: vec![
                (0, [0.0, 0.0, 2.0, 2.0]),
                (1, [0.0, 0.0, 0.0, f32::from_bits(u32::MAX)]),
            ],
        },
        Frame {
            time: 1.0,
            keys: vec![(0, [0.0, 0.0, 0.0, 3.0])],
        },
    ]);
    let mut b = Bundle::new(UnityTarget::Unity6);
    b.clips.push(ClipSpec::Mecanim(clip));
    let ws = open(write_bundle(&b).unwrap(), &OpenOptions::default());
    let c = only_clip(&ws, "Discrete");
    assert_eq!(c.counts.streamed, 2, "curveCount + discreteCurveCount");
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    let linear = &c.curves[0].curve;
    assert!((linear.sample(0.25) - 1.5).abs() < 1e-6);
    assert!((linear.sample(0.75) - 2.5).abs() < 1e-6);
    let int = &c.curves[1].curve;
    assert!(c.bindings[1].is_int);
    assert_eq!(int.sample(0.25), 2.0);
    assert_eq!(int.sample(0.4999), 2.0);
    assert_eq!(int.sample(0.5), -1.0, "0xFFFFFFFF is the integer -1");
}

#[test]
fn keys_past_the_curve_count_are_reported_and_a_bad_clip_spares_the_others() {
    let mut past = MecanimClip::new("Past");
    past.bindings = vec![Binding::transform(0, 1)];
    past.streamed_curve_count = 3;
    let key = |v: f32| [0.0, 0.0, 0.0, v];
    past.frames = stream(vec![
        Frame {
            time: -f32::MAX,
            keys: vec![
                (0, key(1.0)),
                (1, key(2.0)),
                (2, key(3.0)),
                (3, key(0.0)),
                (9, key(4.0)),
            ],
        },
        Frame {
            time: 0.5,
            keys: vec![(1, key(5.0)), (3, key(7.0))],
        },
    ]);
    let mut broken = MecanimClip::new("Broken");
    broken.bindings = vec![Binding::transform(0, 1)];
    broken.streamed_curve_count = 3;
    broken.frames = vec![Frame {
        time: 0.0,
        keys: vec![],
    }];
    broken.streamed_suffix = vec![0.5f32.to_bits(), 1000];
    let mut b = Bundle::new(UnityTarget::Unity2020);
    b.clips.push(ClipSpec::Mecanim(past));
    b.clips.push(ClipSpec::Mecanim(broken));
    let ws = open(write_bundle(&b).unwrap(), &OpenOptions::default());
    let c = only_clip(&ws, "Past");
    assert_eq!(c.curves.len(), 3);
    assert!(
        c.warnings
            .iter()
            .any(|w| w.starts_with("3 streamed keys index curves past")),
        "{:?}",
        c.warnings
    );
    assert_eq!(c.curves[1].curve.sample(0.6), 5.0);
    assert_eq!(c.curves[2].curve.sample(0.6), 3.0);
    let broken = ws
        .clips
        .iter()
        .find(|e| e.data.is_err())
        .expect("the broken clip is listed");
    let message = broken.data.as_ref().unwrap_err().to_string();
    assert!(
        message.contains("fixture.bundle")
            && message.contains("AnimationClip")
            && message.contains("streamed block"),
        "{message}"
    );
    assert!(
        message.contains(&format!("object {}", broken.at.path_id)),
        "{message}"
    );
}

#[test]
fn euler_curves_keep_their_rotation_order() {
    let mut clip = LegacyClip::new("Turn");
    let mut euler = PathCurve::new(
        "Arm",
        vec![
            KeySpec::flat(0.0, [0.0, 90.0, 0.0]),
            KeySpec::flat(1.0, [0.0, 180.0, 0.0]),
        ],
    );
    euler.rotation_order = 1;
    clip.euler.push(euler);
    let ws = open(legacy_bundle(clip), &OpenOptions::default());
    let c = only_clip(&ws, "Turn");
    assert_eq!(c.bindings[0].kind(), BindingKind::Euler { order: 1 });
    assert_eq!(c.tracks[0].curves.len(), 3);
    assert!((c.curves[1].curve.sample(0.5) - 135.0).abs() < 1e-4);
}

/// Rewrites a format-22 serialized file's Unity version string as `version`, keeping every
/// object at its offset (the bytes saved are padded after the metadata). The string must
/// shrink by a multiple of 4 bytes so that the object table stays aligned.
fn with_version(mut bytes: Vec<u8>, version: &str) -> Vec<u8> {
    let start = 48;
    let end = start + bytes[start..].iter().position(|&b| b == 0).unwrap();
    let removed = (end - start) - version.len();
    assert_eq!(removed % 4, 0);
    let meta_size = u64::from_be_bytes(bytes[16..24].try_into().unwrap());
    bytes.splice(start..end, version.bytes());
    let meta_end = start + meta_size as usize - removed;
    bytes.splice(meta_end..meta_end, std::iter::repeat_n(0u8, removed));
    bytes[16..24].copy_from_slice(&(meta_size - removed as u64).to_be_bytes());
    bytes
}

#[test]
fn stripped_versions_are_assumed_with_a_warning_and_can_be_overridden() {
    let mut clip = LegacyClip::new("Bob");
    clip.floats.push(float_curve(vec![
        KeySpec::flat(0.0, 1.0),
        KeySpec::flat(1.0, 2.0),
    ]));
    let mut b = Bundle::new(UnityTarget::Unity2020);
    b.clips.push(ClipSpec::Legacy(clip));
    // "0.0.0\n2" keeps the metadata's 4-byte alignment (the string shrinks by 4 bytes); the
    // "\n2" suffix is how Unity marks a version in files built without type trees.
    let stripped = with_version(write_serialized(&b).unwrap(), "0.0.0\n2");
    let ws = open(stripped.clone(), &OpenOptions::default());
    assert!(ws.errors.is_empty(), "{:?}", ws.errors);
    assert!(
        ws.warnings
            .iter()
            .any(|w| w.contains("stripped") && w.contains("--unity-version")),
        "{:?}",
        ws.warnings
    );
    assert_eq!(only_clip(&ws, "Bob").curves[0].curve.sample(1.0), 2.0);
    let options = OpenOptions {
        unity_version: Some("2020.3.34f1".into()),
        ..OpenOptions::default()
    };
    let ws = open(stripped, &options);
    assert_eq!(
        ws.files[0]
            .summary
            .as_ref()
            .unwrap()
            .effective_version()
            .to_string(),
        "2020.3.34f1"
    );
    assert_eq!(only_clip(&ws, "Bob").curves[0].curve.sample(0.0), 1.0);
}
