//! Unity's left-handed space to glTF's right-handed one, by mirroring X (Y stays up): the
//! one place where exported data changes handedness.

use crate::mesh::Mat4;

/// A position, normal or displacement: (-x, y, z).
pub fn point(v: [f32; 3]) -> [f32; 3] {
    [-v[0], v[1], v[2]]
}

/// A rotation: (x, -y, -z, w) (the mirror conjugates the rotation).
pub fn rotation(q: [f32; 4]) -> [f32; 4] {
    [q[0], -q[1], -q[2], q[3]]
}

/// A tangent with its bitangent sign: xyz mirrored, w negated.
pub fn tangent(t: [f32; 4]) -> [f32; 4] {
    [-t[0], t[1], t[2], -t[3]]
}

/// A Unity matrix (row-major, column vectors) conjugated by the mirror `S·M·S`, as glTF's
/// column-major array.
pub fn matrix(m: &Mat4) -> [f32; 16] {
    let sign = |i: usize| if i == 0 { -1.0 } else { 1.0 };
    std::array::from_fn(|k| {
        let (c, r) = (k / 4, k % 4);
        m[r * 4 + c] * sign(r) * sign(c)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::matrix::{from_trs, mul, transform_point};

    /// Applies a column-major glTF matrix to a point.
    fn apply(m: &[f32; 16], p: [f32; 3]) -> [f32; 3] {
        std::array::from_fn(|r| m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r])
    }

    #[test]
    fn the_mirrored_matrix_maps_mirrored_points_to_mirrored_images() {
        let b = from_trs([0.1, -0.4, 0.3], [0.2, 0.1, -0.3, 0.927], [1.0, 2.0, 0.5]);
        let w = from_trs([1.0, 2.0, -3.0], [0.0, 0.6, 0.0, 0.8], [2.0; 3]);
        let m = mul(&w, &b);
        let v = [0.5, -1.0, 2.0];
        let unity = transform_point(&m, v);
        let gltf = apply(&matrix(&m), point(v));
        for (a, b) in gltf.iter().zip(point(unity)) {
            assert!((a - b).abs() < 1e-5, "{gltf:?} vs {unity:?}");
        }
    }

    #[test]
    fn a_mirrored_rotation_turns_mirrored_vectors() {
        // 90° about Y turns +X to -Z; the mirrored rotation turns the image of +X to the
        // image of -Z.
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let q = rotation([0.0, h, 0.0, h]);
        let m = from_trs([0.0; 3], q, [1.0; 3]);
        let out = transform_point(&m, point([1.0, 0.0, 0.0]));
        let want = point([0.0, 0.0, -1.0]);
        for (a, b) in out.iter().zip(want) {
            assert!((a - b).abs() < 1e-6, "{out:?}");
        }
    }
}
