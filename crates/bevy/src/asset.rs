//! Unity files as Bevy assets: a loader for bundles, serialized files and web player
//! containers that yields a [`UnityFile`] with each clip as a labeled `AnimationClip`
//! sub-asset, each rig as a labeled [`UnityRig`] sub-asset and each AnimatorController as a
//! labeled [`UnityController`] sub-asset (`Controller/NAME`).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use bevy::asset::io::Reader;
use bevy::asset::{AssetLoader, LoadContext};
use bevy::prelude::*;

use super::animator::UnityController;
use super::direct::DirectClip;
use super::index::{IndexedClip, UnityClipIndex};
use super::rig::UnityRig;
use clipscope_core::clip::ClipData;
use clipscope_core::workspace::{OpenOptions, Workspace};

/// A clip of a loaded file.
#[derive(Clone, Debug)]
pub struct LoadedClip {
    pub name: String,
    /// The sub-asset label: the clip's name, or `name@path_id` where names repeat.
    pub label: String,
    pub path_id: i64,
    pub data: Arc<ClipData>,
    pub handle: Handle<AnimationClip>,
    /// The clip's tracks for direct playback, built once.
    pub direct: DirectClip,
}

impl LoadedClip {
    /// A clip with its Bevy handle; builds its tracks for direct playback.
    pub fn new(
        name: String,
        label: String,
        path_id: i64,
        data: Arc<ClipData>,
        handle: Handle<AnimationClip>,
    ) -> Self {
        Self::from_direct(name, label, path_id, DirectClip::new(data), handle)
    }

    /// A clip whose tracks are already built (the Bevy clip behind `handle` made from them
    /// with [`DirectClip::bevy_clip`]).
    pub fn from_direct(
        name: String,
        label: String,
        path_id: i64,
        direct: DirectClip,
        handle: Handle<AnimationClip>,
    ) -> Self {
        LoadedClip {
            name,
            label,
            path_id,
            data: direct.clip.clone(),
            handle,
            direct,
        }
    }
}

/// Everything clipscope read from one Unity file.
#[derive(Asset, TypePath, Clone, Debug, Default)]
pub struct UnityFile {
    pub clips: Vec<LoadedClip>,
    pub rigs: Vec<(String, Handle<UnityRig>)>,
    /// The AnimatorControllers that decoded, labelled `Controller/NAME` (`NAME@path_id`
    /// where names repeat), with the clips of this file their leaves play.
    pub controllers: Vec<(String, Handle<UnityController>)>,
    /// Per rig label (as in `rigs`), the rig with its meshes, materials and sprites, for rigs
    /// that draw something.
    #[cfg(feature = "model")]
    pub models: Vec<(String, Handle<super::UnityModel>)>,
    /// Clips that failed to decode, and other problems, as messages naming the object.
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
}

impl UnityFile {
    /// The clip labelled `label` (`NAME`, or `NAME@PATHID` where names repeat) or named `label`.
    pub fn clip(&self, label: &str) -> Option<&LoadedClip> {
        self.clips
            .iter()
            .find(|c| c.label == label || c.name == label)
    }

    /// The controller labelled `label` (`Controller/NAME`) or named `label`.
    pub fn controller(&self, label: &str) -> Option<&Handle<UnityController>> {
        self.controllers
            .iter()
            .find(|(l, _)| l == label || l.strip_prefix("Controller/") == Some(label))
            .map(|(_, h)| h)
    }

    /// The model of the rig labelled `rig` (see `rigs`), if it draws something.
    #[cfg(feature = "model")]
    pub fn model(&self, rig: &str) -> Option<&Handle<super::UnityModel>> {
        self.models.iter().find(|(l, _)| l == rig).map(|(_, h)| h)
    }
}

/// Loads Unity files. Extension-less files (`level0`, `globalgamemanagers`) load when asked
/// for explicitly with `load_builder().with_loader::<UnityFileLoader>()` or by type.
///
/// The loader files every clip it loads in its [`UnityClipIndex`] (the app's, when
/// [`super::ClipscopePlugin`] registers it), so a clip loaded by its label alone can still be
/// played the Unity way ([`super::UnityClipPlayer`]).
#[derive(Default, TypePath)]
pub struct UnityFileLoader {
    pub index: UnityClipIndex,
}

/// Why a Unity file could not be loaded at all.
#[derive(Debug, thiserror::Error)]
pub enum UnityLoadError {
    #[error("could not read {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{0}")]
    Unreadable(String),
}

impl AssetLoader for UnityFileLoader {
    type Asset = UnityFile;
    type Settings = ();
    type Error = UnityLoadError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        cx: &mut LoadContext<'_>,
    ) -> Result<UnityFile, UnityLoadError> {
        let path = cx.path().to_string();
        let mut bytes = Vec::new();
        reader
            .read_to_end(&mut bytes)
            .await
            .map_err(|source| UnityLoadError::Io {
                path: path.clone(),
                source,
            })?;
        let ws = Workspace::open_bytes(Path::new(&path), bytes, &OpenOptions::default());
        if ws.files.is_empty() {
            let reasons: Vec<String> = ws.errors.iter().map(|e| e.to_string()).collect();
            return Err(UnityLoadError::Unreadable(reasons.join("; ")));
        }
        let file = build_file(&ws, cx);
        let base = cx.path().without_label().into_owned();
        for clip in &file.clips {
            self.index.insert(
                clip.handle.id(),
                IndexedClip {
                    file: base.clone(),
                    name: clip.name.clone(),
                    label: clip.label.clone(),
                    path_id: clip.path_id,
                    direct: clip.direct.clone(),
                },
            );
        }
        Ok(file)
    }

    fn extensions(&self) -> &[&str] {
        &["unity3d", "bundle", "ab", "assets", "anim"]
    }
}

/// Turns a workspace into the asset, adding the labeled sub-assets.
pub fn build_file(ws: &Workspace, cx: &mut LoadContext<'_>) -> UnityFile {
    let mut file = UnityFile {
        warnings: ws.warnings.clone(),
        errors: ws.errors.iter().map(|e| e.to_string()).collect(),
        ..Default::default()
    };
    let mut labels: BTreeMap<clipscope_core::workspace::ObjectRef, String> = BTreeMap::new();
    for entry in &ws.clips {
        let data = match &entry.data {
            Ok(d) => d,
            Err(e) => {
                file.errors.push(e.to_string());
                continue;
            }
        };
        let repeated = ws.clips.iter().filter(|c| c.name == entry.name).count() > 1;
        let label = if repeated {
            format!("{}@{}", entry.name, entry.at.path_id)
        } else {
            entry.name.clone()
        };
        let direct = DirectClip::new(Arc::new(data.clone()));
        let skipped = direct.skipped;
        if skipped > 0 {
            file.warnings.push(format!(
                "{label}: {skipped} tracks lack curves and were left out"
            ));
        }
        let handle = cx.add_labeled_asset(label.clone(), direct.bevy_clip());
        labels.insert(entry.at, label.clone());
        file.clips.push(LoadedClip::from_direct(
            entry.name.clone(),
            label,
            entry.at.path_id,
            direct,
            handle,
        ));
    }
    for rig in &ws.rigs {
        let label = format!("Rig/{}@{}", rig.name, rig.at.path_id);
        let asset = UnityRig {
            name: rig.name.clone(),
            component: rig.component,
            skeleton: clipscope_core::rig::Skeleton::clone(&rig.skeleton),
            names: (*rig.tos).clone(),
            clips: rig
                .clips
                .iter()
                .filter_map(|r| labels.get(r).cloned())
                .collect(),
            humanoid: rig.humanoid.clone(),
        };
        let handle = cx.add_labeled_asset(label.clone(), asset);
        #[cfg(feature = "model")]
        file.models
            .extend(super::model::add_model(ws, rig, &label, &labels, cx));
        file.rigs.push((label, handle));
    }
    for (index, entry) in ws.controllers.iter().enumerate() {
        let Some(asset) = UnityController::from_workspace(ws, index) else {
            if let Err(e) = &entry.model {
                file.errors
                    .push(format!("controller {:?}: {e}", entry.name));
            }
            continue;
        };
        let repeated = ws
            .controllers
            .iter()
            .filter(|c| c.name == entry.name)
            .count()
            > 1;
        let label = if repeated {
            format!("Controller/{}@{}", entry.name, entry.at.path_id)
        } else {
            format!("Controller/{}", entry.name)
        };
        let handle = cx.add_labeled_asset(label.clone(), asset);
        file.controllers.push((label, handle));
    }
    file
}
