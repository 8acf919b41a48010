//! Key reduction for linear channels: keys are dropped while the linear path (slerp for
//! rotations) between the kept keys stays within a tolerance of every dropped sample.

use super::evaluate::{Path, angle_between, distance, max_abs_diff, slerp};

/// Longest run of samples one kept segment may span (bounds the cost of a check to this
/// many evaluations; a longer still run just keeps one more key).
const MAX_SPAN: usize = 512;

/// The error of `sample` against the path's interpolation of `a` and `b` at fraction `s`.
fn error(path: Path, a: &[f32], b: &[f32], s: f32, sample: &[f32]) -> f32 {
    match path {
        Path::Rotation => {
            let qa: [f32; 4] = a.try_into().unwrap_or([0.0, 0.0, 0.0, 1.0]);
            let qb: [f32; 4] = b.try_into().unwrap_or(qa);
            angle_between(&slerp(qa, qb, s), sample)
        }
        Path::Translation => {
            let v: Vec<f32> = a.iter().zip(b).map(|(x, y)| x + (y - x) * s).collect();
            distance(&v, sample)
        }
        Path::Scale | Path::Weights => {
            let v: Vec<f32> = a.iter().zip(b).map(|(x, y)| x + (y - x) * s).collect();
            max_abs_diff(&v, sample)
        }
    }
}

/// True when every sample strictly between `a` and `b` lies within `tolerance` of the
/// interpolation between them.
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
    (a + 1..b).all(|k| {
        let s = (times[k] - ta) / (tb - ta);
        error(path, v(a), v(b), s, v(k)) <= tol
    })
}

/// The indices of the samples to keep (always the first and the last).
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
    let mut keep = vec![0];
    let mut a = 0;
    let mut b = 1;
    while b < n - 1 {
        let next = b + 1;
        if next - a <= MAX_SPAN && spans(path, times, values, width, a, next, tolerance) {
            b = next;
        } else {
            keep.push(b);
            a = b;
            b = a + 1;
        }
    }
    keep.push(n - 1);
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
