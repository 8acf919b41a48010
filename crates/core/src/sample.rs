//! Sampling a whole clip at given times: what `clipscope sample` prints.
//!
//! Values are Unity's raw values in Unity's coordinates (no conversion), one series per scalar
//! curve, after mapping each time through a wrap mode. Times are rounded to f32 first, as
//! Unity computes in f32.

use serde::Serialize;

use crate::clip::ClipData;
use crate::curve::WrapMode;

/// One curve's samples.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CurveSamples {
    /// Global curve index.
    pub index: usize,
    /// `streamed`, `dense`, `constant` or `legacy`.
    pub storage: &'static str,
    /// Path hash of the binding (CRC-32 of the path string for legacy curves).
    pub path: u32,
    pub type_id: i32,
    pub attribute: u32,
    /// The curve's place within its binding.
    pub component: u8,
    /// `None` for values that are not finite (JSON has no NaN).
    pub values: Vec<Option<f64>>,
}

/// The whole report, in the field order `clipscope sample --json` prints.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SampleReport {
    pub clip: String,
    pub legacy: bool,
    pub start: f64,
    pub stop: f64,
    pub sample_rate: f64,
    pub wrap: String,
    pub times: Vec<f64>,
    pub curves: Vec<CurveSamples>,
    pub warnings: Vec<String>,
}

/// Every frame from the clip's start at its sample rate, then the stop time.
pub fn frame_times(clip: &ClipData) -> Vec<f64> {
    let start = clip.start as f64;
    let stop = clip.stop as f64;
    let rate = clip.sample_rate as f64;
    let mut times = Vec::new();
    if !(rate > 0.0 && stop >= start) {
        return vec![start];
    }
    let frames = ((stop - start) * rate).floor().min(1e6) as usize;
    for i in 0..=frames {
        let t = start + i as f64 / rate;
        if t < stop - 1e-6 {
            times.push(t);
        }
    }
    times.push(stop);
    times
}

/// Clip time sampled at requested time `t` under `wrap` (times are on the clip's time axis).
pub fn wrapped_time(clip: &ClipData, wrap: WrapMode, t: f64) -> f32 {
    let t = t as f32;
    wrap.map_time(t - clip.start, clip.start, clip.stop)
}

/// Samples every curve of `clip` at `times` under `wrap`.
pub fn sample_clip(clip: &ClipData, times: &[f64], wrap: WrapMode) -> SampleReport {
    let mapped: Vec<f32> = times.iter().map(|&t| wrapped_time(clip, wrap, t)).collect();
    let curves = clip
        .curves
        .iter()
        .enumerate()
        .map(|(index, c)| {
            let binding = clip.binding_of(index);
            CurveSamples {
                index,
                storage: c.storage.name(),
                path: binding.map_or(0, |b| b.path),
                type_id: binding.map_or(0, |b| b.type_id),
                attribute: binding.map_or(0, |b| b.attribute),
                component: c.component,
                values: mapped
                    .iter()
                    .map(|&t| Some(c.curve.sample(t) as f64).filter(|v| v.is_finite()))
                    .collect(),
            }
        })
        .collect();
    let mut warnings = clip.warnings.clone();
    let unbound = clip.curves.iter().filter(|c| c.binding.is_none()).count();
    if unbound > 0 {
        warnings.push(format!(
            "{unbound} curves have no binding (path, type_id and attribute are 0)"
        ));
    }
    SampleReport {
        clip: clip.name.clone(),
        legacy: clip.legacy,
        start: clip.start as f64,
        stop: clip.stop as f64,
        sample_rate: clip.sample_rate as f64,
        wrap: wrap.name().to_string(),
        times: times.to_vec(),
        curves,
        warnings,
    }
}
