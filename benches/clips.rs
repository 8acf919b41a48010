//! Decoding and sampling speed on real files (`cargo bench --bench clips`).
//!
//! Targets from the decoding issue: opening `moisture_animationreplacements` and decoding its
//! three clips in a few milliseconds; sampling a 130-curve clip at 1,000 times in under 2 ms
//! on one core; parsing the 700 KB text clip `Floss.anim` well under 50 ms. Needs
//! `../shared/data`.

use std::path::{Path, PathBuf};

use clipscope_core::sample::sample_clip;
use clipscope_core::{OpenOptions, Workspace, WrapMode};
use criterion::{Criterion, black_box, criterion_group, criterion_main};

fn data(rel: &str) -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(rel);
    if p.exists() {
        Some(p)
    } else {
        eprintln!("skipping: {} is missing", p.display());
        None
    }
}

fn bench(c: &mut Criterion) {
    let Some(path) = data("binary/wetboys_plateupemotesapi/moisture_animationreplacements") else {
        return;
    };
    let bytes = std::fs::read(&path).unwrap();
    c.bench_function("open and decode moisture_animationreplacements", |b| {
        b.iter(|| {
            let ws =
                Workspace::open_bytes(&path, black_box(bytes.clone()), &OpenOptions::default());
            assert_eq!(ws.clips.len(), 3);
            ws
        })
    });
    let Some(dance) = data("binary/wetboys_plateupemotesapi/customemotespackage") else {
        return;
    };
    let ws = Workspace::open(&[dance], &OpenOptions::default());
    let clip = ws.clips[0].data.as_ref().unwrap();
    assert_eq!(clip.curves.len(), 130);
    let times: Vec<f64> = (0..1000)
        .map(|i| i as f64 * clip.length() as f64 / 999.0)
        .collect();
    c.bench_function("sample 130-curve clip at 1000 times", |b| {
        b.iter(|| sample_clip(clip, black_box(&times), WrapMode::Loop))
    });
    c.bench_function("evaluate 130 curves at 1000 times (no report)", |b| {
        b.iter(|| {
            let mut sum = 0.0f32;
            for &t in &times {
                for curve in &clip.curves {
                    sum += curve.curve.sample(black_box(t as f32));
                }
            }
            sum
        })
    });
}

/// Parsing and decoding the 700 KB text clip `Floss.anim` (target: well under 50 ms).
fn bench_yaml(c: &mut Criterion) {
    let Some(path) = data("yaml/plateupemotesapi/Floss.anim") else {
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap();
    c.bench_function("parse and decode Floss.anim (YAML)", |b| {
        b.iter(|| {
            let contents = clipscope_core::yaml::read_yaml(&path, black_box(&text)).unwrap();
            let raw = contents.clips[0].clip.as_ref().unwrap();
            clipscope_core::decode_clip(raw, &contents.unity_version).unwrap()
        })
    });
}

criterion_group!(benches, bench, bench_yaml);
criterion_main!(benches);
