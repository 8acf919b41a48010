//! Adaptive sampling of linear channels: between two samples, the exact pose is evaluated
//! at the interval's quarter points and the interval is split where the path a player
//! takes between the two samples leaves the tolerance, recursively down to [`FLOOR`].
//!
//! "The path" is both ways players interpolate a linear rotation channel: slerp (glTF's
//! rule, Bevy, three.js) and the per-component linear quaternion curves Blender's importer
//! writes (a normalised lerp, [`nlerp`]). Translations, scales and weights are lerped.

use std::collections::HashSet;

use super::evaluate::{Path, Slerp, angle_between, nlerp};

/// Shortest interval split, in seconds: 25 µs. A clip whose pose turns a corner between
/// keys (a humanoid limb reaching its muscle's limit, a broken tangent) moves the hand's
/// path by a quarter of the slope's change times the interval there: 2.4 m/s of change
/// in a real dance clip needs keys this close to stay within 1e-4 of a small body.
pub const FLOOR: f32 = 2.5e-5;

/// Most frames one clip may sample (each holds every linear channel's value).
pub const MAX_FRAMES: usize = 200_000;

/// The share of the tolerance sampling and key reduction keep to, so that the path also
/// stays within the tolerance between the points they check (where the report measures).
pub const MARGIN: f32 = 0.5;

/// One channel's place in a sampled row.
#[derive(Clone, Copy, Debug)]
pub struct Part {
    pub path: Path,
    pub offset: usize,
    pub width: usize,
    /// In the channel's own units (a translation's: its parent's), margin applied.
    pub tolerance: f32,
}

/// The samples: sorted clip times, each with one row of every channel's values.
#[derive(Clone, Debug, Default)]
pub struct Sampled {
    pub times: Vec<f32>,
    pub rows: Vec<Vec<f32>>,
    /// An interval at the floor (or past the frame budget) still left the tolerance.
    pub unreached: bool,
}

impl Sampled {
    /// Channel `part`'s values at every sample, side by side.
    pub fn column(&self, part: &Part) -> Vec<f32> {
        let mut out = Vec::with_capacity(self.rows.len() * part.width);
        for row in &self.rows {
            match row.get(part.offset..part.offset + part.width) {
                Some(v) => out.extend_from_slice(v),
                None => out.extend(std::iter::repeat_n(0.0, part.width)),
            }
        }
        out
    }
}

/// The error, in the channel's units, of the interpolation of `a` and `b` at fraction `s`
/// against `exact`: for rotations the larger of slerp's and nlerp's (`b` taken on `a`'s
/// hemisphere when `align`, as consecutive samples are written).
pub fn path_error(path: Path, a: &[f32], b: &[f32], s: f32, exact: &[f32], align: bool) -> f32 {
    match path {
        Path::Rotation => {
            let (qa, qb) = rotation_ends(a, b, align);
            rotation_error(qa, qb, &Slerp::new(qa, qb), s, exact)
        }
        Path::Translation => {
            if a.len() != exact.len() || b.len() != exact.len() {
                return f32::INFINITY;
            }
            let lerped = lerp(a, b, s).zip(exact).map(|(v, e)| (v - e) * (v - e));
            lerped.sum::<f32>().sqrt()
        }
        Path::Scale | Path::Weights => {
            if a.len() != exact.len() || b.len() != exact.len() {
                return f32::INFINITY;
            }
            let lerped = lerp(a, b, s).zip(exact).map(|(v, e)| (v - e).abs());
            lerped.fold(0.0, f32::max)
        }
    }
}

/// True when [`path_error`] is within `tolerance` at every `(fraction, exact)` check, the
/// rotation's arc computed once for all of them.
pub fn path_within<'e>(
    path: Path,
    a: &[f32],
    b: &[f32],
    align: bool,
    mut checks: impl Iterator<Item = (f32, &'e [f32])>,
    tolerance: f32,
) -> bool {
    if path == Path::Rotation {
        let (qa, qb) = rotation_ends(a, b, align);
        let arc = Slerp::new(qa, qb);
        let bound = AngleBound::new(tolerance);
        return checks.all(|(s, exact)| {
            let Ok(exact) = <[f32; 4]>::try_from(exact) else {
                return false;
            };
            bound.holds(arc.at(s), exact) && bound.holds(nlerp(qa, qb, s), exact)
        });
    }
    checks.all(|(s, exact)| path_error(path, a, b, s, exact, align) <= tolerance)
}

/// "The angle between two unit quaternions is at most `tolerance`", without the angle:
/// `4·atan(|a − b| / |a + b|) ≤ tol` is `|a − b|² ≤ tan²(tol / 4)·|a + b|²` (on the nearer
/// hemisphere), which needs neither a square root nor an arc tangent.
struct AngleBound {
    tolerance: f32,
    /// `tan²(tolerance / 4)`, when the tolerance is below a full turn.
    chord: Option<f32>,
}

impl AngleBound {
    fn new(tolerance: f32) -> AngleBound {
        let quarter = tolerance / 4.0;
        let chord = (0.0..std::f32::consts::FRAC_PI_2)
            .contains(&quarter)
            .then(|| {
                let k = quarter.tan();
                k * k
            });
        AngleBound { tolerance, chord }
    }

    fn holds(&self, a: [f32; 4], b: [f32; 4]) -> bool {
        let (mut apart, mut together) = (0.0f32, 0.0f32);
        for (x, y) in a.iter().zip(&b) {
            apart += (x - y) * (x - y);
            together += (x + y) * (x + y);
        }
        let (near, far) = (apart.min(together), apart.max(together));
        match self.chord {
            Some(k2) if far > 0.0 && far.is_finite() && near.is_finite() => near <= k2 * far,
            _ => unit_angle(a, b) <= self.tolerance,
        }
    }
}

/// The two ends of a rotation path (`b` on `a`'s hemisphere when `align`).
fn rotation_ends(a: &[f32], b: &[f32], align: bool) -> ([f32; 4], [f32; 4]) {
    let qa: [f32; 4] = a.try_into().unwrap_or([0.0, 0.0, 0.0, 1.0]);
    let mut qb: [f32; 4] = b.try_into().unwrap_or(qa);
    if align && qa.iter().zip(&qb).map(|(x, y)| x * y).sum::<f32>() < 0.0 {
        qb = qb.map(|c| -c);
    }
    (qa, qb)
}

/// [`path_error`] of a rotation from `qa` to `qb` (`arc` their slerp).
fn rotation_error(qa: [f32; 4], qb: [f32; 4], arc: &Slerp, s: f32, exact: &[f32]) -> f32 {
    let Ok(exact) = <[f32; 4]>::try_from(exact) else {
        return f32::INFINITY;
    };
    let slerped = unit_angle(arc.at(s), exact);
    let nlerped = unit_angle(nlerp(qa, qb, s), exact);
    slerped.max(nlerped)
}

/// The angle between two rotations given as (near) unit quaternions, in f32:
/// `4·atan(|a − b| / |a + b|)` on one hemisphere (precise near 0, where it matters here),
/// as [`angle_between`] gives it for unit quaternions, without its normalisation.
fn unit_angle(a: [f32; 4], b: [f32; 4]) -> f32 {
    let dot: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
    let sign = if dot < 0.0 { -1.0 } else { 1.0 };
    let (mut minus, mut plus) = (0.0f32, 0.0f32);
    for (x, y) in a.iter().zip(&b) {
        minus += (x - sign * y) * (x - sign * y);
        plus += (x + sign * y) * (x + sign * y);
    }
    let (minus, plus) = (minus.sqrt(), plus.sqrt());
    if !(minus.is_finite() && plus.is_finite()) || (plus == 0.0 && minus == 0.0) {
        return angle_between(&a, &b);
    }
    // atan(x) = x − x³/3 + O(x⁵), exact to f32 below 1e-2 (and much cheaper).
    let x = minus / plus;
    if plus > 0.0 && x < 1e-2 {
        4.0 * x * (1.0 - x * x / 3.0)
    } else {
        4.0 * minus.atan2(plus)
    }
}

fn lerp<'v>(a: &'v [f32], b: &'v [f32], s: f32) -> impl Iterator<Item = f32> + 'v {
    a.iter().zip(b).map(move |(x, y)| x + (y - x) * s)
}

/// True when every channel's path from row `a` to row `b` passes within its tolerance of
/// the exact rows at the given fractions.
fn within<'r>(parts: &[Part], a: &'r [f32], b: &'r [f32], checks: &[(f32, &'r [f32])]) -> bool {
    parts.iter().all(|p| {
        let at = |row: &'r [f32]| row.get(p.offset..p.offset + p.width).unwrap_or(&[]);
        let checks = checks.iter().map(|(s, row)| (*s, at(row)));
        path_within(p.path, at(a), at(b), true, checks, p.tolerance)
    })
}

/// What refinement reads and writes.
struct Refiner<'f, F: Fn(f32) -> Vec<f32>> {
    row_of: &'f F,
    parts: &'f [Part],
    out: Vec<(f32, Vec<f32>)>,
    unreached: bool,
    budget: usize,
}

impl<F: Fn(f32) -> Vec<f32>> Refiner<'_, F> {
    /// Checks `[ta, tb]` (its midpoint row `mid` when known) and splits it where needed;
    /// every row it evaluates is kept as a sample.
    fn interval(&mut self, ta: f32, a: &[f32], tb: f32, b: &[f32], mid: Option<Vec<f32>>) {
        let h = tb - ta;
        if h.is_nan() || h < FLOOR {
            if let Some(m) = mid {
                self.out.push((ta + h / 2.0, m));
            }
            return;
        }
        let (t1, t2, t3) = (ta + h / 4.0, ta + h / 2.0, ta + 3.0 * h / 4.0);
        let r2 = mid.unwrap_or_else(|| (self.row_of)(t2));
        let r1 = (self.row_of)(t1);
        let r3 = (self.row_of)(t3);
        let ok = within(
            self.parts,
            a,
            b,
            &[
                (0.25, r1.as_slice()),
                (0.5, r2.as_slice()),
                (0.75, r3.as_slice()),
            ],
        );
        let can_split = h / 2.0 >= FLOOR && self.out.len() + 8 < self.budget;
        if ok || !can_split {
            self.unreached |= !ok;
            self.out.extend([(t1, r1), (t2, r2), (t3, r3)]);
            return;
        }
        self.interval(ta, a, t2, &r2, Some(r1));
        self.interval(t2, &r2, tb, b, Some(r3));
        self.out.push((t2, r2));
    }
}

/// Refines the samples `times` (sorted) with their `rows`: `row_of(t)` evaluates the exact
/// row at clip time `t`. An interval starting at one of `holds` (the sample just before a
/// key, where a value Unity holds up to the key jumps by design) is left as it is.
pub fn refine<F: Fn(f32) -> Vec<f32>>(
    row_of: &F,
    parts: &[Part],
    times: Vec<f32>,
    rows: Vec<Vec<f32>>,
    holds: &HashSet<u32>,
) -> Sampled {
    let mut refiner = Refiner {
        row_of,
        parts,
        out: Vec::with_capacity(times.len() * 4),
        unreached: false,
        budget: MAX_FRAMES,
    };
    if !parts.is_empty() {
        for (w, r) in times.windows(2).zip(rows.windows(2)) {
            if !holds.contains(&w[0].to_bits()) {
                refiner.interval(w[0], &r[0], w[1], &r[1], None);
            }
        }
    }
    let unreached = refiner.unreached;
    let mut all = refiner.out;
    all.extend(times.into_iter().zip(rows));
    all.sort_by(|a, b| a.0.total_cmp(&b.0));
    all.dedup_by(|b, a| b.0 == a.0);
    let (times, rows) = all.into_iter().unzip();
    Sampled {
        times,
        rows,
        unreached,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turning(t: f32, speed: f32) -> Vec<f32> {
        let (s, c) = (0.5 * speed * t).sin_cos();
        vec![0.0, s, 0.0, c]
    }

    /// A joint turning at a constant 1.3 turns a second, sampled at 1 Hz: slerp between the
    /// two samples turns a short way, nlerp likewise, neither follows the turn; refinement
    /// splits until both paths do.
    #[test]
    fn a_fast_turn_between_sparse_samples_is_split_until_both_paths_follow_it() {
        let speed = 1.3 * 2.0 * std::f32::consts::PI;
        let parts = [Part {
            path: Path::Rotation,
            offset: 0,
            width: 4,
            tolerance: 1e-3,
        }];
        let row_of = |t: f32| turning(t, speed);
        let times = vec![0.0, 1.0];
        let rows = times.iter().map(|&t| row_of(t)).collect();
        let sampled = refine(&row_of, &parts, times, rows, &HashSet::new());
        assert!(!sampled.unreached);
        assert!(sampled.times.len() > 20, "{}", sampled.times.len());
        // Between any two neighbours, at any fraction, both paths are within tolerance.
        for (w, r) in sampled.times.windows(2).zip(sampled.rows.windows(2)) {
            for s in [0.1f32, 0.37, 0.5, 0.9] {
                let t = w[0] + (w[1] - w[0]) * s;
                let e = path_error(Path::Rotation, &r[0], &r[1], s, &row_of(t), true);
                assert!(e <= 2e-3, "{t}: {e}");
            }
        }
    }

    #[test]
    fn the_quick_angle_agrees_with_angle_between() {
        let a = [0.1f32, -0.7, 0.2, 0.6];
        let len = a.iter().map(|c| c * c).sum::<f32>().sqrt();
        let a = a.map(|c| c / len);
        for (axis, angle) in [(0usize, 1e-4f32), (1, 1e-3), (2, 0.3), (0, 3.0)] {
            let (s, c) = (angle / 2.0).sin_cos();
            let mut d = [0.0, 0.0, 0.0, c];
            d[axis] = s;
            // a · d: turned by `angle`.
            let b = [
                a[3] * d[0] + a[0] * d[3] + a[1] * d[2] - a[2] * d[1],
                a[3] * d[1] - a[0] * d[2] + a[1] * d[3] + a[2] * d[0],
                a[3] * d[2] + a[0] * d[1] - a[1] * d[0] + a[2] * d[3],
                a[3] * d[3] - a[0] * d[0] - a[1] * d[1] - a[2] * d[2],
            ];
            let quick = unit_angle(a, b);
            assert!(
                (quick - angle_between(&a, &b)).abs() < 2e-6,
                "{angle}: {quick}"
            );
            assert!(
                (quick - angle).abs() < 2e-6 + 1e-6 * angle,
                "{angle}: {quick}"
            );
            assert_eq!(unit_angle(a, b.map(|c| -c)), quick);
        }
    }

    #[test]
    fn the_angle_bound_agrees_with_the_angle() {
        let a = [0.1f32, -0.7, 0.2, 0.6];
        let len = a.iter().map(|c| c * c).sum::<f32>().sqrt();
        let a = a.map(|c| c / len);
        for angle in [1e-5f32, 4e-4, 5e-4, 6e-4, 1e-2, 0.5, 3.0] {
            let (s, c) = (angle / 2.0).sin_cos();
            let b = slerp_turn(a, s, c);
            for tolerance in [5e-4f32, 1e-3, 0.4, 7.0] {
                let bound = AngleBound::new(tolerance);
                let want = angle_between(&a, &b) <= tolerance;
                // Away from the edge (f32 rounding), the bound decides as the angle does.
                if (angle - tolerance).abs() > 1e-5 {
                    assert_eq!(bound.holds(a, b), want, "{angle} {tolerance}");
                    assert_eq!(bound.holds(a, b.map(|c| -c)), want, "{angle} {tolerance}");
                }
            }
        }
        assert!(!AngleBound::new(1e-3).holds(a, [f32::NAN; 4]));
    }

    /// `a` turned about Y by the angle whose half has sine `s` and cosine `c`.
    fn slerp_turn(a: [f32; 4], s: f32, c: f32) -> [f32; 4] {
        let d = [0.0, s, 0.0, c];
        [
            a[3] * d[0] + a[0] * d[3] + a[1] * d[2] - a[2] * d[1],
            a[3] * d[1] - a[0] * d[2] + a[1] * d[3] + a[2] * d[0],
            a[3] * d[2] + a[0] * d[1] - a[1] * d[0] + a[2] * d[3],
            a[3] * d[3] - a[0] * d[0] - a[1] * d[1] - a[2] * d[2],
        ]
    }

    #[test]
    fn a_jump_inside_the_floor_is_reported_as_unreached() {
        let parts = [Part {
            path: Path::Weights,
            offset: 0,
            width: 1,
            tolerance: 1e-4,
        }];
        let row_of = |t: f32| vec![if t < 0.3 { 0.0 } else { 1.0 }];
        let times = vec![0.0, 1.0];
        let rows = times.iter().map(|&t| row_of(t)).collect();
        let sampled = refine(&row_of, &parts, times, rows, &HashSet::new());
        assert!(sampled.unreached);
        // The split narrows down on the jump: samples lie within the floor around 0.3.
        let before = sampled.times.iter().rev().find(|&&t| t < 0.3).unwrap();
        let after = sampled.times.iter().find(|&&t| t >= 0.3).unwrap();
        assert!(after - before <= FLOOR, "{before} {after}");
    }
}
