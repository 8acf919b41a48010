//! Which muscle drives which axis of which bone (`HumanTrait.MuscleFromBone`,
//! `humanoid.md` §3.1), and the ZYRoll construction that turns a bone's three axis angles
//! into its local rotation (§3.2–3.3), with its inverse.

use super::math::Q;
use crate::avatar::{Axes, HumanBone};

/// Muscles: 55 body muscles, then 40 finger muscles (`HumanTrait.MuscleCount`).
pub const MUSCLE_COUNT: usize = 95;
/// Body muscles (`Spine Front-Back` … `Right Hand In-Out`).
pub const BODY_MUSCLE_COUNT: usize = 55;

/// The muscles of a bone's (x twist, y, z) axes; `None` where the axis has no muscle.
pub fn bone_muscles(bone: HumanBone) -> [Option<usize>; 3] {
    use HumanBone as B;
    if let Some((right, finger, phalanx)) = bone.finger_parts() {
        let base = BODY_MUSCLE_COUNT + 20 * usize::from(right) + 4 * finger;
        // Per finger: 0 `1 Stretched`, 1 `Spread`, 2 `2 Stretched`, 3 `3 Stretched`.
        return match phalanx {
            0 => [None, Some(base + 1), Some(base)],
            1 => [None, None, Some(base + 2)],
            _ => [None, None, Some(base + 3)],
        };
    }
    let (x, y, z) = match bone {
        B::LeftUpperLeg => (23, 22, 21),
        B::RightUpperLeg => (31, 30, 29),
        B::LeftLowerLeg => (25, -1, 24),
        B::RightLowerLeg => (33, -1, 32),
        B::LeftFoot => (-1, 27, 26),
        B::RightFoot => (-1, 35, 34),
        B::Spine => (2, 1, 0),
        B::Chest => (5, 4, 3),
        B::UpperChest => (8, 7, 6),
        B::Neck => (11, 10, 9),
        B::Head => (14, 13, 12),
        B::LeftShoulder => (-1, 38, 37),
        B::RightShoulder => (-1, 47, 46),
        B::LeftUpperArm => (41, 40, 39),
        B::RightUpperArm => (50, 49, 48),
        B::LeftLowerArm => (43, -1, 42),
        B::RightLowerArm => (52, -1, 51),
        B::LeftHand => (-1, 45, 44),
        B::RightHand => (-1, 54, 53),
        B::LeftToes => (-1, -1, 28),
        B::RightToes => (-1, -1, 36),
        B::LeftEye => (-1, 16, 15),
        B::RightEye => (-1, 18, 17),
        B::Jaw => (-1, 20, 19),
        _ => (-1, -1, -1),
    };
    [x, y, z].map(|m: i32| usize::try_from(m).ok())
}

/// The bone a muscle drives, and on which axis (0 twist, 1 y, 2 z).
pub fn muscle_bone(muscle: usize) -> Option<(HumanBone, usize)> {
    HumanBone::all().find_map(|b| {
        let axis = bone_muscles(b).iter().position(|&m| m == Some(muscle))?;
        Some((b, axis))
    })
}

/// Unity's name of a muscle (`HumanTrait.MuscleName`).
pub fn muscle_name(muscle: usize) -> Option<String> {
    if muscle >= MUSCLE_COUNT {
        return None;
    }
    crate::clip::muscles::muscle_name((super::slot::MUSCLES + muscle) as u32, false)
}

/// One axis's angle in radians for muscle value `u`, from the axis limits (§3.2). Values
/// outside [-1, 1] are not clamped.
pub fn muscle_angle(u: f64, min: f64, max: f64) -> f64 {
    let limit = if u >= 0.0 { max } else { -min };
    if limit > 0.0 {
        u * limit
    } else if limit == 0.0 {
        0.0
    } else {
        // The "free" sign (max < 0 or min > 0): not seen in avatars.
        u
    }
}

/// The half-angle tangent of an axis angle, clamped short of ±90° and signed by `sgn`.
pub fn half_tangent(angle: f64, sgn: f64) -> f64 {
    const EDGE: f64 = std::f64::consts::FRAC_PI_2 - 1e-6;
    if angle == 0.0 {
        // A locked axis or a muscle at rest: most axes of a frame, and tan is costly.
        return 0.0;
    }
    let t = libm::tan((angle / 2.0).clamp(-EDGE, EDGE));
    if sgn < 0.0 { -t } else { t }
}

/// The ZYRoll quaternion of three half-angle tangents: a twist about X, then a swing about
/// (0, t_y, t_z).
pub fn zy_roll(t: [f64; 3]) -> Q {
    let [x, y, z] = t;
    Q::new(x, y + x * z, z - x * y, 1.0).normalize()
}

/// A bone's axes in f64, ready for the per-frame maths.
#[derive(Clone, Copy, Debug)]
pub struct BoneAxes {
    pub pre_q: Q,
    pub post_q: Q,
    pub sgn: [f64; 3],
    pub min: [f64; 3],
    pub max: [f64; 3],
}

impl BoneAxes {
    /// From an avatar's axes (its rotations normalised).
    pub fn new(a: &Axes) -> BoneAxes {
        BoneAxes {
            pre_q: Q::from_f32(a.pre_q).normalize(),
            post_q: Q::from_f32(a.post_q).normalize(),
            sgn: a.sgn.map(f64::from),
            min: a.min.map(f64::from),
            max: a.max.map(f64::from),
        }
    }

    /// The three axis angles of muscle values `u` (x twist, y, z).
    pub fn angles(&self, u: [f64; 3]) -> [f64; 3] {
        [0, 1, 2].map(|k| muscle_angle(u[k], self.min[k], self.max[k]))
    }

    /// The bone's local rotation for axis angles: `preQ · ZYRoll · conj(postQ)`.
    pub fn rotation(&self, angles: [f64; 3]) -> Q {
        let t = [0, 1, 2].map(|k| half_tangent(angles[k], self.sgn[k]));
        self.pre_q * zy_roll(t) * self.post_q.conj()
    }

    /// The axis angles a local rotation has (the inverse of [`BoneAxes::rotation`]).
    pub fn angles_of(&self, local: Q) -> [f64; 3] {
        let a = (self.pre_q.conj() * local * self.post_q).positive_w();
        let (qx, qy, qz) = (a.x / a.w, a.y / a.w, a.z / a.w);
        let d = 1.0 + qx * qx;
        let t = [qx, (qy - qx * qz) / d, (qz + qx * qy) / d];
        [0, 1, 2].map(|k| 2.0 * (self.sgn[k].signum() * t[k]).atan())
    }

    /// Muscle values for axis angles (the inverse of [`BoneAxes::angles`] where the axis is
    /// not locked).
    pub fn muscles_of(&self, angles: [f64; 3]) -> [f64; 3] {
        [0, 1, 2].map(|k| {
            let limit = if angles[k] >= 0.0 {
                self.max[k]
            } else {
                -self.min[k]
            };
            if limit > 0.0 { angles[k] / limit } else { 0.0 }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn axes() -> BoneAxes {
        BoneAxes {
            pre_q: Q::new(0.15, -0.19, 0.78, 0.58).normalize(),
            post_q: Q::new(0.1, 0.0, 0.7, 0.7).normalize(),
            sgn: [1.0, -1.0, 1.0],
            min: [-1.5, -1.7, -1.0],
            max: [1.5, 1.7, 1.7],
        }
    }

    #[test]
    fn every_muscle_drives_exactly_one_axis() {
        for m in 0..MUSCLE_COUNT {
            let (bone, axis) = muscle_bone(m).unwrap_or_else(|| panic!("muscle {m}"));
            assert_eq!(bone_muscles(bone)[axis], Some(m));
        }
        assert_eq!(muscle_bone(95), None);
        assert!(bone_muscles(HumanBone::Hips).iter().all(Option::is_none));
    }

    #[test]
    fn muscle_names_name_their_bones() {
        assert_eq!(muscle_name(41).unwrap(), "Left Arm Twist In-Out");
        assert_eq!(muscle_bone(41), Some((HumanBone::LeftUpperArm, 0)));
        assert_eq!(muscle_name(56).unwrap(), "Left Thumb Spread");
        assert_eq!(muscle_bone(56), Some((HumanBone::LeftThumbProximal, 1)));
        assert_eq!(
            muscle_bone(94),
            Some((HumanBone::from_name("RightLittleDistal").unwrap(), 2))
        );
        for m in 0..MUSCLE_COUNT {
            let (bone, _) = muscle_bone(m).unwrap();
            let name = muscle_name(m).unwrap();
            let side = ["Left", "Right"]
                .iter()
                .find(|s| bone.name().starts_with(**s));
            if let Some(side) = side {
                assert!(name.starts_with(side), "{name} drives {bone}");
            }
        }
    }

    #[test]
    fn angles_scale_with_the_limit_on_their_side() {
        assert_eq!(muscle_angle(0.5, -0.4, 0.8), 0.4);
        assert_eq!(muscle_angle(-0.5, -0.4, 0.8), -0.2);
        assert_eq!(muscle_angle(2.0, -0.4, 0.8), 1.6);
        assert_eq!(muscle_angle(0.7, 0.0, 0.0), 0.0);
        assert_eq!(muscle_angle(0.7, 0.2, -0.1), 0.7);
    }

    #[test]
    fn zy_roll_is_twist_then_swing() {
        let t = [0.3, -0.2, 0.4];
        let twist = Q::new(t[0], 0.0, 0.0, 1.0).normalize();
        let swing = Q::new(0.0, t[1], t[2], 1.0).normalize();
        let q = zy_roll(t);
        assert!((q.dot(swing * twist) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn zy_roll_round_trips_through_its_inverse() {
        let a = axes();
        for angles in [[0.3, -0.5, 1.2], [-1.4, 0.9, -0.8], [0.0, 0.0, 0.0]] {
            let back = a.angles_of(a.rotation(angles));
            for k in 0..3 {
                assert!((back[k] - angles[k]).abs() < 1e-9, "{angles:?} {back:?}");
            }
        }
        let u = [0.5, -1.0, 2.0];
        let back = a.muscles_of(a.angles(u));
        assert!((0..3).all(|k| (back[k] - u[k]).abs() < 1e-12), "{back:?}");
    }
}
