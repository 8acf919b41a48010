//! Unity's serialized classes as plain serde structs, in the field names of Unity's type trees.
//!
//! Only the fields clipscope uses are declared; the type tree reader skips the rest. Fields
//! that differ between Unity versions are optional or lenient ([`Int`] accepts any integer
//! width), so one struct reads every version from 3.5 to Unity 6.
#![allow(non_snake_case)]

pub mod avatar;
pub mod clip;
pub mod material;
pub mod math;
pub mod mesh;
pub mod render;
pub mod rig;
pub mod texture;
mod values;

pub use values::{Float, Int, PPtr, Quat, Vec3};

/// Class ids used by clipscope.
pub mod class {
    /// `GameObject`.
    pub const GAME_OBJECT: i32 = 1;
    /// `Transform`.
    pub const TRANSFORM: i32 = 4;
    /// `Material`.
    pub const MATERIAL: i32 = 21;
    /// `MeshRenderer`.
    pub const MESH_RENDERER: i32 = 23;
    /// `Texture2D`.
    pub const TEXTURE_2D: i32 = 28;
    /// `MeshFilter`.
    pub const MESH_FILTER: i32 = 33;
    /// `Mesh`.
    pub const MESH: i32 = 43;
    /// `AnimationClip`.
    pub const ANIMATION_CLIP: i32 = 74;
    /// `Avatar`.
    pub const AVATAR: i32 = 90;
    /// `AnimatorController`.
    pub const ANIMATOR_CONTROLLER: i32 = 91;
    /// `Animator`.
    pub const ANIMATOR: i32 = 95;
    /// `Animation`.
    pub const ANIMATION: i32 = 111;
    /// `MonoBehaviour`.
    pub const MONO_BEHAVIOUR: i32 = 114;
    /// `MonoScript`.
    pub const MONO_SCRIPT: i32 = 115;
    /// `SkinnedMeshRenderer`.
    pub const SKINNED_MESH_RENDERER: i32 = 137;
    /// `SpriteRenderer`.
    pub const SPRITE_RENDERER: i32 = 212;
    /// `Sprite`.
    pub const SPRITE: i32 = 213;
    /// `AnimatorOverrideController`.
    pub const ANIMATOR_OVERRIDE_CONTROLLER: i32 = 221;
    /// `RectTransform`.
    pub const RECT_TRANSFORM: i32 = 224;
}

/// A readable name for a class id.
pub fn class_name(class_id: i32) -> String {
    rabex::objects::ClassId(class_id)
        .name()
        .map(str::to_string)
        .unwrap_or_else(|| format!("class {class_id}"))
}
