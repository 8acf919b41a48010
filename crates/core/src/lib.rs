//! clipscope's core: open Unity's own files, decode their AnimationClips exactly, and evaluate,
//! pose, check, diff, export and write them the way Unity does, with no Bevy and no CLI
//! dependencies.
//!
//! - [`container`], [`serialized`], [`unity`]: reading Unity's files into typed structs.
//! - [`clip`], [`curve`]: decoded clips and Unity's evaluation rules.
//! - [`rig`], [`workspace`]: skeletons, and sets of files with cross-file references;
//!   [`body`]: a rig's body at rest, what tolerances relative to its size are fractions of.
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
//! - [`output_file`]: whole output files written past the page cache when large.
//! - [`demo`]: the built-in demo bundle, embedded in every build.
//!
//! The other crates of the workspace: `clipscope-authoring` writes real Unity files (test
//! fixtures and the demo's source), `clipscope-bevy` is the Bevy plugin, and the `clipscope`
//! package is the command line and the viewer.

pub mod animator;
pub mod avatar;
pub mod behaviour;
pub mod binary;
pub mod blob;
pub mod body;
pub mod check;
pub mod clip;
pub mod container;
pub mod curve;
pub mod demo;
pub mod diff;
pub mod error;
pub mod export;
pub mod framing;
pub mod hash;
pub mod humanoid;
pub mod material;
pub mod mesh;
pub mod output_file;
pub mod playhead;
pub mod pose;
pub mod resource;
pub mod rig;
pub mod sample;
pub mod serialized;
pub mod texture;
pub mod timeline;
pub mod unity;
pub mod version;
pub mod workspace;
pub mod world;
pub mod yaml;
pub mod yaml_write;

pub use clip::{ClipCurve, ClipData, GenericBinding, Storage, Track, decode_clip};
pub use curve::{Curve, Key, WrapMode};
pub use error::Error;
pub use hash::path_hash;
pub use workspace::{Detail, OpenOptions, Workspace};
