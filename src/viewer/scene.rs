//! What the viewer shows: the opened files, the selected clip and its rig, spawned as Bevy
//! entities and playing.

use std::collections::BTreeMap;
use std::sync::Arc;

use bevy::animation::graph::AnimationGraph;
use bevy::prelude::*;

use super::ViewerOptions;
use super::camera::OrbitCamera;
use crate::check::pick_rig;
use crate::clip::{BindingKind, ClipData};
use crate::plugin::{
    DirectClip, LoadedClip, RigRoot, UnityPlayback, Unmatched, play_clip, rest_transform,
    spawn_rig, unmatched_bindings,
};
use crate::rig::Skeleton;
use crate::workspace::{ObjectRef, Workspace};

/// The opened files: the main set, and the one the rig comes from when `--rig` was given.
#[derive(Resource, Clone)]
pub struct Library {
    pub main: Arc<Workspace>,
    pub rig: Option<Arc<Workspace>>,
}

/// What the user picked.
#[derive(Resource, Clone, Debug)]
pub struct Selection {
    pub clip: Option<ObjectRef>,
    /// Index of the selected joint in the rig's skeleton.
    pub joint: Option<usize>,
    /// Global curve indices plotted in the curve view.
    pub tracks: Vec<usize>,
    pub filter: String,
    pub labels: bool,
    pub root_motion: bool,
    /// Draw the rig's meshes.
    pub meshes: bool,
    /// Draw the skeleton over them.
    pub skeleton: bool,
    /// Set when the scene must be rebuilt.
    pub dirty: bool,
}

impl Default for Selection {
    fn default() -> Self {
        Selection {
            clip: None,
            joint: None,
            tracks: Vec::new(),
            filter: String::new(),
            labels: false,
            root_motion: true,
            meshes: true,
            skeleton: true,
            dirty: false,
        }
    }
}

/// The spawned rig and the clip it plays.
#[derive(Resource, Default)]
pub struct SceneState {
    pub root: Option<Entity>,
    pub clip: Option<Arc<ClipData>>,
    pub skeleton: Option<Skeleton>,
    /// Where the rig came from, for the panel.
    pub rig_name: String,
    pub unmatched: Vec<Unmatched>,
    /// Humanoid curves are decoded but not retargeted: the status says so.
    pub humanoid: bool,
    /// Frames rendered since the scene was built (for screenshots).
    pub frames: u32,
    /// The check report of the clip on this rig.
    pub report: Option<crate::check::ClipReport>,
}

/// The clip to select after loading: the one named, else the first that decodes.
pub fn initial_clip(ws: &Workspace, name: Option<&str>) -> Option<ObjectRef> {
    let decoded = || ws.clips.iter().filter(|c| c.data.is_ok());
    match name {
        Some(n) => decoded().find(|c| c.name == n).map(|c| c.at),
        None => decoded().next().map(|c| c.at),
    }
}

/// The rig a clip plays on: one that lists it, else the one matching most of its path
/// hashes, else one built from an Avatar's paths or a placeholder per bound path.
pub fn choose_rig(
    library: &Library,
    at: ObjectRef,
    clip: &ClipData,
) -> (String, Skeleton, BTreeMap<u32, String>) {
    // The same choice as `clipscope check`: a rig that lists the clip, else the one matching
    // most of its paths. A `--rig` file's rigs never list it, so they match by path.
    let ws = library.rig.as_deref().unwrap_or(&library.main);
    let found = pick_rig(&ws.rigs, at, clip).map(|(i, _)| {
        let rig = &ws.rigs[i];
        (rig.name.clone(), rig.skeleton.clone(), rig.tos.clone())
    });
    if let Some((name, skeleton, tos)) = found {
        let mut names: BTreeMap<u32, String> = skeleton
            .joints
            .iter()
            .map(|j| (j.path_hash, j.path.clone()))
            .collect();
        names.extend(tos.iter().map(|(&hash, path)| (hash, path.clone())));
        return (name, skeleton, names);
    }
    let tos: BTreeMap<u32, String> = library
        .main
        .rigs
        .iter()
        .flat_map(|r| r.tos.iter().map(|(&hash, path)| (hash, path.clone())))
        .collect();
    if clip.bindings.iter().any(|b| tos.contains_key(&b.path)) {
        return (
            "from the Avatar's paths".into(),
            Skeleton::from_paths(tos.values().map(String::as_str)),
            tos,
        );
    }
    let own: BTreeMap<u32, String> = clip
        .bindings
        .iter()
        .filter_map(|b| b.path_name.clone().map(|p| (b.path, p)))
        .collect();
    let skeleton = if own.is_empty() {
        Skeleton::placeholder(clip.bindings.iter().map(|b| b.path), &tos)
    } else {
        Skeleton::from_paths(own.values().map(String::as_str))
    };
    ("placeholder (no rig found)".into(), skeleton, own)
}

/// Rebuilds the rig and its playback when the selection changed.
#[allow(clippy::too_many_arguments)]
pub fn rebuild_scene(
    mut commands: Commands,
    mut selection: ResMut<Selection>,
    library: Option<Res<Library>>,
    mut scene: ResMut<SceneState>,
    mut clips: ResMut<Assets<AnimationClip>>,
    mut graphs: ResMut<Assets<AnimationGraph>>,
    mut orbit: ResMut<OrbitCamera>,
    options: Res<ViewerOptions>,
) {
    scene.frames = scene.frames.saturating_add(1);
    let Some(library) = library else { return };
    if !selection.dirty {
        return;
    }
    selection.dirty = false;
    if let Some(root) = scene.root.take() {
        commands.entity(root).despawn();
    }
    let Some(at) = selection.clip else { return };
    let Some(data) = library.main.clip(at).and_then(|c| c.data.as_ref().ok()) else {
        return;
    };
    let (rig_name, skeleton, names) = choose_rig(&library, at, data);
    let root = spawn_rig(&mut commands, &skeleton);
    let direct = DirectClip::new(Arc::new(data.clone()));
    let handle = clips.add(direct.bevy_clip());
    let loaded = LoadedClip::from_direct(
        data.name.clone(),
        data.name.clone(),
        at.path_id,
        direct,
        handle,
    );
    let mut playback = play_clip(&mut commands, &mut graphs, root, &loaded);
    if let Some(t) = options.at {
        playback.playhead.seek(t);
        playback.playhead.paused = true;
        commands.entity(root).insert(playback);
    }
    orbit.frame_motion(&skeleton, &loaded.direct);
    selection.tracks = data
        .tracks
        .first()
        .map(|t| t.curves.clone())
        .unwrap_or_default();
    let report = crate::check::check_clip(data, Some(&skeleton), &names);
    *scene = SceneState {
        report: Some(report),
        root: Some(root),
        unmatched: unmatched_bindings(data, &skeleton, &names),
        humanoid: data
            .bindings
            .iter()
            .any(|b| b.kind() == BindingKind::Muscle),
        clip: Some(loaded.data),
        skeleton: Some(skeleton),
        rig_name,
        frames: 0,
    };
}

/// With root motion off, the rig's root keeps its rest position and rotation.
pub fn hold_root(
    selection: Res<Selection>,
    scene: Res<SceneState>,
    mut transforms: Query<&mut Transform>,
    roots: Query<&RigRoot>,
) {
    if selection.root_motion {
        return;
    }
    let (Some(root), Some(skeleton)) = (scene.root, &scene.skeleton) else {
        return;
    };
    if roots.get(root).is_err() {
        return;
    }
    if let (Ok(mut t), Some(joint)) = (transforms.get_mut(root), skeleton.joints.first()) {
        let rest = rest_transform(joint);
        t.translation = rest.translation;
        t.rotation = rest.rotation;
    }
}

/// The playback of the shown rig.
pub fn playback_of<'a>(
    scene: &SceneState,
    query: &'a mut Query<&mut UnityPlayback>,
) -> Option<Mut<'a, UnityPlayback>> {
    query.get_mut(scene.root?).ok()
}
