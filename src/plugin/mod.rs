//! clipscope's Bevy plugin: Unity files as assets, clips as Bevy `AnimationClip`s that follow
//! Unity's rules, rigs matched by path hash, and a playhead with Unity's wrap modes and events.
//!
//! Add [`ClipscopePlugin`] next to Bevy's `AnimationPlugin`, load a Unity file as a
//! [`UnityFile`], spawn a rig with [`spawn_rig`] and attach a [`UnityPlayback`] with
//! [`play_clip`].

mod asset;
mod clip;
pub mod curves;
mod playback;
mod properties;
mod rig;
#[cfg(feature = "scene")]
pub mod scene;

use bevy::animation::graph::{AnimationGraph, AnimationGraphHandle};
use bevy::app::AnimationSystems;
use bevy::prelude::*;

pub use asset::{LoadedClip, UnityFile, UnityFileLoader, UnityLoadError, UnityRig, build_file};
pub use clip::{bevy_clip, target_id};
pub use playback::{UnityClipEvent, UnityPlayback, drive_playback};
pub use properties::{
    FloatProperty, IS_ACTIVE, PropertyLabel, UnityProperties, label_of, property_key,
};
pub use rig::{RigJoint, RigRoot, Unmatched, rest_transform, spawn_rig, unmatched_bindings};

/// Registers the Unity file asset and loader, the playhead system and the clip events; with
/// the `scene` feature, also the systems that show `m_IsActive` and blend shapes in Bevy's
/// `Visibility` and `MorphWeights`.
pub struct ClipscopePlugin;

impl Plugin for ClipscopePlugin {
    fn build(&self, app: &mut App) {
        app.init_asset::<UnityFile>()
            .init_asset::<UnityRig>()
            .register_asset_loader(UnityFileLoader)
            .register_type::<UnityProperties>()
            .register_type::<RigJoint>()
            .add_message::<UnityClipEvent>()
            .add_systems(PostUpdate, drive_playback.before(AnimationSystems));
        #[cfg(feature = "scene")]
        app.add_systems(
            PostUpdate,
            (scene::apply_active, scene::apply_blend_shapes)
                .after(AnimationSystems)
                .before(bevy::camera::visibility::VisibilitySystems::VisibilityPropagate),
        );
    }
}

/// Makes `root` (a rig root from [`spawn_rig`]) play `clip` with Unity's rules: builds a
/// one-clip animation graph and inserts the graph handle and a [`UnityPlayback`].
pub fn play_clip(
    commands: &mut Commands,
    graphs: &mut Assets<AnimationGraph>,
    root: Entity,
    clip: &LoadedClip,
) -> UnityPlayback {
    let (graph, node) = AnimationGraph::from_clip(clip.handle.clone());
    let playback = UnityPlayback::new(&clip.data, node);
    commands
        .entity(root)
        .insert((AnimationGraphHandle(graphs.add(graph)), playback.clone()));
    playback
}
