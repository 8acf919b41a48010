//! References between objects resolved once every file is in: controllers' clip lists,
//! rigs' avatars, controllers and clips, text files' links by guid.

use std::hash::Hasher;
use std::path::Path;
use std::sync::Arc;

use super::known::Known;
use super::merge::BinaryLinks;
use super::merge::Builder;
use super::{LoadedFile, ObjectRef, PathNames, Workspace};
use crate::animator::model::{ClipSource, ResolvedClip};
use crate::humanoid::{HumanoidRig, RigError};
use crate::rig::{RigComponent, Skeleton};
use crate::unity::PPtr;
use crate::yaml::AssetLink;

impl Builder {
    /// An Animator's avatar (its `m_TOS` names paths), skeleton and clips; an Animation
    /// component's clip list.
    pub(super) fn finish_binary_rig(&mut self, index: usize, links: BinaryLinks, clips: &Known) {
        let from = self.ws.rigs[index].at.file;
        let component = self.ws.rigs[index].component;
        let avatar = self
            .ws
            .resolve(from, links.avatar)
            .filter(|at| self.ws.avatar(*at).is_some());
        let tos = avatar
            .and_then(|at| self.ws.avatar(at))
            .map(|a| PathNames::clone(&a.tos))
            .unwrap_or_default();
        let skeleton = match component {
            RigComponent::Animator => links
                .skeleton
                .filter(|s| s.joints.len() > 1 || tos.is_empty())
                .unwrap_or_else(|| {
                    Arc::new(Skeleton::from_paths(tos.values().map(String::as_str)))
                }),
            RigComponent::Animation => links
                .skeleton
                .unwrap_or_else(|| Arc::new(Skeleton { joints: Vec::new() })),
        };
        let (found, unresolved) = if component == RigComponent::Animation {
            let found = self.resolve_list(from, &links.clips, clips);
            let missing = found.iter().filter(|r| r.is_none()).count();
            (found.into_iter().flatten().collect(), missing)
        } else {
            let controller = self
                .ws
                .resolve(from, links.controller)
                .and_then(|at| super::index_at(&self.ws.controllers, at, |c| c.at));
            self.ws.rigs[index].controller = controller;
            match controller.map(|c| &self.ws.controllers[c]) {
                Some(c) => (c.clips.clone(), c.unresolved_clips),
                None => (Vec::new(), usize::from(!links.controller.is_null())),
            }
        };
        let skeleton = self.shared.skeleton(skeleton);
        let (humanoid, humanoid_error) = match self.humanoid(index, avatar, &skeleton) {
            Ok(bound) => (bound, None),
            Err(e) => (None, Some(e)),
        };
        let renderers: Vec<_> = links
            .renderers
            .into_iter()
            .map(|r| self.renderer(from, r, &skeleton))
            .collect();
        let rig = &mut self.ws.rigs[index];
        rig.skeleton = skeleton;
        rig.tos = tos;
        rig.avatar = avatar;
        rig.humanoid = humanoid;
        rig.humanoid_error = humanoid_error;
        // A list's renderers were outlined as the file joined ([`Builder::outline_renderer`]).
        rig.renderers.extend(renderers);
        rig.clips = found;
        rig.unresolved_clips = unresolved;
    }

    /// The avatar bound to the rig's skeleton, when the avatar is humanoid, or why it
    /// cannot pose the rig (also a warning); a warning when the rig nests the human
    /// skeleton otherwise than the avatar (it is posed anyway).
    fn humanoid(
        &mut self,
        rig: usize,
        avatar: Option<ObjectRef>,
        skeleton: &Arc<Skeleton>,
    ) -> Result<Option<Arc<HumanoidRig>>, String> {
        let Some(data) = avatar
            .and_then(|at| self.ws.avatar(at))
            .and_then(|a| a.data.clone())
            .filter(|d| d.is_human())
        else {
            return Ok(None);
        };
        let location = self.ws.files[self.ws.rigs[rig].at.file].location();
        let name = self.ws.rigs[rig].name.clone();
        let bound = match self.shared.humanoid(&data, skeleton) {
            Some(bound) => Ok(bound),
            None => HumanoidRig::new(&data, skeleton).map(Arc::new),
        };
        match bound {
            Ok(bound) => {
                for w in bound.warnings() {
                    self.ws
                        .warnings
                        .push(format!("{location}: rig {name:?}: {w}"));
                }
                self.shared.keep_humanoid(&data, skeleton, &bound);
                Ok(Some(bound))
            }
            Err(RigError::NotHumanoid(_)) => Ok(None),
            Err(e) => {
                self.ws.warnings.push(format!(
                    "{location}: rig {name:?}: humanoid clips cannot play on it: {e}"
                ));
                Err(e.to_string())
            }
        }
    }

    pub(super) fn finish_yaml_rig(
        &mut self,
        index: usize,
        list: &[AssetLink],
        controller: Option<&AssetLink>,
        clips: &Known,
    ) {
        let from = self.ws.rigs[index].at.file;
        let mut found = self.resolve_links(from, list, clips);
        let resolved = controller
            .and_then(|l| self.resolve_link(from, l))
            .and_then(|at| super::index_at(&self.ws.controllers, at, |c| c.at));
        self.ws.rigs[index].controller = resolved;
        if let Some(c) = resolved.map(|c| &self.ws.controllers[c]) {
            found.extend(c.clips.iter().copied().map(Some));
        } else if controller.is_some() {
            found.push(None);
        }
        let rig = &mut self.ws.rigs[index];
        rig.unresolved_clips = found.iter().filter(|r| r.is_none()).count();
        rig.clips = found.into_iter().flatten().collect();
    }

    /// Each reference of a binary file resolved to a loaded clip, or `None`.
    pub(super) fn resolve_list(
        &self,
        from: usize,
        list: &[PPtr],
        clips: &Known,
    ) -> Vec<Option<ObjectRef>> {
        list.iter()
            .filter(|p| !p.is_null())
            .map(|p| self.ws.resolve(from, *p).filter(|at| clips.contains(at)))
            .collect()
    }

    pub(super) fn resolve_links(
        &self,
        from: usize,
        list: &[AssetLink],
        clips: &Known,
    ) -> Vec<Option<ObjectRef>> {
        list.iter()
            .map(|l| self.resolve_link(from, l).filter(|at| clips.contains(at)))
            .collect()
    }

    /// The loaded object a YAML asset link names (by the file its GUID resolved to, or this
    /// file when it has none).
    pub(super) fn resolve_link(&self, from: usize, link: &AssetLink) -> Option<ObjectRef> {
        let file = match (&link.guid, &link.resolved_path) {
            (None, _) => from,
            (Some(_), Some(path)) => self
                .ws
                .files
                .iter()
                .position(|f| f.inner.is_empty() && same_file(&f.source, path))?,
            (Some(_), None) => return None,
        };
        let at = ObjectRef {
            file,
            path_id: link.file_id,
        };
        let (clips, controllers) = &self.known;
        (clips.contains(&at) || controllers.contains(&at)).then_some(at)
    }
}

impl Workspace {
    /// What a controller's leaf needs of the loaded clip at `at`, kept or let go of.
    pub(super) fn resolved_clip(&self, at: ObjectRef) -> Option<ResolvedClip> {
        match self.clip(at) {
            Some(entry) => Some(super::merge::resolved_clip(entry)),
            None => self.let_go.resolved(at),
        }
    }

    /// The object a PPtr read in file `from` names, when the file it points into is loaded
    /// (whether that file holds the object is for the caller to check).
    pub fn resolve(&self, from: usize, pptr: PPtr) -> Option<ObjectRef> {
        if pptr.is_null() {
            return None;
        }
        let file = match pptr.file_id() {
            0 => from,
            n => {
                let externals = &self.files.get(from)?.summary.as_ref()?.externals;
                let external = externals.get(usize::try_from(n - 1).ok()?)?;
                self.find_file(from, &external.path)?
            }
        };
        Some(ObjectRef {
            file,
            path_id: pptr.path_id(),
        })
    }

    /// Finds a loaded file by an external path (its last part, any case): in the same
    /// container first, then in the same folder (a game's `level0` names the
    /// `sharedassets0.assets` beside it, not another game's), then anywhere.
    fn find_file(&self, from: usize, external: &str) -> Option<usize> {
        let base = external.rsplit(['/', '\\']).next().unwrap_or(external);
        self.with_file_names(|names| self.find_file_in(names, from, base))
    }

    /// `f` with the loaded files' name index, built at the first lookup once every file is
    /// in.
    fn with_file_names<R>(&self, f: impl FnOnce(&FileNames) -> R) -> R {
        match self.file_names.get_or_init(|| FileNames::of(&self.files)) {
            names if names.count == self.files.len() => f(names),
            // Files added since (by hand, not by opening): this lookup builds its own.
            _ => f(&FileNames::of(&self.files)),
        }
    }

    /// The file read from `source` whose name inside it is `inner`, found through the name
    /// index (a whole game's objects are mapped between two openings one at a time).
    pub fn file_at(&self, source: &Path, inner: &str) -> Option<usize> {
        let name = if inner.is_empty() {
            source.file_name()?.to_string_lossy()
        } else {
            std::borrow::Cow::Borrowed(inner)
        };
        let folder = source.parent().unwrap_or(Path::new(""));
        self.with_file_names(|names| {
            names
                .beside(&name, folder)
                .find(|&f| *self.files[f].source == *source && *self.files[f].inner == *inner)
        })
    }

    /// [`Self::find_file`] through `names`.
    fn find_file_in(&self, names: &FileNames, from: usize, base: &str) -> Option<usize> {
        let source = &self.files.get(from)?.source;
        let folder = source.parent().unwrap_or(Path::new(""));
        let named = |f: &usize| own_name(&self.files[*f]).eq_ignore_ascii_case(base);
        let mut beside = names
            .beside(base, folder)
            .filter(|f| named(f) && self.files[*f].source.parent() == Some(folder));
        let first = beside.next();
        let same = first
            .into_iter()
            .chain(beside)
            .find(|&f| self.files[f].source == *source);
        same.or(first)
            .or_else(|| names.named(base).filter(named).min())
    }
}

/// The name references use for a loaded file: a bare file's name, a container's inner
/// file's.
fn own_name(f: &LoadedFile) -> std::borrow::Cow<'_, str> {
    if f.inner.is_empty() {
        f.source
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default()
    } else {
        std::borrow::Cow::Borrowed(&*f.inner)
    }
}

/// A name's hash, any case.
fn name_hash(name: &str) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    for b in name.bytes() {
        h.write_u8(b.to_ascii_lowercase());
    }
    h.finish()
}

/// A folder's hash.
fn folder_hash(folder: &Path) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    h.write(folder.as_os_str().as_encoded_bytes());
    h.finish()
}

/// The loaded files by the name references use ([`own_name`], any case), with their
/// folder: hashes and file numbers only, sorted, so a whole game's index costs 24 bytes a
/// file and a lookup allocates nothing. Hash matches are checked against the files.
#[derive(Debug, Default)]
pub(crate) struct FileNames {
    /// How many files there were.
    count: usize,
    /// (name hash, folder hash, file), sorted.
    keys: Vec<(u64, u64, usize)>,
}

impl FileNames {
    fn of(files: &[LoadedFile]) -> FileNames {
        let mut keys: Vec<(u64, u64, usize)> = files
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let folder = f.source.parent().unwrap_or(Path::new(""));
                (name_hash(&own_name(f)), folder_hash(folder), i)
            })
            .collect();
        keys.sort_unstable();
        FileNames {
            count: files.len(),
            keys,
        }
    }

    /// The files that may be named `name` in `folder`, in the order they were loaded.
    fn beside(&self, name: &str, folder: &Path) -> impl Iterator<Item = usize> + '_ {
        let key = (name_hash(name), folder_hash(folder));
        let start = self.keys.partition_point(|k| (k.0, k.1) < key);
        self.keys[start..]
            .iter()
            .take_while(move |k| (k.0, k.1) == key)
            .map(|k| k.2)
    }

    /// The files that may be named `name`, anywhere.
    fn named(&self, name: &str) -> impl Iterator<Item = usize> + '_ {
        let h = name_hash(name);
        let start = self.keys.partition_point(|k| k.0 < h);
        self.keys[start..]
            .iter()
            .take_while(move |k| k.0 == h)
            .map(|k| k.2)
    }
}

/// True when two paths name the same file.
fn same_file(a: &Path, b: &Path) -> bool {
    a == b || matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}

impl Builder {
    /// Links every leaf clip of every controller model to the loaded clip it names.
    /// Clips named by guid that could not be found are listed in the warnings, once each.
    pub(super) fn resolve_models(&mut self) {
        let mut controllers = std::mem::take(&mut self.ws.controllers);
        let mut missing = Vec::new();
        for c in &mut controllers {
            let from = c.at.file;
            if let Ok(model) = &mut c.model {
                model.visit_clips_mut(&mut |leaf| {
                    leaf.resolved = self.clip_target(from, &leaf.source);
                    if leaf.resolved.is_none()
                        && let Some(why) = self.not_found(from, &leaf.source)
                    {
                        let line = format!("controller {:?}: {why}", c.name);
                        if !missing.contains(&line) {
                            missing.push(line);
                        }
                    }
                });
            }
        }
        self.ws.warnings.extend(missing);
        self.ws.controllers = controllers;
    }

    /// Why a clip a text controller names by guid is not loaded: no `.meta` file holds the
    /// guid under the project's search root, or the asset holds no such clip.
    fn not_found(&self, from: usize, source: &ClipSource) -> Option<String> {
        let ClipSource::Text {
            guid: Some(guid),
            file_id,
            resolved_path,
        } = source
        else {
            return None;
        };
        let file = &self.ws.files.get(from)?.source;
        Some(match resolved_path {
            None => format!(
                "clip fileID {file_id} of guid {guid}: no .meta file with that guid under {}",
                crate::yaml::search_root(file).display()
            ),
            Some(p) => format!(
                "clip fileID {file_id} of guid {guid}: {} holds no clip with that fileID",
                p.display()
            ),
        })
    }

    /// The loaded clip a controller's clip reference names.
    fn clip_target(&self, from: usize, source: &ClipSource) -> Option<ResolvedClip> {
        let at = match source {
            ClipSource::Binary { file_id, path_id } => self.ws.resolve(
                from,
                PPtr {
                    m_FileID: crate::unity::Int(*file_id),
                    m_PathID: crate::unity::Int(*path_id),
                },
            )?,
            ClipSource::Text {
                guid,
                file_id,
                resolved_path,
            } => self.resolve_link(
                from,
                &AssetLink {
                    guid: guid.clone(),
                    file_id: *file_id,
                    resolved_path: resolved_path.clone(),
                },
            )?,
            ClipSource::Missing(_) => return None,
        };
        self.resolved_clip(at)
    }

    /// What a controller's leaf needs of the loaded clip at `at`, kept or let go of.
    pub(super) fn resolved_clip(&self, at: ObjectRef) -> Option<ResolvedClip> {
        self.ws.resolved_clip(at)
    }
}
