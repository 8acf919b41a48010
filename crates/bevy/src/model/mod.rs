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
mod player;
mod root;
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
pub use player::{ClipPlayerState, ClipRoute, UnityClipPlayer, start_clip_players};
pub use root::{
    ModelRootState, UnityModelInstance, UnityModelReady, UnityModelRoot, UnityPlayerWarning,
    spawn_model_roots,
};
pub use spawn::{
    InactiveObject, ModelMesh, SpriteSwap, spawn_built_model, spawn_model, spawn_renderers,
};
pub use systems::{apply_blend_shape_frames, sprite_keys, swap_sprites};

use clipscope_core::workspace::{ObjectRef, RigEntry, Workspace};

/// Registers the model asset, the systems that spawn [`UnityModelRoot`]s and start
/// [`UnityClipPlayer`]s (before the clips are bound and the playheads advance), and those
/// that show blend shapes and sprite swaps.
pub(super) fn register(app: &mut App) {
    app.init_asset::<UnityModel>()
        .add_message::<UnityPlayerWarning>()
        .add_systems(
            PostUpdate,
            (spawn_model_roots, start_clip_players)
                .chain()
                .before(super::bind_direct_clips)
                .before(super::bind_humanoids)
                .before(super::drive_playback),
        )
        .add_systems(
            PostUpdate,
            (
                apply_blend_shape_frames.after(super::scene::apply_blend_shapes),
                swap_sprites,
            )
                .after(bevy::app::AnimationSystems)
                .before(bevy::camera::visibility::VisibilitySystems::VisibilityPropagate),
        );
}

/// Adds the model of `rig` to a loading file, when the rig has renderers, labelled
/// `Model/NAME` (`Model/NAME@PATHID` where rigs of the file share the name). `clips` labels
/// the file's clips. Returns the rig's label with the model's handle.
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
    Some((
        rig_label.to_string(),
        cx.add_labeled_asset(model_label(ws, rig), model),
    ))
}

/// The sub-asset label of a rig's model: `Model/NAME`, or `Model/NAME@PATHID` where rigs of
/// the workspace share the name.
pub fn model_label(ws: &Workspace, rig: &RigEntry) -> String {
    let repeated = ws.rigs.iter().filter(|r| r.name == rig.name).count() > 1;
    if repeated {
        format!("Model/{}@{}", rig.name, rig.at.path_id)
    } else {
        format!("Model/{}", rig.name)
    }
}
