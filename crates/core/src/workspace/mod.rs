//! A set of opened Unity files: every clip decoded, every rig found, every controller's clips,
//! with references resolved across files (a level's Animator pointing into
//! `sharedassets0.assets`, a bundle's controller into another bundle).
//!
//! Files are opened in parallel, each on one thread from its bytes to what the workspace keeps
//! (clips, rigs, controllers, avatars); its bytes are dropped before that thread takes the next
//! file, and what it found joins the workspace, in the folder's order, as soon as the files
//! before it have: memory holds the files in flight and the index, not every file's findings.
//! What several files repeat (an Avatar, a rig's skeleton, their humanoid binding) is held
//! once ([`shared`]). References between files are resolved once every file is in.

#[cfg(test)]
mod activity_tests;
mod avatar_rigs;
mod controllers;
mod extract;
mod found;
mod hierarchy;
mod known;
mod let_go;
mod linked;
mod merge;
mod objects;
mod ordered;
mod overrides;
mod renderers;
mod reopen;
mod reopen_controller;
mod resolve;
mod scene;
mod scene_names;
mod shared;
mod spill;
mod subset;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::avatar::AvatarData;
use crate::clip::ClipData;
use crate::container::ContainerKind;
use crate::error::Error;
use crate::humanoid::HumanoidRig;
use crate::rig::{RigComponent, Skeleton};
use crate::serialized::{External, SerializedFile};
use crate::unity::PPtr;
use crate::unity::rig::AnimatorController;
pub use controllers::model_clips;
use extract::{Extracted, GuidIndexes};
pub use let_go::{ClipTimes, LetGo, LetGoClips, LetGoMeshes};
pub use scene::{
    BehaviourEntry, MaterialEntry, MeshEntry, MeshFacts, MeshSource, RendererEntry, RendererKind,
    ScriptEntry, SpriteEntry, TextureEntry,
};
pub use scene_names::SceneNames;
pub use spill::{Spill, cache_folder, scratch_file};

/// Options for opening files.
#[derive(Clone, Debug, Default)]
pub struct OpenOptions {
    /// Unity version to assume for files whose version is stripped.
    pub unity_version: Option<String>,
    /// How much of each file is kept.
    pub detail: Detail,
    /// Where to keep the decompressed serialized files that hold clips, for a second
    /// reading ([`Workspace::decode_clips`]) that need not decompress their containers
    /// again; `None`: nothing is kept.
    pub spill: Option<Arc<Spill>>,
    /// Whether a binary file's controllers keep only their outline (name, parameters and
    /// warnings, with their clips and override pairs) and not their layers, which
    /// [`Workspace::decode_controller`] decodes again from the file (kept in the spill with
    /// the clip files): what a whole game's controllers cost until they are written. A
    /// text file's controllers are kept whole.
    pub outline_controllers: bool,
    /// Whether the meshes, textures, materials, sprites and MonoBehaviours are kept only as
    /// the names a built clip's hashes are looked up by ([`Workspace::scene_names`]: blend
    /// shapes, material properties, behaviour fields), and rigs without their renderers:
    /// what writing a whole game's clips as text needs of its scene. Their lists stay empty;
    /// the warnings for those that could not be read are the same.
    pub scene_as_names: bool,
}

/// How much of each file a workspace keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Detail {
    /// Everything decoded: clips with their curves, meshes, textures' pixels.
    #[default]
    Full,
    /// Every name and reference that writing one file needs of the others (rigs, avatars,
    /// controllers, materials, sprites, behaviours, scripts, meshes' blend shape names) and
    /// each clip's facts, but no curves, vertices or pixels: a compact index of a whole game.
    /// Clips are decoded again, one file at a time, with [`Workspace::decode_clips`].
    Index,
    /// Every clip in full (its curves, bindings and events), and everything else as
    /// [`Detail::Index`] keeps it: meshes and textures without their vertices and pixels,
    /// which take most of a game's memory; the files a rig draws from can be opened in full
    /// on their own ([`Workspace::sources_for`]).
    Clips,
    /// Each clip's facts and each controller's state machine, for a fraction of the memory:
    /// what `controller` and `animate` read. A clip keeps its facts (name, block counts,
    /// times, wrap mode, warnings) and the counts of what was dropped
    /// ([`ClipData::summary_only`]) but not its curves; avatars are decoded in full (rigs
    /// then say whether they pose humanoid clips); no materials, sprites, behaviours or
    /// scripts.
    Summary,
    /// Only what `list` prints: [`Detail::Summary`] less the state machines of the
    /// controllers of binary files, which take more of a game's index than its clips do. Such
    /// a controller keeps its name, its clips and its override pairs; its model keeps its
    /// name and warnings, with no parameters or layers ([`Controller::summary`]). Whether
    /// the model decoded is kept, so override controllers resolve as they do in a summary.
    /// A rig's renderers keep their kind, mesh, joint and activity, not their bones, blend
    /// shape weights or materials.
    ///
    /// [`Controller::summary`]: crate::animator::Controller::summary
    List,
}

impl Detail {
    /// Whether clips keep their facts only and no materials, sprites, behaviours or
    /// scripts are read ([`Detail::Summary`] and [`Detail::List`]).
    pub fn facts_only(self) -> bool {
        matches!(self, Detail::Summary | Detail::List)
    }
}

impl OpenOptions {
    /// An index ([`Detail::Index`]) whose LZMA containers' decompressed clip files wait on
    /// disk for the clips' second reading ([`Spill::in_cache`]; where no spill can be made,
    /// they are decompressed again): how a whole game is opened to be written or shown.
    pub fn index(unity_version: Option<String>) -> OpenOptions {
        OpenOptions {
            unity_version,
            detail: Detail::Index,
            spill: Spill::in_cache().ok().map(Arc::new),
            outline_controllers: false,
            scene_as_names: false,
        }
    }

    /// A decoded clip as this workspace keeps it.
    fn shape(&self, clip: ClipData) -> ClipData {
        if matches!(self.detail, Detail::Full | Detail::Clips) {
            clip
        } else {
            clip.into_summary()
        }
    }

    /// Whether clips keep only their facts ([`Detail::facts_only`]).
    pub fn summaries(&self) -> bool {
        self.detail.facts_only()
    }
}

/// Whether a workspace being opened keeps what a file added once its caller has seen it
/// ([`Workspace::open_listing`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listed {
    /// The workspace keeps it, as [`Workspace::open`] does.
    Kept,
    /// The caller has what it needs of it (its rows are printed, or the clips' names to
    /// decode them again later): the workspace lets go of the file's clips, keeping of each
    /// only what references to it need ([`Workspace::let_go`]: its name, times and looping).
    /// Their references still resolve (a rig's clips, a controller's and its states', an
    /// override's pairs), but [`Workspace::clip`] finds them no more and `clips` lists only
    /// those of text files, which are always kept. Meant for an index of a whole game
    /// ([`Detail::List`], [`Detail::Index`]).
    ///
    /// Where the workspace keeps clips' facts only ([`Detail::facts_only`]: no material or
    /// sprite refers to a texture or mesh), it lets go of the file's textures too, and keeps
    /// of its meshes their names ([`Workspace::let_go_meshes`]), which renderers find them
    /// by ([`Workspace::has_mesh`], [`Workspace::mesh_name`]).
    LetGo,
}

/// What one file on disk added to a workspace being opened, as [`Workspace::open_listing`]
/// hands it to its caller.
#[derive(Clone, Copy, Debug)]
pub struct Added<'a> {
    pub clips: &'a [ClipEntry],
    pub meshes: &'a [MeshEntry],
    pub textures: &'a [TextureEntry],
}

impl Added<'_> {
    /// Whether the file added none of them.
    pub fn is_empty(&self) -> bool {
        self.clips.is_empty() && self.meshes.is_empty() && self.textures.is_empty()
    }
}

/// The facts of a serialized file that outlive its bytes. A whole game has tens of
/// thousands of files, so what they repeat is held once and the rest is packed: 40 bytes a
/// file, where the written and used versions held apart and a `usize` count took 64.
#[derive(Clone, Debug)]
pub struct FileSummary {
    /// Serialized format version (9 to 22).
    pub format: u32,
    /// Number of objects in the file (a file's object table cannot list more than its bytes
    /// hold, so this saturates only past 80 GB).
    pub objects: u32,
    /// Build target; -2 for editor files.
    pub target_platform: i32,
    /// Set when the written version was unusable and the used one is assumed.
    pub version_assumed: bool,
    /// The Unity version as written and as used, held once for every file that writes the
    /// same (a game's files all do).
    pub version: Arc<FileVersion>,
    /// The files its references point into: one list for every file that names the same
    /// files, as a game's bundles that depend on the same bundles do.
    pub externals: Arc<[External]>,
}

/// A serialized file's Unity version as written and as used.
#[derive(Debug, PartialEq)]
pub struct FileVersion {
    /// As written (may be "0.0.0" when stripped).
    pub written: Box<str>,
    /// The version used for layouts and embedded type trees.
    pub used: crate::version::UnityVersion,
}

impl FileSummary {
    fn of(file: &SerializedFile) -> FileSummary {
        FileSummary {
            format: file.format,
            objects: u32::try_from(file.objects.len()).unwrap_or(u32::MAX),
            target_platform: file.target_platform,
            version_assumed: file.version_assumed,
            version: Arc::new(FileVersion {
                written: file.unity_version.as_str().into(),
                used: file.effective_version.clone(),
            }),
            externals: file.externals.as_slice().into(),
        }
    }

    /// The Unity version as written (may be "0.0.0" when stripped).
    pub fn unity_version(&self) -> &str {
        &self.version.written
    }

    /// The Unity version used for layouts and embedded type trees.
    pub fn effective_version(&self) -> &crate::version::UnityVersion {
        &self.version.used
    }
}

/// One serialized file that was opened.
#[derive(Debug)]
pub struct LoadedFile {
    /// The file on disk, shared by the serialized files of one container (a whole game has
    /// tens of thousands).
    pub source: Arc<Path>,
    /// Name inside its container (empty for a bare serialized file).
    pub inner: Box<str>,
    pub kind: ContainerKind,
    /// The serialized file's facts; `None` for text-serialized (YAML) files.
    pub summary: Option<FileSummary>,
}

impl LoadedFile {
    /// `path` or `path/inner` for messages.
    pub fn location(&self) -> String {
        extract::location(&self.source, &self.inner)
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
    /// Shared with every rig of an equal skeleton (a rig copied into several files).
    pub skeleton: Arc<Skeleton>,
    /// Path hash to path, from the Avatar's `m_TOS` (shared with the [`AvatarEntry`]).
    pub tos: PathNames,
    /// The Animator's Avatar, where it is loaded.
    pub avatar: Option<ObjectRef>,
    /// The avatar bound to the skeleton, when it is humanoid: what poses humanoid clips
    /// (this rig's own, or any other's) on this rig.
    pub humanoid: Option<Arc<HumanoidRig>>,
    /// Why an Animator whose avatar is humanoid cannot pose humanoid clips (then
    /// `humanoid` is `None`).
    pub humanoid_error: Option<String>,
    /// Clips it reaches (controller or Animation list), resolved where loaded.
    pub clips: Vec<ObjectRef>,
    /// References to clips in files that are not loaded.
    pub unresolved_clips: usize,
    /// The Animator's controller, where it is loaded (an index into
    /// [`Workspace::controllers`]).
    pub controller: Option<usize>,
    /// The renderers on its joints (none when opened for summaries, or for text files).
    pub renderers: Vec<RendererEntry>,
    /// The Animator's "Apply Root Motion" (`m_ApplyRootMotion`): its clips' root motion moves
    /// the GameObject instead of the body. False for Animation components, for rigs rebuilt
    /// from an Avatar alone, and for text (YAML) files, whose Animator is not read for it.
    pub apply_root_motion: bool,
}

/// An AnimatorController (or override controller) with its clips in order.
#[derive(Debug)]
pub struct ControllerEntry {
    pub at: ObjectRef,
    pub name: String,
    pub clips: Vec<ObjectRef>,
    pub unresolved_clips: usize,
    /// The decoded controller (layers, state machines, blend trees) with its leaf clips
    /// resolved where loaded, or why it could not be decoded. An override controller's is
    /// its base's with its clips replaced.
    pub model: Result<crate::animator::Controller, String>,
    /// For an override controller (class 221) whose base is loaded: the base and the
    /// replaced clips (boxed: most controllers are not overrides, and a whole game's
    /// entries then take 8 bytes for it, not 40).
    pub overrides: Option<Box<Overrides>>,
}

/// What an override controller replaces in its base controller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Overrides {
    /// The base controller (an AnimatorController, or another override controller).
    pub base: ObjectRef,
    /// (original clip, the clip that plays instead), both loaded.
    pub pairs: Vec<(ObjectRef, ObjectRef)>,
}

/// An Avatar (class 90).
#[derive(Debug)]
pub struct AvatarEntry {
    pub at: ObjectRef,
    pub name: String,
    /// Path hash to transform path, relative to the Animator's GameObject (`m_TOS`).
    pub tos: PathNames,
    /// The decoded avatar (skeleton, human description); `None` when it could not be decoded
    /// (a warning says why).
    pub data: Option<Arc<AvatarData>>,
}

/// Path hash to path, shared by an avatar and the rigs that use it.
pub type PathNames = Arc<BTreeMap<u32, String>>;

/// Everything opened from a set of paths.
#[derive(Debug, Default)]
pub struct Workspace {
    pub files: Vec<LoadedFile>,
    pub clips: Vec<ClipEntry>,
    /// The clips let go of while the files were read ([`Listed::LetGo`]), in the files'
    /// order: what references to them need (their names, times and looping, which a
    /// controller's states take), not their facts. [`Workspace::clip`] does not find them;
    /// [`Workspace::clip_name`] and [`Workspace::has_clip`] do.
    pub let_go: LetGoClips,
    /// The meshes let go of while the files were read ([`Listed::LetGo`] with
    /// [`Detail::facts_only`]), in the files' order: each one's reference and name, which a
    /// renderer names it by. [`Workspace::mesh`] does not find them;
    /// [`Workspace::mesh_name`] and [`Workspace::has_mesh`] do.
    pub let_go_meshes: LetGoMeshes,
    pub rigs: Vec<RigEntry>,
    pub controllers: Vec<ControllerEntry>,
    pub avatars: Vec<AvatarEntry>,
    pub meshes: Vec<MeshEntry>,
    pub textures: Vec<TextureEntry>,
    pub materials: Vec<MaterialEntry>,
    pub sprites: Vec<SpriteEntry>,
    /// MonoBehaviours (not with [`Detail::Summary`]): the fields script curves animate.
    pub behaviours: Vec<BehaviourEntry>,
    /// MonoScripts (not with [`Detail::Summary`]): the classes behaviours run.
    pub scripts: Vec<ScriptEntry>,
    /// The scene's names, where its objects are not kept ([`OpenOptions::scene_as_names`]);
    /// empty otherwise.
    pub scene_names: SceneNames,
    /// Files (or parts of them) that could not be read.
    pub errors: Vec<Error>,
    /// Non-fatal notes (assumed versions, skipped files).
    pub warnings: Vec<String>,
    /// Files found in folders that are not Unity files, left out.
    pub skipped_files: usize,
    /// The loaded files by name, built at the first reference resolved
    /// ([`Workspace::resolve`]) once every file is in.
    pub(crate) file_names: std::sync::OnceLock<resolve::FileNames>,
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

    /// [`Workspace::open`], calling `progress(done, total, file)` as each file finishes (from
    /// the threads that open them), and once more with `done == total` at the end.
    pub fn open_with_progress(
        paths: &[PathBuf],
        options: &OpenOptions,
        progress: impl Fn(usize, usize, &Path) + Sync,
    ) -> Workspace {
        Self::open_listing(paths, options, progress, |_, _, _| Listed::Kept)
    }

    /// [`Workspace::open_with_progress`], also calling `taken(ws, file, added)` on the
    /// calling thread as each file on disk is taken in (in the files' order), with the
    /// workspace so far (its files hold the file's serialized files) and the clips, meshes
    /// and textures the file added, where it added any: what a window lists while the other
    /// files are read, or the rows a list prints. The caller says whether the workspace
    /// keeps them ([`Listed`]): a caller that has what it needs of them lets them go, and
    /// the workspace then holds only what references to them need, as the other files'
    /// rigs, renderers and controllers resolve to them.
    pub fn open_listing(
        paths: &[PathBuf],
        options: &OpenOptions,
        progress: impl Fn(usize, usize, &Path) + Sync,
        mut taken: impl FnMut(&Workspace, &Path, Added<'_>) -> Listed,
    ) -> Workspace {
        let given = expand(paths);
        let guids = GuidIndexes::default();
        let done = AtomicUsize::new(0);
        let total = AtomicUsize::new(given.len());
        let mut builder = merge::Builder::new(options);
        // Assets the text files name by guid, opened on demand (not given, but found through
        // the project's `.meta` files).
        let mut opened = linked::Opened::new(&given);
        let mut budget = linked::MAX_LINKED;
        let mut linked: Vec<(Arc<Path>, bool)> = Vec::new();
        // The given files, then each round of the files they link to.
        for pass in 0..=linked::MAX_ROUNDS {
            let round = if pass == 0 { &given } else { &linked };
            let mut more = Vec::new();
            extract_in_order(
                round,
                options,
                &guids,
                &done,
                &total,
                &progress,
                |i, found| {
                    if budget > more.len() {
                        let limit = budget - more.len();
                        more.extend(linked::linked_paths(
                            std::slice::from_ref(&found),
                            &mut opened,
                            limit,
                        ));
                    }
                    let before = builder.counts();
                    builder.add(&round[i].0, found);
                    let added = builder.added(before);
                    if !added.is_empty() && taken(&builder.ws, &round[i].0, added) == Listed::LetGo
                    {
                        builder.let_go(before);
                    }
                },
            );
            if more.is_empty() {
                break;
            }
            budget -= more.len();
            linked = more.into_iter().map(|p| (Arc::from(p), false)).collect();
            total.fetch_add(linked.len(), Ordering::Relaxed);
        }
        let total = total.load(Ordering::Relaxed);
        progress(total, total, Path::new(""));
        // The list of files goes before the references are resolved, where the index is at
        // its largest (the files keep their paths): 24 bytes a file.
        drop(opened);
        drop((given, linked));
        let mut ws = builder.finish();
        if ws.skipped_files > 0 {
            ws.warnings.push(format!(
                "skipped {} files that are not Unity files",
                ws.skipped_files
            ));
        }
        ws
    }

    /// Opens one file from bytes already read (for embedding and tests).
    pub fn open_bytes(path: &Path, bytes: Vec<u8>, options: &OpenOptions) -> Workspace {
        let mut builder = merge::Builder::new(options);
        builder.add(
            &Arc::from(path),
            extract::extract_bytes(path, bytes, options, &GuidIndexes::default()),
        );
        builder.finish()
    }

    /// The clip at a reference.
    pub fn clip(&self, at: ObjectRef) -> Option<&ClipEntry> {
        find_at(&self.clips, at, |c| c.at)
    }

    /// Whether a clip is loaded at a reference: kept, or let go of ([`Listed::LetGo`]).
    pub fn has_clip(&self, at: ObjectRef) -> bool {
        self.clip(at).is_some() || self.let_go.name(at).is_some()
    }

    /// The name of the clip at a reference, kept or let go of.
    pub fn clip_name(&self, at: ObjectRef) -> Option<&str> {
        match self.clip(at) {
            Some(c) => Some(&c.name),
            None => self.let_go.name(at),
        }
    }

    /// Every loaded clip's reference, kept or let go of, in order.
    pub fn clip_refs(&self) -> Vec<ObjectRef> {
        let kept = self.clips.iter().map(|c| c.at);
        let mut all: Vec<ObjectRef> = kept.chain(self.let_go.refs()).collect();
        all.sort_unstable();
        all
    }

    /// The avatar at a reference.
    pub fn avatar(&self, at: ObjectRef) -> Option<&AvatarEntry> {
        find_at(&self.avatars, at, |a| a.at)
    }

    /// The mesh at a reference, where the workspace keeps it.
    pub fn mesh(&self, at: ObjectRef) -> Option<&MeshEntry> {
        find_at(&self.meshes, at, |m| m.at)
    }

    /// Whether a mesh is loaded at a reference: kept, or let go of ([`Listed::LetGo`]).
    pub fn has_mesh(&self, at: ObjectRef) -> bool {
        self.mesh_name(at).is_some()
    }

    /// The name of the mesh at a reference, kept or let go of.
    pub fn mesh_name(&self, at: ObjectRef) -> Option<&str> {
        match self.mesh(at) {
            Some(m) => Some(&m.name),
            None => self.let_go_meshes.name(at),
        }
    }

    /// The texture at a reference.
    pub fn texture(&self, at: ObjectRef) -> Option<&TextureEntry> {
        find_at(&self.textures, at, |t| t.at)
    }

    /// The material at a reference.
    pub fn material(&self, at: ObjectRef) -> Option<&MaterialEntry> {
        find_at(&self.materials, at, |m| m.at)
    }

    /// The sprite at a reference.
    pub fn sprite(&self, at: ObjectRef) -> Option<&SpriteEntry> {
        find_at(&self.sprites, at, |s| s.at)
    }

    /// The MonoScript at a reference.
    pub fn script(&self, at: ObjectRef) -> Option<&ScriptEntry> {
        find_at(&self.scripts, at, |s| s.at)
    }

    /// The main texture of a material, where it is loaded.
    pub fn material_texture(&self, material: &MaterialEntry) -> Option<&TextureEntry> {
        let slot = material.data.main_texture.as_ref()?;
        self.texture(self.resolve(material.at.file, slot.texture)?)
    }

    /// The texture a sprite cuts its image from, where it is loaded.
    pub fn sprite_texture(&self, sprite: &SpriteEntry) -> Option<&TextureEntry> {
        self.texture(self.resolve(sprite.at.file, sprite.data.texture)?)
    }

    /// The rigs humanoid clips can play on.
    pub fn humanoid_rigs(&self) -> impl Iterator<Item = (usize, &RigEntry)> {
        self.rigs
            .iter()
            .enumerate()
            .filter(|(_, r)| r.humanoid.is_some())
    }
}

/// Where the entry at `at` is in `items`, whose entries are in the order of their files
/// (each file's are added as it is merged, and files are numbered as they are added): found
/// by halving to `at`'s file, then within it, so that resolving every reference of a whole
/// game does not scan every entry each time. A reference to nothing loaded costs a halving
/// too, not a scan of every entry (which made a game's missing references quadratic).
pub(super) fn index_at<T>(
    items: &[T],
    at: ObjectRef,
    key: impl Fn(&T) -> ObjectRef,
) -> Option<usize> {
    let start = items.partition_point(|x| key(x).file < at.file);
    items[start..]
        .iter()
        .take_while(|x| key(x).file == at.file)
        .position(|x| key(x) == at)
        .map(|i| start + i)
}

/// Makes room for `more` entries in `list`, growing it by an eighth rather than doubling it
/// as `push` does: a whole game's lists of entries are the largest part of its index, and
/// doubling leaves up to half of each unused (a list of 19,000 clips held room for 32,768).
/// Large lists are reallocated in place (`mremap`), so the extra reallocations cost little.
pub(super) fn room<T>(list: &mut Vec<T>, more: usize) {
    if list.capacity() - list.len() < more {
        list.reserve_exact(more.max(list.len() / 8).max(16));
    }
}

/// The entry at `at` in `items` ([`index_at`]).
fn find_at<T>(items: &[T], at: ObjectRef, key: impl Fn(&T) -> ObjectRef) -> Option<&T> {
    index_at(items, at, key).and_then(|i| items.get(i))
}

/// Extracts every file of `list` on every core and hands each result to `take` in `list`'s
/// order as soon as it and those before it are done, so that what is held at once is the
/// files in flight (taken from the list in order) and the few finished ahead of an earlier
/// one, not every file's result: memory is bounded by the largest files, not the folder.
fn extract_in_order(
    list: &[(Arc<Path>, bool)],
    options: &OpenOptions,
    guids: &GuidIndexes,
    done: &AtomicUsize,
    total: &AtomicUsize,
    progress: &(impl Fn(usize, usize, &Path) + Sync),
    take: impl FnMut(usize, Extracted),
) {
    let extract = |(path, in_folder): &(Arc<Path>, bool)| {
        let found = extract::extract_path(path, *in_folder, options, guids);
        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
        progress(n, total.load(Ordering::Relaxed), path);
        found
    };
    ordered::par_in_order(
        rayon::current_num_threads(),
        list.iter().enumerate(),
        |(i, item), emit| emit(i, extract(item)),
        take,
    );
}

/// The files to open: each path, or every file below a folder (sorted), marked as found in
/// a folder.
fn expand(paths: &[PathBuf]) -> Vec<(Arc<Path>, bool)> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found = Vec::new();
            collect_files(path, &mut found, 0);
            found.sort();
            files.extend(found.into_iter().map(|f| (Arc::from(f), true)));
        } else {
            files.push((Arc::from(path.as_path()), false));
        }
    }
    files
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

#[cfg(test)]
mod size_tests {
    /// A whole game has tens of thousands of serialized files: each is held in 80 bytes
    /// (its summary in 40), where the written and used versions held apart, a `String` name
    /// and a `usize` count took 112.
    #[cfg(target_pointer_width = "64")]
    #[test]
    fn a_file_is_held_compactly() {
        assert_eq!(std::mem::size_of::<super::FileSummary>(), 40);
        assert_eq!(std::mem::size_of::<super::LoadedFile>(), 80);
    }
}
