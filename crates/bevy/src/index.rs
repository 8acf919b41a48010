//! Which Unity clip each loaded `AnimationClip` is.
//!
//! A clip loaded by its label (`"file#Clip"`) comes as a plain `Handle<AnimationClip>`, and
//! Bevy drops the file's root asset ([`super::UnityFile`]) when nothing holds it. Playing the
//! clip the Unity way needs more than Bevy's clip: its wrap mode, range and events (the
//! playhead), its tracks for direct playback and its humanoid curves. The loader files them
//! here, by the Bevy clip's asset id, as it adds each clip; they are forgotten when the Bevy
//! clip is removed.

use std::collections::HashMap;
use std::sync::{Arc, PoisonError, RwLock};

use bevy::asset::AssetPath;
use bevy::prelude::*;

use super::direct::DirectClip;

/// What the loader knew about one clip.
#[derive(Clone, Debug)]
pub struct IndexedClip {
    /// The file the clip was loaded from (no label).
    pub file: AssetPath<'static>,
    pub name: String,
    /// The clip's sub-asset label in `file`.
    pub label: String,
    pub path_id: i64,
    /// The decoded clip with its tracks built.
    pub direct: DirectClip,
}

/// The clips every [`super::UnityFileLoader`] of the app has loaded, by the asset id of their
/// Bevy `AnimationClip`. Shared between the loader (which fills it while loading) and the app
/// (a resource).
#[derive(Resource, Clone, Debug, Default)]
pub struct UnityClipIndex(Arc<RwLock<HashMap<AssetId<AnimationClip>, IndexedClip>>>);

impl UnityClipIndex {
    /// The clip whose Bevy clip is `id`, if a Unity file loaded it.
    pub fn get(&self, id: AssetId<AnimationClip>) -> Option<IndexedClip> {
        let map = self.0.read().unwrap_or_else(PoisonError::into_inner);
        map.get(&id).cloned()
    }

    /// Files a clip under its Bevy clip's id.
    pub fn insert(&self, id: AssetId<AnimationClip>, clip: IndexedClip) {
        let mut map = self.0.write().unwrap_or_else(PoisonError::into_inner);
        map.insert(id, clip);
    }

    fn remove(&self, id: AssetId<AnimationClip>) {
        let mut map = self.0.write().unwrap_or_else(PoisonError::into_inner);
        map.remove(&id);
    }

    /// How many clips are filed.
    pub fn len(&self) -> usize {
        self.0.read().unwrap_or_else(PoisonError::into_inner).len()
    }

    /// Whether no clip is filed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Forgets the clips whose Bevy clip was removed (no handle holds it any more).
pub fn forget_removed_clips(
    index: Res<UnityClipIndex>,
    mut events: MessageReader<AssetEvent<AnimationClip>>,
) {
    for event in events.read() {
        if let AssetEvent::Removed { id } = event {
            index.remove(*id);
        }
    }
}
