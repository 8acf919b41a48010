//! clipscope: open Unity's own files, decode their AnimationClips exactly, and evaluate and
//! play them the way Unity does.
//!
//! - [`container`], [`serialized`], [`unity`]: reading Unity's files into typed structs.
//! - [`clip`], [`curve`]: decoded clips and Unity's evaluation rules.
//! - [`rig`], [`workspace`]: skeletons, and sets of files with cross-file references.
//! - [`avatar`], [`humanoid`]: Avatars, and humanoid (muscle) clips posed on any humanoid rig.
//! - [`mesh`], [`material`], [`texture`], [`resource`]: the character's meshes, skins, blend
//!   shapes, materials and textures, with their stream data; [`behaviour`]: MonoBehaviours'
//!   scripts and fields (what names script curves).
//! - [`sample`], [`pose`]: whole-clip sampling and rigs posed by a clip (what `clipscope
//!   sample` and `clipscope pose` print); [`world`]: world transforms as Unity composes them.
//! - [`version`]: Unity version strings, and the version a file is read with.
//! - [`diff`]: two clips compared curve by curve (what `clipscope diff` prints).
//! - [`yaml_write`]: clips written back as Unity's text `.anim` files (what `clipscope unity`
//!   writes).
//! - `authoring` (feature `authoring`, on by default): writing real Unity bundles (test
//!   fixtures, the demo's source); `demo`: the built-in demo, embedded in every build.
//! - `plugin` (feature `bevy`): the Bevy plugin; `viewer` (feature `viewer`): the viewer.

pub mod animator;
#[cfg(feature = "authoring")]
pub mod authoring;
pub mod avatar;
pub mod behaviour;
pub mod binary;
pub mod blob;
pub mod check;
pub mod clip;
pub mod container;
pub mod curve;
pub mod demo;
#[cfg(feature = "authoring")]
pub mod demo_controller;
pub mod diff;
pub mod error;
pub mod export;
pub mod framing;
pub mod hash;
pub mod humanoid;
pub mod material;
pub mod mesh;
pub mod playhead;
#[cfg(feature = "bevy")]
pub mod plugin;
pub mod pose;
pub mod resource;
pub mod rig;
pub mod sample;
pub mod serialized;
pub mod texture;
pub mod timeline;
pub mod unity;
pub mod version;
#[cfg(feature = "viewer")]
pub mod viewer;
pub mod workspace;
pub mod world;
pub mod yaml;
pub mod yaml_write;

pub use clip::{ClipCurve, ClipData, GenericBinding, Storage, Track, decode_clip};
pub use curve::{Curve, Key, WrapMode};
pub use error::Error;
pub use hash::path_hash;
pub use workspace::{OpenOptions, Workspace};
