//! A set of opened Unity files: every clip decoded, every rig found, every controller's clips,
//! with references resolved across files (a level's Animator pointing into
//! `sharedassets0.assets`, a bundle's controller into another bundle).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::clip::{ClipData, decode_clip};
use crate::container::{self, ContainerKind};
use crate::error::Error;
use crate::rig::{Hierarchy, RigComponent, Skeleton};
use crate::serialized::SerializedFile;
use crate::unity::clip::AnimationClip;
use crate::unity::rig::{
    Animation, Animator, AnimatorController, AnimatorOverrideController, Avatar,
};
use crate::unity::{PPtr, class, class_name};

/// Options for opening files.
#[derive(Clone, Debug, Default)]
pub struct OpenOptions {
    /// Unity version to assume for files whose version is stripped.
    pub unity_version: Option<String>,
}

/// One serialized file that was opened.
#[derive(Debug)]
pub struct LoadedFile {
    /// The file on disk.
    pub source: PathBuf,
    /// Name inside its container (empty for a bare serialized file).
    pub inner: String,
    pub kind: ContainerKind,
    /// The parsed file; `None` for text-serialized (YAML) files.
    pub serialized: Option<SerializedFile>,
}

impl LoadedFile {
    /// `path` or `path/inner` for messages.
    pub fn location(&self) -> String {
        if self.inner.is_empty() {
            self.source.display().to_string()
        } else {
            format!("{}/{}", self.source.display(), self.inner)
        }
    }
}

/// A reference to an object of a loaded file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectRef {
    pub file: usize,
    pub path_id: i64,
}

/// A clip found in a file, decoded or with the reason it could not be.
#[derive(Debug)]
pub struct ClipEntry {
    pub at: ObjectRef,
    pub name: String,
    pub data: Result<ClipData, Error>,
}

/// A rig: an Animator or Animation component with its skeleton and the clips it reaches.
#[derive(Debug)]
pub struct RigEntry {
    pub at: ObjectRef,
    pub name: String,
    pub component: RigComponent,
    pub skeleton: Skeleton,
    /// Path hash to path, from the Avatar's `m_TOS`.
    pub tos: BTreeMap<u32, String>,
    /// Clips it reaches (controller or Animation list), resolved where loaded.
    pub clips: Vec<ObjectRef>,
    /// References to clips in files that are not loaded.
    pub unresolved_clips: usize,
}

/// An AnimatorController (or override controller) with its clips in order.
#[derive(Debug)]
pub struct ControllerEntry {
    pub at: ObjectRef,
    pub name: String,
    pub clips: Vec<ObjectRef>,
    pub unresolved_clips: usize,
}

/// A reference from a YAML file to an object of another file, resolved once all files are in.
#[derive(Debug)]
pub(crate) struct PendingLink {
    /// A rig (`true`) or a controller (`false`) at this index.
    rig: bool,
    index: usize,
    links: Vec<crate::yaml::AssetLink>,
    /// For a rig: its Animator's controller, whose clips it reaches.
    controller: Option<crate::yaml::AssetLink>,
}

/// Everything opened from a set of paths.
#[derive(Debug, Default)]
pub struct Workspace {
    pub files: Vec<LoadedFile>,
    pub clips: Vec<ClipEntry>,
    pub rigs: Vec<RigEntry>,
    pub controllers: Vec<ControllerEntry>,
    /// Files (or parts of them) that could not be read.
    pub errors: Vec<Error>,
    /// Non-fatal notes (assumed versions, skipped files).
    pub warnings: Vec<String>,
    pub(crate) pending: Vec<PendingLink>,
    pub(crate) guid_indexes: BTreeMap<PathBuf, crate::yaml::GuidIndex>,
}

/// The clips an AnimatorController lists (`m_AnimationClips`), in order, nulls left out.
pub fn controller_clips(controller: &AnimatorController) -> Vec<PPtr> {
    controller
        .m_AnimationClips
        .iter()
        .copied()
        .filter(|p| !p.is_null())
        .collect()
}

impl Workspace {
    /// Opens files and folders (recursively). Never fails as a whole: what cannot be read is
    /// recorded in `errors`.
    pub fn open(paths: &[PathBuf], options: &OpenOptions) -> Workspace {
        Self::open_with_progress(paths, options, |_, _, _| {})
    }

    /// [`Workspace::open`], calling `progress(done, total, next file)` before each file.
    pub fn open_with_progress(
        paths: &[PathBuf],
        options: &OpenOptions,
        mut progress: impl FnMut(usize, usize, &Path),
    ) -> Workspace {
        let mut ws = Workspace::default();
        let mut files = Vec::new();
        for path in paths {
            if path.is_dir() {
                let mut found = Vec::new();
                collect_files(path, &mut found, 0);
                found.sort();
                files.extend(found.into_iter().map(|f| (f, Some(path.clone()))));
            } else {
                files.push((path.clone(), None));
            }
        }
        let mut skipped: BTreeMap<PathBuf, usize> = BTreeMap::new();
        for (i, (path, folder)) in files.iter().enumerate() {
            progress(i, files.len(), path);
            match (std::fs::read(path), folder) {
                (Ok(bytes), Some(dir)) if container::detect(&bytes).is_none() => {
                    *skipped.entry(dir.clone()).or_default() += 1;
                }
                (Ok(bytes), _) => {
                    if let Err(e) = ws.add_bytes(path, bytes, options) {
                        ws.errors.push(e);
                    }
                }
                (Err(source), _) => ws.errors.push(Error::Io {
                    path: path.clone(),
                    source,
                }),
            }
        }
        for (dir, n) in skipped {
            ws.warnings.push(format!(
                "{}: skipped {n} files that are not Unity files",
                dir.display()
            ));
        }
        progress(files.len(), files.len(), Path::new(""));
        ws.index();
        ws
    }

    /// Opens one file from bytes already read (for embedding and tests).
    pub fn open_bytes(path: &Path, bytes: Vec<u8>, options: &OpenOptions) -> Workspace {
        let mut ws = Workspace::default();
        if let Err(e) = ws.add_bytes(path, bytes, options) {
            ws.errors.push(e);
        }
        ws.index();
        ws
    }

    fn add_bytes(
        &mut self,
        path: &Path,
        bytes: Vec<u8>,
        options: &OpenOptions,
    ) -> Result<(), Error> {
        if crate::yaml::is_yaml(&bytes) {
            return self.add_yaml(path, &bytes);
        }
        let opened = container::open(bytes).map_err(|source| Error::Container {
            path: path.to_path_buf(),
            source,
        })?;
        let fallback = options.unity_version.clone().or_else(|| {
            opened
                .unity_revision
                .clone()
                .filter(|v| !v.starts_with("0."))
        });
        for inner in opened.files {
            let location = if inner.name.is_empty() {
                path.display().to_string()
            } else {
                format!("{}/{}", path.display(), inner.name)
            };
            match SerializedFile::parse(inner.bytes, fallback.as_deref()) {
                Ok(serialized) => {
                    if serialized.version_assumed {
                        self.warnings.push(format!(
                            "{location}: Unity version is stripped ({:?}); assuming {} (override with --unity-version)",
                            serialized.unity_version, serialized.effective_version
                        ));
                    }
                    self.files.push(LoadedFile {
                        source: path.to_path_buf(),
                        inner: inner.name,
                        kind: opened.kind,
                        serialized: Some(serialized),
                    });
                }
                Err(source) => self.errors.push(Error::Serialized { location, source }),
            }
        }
        Ok(())
    }

    /// A text-serialized (YAML) file: its clips, prefab or scene hierarchies and controllers.
    fn add_yaml(&mut self, path: &Path, bytes: &[u8]) -> Result<(), Error> {
        let text = String::from_utf8_lossy(bytes);
        let root = crate::yaml::search_root(path);
        let index = self
            .guid_indexes
            .entry(root.clone())
            .or_insert_with(|| crate::yaml::GuidIndex::build(&root));
        let contents = crate::yaml::read_yaml_with_index(path, &text, index).map_err(|source| {
            Error::Text {
                path: path.to_path_buf(),
                source,
            }
        })?;
        let f = self.files.len();
        self.files.push(LoadedFile {
            source: path.to_path_buf(),
            inner: String::new(),
            kind: ContainerKind::Yaml,
            serialized: None,
        });
        let location = path.display().to_string();
        self.warnings
            .extend(contents.warnings.iter().map(|w| format!("{location}: {w}")));
        for clip in &contents.clips {
            let at = ObjectRef {
                file: f,
                path_id: clip.file_id,
            };
            let decoded = match &clip.clip {
                Ok(raw) => decode_clip(raw, &contents.unity_version).map_err(|e| e.to_string()),
                Err(e) => Err(e.to_string()),
            };
            let name = match (&decoded, &clip.clip) {
                (Ok(d), _) => d.name.clone(),
                (_, Ok(raw)) => raw.m_Name.clone(),
                _ => String::new(),
            };
            let data = decoded.map_err(|e| self.object_error(at, class::ANIMATION_CLIP, e));
            self.clips.push(ClipEntry { at, name, data });
        }
        for rig in contents.rigs {
            self.pending.push(PendingLink {
                rig: true,
                index: self.rigs.len(),
                links: rig.clips.clone(),
                controller: rig.controller.clone(),
            });
            self.rigs.push(RigEntry {
                at: ObjectRef {
                    file: f,
                    path_id: rig.file_id,
                },
                name: if rig.name.is_empty() {
                    format!("GameObject {}", rig.file_id)
                } else {
                    rig.name
                },
                component: if rig.has_animation && !rig.has_animator {
                    RigComponent::Animation
                } else {
                    RigComponent::Animator
                },
                skeleton: rig.skeleton,
                tos: BTreeMap::new(),
                clips: Vec::new(),
                unresolved_clips: 0,
            });
        }
        for c in contents.controllers {
            self.pending.push(PendingLink {
                rig: false,
                index: self.controllers.len(),
                links: c.clips,
                controller: None,
            });
            self.controllers.push(ControllerEntry {
                at: ObjectRef {
                    file: f,
                    path_id: c.file_id,
                },
                name: c.name,
                clips: Vec::new(),
                unresolved_clips: 0,
            });
        }
        Ok(())
    }

    /// The loaded object a YAML asset link names (by the file its GUID resolved to, or this
    /// file when it has none).
    fn resolve_link(&self, from: usize, link: &crate::yaml::AssetLink) -> Option<ObjectRef> {
        let file = match (&link.guid, &link.resolved_path) {
            (None, _) => from,
            (Some(_), Some(path)) => self
                .files
                .iter()
                .position(|f| f.inner.is_empty() && same_file(&f.source, path))?,
            (Some(_), None) => return None,
        };
        let at = ObjectRef {
            file,
            path_id: link.file_id,
        };
        let exists =
            self.clips.iter().any(|c| c.at == at) || self.controllers.iter().any(|c| c.at == at);
        exists.then_some(at)
    }

    /// Resolves the clip lists of YAML controllers, then of YAML rigs.
    fn resolve_pending(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        for p in pending.iter().filter(|p| !p.rig) {
            let from = self.controllers[p.index].at.file;
            let found: Vec<Option<ObjectRef>> =
                p.links.iter().map(|l| self.resolve_link(from, l)).collect();
            let c = &mut self.controllers[p.index];
            c.unresolved_clips = found.iter().filter(|r| r.is_none()).count();
            c.clips = found.into_iter().flatten().collect();
        }
        for p in pending.iter().filter(|p| p.rig) {
            let from = self.rigs[p.index].at.file;
            let mut clips: Vec<Option<ObjectRef>> =
                p.links.iter().map(|l| self.resolve_link(from, l)).collect();
            if let Some(controller) = p
                .controller
                .as_ref()
                .and_then(|l| self.resolve_link(from, l))
                && let Some(c) = self.controllers.iter().find(|c| c.at == controller)
            {
                clips.extend(c.clips.iter().copied().map(Some));
            } else if p.controller.is_some() {
                clips.push(None);
            }
            let rig = &mut self.rigs[p.index];
            rig.unresolved_clips = clips.iter().filter(|r| r.is_none()).count();
            rig.clips = clips.into_iter().flatten().collect();
        }
    }

    /// Decodes clips and finds rigs and controllers in every loaded file.
    fn index(&mut self) {
        for f in 0..self.files.len() {
            self.index_clips(f);
        }
        for f in 0..self.files.len() {
            self.index_controllers(f);
        }
        for f in 0..self.files.len() {
            self.index_rigs(f);
        }
        self.resolve_pending();
    }

    fn object_error(&self, at: ObjectRef, class_id: i32, detail: impl ToString) -> Error {
        Error::Object {
            location: self.files[at.file].location(),
            path_id: at.path_id,
            class: class_name(class_id),
            detail: detail.to_string(),
        }
    }

    fn index_clips(&mut self, f: usize) {
        let Some(file) = &self.files[f].serialized else {
            return;
        };
        let mut found = Vec::new();
        for info in file
            .objects
            .iter()
            .filter(|o| o.class_id == class::ANIMATION_CLIP)
        {
            let at = ObjectRef {
                file: f,
                path_id: info.path_id,
            };
            let decoded = file
                .read::<AnimationClip>(info)
                .map_err(|e| e.to_string())
                .and_then(|raw| {
                    let name = raw.m_Name.clone();
                    decode_clip(&raw, &file.effective_version)
                        .map_err(|e| format!("clip {name:?}: {e}"))
                });
            found.push((at, decoded));
        }
        for (at, decoded) in found {
            let name = decoded.as_ref().map(|c| c.name.clone()).unwrap_or_default();
            let data = decoded.map_err(|e| self.object_error(at, class::ANIMATION_CLIP, e));
            self.clips.push(ClipEntry { at, name, data });
        }
    }

    /// Resolves a PPtr read in file `from` to a loaded object.
    pub fn resolve(&self, from: usize, pptr: PPtr) -> Option<ObjectRef> {
        if pptr.is_null() {
            return None;
        }
        let file = match pptr.file_id() {
            0 => from,
            n => {
                let external = self.files[from]
                    .serialized
                    .as_ref()?
                    .externals
                    .get(usize::try_from(n - 1).ok()?)?;
                self.find_file(from, &external.path)?
            }
        };
        self.files[file]
            .serialized
            .as_ref()?
            .object(pptr.path_id())?;
        Some(ObjectRef {
            file,
            path_id: pptr.path_id(),
        })
    }

    /// Finds a loaded file by an external path, preferring the same container.
    fn find_file(&self, from: usize, external: &str) -> Option<usize> {
        let base = external
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or(external)
            .to_ascii_lowercase();
        let matches = |f: &LoadedFile| {
            let own = if f.inner.is_empty() {
                f.source
                    .file_name()
                    .map(|n| n.to_string_lossy().to_ascii_lowercase())
                    .unwrap_or_default()
            } else {
                f.inner.to_ascii_lowercase()
            };
            own == base
        };
        let same = self
            .files
            .iter()
            .position(|f| f.source == self.files[from].source && matches(f));
        same.or_else(|| self.files.iter().position(matches))
    }

    fn resolve_all(&self, from: usize, list: &[PPtr]) -> (Vec<ObjectRef>, usize) {
        let mut resolved = Vec::new();
        let mut missing = 0;
        for p in list.iter().filter(|p| !p.is_null()) {
            match self.resolve(from, *p) {
                Some(r) => resolved.push(r),
                None => missing += 1,
            }
        }
        (resolved, missing)
    }

    fn index_controllers(&mut self, f: usize) {
        let Some(file) = &self.files[f].serialized else {
            return;
        };
        let mut found = Vec::new();
        for info in &file.objects {
            let at = ObjectRef {
                file: f,
                path_id: info.path_id,
            };
            let list = match info.class_id {
                class::ANIMATOR_CONTROLLER => file
                    .read::<AnimatorController>(info)
                    .map(|c| (c.m_Name.clone(), controller_clips(&c))),
                class::ANIMATOR_OVERRIDE_CONTROLLER => {
                    file.read::<AnimatorOverrideController>(info).map(|c| {
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
                }
                _ => continue,
            };
            found.push((at, info.class_id, list));
        }
        for (at, class_id, list) in found {
            match list {
                Ok((name, pptrs)) => {
                    let (clips, unresolved_clips) = self.resolve_all(f, &pptrs);
                    self.controllers.push(ControllerEntry {
                        at,
                        name,
                        clips,
                        unresolved_clips,
                    });
                }
                Err(e) => {
                    let err = self.object_error(at, class_id, e);
                    self.errors.push(err);
                }
            }
        }
    }

    fn index_rigs(&mut self, f: usize) {
        let Some(file) = &self.files[f].serialized else {
            return;
        };
        let has_rig = file
            .objects
            .iter()
            .any(|o| o.class_id == class::ANIMATOR || o.class_id == class::ANIMATION);
        if !has_rig {
            return;
        }
        let mut problems = Vec::new();
        let hierarchy = Hierarchy::read(file, &mut problems);
        let location = self.files[f].location();
        self.warnings
            .extend(problems.into_iter().map(|p| format!("{location}: {p}")));
        let mut rigs = Vec::new();
        for info in &file.objects {
            let at = ObjectRef {
                file: f,
                path_id: info.path_id,
            };
            let rig = match info.class_id {
                class::ANIMATOR => file
                    .read::<Animator>(info)
                    .map(|a| self.animator_rig(at, &hierarchy, &a)),
                class::ANIMATION => file
                    .read::<Animation>(info)
                    .map(|a| self.animation_rig(at, &hierarchy, &a)),
                _ => continue,
            };
            rigs.push((at, info.class_id, rig));
        }
        for (at, class_id, rig) in rigs {
            match rig {
                Ok(rig) => self.rigs.push(rig),
                Err(e) => {
                    let err = self.object_error(at, class_id, e);
                    self.errors.push(err);
                }
            }
        }
    }

    fn rig_name(hierarchy: &Hierarchy, go: PPtr) -> String {
        hierarchy
            .game_objects
            .get(&go.path_id())
            .map(|g| g.m_Name.clone())
            .unwrap_or_else(|| format!("GameObject {}", go.path_id()))
    }

    fn animator_rig(&self, at: ObjectRef, hierarchy: &Hierarchy, a: &Animator) -> RigEntry {
        let tos = self
            .resolve(at.file, a.m_Avatar)
            .and_then(|r| {
                let file = self.files[r.file].serialized.as_ref()?;
                file.read::<Avatar>(file.object(r.path_id)?).ok()
            })
            .map(|av| av.m_TOS)
            .unwrap_or_default();
        let skeleton = hierarchy
            .skeleton(a.m_GameObject)
            .filter(|s| s.joints.len() > 1 || tos.is_empty())
            .unwrap_or_else(|| Skeleton::from_paths(tos.values().map(String::as_str)));
        let controller = self.resolve(at.file, a.m_Controller);
        let (clips, unresolved_clips) =
            match controller.and_then(|c| self.controllers.iter().find(|e| e.at == c)) {
                Some(c) => (c.clips.clone(), c.unresolved_clips),
                None => (
                    Vec::new(),
                    usize::from(!a.m_Controller.is_null() && controller.is_none()),
                ),
            };
        RigEntry {
            at,
            name: Self::rig_name(hierarchy, a.m_GameObject),
            component: RigComponent::Animator,
            skeleton,
            tos,
            clips,
            unresolved_clips,
        }
    }

    fn animation_rig(&self, at: ObjectRef, hierarchy: &Hierarchy, a: &Animation) -> RigEntry {
        let mut list = a.m_Animations.clone();
        if !a.m_Animation.is_null() && !list.contains(&a.m_Animation) {
            list.insert(0, a.m_Animation);
        }
        let (clips, unresolved_clips) = self.resolve_all(at.file, &list);
        RigEntry {
            at,
            name: Self::rig_name(hierarchy, a.m_GameObject),
            component: RigComponent::Animation,
            skeleton: hierarchy
                .skeleton(a.m_GameObject)
                .unwrap_or(Skeleton { joints: Vec::new() }),
            tos: BTreeMap::new(),
            clips,
            unresolved_clips,
        }
    }

    /// The clip at a reference.
    pub fn clip(&self, at: ObjectRef) -> Option<&ClipEntry> {
        self.clips.iter().find(|c| c.at == at)
    }
}

/// True when two paths name the same file.
fn same_file(a: &Path, b: &Path) -> bool {
    a == b || matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}

/// Every regular file below `dir`, to a bounded depth.
fn collect_files(dir: &Path, out: &mut Vec<PathBuf>, depth: usize) {
    if depth > 32 {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        match entry.file_type() {
            Ok(t) if t.is_dir() => collect_files(&path, out, depth + 1),
            Ok(t) if t.is_file() => out.push(path),
            _ => {}
        }
    }
}
