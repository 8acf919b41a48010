//! The body of a rig at rest: what every tolerance and report relative to "the rig's size"
//! is a fraction of. Real rigs park weapon sockets and camera targets kilometres from the
//! character (Risk of Rain 2 parks unused weapons 1 km and 33 km away); measured over every
//! joint, such a rig is kilometres large and a tolerance of 1e-4 of it is metres. The body
//! is chosen as framing chooses it ([`crate::framing::body_joints`]): a humanoid's human
//! bones, else every joint, less the far outliers among them.

use crate::framing::{FAR_FACTOR, body_joints, median_centre};
use crate::humanoid::{HumanoidRig, JointLocal};
use crate::rig::Skeleton;
use crate::world::World;

/// A body size under this (rig units) is taken as 1: a rig whose joints all sit at one
/// point has no size to be a fraction of.
const MIN_SIZE: f32 = 1e-3;

/// A rig's body at rest: which joints make it up, its size, and the region around it.
#[derive(Clone, Debug, PartialEq)]
pub struct Body {
    /// Per joint: true when it is part of the body.
    pub joints: Vec<bool>,
    /// The largest extent, along X, Y or Z, of the body's joints at rest (rig units); 1
    /// when that is under 1e-3.
    pub size: f32,
    /// The body's centre (the component-wise median of its joints) and how far from it a
    /// point still counts as near ([`crate::framing::FAR_FACTOR`] times the body's median
    /// distance from it, and at least the body's size): Unity space, rig units.
    pub centre: [f64; 3],
    pub radius: f64,
    /// Every joint's world transform at rest (Unity space, relative to the rig's root).
    pub rest: Vec<World>,
}

impl Body {
    /// The body of `skeleton` at rest; `humanoid`'s human bones make it up when given.
    pub fn of(skeleton: &Skeleton, humanoid: Option<&HumanoidRig>) -> Body {
        let locals: Vec<JointLocal> = skeleton.joints.iter().map(JointLocal::rest).collect();
        let mut rest = Vec::new();
        crate::pose::world_matrices(skeleton, &locals, &mut rest);
        let points: Vec<[f32; 3]> = rest
            .iter()
            .map(|w| w.position().map(|c| c as f32))
            .collect();
        let marked = humanoid.map_or_else(Vec::new, |rig| human_joints(skeleton, rig));
        let joints = body_joints(&points, &marked);
        let body: Vec<[f32; 3]> = points
            .iter()
            .zip(&joints)
            .filter(|(_, b)| **b)
            .map(|(p, _)| *p)
            .collect();
        let size = extent(&body);
        let size = if size.is_finite() && size > MIN_SIZE {
            size
        } else {
            1.0
        };
        let centre = median_centre(&body).unwrap_or([0.0; 3]).map(f64::from);
        let typical = median(
            body.iter()
                .map(|p| distance(p.map(f64::from), centre))
                .collect(),
        );
        let radius = (f64::from(FAR_FACTOR) * typical).max(f64::from(size));
        Body {
            joints,
            size,
            centre,
            radius,
            rest,
        }
    }

    /// True when the world point `p` (Unity space) lies near the body: a joint there is
    /// the character's, not a socket parked far away.
    pub fn is_near(&self, p: [f64; 3]) -> bool {
        distance(p, self.centre) <= self.radius
    }

    /// Per joint, in one posed frame (`points`: every joint's world position, in any space
    /// the rest pose's distances hold in): true for the body's joints, and for the others
    /// that lie within [`Body::radius`] of the body's centre in that frame. What is measured
    /// against the body's size: not a socket a clip parks far away.
    pub fn near(&self, points: &[[f64; 3]]) -> Vec<bool> {
        near_body(&self.joints, self.radius, points)
    }

    /// Per joint: the largest distance at rest (rig units) from it to itself or any
    /// joint below it that lies near the body: how far a turn of the joint moves the
    /// character's points. 0 for a joint with nothing near the body at or below it.
    pub fn reach(&self, skeleton: &Skeleton) -> Vec<f32> {
        let n = skeleton.joints.len().min(self.rest.len());
        let mut reach = vec![0.0f64; n];
        // Every joint's ancestors, walked up from each joint near the body.
        for j in 0..n {
            let p = self.rest[j].position();
            if !self.is_near(p) {
                continue;
            }
            let mut at = Some(j);
            let mut steps = 0;
            while let Some(a) = at.filter(|&a| a < n && steps <= n) {
                let d = distance(p, self.rest[a].position());
                reach[a] = reach[a].max(d);
                at = skeleton.joints[a].parent.filter(|&p| p < a);
                steps += 1;
            }
        }
        reach.iter().map(|&r| r as f32).collect()
    }
}

/// [`Body::near`] from the body's joints (`in_body`) and radius.
pub fn near_body(in_body: &[bool], radius: f64, points: &[[f64; 3]]) -> Vec<bool> {
    let body: Vec<[f32; 3]> = points
        .iter()
        .zip(in_body)
        .filter(|(_, b)| **b)
        .map(|(p, _)| p.map(|c| c as f32))
        .collect();
    let centre = median_centre(&body).unwrap_or([0.0; 3]).map(f64::from);
    points
        .iter()
        .enumerate()
        .map(|(j, p)| in_body.get(j).copied().unwrap_or(false) || distance(*p, centre) <= radius)
        .collect()
}

/// Per joint of `skeleton`: true for the human bones of `rig`.
pub fn human_joints(skeleton: &Skeleton, rig: &HumanoidRig) -> Vec<bool> {
    (0..skeleton.joints.len())
        .map(|j| rig.joint_bone(j).is_some())
        .collect()
}

/// The body's size ([`Body::size`]) of `skeleton` at rest.
pub fn body_size(skeleton: &Skeleton, humanoid: Option<&HumanoidRig>) -> f32 {
    Body::of(skeleton, humanoid).size
}

/// The largest extent along X, Y or Z of the finite points.
fn extent(points: &[[f32; 3]]) -> f32 {
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for p in points.iter().filter(|p| p.iter().all(|c| c.is_finite())) {
        for i in 0..3 {
            lo[i] = lo[i].min(p[i]);
            hi[i] = hi[i].max(p[i]);
        }
    }
    (0..3).map(|i| hi[i] - lo[i]).fold(0.0, f32::max)
}

fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f64>().sqrt()
}

/// The median of finite values; 0 for none.
fn median(mut values: Vec<f64>) -> f64 {
    values.retain(|v| v.is_finite());
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    (values[(n - 1) / 2] + values[n / 2]) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rig::Joint;

    fn joint(name: &str, parent: Option<usize>, at: [f32; 3]) -> Joint {
        Joint {
            name: name.to_string(),
            path: name.to_string(),
            path_hash: crate::path_hash(name),
            parent,
            position: at,
            rotation: [0.0, 0.0, 0.0, 1.0],
            scale: [1.0; 3],
            transform_id: 0,
        }
    }

    /// A 2 m generic figure under an unscaled root, with a socket parked 30 km away.
    fn parked() -> Skeleton {
        let joints = vec![
            joint("", None, [0.0; 3]),
            joint("Hips", Some(0), [0.0, 1.0, 0.0]),
            joint("Spine", Some(1), [0.0, 0.4, 0.0]),
            joint("Head", Some(2), [0.0, 0.6, 0.0]),
            joint("LeftHand", Some(2), [-0.8, 0.2, 0.0]),
            joint("RightHand", Some(2), [0.8, 0.2, 0.0]),
            joint("LeftFoot", Some(1), [-0.2, -1.0, 0.0]),
            joint("RightFoot", Some(1), [0.2, -1.0, 0.0]),
            joint("Weapon", Some(0), [0.0, 0.0, -30_000.0]),
        ];
        Skeleton { joints }
    }

    #[test]
    fn a_socket_parked_30_km_away_is_no_part_of_the_body_size() {
        let rig = parked();
        let body = Body::of(&rig, None);
        // Feet at 0, head at 2 m; hands 1.6 m apart.
        assert!((body.size - 2.0).abs() < 1e-6, "{}", body.size);
        assert!(!body.joints[8]);
        assert!(!body.is_near(body.rest[8].position()));
        assert!(body.is_near(body.rest[3].position()));
        // Reach: the Hips reach the feet (1.02 m) farther than the head or the hands (1 m);
        // the parked socket is not near the body, so it reaches nothing, and the root's
        // reach is the head's height.
        let reach = body.reach(&rig);
        assert!((reach[1] - 1.04f32.sqrt()).abs() < 1e-5, "{}", reach[1]);
        assert_eq!(reach[8], 0.0);
        assert!((reach[3]).abs() < 1e-6);
        assert!((reach[0] - 2.0).abs() < 1e-5, "{}", reach[0]);
    }
}
