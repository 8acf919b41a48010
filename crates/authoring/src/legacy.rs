//! Legacy keyframe curves: [`PathCurve`] and [`FloatCurve`] to their Unity mirrors.

use rabex::objects::PPtr;

use super::classes::clip::{
    AnimationCurve, FloatCurve6, FloatCurve2020, FloatCurveAny, Keyframe, QuaternionCurve,
    Vector3Curve,
};
use super::spec::{FloatCurve, KeySpec, LegacyClip, PathCurve, UnityTarget};

/// The span of every key in a legacy clip, `(0, 0)` when it has none.
pub(crate) fn legacy_time_range(clip: &LegacyClip) -> (f32, f32) {
    let times = clip
        .rotation
        .iter()
        .flat_map(|c| c.keys.iter().map(|k| k.time))
        .chain(
            clip.euler
                .iter()
                .flat_map(|c| c.keys.iter().map(|k| k.time)),
        )
        .chain(
            clip.position
                .iter()
                .flat_map(|c| c.keys.iter().map(|k| k.time)),
        )
        .chain(
            clip.scale
                .iter()
                .flat_map(|c| c.keys.iter().map(|k| k.time)),
        )
        .chain(
            clip.floats
                .iter()
                .flat_map(|c| c.keys.iter().map(|k| k.time)),
        );
    times
        .fold(None, |range: Option<(f32, f32)>, t| match range {
            None => Some((t, t)),
            Some((lo, hi)) => Some((lo.min(t), hi.max(t))),
        })
        .unwrap_or((0.0, 0.0))
}

fn keyframe<T: Copy, U: From<T>>(key: &KeySpec<T>) -> Keyframe<U> {
    Keyframe {
        time: key.time,
        value: key.value.into(),
        inSlope: key.in_slope.into(),
        outSlope: key.out_slope.into(),
        weightedMode: key.weighted_mode,
        inWeight: key.in_weight.into(),
        outWeight: key.out_weight.into(),
    }
}

fn animation_curve<T: Copy, U: From<T>>(curve: &PathCurve<T>) -> AnimationCurve<U> {
    AnimationCurve {
        m_Curve: curve.keys.iter().map(keyframe).collect(),
        m_PreInfinity: curve.pre_infinity,
        m_PostInfinity: curve.post_infinity,
        m_RotationOrder: curve.rotation_order,
    }
}

pub(crate) fn quaternion_curve(curve: &PathCurve<[f32; 4]>) -> QuaternionCurve {
    QuaternionCurve {
        curve: animation_curve(curve),
        path: curve.path.clone(),
    }
}

pub(crate) fn vector3_curve(curve: &PathCurve<[f32; 3]>) -> Vector3Curve {
    Vector3Curve {
        curve: animation_curve(curve),
        path: curve.path.clone(),
    }
}

/// A legacy float curve (`flags` 0 on Unity 6; rotation order 4, which float curves ignore).
pub(crate) fn float_curve(curve: &FloatCurve, target: UnityTarget) -> FloatCurveAny {
    let animation = AnimationCurve {
        m_Curve: curve.keys.iter().map(keyframe).collect(),
        m_PreInfinity: curve.pre_infinity,
        m_PostInfinity: curve.post_infinity,
        m_RotationOrder: 4,
    };
    // classID is a `Type*` node, which rabex writes only from an unsigned value.
    let class_id = curve.class_id as u32;
    match target {
        UnityTarget::Unity2020 => FloatCurveAny::Unity2020(FloatCurve2020 {
            curve: animation,
            attribute: curve.attribute.clone(),
            path: curve.path.clone(),
            classID: class_id,
            script: PPtr::null(),
        }),
        UnityTarget::Unity6 => FloatCurveAny::Unity6(FloatCurve6 {
            curve: animation,
            attribute: curve.attribute.clone(),
            path: curve.path.clone(),
            classID: class_id,
            script: PPtr::null(),
            flags: 0,
        }),
    }
}
