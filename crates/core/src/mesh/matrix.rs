//! 4×4 matrices as Unity serialises `Matrix4x4f`: sixteen floats row by row, for column
//! vectors (`p' = M · p`, translation in elements 3, 7 and 11). In glam:
//! `Mat4::from_cols_array(&m).transpose()`.

/// A row-major 4×4 matrix.
pub type Mat4 = [f32; 16];

/// The identity matrix.
pub const IDENTITY: Mat4 = [
    1.0, 0.0, 0.0, 0.0, //
    0.0, 1.0, 0.0, 0.0, //
    0.0, 0.0, 1.0, 0.0, //
    0.0, 0.0, 0.0, 1.0,
];

/// `a × b` (apply `b` first).
pub fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    std::array::from_fn(|i| {
        let (r, c) = (i / 4, i % 4);
        (0..4).map(|k| a[r * 4 + k] * b[k * 4 + c]).sum()
    })
}

/// `M · (p, 1)`, dropping w (the matrices here are affine).
pub fn transform_point(m: &Mat4, p: [f32; 3]) -> [f32; 3] {
    std::array::from_fn(|r| {
        m[r * 4] * p[0] + m[r * 4 + 1] * p[1] + m[r * 4 + 2] * p[2] + m[r * 4 + 3]
    })
}

/// The inverse of an affine matrix (bottom row 0 0 0 1), or `None` when it is singular.
pub fn inverse_affine(m: &Mat4) -> Option<Mat4> {
    let a = |r: usize, c: usize| m[r * 4 + c];
    let cof = |r: usize, c: usize| {
        let (r0, r1) = ((r + 1) % 3, (r + 2) % 3);
        let (c0, c1) = ((c + 1) % 3, (c + 2) % 3);
        a(r0, c0) * a(r1, c1) - a(r0, c1) * a(r1, c0)
    };
    let det = a(0, 0) * cof(0, 0) + a(0, 1) * cof(0, 1) + a(0, 2) * cof(0, 2);
    if !det.is_finite() || det.abs() < 1e-12 {
        return None;
    }
    let mut inv = IDENTITY;
    for r in 0..3 {
        for c in 0..3 {
            // (A⁻¹)[r][c] = cofactor[c][r] / det.
            inv[r * 4 + c] = cof(c, r) / det;
        }
    }
    for r in 0..3 {
        inv[r * 4 + 3] = -(0..3).map(|k| inv[r * 4 + k] * a(k, 3)).sum::<f32>();
    }
    Some(inv)
}

/// Translation · rotation (unit quaternion x, y, z, w) · scale: a Transform's local matrix.
pub fn from_trs(t: [f32; 3], q: [f32; 4], s: [f32; 3]) -> Mat4 {
    let [x, y, z, w] = q;
    let rot = [
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
    ];
    let mut m = IDENTITY;
    for r in 0..3 {
        for c in 0..3 {
            m[r * 4 + c] = rot[r][c] * s[c];
        }
        m[r * 4 + 3] = t[r];
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trs_scales_then_rotates_then_translates() {
        // 90° about Y maps +X to −Z in Unity's convention (x' = z, z' = −x).
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let m = from_trs([1.0, 2.0, 3.0], [0.0, h, 0.0, h], [2.0, 1.0, 1.0]);
        let p = transform_point(&m, [1.0, 0.0, 0.0]);
        let expected = [1.0, 2.0, 1.0];
        assert!(
            p.iter().zip(expected).all(|(a, b)| (a - b).abs() < 1e-6),
            "{p:?}"
        );
    }

    #[test]
    fn products_apply_the_right_factor_first() {
        let t = from_trs([1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]);
        let s = from_trs([0.0; 3], [0.0, 0.0, 0.0, 1.0], [3.0; 3]);
        assert_eq!(
            transform_point(&mul(&t, &s), [1.0, 1.0, 1.0]),
            [4.0, 3.0, 3.0]
        );
        assert_eq!(
            transform_point(&mul(&s, &t), [1.0, 1.0, 1.0]),
            [6.0, 3.0, 3.0]
        );
        assert_eq!(mul(&IDENTITY, &t), t);
    }

    #[test]
    fn affine_inverses_undo_the_matrix() {
        let m = from_trs([1.0, -2.0, 3.0], [0.1, 0.7, -0.1, 0.7], [2.0, 0.5, 1.5]);
        let back = mul(&inverse_affine(&m).unwrap(), &m);
        assert!(
            back.iter().zip(IDENTITY).all(|(a, b)| (a - b).abs() < 1e-5),
            "{back:?}"
        );
        assert!(
            inverse_affine(&from_trs([0.0; 3], [0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 1.0])).is_none()
        );
    }
}
