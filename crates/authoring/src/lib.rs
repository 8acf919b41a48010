//! Writing real Unity files: UnityFS AssetBundles holding AnimationClips and a small rig, and
//! ([`unityfs`]) archives in every layout clipscope reads.
//!
//! Tests need edge-case clips that no real file contains, and the viewer's built-in demo must be
//! a genuine Unity-format file. This crate turns plain descriptions ([`Bundle`]) into the bytes
//! of a UnityFS bundle with one serialized file, using rabex's writer and the type trees of its
//! embedded TPK for the chosen [`UnityTarget`]. It is a dev-dependency of the other clipscope
//! crates (their fixtures), and writes the built-in demo ([`demo`], [`demo_controller`]);
//! [`shared_data`] finds the shared real Unity files the tests read.
//!
//! # Object layout
//!
//! Path ids are assigned deterministically, counting from 1:
//! 1. the clips, in [`Bundle::clips`] order;
//! 2. one GameObject per rig joint, in joint order;
//! 3. one Transform per rig joint, in joint order;
//! 4. the rig's component (Animator or Animation), on joint 0's GameObject;
//! 5. the Animator's Avatar, when it has one ([`RigComponent::AnimatorWithAvatar`]; the id
//!    is kept free when it has none);
//! 6. per renderer ([`RigSpec::renderers`]), its Mesh, MeshFilter, MeshRenderer and Material;
//! 7. per behaviour `i` ([`Bundle::behaviours`]), its MonoScript at `1_000_000 + 2i` and its
//!    MonoBehaviour at the next id (apart from the rest, as real files' ids are).
//!
//! There is no AssetBundle (class 142) object: readers that list a file's objects find the
//! clips directly, but Unity's own `AssetBundle.LoadFromFile` would not accept the bundle.
//!
//! Every field the description does not cover gets the value Unity writes for a plain generic
//! clip or a freshly added component (see `clip.rs`, `muscle.rs`, `rig.rs` and `renderer.rs`).

mod avatar;
mod behaviour;
mod classes;
mod clip;
pub mod controller;
pub mod controller_cases;
pub mod demo;
pub mod demo_controller;
pub mod fixtures;
pub mod gltf_validator;
mod legacy;
mod muscle;
mod renderer;
mod rig;
pub mod shared_data;
mod spec;
mod target;
#[cfg(test)]
mod tests;
pub mod tree;
pub mod unityfs;
mod yaml_anim;

use std::io::Cursor;
use std::sync::OnceLock;

use rabex::UnityVersion;
use rabex::files::bundlefile::{BundleFileBuilder, CompressionType};
use rabex::files::serializedfile::builder::{self, SerializedFileBuilder};
use rabex::files::serializedfile::{SerializedType, build_common_offset_map};
use rabex::objects::ClassId;
use rabex::objects::pptr::PathId;
use rabex::tpk::TpkTypeTreeBlob;
use rabex::typetree::TypeTreeProvider;
use rabex::typetree::typetree_cache::TypeTreeCache;

pub use avatar::{AvatarSpec, AxesSpec, HumanSpec, SkeletonSpec, XformSpec};
pub use clip::streamed_words;
pub use spec::{
    BehaviourSpec, Binding, Bundle, ClipSpec, Compression, Dense, Event, FieldSpec, FloatCurve,
    Frame, Joint, KeySpec, KeyValue, LegacyClip, MecanimClip, PathCurve, RendererSpec,
    RigComponent, RigSpec, UnityTarget,
};

pub use yaml_anim::{EditorSettings, legacy_anim_yaml};

use rig::{ComponentObject, RigObjects};

/// Why a bundle could not be written.
#[derive(Debug, thiserror::Error)]
pub enum AuthoringError {
    /// A Unity 6 streamed count does not fit its `u16` field.
    #[error("clip {clip:?}: {field} = {value} does not fit Unity 6's u16 field")]
    CountOverflow {
        /// The clip's name.
        clip: String,
        /// `curveCount` or `discreteCurveCount`.
        field: &'static str,
        /// The requested count.
        value: u32,
    },
    /// The rig is malformed (no root, parent after child, unknown clip index).
    #[error("invalid rig: {0}")]
    InvalidRig(String),
    /// rabex could not serialize an object against its type tree, or write the file.
    #[error("writing the serialized file: {0}")]
    Serialize(#[from] builder::Error),
    /// A version text [`write_serialized_as`] cannot put down: shorter than the target's
    /// version plus two characters, or holding a NUL.
    #[error(
        "cannot write the Unity version {0:?} (it must be at least two characters longer than the target's)"
    )]
    VersionText(String),
    /// Writing the bundle failed.
    #[error("writing the bundle: {0}")]
    Io(#[from] std::io::Error),
}

/// Writes `bundle` as a UnityFS AssetBundle (format 7 for Unity 2020, 8 for Unity 6) holding one
/// serialized file named `CAB-<32 hex digits>`, the digits derived from the file's content.
pub fn write_bundle(bundle: &Bundle) -> Result<Vec<u8>, AuthoringError> {
    bundle_of(bundle, write_serialized(bundle)?)
}

/// The UnityFS bundle around one serialized file, as [`write_bundle`] writes it.
fn bundle_of(bundle: &Bundle, serialized: Vec<u8>) -> Result<Vec<u8>, AuthoringError> {
    let mut builder =
        BundleFileBuilder::unityfs(bundle.target.bundle_format(), &version(bundle.target));
    let data_compression = match bundle.compression {
        Compression::None => {
            builder.set_header_compression(CompressionType::None);
            CompressionType::None
        }
        Compression::Lz4 => CompressionType::Lz4,
        Compression::Lzma => CompressionType::Lzma,
    };
    builder.add_file(&cab_name(&serialized), Cursor::new(serialized))?;
    let mut out = Cursor::new(Vec::new());
    builder.write(&mut out, data_compression)?;
    Ok(out.into_inner())
}

/// Writes `bundle` as a bare serialized file (what a bundle's `CAB-…` entry holds, or a
/// `.assets` file); [`Bundle::compression`] does not apply.
pub fn write_serialized(bundle: &Bundle) -> Result<Vec<u8>, AuthoringError> {
    write_serialized_with(bundle, &version(bundle.target), None, &[])
}

/// [`write_serialized`] with `version` in the header and choosing the type trees.
/// `controller`, when given, goes after everything else (the next free path id), and
/// `overrides` after it.
fn write_serialized_with(
    bundle: &Bundle,
    version: &UnityVersion,
    controller: Option<&controller::AnimatorController>,
    overrides: &[controller::AnimatorOverrideController],
) -> Result<Vec<u8>, AuthoringError> {
    let target = bundle.target;
    let version = version.clone();
    let tpk = embedded_tpk();
    let type_trees = TypeTreeCache::new(tpk);
    let common_strings = build_common_offset_map(tpk, &version);
    let mut file =
        SerializedFileBuilder::new(&version, &type_trees, &common_strings, bundle.type_trees);

    let ids = PathIds::new(bundle);
    for (index, spec) in bundle.clips.iter().enumerate() {
        file.add_object_at(ids.clip(index), &clip::build_clip(spec, target)?)?;
    }
    if let Some(rig) = &bundle.rig {
        add_rig(&mut file, rig::build_rig(rig, target, &ids)?, &ids)?;
        if let RigComponent::AnimatorWithAvatar(spec) = &rig.component {
            file.add_object_at(ids.avatar(), &avatar::build_avatar(spec, target)?)?;
        }
        add_renderers(&mut file, rig, &ids, &version, bundle.type_trees)?;
    }
    add_behaviours(&mut file, bundle, &ids, &version)?;
    if let Some(c) = controller {
        file.add_object_at(ids.next_free(bundle), c)?;
    }
    for (i, o) in overrides.iter().enumerate() {
        file.add_object_at(ids.next_free(bundle) + 1 + i as PathId, o)?;
    }
    Ok(file.write_vec()?)
}

/// [`write_serialized`] with `written` as the Unity version in the file's header, verbatim:
/// forms rabex's writer cannot print (a China release such as `2020.3.26f1c1`, a second line).
/// Layouts stay those of [`Bundle::target`]. The file is written with a placeholder version of
/// the same length (the target's, with a `-x…` suffix) that is then overwritten, so every
/// offset and alignment stays Unity's; `written` must therefore be at least two characters
/// longer than the target's version.
pub fn write_serialized_as(bundle: &Bundle, written: &str) -> Result<Vec<u8>, AuthoringError> {
    let target = bundle.target.version();
    let fill = written
        .len()
        .checked_sub(target.len() + 1)
        .filter(|&n| n > 0 && !written.contains('\0'))
        .ok_or_else(|| AuthoringError::VersionText(written.to_owned()))?;
    let placeholder = format!("{target}-{}", "x".repeat(fill));
    let version: UnityVersion = placeholder
        .parse()
        .map_err(|_| AuthoringError::VersionText(written.to_owned()))?;
    let mut bytes = write_serialized_with(bundle, &version, None, &[])?;
    let needle = [placeholder.as_bytes(), b"\0"].concat();
    let at = bytes
        .windows(needle.len())
        .position(|w| w == needle)
        .ok_or_else(|| AuthoringError::VersionText(written.to_owned()))?;
    bytes[at..at + written.len()].copy_from_slice(written.as_bytes());
    Ok(bytes)
}

/// Adds the rig's objects at their path ids.
fn add_rig<P: TypeTreeProvider>(
    file: &mut SerializedFileBuilder<'_, P>,
    rig: RigObjects,
    ids: &PathIds,
) -> Result<(), AuthoringError> {
    for (index, game_object) in rig.game_objects.iter().enumerate() {
        file.add_object_at(ids.game_object(index), game_object)?;
    }
    for (index, transform) in rig.transforms.iter().enumerate() {
        file.add_object_at(ids.transform(index), transform)?;
    }
    match &rig.component {
        ComponentObject::Animator(animator) => file.add_object_at(ids.component(), animator)?,
        ComponentObject::Animation(animation) => file.add_object_at(ids.component(), animation)?,
    }
    Ok(())
}

/// Adds each renderer's Mesh, MeshFilter, MeshRenderer and Material, written field by field
/// against `version`'s type trees ([`tree`]); each class's type is added once.
fn add_renderers<P: TypeTreeProvider>(
    file: &mut SerializedFileBuilder<'_, P>,
    rig: &RigSpec,
    ids: &PathIds,
    version: &UnityVersion,
    type_trees: bool,
) -> Result<(), AuthoringError> {
    if rig.renderers.is_empty() {
        return Ok(());
    }
    let mut types = Vec::new();
    for class in renderer::CLASSES {
        let (node, type_id) = add_engine_type(file, class, version, type_trees)?;
        types.push((class, node, type_id));
    }
    for (index, spec) in rig.renderers.iter().enumerate() {
        let game_object = ids.game_object(spec.joint);
        for (class, path_id, value) in renderer::objects(spec, game_object, ids.renderer(index)) {
            let Some((_, node, type_id)) = types.iter().find(|(c, ..)| *c == class) else {
                continue;
            };
            let bytes = tree::object_bytes(node, &value);
            file.add_object_untyped_with(path_id, ClassId(class), *type_id, bytes.into())?;
        }
    }
    Ok(())
}

/// The release tree of `class` for `version`, added to the file's types (embedded when
/// `type_trees`).
fn add_engine_type<P: TypeTreeProvider>(
    file: &mut SerializedFileBuilder<'_, P>,
    class: i32,
    version: &UnityVersion,
    type_trees: bool,
) -> Result<(rabex::typetree::TypeTreeNode, i32), AuthoringError> {
    let node = engine_tree(class, version)?;
    let type_id = file.add_type_uncached(SerializedType {
        m_ClassID: ClassId(class),
        m_OldTypeHash: node.hash(),
        m_Type: type_trees.then(|| node.clone()),
        ..SerializedType::default()
    });
    Ok((node, type_id))
}

/// The release tree of `class` for `version` from the embedded package.
fn engine_tree(
    class: i32,
    version: &UnityVersion,
) -> Result<rabex::typetree::TypeTreeNode, AuthoringError> {
    embedded_tpk()
        .get_typetree_node(ClassId(class), version)
        .ok_or_else(|| {
            builder::Error::SerializedFile(rabex::files::serializedfile::Error::NoTypetree(
                ClassId(class),
            ))
            .into()
        })
}

/// Adds each behaviour's MonoScript and MonoBehaviour; each behaviour gets a type of its own
/// (its script's tree), as Unity gives each script one.
fn add_behaviours<P: TypeTreeProvider>(
    file: &mut SerializedFileBuilder<'_, P>,
    bundle: &Bundle,
    ids: &PathIds,
    version: &UnityVersion,
) -> Result<(), AuthoringError> {
    if bundle.behaviours.is_empty() {
        return Ok(());
    }
    let (script_tree, script_type) = add_engine_type(file, 115, version, bundle.type_trees)?;
    let base = engine_tree(114, version)?;
    for (index, spec) in bundle.behaviours.iter().enumerate() {
        let (script, object) = behaviour_path_ids(index);
        let value = behaviour::script_value(spec);
        let bytes = tree::object_bytes(&script_tree, &value);
        file.add_object_untyped_with(script, ClassId(115), script_type, bytes.into())?;
        let own = behaviour::behaviour_tree(&base, spec);
        let type_id = file.add_monobehaviour_type(
            rabex::objects::PPtr::new(0.into(), script),
            bundle.type_trees.then(|| own.clone()),
        );
        let game_object = spec.joint.map(|j| ids.game_object(j));
        let value = behaviour::behaviour_value(spec, game_object, script);
        let bytes = tree::object_bytes(&own, &value);
        file.add_object_untyped_with(object, ClassId(114), type_id, bytes.into())?;
    }
    Ok(())
}

/// The path-id plan described in the module docs.
pub(crate) struct PathIds {
    clips: usize,
    joints: usize,
}

impl PathIds {
    fn new(bundle: &Bundle) -> Self {
        PathIds {
            clips: bundle.clips.len(),
            joints: bundle.rig.as_ref().map_or(0, |rig| rig.joints.len()),
        }
    }

    /// The ids of renderer `index`'s objects (after the avatar's).
    pub(crate) fn renderer(&self, index: usize) -> renderer::RendererIds {
        renderer::RendererIds::from(self.avatar() + 1 + 4 * index as PathId)
    }

    pub(crate) fn clip_count(&self) -> usize {
        self.clips
    }

    pub(crate) fn clip(&self, index: usize) -> PathId {
        1 + index as PathId
    }

    pub(crate) fn game_object(&self, joint: usize) -> PathId {
        1 + (self.clips + joint) as PathId
    }

    pub(crate) fn transform(&self, joint: usize) -> PathId {
        1 + (self.clips + self.joints + joint) as PathId
    }

    pub(crate) fn component(&self) -> PathId {
        1 + (self.clips + 2 * self.joints) as PathId
    }

    pub(crate) fn avatar(&self) -> PathId {
        self.component() + 1
    }

    /// The first path id after the clips and the rig's objects.
    fn next_free(&self, bundle: &Bundle) -> PathId {
        match bundle.rig.as_ref().map(|r| &r.component) {
            None => self.clip(self.clips),
            Some(RigComponent::AnimatorWithAvatar(_)) => self.avatar() + 1,
            Some(_) => self.component() + 1,
        }
    }
}

/// The path ids of [`Bundle::behaviours`]`[index]`: (its MonoScript, its MonoBehaviour).
/// The path id the next object after `bundle`'s own gets (a controller written with it).
pub fn next_free_path_id(bundle: &Bundle) -> PathId {
    PathIds::new(bundle).next_free(bundle)
}

pub fn behaviour_path_ids(index: usize) -> (PathId, PathId) {
    let script = 1_000_000 + 2 * index as PathId;
    (script, script + 1)
}

/// The engine version of `target`, parsed for rabex.
fn version(target: UnityTarget) -> UnityVersion {
    target
        .version()
        .parse()
        .expect("the target versions are valid Unity version strings")
}

/// rabex's embedded type-tree package, decompressed once per process.
fn embedded_tpk() -> &'static TpkTypeTreeBlob {
    static TPK: OnceLock<TpkTypeTreeBlob> = OnceLock::new();
    TPK.get_or_init(TpkTypeTreeBlob::embedded)
}

/// `CAB-` and 32 hex digits hashed from `data` (two FNV-1a 64 passes with different seeds), so
/// the same description always gives the same bundle.
fn cab_name(data: &[u8]) -> String {
    let fnv = |seed: u64| {
        data.iter().fold(seed, |hash, &byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
        })
    };
    format!(
        "CAB-{:016x}{:016x}",
        fnv(0xcbf2_9ce4_8422_2325),
        fnv(0x6c62_272e_07bb_0142)
    )
}
