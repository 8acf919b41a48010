//! `.anim` and `.controller` writing throughput on the shared files (`cargo bench --bench
//! unity`): clips written per second, measured by reading back (the library's default), by
//! the keys (the CLI's default) and not measured, and
//! controllers (with their masks) per second, beside what `list` takes to open the same files
//! (the reference, measured in the same run). Needs `../shared/data`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clipscope_core::yaml_write::{Measure, NameBook, WriteOptions, write_anim, write_controller};
use clipscope_core::{OpenOptions, Workspace};
use criterion::{Criterion, black_box, criterion_group, criterion_main};

const FILES: &[&str] = &[
    "binary/wetboys_plateupemotesapi/customemotespackage",
    "binary/wetboys_plateupemotesapi/moisture_animationreplacements",
    "binary/lessscarymannequins/copy.bundle",
    "binary/resetanimator/WebPlayer.unity3d",
    "binary/duckhunted/WebPlayer.unity3d",
    "binary/day65platformer2d",
];

fn paths() -> Option<Vec<PathBuf>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    if !root.is_dir() {
        eprintln!("skipping: {} is missing", root.display());
        return None;
    }
    Some(FILES.iter().map(|f| root.join(f)).collect())
}

/// Writes every clip of the workspace; the number written.
fn write_all(ws: &Workspace, names: &NameBook, options: &WriteOptions) -> usize {
    ws.clips
        .iter()
        .filter_map(|c| write_anim(ws, names, c.at, options).ok())
        .inspect(|a| {
            black_box(a.text.len());
        })
        .count()
}

fn bench(c: &mut Criterion) {
    let Some(paths) = paths() else { return };
    let summaries = OpenOptions {
        detail: clipscope_core::Detail::Summary,
        ..Default::default()
    };
    c.bench_function("list: open the shared files for summaries", |b| {
        b.iter(|| Workspace::open(black_box(&paths), &summaries))
    });
    let ws = Workspace::open(&paths, &OpenOptions::default());
    let names = NameBook::build(&ws);
    let measured = WriteOptions::default();
    let keys = WriteOptions {
        measure: Measure::Keys,
        ..Default::default()
    };
    let unmeasured = WriteOptions {
        measure: Measure::Skip,
        ..Default::default()
    };
    c.bench_function("unity: write every clip, read back", |b| {
        b.iter(|| write_all(&ws, &names, &measured))
    });
    c.bench_function("unity: write every clip, keys measured", |b| {
        b.iter(|| write_all(&ws, &names, &keys))
    });
    c.bench_function("unity: write every clip, not measured", |b| {
        b.iter(|| write_all(&ws, &names, &unmeasured))
    });
    // The figure: clips per second and the ratio to list's time on the same files.
    let rounds = 5;
    let start = Instant::now();
    for _ in 0..rounds {
        black_box(Workspace::open(&paths, &summaries));
    }
    let list = start.elapsed().as_secs_f64() / f64::from(rounds);
    for (label, options) in [
        ("read back", &measured),
        ("keys measured, as the CLI", &keys),
        ("not measured", &unmeasured),
    ] {
        let start = Instant::now();
        let mut clips = 0;
        for _ in 0..rounds {
            clips = write_all(&ws, &names, options);
        }
        let write = start.elapsed().as_secs_f64() / f64::from(rounds);
        println!(
            "unity ({label}): {clips} clips in {:.2} ms = {:.0} clips/s; list of the same files {:.2} ms; write/list = {:.2}",
            write * 1e3,
            clips as f64 / write,
            list * 1e3,
            write / list
        );
    }
    let start = Instant::now();
    let mut controllers = 0;
    for _ in 0..rounds {
        controllers = write_controllers(&ws);
    }
    let write = start.elapsed().as_secs_f64() / f64::from(rounds);
    println!(
        "unity: {controllers} controllers in {:.3} ms = {:.0} controllers/s",
        write * 1e3,
        controllers as f64 / write
    );
}

/// Writes every controller of the workspace (text and masks); the number written.
fn write_controllers(ws: &Workspace) -> usize {
    (0..ws.controllers.len())
        .filter_map(|i| write_controller(ws, i).ok())
        .inspect(|c| {
            black_box(c.text.len());
        })
        .count()
}

criterion_group!(benches, bench);
criterion_main!(benches);
