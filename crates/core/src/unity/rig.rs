//! The classes a rig is made of: GameObject, Transform, Animator, Animation, Avatar and the
//! controllers that list clips.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{Int, PPtr, Quat, Vec3};

/// Unity's `GameObject`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct GameObject {
    pub m_Component: Vec<ComponentPair>,
    pub m_Name: String,
    pub m_IsActive: Option<Int>,
}

/// A component entry: `{ classID, component }` before Unity 5.5, `{ component }` after.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ComponentPair {
    pub component: PPtr,
    pub first: Option<Int>,
    pub second: Option<PPtr>,
}

impl ComponentPair {
    /// The referenced component, whichever layout was stored.
    pub fn pptr(&self) -> PPtr {
        self.second.unwrap_or(self.component)
    }
}

/// Unity's `Transform`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Transform {
    pub m_GameObject: PPtr,
    pub m_LocalRotation: Quat,
    pub m_LocalPosition: Vec3,
    pub m_LocalScale: Vec3,
    pub m_Children: Vec<PPtr>,
    pub m_Father: PPtr,
}

/// Unity's `Animator`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Animator {
    pub m_GameObject: PPtr,
    pub m_Avatar: PPtr,
    pub m_Controller: PPtr,
    /// "Apply Root Motion": the clips' root motion moves the GameObject.
    pub m_ApplyRootMotion: Option<Int>,
    pub m_HasTransformHierarchy: Option<Int>,
}

/// The legacy Animation component.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Animation {
    pub m_GameObject: PPtr,
    pub m_Animation: PPtr,
    pub m_Animations: Vec<PPtr>,
    pub m_WrapMode: Int,
}

/// Unity's `Avatar`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Avatar {
    pub m_Name: String,
    /// Path hash to transform path, relative to the Animator's GameObject.
    pub m_TOS: BTreeMap<u32, String>,
}

/// Unity's `AnimatorController`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct AnimatorController {
    pub m_Name: String,
    pub m_AnimationClips: Vec<PPtr>,
}

/// Unity's `AnimatorOverrideController`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct AnimatorOverrideController {
    pub m_Name: String,
    pub m_Controller: PPtr,
    pub m_Clips: Vec<OverridePair>,
}

/// Unity's `OverridePair`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct OverridePair {
    pub m_OriginalClip: PPtr,
    pub m_OverrideClip: PPtr,
}
