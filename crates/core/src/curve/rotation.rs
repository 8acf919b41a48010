//! Unity's rotation from Euler angles.

/// Unity's rotation (x, y, z, w) of Euler angles in degrees with `Transform.RotationOrder`
/// `order` (0 XYZ, 1 XZY, 2 YZX, 3 YXZ, 4 ZXY (the default), 5 ZYX; the first letter applies
/// first), in Unity's space.
pub fn euler_quat(deg: [f32; 3], order: u8) -> [f32; 4] {
    let axis = |i: usize| {
        let half = deg[i].to_radians() * 0.5;
        let mut q = [0.0, 0.0, 0.0, half.cos()];
        q[i] = half.sin();
        q
    };
    let (x, y, z) = (axis(0), axis(1), axis(2));
    match order {
        0 => mul(mul(z, y), x),
        1 => mul(mul(y, z), x),
        2 => mul(mul(x, z), y),
        3 => mul(mul(z, x), y),
        5 => mul(mul(x, y), z),
        _ => mul(mul(y, x), z),
    }
}

/// The Hamilton product `a·b` (apply `b`, then `a`).
pub fn mul(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
    [
        a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
        a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
        a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
        a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rotates a vector by a unit quaternion.
    fn rotate(q: [f32; 4], v: [f32; 3]) -> [f32; 3] {
        let p = mul(mul(q, [v[0], v[1], v[2], 0.0]), [-q[0], -q[1], -q[2], q[3]]);
        [p[0], p[1], p[2]]
    }

    fn close(a: [f32; 3], b: [f32; 3]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6)
    }

    #[test]
    fn single_axes_turn_by_the_right_hand_rule_in_unity_space() {
        // 90° about Y takes +Z (forward) to +X (right).
        assert!(close(
            rotate(euler_quat([0.0, 90.0, 0.0], 4), [0.0, 0.0, 1.0]),
            [1.0, 0.0, 0.0]
        ));
        // 90° about X takes +Y to +Z.
        assert!(close(
            rotate(euler_quat([90.0, 0.0, 0.0], 4), [0.0, 1.0, 0.0]),
            [0.0, 0.0, 1.0]
        ));
    }

    #[test]
    fn the_order_decides_which_axis_applies_first() {
        // ZXY (Unity's default) applies Z, then X, then Y; XYZ applies X, then Y, then Z.
        let v = [1.0, 0.0, 0.0];
        let zxy = rotate(euler_quat([90.0, 90.0, 90.0], 4), v);
        let by_hand = rotate(
            euler_quat([0.0, 90.0, 0.0], 4),
            rotate(
                euler_quat([90.0, 0.0, 0.0], 4),
                rotate(euler_quat([0.0, 0.0, 90.0], 4), v),
            ),
        );
        assert!(close(zxy, by_hand));
        let xyz = rotate(euler_quat([90.0, 90.0, 90.0], 0), v);
        let by_hand = rotate(
            euler_quat([0.0, 0.0, 90.0], 0),
            rotate(
                euler_quat([0.0, 90.0, 0.0], 0),
                rotate(euler_quat([90.0, 0.0, 0.0], 0), v),
            ),
        );
        assert!(close(xyz, by_hand));
        assert!(!close(zxy, xyz));
    }
}
