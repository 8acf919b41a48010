//! clipscope's Bevy plugin: Unity files as assets, clips as Bevy `AnimationClip`s that follow
//! Unity's rules, rigs matched by path hash, and a playhead with Unity's wrap modes and events.
//!
//! Add [`ClipscopePlugin`] next to Bevy's `AnimationPlugin`. The short way (feature `model`):
//! spawn a `UnityModelRoot` with a model's handle (`"file#Model/NAME"`) and a
//! `UnityClipPlayer` with a clip's (`"file#Clip"`); the model spawns once loaded and the clip
//! starts once both are ready. The long way, with control over each step: load a Unity file
//! as a [`UnityFile`], spawn a rig with [`spawn_rig`] (or a model with `spawn_model`) and
//! attach a [`UnityPlayback`] with [`play_clip`] (through Bevy's `AnimationPlayer` and an
//! animation graph, so clips blend) or [`play_clip_direct`] (the joints sample their tracks
//! themselves: one clip per rig, for many rigs at once). An AnimatorController
//! (`"file#Controller/NAME"`, a [`UnityController`]) drives a rig through a [`UnityAnimator`]
//! on its root: parameters in, the blended pose of its layers out.

mod animator;
mod asset;
mod clip;
pub mod curves;
mod direct;
mod humanoid;
pub mod index;
#[cfg(feature = "model")]
pub mod model;
mod playback;
mod properties;
mod rig;
mod root_motion;
#[cfg(feature = "scene")]
pub mod scene;

use std::sync::Arc;

use bevy::animation::graph::{AnimationGraph, AnimationGraphHandle};
use bevy::app::AnimationSystems;
use bevy::prelude::*;
use bevy::transform::TransformSystems;

pub use animator::{
    UnityAnimator, UnityController, drive_animators, pose_animated_rigs, start_animators,
};
pub use asset::{LoadedClip, UnityFile, UnityFileLoader, UnityLoadError, build_file};
pub use clip::{TrackCurve, target_id};
pub use direct::{
    BoundTracks, DirectClip, animate_bound_tracks, apply_tracks, bevy_clip, bind_direct_clips,
};
pub use humanoid::{
    HumanoidCurves, HumanoidJoint, HumanoidState, UnityHumanoid, bind_humanoids,
    humanoid_posed_positions, joint_to_bevy, pose_humanoids, spawn_unity_rig,
};
pub use index::UnityClipIndex;
#[cfg(feature = "model")]
pub use model::{
    ClipObjects, ClipRoute, ModelAssets, UnityClipPlayer, UnityModel, UnityModelInstance,
    UnityModelReady, UnityModelRoot, UnityPlayerWarning, spawn_model,
};
pub use playback::{UnityClipEvent, UnityPlayback, drive_playback};
pub use properties::{
    FloatProperty, IS_ACTIVE, PropertyLabel, UnityProperties, label_of, property_key,
};
pub use rig::{
    RigJoint, RigRoot, RigSkeleton, UnityRig, Unmatched, rest_transform, spawn_rig,
    unmatched_bindings, world_positions,
};
pub use root_motion::{apply_root_motion, root_delta_to_bevy};

/// Registers the Unity file asset and loader, the playhead system, the clip events,
/// humanoid posing, and the animators with their root motion; with the `scene` feature,
/// also the systems that show `m_IsActive` and blend shapes in Bevy's `Visibility` and
/// `MorphWeights`.
pub struct ClipscopePlugin;

impl Plugin for ClipscopePlugin {
    fn build(&self, app: &mut App) {
        let index = UnityClipIndex::default();
        app.init_asset::<UnityFile>()
            .init_asset::<UnityRig>()
            .init_asset::<UnityController>()
            .insert_resource(index.clone())
            .register_asset_loader(UnityFileLoader { index })
            .register_type::<UnityProperties>()
            .register_type::<RigJoint>()
            .add_message::<UnityClipEvent>()
            .add_systems(
                PostUpdate,
                (
                    index::forget_removed_clips,
                    (bind_direct_clips, bind_humanoids, drive_playback).before(AnimationSystems),
                    animate_bound_tracks.in_set(AnimationSystems),
                    pose_humanoids
                        .after(AnimationSystems)
                        .before(TransformSystems::Propagate),
                    (start_animators, drive_animators, apply_root_motion)
                        .chain()
                        .before(AnimationSystems),
                    pose_animated_rigs
                        .after(pose_humanoids)
                        .before(TransformSystems::Propagate),
                ),
            );
        #[cfg(feature = "scene")]
        app.add_systems(
            PostUpdate,
            (scene::apply_active, scene::apply_blend_shapes)
                .after(AnimationSystems)
                .before(bevy::camera::visibility::VisibilitySystems::VisibilityPropagate),
        );
        #[cfg(feature = "model")]
        model::register(app);
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
    let playback = UnityPlayback::new(&clip.data, Some(node));
    commands
        .entity(root)
        .remove::<DirectClip>()
        .insert((AnimationGraphHandle(graphs.add(graph)), playback.clone()));
    set_humanoid_curves(commands, root, clip);
    label_properties(commands, root, clip.data.clone());
    playback
}

/// Makes `root` (a rig root from [`spawn_rig`]) play `clip` directly: its joints sample their
/// own tracks, with no animation graph (no blending with other clips, several times cheaper
/// per joint). Inserts a [`DirectClip`] and a [`UnityPlayback`].
pub fn play_clip_direct(commands: &mut Commands, root: Entity, clip: &LoadedClip) -> UnityPlayback {
    let playback = UnityPlayback::new(&clip.data, None);
    commands
        .entity(root)
        .insert((clip.direct.clone(), playback.clone()));
    set_humanoid_curves(commands, root, clip);
    label_properties(commands, root, clip.data.clone());
    playback
}

/// Gives `root` the clip's [`HumanoidCurves`] (a humanoid clip: a rig with a
/// [`UnityHumanoid`] then poses it), or takes them away (a generic clip).
fn set_humanoid_curves(commands: &mut Commands, root: Entity, clip: &LoadedClip) {
    let humanoid = &clip.direct.humanoid;
    if humanoid.is_humanoid() {
        commands.entity(root).insert(humanoid.clone());
    } else {
        commands.entity(root).remove::<HumanoidCurves>();
    }
}

/// Starts the joints' [`UnityProperties`] afresh for `clip`: the old values go, and each
/// float, object or muscle binding of a joint gets its label, so a UI can say what each value
/// drives.
fn label_properties(
    commands: &mut Commands,
    root: Entity,
    clip: Arc<clipscope_core::clip::ClipData>,
) {
    commands.queue(move |world: &mut World| {
        let Some(joints) = world.get::<RigRoot>(root).map(|r| r.joints.clone()) else {
            return;
        };
        for joint in joints {
            let Some(hash) = world.get::<RigJoint>(joint).map(|j| j.path_hash) else {
                continue;
            };
            let Some(mut properties) = world.get_mut::<UnityProperties>(joint) else {
                continue;
            };
            properties.values.clear();
            properties.labels = clip
                .bindings
                .iter()
                .filter(|b| b.path == hash && !b.is_transform())
                .map(|b| (property_key(b.type_id, b.attribute), label_of(b)))
                .collect();
        }
    });
}
