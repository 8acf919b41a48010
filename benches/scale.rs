//! A whole game at once (`cargo bench --bench scale`): a folder of N copies of the shared
//! binary files (each copy under its own folder name, hard links where the file system
//! allows), opened by the `clipscope` binary as a user runs it: `list --json` and
//! `unity -o OUT`. For the folder and for the same folder at a tenth of its size it prints
//! the time, the megabytes of input a second per core, and the peak memory of the process
//! (its `ru_maxrss`, from `wait4`), and the ratios large/small: memory must not grow with
//! the folder (issue 40's goal: within 1.3x), and `unity` should read at least half as many
//! MB a second as `list`. `export`'s output grows with the folder (every copy's clips play
//! on the rig it picks), so its memory does too; what it must not hold is the rest of the
//! folder.
//!
//! `CLIPSCOPE_SCALE_MB` sets the large folder's size (default 1024 MB); `CLIPSCOPE_SCALE_UNITY=0`
//! leaves `unity` out (it writes about ten times its input as text), `CLIPSCOPE_SCALE_EXPORT=0`
//! leaves `export` out; `CLIPSCOPE_SCALE_OUT`
//! names the folder `unity` writes into (default: the temporary folder). Needs
//! `../shared/data`.

mod common;

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What one run of the binary took.
struct Run {
    wall: Duration,
    /// Peak resident memory, bytes.
    peak: u64,
}

/// Every file under `dir` (the shared binary files), with its path below `dir`.
fn files(dir: &Path) -> Vec<(PathBuf, u64)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            match e.metadata() {
                Ok(m) if m.is_dir() => stack.push(p),
                Ok(m) if m.is_file() && !p.to_string_lossy().ends_with(".tsv") => {
                    let rel = p.strip_prefix(dir).unwrap_or(&p).to_path_buf();
                    out.push((rel, m.len()));
                }
                _ => {}
            }
        }
    }
    out.sort();
    out
}

/// A folder of `copies` copies of `source`'s files; its size in bytes.
fn build(source: &Path, files: &[(PathBuf, u64)], dir: &Path, copies: usize) -> u64 {
    let _ = std::fs::remove_dir_all(dir);
    let mut size = 0;
    for copy in 0..copies {
        for (rel, len) in files {
            let to = dir.join(format!("copy{copy:04}")).join(rel);
            std::fs::create_dir_all(to.parent().unwrap()).expect("a folder");
            let from = source.join(rel);
            if std::fs::hard_link(&from, &to).is_err() {
                std::fs::copy(&from, &to).expect("a copy");
            }
            size += len;
        }
    }
    size
}

/// Runs `clipscope args…`, its output thrown away, and measures it. The child is reaped by
/// `wait4`, which also gives its own peak memory (`Child::wait` gives no usage).
#[allow(clippy::zombie_processes)]
fn run(args: &[&str]) -> Run {
    let start = Instant::now();
    let child = Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("clipscope runs");
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: the pid is our child's, and status and usage point at live values.
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    let wall = start.elapsed();
    assert_eq!(pid, child.id() as i32, "wait4");
    let status = std::process::ExitStatus::from_raw(status);
    assert!(
        status.code().is_some(),
        "clipscope {args:?} was killed: {status:?}"
    );
    Run {
        wall,
        peak: usage.ru_maxrss as u64 * 1024,
    }
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let Some(source) = common::data("binary") else {
        eprintln!("skipping: ../shared/data is missing");
        return;
    };
    let target_mb: f64 = std::env::var("CLIPSCOPE_SCALE_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1024.0);
    let with_unity = std::env::var("CLIPSCOPE_SCALE_UNITY").map_or(true, |v| v != "0");
    let with_export = std::env::var("CLIPSCOPE_SCALE_EXPORT").map_or(true, |v| v != "0");
    let files = files(&source);
    let one: u64 = files.iter().map(|(_, len)| len).sum();
    let large = ((target_mb * 1e6 / one as f64).ceil() as usize).max(10);
    let small = (large / 10).max(1);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let root = std::env::temp_dir().join(format!("clipscope-scale-{}", std::process::id()));
    // Where `unity` writes (its text is about ten times its input): the temporary folder
    // unless `CLIPSCOPE_SCALE_OUT` names another, to tell the disk's cost from clipscope's.
    let out_root =
        std::env::var_os("CLIPSCOPE_SCALE_OUT").map_or_else(|| root.clone(), PathBuf::from);
    println!(
        "one copy: {} files, {:.1} MB; {cores} cores",
        files.len(),
        mb(one)
    );
    let mut results = Vec::new();
    for (label, copies) in [("small", small), ("large", large)] {
        let dir = root.join(label);
        let size = build(&source, &files, &dir, copies);
        let d = dir.to_str().unwrap();
        let line = |command: &str, r: &Run| {
            let rate = mb(size) / r.wall.as_secs_f64() / cores as f64;
            println!(
                "{label} ({copies} copies, {:.0} MB): {command}: {:.1} s, {rate:.1} MB/s per core, peak {:.0} MB",
                mb(size),
                r.wall.as_secs_f64(),
                mb(r.peak)
            );
        };
        let list = run(&["list", d, "--json"]);
        line("list --json", &list);
        let unity = with_unity.then(|| {
            let out = out_root.join(format!(
                "clipscope-scale-{}-{label}-out",
                std::process::id()
            ));
            let r = run(&["unity", d, "-o", out.to_str().unwrap()]);
            line("unity", &r);
            r
        });
        if with_export {
            let glb = root.join(format!("{label}.glb"));
            let r = run(&["export", d, "-o", glb.to_str().unwrap()]);
            let written = std::fs::metadata(&glb).map_or(0, |m| m.len());
            line(&format!("export ({:.1} MB written)", mb(written)), &r);
        }
        results.push((size, list, unity));
    }
    // Removed only now: on a file system without a journal, ext4 skips inodes deleted in
    // the last seconds when it makes new files, one inode-table read each, so a folder of
    // thousands removed just before would slow the next run's file creation (by a third of
    // `unity`'s time here), measuring the bench's cleanup rather than clipscope.
    let _ = std::fs::remove_dir_all(&root);
    for label in ["small", "large"] {
        let out = out_root.join(format!(
            "clipscope-scale-{}-{label}-out",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(out);
    }
    let (small, large) = (&results[0], &results[1]);
    let growth = |a: &Run, b: &Run| b.peak as f64 / a.peak as f64;
    println!(
        "peak memory large/small: list {:.2} (goal <= 1.30)",
        growth(&small.1, &large.1)
    );
    if let (Some(a), Some(b)) = (&small.2, &large.2) {
        println!(
            "peak memory large/small: unity {:.2} (goal <= 1.30)",
            growth(a, b)
        );
        let speed = |r: &Run| large.0 as f64 / r.wall.as_secs_f64();
        println!(
            "unity reads {:.2} of list's MB a second on the large folder (goal >= 0.5)",
            speed(b) / speed(&large.1)
        );
    }
}
