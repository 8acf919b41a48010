//! A [`UnityModel`]'s Bevy assets: meshes per sub-mesh, inverse bind poses, materials and
//! images, built once (shared meshes, materials and textures are built once) and spawned as
//! often as needed.

use std::collections::HashMap;
use std::sync::Arc;

use bevy::ecs::system::SystemParam;
use bevy::mesh::skinning::SkinnedMeshInverseBindposes;
use bevy::prelude::*;

use super::data::{ModelRenderer, ModelSprite, UnityModel};
use super::material::{bevy_image, bevy_material, plain_material, sprite_material, sprite_quad};
use super::mesh::{MorphLayout, bevy_mesh, matrix_to_bevy};
use clipscope_core::humanoid::HumanoidRig;
use clipscope_core::mesh::MeshData;
use clipscope_core::rig::Skeleton;
use clipscope_core::texture::RgbaImage;
use clipscope_core::workspace::{ObjectRef, RendererKind};

/// The asset collections a model is built into.
#[derive(SystemParam)]
pub struct ModelAssets<'w> {
    pub meshes: ResMut<'w, Assets<Mesh>>,
    pub materials: ResMut<'w, Assets<StandardMaterial>>,
    pub images: ResMut<'w, Assets<Image>>,
    pub inverse_bindposes: ResMut<'w, Assets<SkinnedMeshInverseBindposes>>,
}

/// A model with its Bevy assets: what [`super::spawn_built_model`] spawns.
#[derive(Clone, Debug)]
pub struct BuiltModel {
    pub skeleton: Skeleton,
    /// The rig's humanoid Avatar, where it has one.
    pub humanoid: Option<Arc<HumanoidRig>>,
    pub renderers: Vec<BuiltRenderer>,
}

/// One renderer's assets.
#[derive(Clone, Debug)]
pub struct BuiltRenderer {
    /// The joint whose GameObject holds the renderer.
    pub joint: usize,
    pub enabled: bool,
    /// The inactive joints on its chain to the root ([`super::ModelRenderer`]).
    pub inactive_joints: Vec<usize>,
    /// One per drawn sub-mesh (a sprite renderer: its current sprite's quad).
    pub parts: Vec<BuiltPart>,
    pub skin: Option<BuiltSkin>,
    /// Blend shapes as morph targets: the component the renderer's joint gets.
    pub morphs: Option<MorphFrames>,
    /// Every sprite the renderer may show, for sprite curves.
    pub sprites: Option<Arc<[SpriteFrame]>>,
}

/// A sub-mesh and its material.
#[derive(Clone, Debug)]
pub struct BuiltPart {
    pub submesh: usize,
    /// The mesh has per-joint bounds (`Mesh::skinned_mesh_bounds`).
    pub joint_bounds: bool,
    pub mesh: Handle<Mesh>,
    pub material: Handle<StandardMaterial>,
}

/// A skinned renderer's skin: bone `i` (bind pose `i`) is joint `bones[i]` of the rig.
#[derive(Clone, Debug)]
pub struct BuiltSkin {
    pub bones: Vec<Option<usize>>,
    pub inverse_bindposes: Handle<SkinnedMeshInverseBindposes>,
}

/// On a skinned renderer's joint: its mesh's blend shapes as morph targets. The channel
/// weights (from blend shape curves, else the renderer's stored weights) set the targets'
/// weights through each channel's frame blending.
#[derive(Component, Clone, Debug)]
pub struct MorphFrames {
    pub mesh: Arc<MeshData>,
    pub layout: Arc<MorphLayout>,
    /// The renderer's stored weights (0–100) per channel.
    pub rest: Vec<f32>,
}

/// A sprite a sprite renderer can show.
#[derive(Clone, Debug)]
pub struct SpriteFrame {
    pub sprite: ObjectRef,
    pub mesh: Handle<Mesh>,
    pub material: Handle<StandardMaterial>,
}

impl ModelAssets<'_> {
    /// Builds `model`'s assets.
    pub fn build(&mut self, model: &UnityModel) -> BuiltModel {
        let mut builder = Builder {
            assets: self,
            model,
            meshes: HashMap::new(),
            images: HashMap::new(),
            materials: HashMap::new(),
            plain: None,
        };
        let renderers = model
            .renderers
            .iter()
            .map(|r| builder.renderer(r))
            .collect();
        BuiltModel {
            skeleton: model.skeleton.clone(),
            humanoid: model.humanoid.clone(),
            renderers,
        }
    }
}

/// Key of a built mesh: the decoded mesh, the sub-mesh, and whether it is skinned.
type MeshKey = (*const MeshData, usize, bool);

struct Builder<'a, 'w> {
    assets: &'a mut ModelAssets<'w>,
    model: &'a UnityModel,
    /// Built meshes and whether they have per-joint bounds.
    meshes: HashMap<MeshKey, Option<(Handle<Mesh>, bool)>>,
    images: HashMap<ObjectRef, Option<Handle<Image>>>,
    materials: HashMap<ObjectRef, Handle<StandardMaterial>>,
    plain: Option<Handle<StandardMaterial>>,
}

impl Builder<'_, '_> {
    fn renderer(&mut self, r: &ModelRenderer) -> BuiltRenderer {
        let mut out = BuiltRenderer {
            joint: r.joint,
            enabled: r.enabled,
            inactive_joints: r.inactive_joints.clone(),
            parts: Vec::new(),
            skin: None,
            morphs: None,
            sprites: None,
        };
        match (&r.kind, &r.mesh) {
            (
                RendererKind::Sprite {
                    sprite,
                    color,
                    flip,
                },
                _,
            ) => {
                let frames: Arc<[SpriteFrame]> = self
                    .model
                    .sprites
                    .iter()
                    .map(|s| self.sprite_frame(s, *color, *flip))
                    .collect();
                if let Some(f) = frames.iter().find(|f| Some(f.sprite) == *sprite) {
                    out.parts.push(BuiltPart {
                        submesh: 0,
                        joint_bounds: false,
                        mesh: f.mesh.clone(),
                        material: f.material.clone(),
                    });
                }
                out.sprites = Some(frames);
            }
            (
                RendererKind::Skinned {
                    bones,
                    blend_shape_weights,
                    ..
                },
                Some(mesh),
            ) => {
                let skinned = mesh.is_skinned() && !mesh.bind_poses.is_empty();
                let vertices = (0..mesh.submeshes.len())
                    .map(|s| sub_vertices(mesh, s))
                    .max()
                    .unwrap_or(0);
                let layout = Arc::new(MorphLayout::of(mesh, vertices));
                let morphs = (!layout.targets.is_empty()).then_some(&*layout);
                out.parts = self.parts(r, mesh, skinned, morphs);
                if skinned {
                    let inverse: Vec<Mat4> = mesh.bind_poses.iter().map(matrix_to_bevy).collect();
                    out.skin = Some(BuiltSkin {
                        bones: (0..mesh.bind_poses.len())
                            .map(|i| bones.get(i).copied().flatten())
                            .collect(),
                        inverse_bindposes: self.assets.inverse_bindposes.add(inverse),
                    });
                }
                if morphs.is_some() && !out.parts.is_empty() {
                    out.morphs = Some(MorphFrames {
                        mesh: mesh.clone(),
                        layout,
                        rest: blend_shape_weights.clone(),
                    });
                }
            }
            (_, Some(mesh)) => out.parts = self.parts(r, mesh, false, None),
            (_, None) => {}
        }
        out
    }

    fn parts(
        &mut self,
        r: &ModelRenderer,
        mesh: &Arc<MeshData>,
        skinned: bool,
        morphs: Option<&MorphLayout>,
    ) -> Vec<BuiltPart> {
        let mut out = Vec::new();
        for part in &r.parts {
            let key = (Arc::as_ptr(mesh), part.submesh, skinned);
            let handle = match self.meshes.get(&key) {
                Some(h) => h.clone(),
                None => {
                    let built = bevy_mesh(mesh, part.submesh, skinned, morphs).map(|m| {
                        let bounds = m.skinned_mesh_bounds().is_some();
                        (self.assets.meshes.add(m), bounds)
                    });
                    self.meshes.insert(key, built.clone());
                    built
                }
            };
            let Some((handle, joint_bounds)) = handle else {
                continue;
            };
            let material = match &part.material {
                Some(m) => self.material(m),
                None => self.plain(),
            };
            out.push(BuiltPart {
                submesh: part.submesh,
                joint_bounds,
                mesh: handle,
                material,
            });
        }
        out
    }

    fn material(&mut self, m: &super::data::ModelMaterial) -> Handle<StandardMaterial> {
        if let Some(h) = self.materials.get(&m.at) {
            return h.clone();
        }
        let image = m
            .texture
            .as_ref()
            .and_then(|t| self.image(t.at, t.image.as_deref()));
        let handle = self.assets.materials.add(bevy_material(m, image));
        self.materials.insert(m.at, handle.clone());
        handle
    }

    fn plain(&mut self) -> Handle<StandardMaterial> {
        if let Some(h) = &self.plain {
            return h.clone();
        }
        let h = self.assets.materials.add(plain_material());
        self.plain = Some(h.clone());
        h
    }

    fn image(&mut self, at: ObjectRef, image: Option<&RgbaImage>) -> Option<Handle<Image>> {
        if let Some(h) = self.images.get(&at) {
            return h.clone();
        }
        let handle = image
            .and_then(bevy_image)
            .map(|i| self.assets.images.add(i));
        self.images.insert(at, handle.clone());
        handle
    }

    fn sprite_frame(&mut self, s: &ModelSprite, tint: [f32; 4], flip: [bool; 2]) -> SpriteFrame {
        let image = s.texture.and_then(|at| self.image(at, s.image.as_deref()));
        SpriteFrame {
            sprite: s.at,
            mesh: self.assets.meshes.add(sprite_quad(s, flip)),
            material: self.assets.materials.add(sprite_material(tint, image)),
        }
    }
}

/// Vertices a sub-mesh's Bevy mesh has (its index range).
fn sub_vertices(mesh: &MeshData, submesh: usize) -> usize {
    let Some(indices) = mesh.submeshes.get(submesh).map(|s| &s.indices) else {
        return 0;
    };
    match (indices.iter().min(), indices.iter().max()) {
        (Some(&lo), Some(&hi)) => (hi - lo) as usize + 1,
        _ => 0,
    }
}
