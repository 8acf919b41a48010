//! glTF's own rules for evaluating an animation sampler (glTF 2.0 §3.11, Appendix C):
//! LINEAR (lerp; slerp for rotations), STEP and CUBICSPLINE (Hermite with tangents scaled
//! by the key interval; rotations normalised). Used to measure what was written and, in
//! tests, what was read back.

/// What a channel animates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Path {
    Translation,
    Rotation,
    Scale,
    Weights,
}

/// A sampler's interpolation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interpolation {
    Linear,
    Step,
    CubicSpline,
}

/// A sampler's keys: `times`, and per key `width` floats (three groups of `width` per key
/// for CUBICSPLINE: in-tangent, value, out-tangent).
#[derive(Clone, Debug, PartialEq)]
pub struct Keys {
    pub interpolation: Interpolation,
    pub times: Vec<f32>,
    pub values: Vec<f32>,
    pub width: usize,
}

impl Keys {
    /// The value of key `k`.
    pub fn value(&self, k: usize) -> &[f32] {
        let w = self.width;
        match self.interpolation {
            Interpolation::CubicSpline => &self.values[(3 * k + 1) * w..(3 * k + 2) * w],
            _ => &self.values[k * w..(k + 1) * w],
        }
    }

    fn tangent(&self, k: usize, out: bool) -> &[f32] {
        let w = self.width;
        let group = 3 * k + if out { 2 } else { 0 };
        &self.values[group * w..(group + 1) * w]
    }

    /// The sampler's output at time `t` (clamped to the first and last key), for a channel
    /// of `path`.
    pub fn evaluate(&self, path: Path, t: f32) -> Vec<f32> {
        self.evaluate_as(path, t, false)
    }

    /// As Blender plays the channel: its importer writes a linear rotation channel as four
    /// per-component linear curves, so between keys the rotation is [`nlerp`] (no shorter
    /// arc taken). Other channels and interpolations as [`Keys::evaluate`].
    pub fn evaluate_blender(&self, path: Path, t: f32) -> Vec<f32> {
        self.evaluate_as(path, t, true)
    }

    fn evaluate_as(&self, path: Path, t: f32, blender: bool) -> Vec<f32> {
        let n = self.times.len();
        if n == 0 {
            return vec![0.0; self.width];
        }
        if t <= self.times[0] || n == 1 {
            return self.value(0).to_vec();
        }
        if t >= self.times[n - 1] {
            return self.value(n - 1).to_vec();
        }
        // The last key at or before t.
        let k = self.times.partition_point(|&x| x <= t) - 1;
        let (t0, t1) = (self.times[k], self.times[k + 1]);
        let dt = t1 - t0;
        let s = if dt > 0.0 { (t - t0) / dt } else { 0.0 };
        let rotation = path == Path::Rotation;
        match self.interpolation {
            Interpolation::Step => self.value(k).to_vec(),
            Interpolation::Linear if rotation => {
                let a: [f32; 4] = self.value(k).try_into().unwrap_or([0.0, 0.0, 0.0, 1.0]);
                let b: [f32; 4] = self.value(k + 1).try_into().unwrap_or(a);
                if blender {
                    nlerp(a, b, s).to_vec()
                } else {
                    slerp(a, b, s).to_vec()
                }
            }
            Interpolation::Linear => {
                let (a, b) = (self.value(k), self.value(k + 1));
                a.iter().zip(b).map(|(a, b)| a + (b - a) * s).collect()
            }
            Interpolation::CubicSpline => {
                let (s2, s3) = (s * s, s * s * s);
                let h00 = 2.0 * s3 - 3.0 * s2 + 1.0;
                let h10 = s3 - 2.0 * s2 + s;
                let h01 = -2.0 * s3 + 3.0 * s2;
                let h11 = s3 - s2;
                let (p0, m0) = (self.value(k), self.tangent(k, true));
                let (p1, m1) = (self.value(k + 1), self.tangent(k + 1, false));
                let v: Vec<f32> = (0..self.width)
                    .map(|i| h00 * p0[i] + h10 * dt * m0[i] + h01 * p1[i] + h11 * dt * m1[i])
                    .collect();
                if rotation { normalize(v) } else { v }
            }
        }
    }
}

/// A linear rotation channel evaluated as glTF plays it and as Blender does
/// ([`Keys::evaluate`], [`Keys::evaluate_blender`]) at many times: the slerp arc of the key
/// pair last used is kept, so times in one key interval compute it once.
pub struct RotationCursor<'k> {
    keys: &'k Keys,
    /// The key interval last used and its arc.
    arc: Option<(usize, Slerp)>,
}

impl<'k> RotationCursor<'k> {
    /// `None` unless `keys` is a linear channel of quaternions.
    pub fn new(keys: &'k Keys) -> Option<RotationCursor<'k>> {
        (keys.interpolation == Interpolation::Linear && keys.width == 4)
            .then_some(RotationCursor { keys, arc: None })
    }

    fn key(&self, k: usize) -> [f32; 4] {
        self.keys.value(k).try_into().unwrap_or([0.0; 4])
    }

    /// Both players' rotation at time `t` (clamped to the first and last key).
    pub fn at(&mut self, t: f32) -> ([f32; 4], [f32; 4]) {
        let times = &self.keys.times;
        let n = times.len();
        if n == 0 {
            return ([0.0; 4], [0.0; 4]);
        }
        if t <= times[0] || n == 1 {
            return (self.key(0), self.key(0));
        }
        if t >= times[n - 1] {
            return (self.key(n - 1), self.key(n - 1));
        }
        let k = times.partition_point(|&x| x <= t) - 1;
        let dt = times[k + 1] - times[k];
        let s = if dt > 0.0 { (t - times[k]) / dt } else { 0.0 };
        let (a, b) = (self.key(k), self.key(k + 1));
        let arc = match self.arc {
            Some((at, arc)) if at == k => arc,
            _ => {
                let arc = Slerp::new(a, b);
                self.arc = Some((k, arc));
                arc
            }
        };
        (arc.at(s), nlerp(a, b, s))
    }
}

fn normalize(v: Vec<f32>) -> Vec<f32> {
    let len = v.iter().map(|c| c * c).sum::<f32>().sqrt();
    if len > 0.0 && len.is_finite() {
        v.into_iter().map(|c| c / len).collect()
    } else {
        v
    }
}

/// Spherical interpolation along the shorter arc (what glTF viewers and Bevy do).
pub fn slerp(a: [f32; 4], b: [f32; 4], s: f32) -> [f32; 4] {
    Slerp::new(a, b).at(s)
}

/// [`slerp`] between two fixed rotations, its arc computed once for many fractions.
#[derive(Clone, Copy, Debug)]
pub struct Slerp {
    a: [f32; 4],
    b: [f32; 4],
    /// The arc's angle and its sine; `None` where the two are close enough to lerp.
    arc: Option<(f32, f32)>,
}

impl Slerp {
    pub fn new(a: [f32; 4], b: [f32; 4]) -> Slerp {
        let mut d: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        let b = if d < 0.0 {
            d = -d;
            b.map(|c| -c)
        } else {
            b
        };
        let arc = (d <= 0.9995).then(|| {
            let theta = d.min(1.0).acos();
            (theta, theta.sin())
        });
        Slerp { a, b, arc }
    }

    /// The rotation at fraction `s` of the arc.
    pub fn at(&self, s: f32) -> [f32; 4] {
        let (a, b) = (self.a, self.b);
        match self.arc {
            None => {
                let v: [f32; 4] = std::array::from_fn(|i| a[i] + (b[i] - a[i]) * s);
                let len = v.iter().map(|c| c * c).sum::<f32>().sqrt();
                if len > 0.0 && len.is_finite() {
                    v.map(|c| c / len)
                } else {
                    v
                }
            }
            Some((theta, sin)) => {
                let wa = ((1.0 - s) * theta).sin() / sin;
                let wb = (s * theta).sin() / sin;
                std::array::from_fn(|i| wa * a[i] + wb * b[i])
            }
        }
    }
}

/// The normalised per-component lerp of two quaternions as given (no shorter arc taken):
/// the rotation Blender's four linear quaternion curves give between two keys.
pub fn nlerp(a: [f32; 4], b: [f32; 4], s: f32) -> [f32; 4] {
    let v: [f32; 4] = std::array::from_fn(|i| a[i] + (b[i] - a[i]) * s);
    let len = v.iter().map(|c| c * c).sum::<f32>().sqrt();
    if len > 0.0 && len.is_finite() {
        v.map(|c| c / len)
    } else {
        a
    }
}

/// The angle (radians) between two rotations given as quaternions of any length:
/// `4·atan2(|a − b|, |a + b|)` for unit `a`, `b` on one hemisphere, which (unlike `acos` of
/// the dot product) keeps its precision near 0.
pub fn angle_between(a: &[f32], b: &[f32]) -> f32 {
    let len = |q: &[f32]| q.iter().map(|&c| f64::from(c).powi(2)).sum::<f64>().sqrt();
    let (la, lb) = (len(a), len(b));
    let usable = |l: f64| l > 0.0 && l.is_finite();
    if !(usable(la) && usable(lb)) {
        return if a == b { 0.0 } else { std::f32::consts::PI };
    }
    // One pass: |a − b|² and |a + b|² of the normalised pair; the hemisphere is the one
    // where |a − b| is the shorter (|a + b|² − |a − b|² = 4·a·b).
    let (ia, ib) = (1.0 / la, 1.0 / lb);
    let (mut apart, mut together) = (0.0f64, 0.0f64);
    for (&x, &y) in a.iter().zip(b) {
        let (x, y) = (f64::from(x) * ia, f64::from(y) * ib);
        apart += (x - y) * (x - y);
        together += (x + y) * (x + y);
    }
    let (minus, plus) = if together < apart {
        (together.sqrt(), apart.sqrt())
    } else {
        (apart.sqrt(), together.sqrt())
    };
    // atan(x) = x − x³/3 + O(x⁵): below 1e-2 the series is exact to f32 and the sum is
    // where reduction and sampling spend their time.
    let x = minus / plus;
    if plus > 0.0 && x < 1e-2 {
        (4.0 * x * (1.0 - x * x / 3.0)) as f32
    } else {
        (4.0 * minus.atan2(plus)) as f32
    }
}

/// The largest per-component difference.
pub fn max_abs_diff(a: &[f32], b: &[f32]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

/// The distance between two points.
pub fn distance(a: &[f32], b: &[f32]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y) * (x - y))
        .sum::<f32>()
        .sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(interpolation: Interpolation, times: Vec<f32>, values: Vec<f32>) -> Keys {
        Keys {
            interpolation,
            times,
            values,
            width: 1,
        }
    }

    #[test]
    fn linear_step_and_clamping() {
        let k = keys(Interpolation::Linear, vec![1.0, 3.0], vec![2.0, 6.0]);
        assert_eq!(k.evaluate(Path::Weights, 0.0), [2.0]);
        assert_eq!(k.evaluate(Path::Weights, 2.0), [4.0]);
        assert_eq!(k.evaluate(Path::Weights, 9.0), [6.0]);
        let s = keys(Interpolation::Step, vec![1.0, 3.0], vec![2.0, 6.0]);
        assert_eq!(s.evaluate(Path::Weights, 2.9), [2.0]);
        assert_eq!(s.evaluate(Path::Weights, 3.0), [6.0]);
    }

    #[test]
    fn cubic_spline_reproduces_a_cubic_from_its_values_and_slopes() {
        // v(t) = t³ on [0, 2]: v' = 3t².
        let v = |t: f32| t * t * t;
        let d = |t: f32| 3.0 * t * t;
        let k = keys(
            Interpolation::CubicSpline,
            vec![0.0, 2.0],
            vec![d(0.0), v(0.0), d(0.0), d(2.0), v(2.0), d(2.0)],
        );
        for t in [0.3f32, 1.0, 1.7] {
            let got = k.evaluate(Path::Weights, t)[0];
            assert!((got - v(t)).abs() < 1e-5, "{t}: {got}");
        }
    }

    #[test]
    fn nlerp_meets_slerp_at_the_ends_and_halfway_and_lags_between() {
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let (a, b) = ([0.0, 0.0, 0.0, 1.0], [0.0, h, 0.0, h]);
        for s in [0.0, 0.5, 1.0] {
            assert!(angle_between(&nlerp(a, b, s), &slerp(a, b, s)) < 1e-6);
        }
        // At a quarter of a 90° turn nlerp is at atan(s·sin φ / (1 − s + s·cos φ))·2.
        let s = 0.25f32;
        let phi = std::f32::consts::FRAC_PI_4;
        let want = 2.0 * (s * phi.sin()).atan2(1.0 - s + s * phi.cos());
        let got = angle_between(&nlerp(a, b, s), &a);
        assert!((got - want).abs() < 1e-5, "{got} {want}");
        assert!((got - 0.25 * std::f32::consts::FRAC_PI_2).abs() > 1e-3);
        // The long way round when the keys lie on opposite hemispheres.
        let k = Keys {
            interpolation: Interpolation::Linear,
            times: vec![0.0, 1.0],
            values: [a, b.map(|c| -c)].concat(),
            width: 4,
        };
        let slerped = angle_between(&k.evaluate(Path::Rotation, 0.5), &a);
        let nlerped = angle_between(&k.evaluate_blender(Path::Rotation, 0.5), &a);
        assert!(
            (slerped - std::f32::consts::FRAC_PI_4).abs() < 1e-5,
            "{slerped}"
        );
        assert!(nlerped > 2.0, "{nlerped}");
        // Both at once, as the measure reads them: the same values, clamped alike, the arc
        // kept across times in one interval and renewed in another (in any order).
        let mut cursor = RotationCursor::new(&k).unwrap();
        for t in [-1.0f32, 0.0, 0.3, 0.5, 1.0, 2.0, 0.7, 0.2] {
            let (gltf, blender) = cursor.at(t);
            assert_eq!(gltf.to_vec(), k.evaluate(Path::Rotation, t), "{t}");
            assert_eq!(
                blender.to_vec(),
                k.evaluate_blender(Path::Rotation, t),
                "{t}"
            );
        }
    }

    #[test]
    fn slerp_halfway_between_identity_and_a_quarter_turn_is_an_eighth() {
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let q = slerp([0.0, 0.0, 0.0, 1.0], [0.0, h, 0.0, h], 0.5);
        let angle = angle_between(&q, &[0.0, 0.0, 0.0, 1.0]);
        assert!(
            (angle - std::f32::consts::FRAC_PI_4).abs() < 1e-6,
            "{angle}"
        );
        // Antipodal quaternions are one rotation; a quaternion is at 0 from itself even
        // where f32 rounding of the dot product would give an angle near 1e-3.
        assert!(angle_between(&q, &q.map(|c| -c)) < 1e-6);
        let r = [0.16801623, 0.0007183034, 0.62189394, 0.7648646];
        assert_eq!(angle_between(&r, &r), 0.0);
    }
}
