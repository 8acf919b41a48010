//! The shared real files (`../shared/data`), the `clipscope` binary, and the animator
//! reference's comparison.

pub mod reference;

use std::process::Command;

pub use clipscope_authoring::shared_data::*;

/// Runs the `clipscope` binary: (exit code, stdout, stderr).
pub fn clipscope(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
