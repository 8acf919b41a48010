//! Key reduction for linear channels: keys are dropped while the linear path between the
//! kept keys (for rotations both slerp and Blender's per-component nlerp) stays within a
//! tolerance of every dropped sample.

use super::adaptive::path_within;
use super::evaluate::Path;

/// Longest run of samples one kept segment may span (bounds the cost of a check to this
/// many evaluations; a longer still run just keeps one more key).
const MAX_SPAN: usize = 512;

/// True when every sample strictly between `a` and `b` lies within `tolerance` of the
/// interpolation between them (rotations: slerp and Blender's nlerp, the keys as written).
fn spans(
    path: Path,
    times: &[f32],
    values: &[f32],
    w: usize,
    a: usize,
    b: usize,
    tol: f32,
) -> bool {
    let v = |k: usize| &values[k * w..(k + 1) * w];
    let (ta, tb) = (times[a], times[b]);
    let checks = (a + 1..b).map(|k| ((times[k] - ta) / (tb - ta), v(k)));
    path_within(path, v(a), v(b), false, checks, tol)
}

/// The indices of the samples to keep (always the first and the last). From each kept
/// key the next is the farthest sample found (doubling the span, then halving back) such
/// that the path to it passes within `tolerance` of every sample between: greedy, and
/// `O(n log n)` checks where re-checking every longer span would be quadratic.
pub fn reduce(
    path: Path,
    times: &[f32],
    values: &[f32],
    width: usize,
    tolerance: f32,
) -> Vec<usize> {
    let n = times.len();
    if n <= 2 {
        return (0..n).collect();
    }
    let ok = |a: usize, b: usize| spans(path, times, values, width, a, b, tolerance);
    let mut keep = vec![0];
    let mut a = 0;
    while a < n - 1 {
        let last = (n - 1).min(a + MAX_SPAN);
        // The longest doubling span that holds, and the first that does not.
        let (mut good, mut bad) = (a + 1, None);
        let mut step = 2;
        while good < last {
            let next = (a + step).min(last);
            if ok(a, next) {
                good = next;
                step *= 2;
            } else {
                bad = Some(next);
                break;
            }
        }
        if let Some(mut bad) = bad {
            while bad - good > 1 {
                let mid = good + (bad - good) / 2;
                if ok(a, mid) {
                    good = mid;
                } else {
                    bad = mid;
                }
            }
        }
        keep.push(good);
        a = good;
    }
    keep
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_straight_line_keeps_its_ends_and_a_corner_keeps_its_corner() {
        let times: Vec<f32> = (0..11).map(|i| i as f32 * 0.1).collect();
        let line: Vec<f32> = times.iter().map(|t| 2.0 * t).collect();
        assert_eq!(reduce(Path::Weights, &times, &line, 1, 1e-4), [0, 10]);
        let corner: Vec<f32> = times.iter().map(|t| (t - 0.5).abs()).collect();
        assert_eq!(reduce(Path::Weights, &times, &corner, 1, 1e-4), [0, 5, 10]);
    }

    #[test]
    fn every_dropped_sample_stays_within_the_tolerance() {
        let times: Vec<f32> = (0..200).map(|i| i as f32 / 60.0).collect();
        let values: Vec<f32> = times.iter().map(|t| (3.0 * t).sin()).collect();
        // Linear error of sin(3t) over a span h is about 9h²/8: spans near 0.09 s.
        let kept = reduce(Path::Scale, &times, &values, 1, 1e-2);
        assert!(kept.len() < 60 && kept.len() > 20, "{}", kept.len());
        for pair in kept.windows(2) {
            assert!(spans(
                Path::Scale,
                &times,
                &values,
                1,
                pair[0],
                pair[1],
                1e-2
            ));
        }
    }
}
