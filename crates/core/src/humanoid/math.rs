//! The little vector and quaternion algebra the pose needs, in f64 (Unity space;
//! quaternions x, y, z, w; `a * b` applies b, then a).

use std::ops::{Add, Mul, Neg, Sub};

/// A vector in f64.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct V3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

/// A quaternion in f64: x, y, z, w.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Q {
    pub x: f64,
    pub y: f64,
    pub z: f64,
    pub w: f64,
}

impl V3 {
    /// `(0, 0, 0)`.
    pub const ZERO: V3 = V3::new(0.0, 0.0, 0.0);
    /// `(1, 1, 1)`.
    pub const ONE: V3 = V3::new(1.0, 1.0, 1.0);

    /// The vector `(x, y, z)`.
    pub const fn new(x: f64, y: f64, z: f64) -> V3 {
        V3 { x, y, z }
    }
    /// From `[x, y, z]` in f32.
    pub fn from_f32(v: [f32; 3]) -> V3 {
        V3::new(v[0].into(), v[1].into(), v[2].into())
    }
    /// To `[x, y, z]` in f32.
    pub fn to_f32(self) -> [f32; 3] {
        [self.x as f32, self.y as f32, self.z as f32]
    }
    /// The dot product.
    pub fn dot(self, o: V3) -> f64 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }
    /// The cross product `self × o`.
    pub fn cross(self, o: V3) -> V3 {
        V3::new(
            self.y * o.z - self.z * o.y,
            self.z * o.x - self.x * o.z,
            self.x * o.y - self.y * o.x,
        )
    }
    /// The Euclidean length.
    pub fn length(self) -> f64 {
        self.dot(self).sqrt()
    }
    /// The unit vector along `self`; zero stays zero.
    pub fn normalize(self) -> V3 {
        let l = self.length();
        if l > 0.0 { self * (1.0 / l) } else { self }
    }
    /// Component-wise product (scales).
    pub fn scale(self, o: V3) -> V3 {
        V3::new(self.x * o.x, self.y * o.y, self.z * o.z)
    }
    /// Component-wise quotient; a zero divisor gives zero.
    pub fn unscale(self, o: V3) -> V3 {
        let d = |a: f64, b: f64| if b != 0.0 { a / b } else { 0.0 };
        V3::new(d(self.x, o.x), d(self.y, o.y), d(self.z, o.z))
    }
}

impl Add for V3 {
    type Output = V3;
    fn add(self, o: V3) -> V3 {
        V3::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}

impl Sub for V3 {
    type Output = V3;
    fn sub(self, o: V3) -> V3 {
        V3::new(self.x - o.x, self.y - o.y, self.z - o.z)
    }
}

impl Neg for V3 {
    type Output = V3;
    fn neg(self) -> V3 {
        V3::new(-self.x, -self.y, -self.z)
    }
}

impl Mul<f64> for V3 {
    type Output = V3;
    fn mul(self, s: f64) -> V3 {
        V3::new(self.x * s, self.y * s, self.z * s)
    }
}

impl Q {
    /// No rotation.
    pub const IDENTITY: Q = Q::new(0.0, 0.0, 0.0, 1.0);

    /// The quaternion `(x, y, z, w)` (not normalised).
    pub const fn new(x: f64, y: f64, z: f64, w: f64) -> Q {
        Q { x, y, z, w }
    }
    /// From `[x, y, z, w]` in f32.
    pub fn from_f32(q: [f32; 4]) -> Q {
        Q::new(q[0].into(), q[1].into(), q[2].into(), q[3].into())
    }
    /// To `[x, y, z, w]` in f32.
    pub fn to_f32(self) -> [f32; 4] {
        [self.x as f32, self.y as f32, self.z as f32, self.w as f32]
    }
    /// Rotation by `angle` radians about a unit `axis`.
    pub fn axis_angle(axis: V3, angle: f64) -> Q {
        let (s, c) = (angle / 2.0).sin_cos();
        Q::new(axis.x * s, axis.y * s, axis.z * s, c)
    }
    /// The conjugate (the inverse of a unit quaternion).
    pub fn conj(self) -> Q {
        Q::new(-self.x, -self.y, -self.z, self.w)
    }
    /// The 4D dot product.
    pub fn dot(self, o: Q) -> f64 {
        self.x * o.x + self.y * o.y + self.z * o.z + self.w * o.w
    }
    /// The unit quaternion along `self`; a zero quaternion becomes the identity.
    pub fn normalize(self) -> Q {
        let l = self.dot(self).sqrt();
        if l > 0.0 && l.is_finite() {
            Q::new(self.x / l, self.y / l, self.z / l, self.w / l)
        } else if l.is_nan() {
            self
        } else {
            Q::IDENTITY
        }
    }
    /// The same rotation with w ≥ 0.
    pub fn positive_w(self) -> Q {
        if self.w < 0.0 {
            Q::new(-self.x, -self.y, -self.z, -self.w)
        } else {
            self
        }
    }
    /// The vector part.
    pub fn xyz(self) -> V3 {
        V3::new(self.x, self.y, self.z)
    }
    /// Rotates a vector.
    pub fn rotate(self, v: V3) -> V3 {
        let u = self.xyz();
        let t = u.cross(v) * 2.0;
        v + t * self.w + u.cross(t)
    }
    /// The angle of the rotation, in 0..=π.
    pub fn angle(self) -> f64 {
        let n = self.normalize();
        2.0 * n.xyz().length().atan2(n.w.abs())
    }
    /// The rotation whose matrix has these (orthonormal) columns.
    pub fn from_columns(x: V3, y: V3, z: V3) -> Q {
        let trace = x.x + y.y + z.z;
        let q = if trace > 0.0 {
            let s = (trace + 1.0).sqrt() * 2.0;
            Q::new((y.z - z.y) / s, (z.x - x.z) / s, (x.y - y.x) / s, 0.25 * s)
        } else if x.x > y.y && x.x > z.z {
            let s = (1.0 + x.x - y.y - z.z).sqrt() * 2.0;
            Q::new(0.25 * s, (y.x + x.y) / s, (z.x + x.z) / s, (y.z - z.y) / s)
        } else if y.y > z.z {
            let s = (1.0 + y.y - x.x - z.z).sqrt() * 2.0;
            Q::new((y.x + x.y) / s, 0.25 * s, (z.y + y.z) / s, (z.x - x.z) / s)
        } else {
            let s = (1.0 + z.z - x.x - y.y).sqrt() * 2.0;
            Q::new((z.x + x.z) / s, (z.y + y.z) / s, 0.25 * s, (x.y - y.x) / s)
        };
        q.normalize()
    }
}

impl Mul for Q {
    type Output = Q;
    fn mul(self, o: Q) -> Q {
        Q::new(
            self.w * o.x + self.x * o.w + self.y * o.z - self.z * o.y,
            self.w * o.y - self.x * o.z + self.y * o.w + self.z * o.x,
            self.w * o.z + self.x * o.y - self.y * o.x + self.z * o.w,
            self.w * o.w - self.x * o.x - self.y * o.y - self.z * o.z,
        )
    }
}

/// A rigid transform with scale: translation, rotation, scale (Unity's TRS).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trs {
    pub t: V3,
    pub q: Q,
    pub s: V3,
}

impl Trs {
    /// No translation or rotation, unit scale.
    pub const IDENTITY: Trs = Trs {
        t: V3::ZERO,
        q: Q::IDENTITY,
        s: V3::ONE,
    };

    /// `self` (a parent's world transform) applied to a child's local one. Scale is
    /// carried per axis as Unity's `lossyScale` does (no shear).
    pub fn then(&self, local: &Trs) -> Trs {
        Trs {
            t: self.t + self.q.rotate(self.s.scale(local.t)),
            q: self.q * local.q,
            s: self.s.scale(local.s),
        }
    }

    /// The local transform that, under parent world `self`, gives world `world`.
    pub fn local_of(&self, world: &Trs) -> Trs {
        Trs {
            t: self.q.conj().rotate(world.t - self.t).unscale(self.s),
            q: self.q.conj() * world.q,
            s: world.s.unscale(self.s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Q, b: Q) -> bool {
        (a.dot(b).abs() - 1.0).abs() < 1e-12
    }

    #[test]
    fn product_applies_right_factor_first() {
        let a = Q::axis_angle(V3::new(0.0, 1.0, 0.0), 0.5 * std::f64::consts::PI);
        let b = Q::axis_angle(V3::new(1.0, 0.0, 0.0), 0.5 * std::f64::consts::PI);
        // b takes Y to Z, then a takes Z to X.
        let v = (a * b).rotate(V3::new(0.0, 1.0, 0.0));
        assert!((v - V3::new(1.0, 0.0, 0.0)).length() < 1e-12, "{v:?}");
    }

    #[test]
    fn columns_round_trip_a_rotation() {
        let q = Q::new(0.3, -0.5, 0.2, 0.7).normalize();
        let cols = |v| q.rotate(v);
        let back = Q::from_columns(
            cols(V3::new(1.0, 0.0, 0.0)),
            cols(V3::new(0.0, 1.0, 0.0)),
            cols(V3::new(0.0, 0.0, 1.0)),
        );
        assert!(close(q, back), "{q:?} {back:?}");
        let flip = Q::new(0.0, 0.0, 1.0, 0.0);
        let back = Q::from_columns(
            flip.rotate(V3::new(1.0, 0.0, 0.0)),
            flip.rotate(V3::new(0.0, 1.0, 0.0)),
            flip.rotate(V3::new(0.0, 0.0, 1.0)),
        );
        assert!(close(flip, back));
    }

    #[test]
    fn local_of_inverts_then() {
        let parent = Trs {
            t: V3::new(1.0, 2.0, 3.0),
            q: Q::new(0.1, 0.2, 0.3, 0.9).normalize(),
            s: V3::new(2.0, 2.0, 2.0),
        };
        let local = Trs {
            t: V3::new(-0.5, 0.25, 4.0),
            q: Q::new(-0.4, 0.1, 0.0, 0.8).normalize(),
            s: V3::ONE,
        };
        let back = parent.local_of(&parent.then(&local));
        assert!((back.t - local.t).length() < 1e-12);
        assert!(close(back.q, local.q));
    }
}
