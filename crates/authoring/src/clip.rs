//! Turns a [`ClipSpec`] into the AnimationClip mirror, filling every field the description does
//! not cover with the values Unity writes for a plain generic clip.

use rabex::objects::PPtr;

use super::AuthoringError;
use super::classes::Aabb;
use super::classes::clip::{
    AnimationClip, AnimationClipBindingConstant, AnimationEvent, Clip, ClipMuscleConstant,
    ConstantClip, DenseClip, GenericBinding, GenericBinding6, GenericBinding2020, StreamedClip,
    StreamedClip6, StreamedClip2020,
};
use super::legacy::{float_curve, legacy_time_range, quaternion_curve, vector3_curve};
use super::muscle::{muscle_constant, value_deltas};
use super::spec::{Binding, ClipSpec, Event, Frame, LegacyClip, MecanimClip, UnityTarget};

/// Builds the AnimationClip object for `spec` in `target`'s layout.
pub(crate) fn build_clip(
    spec: &ClipSpec,
    target: UnityTarget,
) -> Result<AnimationClip, AuthoringError> {
    match spec {
        ClipSpec::Mecanim(clip) => mecanim_clip(clip, target),
        ClipSpec::Legacy(clip) => Ok(legacy_clip(clip, target)),
    }
}

/// Encodes streamed frames into `m_StreamedClip.data` words: per frame `time, keyCount`, then
/// per key `curveIndex, c0, c1, c2, c3`, every float as its IEEE bits.
pub fn streamed_words(frames: &[Frame]) -> Vec<u32> {
    let mut words = Vec::new();
    for frame in frames {
        words.push(frame.time.to_bits());
        words.push(frame.keys.len() as u32);
        for (index, coefficients) in &frame.keys {
            words.push(*index as u32);
            words.extend(coefficients.iter().map(|c| c.to_bits()));
        }
    }
    words
}

/// A Mecanim clip: empty legacy curves, everything in the muscle clip and bindings.
fn mecanim_clip(clip: &MecanimClip, target: UnityTarget) -> Result<AnimationClip, AuthoringError> {
    let stores = Clip {
        m_StreamedClip: streamed_clip(clip, target)?,
        m_DenseClip: dense_clip(clip),
        m_ConstantClip: ConstantClip {
            data: clip.constants.clone(),
        },
    };
    let mut muscle = muscle_constant(stores, clip.start, clip.stop);
    muscle.m_CycleOffset = clip.cycle_offset;
    muscle.m_LoopTime = clip.loop_time;
    let settings = &clip.settings;
    muscle.m_Mirror = settings.mirror;
    muscle.m_LoopBlend = settings.loop_pose;
    muscle.m_Level = settings.level;
    muscle.m_OrientationOffsetY = settings.orientation_offset_y;
    muscle.m_LoopBlendOrientation = settings.bake_orientation;
    muscle.m_LoopBlendPositionY = settings.bake_position_y;
    muscle.m_LoopBlendPositionXZ = settings.bake_position_xz;
    muscle.m_KeepOriginalOrientation = settings.original_orientation;
    muscle.m_KeepOriginalPositionY = settings.original_position_y;
    muscle.m_KeepOriginalPositionXZ = settings.original_position_xz;
    muscle.m_HeightFromFeet = settings.height_from_feet;
    muscle.m_ValueArrayDelta = value_deltas(clip, target);
    let bindings = AnimationClipBindingConstant {
        genericBindings: clip.bindings.iter().map(|b| binding(b, target)).collect(),
        pptrCurveMapping: clip
            .pptr_mapping
            .iter()
            .map(|&(file, path)| PPtr::new(file.into(), path))
            .collect(),
    };
    let mut out = clip_skeleton(&clip.name, clip.sample_rate, muscle, bindings);
    out.m_Events = clip.events.iter().map(event).collect();
    Ok(out)
}

/// A legacy clip: keyframe curves, an empty muscle clip spanning the keys, no bindings.
fn legacy_clip(clip: &LegacyClip, target: UnityTarget) -> AnimationClip {
    let (start, stop) = legacy_time_range(clip);
    let muscle = muscle_constant(empty_stores(clip.sample_rate, target), start, stop);
    let bindings = AnimationClipBindingConstant {
        genericBindings: Vec::new(),
        pptrCurveMapping: Vec::new(),
    };
    let mut out = clip_skeleton(&clip.name, clip.sample_rate, muscle, bindings);
    out.m_Legacy = true;
    out.m_WrapMode = clip.wrap_mode;
    out.m_RotationCurves = clip.rotation.iter().map(quaternion_curve).collect();
    out.m_EulerCurves = clip.euler.iter().map(vector3_curve).collect();
    out.m_PositionCurves = clip.position.iter().map(vector3_curve).collect();
    out.m_ScaleCurves = clip.scale.iter().map(vector3_curve).collect();
    out.m_FloatCurves = clip.floats.iter().map(|c| float_curve(c, target)).collect();
    out.m_Events = clip.events.iter().map(event).collect();
    out
}

/// The fields shared by both kinds: a Mecanim-flavoured clip with no legacy curves.
fn clip_skeleton(
    name: &str,
    sample_rate: f32,
    muscle: ClipMuscleConstant,
    bindings: AnimationClipBindingConstant,
) -> AnimationClip {
    AnimationClip {
        m_Name: name.to_owned(),
        m_Legacy: false,
        m_Compressed: false,
        m_UseHighQualityCurve: false,
        m_RotationCurves: Vec::new(),
        m_CompressedRotationCurves: Vec::new(),
        m_EulerCurves: Vec::new(),
        m_PositionCurves: Vec::new(),
        m_ScaleCurves: Vec::new(),
        m_FloatCurves: Vec::new(),
        m_PPtrCurves: Vec::new(),
        m_SampleRate: sample_rate,
        m_WrapMode: 0,
        m_Bounds: Aabb::default(),
        // The size of Unity's in-memory blob; readers ignore it and we cannot know it.
        m_MuscleClipSize: 0,
        m_MuscleClip: muscle,
        m_ClipBindingConstant: bindings,
        m_HasGenericRootTransform: false,
        m_HasMotionFloatCurves: false,
        m_Events: Vec::new(),
    }
}

/// `m_StreamedClip` with the count field(s) of `target`'s layout.
fn streamed_clip(clip: &MecanimClip, target: UnityTarget) -> Result<StreamedClip, AuthoringError> {
    let mut data = streamed_words(&clip.frames);
    data.extend_from_slice(&clip.streamed_suffix);
    Ok(match target {
        UnityTarget::Unity2020 => StreamedClip::Unity2020(StreamedClip2020 {
            data,
            curveCount: clip.streamed_curve_count,
        }),
        UnityTarget::Unity6 => StreamedClip::Unity6(StreamedClip6 {
            data,
            curveCount: u16_count(clip, "curveCount", clip.streamed_curve_count)?,
            discreteCurveCount: u16_count(clip, "discreteCurveCount", clip.discrete_curve_count)?,
        }),
    })
}

/// Narrows a Unity 6 streamed count to its u16 field, or says which clip overflowed.
fn u16_count(clip: &MecanimClip, field: &'static str, value: u32) -> Result<u16, AuthoringError> {
    u16::try_from(value).map_err(|_| AuthoringError::CountOverflow {
        clip: clip.name.clone(),
        field,
        value,
    })
}

/// `m_DenseClip` verbatim, or an empty one at the clip's sample rate.
fn dense_clip(clip: &MecanimClip) -> DenseClip {
    match &clip.dense {
        Some(dense) => DenseClip {
            m_FrameCount: dense.frame_count,
            m_CurveCount: dense.curve_count,
            m_SampleRate: dense.sample_rate,
            m_BeginTime: dense.begin_time,
            m_SampleArray: dense.samples.clone(),
        },
        None => empty_dense(clip.sample_rate),
    }
}

fn empty_dense(sample_rate: f32) -> DenseClip {
    DenseClip {
        m_FrameCount: 0,
        m_CurveCount: 0,
        m_SampleRate: sample_rate,
        m_BeginTime: 0.0,
        m_SampleArray: Vec::new(),
    }
}

/// Three empty stores (a legacy clip's muscle clip).
fn empty_stores(sample_rate: f32, target: UnityTarget) -> Clip {
    let streamed = match target {
        UnityTarget::Unity2020 => StreamedClip::Unity2020(StreamedClip2020 {
            data: Vec::new(),
            curveCount: 0,
        }),
        UnityTarget::Unity6 => StreamedClip::Unity6(StreamedClip6 {
            data: Vec::new(),
            curveCount: 0,
            discreteCurveCount: 0,
        }),
    };
    Clip {
        m_StreamedClip: streamed,
        m_DenseClip: empty_dense(sample_rate),
        m_ConstantClip: ConstantClip { data: Vec::new() },
    }
}

/// One `GenericBinding` in `target`'s layout (`isIntCurve` exists only in Unity 6).
fn binding(b: &Binding, target: UnityTarget) -> GenericBinding {
    match target {
        UnityTarget::Unity2020 => GenericBinding::Unity2020(GenericBinding2020 {
            path: b.path,
            attribute: b.attribute,
            script: PPtr::new(b.script.0.into(), b.script.1),
            typeID: b.type_id,
            customType: b.custom_type,
            isPPtrCurve: b.is_pptr.into(),
        }),
        UnityTarget::Unity6 => GenericBinding::Unity6(GenericBinding6 {
            path: b.path,
            attribute: b.attribute,
            script: PPtr::new(b.script.0.into(), b.script.1),
            typeID: b.type_id,
            customType: b.custom_type,
            isPPtrCurve: b.is_pptr.into(),
            isIntCurve: b.is_int.into(),
            isSerializeReferenceCurve: 0,
        }),
    }
}

fn event(e: &Event) -> AnimationEvent {
    AnimationEvent {
        time: e.time,
        functionName: e.function.clone(),
        data: e.data.clone(),
        objectReferenceParameter: PPtr::new(e.object.0.into(), e.object.1),
        floatParameter: e.float,
        intParameter: e.int,
        messageOptions: e.message_options,
    }
}
