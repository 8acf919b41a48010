//! Round trips: write with this module, read back with rabex's reader against the full type
//! tree, and check that what went in comes out. Every object must be consumed to its last byte,
//! which catches struct fields missing from the end of a type.

mod readback;
mod renderer;
mod rig;
mod samples;

use std::f32::consts::FRAC_1_SQRT_2;
use std::io::Cursor;

use rabex::files::SerializedFile;
use serde_json::Value;

use super::*;
use readback::{f, floats, open_bundle, read_bundle, read_serialized, words};
use samples::{mecanim_sample, sample_bundle};

const TARGETS: [UnityTarget; 2] = [UnityTarget::Unity2020, UnityTarget::Unity6];
const COMPRESSIONS: [Compression; 3] = [Compression::None, Compression::Lz4, Compression::Lzma];

#[test]
fn streamed_words_encode_frames_verbatim() {
    let frames = [
        Frame {
            time: -f32::MAX,
            keys: vec![(3, [1.0, 2.0, 3.0, 4.0])],
        },
        Frame {
            time: f32::INFINITY,
            keys: vec![],
        },
    ];
    let expected = [
        (-f32::MAX).to_bits(),
        1,
        3,
        1f32.to_bits(),
        2f32.to_bits(),
        3f32.to_bits(),
        4f32.to_bits(),
        f32::INFINITY.to_bits(),
        0,
    ];
    assert_eq!(streamed_words(&frames), expected);
}

#[test]
fn mecanim_clip_round_trips_for_every_target_and_compression() {
    let spec = mecanim_sample();
    for target in TARGETS {
        for compression in COMPRESSIONS {
            let back = read_bundle(&sample_bundle(target, compression));
            assert_eq!(back.version, target.version());
            assert!(back.type_trees);
            check_mecanim(back.object(1, 74), &spec, target);
        }
    }
}

fn check_mecanim(clip: &Value, spec: &MecanimClip, target: UnityTarget) {
    assert_eq!(clip["m_Name"], "Walk");
    assert_eq!(clip["m_Legacy"], false);
    assert_eq!(f(&clip["m_SampleRate"]), 30.0);
    assert_eq!(clip["m_WrapMode"], 0);
    let muscle = &clip["m_MuscleClip"];
    assert_eq!(f(&muscle["m_StartTime"]), 0.0);
    assert_eq!(f(&muscle["m_StopTime"]), 2.0);
    assert_eq!(f(&muscle["m_CycleOffset"]), 0.25);
    assert_eq!(muscle["m_LoopTime"], true);
    assert_eq!(muscle["m_IndexArray"].as_array().unwrap().len(), 200);
    let stores = &muscle["m_Clip"]["data"];
    let streamed = &stores["m_StreamedClip"];
    let mut expected_words = streamed_words(&spec.frames);
    expected_words.extend(&spec.streamed_suffix);
    assert_eq!(words(&streamed["data"]), expected_words);
    match target {
        UnityTarget::Unity2020 => {
            assert_eq!(streamed["curveCount"], 4);
            assert!(streamed.get("discreteCurveCount").is_none());
        }
        UnityTarget::Unity6 => {
            assert_eq!(streamed["curveCount"], 4);
            assert_eq!(streamed["discreteCurveCount"], 1);
        }
    }
    let dense = &stores["m_DenseClip"];
    assert_eq!(dense["m_FrameCount"], 2);
    assert_eq!(dense["m_CurveCount"], 1);
    assert_eq!(floats(&dense["m_SampleArray"]), [4.0, 5.0]);
    assert_eq!(floats(&stores["m_ConstantClip"]["data"]), [1.5, 2.5]);
    check_bindings(&clip["m_ClipBindingConstant"], target);
    let event = &clip["m_Events"][0];
    assert_eq!(f(&event["time"]), 0.5);
    assert_eq!(event["functionName"], "Step");
    assert_eq!(event["data"], "left");
    assert_eq!(f(&event["floatParameter"]), 0.75);
    assert_eq!(event["intParameter"], -3);
}

fn check_bindings(constant: &Value, target: UnityTarget) {
    let bindings = constant["genericBindings"].as_array().unwrap();
    assert_eq!(bindings.len(), 6);
    assert_eq!(bindings[0]["typeID"], 4);
    assert_eq!(bindings[0]["attribute"], 1);
    assert_eq!(bindings[1]["attribute"], 0xC50B_CE51u32);
    assert_eq!(bindings[4]["customType"], 8);
    assert_eq!(bindings[5]["isPPtrCurve"], 1);
    match target {
        UnityTarget::Unity2020 => assert!(bindings[2].get("isIntCurve").is_none()),
        UnityTarget::Unity6 => {
            assert_eq!(bindings[2]["isIntCurve"], 1);
            assert_eq!(bindings[0]["isIntCurve"], 0);
            assert_eq!(bindings[2]["isSerializeReferenceCurve"], 0);
        }
    }
    let mapping = constant["pptrCurveMapping"].as_array().unwrap();
    assert_eq!(mapping[0]["m_PathID"], 42);
    assert_eq!(mapping[1]["m_FileID"], 1);
    assert_eq!(mapping[1]["m_PathID"], -7);
}

#[test]
fn value_deltas_evaluate_each_store_at_start_and_stop() {
    let back = read_bundle(&sample_bundle(UnityTarget::Unity6, Compression::None));
    let deltas = back.object(1, 74)["m_MuscleClip"]["m_ValueArrayDelta"].clone();
    let pairs: Vec<(f32, f32)> = deltas
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (f(&d["m_Start"]), f(&d["m_Stop"])))
        .collect();
    // 3 position + 5 one-dimensional bindings = 8 curves. Curve 0: 1 + 2t from 0, then 3 from
    // t = 1; curve 4 is discrete (8 from t = 0); 5 is dense (4 at 0, last frame 5 at 2 s);
    // 6 and 7 are the constants.
    assert_eq!(pairs.len(), 8);
    assert_eq!(pairs[0], (1.0, 3.0));
    assert_eq!(pairs[1], (2.0, 2.0));
    assert_eq!(pairs[4], (8.0, 8.0));
    assert_eq!(pairs[5], (4.0, 5.0));
    assert_eq!(pairs[6], (1.5, 1.5));
    assert_eq!(pairs[7], (2.5, 2.5));
}

#[test]
fn legacy_clip_round_trips_keys_weights_and_wrap_mode() {
    for target in TARGETS {
        let back = read_bundle(&sample_bundle(target, Compression::Lz4));
        let clip = back.object(2, 74);
        assert_eq!(clip["m_Name"], "Idle");
        assert_eq!(clip["m_Legacy"], true);
        assert_eq!(clip["m_WrapMode"], 4);
        assert_eq!(f(&clip["m_SampleRate"]), 24.0);
        let streamed = &clip["m_MuscleClip"]["m_Clip"]["data"]["m_StreamedClip"];
        assert_eq!(streamed["curveCount"], 0);
        assert_eq!(
            clip["m_ClipBindingConstant"]["genericBindings"],
            Value::Array(vec![])
        );
        assert_eq!(f(&clip["m_MuscleClip"]["m_StopTime"]), 2.0);

        let rotation = &clip["m_RotationCurves"][0];
        assert_eq!(rotation["path"], "Hips");
        let key = &rotation["curve"]["m_Curve"][1];
        assert_eq!(f(&key["time"]), 1.0);
        assert_eq!(f(&key["value"]["y"]), FRAC_1_SQRT_2);
        assert_eq!(f(&key["value"]["w"]), FRAC_1_SQRT_2);
        assert_eq!(f(&key["inSlope"]["x"]), 0.1);
        assert_eq!(f(&key["outSlope"]["z"]), 0.2);
        assert_eq!(key["weightedMode"], 3);
        assert_eq!(f(&key["inWeight"]["w"]), 0.25);
        assert_eq!(f(&key["outWeight"]["x"]), 0.5);
        assert_eq!(rotation["curve"]["m_RotationOrder"], 4);
        assert_eq!(rotation["curve"]["m_PostInfinity"], 2);

        let euler = &clip["m_EulerCurves"][0];
        assert_eq!(euler["path"], "Hips/Spine");
        assert_eq!(f(&euler["curve"]["m_Curve"][0]["value"]["z"]), 30.0);
        assert_eq!(
            f(&clip["m_PositionCurves"][0]["curve"]["m_Curve"][0]["value"]["y"]),
            2.0
        );
        assert_eq!(
            f(&clip["m_ScaleCurves"][0]["curve"]["m_Curve"][0]["time"]),
            2.0
        );
        check_float_curve(&clip["m_FloatCurves"][0], target);
    }
}

fn check_float_curve(curve: &Value, target: UnityTarget) {
    assert_eq!(curve["path"], "Body");
    assert_eq!(curve["attribute"], "blendShape.Smile");
    assert_eq!(curve["classID"], 137);
    assert_eq!(curve["curve"]["m_PreInfinity"], 1);
    assert_eq!(curve["curve"]["m_PostInfinity"], 0);
    let stepped = &curve["curve"]["m_Curve"][1];
    assert_eq!(f(&stepped["value"]), 1.0);
    assert_eq!(stepped["weightedMode"], 1);
    assert!((f(&stepped["inWeight"]) - 1.0 / 3.0).abs() < 1e-7);
    // JSON cannot hold infinities; the typed check below reads the stepped slopes exactly.
    assert!(stepped["inSlope"].is_null());
    match target {
        UnityTarget::Unity2020 => assert!(curve.get("flags").is_none()),
        UnityTarget::Unity6 => assert_eq!(curve["flags"], 0),
    }
}

#[test]
fn stepped_slopes_survive_as_infinities() {
    #[derive(serde::Deserialize)]
    #[allow(non_snake_case)]
    struct Key {
        inSlope: f32,
        outSlope: f32,
    }
    #[derive(serde::Deserialize)]
    #[allow(non_snake_case)]
    struct Curve {
        m_Curve: Vec<Key>,
    }
    #[derive(serde::Deserialize)]
    struct Float {
        curve: Curve,
    }
    #[derive(serde::Deserialize)]
    #[allow(non_snake_case)]
    struct Clip {
        m_FloatCurves: Vec<Float>,
    }
    let bytes = write_serialized(&sample_bundle(UnityTarget::Unity6, Compression::None)).unwrap();
    let reader = &mut Cursor::new(bytes.as_slice());
    let file = SerializedFile::from_reader(reader).unwrap();
    let clip: Clip = file
        .get_object(2, embedded_tpk())
        .unwrap()
        .read(reader)
        .unwrap();
    let key = &clip.m_FloatCurves[0].curve.m_Curve[1];
    assert_eq!((key.inSlope, key.outSlope), (f32::INFINITY, f32::INFINITY));
}

#[test]
fn compression_is_applied_to_the_data_blocks() {
    for target in TARGETS {
        for (compression, code) in [
            (Compression::None, 0),
            (Compression::Lz4, 2),
            (Compression::Lzma, 1),
        ] {
            let bytes = write_bundle(&sample_bundle(target, compression)).unwrap();
            let (flags, _) = open_bundle(&bytes, target);
            assert!(
                flags.iter().all(|flag| flag & 0x3F == code),
                "{compression:?}: {flags:?}"
            );
        }
    }
}

#[test]
fn writing_is_deterministic() {
    let bundle = sample_bundle(UnityTarget::Unity6, Compression::Lz4);
    assert_eq!(
        write_bundle(&bundle).unwrap(),
        write_bundle(&bundle).unwrap()
    );
    let other = sample_bundle(UnityTarget::Unity2020, Compression::Lz4);
    assert_ne!(
        write_bundle(&bundle).unwrap(),
        write_bundle(&other).unwrap()
    );
}

#[test]
fn bare_serialized_file_without_type_trees_reads_through_the_tpk() {
    for target in TARGETS {
        let mut bundle = sample_bundle(target, Compression::None);
        bundle.type_trees = false;
        let back = read_serialized(&write_serialized(&bundle).unwrap());
        assert!(!back.type_trees);
        assert_eq!(back.version, target.version());
        assert_eq!(back.object(1, 74)["m_Name"], "Walk");
        assert_eq!(back.object(2, 74)["m_WrapMode"], 4);
        assert_eq!(f(&back.object(8, 4)["m_LocalPosition"]["y"]), 1.0);
    }
}

#[test]
fn unity6_counts_must_fit_u16() {
    let mut clip = mecanim_sample();
    clip.discrete_curve_count = 70_000;
    let mut bundle = Bundle::new(UnityTarget::Unity6);
    bundle.clips = vec![ClipSpec::Mecanim(clip)];
    let error = write_bundle(&bundle).unwrap_err();
    assert!(
        matches!(error, AuthoringError::CountOverflow { value: 70_000, .. }),
        "{error}"
    );
    // Unity 2020 has no discrete count and a u32 curve count: the same clip writes.
    bundle.target = UnityTarget::Unity2020;
    assert!(write_bundle(&bundle).is_ok());
}

#[test]
fn malformed_streams_are_written_verbatim() {
    let mut clip = MecanimClip::new("Broken");
    clip.streamed_curve_count = 9;
    clip.frames = vec![Frame {
        time: 0.0,
        keys: vec![(-5, [1.0; 4]), (1000, [2.0; 4])],
    }];
    clip.streamed_suffix = vec![0xDEAD_BEEF, 12];
    clip.dense = Some(Dense {
        frame_count: 62,
        curve_count: 0,
        ..Default::default()
    });
    let mut bundle = Bundle::new(UnityTarget::Unity6);
    bundle.clips = vec![ClipSpec::Mecanim(clip.clone())];
    let back = read_bundle(&bundle);
    let stores = &back.object(1, 74)["m_MuscleClip"]["m_Clip"]["data"];
    let mut expected = streamed_words(&clip.frames);
    expected.extend([0xDEAD_BEEF, 12]);
    assert_eq!(words(&stores["m_StreamedClip"]["data"]), expected);
    assert_eq!(stores["m_DenseClip"]["m_FrameCount"], 62);
}
