//! The `clipscope` command line and, with the `viewer` feature (on by default), the viewer.
//! The libraries live under `crates/`: `clipscope-core` reads, evaluates, poses, checks,
//! exports and writes; `clipscope-bevy` is the Bevy plugin the viewer is built on.

mod cli;
#[cfg(feature = "viewer")]
mod viewer;

fn main() -> std::process::ExitCode {
    restore_sigpipe();
    cli::run()
}

/// Output piped into a command that stops reading (`clipscope list DIR | head`) ends the
/// program quietly, as other Unix tools do: Rust ignores SIGPIPE, so without this the next
/// `println!` after the reader has gone panics.
#[cfg(unix)]
fn restore_sigpipe() {
    // SAFETY: `signal` with the default disposition, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn restore_sigpipe() {}
