//! Bevy curves over clipscope's curves, converting Unity's left-handed values to Bevy's
//! right-handed space on the way out.
//!
//! The conversion is the Z mirror of `unity-semantics.md` A5: position `(x, y, -z)`,
//! rotation `(-x, -y, z, w)`. Evaluation is per component, so flipping signs after
//! evaluating is the same as flipping every key's value and slopes: the mirror is applied
//! here, once, where tracks meet the Bevy scene. Scale never changes.

use std::sync::Arc;

use bevy::math::curve::{Curve as BevyCurve, Interval};
use bevy::prelude::*;

use clipscope_core::curve::{Curve, PackedCurves};

/// Signs of the Z mirror for positions.
pub const MIRROR_POSITION: [f32; 3] = [1.0, 1.0, -1.0];
/// Signs of the Z mirror for quaternions (x, y, z, w).
pub const MIRROR_ROTATION: [f32; 4] = [-1.0, -1.0, 1.0, 1.0];

/// A Unity position in Bevy's space.
pub fn position_to_bevy(p: [f32; 3]) -> Vec3 {
    Vec3::new(p[0], p[1], -p[2])
}

/// A Unity rotation (x, y, z, w) in Bevy's space.
pub fn rotation_to_bevy(q: [f32; 4]) -> Quat {
    let q = Quat::from_xyzw(-q[0], -q[1], q[2], q[3]);
    if q.length_squared() > 0.0 {
        q.normalize()
    } else {
        Quat::IDENTITY
    }
}

/// Unity's rotation of Euler angles in degrees with `Transform.RotationOrder` `order`
/// (0 XYZ, 1 XZY, 2 YZX, 3 YXZ, 4 ZXY (default), 5 ZYX; the first letter applies first), in
/// Unity's space.
pub fn euler_to_unity_quat(deg: [f32; 3], order: u8) -> Quat {
    Quat::from_array(clipscope_core::curve::euler_quat(deg, order))
}

/// One scalar Unity curve as a Bevy curve (float properties: no coordinate change).
#[derive(Clone, Debug, Reflect)]
pub struct ScalarTrack {
    #[reflect(ignore)]
    pub curve: Arc<Curve>,
}

impl BevyCurve<f32> for ScalarTrack {
    fn domain(&self) -> Interval {
        Interval::EVERYWHERE
    }
    fn sample_unchecked(&self, t: f32) -> f32 {
        self.curve.sample(t)
    }
}

/// Three Unity curves as a Bevy `Vec3`, each multiplied by a sign (the mirror for
/// positions, ones for scale).
#[derive(Clone, Debug, Reflect)]
pub struct Vec3Track {
    #[reflect(ignore)]
    pub xyz: Arc<[Curve; 3]>,
    pub signs: [f32; 3],
    /// The components packed side by side, when they share their key times.
    #[reflect(ignore)]
    pub packed: Option<PackedCurves<3>>,
}

impl Vec3Track {
    /// A track of three curves with per-component signs (the mirror into Bevy's space), packed
    /// when they share key times.
    pub fn new(xyz: Arc<[Curve; 3]>, signs: [f32; 3]) -> Self {
        let packed = PackedCurves::new(&xyz);
        Vec3Track { xyz, signs, packed }
    }

    fn components(&self, t: f32) -> [f32; 3] {
        match &self.packed {
            Some(p) => p.sample(t),
            None => sample_components(&self.xyz, t),
        }
    }
}

/// Samples curves one by one.
fn sample_components<const N: usize>(curves: &[Curve; N], t: f32) -> [f32; N] {
    curves.each_ref().map(|c| c.sample(t))
}

impl BevyCurve<Vec3> for Vec3Track {
    fn domain(&self) -> Interval {
        Interval::EVERYWHERE
    }
    fn sample_unchecked(&self, t: f32) -> Vec3 {
        Vec3::from_array(self.components(t)) * Vec3::from_array(self.signs)
    }
}

/// Four Unity quaternion curves sampled per component, mirrored, then normalized (the
/// player's job in Unity).
#[derive(Clone, Debug, Reflect)]
pub struct QuatTrack {
    #[reflect(ignore)]
    pub xyzw: Arc<[Curve; 4]>,
    /// The components packed side by side, when they share their key times.
    #[reflect(ignore)]
    pub packed: Option<PackedCurves<4>>,
}

impl QuatTrack {
    /// A rotation track of four curves, packed when they share key times.
    pub fn new(xyzw: Arc<[Curve; 4]>) -> Self {
        let packed = PackedCurves::new(&xyzw);
        QuatTrack { xyzw, packed }
    }
}

impl BevyCurve<Quat> for QuatTrack {
    fn domain(&self) -> Interval {
        Interval::EVERYWHERE
    }
    fn sample_unchecked(&self, t: f32) -> Quat {
        let q = match &self.packed {
            Some(p) => p.sample(t),
            None => sample_components(&self.xyzw, t),
        };
        rotation_to_bevy(q)
    }
}

/// Three Unity Euler curves (degrees) turned into a rotation with Unity's rotation order,
/// then mirrored.
#[derive(Clone, Debug, Reflect)]
pub struct EulerTrack {
    #[reflect(ignore)]
    pub xyz: Arc<[Curve; 3]>,
    pub order: u8,
}

impl BevyCurve<Quat> for EulerTrack {
    fn domain(&self) -> Interval {
        Interval::EVERYWHERE
    }
    fn sample_unchecked(&self, t: f32) -> Quat {
        let [x, y, z] = &*self.xyz;
        let q = euler_to_unity_quat([x.sample(t), y.sample(t), z.sample(t)], self.order);
        rotation_to_bevy(q.to_array())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zxy_order_applies_z_then_x_then_y() {
        // A point on +X, rotated 90° about Z (to +Y), then 90° about X (to +Z), then 90°
        // about Y (to +X): Unity's default order.
        let q = euler_to_unity_quat([90.0, 90.0, 90.0], 4);
        let p = q * Vec3::X;
        assert!((p - Vec3::X).length() < 1e-5, "{p}");
        // XYZ: X first (X stays), then Y (to -Z), then Z (stays -Z).
        let p = euler_to_unity_quat([90.0, 90.0, 90.0], 0) * Vec3::X;
        assert!((p - Vec3::NEG_Z).length() < 1e-5, "{p}");
    }

    #[test]
    fn mirror_keeps_rotations_consistent_with_positions() {
        // Rotating Unity's forward (+Z) 90° about Y gives +X in Unity. In Bevy, forward is
        // -Z and the same rotation, mirrored, must map mirrored forward to mirrored +X.
        let unity = Quat::from_rotation_y(90f32.to_radians());
        let bevy = rotation_to_bevy(unity.to_array());
        let forward = position_to_bevy([0.0, 0.0, 1.0]);
        let expected = position_to_bevy((unity * Vec3::Z).to_array());
        assert!((bevy * forward - expected).length() < 1e-5);
        assert_eq!(forward, Vec3::NEG_Z);
    }
}
