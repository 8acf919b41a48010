//! Putting the files' findings together: entries numbered by file, then references between
//! files resolved (controllers to clips, rigs to avatars, controllers and clips, text files'
//! links by guid).

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

use super::extract::{ClipFound, Extracted, Found, RigDraft, SerializedIndex};
use super::scene::{
    DraftKind, MaterialEntry, MeshSource, RendererDraft, RendererEntry, RendererKind, SceneIndex,
    SpriteEntry,
};
use super::{
    AvatarEntry, ClipEntry, ControllerEntry, LoadedFile, ObjectRef, PathNames, RigEntry, Workspace,
};
use crate::container::ContainerKind;
use crate::error::Error;
use crate::humanoid::{HumanoidRig, RigError};
use crate::rig::{RigComponent, Skeleton};
use crate::unity::{PPtr, class, class_name};
use crate::yaml::{AssetLink, YamlContents};

/// A controller whose clip list is still references.
enum ControllerLinks {
    Binary(Vec<PPtr>),
    Yaml(Vec<AssetLink>),
}

/// A rig whose clips, controller and avatar are still references.
enum RigLinks {
    Binary(RigDraft),
    Yaml {
        clips: Vec<AssetLink>,
        controller: Option<AssetLink>,
    },
}

/// A workspace being put together.
#[derive(Default)]
pub(super) struct Builder {
    ws: Workspace,
    controllers: Vec<ControllerLinks>,
    rigs: Vec<RigLinks>,
    /// Every loaded clip and controller, which text files' links may name.
    known: HashSet<ObjectRef>,
}

impl Builder {
    /// Adds what one file on disk gave.
    pub fn add(&mut self, path: &Path, found: Extracted) {
        match found {
            Extracted::Binary { files, errors } => {
                for file in files {
                    self.add_serialized(path, file);
                }
                self.ws.errors.extend(errors);
            }
            Extracted::Yaml { contents, clips } => self.add_yaml(path, *contents, clips),
            Extracted::Skipped => self.ws.skipped_files += 1,
            Extracted::Failed(e) => self.ws.errors.push(e),
        }
    }

    /// Resolves every reference and returns the workspace.
    pub fn finish(mut self) -> Workspace {
        let clips: HashSet<ObjectRef> = self.ws.clips.iter().map(|c| c.at).collect();
        self.known = clips.clone();
        self.known.extend(self.ws.controllers.iter().map(|c| c.at));
        let controllers = std::mem::take(&mut self.controllers);
        for (index, links) in controllers.into_iter().enumerate() {
            let from = self.ws.controllers[index].at.file;
            let found = match links {
                ControllerLinks::Binary(list) => self.resolve_list(from, &list, &clips),
                ControllerLinks::Yaml(list) => self.resolve_links(from, &list, &clips),
            };
            let c = &mut self.ws.controllers[index];
            c.unresolved_clips = found.iter().filter(|r| r.is_none()).count();
            c.clips = found.into_iter().flatten().collect();
        }
        let rigs = std::mem::take(&mut self.rigs);
        for (index, links) in rigs.into_iter().enumerate() {
            match links {
                RigLinks::Binary(draft) => self.finish_binary_rig(index, draft, &clips),
                RigLinks::Yaml {
                    clips: list,
                    controller,
                } => self.finish_yaml_rig(index, &list, controller.as_ref(), &clips),
            }
        }
        self.ws
    }

    fn add_serialized(&mut self, path: &Path, file: SerializedIndex) {
        let f = self.ws.files.len();
        self.ws.files.push(LoadedFile {
            source: path.to_path_buf(),
            inner: file.inner,
            kind: file.kind,
            summary: Some(file.summary),
        });
        self.ws.warnings.extend(file.warnings);
        self.add_clips(f, file.clips);
        self.add_scene(f, file.scene);
        for found in file.controllers {
            if let Some((name, list)) = self.found(f, &found) {
                self.controllers.push(ControllerLinks::Binary(list.clone()));
                self.ws.controllers.push(ControllerEntry {
                    at: ObjectRef {
                        file: f,
                        path_id: found.path_id,
                    },
                    name: name.clone(),
                    clips: Vec::new(),
                    unresolved_clips: 0,
                });
            }
        }
        for found in file.avatars {
            let at = ObjectRef {
                file: f,
                path_id: found.path_id,
            };
            match found.value {
                Ok(avatar) => {
                    if let Some(problem) = avatar.problem {
                        let location = self.ws.files[f].location();
                        self.ws.warnings.push(format!(
                            "{location}: avatar {:?} (path id {}): its human description was not decoded: {problem}",
                            avatar.name, at.path_id
                        ));
                    }
                    self.ws.avatars.push(AvatarEntry {
                        at,
                        name: avatar.name,
                        tos: PathNames::new(avatar.tos),
                        data: avatar.data.map(Arc::new),
                    });
                }
                Err(e) => {
                    let err = self.object_error(at, found.class_id, e);
                    self.ws.errors.push(err);
                }
            }
        }
        for found in file.rigs {
            let at = ObjectRef {
                file: f,
                path_id: found.path_id,
            };
            match found.value {
                Ok(draft) => {
                    self.ws.rigs.push(RigEntry {
                        at,
                        name: draft.name.clone(),
                        component: draft.component,
                        skeleton: Skeleton { joints: Vec::new() },
                        tos: PathNames::default(),
                        avatar: None,
                        humanoid: None,
                        clips: Vec::new(),
                        unresolved_clips: 0,
                        renderers: Vec::new(),
                    });
                    self.rigs.push(RigLinks::Binary(draft));
                }
                Err(e) => {
                    let err = self.object_error(at, found.class_id, e);
                    self.ws.errors.push(err);
                }
            }
        }
    }

    /// The value of an object that decoded; an error for one that did not.
    fn found<'a, T>(&mut self, file: usize, found: &'a Found<T>) -> Option<&'a T> {
        match &found.value {
            Ok(value) => Some(value),
            Err(e) => {
                let at = ObjectRef {
                    file,
                    path_id: found.path_id,
                };
                let err = self.object_error(at, found.class_id, e);
                self.ws.errors.push(err);
                None
            }
        }
    }

    fn add_clips(&mut self, file: usize, clips: Vec<(i64, ClipFound)>) {
        for (path_id, clip) in clips {
            let at = ObjectRef { file, path_id };
            let name = match &clip.data {
                Ok(d) => d.name.clone(),
                Err(_) => clip.name,
            };
            let data = clip
                .data
                .map_err(|e| self.object_error(at, class::ANIMATION_CLIP, e));
            self.ws.clips.push(ClipEntry { at, name, data });
        }
    }

    /// A text-serialized (YAML) file: its clips, prefab or scene hierarchies and controllers.
    fn add_yaml(&mut self, path: &Path, contents: YamlContents, clips: Vec<(i64, ClipFound)>) {
        let f = self.ws.files.len();
        self.ws.files.push(LoadedFile {
            source: path.to_path_buf(),
            inner: String::new(),
            kind: ContainerKind::Yaml,
            summary: None,
        });
        let location = path.display().to_string();
        self.ws
            .warnings
            .extend(contents.warnings.iter().map(|w| format!("{location}: {w}")));
        self.add_clips(f, clips);
        for rig in contents.rigs {
            self.rigs.push(RigLinks::Yaml {
                clips: rig.clips,
                controller: rig.controller,
            });
            self.ws.rigs.push(RigEntry {
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
                tos: PathNames::default(),
                avatar: None,
                humanoid: None,
                clips: Vec::new(),
                unresolved_clips: 0,
                renderers: Vec::new(),
            });
        }
        for c in contents.controllers {
            self.controllers.push(ControllerLinks::Yaml(c.clips));
            self.ws.controllers.push(ControllerEntry {
                at: ObjectRef {
                    file: f,
                    path_id: c.file_id,
                },
                name: c.name,
                clips: Vec::new(),
                unresolved_clips: 0,
            });
        }
    }

    fn object_error(&self, at: ObjectRef, class_id: i32, detail: impl ToString) -> Error {
        Error::Object {
            location: self.ws.files[at.file].location(),
            path_id: at.path_id,
            class: class_name(class_id),
            detail: detail.to_string(),
        }
    }

    /// An Animator's avatar (its `m_TOS` names paths), skeleton and clips; an Animation
    /// component's clip list.
    fn finish_binary_rig(&mut self, index: usize, draft: RigDraft, clips: &HashSet<ObjectRef>) {
        let from = self.ws.rigs[index].at.file;
        let avatar = self
            .ws
            .resolve(from, draft.avatar)
            .filter(|at| self.ws.avatar(*at).is_some());
        let tos = avatar
            .and_then(|at| self.ws.avatar(at))
            .map(|a| PathNames::clone(&a.tos))
            .unwrap_or_default();
        let skeleton = match draft.component {
            RigComponent::Animator => draft
                .skeleton
                .filter(|s| s.joints.len() > 1 || tos.is_empty())
                .unwrap_or_else(|| Skeleton::from_paths(tos.values().map(String::as_str))),
            RigComponent::Animation => draft.skeleton.unwrap_or(Skeleton { joints: Vec::new() }),
        };
        let (found, unresolved) = if draft.component == RigComponent::Animation {
            let found = self.resolve_list(from, &draft.clips, clips);
            let missing = found.iter().filter(|r| r.is_none()).count();
            (found.into_iter().flatten().collect(), missing)
        } else {
            let controller = self
                .ws
                .resolve(from, draft.controller)
                .and_then(|at| self.ws.controllers.iter().find(|c| c.at == at));
            match controller {
                Some(c) => (c.clips.clone(), c.unresolved_clips),
                None => (Vec::new(), usize::from(!draft.controller.is_null())),
            }
        };
        let humanoid = self.humanoid(index, avatar, &skeleton);
        let renderers = draft
            .renderers
            .into_iter()
            .map(|r| self.renderer(from, r, &skeleton))
            .collect();
        let rig = &mut self.ws.rigs[index];
        rig.skeleton = skeleton;
        rig.tos = tos;
        rig.avatar = avatar;
        rig.humanoid = humanoid;
        rig.renderers = renderers;
        rig.clips = found;
        rig.unresolved_clips = unresolved;
    }

    /// The meshes, textures, materials and sprites of file `f`.
    fn add_scene(&mut self, f: usize, scene: SceneIndex) {
        let at = |path_id| ObjectRef { file: f, path_id };
        for mut mesh in scene.meshes {
            mesh.at.file = f;
            self.ws.meshes.push(mesh);
        }
        for mut texture in scene.textures {
            texture.at.file = f;
            self.ws.textures.push(texture);
        }
        for found in scene.materials {
            match found.value {
                Ok(data) => self.ws.materials.push(MaterialEntry {
                    at: at(found.path_id),
                    data,
                }),
                Err(e) => self.note_unread(at(found.path_id), found.class_id, e),
            }
        }
        for found in scene.sprites {
            match found.value {
                Ok(data) => self.ws.sprites.push(SpriteEntry {
                    at: at(found.path_id),
                    data,
                }),
                Err(e) => self.note_unread(at(found.path_id), found.class_id, e),
            }
        }
    }

    /// A warning for an object that could not be read but whose absence only costs the
    /// picture (a material, a sprite), not the file.
    fn note_unread(&mut self, at: ObjectRef, class_id: i32, detail: String) {
        let err = self.object_error(at, class_id, detail);
        self.ws.warnings.push(err.to_string());
    }

    /// A renderer with its mesh, materials and sprite resolved, and the bones its file did not
    /// place matched by the mesh's bone name hashes.
    fn renderer(&self, from: usize, r: RendererDraft, skeleton: &Skeleton) -> RendererEntry {
        let mesh = self.mesh_source(from, r.mesh);
        let loaded = match &mesh {
            MeshSource::Loaded(at) => self.ws.mesh(*at).and_then(|m| m.data.clone()),
            _ => None,
        };
        let kind = match r.kind {
            DraftKind::Skinned {
                mut bones,
                root_bone,
                blend_shape_weights,
                bounds,
            } => {
                if let Some(mesh) = &loaded {
                    for (i, bone) in bones.iter_mut().enumerate() {
                        if bone.is_none() {
                            *bone = mesh
                                .bone_name_hashes
                                .get(i)
                                .and_then(|&h| skeleton.joint_by_hash(h));
                        }
                    }
                }
                RendererKind::Skinned {
                    bones,
                    root_bone,
                    blend_shape_weights,
                    bounds,
                }
            }
            DraftKind::Rigid => RendererKind::Rigid,
            DraftKind::Sprite {
                sprite,
                color,
                flip,
            } => RendererKind::Sprite {
                sprite: self
                    .ws
                    .resolve(from, sprite)
                    .filter(|at| self.ws.sprite(*at).is_some()),
                color,
                flip,
            },
        };
        RendererEntry {
            at: ObjectRef {
                file: from,
                path_id: r.path_id,
            },
            joint: r.joint,
            enabled: r.enabled,
            kind,
            mesh,
            materials: r
                .materials
                .iter()
                .map(|&m| {
                    self.ws
                        .resolve(from, m)
                        .filter(|at| self.ws.material(*at).is_some())
                })
                .collect(),
            submeshes: r.submeshes,
        }
    }

    /// Where a renderer's mesh reference leads: a loaded mesh, a generated built-in one, or
    /// nowhere (and why).
    fn mesh_source(&self, from: usize, pptr: PPtr) -> MeshSource {
        if pptr.is_null() {
            return MeshSource::None;
        }
        let external = usize::try_from(pptr.file_id() - 1)
            .ok()
            .and_then(|i| self.ws.files.get(from)?.summary.as_ref()?.externals.get(i));
        if let Some(external) = external.filter(|e| crate::mesh::is_default_resources(&e.path)) {
            return if crate::mesh::builtin(pptr.path_id()).is_some() {
                MeshSource::Builtin(pptr.path_id())
            } else {
                MeshSource::Missing(format!(
                    "built-in mesh {} of {:?} is not generated",
                    pptr.path_id(),
                    external.path
                ))
            };
        }
        match self.ws.resolve(from, pptr) {
            Some(at) if self.ws.mesh(at).is_some() => MeshSource::Loaded(at),
            _ => MeshSource::Missing(format!(
                "mesh (file id {}, path id {}) is not loaded",
                pptr.file_id(),
                pptr.path_id()
            )),
        }
    }

    /// The avatar bound to the rig's skeleton, when the avatar is humanoid; a warning when
    /// it is humanoid but does not fit the skeleton.
    fn humanoid(
        &mut self,
        rig: usize,
        avatar: Option<ObjectRef>,
        skeleton: &Skeleton,
    ) -> Option<Arc<HumanoidRig>> {
        let data = avatar
            .and_then(|at| self.ws.avatar(at))
            .and_then(|a| a.data.clone())
            .filter(|d| d.is_human())?;
        match HumanoidRig::new(&data, skeleton) {
            Ok(bound) => Some(Arc::new(bound)),
            Err(RigError::NotHumanoid(_)) => None,
            Err(e) => {
                let location = self.ws.files[self.ws.rigs[rig].at.file].location();
                let name = &self.ws.rigs[rig].name;
                self.ws.warnings.push(format!(
                    "{location}: rig {name:?}: humanoid clips cannot play on it: {e}"
                ));
                None
            }
        }
    }

    fn finish_yaml_rig(
        &mut self,
        index: usize,
        list: &[AssetLink],
        controller: Option<&AssetLink>,
        clips: &HashSet<ObjectRef>,
    ) {
        let from = self.ws.rigs[index].at.file;
        let mut found = self.resolve_links(from, list, clips);
        let resolved = controller
            .and_then(|l| self.resolve_link(from, l))
            .and_then(|at| self.ws.controllers.iter().find(|c| c.at == at));
        if let Some(c) = resolved {
            found.extend(c.clips.iter().copied().map(Some));
        } else if controller.is_some() {
            found.push(None);
        }
        let rig = &mut self.ws.rigs[index];
        rig.unresolved_clips = found.iter().filter(|r| r.is_none()).count();
        rig.clips = found.into_iter().flatten().collect();
    }

    /// Each reference of a binary file resolved to a loaded clip, or `None`.
    fn resolve_list(
        &self,
        from: usize,
        list: &[PPtr],
        clips: &HashSet<ObjectRef>,
    ) -> Vec<Option<ObjectRef>> {
        list.iter()
            .filter(|p| !p.is_null())
            .map(|p| self.ws.resolve(from, *p).filter(|at| clips.contains(at)))
            .collect()
    }

    fn resolve_links(
        &self,
        from: usize,
        list: &[AssetLink],
        clips: &HashSet<ObjectRef>,
    ) -> Vec<Option<ObjectRef>> {
        list.iter()
            .map(|l| self.resolve_link(from, l).filter(|at| clips.contains(at)))
            .collect()
    }

    /// The loaded object a YAML asset link names (by the file its GUID resolved to, or this
    /// file when it has none).
    fn resolve_link(&self, from: usize, link: &AssetLink) -> Option<ObjectRef> {
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
        self.known.contains(&at).then_some(at)
    }
}

impl Workspace {
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
}

/// True when two paths name the same file.
fn same_file(a: &Path, b: &Path) -> bool {
    a == b || matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}
