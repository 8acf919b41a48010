//! AnimationClip (class 74) as stored, every version from Unity 3.5 to Unity 6.

use serde::Deserialize;

use super::{Float, Int, PPtr, Quat, Vec3};

/// An AnimationClip object.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct AnimationClip {
    pub m_Name: String,
    /// Unity 5.0+.
    pub m_Legacy: Option<Int>,
    /// Unity 4.x: 1 legacy, 2 generic, 3 humanoid.
    pub m_AnimationType: Option<Int>,
    pub m_Compressed: Option<Int>,
    pub m_RotationCurves: Vec<QuaternionCurve>,
    pub m_CompressedRotationCurves: Vec<CompressedAnimationCurve>,
    pub m_EulerCurves: Vec<Vector3Curve>,
    pub m_PositionCurves: Vec<Vector3Curve>,
    pub m_ScaleCurves: Vec<Vector3Curve>,
    pub m_FloatCurves: Vec<FloatCurve>,
    pub m_PPtrCurves: Vec<PPtrCurve>,
    pub m_SampleRate: Float,
    pub m_WrapMode: Int,
    pub m_MuscleClip: Option<ClipMuscleConstant>,
    pub m_ClipBindingConstant: Option<AnimationClipBindingConstant>,
    /// Editor files keep the clip settings here instead of in the muscle clip.
    pub m_AnimationClipSettings: Option<AnimationClipSettings>,
    pub m_Events: Vec<AnimationEvent>,
    /// Editor files: per-component copies of every curve (`m_LocalPosition.x`, …).
    pub m_EditorCurves: Vec<FloatCurve>,
    /// Editor files: per-component Euler curves (`localEulerAnglesRaw.x`, …).
    pub m_EulerEditorCurves: Vec<FloatCurve>,
}

/// A keyframe of `T`; the weight fields exist from Unity 2018.1.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(default)]
pub struct Keyframe<T: Default> {
    pub time: f32,
    pub value: T,
    pub inSlope: T,
    pub outSlope: T,
    pub weightedMode: Option<Int>,
    pub inWeight: Option<T>,
    pub outWeight: Option<T>,
}

/// Unity's `AnimationCurve<T>`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct AnimationCurve<T: Default> {
    pub m_Curve: Vec<Keyframe<T>>,
    pub m_PreInfinity: Int,
    pub m_PostInfinity: Int,
    /// Unity 5.3+; 4 (ZXY) is the default.
    pub m_RotationOrder: Option<Int>,
}

/// Unity's `QuaternionCurve`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct QuaternionCurve {
    pub curve: AnimationCurve<Quat>,
    pub path: String,
}

/// Unity's `Vector3Curve`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Vector3Curve {
    pub curve: AnimationCurve<Vec3>,
    pub path: String,
}

/// Unity's `FloatCurve`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct FloatCurve {
    pub curve: AnimationCurve<f32>,
    pub attribute: String,
    pub path: String,
    pub classID: Int,
    pub script: PPtr,
}

/// Unity's `PPtrKeyframe`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PPtrKeyframe {
    pub time: f32,
    pub value: PPtr,
}

/// Unity's `PPtrCurve`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PPtrCurve {
    pub curve: Vec<PPtrKeyframe>,
    pub attribute: String,
    pub path: String,
    pub classID: Int,
    pub script: PPtr,
}

/// A bit-packed vector (`PackedBitVector`).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PackedBitVector {
    pub m_NumItems: Int,
    pub m_Range: Option<f32>,
    pub m_Start: Option<f32>,
    pub m_Data: Vec<u8>,
    pub m_BitSize: Option<Int>,
}

/// A legacy rotation curve in compressed form.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct CompressedAnimationCurve {
    pub m_Path: String,
    pub m_Times: PackedBitVector,
    pub m_Values: PackedBitVector,
    pub m_Slopes: PackedBitVector,
    pub m_PreInfinity: Int,
    pub m_PostInfinity: Int,
}

/// `m_MuscleClip`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ClipMuscleConstant {
    pub m_Clip: OffsetPtr<Clip>,
    pub m_StartTime: f32,
    pub m_StopTime: f32,
    pub m_CycleOffset: f32,
    pub m_LoopTime: Option<Int>,
    pub m_LoopBlend: Option<Int>,
    pub m_Mirror: Option<Int>,
    pub m_OrientationOffsetY: Option<Float>,
    pub m_Level: Option<Float>,
    pub m_LoopBlendOrientation: Option<Int>,
    pub m_LoopBlendPositionY: Option<Int>,
    pub m_LoopBlendPositionXZ: Option<Int>,
    pub m_KeepOriginalOrientation: Option<Int>,
    pub m_KeepOriginalPositionY: Option<Int>,
    pub m_KeepOriginalPositionXZ: Option<Int>,
    pub m_HeightFromFeet: Option<Int>,
}

/// Editor-only clip settings (editor `.anim` files).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct AnimationClipSettings {
    pub m_StartTime: f32,
    pub m_StopTime: f32,
    pub m_CycleOffset: f32,
    pub m_LoopTime: Option<Int>,
    pub m_LoopBlend: Option<Int>,
    pub m_Mirror: Option<Int>,
    pub m_OrientationOffsetY: Option<Float>,
    pub m_Level: Option<Float>,
    pub m_LoopBlendOrientation: Option<Int>,
    pub m_LoopBlendPositionY: Option<Int>,
    pub m_LoopBlendPositionXZ: Option<Int>,
    pub m_KeepOriginalOrientation: Option<Int>,
    pub m_KeepOriginalPositionY: Option<Int>,
    pub m_KeepOriginalPositionXZ: Option<Int>,
    pub m_HeightFromFeet: Option<Int>,
}

/// Unity's `OffsetPtr`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct OffsetPtr<T: Default> {
    pub data: T,
}

/// The three curve blocks of a Mecanim clip.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Clip {
    pub m_StreamedClip: StreamedClip,
    pub m_DenseClip: DenseClip,
    pub m_ConstantClip: ConstantClip,
}

/// The streamed block: frames packed into u32 words. `curveCount` is one u32, or from
/// 2022.3.19f1 / 2023.2.8f1 / Unity 6 two u16s (`curveCount`, `discreteCurveCount`).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct StreamedClip {
    pub data: Vec<u32>,
    pub curveCount: Int,
    pub discreteCurveCount: Option<Int>,
}

/// Unity's `DenseClip`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct DenseClip {
    pub m_FrameCount: Int,
    pub m_CurveCount: Int,
    pub m_SampleRate: f32,
    pub m_BeginTime: f32,
    pub m_SampleArray: Vec<f32>,
}

/// Unity's `ConstantClip`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ConstantClip {
    pub data: Vec<f32>,
}

/// Unity's `AnimationClipBindingConstant`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct AnimationClipBindingConstant {
    pub genericBindings: Vec<GenericBinding>,
    pub pptrCurveMapping: Vec<PPtr>,
}

/// One binding: what a curve (or a Transform attribute's curves) drives.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(default)]
pub struct GenericBinding {
    pub path: Int,
    pub attribute: Int,
    pub script: PPtr,
    /// Unity 5.6+.
    pub typeID: Option<Int>,
    /// Unity 4.3 to 5.5.
    pub classID: Option<Int>,
    pub customType: Int,
    pub isPPtrCurve: Int,
    pub isIntCurve: Option<Int>,
}

/// Unity's `AnimationEvent`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct AnimationEvent {
    pub time: f32,
    pub functionName: String,
    pub data: String,
    pub objectReferenceParameter: PPtr,
    pub floatParameter: f32,
    pub intParameter: Int,
    pub messageOptions: Int,
}
