//! The file layer's speed and memory (`cargo bench --bench containers`), each against a
//! reference measured in the same run:
//!
//! 1. LZMA: `clipscope list --json` on an LZMA bundle (the whole process) against liblzma's
//!    own time for the bundle's blocks. Goal: at most 1.3x. The bundles are the real
//!    `morbman` (0.7 MB of data) and, since the shared files are small, one like a default
//!    LZMA build of a character: the shared bundles' serialized files and 12 MB of stream
//!    data in one LZMA block.
//! 2. A folder: `clipscope list --json` on a folder of many real files with both cores
//!    against one (`taskset -c 0`). Goal: at least 1.6x faster.
//! 3. Memory: the heap peak of `Workspace::open` (as `list` opens: clip summaries) on a folder
//!    of N copies of a real bundle against one copy, counted by this binary's allocator, with
//!    every core and with one. Goal: within 1.5x.
//!
//! Needs `../shared/data`.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use clipscope_authoring::unityfs::{ArchiveEntry, ArchiveLayout, write_archive};
use clipscope_core::container::bundle::BlocksInfo;
use clipscope_core::container::codec::{self, Codec};
use clipscope_core::container::{self as containers};
use clipscope_core::{OpenOptions, Workspace};
use common::{data, median};

/// The system allocator, counting the bytes in use and their peak.
struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = IN_USE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const BUNDLES: [&str; 4] = [
    "binary/wetboys_plateupemotesapi/customemotespackage",
    "binary/wetboys_plateupemotesapi/moisture_animationreplacements",
    "binary/wetboys_plateupemotesapi/morbman",
    "binary/lessscarymannequins/copy.bundle",
];

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("clipscope-bench-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `clipscope list --json` on `path`, optionally pinned to one core.
fn list(path: &Path, one_core: bool) {
    let exe = env!("CARGO_BIN_EXE_clipscope");
    let mut cmd = if one_core {
        let mut c = Command::new("taskset");
        c.args(["-c", "0", exe]);
        c
    } else {
        Command::new(exe)
    };
    let out = cmd
        .args(["list", "--json"])
        .arg(path)
        .output()
        .expect("clipscope runs");
    assert!(
        !out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// liblzma's time for every block of a bundle, decompressed into one buffer.
fn lzma_blocks(bytes: &[u8]) -> impl FnMut() + '_ {
    let (info, start) = blocks(bytes);
    let mut out = vec![0u8; info.uncompressed_size() as usize];
    move || {
        let (mut at, mut to) = (start, 0usize);
        for b in &info.blocks {
            let (src, dst) = (
                &bytes[at..at + b.compressed_size as usize],
                &mut out[to..to + b.uncompressed_size as usize],
            );
            codec::decompress_into(b.codec().unwrap(), src, dst).unwrap();
            at += b.compressed_size as usize;
            to += b.uncompressed_size as usize;
        }
    }
}

fn blocks(bytes: &[u8]) -> (BlocksInfo, usize) {
    containers::bundle::locate_blocks(bytes).expect("a readable bundle")
}

/// Stream data as a mesh or texture stores it: 3 million floats of a smooth signal with a
/// little noise, quantized as vertex data is; LZMA shrinks it about 4.6 times, as it does
/// real bundles.
fn stream_data() -> Vec<u8> {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    (0..3_000_000u32)
        .flat_map(|i| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let noise = (seed >> 40) as f64 / (1u64 << 24) as f64 * 0.01;
            let t = f64::from(i);
            let v = (t * 0.0007).sin() * 3.0 + (t * 0.013).sin() * 0.5 + noise;
            (((v * 1024.0).round() / 1024.0) as f32).to_le_bytes()
        })
        .collect()
}

/// A bundle like a default (LZMA) build of a character: the shared bundles' serialized files
/// and 12 MB of stream data in one LZMA block.
fn big_lzma_bundle() -> Option<Vec<u8>> {
    let mut files = Vec::new();
    for rel in BUNDLES {
        let opened = containers::open(std::fs::read(data(rel)?).ok()?).ok()?;
        files.extend(opened.files.into_iter().chain(opened.resources));
    }
    let stream = stream_data();
    let mut entries: Vec<ArchiveEntry> = files
        .iter()
        .map(|f| ArchiveEntry {
            path: &f.name,
            data: &f.bytes,
            flags: 4,
        })
        .collect();
    entries.push(ArchiveEntry {
        path: "CAB-stream.resS",
        data: &stream,
        flags: 0,
    });
    let layout = ArchiveLayout {
        block_codec: Codec::Lzma,
        ..ArchiveLayout::new(7)
    };
    Some(write_archive(&entries, &layout))
}

fn lzma_ratio(name: &str, path: &Path) {
    let bytes = std::fs::read(path).unwrap();
    let mut reference = lzma_blocks(&bytes);
    let (info, _) = blocks(&bytes);
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        ours.push(median(3, || list(path, false)));
        theirs.push(median(3, &mut reference));
    }
    ours.sort_unstable();
    theirs.sort_unstable();
    let (o, t) = (ours[2], theirs[2]);
    println!(
        "{name}: {:.1} MB of LZMA blocks; `clipscope list --json` {:.0} ms, liblzma alone {:.0} ms: ratio {:.2} (goal <= 1.3)",
        info.uncompressed_size() as f64 / 1e6,
        o.as_secs_f64() * 1e3,
        t.as_secs_f64() * 1e3,
        o.as_secs_f64() / t.as_secs_f64()
    );
}

/// A folder of `copies` copies of each real bundle and web player file.
fn folder(name: &str, rels: &[&str], copies: usize) -> Option<PathBuf> {
    let dir = scratch(name);
    for rel in rels {
        let src = data(rel)?;
        for i in 0..copies {
            let file = format!("{}-{i}", src.file_name()?.to_string_lossy());
            std::fs::copy(&src, dir.join(file)).ok()?;
        }
    }
    Some(dir)
}

fn folder_speedup() {
    let mut rels = BUNDLES.to_vec();
    rels.extend([
        "binary/duckhunted/WebPlayer.unity3d",
        "binary/resetanimator/WebPlayer.unity3d",
    ]);
    let Some(dir) = folder("speedup", &rels, 5) else {
        return;
    };
    let (mut both, mut one) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        both.push(median(3, || list(&dir, false)));
        one.push(median(3, || list(&dir, true)));
    }
    both.sort_unstable();
    one.sort_unstable();
    let (b, o) = (both[2], one[2]);
    println!(
        "folder of {} real files: both cores {:.0} ms, one core (taskset -c 0) {:.0} ms: speedup {:.2} (goal >= 1.6)",
        rels.len() * 5,
        b.as_secs_f64() * 1e3,
        o.as_secs_f64() * 1e3,
        o.as_secs_f64() / b.as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Heap peak of opening `dir` as `list` does, and what the workspace keeps, both above what
/// was in use before.
fn heap_peak(dir: &Path) -> (usize, usize) {
    let options = OpenOptions {
        detail: clipscope_core::Detail::Summary,
        ..OpenOptions::default()
    };
    let base = IN_USE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let ws = Workspace::open(&[dir.to_path_buf()], &options);
    assert!(ws.errors.is_empty());
    let peak = PEAK.load(Ordering::Relaxed) - base;
    let kept = IN_USE.load(Ordering::Relaxed) - base;
    drop(ws);
    (peak, kept)
}

fn memory() {
    for rel in [
        "binary/wetboys_plateupemotesapi/moisture_animationreplacements",
        "binary/wetboys_plateupemotesapi/morbman",
    ] {
        let name = Path::new(rel)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let (Some(one), Some(many)) = (folder("one", &[rel], 1), folder("many", &[rel], 100))
        else {
            return;
        };
        // With every core (as `list` runs), then with one file in flight at a time: the
        // difference is the second file in flight.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        for threads in [cores, 1] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let ((p1, k1), (pn, kn)) = pool.install(|| (heap_peak(&one), heap_peak(&many)));
            println!(
                "{name}, {threads} file(s) in flight: heap peak of opening 1 copy {:.2} MB, 100 copies {:.2} MB: ratio {:.2} (goal <= 1.5); kept per file {:.1} KB",
                p1 as f64 / 1e6,
                pn as f64 / 1e6,
                pn as f64 / p1 as f64,
                kn.saturating_sub(k1) as f64 / 99.0 / 1e3,
            );
        }
        let _ = std::fs::remove_dir_all(one);
        let _ = std::fs::remove_dir_all(many);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--list") {
        return;
    }
    // `-- lzma`, `-- folder` or `-- memory` runs only those parts.
    let parts = ["lzma", "folder", "memory"];
    let wanted = |part: &str| {
        !args.iter().any(|a| parts.contains(&a.as_str())) || args.iter().any(|a| a == part)
    };
    let Some(morbman) = data("binary/wetboys_plateupemotesapi/morbman") else {
        eprintln!("skipping: ../shared/data is missing");
        return;
    };
    if wanted("lzma") {
        lzma_ratio("morbman (real)", &morbman);
        if let Some(big) = big_lzma_bundle() {
            let dir = scratch("big");
            let path = dir.join("big.bundle");
            std::fs::write(&path, big).unwrap();
            lzma_ratio("shared serialized files + 12 MB stream data", &path);
            let _ = std::fs::remove_dir_all(dir);
        }
    }
    if wanted("folder") {
        folder_speedup();
    }
    if wanted("memory") {
        memory();
    }
}
