//! Unity's weighted (Bezier) key segments.
//!
//! A weighted segment is a cubic Bezier in both normalized time and value. Its time control
//! points are `0, w1, 1 - w2, 1`, so finding the value at a time means solving the cubic
//! `x(u) = s` for the curve parameter `u` first. Unity does that with Cardano's formula in
//! `f32`, with fixed thresholds and a fixed order of trying roots; this module repeats those
//! steps (unity-semantics.md A1) so the chosen root, and therefore the value, is Unity's.

use std::f32::consts::PI;

/// Below this magnitude a polynomial coefficient counts as zero (Unity's threshold).
const COEFFICIENT_EPSILON: f32 = 1e-3;

/// The angle between the three real roots of Cardano's trigonometric form.
const THIRD_TURN: f32 = 2.0 * PI / 3.0;

/// Cube root of a positive number as Unity computes it: `exp(ln(x) / 3)` in `f32`.
fn cbrt_positive(x: f32) -> f32 {
    (x.ln() / 3.0).exp()
}

/// Cube root of any number the Unity way: the sign is taken off, the positive root taken,
/// and the sign put back. `cbrt_signed(0) == 0` (through `exp(-inf)`).
fn cbrt_signed(x: f32) -> f32 {
    if x < 0.0 {
        -cbrt_positive(-x)
    } else {
        cbrt_positive(x)
    }
}

/// True when `u` is a usable curve parameter (in `[0, 1]`; NaN is not).
fn in_unit(u: f32) -> bool {
    (0.0..=1.0).contains(&u)
}

/// The parameter used when no root lands in `[0, 1]` (numerical noise at the ends).
fn fallback(s: f32) -> f32 {
    if s < 0.5 { 0.0 } else { 1.0 }
}

/// Solves `x(u) = s` for the Bezier parameter `u` of a segment with time control points
/// `0, w1, 1 - w2, 1`, exactly as Unity does (`f32`, Cardano, thresholds 1e-3).
///
/// `s` is the normalized time in the segment, `w1` the outgoing weight of the left key and
/// `w2` the incoming weight of the right key. The answer is always in `[0, 1]`, never NaN.
pub fn solve_u(s: f32, w1: f32, w2: f32) -> f32 {
    let far = 1.0 - w2;
    let a = 3.0 * w1 - 3.0 * far + 1.0;
    let b = -6.0 * w1 + 3.0 * far;
    let c = 3.0 * w1;
    let d = -s;
    let root = if a.abs() > COEFFICIENT_EPSILON {
        cubic_root(a, b, c, d)
    } else if b.abs() > COEFFICIENT_EPSILON {
        quadratic_root(b, c, d)
    } else if c.abs() > COEFFICIENT_EPSILON {
        Some(-d / c).filter(|u| in_unit(*u))
    } else {
        Some(0.0)
    };
    root.unwrap_or_else(|| fallback(s))
}

/// The first root in `[0, 1]` of `a u³ + b u² + c u + d` by Cardano's formula, with the
/// three-real-roots case tried in Unity's order (k = 0, +1, -1).
fn cubic_root(a: f32, b: f32, c: f32, d: f32) -> Option<f32> {
    let p = -b / (3.0 * a);
    let p2 = p * p;
    let p3 = p2 * p;
    let q = p3 + (b * c - 3.0 * a * d) / (6.0 * a * a);
    let q2 = q * q;
    let r = c / (3.0 * a);
    let rmp2 = r - p2;
    let discriminant = q2 + rmp2 * rmp2 * rmp2;
    if discriminant < 0.0 {
        let modulus = cbrt_positive((q2 - discriminant).sqrt());
        let phi = (-discriminant).sqrt().atan2(q) / 3.0;
        [phi, phi + THIRD_TURN, phi - THIRD_TURN]
            .into_iter()
            .map(|angle| 2.0 * modulus * angle.cos() + p)
            .find(|u| in_unit(*u))
    } else {
        let root = discriminant.sqrt();
        let u = cbrt_signed(q + root) + cbrt_signed(q - root) + p;
        Some(u).filter(|u| in_unit(*u))
    }
}

/// The first root in `[0, 1]` of `b u² + c u + d`, the `-` root tried first, as Unity does.
fn quadratic_root(b: f32, c: f32, d: f32) -> Option<f32> {
    let root = (c * c - 4.0 * b * d).sqrt();
    let u1 = (-c - root) / (2.0 * b);
    let u2 = (-c + root) / (2.0 * b);
    [u1, u2].into_iter().find(|u| in_unit(*u))
}

/// One weighted segment in normalized form: values at its ends, Bezier value handles and
/// time weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    /// Value of the left key.
    pub v0: f32,
    /// Outgoing slope of the left key times the segment duration.
    pub m0: f32,
    /// Time weight of the left handle.
    pub w1: f32,
    /// Value of the right key.
    pub v1: f32,
    /// Incoming slope of the right key times the segment duration.
    pub m1: f32,
    /// Time weight of the right handle.
    pub w2: f32,
}

impl Segment {
    /// The four value control points `v0, v0 + w1 m0, v1 - w2 m1, v1`.
    fn value_points(&self) -> [f32; 4] {
        [
            self.v0,
            self.v0 + self.m0 * self.w1,
            self.v1 - self.m1 * self.w2,
            self.v1,
        ]
    }

    /// The four time control points `0, w1, 1 - w2, 1`.
    fn time_points(&self) -> [f32; 4] {
        [0.0, self.w1, 1.0 - self.w2, 1.0]
    }

    /// The value at normalized time `s` in `[0, 1]`.
    ///
    /// At `u = 0` and `u = 1` the Bernstein sum is exactly `v0` / `v1` in `f32`, so those are
    /// returned directly: that keeps a huge (but finite) handle from turning `0 · inf` into
    /// NaN without changing any other result.
    pub fn value(&self, s: f32) -> f32 {
        let u = solve_u(s, self.w1, self.w2);
        if u == 0.0 {
            self.v0
        } else if u == 1.0 {
            self.v1
        } else {
            bernstein(u, self.value_points())
        }
    }

    /// The derivative of the value with respect to normalized time `s` (multiply by
    /// `1 / duration` for per-second units).
    ///
    /// Where the time curve is flat in `u` (`dx/du = 0`, a vertical tangent or a zero
    /// weight), the slope is taken as the secant over a small `u` interval instead, which is
    /// finite; if even that has no time extent the slope is 0.
    pub fn slope(&self, s: f32) -> f32 {
        let u = solve_u(s, self.w1, self.w2);
        let dx = bernstein_derivative(u, self.time_points());
        let dv = bernstein_derivative(u, self.value_points());
        if dx.abs() > 1e-6 {
            return finite_or_zero(dv / dx);
        }
        let (lo, hi) = ((u - 1e-3).max(0.0), (u + 1e-3).min(1.0));
        let time = self.time_points();
        let value = self.value_points();
        let run = bernstein(hi, time) - bernstein(lo, time);
        if run.abs() > 0.0 {
            finite_or_zero((bernstein(hi, value) - bernstein(lo, value)) / run)
        } else {
            0.0
        }
    }
}

/// `x` when finite, else 0 (slopes never report NaN or infinity).
fn finite_or_zero(x: f32) -> f32 {
    if x.is_finite() { x } else { 0.0 }
}

/// The cubic Bernstein sum `(1-u)³ p0 + 3(1-u)² u p1 + 3(1-u) u² p2 + u³ p3`, in Unity's
/// order of operations.
pub fn bernstein(u: f32, [p0, p1, p2, p3]: [f32; 4]) -> f32 {
    let nu = 1.0 - u;
    let nu2 = nu * nu;
    let nu3 = nu2 * nu;
    let u2 = u * u;
    let u3 = u2 * u;
    nu3 * p0 + 3.0 * nu2 * u * p1 + 3.0 * nu * u2 * p2 + u3 * p3
}

/// The derivative in `u` of [`bernstein`].
fn bernstein_derivative(u: f32, [p0, p1, p2, p3]: [f32; 4]) -> f32 {
    let nu = 1.0 - u;
    3.0 * (nu * nu * (p1 - p0) + 2.0 * nu * u * (p2 - p1) + u * u * (p3 - p2))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute-force `u` for `x(u) = s` by bisection in `f64` (x is monotonic for weights in
    /// `[0, 1]`).
    fn bisect_u(s: f64, w1: f64, w2: f64) -> f64 {
        let x = |u: f64| {
            let nu = 1.0 - u;
            3.0 * nu * nu * u * w1 + 3.0 * nu * u * u * (1.0 - w2) + u * u * u
        };
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if x(mid) < s {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        0.5 * (lo + hi)
    }

    #[test]
    fn solve_u_matches_bisection() {
        let weights = [
            (0.5f32, 0.8f32),
            (0.1, 0.1),
            (0.9, 0.2),
            (0.0, 1.0),
            (1.0, 0.0),
            (0.25, 0.6),
            (1.0 / 3.0, 0.7),
        ];
        for (w1, w2) in weights {
            for i in 0..=100 {
                let s = i as f32 / 100.0;
                let u = solve_u(s, w1, w2);
                let want = bisect_u(s as f64, w1 as f64, w2 as f64);
                assert!(
                    (u as f64 - want).abs() < 2e-3,
                    "w=({w1},{w2}) s={s}: {u} vs {want}"
                );
            }
        }
    }

    #[test]
    fn default_weights_give_identity() {
        let w = 1.0 / 3.0;
        for i in 0..=64 {
            let s = i as f32 / 64.0;
            assert!((solve_u(s, w, w) - s).abs() < 1e-5, "s={s}");
        }
    }

    #[test]
    fn ends_map_to_ends() {
        for (w1, w2) in [(0.5f32, 0.8f32), (0.1, 0.9), (0.7, 0.7)] {
            assert!(solve_u(0.0, w1, w2).abs() < 1e-4);
            assert!((solve_u(1.0, w1, w2) - 1.0).abs() < 1e-4);
        }
    }

    #[test]
    fn nonsense_weights_stay_in_unit() {
        for &(w1, w2) in &[
            (f32::NAN, 0.5f32),
            (0.5, f32::INFINITY),
            (1e30, 1e30),
            (-5.0, 7.0),
            (0.0, 0.0),
        ] {
            for i in 0..=10 {
                let s = i as f32 / 10.0;
                let u = solve_u(s, w1, w2);
                assert!(in_unit(u), "w=({w1},{w2}) s={s} -> {u}");
            }
        }
    }

    #[test]
    fn cube_roots() {
        assert!((cbrt_signed(27.0) - 3.0).abs() < 1e-5);
        assert!((cbrt_signed(-8.0) + 2.0).abs() < 1e-5);
        assert_eq!(cbrt_signed(0.0), 0.0);
    }

    #[test]
    fn value_and_slope_at_zero_weight() {
        let seg = Segment {
            v0: 1.0,
            m0: 2.0,
            w1: 0.0,
            v1: 3.0,
            m1: -1.0,
            w2: 0.0,
        };
        assert_eq!(seg.value(0.0), 1.0);
        assert_eq!(seg.value(1.0), 3.0);
        for i in 0..=10 {
            let s = i as f32 / 10.0;
            assert!(seg.value(s).is_finite());
            assert!(seg.slope(s).is_finite());
        }
    }
}
