//! The built AnimatorController (class 91) as stored, in the field names of Unity's type
//! trees, read through the file's own type tree or the embedded one for its version.
//!
//! One set of structs reads every version: fields that appear or were renamed across
//! versions are optional or aliased (`m_LayerArray` / `m_HumanLayerArray`,
//! `m_StateMachineSynchronizedLayerIndex` / `m_StateMachineMotionSetIndex`, the Unity 4
//! `m_ID` of a state, `m_Atomic`, `m_LeafInfoArray`, `m_ClipIndex`). Every `OffsetPtr<T>` is
//! stored as a node whose one child `data` is the T ([`Ptr`]).
#![allow(non_snake_case)]

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::unity::{Float, Int, PPtr};

/// An `OffsetPtr<T>`: the T in its `data` child.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Ptr<T: Default> {
    pub data: T,
}

/// Unity's `AnimatorController`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct AnimatorController {
    pub m_Name: String,
    pub m_Controller: ControllerConstant,
    pub m_TOS: BTreeMap<u32, String>,
    pub m_AnimationClips: Vec<PPtr>,
}

/// Unity's `ControllerConstant`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ControllerConstant {
    #[serde(alias = "m_HumanLayerArray")]
    pub m_LayerArray: Vec<Ptr<LayerConstant>>,
    pub m_StateMachineArray: Vec<Ptr<StateMachineConstant>>,
    pub m_Values: Ptr<ValueArrayConstant>,
    pub m_DefaultValues: Ptr<ValueArray>,
}

/// Unity's `LayerConstant`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct LayerConstant {
    pub m_StateMachineIndex: Int,
    #[serde(alias = "m_StateMachineMotionSetIndex")]
    pub m_StateMachineSynchronizedLayerIndex: Int,
    pub m_BodyMask: BodyMask,
    pub m_SkeletonMask: Ptr<SkeletonMask>,
    pub m_Binding: Int,
    /// Named `(int&)m_LayerBlendingMode` in every type tree.
    #[serde(alias = "(int&)m_LayerBlendingMode")]
    pub m_LayerBlendingMode: Int,
    pub m_DefaultWeight: Option<Float>,
    pub m_IKPass: Option<Int>,
    pub m_SyncedLayerAffectsTiming: Option<Int>,
}

/// Unity's `BodyMask`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct BodyMask {
    pub word0: Int,
    pub word1: Int,
    pub word2: Option<Int>,
}

/// Unity's `SkeletonMask`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SkeletonMask {
    pub m_Data: Vec<SkeletonMaskElement>,
}

/// Unity's `SkeletonMaskElement`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SkeletonMaskElement {
    #[serde(alias = "m_Index")]
    pub m_PathHash: Int,
    pub m_Weight: Float,
}

/// Unity's `StateMachineConstant`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct StateMachineConstant {
    pub m_StateConstantArray: Vec<Ptr<StateConstant>>,
    pub m_AnyStateTransitionConstantArray: Vec<Ptr<TransitionConstant>>,
    pub m_SelectorStateConstantArray: Vec<Ptr<SelectorStateConstant>>,
    pub m_DefaultState: Int,
    #[serde(alias = "m_MotionSetCount")]
    pub m_SynchronizedLayerCount: Int,
}

/// Unity's `StateConstant`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct StateConstant {
    pub m_TransitionConstantArray: Vec<Ptr<TransitionConstant>>,
    pub m_BlendTreeConstantIndexArray: Vec<Int>,
    pub m_LeafInfoArray: Vec<LeafInfoConstant>,
    pub m_BlendTreeConstantArray: Vec<Ptr<BlendTreeConstant>>,
    pub m_NameID: Int,
    /// Unity < 4.3: one id for the state.
    pub m_ID: Option<Int>,
    pub m_PathID: Option<Int>,
    pub m_FullPathID: Option<Int>,
    pub m_TagID: Int,
    pub m_SpeedParamID: Option<Int>,
    pub m_MirrorParamID: Option<Int>,
    pub m_CycleOffsetParamID: Option<Int>,
    pub m_TimeParamID: Option<Int>,
    pub m_Speed: Float,
    pub m_CycleOffset: Float,
    pub m_IKOnFeet: Option<Int>,
    pub m_WriteDefaultValues: Option<Int>,
    pub m_Loop: Int,
    pub m_Mirror: Int,
}

/// Unity's `LeafInfoConstant`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct LeafInfoConstant {
    pub m_IDArray: Vec<Int>,
    pub m_IndexOffset: Int,
}

/// Unity's `TransitionConstant`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct TransitionConstant {
    pub m_ConditionConstantArray: Vec<Ptr<ConditionConstant>>,
    pub m_DestinationState: Int,
    pub m_FullPathID: Option<Int>,
    pub m_ID: Int,
    pub m_UserID: Int,
    pub m_TransitionDuration: Float,
    pub m_TransitionOffset: Float,
    pub m_ExitTime: Option<Float>,
    pub m_HasExitTime: Option<Int>,
    pub m_HasFixedDuration: Option<Int>,
    pub m_InterruptionSource: Option<Int>,
    pub m_OrderedInterruption: Option<Int>,
    pub m_Atomic: Option<Int>,
    pub m_CanTransitionToSelf: Option<Int>,
}

/// Unity's `ConditionConstant`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ConditionConstant {
    pub m_ConditionMode: Int,
    pub m_EventID: Int,
    pub m_EventThreshold: Float,
    pub m_ExitTime: Float,
}

/// Unity's `SelectorStateConstant`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SelectorStateConstant {
    pub m_TransitionConstantArray: Vec<Ptr<SelectorTransitionConstant>>,
    pub m_FullPathID: Int,
    pub m_IsEntry: Int,
}

/// Unity's `SelectorTransitionConstant`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SelectorTransitionConstant {
    pub m_Destination: Int,
    pub m_ConditionConstantArray: Vec<Ptr<ConditionConstant>>,
}

/// Unity's `BlendTreeConstant`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct BlendTreeConstant {
    pub m_NodeArray: Vec<Ptr<BlendTreeNodeConstant>>,
}

/// Unity's `BlendTreeNodeConstant`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct BlendTreeNodeConstant {
    pub m_BlendType: Option<Int>,
    pub m_BlendEventID: Int,
    pub m_BlendEventYID: Option<Int>,
    pub m_ChildIndices: Vec<Int>,
    /// Unity < 4.1: thresholds directly on the node.
    pub m_ChildThresholdArray: Option<Vec<Float>>,
    pub m_Blend1dData: Option<Ptr<Blend1dData>>,
    pub m_Blend2dData: Option<Ptr<Blend2dData>>,
    pub m_BlendDirectData: Option<Ptr<BlendDirectData>>,
    pub m_ClipID: Int,
    pub m_Duration: Float,
    pub m_CycleOffset: Option<Float>,
    pub m_Mirror: Option<Int>,
}

/// Unity's `Blend1dData`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Blend1dData {
    pub m_ChildThresholdArray: Vec<Float>,
}

/// Unity's `Blend2dData`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Blend2dData {
    pub m_ChildPositionArray: Vec<Vector2>,
}

/// Unity's `Vector2`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Vector2 {
    pub x: Float,
    pub y: Float,
}

/// Unity's `BlendDirectData`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct BlendDirectData {
    pub m_ChildBlendEventIDArray: Vec<Int>,
    pub m_NormalizedBlendValues: Int,
}

/// Unity's `ValueArrayConstant`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ValueArrayConstant {
    pub m_ValueArray: Vec<ValueConstant>,
}

/// Unity's `ValueConstant`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ValueConstant {
    pub m_ID: Int,
    pub m_Type: Int,
    pub m_Index: Int,
}

/// Unity's `ValueArray`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ValueArray {
    pub m_BoolValues: Vec<Int>,
    pub m_IntValues: Vec<Int>,
    pub m_FloatValues: Vec<Float>,
}
