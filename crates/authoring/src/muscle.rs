//! `m_MuscleClip` defaults and the per-curve start/stop values (`m_ValueArrayDelta`).

use super::classes::clip::{
    Clip, ClipMuscleConstant, HandPose, HumanGoal, HumanPose, OffsetPtr, ValueDelta,
};
use super::classes::{Vec3, Vec4, Xform};
use super::spec::{Binding, Dense, Frame, MecanimClip, UnityTarget};

/// Fixed array lengths of a modern `ClipMuscleConstant`, as Unity writes them for every clip.
const GOAL_COUNT: usize = 4;
const HAND_DOF_COUNT: usize = 20;
const DOF_COUNT: usize = 55;
const TDOF_COUNT: usize = 21;
/// `m_IndexArray` length (humanoid muscle → curve index; all -1 for generic clips).
const INDEX_ARRAY_LEN: usize = 200;

/// A generic (non-humanoid) `ClipMuscleConstant` around `stores`: identity poses, zero muscle
/// values, the fixed array lengths Unity uses, no value deltas, and every loop flag off.
pub(crate) fn muscle_constant(stores: Clip, start: f32, stop: f32) -> ClipMuscleConstant {
    ClipMuscleConstant {
        m_DeltaPose: identity_pose(),
        m_StartX: Xform::IDENTITY,
        m_StopX: Xform::IDENTITY,
        m_LeftFootStartX: Xform::IDENTITY,
        m_RightFootStartX: Xform::IDENTITY,
        m_AverageSpeed: Vec3::ZERO,
        m_Clip: OffsetPtr { data: stores },
        m_StartTime: start,
        m_StopTime: stop,
        m_OrientationOffsetY: 0.0,
        m_Level: 0.0,
        m_CycleOffset: 0.0,
        m_AverageAngularSpeed: 0.0,
        m_IndexArray: vec![-1; INDEX_ARRAY_LEN],
        m_ValueArrayDelta: Vec::new(),
        m_ValueArrayReferencePose: Vec::new(),
        m_Mirror: false,
        m_LoopTime: false,
        m_LoopBlend: false,
        m_LoopBlendOrientation: false,
        m_LoopBlendPositionY: false,
        m_LoopBlendPositionXZ: false,
        m_StartAtOrigin: false,
        m_KeepOriginalOrientation: false,
        m_KeepOriginalPositionY: false,
        m_KeepOriginalPositionXZ: false,
        m_HeightFromFeet: false,
    }
}

/// `m_DeltaPose` of a clip that moves no humanoid: identity transforms, zero weights.
fn identity_pose() -> HumanPose {
    let goal = HumanGoal {
        m_X: Xform::IDENTITY,
        m_WeightT: 0.0,
        m_WeightR: 0.0,
        m_HintT: Vec3::ZERO,
        m_HintWeightT: 0.0,
    };
    HumanPose {
        m_RootX: Xform::IDENTITY,
        m_LookAtPosition: Vec3::ZERO,
        m_LookAtWeight: Vec4::ZERO,
        m_GoalArray: vec![goal; GOAL_COUNT],
        m_LeftHandPose: open_hand(),
        m_RightHandPose: open_hand(),
        m_DoFArray: vec![0.0; DOF_COUNT],
        m_TDoFArray: vec![Vec3::ZERO; TDOF_COUNT],
    }
}

fn open_hand() -> HandPose {
    HandPose {
        m_GrabX: Xform::IDENTITY,
        m_DoFArray: vec![0.0; HAND_DOF_COUNT],
        m_Override: 0.0,
        m_CloseOpen: 0.0,
        m_InOut: 0.0,
        m_Grab: 0.0,
    }
}

/// Scalar curves a binding owns in the curve index space (§7.1: Transform position, scale and
/// Euler 3, rotation 4, everything else 1).
fn binding_dim(b: &Binding) -> usize {
    match (b.type_id, b.attribute) {
        (4, 2) => 4,
        (4, 1 | 3 | 4) => 3,
        _ => 1,
    }
}

/// `m_ValueArrayDelta`: one entry per bound curve with its value at the start and stop time.
/// Sized by the bindings (as Unity does), so absurd store counts in edge-case clips cost nothing.
pub(crate) fn value_deltas(clip: &MecanimClip, target: UnityTarget) -> Vec<ValueDelta> {
    let curves: usize = clip.bindings.iter().map(binding_dim).sum();
    (0..curves)
        .map(|index| ValueDelta {
            m_Start: curve_value(clip, target, index, clip.start),
            m_Stop: curve_value(clip, target, index, clip.stop),
        })
        .collect()
}

/// The value of curve `index` at `time`, looked up in whichever store holds it (0 if none).
fn curve_value(clip: &MecanimClip, target: UnityTarget, index: usize, time: f32) -> f32 {
    let discrete = match target {
        UnityTarget::Unity2020 => 0,
        UnityTarget::Unity6 => clip.discrete_curve_count as usize,
    };
    let interpolated = clip.streamed_curve_count as usize;
    let streamed = interpolated + discrete;
    let dense = clip.dense.as_ref().map_or(0, |d| d.curve_count as usize);
    if index < streamed {
        streamed_value(&clip.frames, index, time, index < interpolated)
    } else if index < streamed + dense {
        clip.dense
            .as_ref()
            .map_or(0.0, |d| dense_value(d, index - streamed, time))
    } else {
        let constant = index - streamed - dense;
        clip.constants.get(constant).copied().unwrap_or(0.0)
    }
}

/// Evaluates streamed curve `index` at `time`: the last key at or before `time`, as a cubic
/// when `cubic` (and the key time is finite), else its `c3`.
fn streamed_value(frames: &[Frame], index: usize, time: f32, cubic: bool) -> f32 {
    let key = frames
        .iter()
        .filter(|frame| frame.time <= time)
        .flat_map(|frame| frame.keys.iter().map(move |key| (frame.time, key)))
        .rfind(|(_, (curve, _))| usize::try_from(*curve) == Ok(index));
    match key {
        Some((t0, (_, [c0, c1, c2, c3]))) if cubic && t0.is_finite() => {
            let dt = time - t0;
            ((c0 * dt + c1) * dt + c2) * dt + c3
        }
        Some((_, (_, c))) => c[3],
        None => 0.0,
    }
}

/// The nearest dense sample of curve `column` at `time`, clamped to the frame range.
fn dense_value(dense: &Dense, column: usize, time: f32) -> f32 {
    let frames = dense.frame_count.max(0) as usize;
    if frames == 0 {
        return 0.0;
    }
    let position = ((time - dense.begin_time) * dense.sample_rate).round();
    let frame = if position.is_finite() {
        (position.max(0.0) as usize).min(frames - 1)
    } else {
        0
    };
    let at = frame * dense.curve_count as usize + column;
    dense.samples.get(at).copied().unwrap_or(0.0)
}
