//! A model spawned the way Bevy spawns a scene: put a [`UnityModelRoot`] with the model's
//! handle (`"character.bundle#Model/NAME"`) on an entity, and once the model is loaded its
//! rig, meshes, skins, morph targets, materials and humanoid avatar are spawned under that
//! entity, a [`UnityModelReady`] is triggered on it, and a hot reload of the file (or a new
//! handle) respawns it. Nothing waits for a load by hand.

use std::collections::HashSet;

use bevy::asset::LoadState;
use bevy::camera::visibility::Visibility;
use bevy::prelude::*;

use super::build::ModelAssets;
use super::data::UnityModel;
use super::spawn::spawn_built_model;

/// Spawns its model under its entity once the model is loaded (as `SceneRoot` does for a
/// scene), and again when the asset is replaced (hot reload) or the handle changes. The rig
/// root is a child of the entity, so the entity's `Transform` places the character.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
#[require(Transform, Visibility, ModelRootState)]
pub struct UnityModelRoot(pub Handle<UnityModel>);

/// On a [`UnityModelRoot`]'s entity while its model is spawned: the rig root, which plays
/// clips (its [`crate::UnityPlayback`] is the playhead).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnityModelInstance {
    pub rig: Entity,
}

/// Triggered on a [`UnityModelRoot`]'s entity each time its model has spawned (and after
/// each respawn), for games that attach their own components: observe it on the entity or
/// app-wide. The model's entities exist when it runs.
#[derive(EntityEvent, Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnityModelReady {
    /// The entity with the [`UnityModelRoot`].
    #[event_target]
    pub entity: Entity,
    /// The rig root spawned under it.
    pub rig: Entity,
}

/// A problem found while spawning a model or starting a clip (a label that names nothing, a
/// clip that matches no joint, a humanoid clip on a rig without a humanoid avatar); each is
/// also logged as a warning.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct UnityPlayerWarning {
    /// The entity with the [`UnityModelRoot`] or [`super::UnityClipPlayer`].
    pub entity: Entity,
    pub message: String,
}

/// Writes `message` as a warning message and to the log.
pub(super) fn warn_about(
    warnings: &mut MessageWriter<UnityPlayerWarning>,
    entity: Entity,
    message: String,
) {
    warn!("{message}");
    warnings.write(UnityPlayerWarning { entity, message });
}

/// What a [`UnityModelRoot`] has spawned and reported.
#[derive(Component, Clone, Debug, Default)]
pub struct ModelRootState {
    spawned: Option<AssetId<UnityModel>>,
    warned: Option<AssetId<UnityModel>>,
}

/// Spawns the model of each [`UnityModelRoot`] that is loaded and not spawned yet (a new
/// entity or handle, or the asset modified by a hot reload), despawning what it spawned
/// before; warns once about a model that failed to load. Apps without Bevy's mesh and
/// material assets (no render plugins) spawn no models.
pub fn spawn_model_roots(
    mut commands: Commands,
    server: Res<AssetServer>,
    models: Res<Assets<UnityModel>>,
    assets: Option<ModelAssets>,
    mut events: MessageReader<AssetEvent<UnityModel>>,
    mut roots: Query<(
        Entity,
        &UnityModelRoot,
        &mut ModelRootState,
        Option<&UnityModelInstance>,
    )>,
    mut warnings: MessageWriter<UnityPlayerWarning>,
) {
    let Some(mut assets) = assets else {
        return;
    };
    let modified: HashSet<AssetId<UnityModel>> = events
        .read()
        .filter_map(|e| match e {
            AssetEvent::Modified { id } => Some(*id),
            _ => None,
        })
        .collect();
    for (entity, root, mut state, instance) in &mut roots {
        let id = root.0.id();
        if state.spawned == Some(id) && !modified.contains(&id) {
            continue;
        }
        let Some(model) = models.get(id) else {
            if let Some(LoadState::Failed(error)) = server.get_load_state(id)
                && state.warned != Some(id)
            {
                state.warned = Some(id);
                let path = server.get_path(id).map(|p| p.to_string());
                let what = path.unwrap_or_else(|| format!("{id:?}"));
                let message = format!("model \"{what}\" did not load: {error}");
                warn_about(&mut warnings, entity, message);
            }
            continue;
        };
        if let Some(old) = instance
            && let Ok(mut old) = commands.get_entity(old.rig)
        {
            old.try_despawn();
        }
        let rig = spawn_built_model(&mut commands, &assets.build(model));
        commands.entity(rig).insert(ChildOf(entity));
        commands.entity(entity).insert(UnityModelInstance { rig });
        commands.trigger(UnityModelReady { entity, rig });
        state.spawned = Some(id);
    }
}
