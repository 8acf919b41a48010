//! The character, not only its bones (feature `model`): a rig's skinned and rigid meshes,
//! materials, textures, blend shapes and sprites as Bevy entities.
//!
//! A [`UnityModel`] is a rig with everything it draws, in plain data (decoded meshes, images,
//! materials); loaded Unity files carry one per rig with renderers, and
//! [`UnityModel::from_workspace`] makes one from an opened workspace. [`spawn_model`] builds
//! its Bevy assets ([`ModelAssets::build`]) and spawns the rig with, per renderer, one entity
//! per sub-mesh: Unity's left-handed data mirrored into Bevy's space (`mesh.md` §3.4),
//! skinned to the rig's joints in bind-pose order, blend shapes as morph targets named after
//! their channels (so blend shape curves drive them), sprites as quads that sprite curves
//! swap.

mod bounds;
mod build;
mod data;
mod material;
pub mod mesh;
mod spawn;
mod systems;

use std::collections::BTreeMap;

use bevy::asset::LoadContext;
use bevy::prelude::*;

pub use bounds::{model_points, model_points_over, posed_joints};
pub use build::{
    BuiltModel, BuiltPart, BuiltRenderer, BuiltSkin, ModelAssets, MorphFrames, SpriteFrame,
};
pub use data::{
    ClipObjects, ModelMaterial, ModelPart, ModelRenderer, ModelSprite, ModelTexture, UnityModel,
    clip_objects,
};
pub use material::{bevy_image, bevy_material, sprite_quad};
pub use spawn::{
    InactiveObject, ModelMesh, SpriteSwap, spawn_built_model, spawn_model, spawn_renderers,
};
pub use systems::{apply_blend_shape_frames, sprite_keys, swap_sprites};

use crate::workspace::{ObjectRef, RigEntry, Workspace};

/// Registers the model asset and the systems that show blend shapes and sprite swaps.
pub(super) fn register(app: &mut App) {
    app.init_asset::<UnityModel>().add_systems(
        PostUpdate,
        (
            apply_blend_shape_frames.after(super::scene::apply_blend_shapes),
            swap_sprites,
        )
            .after(bevy::app::AnimationSystems)
            .before(bevy::camera::visibility::VisibilitySystems::VisibilityPropagate),
    );
}

/// Adds the model of `rig` (labelled `Model/…` after the rig's label) to a loading file,
/// when the rig has renderers. `clips` labels the file's clips.
pub(super) fn add_model(
    ws: &Workspace,
    rig: &RigEntry,
    rig_label: &str,
    clips: &BTreeMap<ObjectRef, String>,
    cx: &mut LoadContext<'_>,
) -> Option<(String, Handle<UnityModel>)> {
    if rig.renderers.is_empty() {
        return None;
    }
    let model = UnityModel::from_workspace(ws, rig, |at| clips.get(&at).cloned());
    let label = format!("Model/{}", rig_label.trim_start_matches("Rig/"));
    Some((rig_label.to_string(), cx.add_labeled_asset(label, model)))
}
