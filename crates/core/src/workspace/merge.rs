//! Putting the files' findings together: entries numbered by file, then references between
//! files resolved (controllers to clips, rigs to avatars, controllers and clips, text files'
//! links by guid).

use std::path::Path;
use std::sync::Arc;

use super::extract::{Extracted, SerializedIndex};
use super::known::Known;
use super::objects::{ClipFound, Found, RigDraft};
use super::room;
use super::scene::SpriteEntry;
use super::scene::{BehaviourEntry, MaterialEntry, RendererDraft, SceneIndex, ScriptEntry};
use super::{
    Added, AvatarEntry, ClipEntry, ControllerEntry, Detail, LoadedFile, ObjectRef, PathNames,
    RigEntry, Workspace,
};
use crate::animator::model::ResolvedClip;
use crate::behaviour::BehaviourData;
use crate::container::ContainerKind;
use crate::error::Error;
use crate::rig::{RigComponent, Skeleton};
use crate::unity::{PPtr, class, class_name};
use crate::yaml::{AssetLink, YamlContents};

/// A controller whose clip list is still references.
enum ControllerLinks {
    Binary(Vec<PPtr>),
    Yaml(Vec<AssetLink>),
}

/// A rig whose clips, controller and avatar are still references, held from the time its
/// file joins to the end (a whole game has tens of thousands): 72 bytes, where the whole
/// draft took 120.
enum RigLinks {
    Binary(BinaryLinks),
    /// A text file's rig (a project's prefab or scene: few in any folder).
    Yaml(Box<(Vec<AssetLink>, Option<AssetLink>)>),
}

/// What a binary rig's draft still holds once its entry has its name, component and
/// (for a list) its renderers' outline.
pub(super) struct BinaryLinks {
    pub skeleton: Option<Arc<Skeleton>>,
    pub avatar: PPtr,
    pub controller: PPtr,
    /// The legacy Animation component's clips.
    pub clips: Box<[PPtr]>,
    /// The renderers, resolved when every file is in (none for a list, which outlined
    /// them as the file joined, or an index of names).
    pub renderers: Box<[RendererDraft]>,
}

impl BinaryLinks {
    fn of(draft: RigDraft) -> BinaryLinks {
        BinaryLinks {
            skeleton: draft.skeleton,
            avatar: draft.avatar,
            controller: draft.controller,
            clips: draft.clips.into_boxed_slice(),
            renderers: draft.renderers.into_boxed_slice(),
        }
    }
}

/// Whether the object at `at` was read from a text file, whose objects a workspace always
/// keeps ([`Builder::let_go`]).
fn from_text(files: &[LoadedFile], at: ObjectRef) -> bool {
    files[at.file].kind == ContainerKind::Yaml
}

/// What a controller's leaf, and the workspace once it lets go of the clip, keep of it.
pub(super) fn resolved_clip(entry: &ClipEntry) -> ResolvedClip {
    super::let_go::ClipTimes::of(entry).resolved(&entry.name, entry.at)
}

/// How many clips, meshes and textures a workspace being put together holds: where a
/// file's begin ([`Builder::counts`]).
#[derive(Clone, Copy)]
pub(super) struct Counts {
    clips: usize,
    meshes: usize,
    textures: usize,
}

/// A workspace being put together.
#[derive(Default)]
pub(super) struct Builder {
    pub(super) ws: Workspace,
    controllers: Vec<ControllerLinks>,
    /// Override controllers: (index in the workspace's controllers, base, clip pairs).
    pub(super) overrides: Vec<super::overrides::OverrideLinks>,
    rigs: Vec<RigLinks>,
    /// The renderers a list outlined as their files joined ([`Builder::outline_renderer`]):
    /// (rig, renderer, mesh reference), resolved once every file is in.
    outlined_meshes: Vec<(usize, usize, PPtr)>,
    /// The skeleton of a rig until it is finished, shared by every rig.
    no_skeleton: Arc<Skeleton>,
    /// Every loaded clip (shared with [`Builder::finish`]'s own) and controller, which text
    /// files' links may name: the clips are not copied (a whole game has tens of thousands).
    pub(super) known: (Arc<Known>, Known),
    /// Identical avatars, path tables, skeletons and humanoid rigs, held once.
    pub(super) shared: super::shared::Shared,
    /// How much of each file is kept.
    detail: Detail,
    /// Whether binary files' controllers keep only their outline
    /// ([`super::OpenOptions::outline_controllers`]).
    outline_controllers: bool,
    /// Whether the scene is kept as its names only ([`super::OpenOptions::scene_as_names`]).
    scene_as_names: bool,
}

impl Builder {
    /// An empty workspace that keeps `detail` of each file.
    pub fn new(options: &super::OpenOptions) -> Builder {
        Builder {
            detail: options.detail,
            outline_controllers: options.outline_controllers,
            scene_as_names: options.scene_as_names,
            ..Builder::default()
        }
    }

    /// Adds what one file on disk gave.
    pub fn add(&mut self, path: &Arc<Path>, found: Extracted) {
        match found {
            Extracted::Binary { files, errors } => {
                for file in files {
                    self.add_serialized(path, file);
                }
                self.ws.errors.extend(errors);
            }
            Extracted::Yaml {
                contents,
                clips,
                models,
            } => self.add_yaml(path, *contents, clips, models),
            Extracted::Skipped => self.ws.skipped_files += 1,
            Extracted::Failed(e) => self.ws.errors.push(e),
        }
    }

    /// Resolves every reference and returns the workspace.
    pub fn finish(mut self) -> Workspace {
        // Those the workspace keeps and those it let go of (`let_go_of_clips`).
        let kept = self.ws.clips.iter().map(|c| c.at);
        let clips = Arc::new(Known::of(kept.chain(self.ws.let_go.refs())));
        let controllers = Known::of(self.ws.controllers.iter().map(|c| c.at));
        self.known = (Arc::clone(&clips), controllers);
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
        self.resolve_models();
        self.resolve_overrides(&clips);
        let rigs = std::mem::take(&mut self.rigs);
        for (index, links) in rigs.into_iter().enumerate() {
            match links {
                RigLinks::Binary(links) => self.finish_binary_rig(index, links, &clips),
                RigLinks::Yaml(links) => {
                    let (list, controller) = *links;
                    self.finish_yaml_rig(index, &list, controller.as_ref(), &clips);
                }
            }
        }
        let outlined = std::mem::take(&mut self.outlined_meshes);
        self.resolve_outline_meshes(outlined);
        self.add_avatar_rigs();
        self.ws
    }

    /// How many clips, meshes and textures the workspace holds so far: where the next
    /// file's begin.
    pub fn counts(&self) -> Counts {
        Counts {
            clips: self.ws.clips.len(),
            meshes: self.ws.meshes.len(),
            textures: self.ws.textures.len(),
        }
    }

    /// The clips, meshes and textures added since `before`.
    pub fn added(&self, before: Counts) -> Added<'_> {
        Added {
            clips: &self.ws.clips[before.clips..],
            meshes: &self.ws.meshes[before.meshes..],
            textures: &self.ws.textures[before.textures..],
        }
    }

    /// Lets go of what was added since `before` (the last file's, [`Listed::LetGo`]): its
    /// clips ([`Builder::let_go_of_clips`]) and, where nothing refers to textures and
    /// meshes but renderers by their names ([`Detail::facts_only`]), its textures and all
    /// but its meshes' names. Text files' stay.
    ///
    /// [`Listed::LetGo`]: super::Listed::LetGo
    pub fn let_go(&mut self, before: Counts) {
        self.let_go_of_clips(before.clips);
        if !self.detail.facts_only() {
            return;
        }
        let ws = &mut self.ws;
        for mesh in ws.meshes.split_off(before.meshes) {
            // Kept whole where the compact entry cannot hold it.
            if from_text(&ws.files, mesh.at) || !ws.let_go_meshes.push(mesh.at, &mesh.name, ()) {
                ws.meshes.push(mesh);
            }
        }
        let added = ws.textures.split_off(before.textures);
        let files = &ws.files;
        ws.textures
            .extend(added.into_iter().filter(|t| from_text(files, t.at)));
    }

    /// Lets go of the clips from `start` on (the last file's), keeping what references to
    /// them need ([`ResolvedClip`]: name, times, looping), which other files' rigs and
    /// controllers resolve to as before. Text files' clips stay. A summary's clips
    /// ([`Detail::facts_only`], [`Detail::Index`]) have no bindings to pick a rig's
    /// controller by, so nothing else asks for them.
    fn let_go_of_clips(&mut self, start: usize) {
        let ws = &mut self.ws;
        let added = ws.clips.split_off(start);
        for clip in added {
            // Kept whole where the compact entry cannot hold it.
            let times = super::let_go::ClipTimes::of(&clip);
            if from_text(&ws.files, clip.at) || !ws.let_go.push(clip.at, &clip.name, times) {
                ws.clips.push(clip);
            }
        }
    }

    /// Makes room for one serialized file's entries in each list before they are pushed.
    fn make_room(&mut self, file: &SerializedIndex) {
        let ws = &mut self.ws;
        room(&mut ws.files, 1);
        room(&mut ws.clips, file.clips.len());
        room(&mut ws.controllers, file.controllers.len());
        room(&mut self.controllers, file.controllers.len());
        room(&mut ws.avatars, file.avatars.len());
        room(&mut ws.rigs, file.rigs.len());
        room(&mut self.rigs, file.rigs.len());
        room(&mut ws.meshes, file.scene.meshes.len());
        room(&mut ws.textures, file.scene.textures.len());
        room(&mut ws.materials, file.scene.materials.len());
        room(&mut ws.sprites, file.scene.sprites.len());
        room(&mut ws.scripts, file.scene.scripts.len());
        room(&mut ws.behaviours, file.scene.behaviours.len());
    }

    fn add_serialized(&mut self, path: &Arc<Path>, mut file: SerializedIndex) {
        self.make_room(&file);
        let externals = std::mem::take(&mut file.summary.externals);
        file.summary.externals = self.shared.externals(externals);
        let summary = &mut file.summary;
        summary.version = self.shared.version(Arc::clone(&summary.version));
        let f = self.ws.files.len();
        self.ws.files.push(LoadedFile {
            source: Arc::clone(path),
            inner: file.inner.into_boxed_str(),
            kind: file.kind,
            summary: Some(file.summary),
        });
        self.ws.warnings.extend(file.warnings);
        self.add_clips(f, file.clips);
        self.add_scene(f, file.scene);
        for found in file.controllers {
            let path_id = found.path_id;
            let Some(c) = self.found(f, found) else {
                continue;
            };
            self.controllers.push(ControllerLinks::Binary(c.clips));
            if let Some((base, pairs)) = c.overrides {
                use super::overrides::{Link, OverrideLinks};
                self.overrides.push(OverrideLinks {
                    index: self.ws.controllers.len(),
                    base: (!base.is_null()).then_some(Link::Binary(base)),
                    pairs: pairs
                        .into_iter()
                        .map(|(a, b)| (Link::Binary(a), Link::Binary(b)))
                        .collect(),
                });
            }
            self.ws.controllers.push(ControllerEntry {
                at: ObjectRef { file: f, path_id },
                name: c.name,
                clips: Vec::new(),
                unresolved_clips: 0,
                model: match (c.model, self.detail) {
                    (Ok(model), Detail::List) => Ok(model.summary()),
                    (Ok(model), _) if self.outline_controllers => Ok(model.outline()),
                    (model, _) => model,
                },
                overrides: None,
            });
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
                        tos: self.shared.names(PathNames::new(avatar.tos)),
                        data: avatar.data.map(|d| self.shared.avatar(d)),
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
                Ok(mut draft) => {
                    draft.skeleton = draft.skeleton.map(|s| self.shared.skeleton(s));
                    let mut renderers = Vec::new();
                    if self.scene_as_names {
                        draft.renderers = Vec::new();
                    } else if self.detail == Detail::List {
                        // `list` shows each renderer's kind, mesh and activity: its bones
                        // and materials are a large part of a whole game's rigs.
                        let rig = self.ws.rigs.len();
                        let drafts = std::mem::take(&mut draft.renderers);
                        renderers.reserve_exact(drafts.len());
                        for (i, r) in drafts.into_iter().enumerate() {
                            let (entry, mesh) = Builder::outline_renderer(f, r);
                            renderers.push(entry);
                            if !mesh.is_null() {
                                self.outlined_meshes.push((rig, i, mesh));
                            }
                        }
                    }
                    self.ws.rigs.push(RigEntry {
                        at,
                        name: std::mem::take(&mut draft.name),
                        component: draft.component,
                        skeleton: Arc::clone(&self.no_skeleton),
                        tos: PathNames::default(),
                        avatar: None,
                        humanoid: None,
                        humanoid_error: None,
                        clips: Vec::new(),
                        unresolved_clips: 0,
                        controller: None,
                        renderers,
                        apply_root_motion: draft.apply_root_motion,
                    });
                    self.rigs.push(RigLinks::Binary(BinaryLinks::of(draft)));
                }
                Err(e) => {
                    let err = self.object_error(at, found.class_id, e);
                    self.ws.errors.push(err);
                }
            }
        }
    }

    /// The value of an object that decoded, taken out of it; an error for one that did not.
    fn found<T>(&mut self, file: usize, found: Found<T>) -> Option<T> {
        match found.value {
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
    fn add_yaml(
        &mut self,
        path: &Arc<Path>,
        mut contents: YamlContents,
        clips: Vec<(i64, ClipFound)>,
        mut models: Vec<(i64, Result<crate::animator::Controller, String>)>,
    ) {
        room(&mut self.ws.files, 1);
        room(&mut self.ws.clips, clips.len());
        room(&mut self.ws.rigs, contents.rigs.len());
        room(&mut self.rigs, contents.rigs.len());
        room(&mut self.ws.controllers, contents.controllers.len());
        room(&mut self.controllers, contents.controllers.len());
        let f = self.ws.files.len();
        self.ws.files.push(LoadedFile {
            source: Arc::clone(path),
            inner: Box::default(),
            kind: ContainerKind::Yaml,
            summary: None,
        });
        let location = path.display().to_string();
        self.ws
            .warnings
            .extend(contents.warnings.iter().map(|w| format!("{location}: {w}")));
        self.add_clips(f, clips);
        self.add_text_avatars(f, std::mem::take(&mut contents.avatars));
        for rig in contents.rigs {
            self.rigs
                .push(RigLinks::Yaml(Box::new((rig.clips, rig.controller))));
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
                skeleton: self.shared.skeleton(Arc::new(rig.skeleton)),
                tos: PathNames::default(),
                avatar: None,
                humanoid: None,
                humanoid_error: None,
                clips: Vec::new(),
                unresolved_clips: 0,
                controller: None,
                renderers: Vec::new(),
                apply_root_motion: rig.apply_root_motion,
            });
        }
        for c in contents.controllers {
            let model = match models.iter().position(|(id, _)| *id == c.file_id) {
                Some(i) => models.swap_remove(i).1,
                None => {
                    Err("an AnimatorOverrideController whose base controller was not found".into())
                }
            };
            if let Some(o) = c.overrides {
                use super::overrides::{Link, OverrideLinks};
                self.overrides.push(OverrideLinks {
                    index: self.ws.controllers.len(),
                    base: o.base.map(Link::Text),
                    pairs: o
                        .pairs
                        .into_iter()
                        .map(|(a, b)| (Link::Text(a), Link::Text(b)))
                        .collect(),
                });
            }
            self.controllers.push(ControllerLinks::Yaml(c.clips));
            self.ws.controllers.push(ControllerEntry {
                at: ObjectRef {
                    file: f,
                    path_id: c.file_id,
                },
                name: c.name,
                clips: Vec::new(),
                unresolved_clips: 0,
                model,
                overrides: None,
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

    /// The meshes, textures, materials and sprites of file `f`.
    fn add_scene(&mut self, f: usize, scene: SceneIndex) {
        let at = |path_id| ObjectRef { file: f, path_id };
        let names = self.scene_as_names;
        for mut mesh in scene.meshes {
            if names {
                self.ws.scene_names.add_shapes(&mesh.shape_names);
                continue;
            }
            mesh.at.file = f;
            self.ws.meshes.push(mesh);
        }
        if !names {
            for mut texture in scene.textures {
                texture.at.file = f;
                self.ws.textures.push(texture);
            }
        }
        for found in scene.materials {
            match found.value {
                Ok(data) if names => self.ws.scene_names.add_properties(&data.properties),
                Ok(mut data) => {
                    data.properties = self.shared.properties(data.properties);
                    self.ws.materials.push(MaterialEntry {
                        at: at(found.path_id),
                        data,
                    });
                }
                Err(e) => self.note_unread(at(found.path_id), found.class_id, e),
            }
        }
        for found in scene.sprites {
            match found.value {
                Ok(_) if names => {}
                Ok(data) => self.ws.sprites.push(SpriteEntry {
                    at: at(found.path_id),
                    data,
                }),
                Err(e) => self.note_unread(at(found.path_id), found.class_id, e),
            }
        }
        for found in scene.scripts {
            match found.value {
                Ok(data) => self.ws.scripts.push(ScriptEntry {
                    at: at(found.path_id),
                    data: self.shared.script(data),
                }),
                Err(e) => self.note_unread(at(found.path_id), found.class_id, e),
            }
        }
        self.add_behaviours(f, scene.behaviours);
    }

    /// The MonoBehaviours of file `f`. Games hold thousands, so those that cannot be read
    /// (their names only cost script curves their names) are counted in one warning.
    fn add_behaviours(&mut self, f: usize, behaviours: Vec<Found<BehaviourData>>) {
        let mut unread = Vec::new();
        for found in behaviours {
            let at = ObjectRef {
                file: f,
                path_id: found.path_id,
            };
            match found.value {
                Ok(data) if self.scene_as_names => self.ws.scene_names.add_fields(&data.fields),
                Ok(data) => self.ws.behaviours.push(BehaviourEntry { at, data }),
                Err(e) => unread.push((found.path_id, e)),
            }
        }
        if let Some((path_id, first)) = unread.first() {
            self.ws.warnings.push(format!(
                "{}: {} MonoBehaviours could not be read (their script fields stay unnamed); path id {path_id}: {first}",
                self.ws.files[f].location(),
                unread.len(),
            ));
        }
    }

    /// A warning for an object that could not be read but whose absence only costs the
    /// picture (a material, a sprite), not the file.
    fn note_unread(&mut self, at: ObjectRef, class_id: i32, detail: String) {
        let err = self.object_error(at, class_id, detail);
        self.ws.warnings.push(err.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::room;

    /// A rig's links, held from its file's joining to the end, take 72 bytes.
    #[cfg(target_pointer_width = "64")]
    #[test]
    fn a_rigs_links_are_compact() {
        assert_eq!(std::mem::size_of::<super::RigLinks>(), 72);
    }

    #[test]
    fn lists_grow_by_an_eighth_not_by_doubling() {
        let mut list: Vec<u64> = Vec::new();
        let mut reallocations = 0;
        for i in 0..100_000 {
            let before = list.capacity();
            room(&mut list, 1);
            reallocations += usize::from(list.capacity() != before);
            list.push(i);
            assert!(list.capacity() <= list.len() + list.len() / 8 + 16, "{i}");
        }
        // Still amortized: a growth by an eighth takes about 60 steps to 100,000.
        assert!(reallocations < 100, "{reallocations}");
        // Room for a file's many entries at once is made in one step.
        room(&mut list, 50_000);
        assert!(list.capacity() >= 150_000);
    }
}
