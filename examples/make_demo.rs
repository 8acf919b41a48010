//! Writes the viewer's built-in demo bundle to `assets/demo.unity3d`, where the library embeds
//! it. Run it after changing `src/demo.rs`, then commit the file (a test checks they agree):
//!
//! `cargo run --release --example make_demo`

use std::path::PathBuf;

fn main() -> std::io::Result<()> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/demo.unity3d");
    let bytes = clipscope::demo::demo_bytes();
    std::fs::create_dir_all(path.parent().expect("the path has a folder"))?;
    std::fs::write(&path, &bytes)?;
    println!("wrote {} ({} bytes)", path.display(), bytes.len());
    Ok(())
}
