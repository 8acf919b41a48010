//! The components that draw meshes and sprites, as plain data: skinned renderers, mesh
//! renderers with their mesh filters, sprite renderers and sprites (`mesh.md` §1, §3).
//!
//! References stay [`PPtr`]s: the caller resolves them in this file (`m_FileID == 0`) or
//! through its externals, and a null `m_PathID` means "none".

use std::collections::HashMap;

use super::matrix::{self, Mat4};
use super::{Aabb, MeshError};
use crate::rig::Hierarchy;
use crate::serialized::{ObjectInfo, SerializedFile};
use crate::unity::render::{
    MeshFilter, MeshRenderer, SkinnedMeshRenderer, Sprite, SpriteRenderer, StaticBatchInfo,
};
use crate::unity::{PPtr, class};

/// A SkinnedMeshRenderer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SkinnedRenderer {
    pub path_id: i64,
    pub game_object: PPtr,
    pub enabled: bool,
    pub mesh: PPtr,
    /// Transforms in bind-pose order: vertex bone index `i` and `mesh.bind_poses[i]` mean
    /// `bones[i]`.
    pub bones: Vec<PPtr>,
    pub root_bone: Option<PPtr>,
    /// Material `i` draws sub-mesh [`SkinnedRenderer::submesh_of`]`(i)`.
    pub materials: Vec<PPtr>,
    pub submeshes: SubMeshRange,
    /// Initial weight (0–100) of each blend-shape channel.
    pub blend_shape_weights: Vec<f32>,
    /// `m_AABB`: bounds relative to the root bone.
    pub bounds: Aabb,
}

/// A MeshRenderer with the mesh of the MeshFilter on the same GameObject.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshRendererData {
    pub path_id: i64,
    pub game_object: PPtr,
    pub enabled: bool,
    /// Null when the GameObject has no MeshFilter in this file.
    pub mesh: PPtr,
    /// Material `i` draws sub-mesh [`MeshRendererData::submesh_of`]`(i)`.
    pub materials: Vec<PPtr>,
    pub submeshes: SubMeshRange,
}

/// A SpriteRenderer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpriteRendererData {
    pub path_id: i64,
    pub game_object: PPtr,
    pub enabled: bool,
    pub sprite: PPtr,
    pub color: [f32; 4],
    pub flip: [bool; 2],
}

/// A Sprite: which part of which texture, and where its pivot is.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpriteData {
    pub name: String,
    /// The texture drawn from (an atlas for packed sprites).
    pub texture: PPtr,
    /// `[x, y, width, height]` in texture pixels, y up from the texture's bottom row.
    pub texture_rect: [f32; 4],
    /// The pivot as a fraction of the sprite's rectangle (0.5, 0.5 is the centre).
    pub pivot: [f32; 2],
    pub pixels_to_units: f32,
}

/// Everything that draws in one file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Renderers {
    pub skinned: Vec<SkinnedRenderer>,
    pub meshes: Vec<MeshRendererData>,
    pub sprites: Vec<SpriteRendererData>,
}

/// Which sub-meshes a renderer's materials draw: normally material `i` draws sub-mesh `i`;
/// a statically batched renderer draws a range of a combined mesh (`m_StaticBatchInfo`, 5.6+)
/// or listed sub-meshes (`m_SubsetIndices`, up to 5.5).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SubMeshRange {
    pub first: usize,
    /// Explicit sub-mesh per material (up to 5.5); empty when the range applies.
    pub subset: Vec<u32>,
}

impl SubMeshRange {
    fn new(info: Option<StaticBatchInfo>, subset: Option<Vec<u32>>) -> SubMeshRange {
        let first = info
            .filter(|i| i.subMeshCount.0 > 0)
            .map_or(0, |i| usize::try_from(i.firstSubMesh.0).unwrap_or(0));
        SubMeshRange {
            first,
            subset: subset.unwrap_or_default(),
        }
    }

    /// The sub-mesh material `material` draws.
    pub fn submesh_of(&self, material: usize) -> usize {
        match self.subset.get(material) {
            Some(&s) => s as usize,
            None => self.first + material,
        }
    }
}

impl SkinnedRenderer {
    /// The sub-mesh material `material` draws.
    pub fn submesh_of(&self, material: usize) -> usize {
        self.submeshes.submesh_of(material)
    }
}

impl MeshRendererData {
    /// The sub-mesh material `material` draws.
    pub fn submesh_of(&self, material: usize) -> usize {
        self.submeshes.submesh_of(material)
    }
}

/// Reads a SkinnedMeshRenderer: its GameObject, whether it is enabled, its mesh, bones, root
/// bone, sub-meshes, materials, blend shape weights and bounds.
pub fn read_skinned(
    file: &SerializedFile,
    info: &ObjectInfo,
) -> Result<SkinnedRenderer, MeshError> {
    let r: SkinnedMeshRenderer = file.read(info)?;
    Ok(SkinnedRenderer {
        path_id: info.path_id,
        game_object: r.m_GameObject,
        enabled: r.m_Enabled.flag(),
        mesh: r.m_Mesh,
        bones: r.m_Bones,
        root_bone: r.m_RootBone,
        submeshes: SubMeshRange::new(r.m_StaticBatchInfo, r.m_SubsetIndices),
        materials: r.m_Materials,
        blend_shape_weights: r.m_BlendShapeWeights,
        bounds: Aabb::from_unity(&r.m_AABB),
    })
}

/// A MeshRenderer; `mesh` is left null (see [`read_all`] for the pairing with MeshFilters).
pub fn read_mesh_renderer(
    file: &SerializedFile,
    info: &ObjectInfo,
) -> Result<MeshRendererData, MeshError> {
    let r: MeshRenderer = file.read(info)?;
    Ok(MeshRendererData {
        path_id: info.path_id,
        game_object: r.m_GameObject,
        enabled: r.m_Enabled.flag(),
        mesh: PPtr::default(),
        submeshes: SubMeshRange::new(r.m_StaticBatchInfo, r.m_SubsetIndices),
        materials: r.m_Materials,
    })
}

/// A MeshFilter: (its GameObject, its mesh).
pub fn read_mesh_filter(
    file: &SerializedFile,
    info: &ObjectInfo,
) -> Result<(PPtr, PPtr), MeshError> {
    let f: MeshFilter = file.read(info)?;
    Ok((f.m_GameObject, f.m_Mesh))
}

/// Reads a SpriteRenderer: its GameObject, whether it is enabled, its sprite, colour and flips.
pub fn read_sprite_renderer(
    file: &SerializedFile,
    info: &ObjectInfo,
) -> Result<SpriteRendererData, MeshError> {
    let r: SpriteRenderer = file.read(info)?;
    let c = r.m_Color;
    Ok(SpriteRendererData {
        path_id: info.path_id,
        game_object: r.m_GameObject,
        enabled: r.m_Enabled.flag(),
        sprite: r.m_Sprite,
        color: [c.r, c.g, c.b, c.a],
        flip: [r.m_FlipX.flag(), r.m_FlipY.flag()],
    })
}

/// Reads a Sprite: its name, its texture and the rectangle of it shown, pivot and pixels per
/// unit.
pub fn read_sprite(file: &SerializedFile, info: &ObjectInfo) -> Result<SpriteData, MeshError> {
    let s: Sprite = file.read(info)?;
    let rect = s
        .m_RD
        .textureRect
        .filter(|r| r.width > 0.0)
        .unwrap_or(s.m_Rect);
    Ok(SpriteData {
        name: s.m_Name,
        texture: s.m_RD.texture,
        texture_rect: [rect.x, rect.y, rect.width, rect.height],
        pivot: s.m_Pivot.map_or([0.5, 0.5], |p| [p.x, p.y]),
        pixels_to_units: s.m_PixelsToUnits,
    })
}

/// Every renderer of `file`; MeshRenderers get the mesh of their GameObject's MeshFilter.
/// Objects that fail to read are left out and described in `problems`.
pub fn read_all(file: &SerializedFile, problems: &mut Vec<String>) -> Renderers {
    let mut out = Renderers::default();
    let mut filters: HashMap<i64, PPtr> = HashMap::new();
    for info in &file.objects {
        let result = match info.class_id {
            class::SKINNED_MESH_RENDERER => read_skinned(file, info).map(|r| out.skinned.push(r)),
            class::MESH_RENDERER => read_mesh_renderer(file, info).map(|r| out.meshes.push(r)),
            class::SPRITE_RENDERER => read_sprite_renderer(file, info).map(|r| out.sprites.push(r)),
            class::MESH_FILTER => read_mesh_filter(file, info).map(|(go, mesh)| {
                filters.insert(go.path_id(), mesh);
            }),
            _ => Ok(()),
        };
        if let Err(e) = result {
            problems.push(format!(
                "{} {}: {e}",
                crate::unity::class_name(info.class_id),
                info.path_id
            ));
        }
    }
    for r in &mut out.meshes {
        if let Some(mesh) = filters.get(&r.game_object.path_id()) {
            r.mesh = *mesh;
        }
    }
    out
}

/// The world matrix of a Transform: its local TRS times its fathers' up to the root (a
/// missing father ends the chain; cycles and chains deeper than 256 are cut off).
pub fn world_matrix(hierarchy: &Hierarchy, transform: i64) -> Mat4 {
    let mut m = matrix::IDENTITY;
    let mut id = transform;
    for _ in 0..256 {
        let Some(t) = hierarchy.transforms.get(&id) else {
            break;
        };
        let local = matrix::from_trs(
            t.m_LocalPosition.to_array(),
            t.m_LocalRotation.to_array(),
            t.m_LocalScale.to_array(),
        );
        m = matrix::mul(&local, &m);
        if t.m_Father.is_null() || t.m_Father.file_id() != 0 {
            break;
        }
        id = t.m_Father.path_id();
    }
    m
}

/// The world matrices of a skinned renderer's bones in this file, in bind-pose order; a bone
/// that is null or in another file gets the identity.
pub fn bone_world_matrices(hierarchy: &Hierarchy, renderer: &SkinnedRenderer) -> Vec<Mat4> {
    renderer
        .bones
        .iter()
        .map(|b| {
            if b.is_null() || b.file_id() != 0 {
                matrix::IDENTITY
            } else {
                world_matrix(hierarchy, b.path_id())
            }
        })
        .collect()
}
