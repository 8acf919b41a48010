//! clipscope: open Unity's own files, decode their AnimationClips exactly, and evaluate them
//! the way Unity does.

pub mod authoring;
pub mod binary;
pub mod clip;
pub mod container;
pub mod curve;
pub mod hash;
pub mod serialized;
pub mod unity;

pub use clip::{ClipCurve, ClipData, GenericBinding, Storage, Track, decode_clip};
pub use curve::{Curve, Key, WrapMode};
pub use hash::path_hash;
pub mod error;
pub mod rig;
pub mod workspace;

pub use error::Error;
pub use workspace::{OpenOptions, Workspace};
pub mod sample;
