//! One file's findings: what the workspace keeps of it once its bytes are dropped.
//!
//! Files are extracted in parallel; each is read, opened, every object the workspace needs is
//! decoded (clips, controllers, rigs, avatars) and the bytes are released before the next file
//! starts on that thread. References between files stay unresolved `PPtr`s here.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use super::objects::{
    AvatarFound, ClipFound, ControllerFound, Found, RigDraft, found, of_class, read_avatar,
    read_clip, read_controller, read_rigs,
};
use super::scene::{SceneIndex, read_scene};
use super::{FileSummary, OpenOptions};
use crate::clip::decode_clip;
use crate::container::{self, ContainerKind};
use crate::error::Error;
use crate::resource::{FileStreams, MemoryStreams, StreamSource};
use crate::serialized::SerializedFile;
use crate::unity::class;
use crate::yaml::{GuidIndex, YamlContents};

/// What one serialized file holds for the workspace.
pub(super) struct SerializedIndex {
    pub inner: String,
    pub kind: ContainerKind,
    pub summary: FileSummary,
    pub clips: Vec<(i64, ClipFound)>,
    pub controllers: Vec<Found<ControllerFound>>,
    pub rigs: Vec<Found<RigDraft>>,
    pub avatars: Vec<Found<AvatarFound>>,
    pub scene: SceneIndex,
    pub warnings: Vec<String>,
}

/// What one file on disk gave.
pub(super) enum Extracted {
    /// The serialized files of a container (or a bare one), and the inner files that failed.
    Binary {
        files: Vec<SerializedIndex>,
        errors: Vec<Error>,
    },
    /// A text file's rigs and controllers, and its clips decoded.
    Yaml {
        contents: Box<YamlContents>,
        clips: Vec<(i64, ClipFound)>,
        /// The controllers' models, by file id.
        models: Vec<(i64, Result<crate::animator::Controller, String>)>,
    },
    /// Not a Unity file (only when found inside a folder).
    Skipped,
    Failed(Error),
}

/// The guid indexes of the projects met so far, built once per project root even when
/// several threads ask at the same time.
#[derive(Default)]
pub(super) struct GuidIndexes(Mutex<BTreeMap<PathBuf, Arc<OnceLock<GuidIndex>>>>);

impl GuidIndexes {
    fn get(&self, root: &Path) -> Arc<OnceLock<GuidIndex>> {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(map.entry(root.to_path_buf()).or_default())
    }
}

/// Reads and extracts one file. `in_folder`: found by walking a folder, so a file that is
/// not a Unity file is skipped rather than reported.
pub(super) fn extract_path(
    path: &Path,
    in_folder: bool,
    options: &OpenOptions,
    guids: &GuidIndexes,
) -> Extracted {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(source) => {
            return Extracted::Failed(Error::Io {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    if in_folder && container::detect(&bytes).is_none() {
        return Extracted::Skipped;
    }
    extract_bytes(path, bytes, options, guids)
}

/// Extracts a file already in memory.
pub(super) fn extract_bytes(
    path: &Path,
    bytes: Vec<u8>,
    options: &OpenOptions,
    guids: &GuidIndexes,
) -> Extracted {
    if crate::yaml::is_yaml(&bytes) {
        return extract_yaml(path, &bytes, options, guids);
    }
    let opened = match container::open(bytes) {
        Ok(opened) => opened,
        Err(source) => {
            return Extracted::Failed(Error::Container {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    let streams = FileStreams {
        memory: MemoryStreams::from_entries(
            opened
                .resources
                .iter()
                .map(|r| (r.name.as_str(), &r.bytes[..])),
        ),
        dir: path.parent().map(Path::to_path_buf),
    };
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for inner in opened.files {
        let location = location(path, &inner.name);
        let bytes = inner.bytes.clone();
        match SerializedFile::parse_in(
            inner.bytes,
            options.unity_version.as_deref(),
            opened.unity_revision.as_deref(),
        ) {
            Ok(file) => {
                let index =
                    index_serialized(&location, inner.name, opened.kind, &file, &streams, options);
                // An LZMA container's clip files (and controller files, where controllers
                // are decoded again) are kept decompressed for the second reading (LZ4 and
                // stored data are read again as cheaply as they are kept).
                let again = !index.clips.is_empty()
                    || (options.outline_controllers && !index.controllers.is_empty());
                if let Some(spill) = &options.spill
                    && opened.lzma
                    && again
                {
                    spill.keep(path, &index.inner, opened.unity_revision.as_deref(), &bytes);
                }
                files.push(index);
            }
            Err(source) => errors.push(Error::Serialized { location, source }),
        }
    }
    Extracted::Binary { files, errors }
}

/// `path` or `path/inner` for messages.
pub(super) fn location(path: &Path, inner: &str) -> String {
    if inner.is_empty() {
        path.display().to_string()
    } else {
        format!("{}/{inner}", path.display())
    }
}

fn extract_yaml(
    path: &Path,
    bytes: &[u8],
    options: &OpenOptions,
    guids: &GuidIndexes,
) -> Extracted {
    let text = String::from_utf8_lossy(bytes);
    let root = crate::yaml::search_root(path);
    let index = guids.get(&root);
    let index = index.get_or_init(|| GuidIndex::build(&root));
    match crate::yaml::read_yaml_with_index(path, &text, index) {
        Ok(mut contents) => {
            let version = contents.unity_version.clone();
            let clips = std::mem::take(&mut contents.clips)
                .into_iter()
                .map(|clip| {
                    let found = match clip.clip {
                        Ok(raw) => ClipFound {
                            data: decode_clip(&raw, &version)
                                .map(|c| options.shape(c))
                                .map_err(|e| e.to_string()),
                            name: raw.m_Name,
                        },
                        Err(e) => ClipFound {
                            name: String::new(),
                            data: Err(e.to_string()),
                        },
                    };
                    (clip.file_id, found)
                })
                .collect();
            let has_controller = contents
                .controllers
                .iter()
                .any(|c| c.class_id == class::ANIMATOR_CONTROLLER);
            let models = if has_controller {
                crate::animator::text::read_controllers(path, &text, index)
                    .into_iter()
                    .map(|(id, m)| (id, m.map_err(|e| e.to_string())))
                    .collect()
            } else {
                Vec::new()
            };
            Extracted::Yaml {
                contents: Box::new(contents),
                clips,
                models,
            }
        }
        Err(source) => Extracted::Failed(Error::Text {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// Decodes everything the workspace keeps from one serialized file.
fn index_serialized(
    location: &str,
    inner: String,
    kind: ContainerKind,
    file: &SerializedFile,
    streams: &dyn StreamSource,
    options: &OpenOptions,
) -> SerializedIndex {
    let mut warnings = Vec::new();
    if let Some((why, source)) = &file.version_fallback {
        warnings.push(format!(
            "{location}: Unity version {why}; assuming {}, {source} (override with --unity-version)",
            file.effective_version
        ));
    }
    let clips = of_class(file, &[class::ANIMATION_CLIP], |info| {
        read_clip(file, info, options)
    });
    let controllers = found(
        file,
        &[
            class::ANIMATOR_CONTROLLER,
            class::ANIMATOR_OVERRIDE_CONTROLLER,
        ],
        |info| read_controller(file, info),
    );
    let avatars = found(file, &[class::AVATAR], |info| {
        read_avatar(file, info, options)
    });
    let rigs = read_rigs(file, location, options, &mut warnings);
    let scene = read_scene(file, streams, options.detail);
    SerializedIndex {
        inner,
        kind,
        summary: FileSummary::of(file),
        clips,
        controllers,
        rigs,
        avatars,
        scene,
        warnings,
    }
}
