//! A humanoid fixture clip and its mirrored twin, written as a 2020.3 bundle: `Wave` holds
//! every body and finger muscle away from zero and the body off the origin and turned;
//! `Wave Mirrored` holds the same curves with the importer's "Mirror" (`m_Mirror`) set.
#![allow(dead_code)]

use std::path::PathBuf;

use clipscope::authoring::{Binding, Bundle, ClipSpec, MecanimClip, UnityTarget, write_bundle};
use clipscope::humanoid::MUSCLE_COUNT;

/// Humanoid curve slots (`unity-semantics.md` A6): RootT.xyz, RootQ.xyzw, muscle 0.
pub const ROOT_T: usize = 7;
pub const ROOT_Q: usize = 10;
pub const MUSCLES: usize = 42;

/// Every body and finger muscle away from zero (each its own value, up to ±0.6), the body
/// off the origin and turned (about 36° of yaw, a little pitch and roll): (slot, value).
pub fn twin_values() -> Vec<(usize, f32)> {
    let q = [0.08f32, 0.31, -0.04, 0.95];
    let n = q.iter().map(|v| v * v).sum::<f32>().sqrt();
    let mut values = vec![(ROOT_T, 0.12), (ROOT_T + 1, 0.93), (ROOT_T + 2, -0.05)];
    values.extend((0..4).map(|k| (ROOT_Q + k, q[k] / n)));
    values.extend((0..MUSCLE_COUNT).map(|m| (MUSCLES + m, 0.6 * (1.3 * m as f32 + 0.7).sin())));
    values
}

/// A humanoid clip holding `values` (constant curves bound to the Animator), 1 s long.
pub fn humanoid_clip(name: &str, values: &[(usize, f32)], mirror: bool) -> ClipSpec {
    let mut clip = MecanimClip::new(name);
    clip.settings.mirror = mirror;
    clip.bindings = values
        .iter()
        .map(|&(slot, _)| Binding {
            path: 0,
            attribute: slot as u32,
            type_id: 95,
            custom_type: 8,
            ..Default::default()
        })
        .collect();
    clip.constants = values.iter().map(|&(_, v)| v).collect();
    ClipSpec::Mecanim(clip)
}

/// The fixture bundle (`Wave` and its mirrored twin `Wave Mirrored`) written to a folder.
pub fn fixture(name: &str) -> PathBuf {
    let values = twin_values();
    let mut bundle = Bundle::new(UnityTarget::Unity2020);
    bundle.clips = vec![
        humanoid_clip("Wave", &values, false),
        humanoid_clip("Wave Mirrored", &values, true),
    ];
    let dir = std::env::temp_dir().join(format!("clipscope-mirror-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("wave.bundle");
    std::fs::write(&path, write_bundle(&bundle).unwrap()).unwrap();
    path
}
