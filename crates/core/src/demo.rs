//! The viewer's built-in demo: a small humanoid rig and seven legacy clips that show what
//! clipscope decodes: the loop, ping-pong, clamp-forever and once wrap modes, smooth Hermite,
//! stepped and weighted keys, quaternion and Euler rotations.
//!
//! The demo is a genuine Unity file (a UnityFS bundle for 2020.3 with LZ4 blocks) that
//! `clipscope-authoring` writes from the description in its `demo::demo_bundle`, so opening
//! it goes through the same reader as any file from a game. `cargo run --release --example
//! make_demo` writes it to `crates/core/assets/demo.unity3d`, which is embedded as [`DEMO`] in
//! every build: the viewer needs no download, and a test checks that the committed file is
//! exactly what the authoring crate generates.
//!
//! Coordinates are Unity's: metres, +Y up, +Z forward; the character faces +Z, so its left is
//! -X. Every rest rotation is the identity (arms hanging, legs straight). A positive turn about
//! X swings a hanging limb backwards and tips the head forwards; a positive turn about Z tilts a
//! joint's up axis towards the character's left; a positive turn about Y turns it to its right.

/// The file name the embedded demo is opened under (what the viewer shows for it).
pub const DEMO_FILE_NAME: &str = "clipscope-demo.unity3d";

/// The demo bundle as committed in `assets/demo.unity3d`; equal to `clipscope_authoring::demo::demo_bytes()`.
pub static DEMO: &[u8] = include_bytes!("../assets/demo.unity3d");
