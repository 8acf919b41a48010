//! Spawning a model: the rig's joints (as [`spawn_rig`] does) and, per renderer, one entity
//! per drawn sub-mesh under the renderer's joint, skinned to the rig's joints, with morph
//! targets driven from the joint's blend shape weights; sprites as swappable quads.

use bevy::camera::visibility::{DynamicSkinnedMeshBounds, NoFrustumCulling};
use bevy::mesh::morph::{MeshMorphWeights, MorphWeights};
use bevy::mesh::skinning::SkinnedMesh;
use bevy::prelude::*;

use super::build::{BuiltModel, BuiltRenderer, ModelAssets, SpriteFrame};
use super::data::UnityModel;
use crate::{RigRoot, UnityHumanoid, spawn_rig};

/// On every entity [`spawn_model`] draws with: which renderer and sub-mesh it is.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct ModelMesh {
    /// The rig root.
    pub root: Entity,
    /// Index in the model's renderers.
    pub renderer: usize,
    pub submesh: usize,
    /// The renderer is enabled in the file (a disabled one is spawned hidden).
    pub enabled: bool,
}

/// On a joint whose GameObject is inactive in the file: spawned with [`Visibility::Hidden`]
/// (Unity does not draw it or anything under it), which a clip's `m_IsActive` curve or a
/// viewer's "show inactive objects" can turn back to [`Visibility::Inherited`].
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InactiveObject;

/// On a sprite renderer's quad: the sprites it can show, swapped by its joint's sprite curve
/// through the rig root's [`super::ClipObjects`].
#[derive(Component, Clone, Debug)]
pub struct SpriteSwap {
    pub root: Entity,
    pub joint: Entity,
    pub frames: std::sync::Arc<[SpriteFrame]>,
}

/// Spawns `model`: its rig (see [`spawn_rig`]) with every renderer's meshes, skins, morph
/// targets, materials and sprites, building their assets into `assets`. Returns the rig root,
/// ready for [`crate::play_clip`]. To spawn a model many times, build it once with
/// [`ModelAssets::build`] and use [`spawn_built_model`].
pub fn spawn_model(
    commands: &mut Commands,
    assets: &mut ModelAssets,
    model: &UnityModel,
) -> Entity {
    spawn_built_model(commands, &assets.build(model))
}

/// Spawns a built model: its rig (with its [`UnityHumanoid`] where the rig is humanoid, so
/// humanoid clips pose it) and renderers. Returns the rig root.
pub fn spawn_built_model(commands: &mut Commands, model: &BuiltModel) -> Entity {
    let root = spawn_rig(commands, &model.skeleton);
    if let Some(humanoid) = &model.humanoid {
        commands
            .entity(root)
            .insert(UnityHumanoid::new(humanoid.clone()));
    }
    spawn_renderers(commands, model, root);
    root
}

/// Spawns a built model's renderers onto `root`, a rig spawned from the same skeleton (its
/// [`RigRoot`] names the joints). Runs when the commands apply.
pub fn spawn_renderers(commands: &mut Commands, model: &BuiltModel, root: Entity) {
    let renderers = model.renderers.clone();
    commands.queue(move |world: &mut World| {
        let Some(joints) = world.get::<RigRoot>(root).map(|r| r.joints.clone()) else {
            return;
        };
        for &j in renderers.iter().flat_map(|r| &r.inactive_joints) {
            if let Some(&joint) = joints.get(j) {
                world
                    .entity_mut(joint)
                    .insert((Visibility::Hidden, InactiveObject));
            }
        }
        for (index, r) in renderers.iter().enumerate() {
            if let Some(&joint) = joints.get(r.joint) {
                spawn_renderer(world, r, index, root, joint, &joints);
            }
        }
    });
}

fn spawn_renderer(
    world: &mut World,
    r: &BuiltRenderer,
    index: usize,
    root: Entity,
    joint: Entity,
    joints: &[Entity],
) {
    let visibility = if r.enabled {
        Visibility::Inherited
    } else {
        Visibility::Hidden
    };
    let name = world
        .get::<Name>(joint)
        .map_or_else(String::new, |n| n.to_string());
    if let (Some(morphs), Some(first)) = (&r.morphs, r.parts.first()) {
        let weights = morphs.layout.weights(&morphs.mesh, &morphs.rest);
        if let Ok(w) = MorphWeights::new(weights, Some(first.mesh.clone())) {
            world.entity_mut(joint).insert((w, morphs.clone()));
        }
    }
    // A missing bone is an identity joint (Bevy's rule for joints it cannot find).
    let skin = r.skin.as_ref().map(|s| SkinnedMesh {
        inverse_bindposes: s.inverse_bindposes.clone(),
        joints: s
            .bones
            .iter()
            .map(|b| {
                b.and_then(|j| joints.get(j).copied())
                    .unwrap_or(Entity::PLACEHOLDER)
            })
            .collect(),
    });
    for part in &r.parts {
        let mut entity = world.spawn((
            Name::new(format!("{name} [{}]", part.submesh)),
            Mesh3d(part.mesh.clone()),
            MeshMaterial3d(part.material.clone()),
            Transform::IDENTITY,
            visibility,
            ChildOf(joint),
            ModelMesh {
                root,
                renderer: index,
                submesh: part.submesh,
                enabled: r.enabled,
            },
        ));
        if let Some(skin) = &skin {
            // Skinning ignores the entity's transform, so its automatic box (the bind pose)
            // would cull a moving character wrongly. Per-joint boxes follow the pose; they
            // do not cover morph targets or missing joints, which are not culled at all.
            let follows = part.joint_bounds
                && r.morphs.is_none()
                && !skin.joints.contains(&Entity::PLACEHOLDER);
            entity.insert(skin.clone());
            if follows {
                entity.insert(DynamicSkinnedMeshBounds);
            } else {
                entity.insert(NoFrustumCulling);
            }
        }
        if r.morphs.is_some() {
            entity.insert(MeshMorphWeights::Reference(joint));
        }
        if let Some(frames) = &r.sprites {
            entity.insert(SpriteSwap {
                root,
                joint,
                frames: frames.clone(),
            });
        }
    }
}
