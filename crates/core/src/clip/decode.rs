//! From a stored AnimationClip to [`ClipData`].

use super::settings::PlaySettings;
use super::{BlockCounts, ClipData, ClipEvent, build_tracks, keyframes, mecanim};
use crate::unity::clip::{AnimationClip, AnimationClipSettings, ClipMuscleConstant};
use crate::unity::{Float, Int};

/// Why a clip could not be decoded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct DecodeError(pub String);

/// Decodes a stored clip. `version` is the Unity version of its file, which decides how a
/// few version-dependent fields read.
pub fn decode_clip(
    clip: &AnimationClip,
    version: &rabex::UnityVersion,
) -> Result<ClipData, DecodeError> {
    let legacy = is_legacy(clip, version);
    let mut data = ClipData {
        name: clip.m_Name.clone(),
        legacy,
        keyframed: false,
        start: 0.0,
        stop: 0.0,
        sample_rate: clip.m_SampleRate.0,
        wrap_mode_code: clip.m_WrapMode.i32(),
        loop_time: false,
        cycle_offset: 0.0,
        settings: PlaySettings::default(),
        counts: BlockCounts::default(),
        bindings: Vec::new(),
        curves: Vec::new(),
        tracks: Vec::new(),
        pptr_mapping: Vec::new(),
        events: events(clip),
        warnings: Vec::new(),
        summary_only: None,
    };
    let muscle_curves = clip.m_MuscleClip.as_ref().map_or(0, |m| {
        let c = &m.m_Clip.data;
        c.m_StreamedClip.data.len()
            + c.m_DenseClip.m_SampleArray.len()
            + c.m_ConstantClip.data.len()
    });
    if legacy || (muscle_curves == 0 && keyframes::has_any(clip)) {
        decode_keyframed(clip, &mut data);
    } else {
        decode_mecanim(clip, version, &mut data)?;
    }
    if !data.sample_rate.is_finite() || data.sample_rate <= 0.0 {
        data.warnings.push(format!(
            "sample rate {} is not positive; 60 fps is used for frames",
            data.sample_rate
        ));
        data.sample_rate = 60.0;
    }
    data.tracks = build_tracks(data.bindings.len(), &data.curves);
    Ok(data)
}

/// Unity 5+: `m_Legacy`; Unity 4.x: `m_AnimationType == 1`; Unity 3.x clips are all legacy.
fn is_legacy(clip: &AnimationClip, version: &rabex::UnityVersion) -> bool {
    if let Some(legacy) = clip.m_Legacy {
        return legacy.flag();
    }
    if let Some(kind) = clip.m_AnimationType {
        return kind.0 == 1;
    }
    version.major < 4
}

fn events(clip: &AnimationClip) -> Vec<ClipEvent> {
    clip.m_Events
        .iter()
        .map(|e| ClipEvent {
            time: e.time,
            function: e.functionName.clone(),
            data: e.data.clone(),
            float: e.floatParameter,
            int: e.intParameter.i32(),
            object: (
                e.objectReferenceParameter.file_id(),
                e.objectReferenceParameter.path_id(),
            ),
            message_options: e.messageOptions.i32(),
        })
        .collect()
}

/// Legacy and editor clips: per-kind keyframe curves. A legacy clip spans 0 to its last key
/// (`unity-semantics.md`, "Legacy clip length"), in editor files too, whose settings' start
/// and stop are Mecanim's; an editor file's Mecanim clip takes its settings' range when set,
/// and its Loop Time and cycle offset always, so a zero-length clip (every key at 0, stop =
/// start, as toggle clips are) still loops when its Loop Time is on (`animator.md` §6.4-6.5).
fn decode_keyframed(clip: &AnimationClip, data: &mut ClipData) {
    let curves = keyframes::decode(clip);
    data.keyframed = true;
    data.stop = curves.last_time;
    if let Some(settings) = &clip.m_AnimationClipSettings {
        data.settings = editor_settings(settings);
        if !data.legacy {
            if settings.m_StopTime > settings.m_StartTime {
                data.start = settings.m_StartTime;
                data.stop = settings.m_StopTime;
            }
            data.loop_time = settings.m_LoopTime.is_some_and(|v| v.flag());
            data.cycle_offset = settings.m_CycleOffset;
        }
    }
    data.bindings = curves.bindings;
    data.curves = curves.curves;
    data.pptr_mapping = curves.pptr_mapping;
}

/// True where a stored flag is present and set.
fn set(flag: Option<Int>) -> bool {
    flag.is_some_and(|v| v.flag())
}

/// A finite stored number, else 0.
fn finite(v: Option<Float>) -> f32 {
    v.map(|v| v.0).filter(|v| v.is_finite()).unwrap_or(0.0)
}

/// The play settings of an editor file's `m_AnimationClipSettings`.
fn editor_settings(s: &AnimationClipSettings) -> PlaySettings {
    PlaySettings {
        mirror: set(s.m_Mirror),
        loop_pose: set(s.m_LoopBlend),
        bake_orientation: set(s.m_LoopBlendOrientation),
        bake_position_y: set(s.m_LoopBlendPositionY),
        bake_position_xz: set(s.m_LoopBlendPositionXZ),
        original_orientation: set(s.m_KeepOriginalOrientation),
        original_position_y: set(s.m_KeepOriginalPositionY),
        original_position_xz: set(s.m_KeepOriginalPositionXZ),
        height_from_feet: set(s.m_HeightFromFeet),
        level: finite(s.m_Level),
        orientation_offset_y: finite(s.m_OrientationOffsetY),
    }
}

/// The play settings of a built clip's `m_MuscleClip`.
fn muscle_settings(m: &ClipMuscleConstant) -> PlaySettings {
    PlaySettings {
        mirror: set(m.m_Mirror),
        loop_pose: set(m.m_LoopBlend),
        bake_orientation: set(m.m_LoopBlendOrientation),
        bake_position_y: set(m.m_LoopBlendPositionY),
        bake_position_xz: set(m.m_LoopBlendPositionXZ),
        original_orientation: set(m.m_KeepOriginalOrientation),
        original_position_y: set(m.m_KeepOriginalPositionY),
        original_position_xz: set(m.m_KeepOriginalPositionXZ),
        height_from_feet: set(m.m_HeightFromFeet),
        level: finite(m.m_Level),
        orientation_offset_y: finite(m.m_OrientationOffsetY),
    }
}

fn decode_mecanim(
    clip: &AnimationClip,
    version: &rabex::UnityVersion,
    data: &mut ClipData,
) -> Result<(), DecodeError> {
    let Some(muscle) = &clip.m_MuscleClip else {
        return Ok(());
    };
    data.start = muscle.m_StartTime;
    data.stop = muscle.m_StopTime;
    data.loop_time = muscle.m_LoopTime.is_some_and(|v| v.flag());
    data.cycle_offset = muscle.m_CycleOffset;
    data.settings = muscle_settings(muscle);
    if !(data.start.is_finite() && data.stop.is_finite()) {
        return Err(DecodeError(format!(
            "clip range {}..{} is not finite",
            data.start, data.stop
        )));
    }
    let constant = clip.m_ClipBindingConstant.as_ref();
    let before_5_6 = (version.major, version.minor) < (5, 6);
    let bindings = constant
        .map(|c| mecanim::bindings(c, before_5_6))
        .unwrap_or_default();
    data.pptr_mapping = constant
        .map(|c| {
            c.pptrCurveMapping
                .iter()
                .map(|p| (p.file_id(), p.path_id()))
                .collect()
        })
        .unwrap_or_default();
    let curves = mecanim::decode(&muscle.m_Clip.data, bindings).map_err(DecodeError)?;
    data.counts = curves.counts;
    data.bindings = curves.bindings;
    data.curves = curves.curves;
    data.warnings.extend(curves.warnings);
    Ok(())
}
