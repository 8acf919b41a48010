//! Writes the viewer's built-in demo bundle to `crates/core/assets/demo.unity3d`, where the core
//! embeds it. Run it after changing `crates/authoring/src/demo.rs`, then commit the file (a test checks they agree):
//!
//! `cargo run --release --example make_demo`

use std::path::PathBuf;

fn main() -> std::io::Result<()> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("crates/core/assets/demo.unity3d");
    let bytes = clipscope_authoring::demo::demo_bytes();
    std::fs::create_dir_all(path.parent().expect("the path has a folder"))?;
    std::fs::write(&path, &bytes)?;
    println!("wrote {} ({} bytes)", path.display(), bytes.len());
    Ok(())
}
