//! A clip played by a component: put a [`UnityClipPlayer`] with a clip's handle
//! (`"file#Clip"`) on a [`super::UnityModelRoot`]'s entity (or on a rig root from
//! [`crate::spawn_rig`]), at once or later, and the clip starts once both are ready,
//! with its sprite swaps; changing the handle switches clips. The rig's
//! [`crate::UnityPlayback`] stays the playhead (pause, seek, scrub).

use bevy::animation::graph::{AnimationGraph, AnimationGraphHandle};
use bevy::asset::LoadState;
use bevy::prelude::*;

use super::data::{ClipObjects, UnityModel};
use super::root::{UnityModelInstance, UnityModelRoot, UnityPlayerWarning, warn_about};
use crate::index::{IndexedClip, UnityClipIndex};
use crate::{LoadedClip, RigJoint, RigRoot, UnityHumanoid, play_clip, play_clip_direct};
use clipscope_core::curve::WrapMode;

/// How a [`UnityClipPlayer`] plays its clip (see [`crate::play_clip`] and
/// [`crate::play_clip_direct`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ClipRoute {
    /// Through Bevy's `AnimationPlayer` and a one-clip animation graph.
    #[default]
    Player,
    /// The joints sample their own tracks (no graph, no blending).
    Direct,
}

/// Plays `clip` (a clip of a Unity file, by its label) on the model of this entity's
/// [`super::UnityModelRoot`], or on this entity when it is a rig root. Starts once the model
/// has spawned and the clip is loaded; a change (another clip, wrap, speed or route) starts
/// the clip again from its start.
#[derive(Component, Clone, Debug, PartialEq)]
#[require(ClipPlayerState)]
pub struct UnityClipPlayer {
    pub clip: Handle<AnimationClip>,
    /// The wrap mode; `None` keeps the clip's own.
    pub wrap: Option<WrapMode>,
    /// Seconds of clip per second; negative plays backwards.
    pub speed: f32,
    pub route: ClipRoute,
}

impl UnityClipPlayer {
    /// The clip with its own wrap mode, at normal speed, through Bevy's `AnimationPlayer`.
    pub fn new(clip: Handle<AnimationClip>) -> Self {
        UnityClipPlayer {
            clip,
            wrap: None,
            speed: 1.0,
            route: ClipRoute::Player,
        }
    }
}

/// What a [`UnityClipPlayer`] has started, on which rig, and what it has reported.
#[derive(Component, Clone, Debug, Default)]
pub struct ClipPlayerState {
    started: Option<(Entity, UnityClipPlayer)>,
    warned: Option<AssetId<AnimationClip>>,
}

/// Where a player entity's rig is, and the model it was spawned from.
type PlayerParts = (
    Entity,
    &'static UnityClipPlayer,
    &'static mut ClipPlayerState,
    Option<&'static UnityModelRoot>,
    Option<&'static UnityModelInstance>,
);

/// The assets and rigs starting a clip reads.
#[derive(bevy::ecs::system::SystemParam)]
pub struct PlayerWorld<'w, 's> {
    server: Res<'w, AssetServer>,
    index: Res<'w, UnityClipIndex>,
    clips: Res<'w, Assets<AnimationClip>>,
    models: Res<'w, Assets<UnityModel>>,
    graphs: ResMut<'w, Assets<AnimationGraph>>,
    rigs: Query<'w, 's, (&'static RigRoot, Has<UnityHumanoid>)>,
    joints: Query<'w, 's, &'static RigJoint>,
}

/// Starts each [`UnityClipPlayer`] whose rig and clip are ready and that has not started
/// this clip on this rig yet (a new player, a changed one, or a respawned model).
pub fn start_clip_players(
    mut commands: Commands,
    mut players: Query<PlayerParts>,
    mut world: PlayerWorld,
    mut warnings: MessageWriter<UnityPlayerWarning>,
) {
    for (entity, player, mut state, root, instance) in &mut players {
        let rig = match (root, instance) {
            (Some(_), Some(instance)) => instance.rig,
            (Some(_), None) => continue,
            (None, _) if world.rigs.contains(entity) => entity,
            (None, _) => continue,
        };
        if state.started.as_ref() == Some(&(rig, player.clone())) {
            continue;
        }
        let id = player.clip.id();
        let Some(clip) = world.index.get(id).filter(|_| world.clips.contains(id)) else {
            if state.warned != Some(id)
                && let Some(message) = clip_problem(&world, id)
            {
                state.warned = Some(id);
                warn_about(&mut warnings, entity, message);
            }
            continue;
        };
        for message in mismatches(&world, &clip, rig) {
            warn_about(&mut warnings, entity, message);
        }
        let objects = root.and_then(|r| clip_objects(&world, &r.0, &clip));
        start(&mut commands, &mut world, player, rig, clip);
        commands.entity(rig).insert(objects.unwrap_or_default());
        state.started = Some((rig, player.clone()));
        state.warned = None;
    }
}

/// Plays `clip` on `rig` by the player's route, with its wrap mode and speed.
fn start(
    commands: &mut Commands,
    world: &mut PlayerWorld,
    player: &UnityClipPlayer,
    rig: Entity,
    clip: IndexedClip,
) {
    let IndexedClip {
        name,
        label,
        path_id,
        direct,
        ..
    } = clip;
    let loaded = LoadedClip::from_direct(name, label, path_id, direct, player.clip.clone());
    let mut playback = match player.route {
        ClipRoute::Player => play_clip(commands, &mut world.graphs, rig, &loaded),
        ClipRoute::Direct => {
            commands.entity(rig).remove::<AnimationGraphHandle>();
            play_clip_direct(commands, rig, &loaded)
        }
    };
    if let Some(wrap) = player.wrap {
        playback.playhead.wrap = wrap;
    }
    playback.playhead.speed = player.speed;
    commands.entity(rig).insert(playback);
}

/// Why a clip that is not ready will not become ready: it failed to load, or it is not a
/// clip of a Unity file. `None` while it is still loading.
fn clip_problem(world: &PlayerWorld, id: AssetId<AnimationClip>) -> Option<String> {
    let what = world
        .server
        .get_path(id)
        .map_or_else(|| format!("{id:?}"), |p| p.to_string());
    match world.server.get_load_state(id) {
        Some(LoadState::Failed(error)) => Some(format!("clip \"{what}\" did not load: {error}")),
        _ if world.clips.contains(id) && world.index.get(id).is_none() => Some(format!(
            "clip \"{what}\" is not a clip of a Unity file: the player cannot play it"
        )),
        _ => None,
    }
}

/// What keeps `clip` from playing fully on `rig`: no binding path is a joint of the rig, or
/// a humanoid clip on a rig without a humanoid avatar.
fn mismatches(world: &PlayerWorld, clip: &IndexedClip, rig: Entity) -> Vec<String> {
    let Ok((rig_root, humanoid)) = world.rigs.get(rig) else {
        return Vec::new();
    };
    let data = &clip.direct.clip;
    let mut out = Vec::new();
    if clip.direct.humanoid.is_humanoid() && !humanoid {
        out.push(format!(
            "clip \"{}\" is humanoid, but the rig has no humanoid avatar: its muscles pose nothing",
            clip.label
        ));
    }
    let matches = |hash: u32| {
        rig_root
            .joints
            .iter()
            .any(|&j| world.joints.get(j).is_ok_and(|j| j.path_hash == hash))
    };
    if !data.bindings.is_empty() && !data.bindings.iter().any(|b| matches(b.path)) {
        out.push(format!(
            "clip \"{}\": none of its {} bindings names a joint of the rig",
            clip.label,
            data.bindings.len()
        ));
    }
    out
}

/// The objects the clip's PPtr curves switch between, when the clip comes from the model's
/// own file (the model resolved them).
fn clip_objects(
    world: &PlayerWorld,
    model: &Handle<UnityModel>,
    clip: &IndexedClip,
) -> Option<ClipObjects> {
    let model_path = world.server.get_path(model.id())?;
    if model_path.without_label() != clip.file {
        return None;
    }
    let model = world.models.get(model.id())?;
    model.clip_objects.get(&clip.label).cloned()
}
