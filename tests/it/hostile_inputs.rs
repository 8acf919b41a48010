//! Every shared Unity file, truncated and with random bytes flipped, must open to a result or
//! an error: never a panic that escapes the library, never a hang.

use crate::common;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use clipscope_core::sample::sample_clip;
use clipscope_core::{OpenOptions, Workspace, WrapMode};

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(root).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files(&path));
        } else if path.extension().is_none_or(|e| e != "tsv" && e != "md") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// Opens bytes and samples every clip that decodes at a few awkward times; true on success
/// or a clean error, false when something panicked.
fn survives(name: &Path, bytes: Vec<u8>) -> bool {
    catch_unwind(AssertUnwindSafe(|| {
        let ws = Workspace::open_bytes(name, bytes, &OpenOptions::default());
        for clip in ws.clips.iter().filter_map(|c| c.data.as_ref().ok()) {
            let times = [f64::NAN, -1e30, 0.0, 0.5, 1e30, f64::INFINITY];
            let _ = sample_clip(clip, &times, WrapMode::PingPong);
        }
    }))
    .is_ok()
}

#[test]
fn truncated_and_corrupted_files_never_panic() {
    let Some(root) = common::data("binary") else {
        return;
    };
    let mut rng = Rng(0x5eed_c11b_5c0b_e000);
    let mut runs = 0;
    for path in files(&root) {
        let original = std::fs::read(&path).unwrap();
        for i in 0..48 {
            let len = original.len() * i / 48;
            assert!(
                survives(&path, original[..len].to_vec()),
                "{} truncated to {len} bytes",
                path.display()
            );
            runs += 1;
        }
        for _ in 0..1000 {
            let mut bytes = original.clone();
            let flips = 1 + rng.below(4);
            // Half the flips land in the first 4 KiB, where headers and tables live.
            for _ in 0..flips {
                let span = if rng.below(2) == 0 {
                    bytes.len().min(4096)
                } else {
                    bytes.len()
                };
                let at = rng.below(span);
                bytes[at] ^= 1 << rng.below(8);
            }
            assert!(
                survives(&path, bytes),
                "{} with flipped bytes (seed state {:#x})",
                path.display(),
                rng.0
            );
            runs += 1;
        }
    }
    assert!(runs > 3000, "only {runs} runs");
}

#[test]
fn corrupted_text_project_files_never_panic() {
    let Some(root) = common::data("yaml") else {
        return;
    };
    let mut rng = Rng(0x7e47_5eed_0000_0001);
    let mut runs = 0;
    for path in files(&root)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e != "txt"))
    {
        let original = std::fs::read(&path).unwrap();
        for i in 0..12 {
            let len = original.len() * i / 12;
            assert!(
                survives(&path, original[..len].to_vec()),
                "{} truncated to {len} bytes",
                path.display()
            );
            runs += 1;
        }
        for _ in 0..40 {
            let mut bytes = original.clone();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(bytes.len());
                bytes[at] = b" :-[]{}\n0123456789.abc!&*"[rng.below(24)];
            }
            assert!(
                survives(&path, bytes),
                "{} with changed bytes (seed state {:#x})",
                path.display(),
                rng.0
            );
            runs += 1;
        }
    }
    assert!(runs > 1000, "only {runs} runs");
}

#[test]
fn the_command_line_exits_0_or_1_on_corrupted_files() {
    let Some(root) = common::data("binary") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("clipscope-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0xc11_0000_5eed);
    for path in files(&root) {
        let original = std::fs::read(&path).unwrap();
        for n in 0..6 {
            let mut bytes = original.clone();
            if n == 0 {
                bytes.truncate(original.len() / 3);
            }
            for _ in 0..1 + rng.below(4) {
                let span = bytes.len().min(4096);
                let at = rng.below(span);
                bytes[at] ^= 1 << rng.below(8);
            }
            let target = dir.join(format!(
                "case-{n}-{}",
                path.file_name().unwrap().to_string_lossy()
            ));
            std::fs::write(&target, &bytes).unwrap();
            let (code, _, err) = common::clipscope(&["list", target.to_str().unwrap()]);
            assert!(
                code == 0 || code == 1,
                "{}: exit {code}: {err}",
                target.display()
            );
            assert!(!err.contains("panicked"), "{}: {err}", target.display());
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A 100,000-key streamed curve decodes and samples at 100,000 times with the right values.
/// (No timing is asserted: a quadratic key lookup would turn this into an hour-long run.)
#[test]
fn hundred_thousand_key_curves_decode_and_sample() {
    use clipscope_core::clip::streamed::{ValueKind, decode};
    use clipscope_core::curve::Curve;
    const KEYS: usize = 100_000;
    let mut words = vec![(-f32::MAX).to_bits(), 1, 0, 0, 0, 0, 0];
    for k in 0..KEYS {
        // Keys at irregular times (so the segment guess often misses) with constant segments.
        let t = k as f32 * 0.01 + if k % 3 == 0 { 0.004 } else { 0.0 };
        words.extend([
            t.to_bits(),
            1,
            0,
            0f32.to_bits(),
            0f32.to_bits(),
            0f32.to_bits(),
            (k as f32).to_bits(),
        ]);
    }
    words.extend([f32::INFINITY.to_bits(), 0]);
    let decoded = decode(&words, 1, |_| ValueKind::Cubic).expect("decodes");
    let curve = Curve::from_keys(decoded.curves.into_iter().next().unwrap());
    assert_eq!(curve.keys().len(), KEYS + 1);
    let mut rng = Rng(0x100_000);
    for _ in 0..KEYS {
        let k = rng.below(KEYS);
        let t = curve.keys()[k + 1].time;
        assert_eq!(curve.sample(t), k as f32, "at key {k}");
    }
}

/// A text clip whose ignored fields nest aliases ten deep (a billion scalars once expanded)
/// fails with an error, quickly and in little memory; its file still opens.
#[test]
fn yaml_alias_bombs_are_refused() {
    let mut text = String::from(
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!74 &7400000\nAnimationClip:\n  m_Name: bomb\n  l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n",
    );
    for level in 1..10 {
        let refs = vec![format!("*l{}", level - 1); 10].join(", ");
        text.push_str(&format!("  l{level}: &l{level} [{refs}]\n"));
    }
    text.push_str("  m_SampleRate: 60\n");
    let ws = Workspace::open_bytes(
        Path::new("bomb.anim"),
        text.into_bytes(),
        &OpenOptions::default(),
    );
    let problems: Vec<String> = ws
        .errors
        .iter()
        .map(ToString::to_string)
        .chain(
            ws.clips
                .iter()
                .filter_map(|c| c.data.as_ref().err().map(ToString::to_string)),
        )
        .collect();
    assert!(
        problems.iter().any(|p| p.contains("bomb.anim")),
        "{problems:?}"
    );
    assert!(ws.clips.iter().all(|c| c.data.is_err()), "{problems:?}");
}

/// A 30,000-key text curve reads completely: the parser's budget grows with the document.
#[test]
fn large_text_clips_read_completely() {
    const KEYS: usize = 30_000;
    let mut text = String::from(
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!74 &7400000\nAnimationClip:\n  m_Name: long\n  m_SampleRate: 60\n  m_FloatCurves:\n  - curve:\n      m_Curve:\n",
    );
    for k in 0..KEYS {
        text.push_str(&format!(
            "      - serializedVersion: 3\n        time: {}\n        value: {k}\n        inSlope: 0\n        outSlope: 0\n        tangentMode: 0\n        weightedMode: 0\n        inWeight: 0.33333334\n        outWeight: 0.33333334\n",
            k as f32 / 60.0
        ));
    }
    text.push_str("      m_PreInfinity: 2\n      m_PostInfinity: 2\n    attribute: m_Alpha\n    path: a\n    classID: 1\n");
    let ws = Workspace::open_bytes(
        Path::new("long.anim"),
        text.into_bytes(),
        &OpenOptions::default(),
    );
    let clip = ws.clips[0].data.as_ref().expect("decodes");
    let curve = &clip.curves[0].curve;
    assert_eq!(curve.keys().len(), KEYS);
    assert_eq!(curve.sample(12_345.0 / 60.0), 12_345.0);
}
