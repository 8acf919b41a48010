//! The `clipscope` command line and, with the `viewer` feature (on by default), the viewer.
//! The libraries live under `crates/`: `clipscope-core` reads, evaluates, poses, checks,
//! exports and writes; `clipscope-bevy` is the Bevy plugin the viewer is built on.

mod cli;
#[cfg(feature = "viewer")]
mod viewer;

fn main() -> std::process::ExitCode {
    cli::run()
}
