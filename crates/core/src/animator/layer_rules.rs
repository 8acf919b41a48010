//! The per-property rules of layer blending (spec §4.9): Override and Additive on one
//! channel (a position, rotation, scale or human-pose value), rotations aligned to a
//! hemisphere, normalised, and scaled along their arc.

use crate::humanoid::math::Q;

/// A value blended as one: a joint's position, rotation or scale, or one value of the
/// human pose (a quaternion of it as one).
#[derive(Clone, Copy, Debug)]
pub(super) struct Channel {
    pub len: usize,
    pub quat: bool,
    /// The first human-pose slot (human channels only).
    pub slot: usize,
}

/// One channel's value (unused components 0).
pub(super) type V4 = [f32; 4];

/// Override: `below·(1 − a) + layer·a` with `a = w·m`.
pub(super) fn override_with(
    (set, mask): (&[usize], &[f32]),
    w: f32,
    channels: &[Channel],
    layer: &[V4],
    cur: &mut [V4],
) {
    for &c in set {
        let a = w * mask[c];
        if a == 0.0 {
            continue;
        }
        let below = cur[c];
        let new = if channels[c].quat {
            align(layer[c], &mut Some(below))
        } else {
            layer[c]
        };
        let mixed: V4 = std::array::from_fn(|k| below[k] * (1.0 - a) + new[k] * a);
        cur[c] = if channels[c].quat {
            normalize(mixed)
        } else {
            mixed
        };
    }
}

/// Additive: `below + a·(layer − ref)`; rotations `below · slerp(1, ref⁻¹·layer, a)`.
pub(super) fn add(
    (set, mask): (&[usize], &[f32]),
    w: f32,
    channels: &[Channel],
    layer: &[V4],
    reference: &[V4],
    cur: &mut [V4],
) {
    for &c in set {
        let a = w * mask[c];
        if a == 0.0 {
            continue;
        }
        if channels[c].quat {
            let d = Q::from_f32(reference[c]).conj() * Q::from_f32(layer[c]);
            let q = Q::from_f32(cur[c]) * slerp_identity(d, f64::from(a));
            cur[c] = q.normalize().to_f32();
        } else {
            for k in 0..4 {
                cur[c][k] += a * (layer[c][k] - reference[c][k]);
            }
        }
    }
}

/// `q` in the hemisphere of the channel's first contributor (`q` becomes it when none).
pub(super) fn align(q: V4, first: &mut Option<V4>) -> V4 {
    match first {
        None => {
            *first = Some(q);
            q
        }
        Some(f) => {
            let dot: f32 = (0..4).map(|k| f[k] * q[k]).sum();
            if dot < 0.0 { q.map(|x| -x) } else { q }
        }
    }
}

/// A quaternion scaled to unit length (the identity when it has none).
pub(super) fn normalize(q: V4) -> V4 {
    let len = q.iter().map(|c| c * c).sum::<f32>().sqrt();
    if len > 0.0 && len.is_finite() {
        q.map(|c| c / len)
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

/// `slerp(identity, d, a)`: the rotation `d` scaled to the fraction `a` of its angle
/// (the short way round).
fn slerp_identity(d: Q, a: f64) -> Q {
    let d = d.normalize().positive_w();
    let half = d.w.clamp(-1.0, 1.0).acos();
    let s = half.sin();
    if s.abs() < 1e-9 {
        return Q::IDENTITY;
    }
    let k = (a * half).sin() / s;
    Q::new(d.x * k, d.y * k, d.z * k, (a * half).cos())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn axis(x: f64, y: f64, z: f64, degrees: f64) -> V4 {
        Q::axis_angle(
            crate::humanoid::math::V3::new(x, y, z),
            degrees.to_radians(),
        )
        .to_f32()
    }

    fn close(a: V4, b: V4) {
        let dot: f32 = (0..4).map(|k| a[k] * b[k]).sum();
        assert!(dot.abs() > 1.0 - 1e-6, "{a:?} != {b:?}");
    }

    const ONE: (&[usize], &[f32]) = (&[0], &[1.0]);

    fn one_channel(quat: bool) -> ((), Vec<Channel>) {
        let len = if quat { 4 } else { 3 };
        ((), vec![Channel { len, quat, slot: 0 }])
    }

    #[test]
    fn additive_rotation_turns_the_pose_below_by_a_share_of_the_layer_over_its_reference() {
        let (_, channels) = one_channel(true);
        // Below: 90° about x; the layer 90° about y over a reference of 30° about y; at
        // weight 0.5 the pose below turns by half of the 60° difference.
        let mut cur = vec![axis(1.0, 0.0, 0.0, 90.0)];
        add(
            ONE,
            0.5,
            &channels,
            &[axis(0.0, 1.0, 0.0, 90.0)],
            &[axis(0.0, 1.0, 0.0, 30.0)],
            &mut cur,
        );
        let expected =
            Q::from_f32(axis(1.0, 0.0, 0.0, 90.0)) * Q::from_f32(axis(0.0, 1.0, 0.0, 30.0));
        close(cur[0], expected.to_f32());
    }

    #[test]
    fn override_rotation_blends_in_the_shorter_hemisphere() {
        let (_, channels) = one_channel(true);
        // The layer's rotation given with w < 0: the same 90° about y.
        let mut cur = vec![[0.0, 0.0, 0.0, 1.0]];
        let layer = axis(0.0, 1.0, 0.0, 90.0).map(|c| -c);
        override_with(ONE, 0.5, &channels, &[layer], &mut cur);
        // Normalised lerp half way: 45° about y.
        close(cur[0], axis(0.0, 1.0, 0.0, 45.0));
    }

    #[test]
    fn additive_position_adds_the_weighted_difference() {
        let (_, channels) = one_channel(false);
        let mut cur = vec![[1.0, 2.0, 3.0, 0.0]];
        add(
            ONE,
            0.25,
            &channels,
            &[[4.0, 0.0, 0.0, 0.0]],
            &[[0.0, 4.0, 0.0, 0.0]],
            &mut cur,
        );
        assert_eq!(cur[0], [2.0, 1.0, 3.0, 0.0]);
    }
}
