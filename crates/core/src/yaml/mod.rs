//! Unity's text-serialized (YAML) project files: `.anim` clips, `.prefab` and `.unity`
//! hierarchies, `.controller` files.
//!
//! A Unity project keeps its assets as YAML (`%YAML 1.1`, `%TAG !u! tag:unity3d.com,2011:`),
//! one document per object headed `--- !u!CLASS &FILEID` (` stripped` for placeholders of
//! nested prefab objects). [`read_yaml`] splits a file into its documents and reads:
//!
//! - clips (class 74) into the same [`AnimationClip`] struct binary files give, so
//!   [`crate::clip::decode_clip`] decodes them: a YAML clip has no muscle clip, and its
//!   per-kind keyframe curves play by the legacy rules;
//! - the GameObject/Transform hierarchy into [`YamlRig`]s whose skeletons name joints by path
//!   hash exactly as a bundle's rig does, so a clip plays on its prefab;
//! - controllers into the clips they play, as [`ClipLink`]s resolved through `.meta` files;
//! - Avatars (class 90, `.asset`) into the same [`AvatarObject`] struct binary files give, so
//!   [`crate::avatar::AvatarData::from_raw`] checks them as it checks a built Avatar.
//!
//! References to other assets are numbered like a binary file's externals
//! ([`YamlContents::externals`]): a [`PPtr`](crate::unity::PPtr) with `m_FileID` k names
//! object `m_PathID` of the asset with guid `externals[k - 1].guid`.
//!
//! The input is untrusted: nothing here panics on bad data, walks are iterative and bounded,
//! and every step is linear in the size of the file.
//!
//! Field names of the YAML-side structs are Unity's, as in [`crate::unity`].
#![allow(non_snake_case)]

mod avatar;
mod clip;
mod controller;
mod document;
mod hierarchy;
mod meta;
pub mod muscles;
mod rigs;
mod values;

use std::path::{Path, PathBuf};

pub use controller::{AssetLink, ClipLink, YamlController};
pub(crate) use document::{Document, split as split_documents};
pub use meta::{GuidIndex, meta_guid, project_version, search_root};
pub use rigs::YamlRig;
pub use values::{ExternalAsset, YamlRef};
pub(crate) use values::{from_body, restore, unity_floats};

use crate::unity::avatar::AvatarObject;
use crate::unity::class_name;
use crate::unity::clip::AnimationClip;

/// The Unity version assumed for a file outside a project with `ProjectVersion.txt`: YAML
/// files do not record the version that wrote them.
pub const ASSUMED_VERSION: (u16, u16, u16) = (2020, 3, 0);

/// Why a YAML file, or one of its documents, could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum YamlError {
    /// The text does not start with `%YAML` or a Unity document header.
    #[error("{path}: not a Unity YAML file (no %YAML header)")]
    NotYaml { path: PathBuf },
    /// One document could not be read; `message` names the field and the line.
    #[error("{path}: !u!{class_id} &{file_id} ({class}, line {line}): {message}")]
    Document {
        path: PathBuf,
        class_id: i32,
        class: String,
        file_id: i64,
        line: usize,
        message: String,
    },
}

/// One clip document.
#[derive(Debug)]
pub struct YamlClip {
    pub file_id: i64,
    /// The clip as stored, ready for [`crate::clip::decode_clip`] with
    /// [`YamlContents::unity_version`].
    pub clip: Result<AnimationClip, YamlError>,
}

/// One Avatar document.
#[derive(Debug)]
pub struct YamlAvatar {
    pub file_id: i64,
    /// The avatar as stored, ready for [`crate::avatar::AvatarData::from_raw`].
    pub avatar: Result<AvatarObject, YamlError>,
}

/// Everything read from one YAML file.
#[derive(Debug)]
pub struct YamlContents {
    pub clips: Vec<YamlClip>,
    pub avatars: Vec<YamlAvatar>,
    /// One per root of the hierarchy, and one per animated GameObject that is not a root.
    pub rigs: Vec<YamlRig>,
    pub controllers: Vec<YamlController>,
    /// Assets that references name by guid, numbered from 1 in [`PPtr`](crate::unity::PPtr)s.
    pub externals: Vec<ExternalAsset>,
    /// The project's version (`ProjectSettings/ProjectVersion.txt`) or [`ASSUMED_VERSION`].
    pub unity_version: crate::version::UnityVersion,
    /// True when no `ProjectVersion.txt` was found and the version is assumed.
    pub version_assumed: bool,
    /// Documents that failed (other than clips), headers that are not Unity's, components
    /// whose GameObject cannot be placed.
    pub warnings: Vec<String>,
}

/// True for a Unity YAML file: `%YAML` (or a `--- !u!` header) after an optional BOM and
/// whitespace.
pub fn is_yaml(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace());
    let bytes = start.map_or(&[][..], |i| &bytes[i..]);
    bytes.starts_with(b"%YAML") || bytes.starts_with(b"--- !u!")
}

/// Reads a Unity YAML file. `path` names the file in messages, and is where `.meta` files
/// (for links by guid) and `ProjectVersion.txt` are looked for: when the file links to other
/// assets, the `.meta` files below [`search_root`] are indexed to resolve them. Only a text
/// that is not Unity YAML fails as a whole; a bad document is reported in the clip's result
/// or in `warnings`, and the rest is read.
pub fn read_yaml(path: &Path, text: &str) -> Result<YamlContents, YamlError> {
    let mut contents = read_yaml_with_index(path, text, &GuidIndex::default())?;
    if contents.links().any(|l| l.guid.is_some()) {
        contents.resolve_links(&GuidIndex::build(&search_root(path)));
    }
    Ok(contents)
}

/// [`read_yaml`] resolving links with an index the caller built once (reading many files of
/// one project), without scanning folders.
pub fn read_yaml_with_index(
    path: &Path,
    text: &str,
    index: &GuidIndex,
) -> Result<YamlContents, YamlError> {
    if !is_yaml(text.as_bytes()) {
        return Err(YamlError::NotYaml {
            path: path.to_path_buf(),
        });
    }
    let split = document::split(text);
    let mut warnings = split.warnings;
    let mut externals = values::Externals::default();
    let clips = split
        .documents
        .iter()
        .filter(|d| d.class_id == crate::unity::class::ANIMATION_CLIP)
        .map(|d| YamlClip {
            file_id: d.file_id,
            clip: clip::read_clip(d, &mut externals).map_err(|m| error(path, d, m)),
        })
        .collect();
    let avatars = split
        .documents
        .iter()
        .filter(|d| d.class_id == crate::unity::class::AVATAR)
        .map(|d| YamlAvatar {
            file_id: d.file_id,
            avatar: avatar::read_avatar(d).map_err(|m| error(path, d, m)),
        })
        .collect();
    let scene = hierarchy::Scene::read(&split.documents, &mut warnings);
    let rigs = rigs::rigs(&scene, &mut warnings);
    let controllers = controller::controllers(&split.documents, &mut warnings);
    let (unity_version, version_assumed) = match project_version(path) {
        Some(v) => (v, false),
        None => {
            let (major, minor, build) = ASSUMED_VERSION;
            (crate::version::UnityVersion::new(major, minor, build), true)
        }
    };
    let mut contents = YamlContents {
        clips,
        avatars,
        rigs,
        controllers,
        externals: externals.list,
        unity_version,
        version_assumed,
        warnings: warnings
            .into_iter()
            .map(|w| format!("{}: {w}", path.display()))
            .collect(),
    };
    contents.resolve_links(index);
    Ok(contents)
}

impl YamlContents {
    /// Every asset link: controllers' clips, Animators' controllers, Animation components'
    /// clips.
    fn links(&self) -> impl Iterator<Item = &AssetLink> {
        let controllers = self.controllers.iter().flat_map(|c| c.links());
        let rigs = self
            .rigs
            .iter()
            .flat_map(|r| r.controller.iter().chain(&r.clips));
        controllers.chain(rigs)
    }

    /// Fills `resolved_path` of every link whose guid `index` knows. [`read_yaml`] does this
    /// with an index of [`search_root`]; call it again with a wider index to resolve more.
    pub fn resolve_links(&mut self, index: &GuidIndex) {
        let controllers = self.controllers.iter_mut().flat_map(|c| c.links_mut());
        let rigs = self
            .rigs
            .iter_mut()
            .flat_map(|r| r.controller.iter_mut().chain(&mut r.clips));
        for link in controllers.chain(rigs) {
            if let Some(found) = link.guid.as_deref().and_then(|g| index.get(g)) {
                link.resolved_path = Some(found.to_path_buf());
            }
        }
    }
}

/// The error for a document that failed.
fn error(path: &Path, doc: &Document, message: String) -> YamlError {
    YamlError::Document {
        path: path.to_path_buf(),
        class_id: doc.class_id,
        class: class_name(doc.class_id),
        file_id: doc.file_id,
        line: doc.line,
        message,
    }
}

/// A warning line for a document that failed (the file's path is added by [`read_yaml`]).
fn document_error(doc: &Document, message: &str) -> String {
    format!(
        "!u!{} &{} ({}, line {}): {message}",
        doc.class_id,
        doc.file_id,
        class_name(doc.class_id),
        doc.line
    )
}
