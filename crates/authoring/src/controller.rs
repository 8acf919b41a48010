//! AnimatorController (class 91) in the 2020.3.34f1 layout, field for field in type-tree
//! order, so tests can write built controllers with blend trees, sub-machines and selector
//! states that no shared file holds. The caller fills the compiled constant as Unity would
//! (hashes, selector states); [`write_controller_bundle`] writes it with its clips.
#![allow(non_snake_case)]

use std::collections::BTreeMap;
use std::io::Cursor;

use rabex::files::bundlefile::{BundleFileBuilder, CompressionType};
use rabex::files::serializedfile::build_common_offset_map;
use rabex::files::serializedfile::builder::SerializedFileBuilder;
use rabex::objects::{ClassId, ClassIdType, PPtr};
use rabex::typetree::typetree_cache::TypeTreeCache;
use serde::Serialize;

use super::{
    AuthoringError, Bundle, ClipSpec, UnityTarget, bundle_of, cab_name, clip, embedded_tpk,
    version, write_serialized_with,
};

/// An `OffsetPtr<T>`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Ptr<T> {
    pub data: T,
}

/// Wraps a value in an `OffsetPtr`.
pub fn ptr<T>(data: T) -> Ptr<T> {
    Ptr { data }
}

/// A blend tree leaf (no blend parameter) playing clip `clip`, an index into
/// `m_AnimationClips`, of `duration` seconds.
pub fn clip_leaf(clip: u32, duration: f32) -> Ptr<BlendTreeNodeConstant> {
    ptr(BlendTreeNodeConstant {
        m_BlendEventID: u32::MAX,
        m_BlendEventYID: u32::MAX,
        m_ClipID: clip,
        m_Duration: duration,
        ..BlendTreeNodeConstant::default()
    })
}

/// A crossfade of `seconds` (a fixed duration, ordered interruption, to itself too) to state
/// `to` when `conditions` hold.
pub fn fixed_transition(
    to: u32,
    seconds: f32,
    conditions: Vec<Ptr<ConditionConstant>>,
) -> Ptr<TransitionConstant> {
    ptr(TransitionConstant {
        m_ConditionConstantArray: conditions,
        m_DestinationState: to,
        m_TransitionDuration: seconds,
        m_HasFixedDuration: true,
        m_OrderedInterruption: true,
        m_CanTransitionToSelf: true,
        ..TransitionConstant::default()
    })
}

/// Unity's `AnimatorController`, field for field as its type tree names them.
#[derive(Clone, Debug, Serialize)]
pub struct AnimatorController {
    pub m_Name: String,
    pub m_ControllerSize: u32,
    pub m_Controller: ControllerConstant,
    pub m_TOS: BTreeMap<u32, String>,
    pub m_AnimationClips: Vec<PPtr>,
    pub m_StateMachineBehaviourVectorDescription: BehaviourDescription,
    pub m_StateMachineBehaviours: Vec<PPtr>,
    pub m_MultiThreadedStateMachine: bool,
}

impl ClassIdType for AnimatorController {
    const CLASS_ID: ClassId = ClassId::AnimatorController;
}

/// Unity's `BehaviourDescription`, field for field as its type tree names them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct BehaviourDescription {
    pub m_StateMachineBehaviourRanges: BTreeMap<u32, u32>,
    pub m_StateMachineBehaviourIndices: Vec<u32>,
}

/// Unity's `ControllerConstant`, field for field as its type tree names them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ControllerConstant {
    pub m_LayerArray: Vec<Ptr<LayerConstant>>,
    pub m_StateMachineArray: Vec<Ptr<StateMachineConstant>>,
    pub m_Values: Ptr<ValueArrayConstant>,
    pub m_DefaultValues: Ptr<ValueArray>,
}

/// Unity's `LayerConstant`, field for field as its type tree names them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct LayerConstant {
    pub m_StateMachineIndex: u32,
    pub m_StateMachineSynchronizedLayerIndex: u32,
    pub m_BodyMask: HumanPoseMask,
    pub m_SkeletonMask: Ptr<SkeletonMask>,
    pub m_Binding: u32,
    #[serde(rename = "(int&)m_LayerBlendingMode")]
    pub m_LayerBlendingMode: i32,
    pub m_DefaultWeight: f32,
    pub m_IKPass: bool,
    pub m_SyncedLayerAffectsTiming: bool,
}

/// Unity's `HumanPoseMask`, field for field as its type tree names them.
#[derive(Clone, Debug, Serialize)]
pub struct HumanPoseMask {
    pub word0: u32,
    pub word1: u32,
    pub word2: u32,
}

impl Default for HumanPoseMask {
    fn default() -> Self {
        HumanPoseMask {
            word0: u32::MAX,
            word1: u32::MAX,
            word2: 0x7FFFF,
        }
    }
}

/// Unity's `SkeletonMask`, field for field as its type tree names them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SkeletonMask {
    pub m_Data: Vec<SkeletonMaskElement>,
}

/// Unity's `SkeletonMaskElement`, field for field as its type tree names them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SkeletonMaskElement {
    pub m_PathHash: u32,
    pub m_Weight: f32,
}

/// Unity's `StateMachineConstant`, field for field as its type tree names them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct StateMachineConstant {
    pub m_StateConstantArray: Vec<Ptr<StateConstant>>,
    pub m_AnyStateTransitionConstantArray: Vec<Ptr<TransitionConstant>>,
    pub m_SelectorStateConstantArray: Vec<Ptr<SelectorStateConstant>>,
    pub m_DefaultState: u32,
    pub m_SynchronizedLayerCount: u32,
}

/// Unity's `StateConstant`, field for field as its type tree names them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct StateConstant {
    pub m_TransitionConstantArray: Vec<Ptr<TransitionConstant>>,
    pub m_BlendTreeConstantIndexArray: Vec<i32>,
    pub m_BlendTreeConstantArray: Vec<Ptr<BlendTreeConstant>>,
    pub m_NameID: u32,
    pub m_PathID: u32,
    pub m_FullPathID: u32,
    pub m_TagID: u32,
    pub m_SpeedParamID: u32,
    pub m_MirrorParamID: u32,
    pub m_CycleOffsetParamID: u32,
    pub m_TimeParamID: u32,
    pub m_Speed: f32,
    pub m_CycleOffset: f32,
    pub m_IKOnFeet: bool,
    pub m_WriteDefaultValues: bool,
    pub m_Loop: bool,
    pub m_Mirror: bool,
}

/// Unity's `TransitionConstant`, field for field as its type tree names them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct TransitionConstant {
    pub m_ConditionConstantArray: Vec<Ptr<ConditionConstant>>,
    pub m_DestinationState: u32,
    pub m_FullPathID: u32,
    pub m_ID: u32,
    pub m_UserID: u32,
    pub m_TransitionDuration: f32,
    pub m_TransitionOffset: f32,
    pub m_ExitTime: f32,
    pub m_HasExitTime: bool,
    pub m_HasFixedDuration: bool,
    pub m_InterruptionSource: i32,
    pub m_OrderedInterruption: bool,
    pub m_CanTransitionToSelf: bool,
}

/// Unity's `ConditionConstant`, field for field as its type tree names them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ConditionConstant {
    pub m_ConditionMode: u32,
    pub m_EventID: u32,
    pub m_EventThreshold: f32,
    pub m_ExitTime: f32,
}

/// Unity's `SelectorStateConstant`, field for field as its type tree names them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SelectorStateConstant {
    pub m_TransitionConstantArray: Vec<Ptr<SelectorTransitionConstant>>,
    pub m_FullPathID: u32,
    pub m_IsEntry: bool,
}

/// Unity's `SelectorTransitionConstant`, field for field as its type tree names them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SelectorTransitionConstant {
    pub m_Destination: u32,
    pub m_ConditionConstantArray: Vec<Ptr<ConditionConstant>>,
}

/// Unity's `BlendTreeConstant`, field for field as its type tree names them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct BlendTreeConstant {
    pub m_NodeArray: Vec<Ptr<BlendTreeNodeConstant>>,
}

/// Unity's `BlendTreeNodeConstant`, field for field as its type tree names them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct BlendTreeNodeConstant {
    pub m_BlendType: u32,
    pub m_BlendEventID: u32,
    pub m_BlendEventYID: u32,
    pub m_ChildIndices: Vec<u32>,
    pub m_Blend1dData: Ptr<Blend1dDataConstant>,
    pub m_Blend2dData: Ptr<Blend2dDataConstant>,
    pub m_BlendDirectData: Ptr<BlendDirectDataConstant>,
    pub m_ClipID: u32,
    pub m_Duration: f32,
    pub m_CycleOffset: f32,
    pub m_Mirror: bool,
}

/// Unity's `Blend1dDataConstant`, field for field as its type tree names them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Blend1dDataConstant {
    pub m_ChildThresholdArray: Vec<f32>,
}

/// Unity's `Vector2f`, field for field as its type tree names them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Vector2f {
    pub x: f32,
    pub y: f32,
}

/// Unity's `MotionNeighborList`, field for field as its type tree names them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct MotionNeighborList {
    pub m_NeighborArray: Vec<u32>,
}

/// Unity's `Blend2dDataConstant`, field for field as its type tree names them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Blend2dDataConstant {
    pub m_ChildPositionArray: Vec<Vector2f>,
    pub m_ChildMagnitudeArray: Vec<f32>,
    pub m_ChildPairVectorArray: Vec<Vector2f>,
    pub m_ChildPairAvgMagInvArray: Vec<f32>,
    pub m_ChildNeighborListArray: Vec<MotionNeighborList>,
}

/// Unity's `BlendDirectDataConstant`, field for field as its type tree names them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct BlendDirectDataConstant {
    pub m_ChildBlendEventIDArray: Vec<u32>,
    pub m_NormalizedBlendValues: bool,
}

/// Unity's `ValueArrayConstant`, field for field as its type tree names them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ValueArrayConstant {
    pub m_ValueArray: Vec<ValueConstant>,
}

/// Unity's `ValueConstant`, field for field as its type tree names them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ValueConstant {
    pub m_ID: u32,
    pub m_Type: u32,
    pub m_Index: u32,
}

/// Unity's `ValueArray`, field for field as its type tree names them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ValueArray {
    pub m_PositionValues: Vec<[f32; 3]>,
    pub m_QuaternionValues: Vec<[f32; 4]>,
    pub m_ScaleValues: Vec<[f32; 3]>,
    pub m_FloatValues: Vec<f32>,
    pub m_IntValues: Vec<i32>,
    pub m_BoolValues: Vec<bool>,
}

/// Writes a 2020.3.34f1 UnityFS bundle holding `clips` (path ids 1, 2, …) and the controller
/// (the next path id). The controller's `m_AnimationClips` should point at those path ids.
pub fn write_controller_bundle(
    clips: &[ClipSpec],
    controller: &AnimatorController,
) -> Result<Vec<u8>, AuthoringError> {
    let target = UnityTarget::Unity2020;
    let version = version(target);
    let tpk = embedded_tpk();
    let type_trees = TypeTreeCache::new(tpk);
    let common_strings = build_common_offset_map(tpk, &version);
    let mut file = SerializedFileBuilder::new(&version, &type_trees, &common_strings, true);
    for (index, spec) in clips.iter().enumerate() {
        file.add_object_at(1 + index as i64, &clip::build_clip(spec, target)?)?;
    }
    file.add_object_at(1 + clips.len() as i64, controller)?;
    let serialized = file.write_vec()?;
    let mut builder = BundleFileBuilder::unityfs(target.bundle_format(), &version);
    builder.set_header_compression(CompressionType::None);
    builder.add_file(&cab_name(&serialized), Cursor::new(serialized))?;
    let mut out = Cursor::new(Vec::new());
    builder.write(&mut out, CompressionType::None)?;
    Ok(out.into_inner())
}

/// Writes `bundle`'s clips and rig (path ids as the module docs plan them) and `controller`
/// after them (the next free path id), as a UnityFS bundle. The controller's
/// `m_AnimationClips` should point at the clips' path ids (1, 2, …); the rig's Animator
/// does not reference it. Use [`UnityTarget::Unity2020`]: the controller is laid out as
/// 2020.3 stores it.
pub fn write_rig_controller_bundle(
    bundle: &Bundle,
    controller: &AnimatorController,
) -> Result<Vec<u8>, AuthoringError> {
    write_rig_controllers_bundle(bundle, controller, &[])
}

/// [`write_rig_controller_bundle`] with `overrides` after the controller (its path id + 1,
/// + 2, …): their `m_Controller` may point at the controller's path id.
pub fn write_rig_controllers_bundle(
    bundle: &Bundle,
    controller: &AnimatorController,
    overrides: &[AnimatorOverrideController],
) -> Result<Vec<u8>, AuthoringError> {
    let serialized =
        write_serialized_with(bundle, &version(bundle.target), Some(controller), overrides)?;
    bundle_of(bundle, serialized)
}

/// Unity's `AnimatorOverrideController` (class 221), field for field as its type tree names
/// them: a base controller (`m_Controller`) with some clips replaced.
#[derive(Clone, Debug, Default, Serialize)]
pub struct AnimatorOverrideController {
    pub m_Name: String,
    pub m_Controller: PPtr,
    pub m_Clips: Vec<AnimationClipOverride>,
}

impl ClassIdType for AnimatorOverrideController {
    const CLASS_ID: ClassId = ClassId::AnimatorOverrideController;
}

/// Unity's `AnimationClipOverride`: an original clip of the base and the clip that plays
/// instead (a null PPtr: the original plays).
#[derive(Clone, Debug, Default, Serialize)]
pub struct AnimationClipOverride {
    pub m_OriginalClip: PPtr,
    pub m_OverrideClip: PPtr,
}
