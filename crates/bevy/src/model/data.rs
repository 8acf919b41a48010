//! What a rig draws, gathered from a workspace into plain data: each renderer with its
//! decoded mesh, the sub-meshes its material slots draw, the materials with their decoded
//! images, and the sprites the renderers show or the clips swap in. Nothing here touches
//! Bevy's render assets; [`super::ModelAssets`] turns it into meshes, materials and images.

use std::collections::BTreeMap;
use std::sync::Arc;

use bevy::prelude::*;

use clipscope_core::humanoid::HumanoidRig;
use clipscope_core::mesh::MeshData;
use clipscope_core::mesh::renderer::SpriteData;
use clipscope_core::rig::Skeleton;
use clipscope_core::texture::RgbaImage;
use clipscope_core::unity::{Int, PPtr};
use clipscope_core::workspace::{
    MeshSource, ObjectRef, RendererEntry, RendererKind, RigEntry, Workspace,
};

/// A rig with everything it draws: what [`super::spawn_model`] spawns. Loaded Unity files
/// carry one per rig with renderers ([`super::super::UnityFile::models`]).
#[derive(Asset, TypePath, Clone, Debug)]
pub struct UnityModel {
    pub name: String,
    pub skeleton: Skeleton,
    /// The rig's humanoid Avatar, where it has one: humanoid clips then pose the model.
    pub humanoid: Option<Arc<HumanoidRig>>,
    pub renderers: Vec<ModelRenderer>,
    /// The sprites the renderers show and the clips swap in.
    pub sprites: Vec<ModelSprite>,
    /// Per clip label (as in [`super::super::UnityFile::clips`]), the objects its PPtr
    /// curves switch between; only clips that have PPtr curves.
    pub clip_objects: BTreeMap<String, ClipObjects>,
    /// What could not be drawn, and why (missing meshes, undecodable textures).
    pub warnings: Vec<String>,
}

/// The objects a clip's PPtr curves index (its `m_PPtrCurveMapping`), resolved; `None` for
/// objects that are not loaded. Inserted on a rig root next to the clip's playback, it lets
/// sprite curves swap the sprite shown.
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct ClipObjects(pub Vec<Option<ObjectRef>>);

/// One renderer on a joint.
#[derive(Clone, Debug)]
pub struct ModelRenderer {
    /// The renderer component.
    pub at: ObjectRef,
    /// The joint whose GameObject holds it.
    pub joint: usize,
    pub enabled: bool,
    /// The joints (its own and its ancestors') whose GameObject is inactive in the file:
    /// spawned hidden, so that nothing under them draws until a clip's `m_IsActive` shows
    /// them.
    pub inactive_joints: Vec<usize>,
    pub kind: RendererKind,
    /// The decoded (or generated built-in) mesh; `None` for sprites and missing meshes.
    pub mesh: Option<Arc<MeshData>>,
    /// What is drawn: one part per sub-mesh, with the material of its slot.
    pub parts: Vec<ModelPart>,
}

/// A sub-mesh and the material that draws it.
#[derive(Clone, Debug)]
pub struct ModelPart {
    pub submesh: usize,
    /// `None` when the slot's material is not loaded: drawn plain.
    pub material: Option<Arc<ModelMaterial>>,
}

/// A material reduced to a base colour and texture.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelMaterial {
    pub at: ObjectRef,
    pub name: String,
    /// Gamma-space RGBA: the material's colour, white under a texture that has none, and a
    /// neutral grey for materials with neither (custom shaders).
    pub color: [f32; 4],
    pub texture: Option<ModelTexture>,
}

/// A material's main texture.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelTexture {
    pub at: ObjectRef,
    /// Mip 0, top row first; `None` when the texture did not decode (drawn plain).
    pub image: Option<Arc<RgbaImage>>,
    /// Unity UV' = UV × `scale` + `offset`.
    pub scale: [f32; 2],
    pub offset: [f32; 2],
}

/// A sprite and the image it cuts from.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelSprite {
    pub at: ObjectRef,
    pub data: SpriteData,
    /// The texture's reference, where it resolves (shared by sprites of one sheet).
    pub texture: Option<ObjectRef>,
    /// `None` when the texture is missing or did not decode: a plain quad.
    pub image: Option<Arc<RgbaImage>>,
}

/// Neutral grey for materials without colour or texture (`mesh.md` §4.1).
pub const PLAIN_GREY: [f32; 4] = [0.7, 0.7, 0.7, 1.0];

impl UnityModel {
    /// The model of `rig`, a rig of `ws`, with the PPtr targets of every clip in `ws`
    /// (labelled by `label`, e.g. the clip's name).
    pub fn from_workspace(
        ws: &Workspace,
        rig: &RigEntry,
        mut label: impl FnMut(ObjectRef) -> Option<String>,
    ) -> UnityModel {
        let mut model = UnityModel {
            name: rig.name.clone(),
            skeleton: Skeleton::clone(&rig.skeleton),
            humanoid: rig.humanoid.clone(),
            renderers: Vec::new(),
            sprites: Vec::new(),
            clip_objects: BTreeMap::new(),
            warnings: Vec::new(),
        };
        let mut builtins: BTreeMap<i64, Option<Arc<MeshData>>> = BTreeMap::new();
        for r in &rig.renderers {
            let renderer = model_renderer(ws, r, &mut builtins, &mut model.warnings);
            if let RendererKind::Sprite {
                sprite: Some(at), ..
            } = &renderer.kind
            {
                model.add_sprite(ws, *at);
            }
            model.renderers.push(renderer);
        }
        for clip in &ws.clips {
            let Ok(data) = &clip.data else { continue };
            if data.pptr_mapping.is_empty() {
                continue;
            }
            let objects = clip_objects(ws, clip.at, &data.pptr_mapping);
            for at in objects.0.iter().flatten() {
                if ws.sprite(*at).is_some() {
                    model.add_sprite(ws, *at);
                }
            }
            if let Some(label) = label(clip.at) {
                model.clip_objects.insert(label, objects);
            }
        }
        model
    }

    fn add_sprite(&mut self, ws: &Workspace, at: ObjectRef) {
        if self.sprites.iter().any(|s| s.at == at) {
            return;
        }
        let Some(sprite) = ws.sprite(at) else { return };
        let texture = ws.resolve(at.file, sprite.data.texture);
        let image = ws.sprite_texture(sprite).and_then(|t| t.image.clone());
        let warned = self
            .sprites
            .iter()
            .any(|s| s.texture == texture && s.image.is_none());
        if image.is_none() && !warned {
            self.warnings.push(format!(
                "sprite {} (and others of its sheet): the texture is not loaded or did not \
                 decode; drawn plain",
                sprite.data.name
            ));
        }
        self.sprites.push(ModelSprite {
            at,
            data: sprite.data.clone(),
            texture,
            image,
        });
    }

    /// The sprite at a reference.
    pub fn sprite(&self, at: ObjectRef) -> Option<&ModelSprite> {
        self.sprites.iter().find(|s| s.at == at)
    }
}

/// A clip's PPtr mapping (`(file id, path id)` relative to the clip's file `at.file`)
/// resolved in `ws`.
pub fn clip_objects(ws: &Workspace, at: ObjectRef, mapping: &[(i32, i64)]) -> ClipObjects {
    ClipObjects(
        mapping
            .iter()
            .map(|&(file_id, path_id)| {
                let pptr = PPtr {
                    m_FileID: Int(file_id.into()),
                    m_PathID: Int(path_id),
                };
                ws.resolve(at.file, pptr)
            })
            .collect(),
    )
}

fn model_renderer(
    ws: &Workspace,
    r: &RendererEntry,
    builtins: &mut BTreeMap<i64, Option<Arc<MeshData>>>,
    warnings: &mut Vec<String>,
) -> ModelRenderer {
    let mesh = match &r.mesh {
        MeshSource::None => None,
        MeshSource::Loaded(at) => {
            let data = ws.mesh(*at).and_then(|m| m.data.clone());
            if data.is_none() {
                warnings.push(format!(
                    "renderer {}: its mesh did not decode",
                    r.at.path_id
                ));
            }
            data
        }
        MeshSource::Builtin(id) => builtins
            .entry(*id)
            .or_insert_with(|| clipscope_core::mesh::builtin(*id).map(Arc::new))
            .clone(),
        MeshSource::Missing(why) => {
            warnings.push(format!("renderer {}: {why}", r.at.path_id));
            None
        }
    };
    let parts = mesh
        .as_deref()
        .map(|m| parts(ws, r, m.submeshes.len()))
        .unwrap_or_default();
    ModelRenderer {
        at: r.at,
        joint: r.joint,
        enabled: r.enabled,
        inactive_joints: r.inactive_joints.clone(),
        kind: r.kind.clone(),
        mesh,
        parts,
    }
}

/// The sub-meshes a renderer draws: material slot `i` draws `submesh_of(i)` (each sub-mesh
/// once; Unity's extra slots redraw the last sub-mesh, which a preview skips). A renderer
/// with no material slots draws every sub-mesh plain.
fn parts(ws: &Workspace, r: &RendererEntry, submeshes: usize) -> Vec<ModelPart> {
    if r.materials.is_empty() {
        return (0..submeshes)
            .map(|submesh| ModelPart {
                submesh,
                material: None,
            })
            .collect();
    }
    let mut out: Vec<ModelPart> = Vec::new();
    for (slot, material) in r.materials.iter().enumerate() {
        let submesh = r.submeshes.submesh_of(slot);
        if submesh >= submeshes || out.iter().any(|p| p.submesh == submesh) {
            continue;
        }
        let material = material
            .and_then(|at| ws.material(at))
            .map(|m| Arc::new(model_material(ws, m)));
        out.push(ModelPart { submesh, material });
    }
    out
}

fn model_material(ws: &Workspace, m: &clipscope_core::workspace::MaterialEntry) -> ModelMaterial {
    let texture = m.data.main_texture.as_ref().and_then(|slot| {
        let at = ws.resolve(m.at.file, slot.texture)?;
        Some(ModelTexture {
            at,
            image: ws.texture(at).and_then(|t| t.image.clone()),
            scale: slot.scale,
            offset: slot.offset,
        })
    });
    let color = match (m.data.color, &texture) {
        (Some(c), _) => c,
        (None, Some(_)) => [1.0; 4],
        (None, None) => PLAIN_GREY,
    };
    ModelMaterial {
        at: m.at,
        name: m.data.name.clone(),
        color,
        texture,
    }
}
