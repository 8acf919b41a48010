//! World transforms as Unity composes them (Unity space, f64).
//!
//! A Transform's world position is `parent.localToWorldMatrix.MultiplyPoint3x4(localPosition)`:
//! the product of full translation·rotation·scale matrices down the chain, so a
//! non-uniformly scaled parent with a rotated child skews the child (as Bevy's affine
//! `GlobalTransform`, glTF and Blender do too). The world rotation is the product of the
//! local rotations (`Transform.rotation`), and the world scale is `Transform.lossyScale`:
//! the diagonal of the world rotation's inverse times the matrix's 3×3 part (its scale with
//! the skew removed). Nothing here imports the rest of the crate.

/// A joint's world transform: its `localToWorldMatrix` and its `rotation`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct World {
    /// The affine matrix's top three rows, for column vectors (`p' = M · (p, 1)`; the
    /// translation is the last column).
    pub m: [[f64; 4]; 3],
    /// The product of the local rotations, unit (x, y, z, w).
    pub q: [f64; 4],
}

impl World {
    pub const IDENTITY: World = World {
        m: [
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
        ],
        q: [0.0, 0.0, 0.0, 1.0],
    };

    /// The world transform of a joint with local `t`, `q`, `s` under `self` (its parent's
    /// world transform): `M = M_parent · T · R · S`, `q = q_parent · q_local`.
    pub fn then(&self, t: [f32; 3], q: [f32; 4], s: [f32; 3]) -> World {
        let q = unit(q.map(f64::from));
        let r = rotation_matrix(q);
        let t = t.map(f64::from);
        let s = s.map(f64::from);
        let m = std::array::from_fn(|i| {
            let row = &self.m[i];
            let column = |c: usize| (0..3).map(|k| row[k] * r[k][c]).sum::<f64>() * s[c];
            let moved = (0..3).map(|k| row[k] * t[k]).sum::<f64>() + row[3];
            [column(0), column(1), column(2), moved]
        });
        World {
            m,
            q: unit(qmul(self.q, q)),
        }
    }

    /// The world position (the matrix's translation).
    pub fn position(&self) -> [f64; 3] {
        [self.m[0][3], self.m[1][3], self.m[2][3]]
    }

    /// Unity's `lossyScale`: the diagonal of `R(q)ᵀ · M₃ₓ₃`.
    pub fn lossy_scale(&self) -> [f64; 3] {
        let r = rotation_matrix(self.q);
        std::array::from_fn(|i| (0..3).map(|k| r[k][i] * self.m[k][i]).sum())
    }

    /// `M · (p, 1)`.
    pub fn transform_point(&self, p: [f64; 3]) -> [f64; 3] {
        std::array::from_fn(|r| {
            let row = &self.m[r];
            row[0] * p[0] + row[1] * p[1] + row[2] * p[2] + row[3]
        })
    }

    /// The point whose image is `p` (`M⁻¹ · (p, 1)`), or `None` when the matrix is singular.
    pub fn inverse_point(&self, p: [f64; 3]) -> Option<[f64; 3]> {
        let a = |r: usize, c: usize| self.m[r][c];
        let cof = |r: usize, c: usize| {
            let (r0, r1) = ((r + 1) % 3, (r + 2) % 3);
            let (c0, c1) = ((c + 1) % 3, (c + 2) % 3);
            a(r0, c0) * a(r1, c1) - a(r0, c1) * a(r1, c0)
        };
        let det = a(0, 0) * cof(0, 0) + a(0, 1) * cof(0, 1) + a(0, 2) * cof(0, 2);
        if !det.is_finite() || det.abs() < 1e-300 {
            return None;
        }
        let d = [p[0] - a(0, 3), p[1] - a(1, 3), p[2] - a(2, 3)];
        // (M⁻¹)[r][c] = cofactor[c][r] / det.
        Some(std::array::from_fn(|r| {
            (0..3).map(|c| cof(c, r) * d[c]).sum::<f64>() / det
        }))
    }

    /// The local rotation that gives world rotation `q` under `self`: `q_parent⁻¹ · q`.
    pub fn local_rotation(&self, q: [f64; 4]) -> [f64; 4] {
        let [x, y, z, w] = self.q;
        unit(qmul([-x, -y, -z, w], q))
    }
}

/// World transforms of a chain of joints, from local ones: `parents[j]` is joint `j`'s parent
/// (a parent that does not come before its joint, and the root, give the identity: the rig's
/// root is the origin of its space).
pub fn compose(
    parents: impl IntoIterator<Item = Option<usize>>,
    locals: impl IntoIterator<Item = ([f32; 3], [f32; 4], [f32; 3])>,
    out: &mut Vec<World>,
) -> &[World] {
    out.clear();
    for (j, (parent, (t, q, s))) in parents.into_iter().zip(locals).enumerate() {
        let world = match parent.filter(|&p| p < j).and_then(|p| out.get(p)) {
            Some(parent) => parent.then(t, q, s),
            None => World::IDENTITY,
        };
        out.push(world);
    }
    out
}

/// `a · b` (apply `b`, then `a`), x, y, z, w.
fn qmul(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

/// The quaternion scaled to unit length (the identity when it has none).
fn unit(q: [f64; 4]) -> [f64; 4] {
    let len = q.iter().map(|c| c * c).sum::<f64>().sqrt();
    if len > 0.0 && len.is_finite() {
        q.map(|c| c / len)
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

/// The rotation matrix of a unit quaternion (rows).
fn rotation_matrix(q: [f64; 4]) -> [[f64; 3]; 3] {
    let [x, y, z, w] = q;
    [
        [
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y - z * w),
            2.0 * (x * z + y * w),
        ],
        [
            2.0 * (x * y + z * w),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z - x * w),
        ],
        [
            2.0 * (x * z - y * w),
            2.0 * (y * z + x * w),
            1.0 - 2.0 * (x * x + y * y),
        ],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

    fn about_z(angle: f32) -> [f32; 4] {
        let (s, c) = (angle / 2.0).sin_cos();
        [0.0, 0.0, s, c]
    }

    fn close(a: [f64; 3], b: [f64; 3], tol: f64) -> bool {
        a.iter().zip(&b).all(|(x, y)| (x - y).abs() < tol)
    }

    /// A parent stretched along X with a child turned 45° about Z: the grandchild one unit
    /// along the child's X lands at `diag(2,1,1) · ((1,0,0) + R₄₅ · (1,0,0))`, not where
    /// composing translation/rotation/scale triples puts it (`(2 + √2, √2, 0)`).
    #[test]
    fn a_stretched_parent_skews_a_rotated_child_as_the_matrix_product_does() {
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let a = World::IDENTITY.then([0.0; 3], ID, [2.0, 1.0, 1.0]);
        let b = a.then(
            [1.0, 0.0, 0.0],
            about_z(std::f32::consts::FRAC_PI_4),
            [1.0; 3],
        );
        let c = b.then([1.0, 0.0, 0.0], ID, [1.0; 3]);
        assert!(close(b.position(), [2.0, 0.0, 0.0], 1e-12), "{b:?}");
        assert!(close(c.position(), [2.0 + 2.0 * h, h, 0.0], 1e-7), "{c:?}");
        // Rᵀ·diag(2,1,1)·R for a 45° turn has the diagonal (1.5, 1.5, 1).
        assert!(close(b.lossy_scale(), [1.5, 1.5, 1.0], 1e-7), "{b:?}");
        assert!(close(a.lossy_scale(), [2.0, 1.0, 1.0], 1e-12));
        // The world rotation is the product of the local ones, whatever the scale.
        assert!((c.q[2] - (std::f64::consts::PI / 8.0).sin()).abs() < 1e-7);
    }

    #[test]
    fn inverse_point_undoes_the_matrix() {
        let a = World::IDENTITY
            .then([1.0, 2.0, 3.0], [0.3, -0.2, 0.1, 0.9], [0.01, 0.02, 3.0])
            .then([0.0, 5.0, 0.0], about_z(0.7), [1.0, 4.0, 1.0]);
        let p = [0.25, -1.5, 7.0];
        let back = a.inverse_point(a.transform_point(p)).unwrap();
        assert!(close(back, p, 1e-9), "{back:?}");
        let flat = World::IDENTITY.then([0.0; 3], ID, [1.0, 0.0, 1.0]);
        assert_eq!(flat.inverse_point(p), None);
    }

    #[test]
    fn compose_places_the_root_and_out_of_order_parents_at_the_origin() {
        let mut out = Vec::new();
        let locals = [
            ([5.0, 0.0, 0.0], ID, [3.0; 3]),
            ([1.0, 0.0, 0.0], ID, [2.0; 3]),
            ([1.0, 0.0, 0.0], ID, [1.0; 3]),
            ([9.0, 9.0, 9.0], ID, [1.0; 3]),
        ];
        let worlds = compose([None, Some(0), Some(1), Some(3)], locals, &mut out);
        assert_eq!(worlds[0], World::IDENTITY);
        assert!(close(worlds[2].position(), [3.0, 0.0, 0.0], 1e-12));
        assert_eq!(worlds[3], World::IDENTITY);
    }
}
