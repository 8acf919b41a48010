//! What a seam or step does to the joint it moves, in units a viewer would notice: a
//! position by the distance moved relative to the rig's size, a rotation by the angle turned
//! (q and -q are the same rotation; Euler angles are converted first), a scale by its
//! relative change, a float curve relative to its range over the clip. Slope jumps likewise,
//! per second. A measured jump is a *problem* above a visible threshold and a *note* below.

use serde::Serialize;

use crate::curve::euler_quat;
use crate::humanoid::HumanoidRig;
use crate::rig::Skeleton;

/// What a seam or step entry measures, and so the unit of its `jump` and `slope_jump`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// Distance between the two positions, in rig sizes.
    Position,
    /// Angle between the two rotations, in degrees.
    Rotation,
    /// Largest relative change of a scale component.
    Scale,
    /// Change relative to the curve's range over the clip.
    Float,
    /// A humanoid muscle curve not posed on a humanoid rig: change relative to the muscle's
    /// range [-1, 1] (so a jump of 2 is 1).
    Muscle,
}

/// Whether a viewer would notice a seam or step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Above the visible threshold: `check --strict` fails on it.
    Problem,
    /// Below it: listed in JSON, counted in text.
    Note,
}

/// The visible thresholds of seams and steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    /// Position jump, in rig sizes (default 0.005: 9 mm on a 1.8 m rig).
    pub position: f32,
    /// Rotation jump, degrees (default 1).
    pub angle: f32,
    /// Scale jump relative to the scale, and float jump relative to the curve's range
    /// (default 0.02).
    pub range: f32,
    /// Linear speed jump, rig sizes per second (default 0.25).
    pub position_speed: f32,
    /// Angular speed jump, degrees per second (default 45).
    pub angular_speed: f32,
    /// Scale and float speed jump, relative (or range fractions) per second (default 0.25).
    pub range_speed: f32,
}

impl Default for Thresholds {
    fn default() -> Thresholds {
        Thresholds::new(0.005, 1.0, 0.02)
    }
}

impl Thresholds {
    /// Thresholds from the three value thresholds (`--seam-position`, `--seam-angle`,
    /// `--seam-range`); the slope thresholds keep their default ratio to them (50 per second
    /// for positions, 45 for angles, 12.5 for scales and floats).
    pub fn new(position: f32, angle: f32, range: f32) -> Thresholds {
        Thresholds {
            position,
            angle,
            range,
            position_speed: position * 50.0,
            angular_speed: angle * 45.0,
            range_speed: range * 12.5,
        }
    }

    /// (jump, slope jump) thresholds of a measure.
    pub fn of(&self, measure: Measure) -> (f32, f32) {
        match measure {
            Measure::Position => (self.position, self.position_speed),
            Measure::Rotation => (self.angle, self.angular_speed),
            Measure::Scale | Measure::Float | Measure::Muscle => (self.range, self.range_speed),
        }
    }

    /// The severity of a measured jump. `corner` is the sharpest slope change inside the
    /// clip's motion of the same joint: a slope jump counts only when sharper than that too.
    pub fn severity(&self, measure: Measure, jump: f32, slope_jump: f32, corner: f32) -> Severity {
        let (value, slope) = self.of(measure);
        if jump > value || (slope_jump > slope && slope_jump > corner) {
            Severity::Problem
        } else {
            Severity::Note
        }
    }

    /// True when a measured jump is too small to list at all: below a thousandth of the
    /// default thresholds (a 0.1 mm jump on a 1.8 m rig is still listed as a note).
    pub fn negligible(measure: Measure, jump: f32, slope_jump: f32) -> bool {
        let (value, slope) = Thresholds::default().of(measure);
        jump <= value * 1e-3 && slope_jump <= slope * 1e-3
    }
}

/// What a group of curves sets, for measuring.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Quantity {
    Position,
    /// Quaternion components x, y, z, w.
    Rotation,
    /// Euler angles in degrees with Unity's rotation order.
    Euler(u8),
    Scale,
    /// One float curve with its range over the clip.
    Float {
        range: f32,
    },
    Muscle,
}

impl Quantity {
    /// The measure a jump of this quantity is reported in (Euler angles as rotations).
    pub fn measure(self) -> Measure {
        match self {
            Quantity::Position => Measure::Position,
            Quantity::Rotation | Quantity::Euler(_) => Measure::Rotation,
            Quantity::Scale => Measure::Scale,
            Quantity::Float { .. } => Measure::Float,
            Quantity::Muscle => Measure::Muscle,
        }
    }
}

/// (value, slope per second) of each component on one side of a seam or step.
pub type Sides = Vec<(f32, f32)>;

/// The measured (jump, slope jump) between the component values and slopes `before` and
/// `after`, in the unit of the quantity's [`Measure`]. `size` is the rig's size (positions).
/// Non-finite slopes count as 0 (held).
pub fn measure(
    quantity: Quantity,
    before: &[(f32, f32)],
    after: &[(f32, f32)],
    size: f32,
) -> (f32, f32) {
    let v = |s: &[(f32, f32)]| s.iter().map(|p| p.0 as f64).collect::<Vec<f64>>();
    let d = |s: &[(f32, f32)]| {
        s.iter()
            .map(|p| if p.1.is_finite() { p.1 as f64 } else { 0.0 })
            .collect::<Vec<f64>>()
    };
    let (vb, va, sb, sa) = (v(before), v(after), d(before), d(after));
    let size = if size.is_finite() && size > 0.0 {
        size as f64
    } else {
        1.0
    };
    let (jump, slope) = match quantity {
        Quantity::Position => (distance(&vb, &va) / size, distance(&sb, &sa) / size),
        Quantity::Scale => (relative(&vb, &va, &vb, &va), relative(&sb, &sa, &vb, &va)),
        Quantity::Float { range } => {
            let r = (range as f64).max(1e-9);
            (distance(&vb, &va) / r, distance(&sb, &sa) / r)
        }
        Quantity::Muscle => (distance(&vb, &va) / 2.0, distance(&sb, &sa) / 2.0),
        Quantity::Rotation => rotation_jump(quat_side(&vb, &sb), quat_side(&va, &sa)),
        Quantity::Euler(order) => {
            rotation_jump(euler_side(&vb, &sb, order), euler_side(&va, &sa, order))
        }
    };
    (finite(jump), finite(slope))
}

fn finite(x: f64) -> f32 {
    if x.is_finite() { x as f32 } else { f32::MAX }
}

fn distance(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y) * (x - y))
        .sum::<f64>()
        .sqrt()
}

/// The largest component change of `a` to `b` relative to the larger magnitude of the
/// scale on either side (`ra`, `rb`), at least 0.001.
fn relative(a: &[f64], b: &[f64], ra: &[f64], rb: &[f64]) -> f64 {
    (0..a.len().min(b.len()))
        .map(|i| {
            let scale = ra.get(i).map_or(0.0, |x| x.abs());
            let scale = scale.max(rb.get(i).map_or(0.0, |x| x.abs())).max(1e-3);
            (a[i] - b[i]).abs() / scale
        })
        .fold(0.0, f64::max)
}

/// A quaternion in f64, x, y, z, w.
pub type Quat = [f64; 4];

/// The Hamilton product `a·b` in `f64`.
pub fn qmul(a: Quat, b: Quat) -> Quat {
    [
        a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
        a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
        a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
        a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
    ]
}

fn conj(q: Quat) -> Quat {
    [-q[0], -q[1], -q[2], q[3]]
}

fn dot(a: Quat, b: Quat) -> f64 {
    (0..4).map(|i| a[i] * b[i]).sum()
}

/// A unit rotation and its angular velocity (radians per second, parent space).
type Spin = (Quat, [f64; 3]);

/// The angle in degrees between two rotations (q and -q are the same rotation).
pub fn angle_between(a: Quat, b: Quat) -> f64 {
    let r = qmul(a, conj(b));
    let v = (r[0] * r[0] + r[1] * r[1] + r[2] * r[2]).sqrt();
    2.0 * v.atan2(r[3].abs()).to_degrees()
}

fn rotation_jump(before: Spin, after: Spin) -> (f64, f64) {
    let w = [0, 1, 2].map(|i| before.1[i] - after.1[i]);
    let speed = (w[0] * w[0] + w[1] * w[1] + w[2] * w[2])
        .sqrt()
        .to_degrees();
    (angle_between(before.0, after.0), speed)
}

/// A quaternion (scaled to unit length, the identity when it has none) and its angular
/// velocity from the components' slopes.
fn quat_side(v: &[f64], s: &[f64]) -> Spin {
    let q: Quat = [0, 1, 2, 3].map(|i| v.get(i).copied().unwrap_or(0.0));
    let s: Quat = [0, 1, 2, 3].map(|i| s.get(i).copied().unwrap_or(0.0));
    let len = dot(q, q).sqrt();
    if !(len > 0.0 && len.is_finite()) {
        return ([0.0, 0.0, 0.0, 1.0], [0.0; 3]);
    }
    let n = q.map(|c| c / len);
    let along = dot(n, s);
    let dn: Quat = [0, 1, 2, 3].map(|i| (s[i] - n[i] * along) / len);
    (n, angular_velocity(n, dn))
}

/// `2·(q̇·q⁻¹)`'s vector part: the angular velocity of a unit rotation `q` moving at `dq`.
fn angular_velocity(q: Quat, dq: Quat) -> [f64; 3] {
    let w = qmul(dq, conj(q));
    [2.0 * w[0], 2.0 * w[1], 2.0 * w[2]]
}

/// Euler angles (degrees) as a rotation, and its angular velocity from the angles' slopes
/// (degrees per second) by a central difference over a step turning at most half a degree.
fn euler_side(v: &[f64], s: &[f64], order: u8) -> Spin {
    let at = |h: f64| {
        let deg = [0, 1, 2].map(|i| {
            (v.get(i).copied().unwrap_or(0.0) + s.get(i).copied().unwrap_or(0.0) * h) as f32
        });
        euler_quat(deg, order).map(f64::from)
    };
    let q = at(0.0);
    let fastest = s.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if fastest == 0.0 || !fastest.is_finite() {
        return (q, [0.0; 3]);
    }
    let h = 0.5 / fastest;
    let (plus, minus) = (at(h), at(-h));
    let dq: Quat = [0, 1, 2, 3].map(|i| (plus[i] - minus[i]) / (2.0 * h));
    (q, angular_velocity(q, dq))
}

/// The size of a rig: its body's ([`crate::body::Body::size`]: the largest extent of a
/// humanoid's human bones, else of its joints less the far outliers, at rest), so a socket
/// parked kilometres away does not make every seam look small; 1 unit without a rig.
pub fn rig_size(skeleton: Option<&Skeleton>, humanoid: Option<&HumanoidRig>) -> f32 {
    skeleton.map_or(1.0, |s| crate::body::body_size(s, humanoid))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sides(v: &[f32]) -> Sides {
        v.iter().map(|&x| (x, 0.0)).collect()
    }

    #[test]
    fn q_and_minus_q_are_no_jump_and_angles_are_in_degrees() {
        let half = (5.0f32.to_radians() / 2.0).sin_cos();
        let q = [0.0, half.0, 0.0, half.1];
        let minus = q.map(|c| -c);
        let (jump, _) = measure(Quantity::Rotation, &sides(&q), &sides(&minus), 1.0);
        assert!(jump < 1e-4, "{jump}");
        let (jump, _) = measure(
            Quantity::Rotation,
            &sides(&q),
            &sides(&[0.0, 0.0, 0.0, 1.0]),
            1.0,
        );
        assert!((jump - 5.0).abs() < 1e-3, "{jump}");
    }

    #[test]
    fn euler_angles_wrapping_by_360_degrees_are_no_jump_and_speeds_are_in_degrees() {
        let (jump, slope) = measure(
            Quantity::Euler(4),
            &[(360.0, 90.0), (0.0, 0.0), (0.0, 0.0)],
            &[(0.0, 0.0), (0.0, 0.0), (0.0, 0.0)],
            1.0,
        );
        assert!(jump < 1e-3, "{jump}");
        assert!((slope - 90.0).abs() < 0.05, "{slope}");
    }

    #[test]
    fn quaternion_slopes_give_the_angular_speed() {
        // Turning about Y at 2 rad/s from the identity: q̇ = (0, 1, 0, 0).
        let (_, slope) = measure(
            Quantity::Rotation,
            &[(0.0, 0.0), (0.0, 1.0), (0.0, 0.0), (1.0, 0.0)],
            &sides(&[0.0, 0.0, 0.0, 1.0]),
            1.0,
        );
        assert!((slope - 2f32.to_degrees()).abs() < 1e-3, "{slope}");
    }

    #[test]
    fn positions_scales_and_floats_are_relative() {
        let (jump, _) = measure(
            Quantity::Position,
            &sides(&[0.0, 0.0, 0.02]),
            &sides(&[0.0; 3]),
            2.0,
        );
        assert!((jump - 0.01).abs() < 1e-6);
        let (jump, _) = measure(
            Quantity::Scale,
            &sides(&[2.0, 1.0, 1.0]),
            &sides(&[2.1, 1.0, 1.0]),
            1.0,
        );
        assert!((jump - 0.1 / 2.1).abs() < 1e-6);
        let (jump, slope) = measure(
            Quantity::Float { range: 50.0 },
            &[(10.0, 5.0)],
            &[(11.0, 0.0)],
            1.0,
        );
        assert!((jump - 0.02).abs() < 1e-6 && (slope - 0.1).abs() < 1e-6);
    }

    #[test]
    fn severity_follows_the_thresholds() {
        let t = Thresholds::default();
        assert_eq!(t.severity(Measure::Rotation, 0.5, 0.0, 0.0), Severity::Note);
        assert_eq!(
            t.severity(Measure::Rotation, 5.0, 0.0, 0.0),
            Severity::Problem
        );
        assert_eq!(
            t.severity(Measure::Rotation, 0.0, 46.0, 0.0),
            Severity::Problem
        );
        // No sharper than the motion's own corners: a note.
        assert_eq!(
            t.severity(Measure::Rotation, 0.0, 46.0, 50.0),
            Severity::Note
        );
        let loose = Thresholds::new(0.005, 10.0, 0.02);
        assert_eq!(
            loose.severity(Measure::Rotation, 5.0, 0.0, 0.0),
            Severity::Note
        );
        assert_eq!(loose.angular_speed, 450.0);
    }
}
