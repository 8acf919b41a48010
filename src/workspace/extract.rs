//! One file's findings: what the workspace keeps of it once its bytes are dropped.
//!
//! Files are extracted in parallel; each is read, opened, every object the workspace needs is
//! decoded (clips, controllers, rigs, avatars) and the bytes are released before the next file
//! starts on that thread. References between files stay unresolved `PPtr`s here.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use super::scene::{RendererDraft, SceneIndex, read_scene, rig_renderers};
use super::{FileSummary, OpenOptions};
use crate::avatar::AvatarData;
use crate::clip::{ClipData, decode_clip};
use crate::container::{self, ContainerKind};
use crate::error::Error;
use crate::mesh::renderer;
use crate::resource::{FileStreams, MemoryStreams, StreamSource};
use crate::rig::{Hierarchy, RigComponent, Skeleton};
use crate::serialized::{ObjectInfo, SerializedFile};
use crate::unity::clip::AnimationClip;
use crate::unity::rig::{
    Animation, Animator, AnimatorController, AnimatorOverrideController, Avatar,
};
use crate::unity::{PPtr, class};
use crate::yaml::{GuidIndex, YamlContents};

/// An object that was found, decoded or with the reason it could not be.
pub(super) struct Found<T> {
    pub path_id: i64,
    pub class_id: i32,
    pub value: Result<T, String>,
}

/// A rig component before its cross-file references are resolved.
pub(super) struct RigDraft {
    pub name: String,
    pub component: RigComponent,
    /// The Transform hierarchy under the component's GameObject, where the file holds it.
    pub skeleton: Option<Skeleton>,
    pub avatar: PPtr,
    pub controller: PPtr,
    /// The legacy Animation component's clips.
    pub clips: Vec<PPtr>,
    /// The renderers on the skeleton's joints (none when opened for summaries).
    pub renderers: Vec<RendererDraft>,
}

/// An avatar's path names, and its full decode unless opened for summaries.
pub(super) struct AvatarFound {
    pub name: String,
    pub tos: BTreeMap<u32, String>,
    pub data: Option<AvatarData>,
    /// Why the full decode failed (the path names were still read).
    pub problem: Option<String>,
}

/// A decoded clip and its name (kept when decoding failed).
pub(super) struct ClipFound {
    pub name: String,
    pub data: Result<ClipData, String>,
}

/// What one serialized file holds for the workspace.
pub(super) struct SerializedIndex {
    pub inner: String,
    pub kind: ContainerKind,
    pub summary: FileSummary,
    pub clips: Vec<(i64, ClipFound)>,
    pub controllers: Vec<Found<(String, Vec<PPtr>)>>,
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
    let fallback = options.unity_version.clone().or_else(|| {
        opened
            .unity_revision
            .clone()
            .filter(|v| !v.starts_with("0."))
    });
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
        match SerializedFile::parse(inner.bytes, fallback.as_deref()) {
            Ok(file) => files.push(index_serialized(
                &location,
                inner.name,
                opened.kind,
                &file,
                &streams,
                options,
            )),
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
            Extracted::Yaml {
                contents: Box::new(contents),
                clips,
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
    if file.version_assumed {
        warnings.push(format!(
            "{location}: Unity version is stripped ({:?}); assuming {} (override with --unity-version)",
            file.unity_version, file.effective_version
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
    let scene = read_scene(file, streams, options.summaries);
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

/// `read` applied to every object of the given classes.
fn of_class<T>(
    file: &SerializedFile,
    classes: &[i32],
    read: impl Fn(&ObjectInfo) -> T,
) -> Vec<(i64, T)> {
    file.objects
        .iter()
        .filter(|o| classes.contains(&o.class_id))
        .map(|info| (info.path_id, read(info)))
        .collect()
}

fn found<T>(
    file: &SerializedFile,
    classes: &[i32],
    read: impl Fn(&ObjectInfo) -> Result<T, String>,
) -> Vec<Found<T>> {
    file.objects
        .iter()
        .filter(|o| classes.contains(&o.class_id))
        .map(|info| Found {
            path_id: info.path_id,
            class_id: info.class_id,
            value: read(info),
        })
        .collect()
}

fn read_clip(file: &SerializedFile, info: &ObjectInfo, options: &OpenOptions) -> ClipFound {
    match file.read::<AnimationClip>(info) {
        Ok(raw) => {
            let data = decode_clip(&raw, &file.effective_version)
                .map(|clip| options.shape(clip))
                .map_err(|e| format!("clip {:?}: {e}", raw.m_Name));
            ClipFound {
                name: raw.m_Name,
                data,
            }
        }
        Err(e) => ClipFound {
            name: String::new(),
            data: Err(e.to_string()),
        },
    }
}

/// An avatar in full (unless opened for summaries); its path names even when the rest does
/// not decode.
fn read_avatar(
    file: &SerializedFile,
    info: &ObjectInfo,
    options: &OpenOptions,
) -> Result<AvatarFound, String> {
    let mut problem = None;
    if !options.summaries {
        match crate::avatar::read(file, info) {
            Ok(data) => {
                return Ok(AvatarFound {
                    name: data.name.clone(),
                    tos: data.tos.clone(),
                    data: Some(data),
                    problem: None,
                });
            }
            Err(e) => problem = Some(e.to_string()),
        }
    }
    let raw = file.read::<Avatar>(info).map_err(|e| e.to_string())?;
    Ok(AvatarFound {
        name: raw.m_Name,
        tos: raw.m_TOS,
        data: None,
        problem,
    })
}

/// A controller's name and clips in order (an override controller's overrides where set).
fn read_controller(
    file: &SerializedFile,
    info: &ObjectInfo,
) -> Result<(String, Vec<PPtr>), String> {
    if info.class_id == class::ANIMATOR_CONTROLLER {
        return file
            .read::<AnimatorController>(info)
            .map(|c| (c.m_Name.clone(), super::controller_clips(&c)))
            .map_err(|e| e.to_string());
    }
    file.read::<AnimatorOverrideController>(info)
        .map(|c| {
            let clips = c
                .m_Clips
                .iter()
                .map(|p| {
                    if p.m_OverrideClip.is_null() {
                        p.m_OriginalClip
                    } else {
                        p.m_OverrideClip
                    }
                })
                .collect();
            (c.m_Name, clips)
        })
        .map_err(|e| e.to_string())
}

/// Every Animator and Animation component, with the hierarchy under its GameObject.
fn read_rigs(
    file: &SerializedFile,
    location: &str,
    options: &OpenOptions,
    warnings: &mut Vec<String>,
) -> Vec<Found<RigDraft>> {
    let classes = [class::ANIMATOR, class::ANIMATION];
    if !file.objects.iter().any(|o| classes.contains(&o.class_id)) {
        return Vec::new();
    }
    let mut problems = Vec::new();
    let hierarchy = Hierarchy::read(file, &mut problems);
    let renderers = if options.summaries {
        renderer::Renderers::default()
    } else {
        renderer::read_all(file, &mut problems)
    };
    warnings.extend(problems.into_iter().map(|p| format!("{location}: {p}")));
    let with_renderers = |mut draft: RigDraft| {
        if let Some(skeleton) = &draft.skeleton {
            draft.renderers = rig_renderers(&renderers, &hierarchy, skeleton);
        }
        draft
    };
    found(file, &classes, |info| {
        let draft = if info.class_id == class::ANIMATOR {
            file.read::<Animator>(info).map(|a| RigDraft {
                name: rig_name(&hierarchy, a.m_GameObject),
                component: RigComponent::Animator,
                skeleton: hierarchy.skeleton(a.m_GameObject),
                avatar: a.m_Avatar,
                controller: a.m_Controller,
                clips: Vec::new(),
                renderers: Vec::new(),
            })
        } else {
            file.read::<Animation>(info).map(|a| {
                let mut clips = a.m_Animations.clone();
                if !a.m_Animation.is_null() && !clips.contains(&a.m_Animation) {
                    clips.insert(0, a.m_Animation);
                }
                RigDraft {
                    name: rig_name(&hierarchy, a.m_GameObject),
                    component: RigComponent::Animation,
                    skeleton: hierarchy.skeleton(a.m_GameObject),
                    avatar: PPtr::default(),
                    controller: PPtr::default(),
                    clips,
                    renderers: Vec::new(),
                }
            })
        };
        draft.map(with_renderers).map_err(|e| e.to_string())
    })
}

fn rig_name(hierarchy: &Hierarchy, go: PPtr) -> String {
    hierarchy
        .game_objects
        .get(&go.path_id())
        .map(|g| g.m_Name.clone())
        .unwrap_or_else(|| format!("GameObject {}", go.path_id()))
}
