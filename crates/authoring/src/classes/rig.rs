//! GameObject (1), Transform (4), Animator (95) and Animation (111).

use rabex::objects::{ClassId, ClassIdType, PPtr};
use serde::Serialize;

use super::{Vec3, Vec4};

/// GameObject (5.5+ layout; no trailing align).
#[derive(Debug, Serialize)]
pub(crate) struct GameObject {
    pub m_Component: Vec<ComponentPair>,
    pub m_Layer: u32,
    pub m_Name: String,
    pub m_Tag: u16,
    pub m_IsActive: bool,
}

impl ClassIdType for GameObject {
    const CLASS_ID: ClassId = ClassId::GameObject;
}

/// `ComponentPair` (5.5+: only the component pointer).
#[derive(Debug, Serialize)]
pub(crate) struct ComponentPair {
    pub component: PPtr,
}

/// Transform (stable since 5.0).
#[derive(Debug, Serialize)]
pub(crate) struct Transform {
    pub m_GameObject: PPtr,
    pub m_LocalRotation: Vec4,
    pub m_LocalPosition: Vec3,
    pub m_LocalScale: Vec3,
    pub m_Children: Vec<PPtr>,
    pub m_Father: PPtr,
}

impl ClassIdType for Transform {
    const CLASS_ID: ClassId = ClassId::Transform;
}

/// Animator in either version's layout (the trailing bools changed).
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub(crate) enum Animator {
    Unity2020(Animator2020),
    Unity6(Animator6),
}

impl ClassIdType for Animator {
    const CLASS_ID: ClassId = ClassId::Animator;
}

/// Animator, 2020.3.34f1.
#[derive(Debug, Serialize)]
pub(crate) struct Animator2020 {
    pub m_GameObject: PPtr,
    pub m_Enabled: u8,
    pub m_Avatar: PPtr,
    pub m_Controller: PPtr,
    pub m_CullingMode: i32,
    pub m_UpdateMode: i32,
    pub m_ApplyRootMotion: bool,
    pub m_LinearVelocityBlending: bool,
    pub m_HasTransformHierarchy: bool,
    pub m_AllowConstantClipSamplingOptimization: bool,
    pub m_KeepAnimatorControllerStateOnDisable: bool,
}

/// Animator, 6000.0: adds `m_StabilizeFeet` and `m_AnimatePhysics`, and splits the keep-state
/// flag in two.
#[derive(Debug, Serialize)]
pub(crate) struct Animator6 {
    pub m_GameObject: PPtr,
    pub m_Enabled: u8,
    pub m_Avatar: PPtr,
    pub m_Controller: PPtr,
    pub m_CullingMode: i32,
    pub m_UpdateMode: i32,
    pub m_ApplyRootMotion: bool,
    pub m_LinearVelocityBlending: bool,
    pub m_StabilizeFeet: bool,
    pub m_AnimatePhysics: bool,
    pub m_HasTransformHierarchy: bool,
    pub m_AllowConstantClipSamplingOptimization: bool,
    pub m_KeepAnimatorStateOnDisable: bool,
    pub m_WriteDefaultValuesOnDisable: bool,
}

/// The legacy Animation component in either version's layout.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub(crate) enum Animation {
    Unity2020(Animation2020),
    Unity6(Animation6),
}

impl ClassIdType for Animation {
    const CLASS_ID: ClassId = ClassId::Animation;
}

/// Animation, 2020.3.34f1.
#[derive(Debug, Serialize)]
pub(crate) struct Animation2020 {
    pub m_GameObject: PPtr,
    pub m_Enabled: u8,
    pub m_Animation: PPtr,
    pub m_Animations: Vec<PPtr>,
    pub m_WrapMode: i32,
    pub m_PlayAutomatically: bool,
    pub m_AnimatePhysics: bool,
    pub m_CullingType: i32,
}

/// Animation, 6000.0: `m_UpdateMode` before `m_CullingType`.
#[derive(Debug, Serialize)]
pub(crate) struct Animation6 {
    pub m_GameObject: PPtr,
    pub m_Enabled: u8,
    pub m_Animation: PPtr,
    pub m_Animations: Vec<PPtr>,
    pub m_WrapMode: i32,
    pub m_PlayAutomatically: bool,
    pub m_AnimatePhysics: bool,
    pub m_UpdateMode: i32,
    pub m_CullingType: i32,
}
