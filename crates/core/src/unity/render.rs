//! Renderers and what they draw: SkinnedMeshRenderer (137), MeshRenderer (23), MeshFilter (33),
//! SpriteRenderer (212), Sprite (213) (`mesh.md` §3.1).
//!
//! The Renderer base fields change in nearly every release; only the ones a preview needs
//! are declared, and the type tree reader skips the rest.

use serde::Deserialize;

use super::math::{Aabb, ColorRGBA, Rectf, Vec2};
use super::{Int, PPtr};

/// SkinnedMeshRenderer.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SkinnedMeshRenderer {
    pub m_GameObject: PPtr,
    pub m_Enabled: Int,
    pub m_Materials: Vec<PPtr>,
    /// Unity 5.6+.
    pub m_StaticBatchInfo: Option<StaticBatchInfo>,
    /// Up to 5.5.
    pub m_SubsetIndices: Option<Vec<u32>>,
    pub m_Mesh: PPtr,
    /// Bind-pose order: bone `i` is skinning slot `i` and `m_BindPose[i]`.
    pub m_Bones: Vec<PPtr>,
    /// Unity 4.5+: initial weight (0–100) per blend-shape channel.
    pub m_BlendShapeWeights: Vec<f32>,
    /// Unity 4.3+.
    pub m_RootBone: Option<PPtr>,
    pub m_AABB: Aabb,
}

/// MeshRenderer (stored as `Renderer` in 3.x type trees).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct MeshRenderer {
    pub m_GameObject: PPtr,
    pub m_Enabled: Int,
    pub m_Materials: Vec<PPtr>,
    pub m_StaticBatchInfo: Option<StaticBatchInfo>,
    pub m_SubsetIndices: Option<Vec<u32>>,
}

/// `StaticBatchInfo`: the sub-meshes of a combined mesh that belong to this renderer.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(default)]
pub struct StaticBatchInfo {
    pub firstSubMesh: Int,
    pub subMeshCount: Int,
}

/// MeshFilter.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct MeshFilter {
    pub m_GameObject: PPtr,
    pub m_Mesh: PPtr,
}

/// SpriteRenderer.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SpriteRenderer {
    pub m_GameObject: PPtr,
    pub m_Enabled: Int,
    pub m_Materials: Vec<PPtr>,
    pub m_Sprite: PPtr,
    pub m_Color: ColorRGBA,
    pub m_FlipX: Int,
    pub m_FlipY: Int,
}

/// Sprite.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Sprite {
    pub m_Name: String,
    /// The sprite's rectangle in its source texture, in pixels.
    pub m_Rect: Rectf,
    pub m_Offset: Vec2,
    pub m_PixelsToUnits: f32,
    /// Unity 5.0+: pivot as a fraction of `m_Rect`.
    pub m_Pivot: Option<Vec2>,
    pub m_RD: SpriteRenderData,
}

/// `SpriteRenderData`: the texture the sprite is drawn from (an atlas when packed).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SpriteRenderData {
    pub texture: PPtr,
    pub alphaTexture: Option<PPtr>,
    /// Where the sprite lies in `texture`, in pixels.
    pub textureRect: Option<Rectf>,
}
