//! AnimationClip (class 74) and its nested structures.

use rabex::objects::{ClassId, ClassIdType, PPtr};
use serde::Serialize;

use super::{Aabb, Vec3, Vec4, Xform};

/// AnimationClip, release layout of 2020.3 and 6000.0 (the differences are in the leaf types
/// [`FloatCurveAny`], [`StreamedClip`] and [`GenericBinding`]).
#[derive(Debug, Serialize)]
pub(crate) struct AnimationClip {
    pub m_Name: String,
    pub m_Legacy: bool,
    pub m_Compressed: bool,
    pub m_UseHighQualityCurve: bool,
    pub m_RotationCurves: Vec<QuaternionCurve>,
    pub m_CompressedRotationCurves: Vec<Unwritten>,
    pub m_EulerCurves: Vec<Vector3Curve>,
    pub m_PositionCurves: Vec<Vector3Curve>,
    pub m_ScaleCurves: Vec<Vector3Curve>,
    pub m_FloatCurves: Vec<FloatCurveAny>,
    pub m_PPtrCurves: Vec<Unwritten>,
    pub m_SampleRate: f32,
    pub m_WrapMode: i32,
    pub m_Bounds: Aabb,
    pub m_MuscleClipSize: u32,
    pub m_MuscleClip: ClipMuscleConstant,
    pub m_ClipBindingConstant: AnimationClipBindingConstant,
    pub m_HasGenericRootTransform: bool,
    pub m_HasMotionFloatCurves: bool,
    pub m_Events: Vec<AnimationEvent>,
}

impl ClassIdType for AnimationClip {
    const CLASS_ID: ClassId = ClassId::AnimationClip;
}

/// Element type of the vectors this writer always leaves empty (compressed rotation curves,
/// PPtr curves): it has no values, so such a vector can only be empty.
#[derive(Debug, Serialize)]
pub(crate) enum Unwritten {}

/// `Keyframe<T>` (2018.1+: with weights).
#[derive(Clone, Copy, Debug, Serialize)]
pub(crate) struct Keyframe<T> {
    pub time: f32,
    pub value: T,
    pub inSlope: T,
    pub outSlope: T,
    pub weightedMode: i32,
    pub inWeight: T,
    pub outWeight: T,
}

/// `AnimationCurve<T>`.
#[derive(Debug, Serialize)]
pub(crate) struct AnimationCurve<T> {
    pub m_Curve: Vec<Keyframe<T>>,
    pub m_PreInfinity: i32,
    pub m_PostInfinity: i32,
    pub m_RotationOrder: i32,
}

/// `QuaternionCurve`.
#[derive(Debug, Serialize)]
pub(crate) struct QuaternionCurve {
    pub curve: AnimationCurve<Vec4>,
    pub path: String,
}

/// `Vector3Curve` (Euler, position and scale curves).
#[derive(Debug, Serialize)]
pub(crate) struct Vector3Curve {
    pub curve: AnimationCurve<Vec3>,
    pub path: String,
}

/// `FloatCurve` in either version's layout.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub(crate) enum FloatCurveAny {
    Unity2020(FloatCurve2020),
    Unity6(FloatCurve6),
}

/// `FloatCurve` up to 2022.1: no `flags`.
#[derive(Debug, Serialize)]
pub(crate) struct FloatCurve2020 {
    pub curve: AnimationCurve<f32>,
    pub attribute: String,
    pub path: String,
    /// A `Type*` node: written as a u32 (rabex accepts only unsigned values for it).
    pub classID: u32,
    pub script: PPtr,
}

/// `FloatCurve` from 2022.2: gained `int flags`.
#[derive(Debug, Serialize)]
pub(crate) struct FloatCurve6 {
    pub curve: AnimationCurve<f32>,
    pub attribute: String,
    pub path: String,
    pub classID: u32,
    pub script: PPtr,
    pub flags: i32,
}

/// `ClipMuscleConstant`.
#[derive(Debug, Serialize)]
pub(crate) struct ClipMuscleConstant {
    pub m_DeltaPose: HumanPose,
    pub m_StartX: Xform,
    pub m_StopX: Xform,
    pub m_LeftFootStartX: Xform,
    pub m_RightFootStartX: Xform,
    pub m_AverageSpeed: Vec3,
    pub m_Clip: OffsetPtr<Clip>,
    pub m_StartTime: f32,
    pub m_StopTime: f32,
    pub m_OrientationOffsetY: f32,
    pub m_Level: f32,
    pub m_CycleOffset: f32,
    pub m_AverageAngularSpeed: f32,
    pub m_IndexArray: Vec<i32>,
    pub m_ValueArrayDelta: Vec<ValueDelta>,
    pub m_ValueArrayReferencePose: Vec<f32>,
    pub m_Mirror: bool,
    pub m_LoopTime: bool,
    pub m_LoopBlend: bool,
    pub m_LoopBlendOrientation: bool,
    pub m_LoopBlendPositionY: bool,
    pub m_LoopBlendPositionXZ: bool,
    pub m_StartAtOrigin: bool,
    pub m_KeepOriginalOrientation: bool,
    pub m_KeepOriginalPositionY: bool,
    pub m_KeepOriginalPositionXZ: bool,
    pub m_HeightFromFeet: bool,
}

/// `HumanPose`.
#[derive(Debug, Serialize)]
pub(crate) struct HumanPose {
    pub m_RootX: Xform,
    pub m_LookAtPosition: Vec3,
    pub m_LookAtWeight: Vec4,
    pub m_GoalArray: Vec<HumanGoal>,
    pub m_LeftHandPose: HandPose,
    pub m_RightHandPose: HandPose,
    pub m_DoFArray: Vec<f32>,
    pub m_TDoFArray: Vec<Vec3>,
}

/// `HumanGoal`.
#[derive(Clone, Copy, Debug, Serialize)]
pub(crate) struct HumanGoal {
    pub m_X: Xform,
    pub m_WeightT: f32,
    pub m_WeightR: f32,
    pub m_HintT: Vec3,
    pub m_HintWeightT: f32,
}

/// `HandPose`.
#[derive(Debug, Serialize)]
pub(crate) struct HandPose {
    pub m_GrabX: Xform,
    pub m_DoFArray: Vec<f32>,
    pub m_Override: f32,
    pub m_CloseOpen: f32,
    pub m_InOut: f32,
    pub m_Grab: f32,
}

/// `OffsetPtr`: a struct with one field `data`.
#[derive(Debug, Serialize)]
pub(crate) struct OffsetPtr<T> {
    pub data: T,
}

/// `Clip`: the three curve stores.
#[derive(Debug, Serialize)]
pub(crate) struct Clip {
    pub m_StreamedClip: StreamedClip,
    pub m_DenseClip: DenseClip,
    pub m_ConstantClip: ConstantClip,
}

/// `StreamedClip` in either version's layout.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub(crate) enum StreamedClip {
    Unity2020(StreamedClip2020),
    Unity6(StreamedClip6),
}

/// `StreamedClip` v1: one `unsigned int curveCount`.
#[derive(Debug, Serialize)]
pub(crate) struct StreamedClip2020 {
    pub data: Vec<u32>,
    pub curveCount: u32,
}

/// `StreamedClip` v2 (2022.3.19+, 6000.0): `UInt16 curveCount; UInt16 discreteCurveCount`.
#[derive(Debug, Serialize)]
pub(crate) struct StreamedClip6 {
    pub data: Vec<u32>,
    pub curveCount: u16,
    pub discreteCurveCount: u16,
}

/// `DenseClip`.
#[derive(Debug, Serialize)]
pub(crate) struct DenseClip {
    pub m_FrameCount: i32,
    pub m_CurveCount: u32,
    pub m_SampleRate: f32,
    pub m_BeginTime: f32,
    pub m_SampleArray: Vec<f32>,
}

/// `ConstantClip`.
#[derive(Debug, Serialize)]
pub(crate) struct ConstantClip {
    pub data: Vec<f32>,
}

/// `ValueDelta`: a curve's value at the clip's start and stop time.
#[derive(Clone, Copy, Debug, Serialize)]
pub(crate) struct ValueDelta {
    pub m_Start: f32,
    pub m_Stop: f32,
}

/// `AnimationClipBindingConstant`.
#[derive(Debug, Serialize)]
pub(crate) struct AnimationClipBindingConstant {
    pub genericBindings: Vec<GenericBinding>,
    pub pptrCurveMapping: Vec<PPtr>,
}

/// `GenericBinding` in either version's layout.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub(crate) enum GenericBinding {
    Unity2020(GenericBinding2020),
    Unity6(GenericBinding6),
}

/// `GenericBinding` 5.6 – 2021: `typeID`, `customType`, `isPPtrCurve`.
#[derive(Debug, Serialize)]
pub(crate) struct GenericBinding2020 {
    pub path: u32,
    pub attribute: u32,
    pub script: PPtr,
    pub typeID: i32,
    pub customType: u8,
    pub isPPtrCurve: u8,
}

/// `GenericBinding` 2022.2 – 6000.4: adds `isIntCurve` and `isSerializeReferenceCurve`.
#[derive(Debug, Serialize)]
pub(crate) struct GenericBinding6 {
    pub path: u32,
    pub attribute: u32,
    pub script: PPtr,
    pub typeID: i32,
    pub customType: u8,
    pub isPPtrCurve: u8,
    pub isIntCurve: u8,
    pub isSerializeReferenceCurve: u8,
}

/// `AnimationEvent`.
#[derive(Debug, Serialize)]
pub(crate) struct AnimationEvent {
    pub time: f32,
    pub functionName: String,
    pub data: String,
    pub objectReferenceParameter: PPtr,
    pub floatParameter: f32,
    pub intParameter: i32,
    pub messageOptions: i32,
}
