//! The times two clips are compared at.
//!
//! Both clips' frame times (each at its own sample rate, counted from its own start) over the
//! union of their time ranges, the midpoints between neighbouring times (where linear frames
//! stray furthest from curved keys), and every key time of either side.

use crate::clip::ClipData;

/// Most frames taken from one clip, so that an absurd rate or length stays bounded.
pub const MAX_FRAMES: usize = 1_000_000;

/// Two times closer than this are one time.
const SAME_TIME: f64 = 1e-9;

/// The comparison grid for `a` and `b`, sorted, without duplicates.
pub fn comparison_times(a: &ClipData, b: &ClipData) -> Vec<f64> {
    let lo = (a.start.min(b.start)) as f64;
    let hi = (a.stop.max(b.stop)) as f64;
    let mut times = frames(a, lo, hi);
    times.extend(frames(b, lo, hi));
    times.push(lo);
    times.push(hi);
    sort_unique(&mut times);
    let midpoints: Vec<f64> = times.windows(2).map(|w| 0.5 * (w[0] + w[1])).collect();
    times.extend(midpoints);
    for clip in [a, b] {
        times.extend(
            clip.curves
                .iter()
                .flat_map(|c| c.curve.keys().iter().map(|k| k.time as f64))
                .filter(|t| t.is_finite()),
        );
    }
    sort_unique(&mut times);
    times
}

/// `clip`'s frame times `start + i / rate` that fall in `[lo, hi]`.
fn frames(clip: &ClipData, lo: f64, hi: f64) -> Vec<f64> {
    let (start, rate) = (clip.start as f64, clip.sample_rate as f64);
    if !(rate > 0.0 && rate.is_finite() && lo.is_finite() && hi.is_finite() && hi >= lo) {
        return Vec::new();
    }
    let first = ((lo - start) * rate - SAME_TIME).ceil();
    let last = ((hi - start) * rate + SAME_TIME).floor();
    if last.is_nan() || first.is_nan() || last < first {
        return Vec::new();
    }
    let count = ((last - first) as usize + 1).min(MAX_FRAMES);
    (0..count)
        .map(|i| start + (first + i as f64) / rate)
        .collect()
}

/// Sorts and drops times within [`SAME_TIME`] of the one before.
fn sort_unique(times: &mut Vec<f64>) {
    times.retain(|t| t.is_finite());
    times.sort_by(f64::total_cmp);
    times.dedup_by(|later, earlier| *later - *earlier < SAME_TIME);
}
