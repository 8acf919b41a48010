//! The `clipscope` command line and, with the `viewer` feature (on by default), the viewer.
//! The libraries live under `crates/`: `clipscope-core` reads, evaluates, poses, checks,
//! exports and writes; `clipscope-bevy` is the Bevy plugin the viewer is built on.

mod cli;
#[cfg(feature = "viewer")]
mod viewer;

fn main() -> std::process::ExitCode {
    restore_sigpipe();
    keep_large_buffers_off_the_heap();
    cli::run()
}

/// Gives buffers of 256 KiB and more (a file's bytes, a decompressed block, LZMA's
/// dictionary) pages of their own, returned to the system when they are freed, and lets the
/// heap keep up to 32 MiB free at its top.
///
/// glibc's default raises its threshold for such pages to the largest buffer freed so far,
/// so after the first large file every buffer lands on the heap among the index's small
/// entries, which outlive it; the holes left behind grew the memory of `list` over a whole
/// game by a third more than its index (1,000 copies of the shared files: 60 MB against
/// 44.5 MB for 100 copies, and 57 MB with these settings, at the same speed). The larger
/// trim threshold keeps the heap from being given back and faulted in again as files come
/// and go, which the fixed threshold would otherwise bring.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn keep_large_buffers_off_the_heap() {
    // SAFETY: `mallopt` only changes the allocator's parameters, before any other thread
    // exists; a refused value leaves the default.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 256 << 10);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 32 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn keep_large_buffers_off_the_heap() {}

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
