//! The body frame (`humanoid.md` §4): centre of mass from part centres and masses, body
//! orientation from the hips and shoulders, and the hips placement that puts the body where
//! the clip's RootT/RootQ say.
//!
//! Both are Unity's own rules, measured: on the T-pose they give the stored `m_RootX`
//! (centre of mass and body rotation) to 3e-7 of the human scale and 1e-7 rad on three
//! real avatars (morbman, a 2020.3 bundle; a VRoid character and a Ready Player Me
//! character, 2022.3 text Avatars), so the hips land where Unity puts them in every pose.

use super::math::{Q, Trs, V3};
use crate::avatar::{AvatarData, BODY_ORDER, HumanBone};

/// One body part of the centre of mass: its mass and the human nodes whose mean is its
/// centre.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub bone: HumanBone,
    pub mass: f64,
    pub points: Vec<usize>,
}

/// The parts of an avatar's centre of mass: the part-centre table of §4.2 over mapped
/// bones, as Unity computes it. The topmost mapped torso bone takes the UpperChest formula,
/// in which a missing Neck becomes the Head and a missing Shoulder the UpperArm; Foot,
/// Head, Hand, Toes (and eyes, jaw) are their joint.
///
/// One row is not what symmetry suggests: Unity's **left** forearm centre is the midpoint
/// of the left upper arm and the left hand, mid(LeftUpperArm, LeftHand), while the right
/// one is mid(RightLowerArm, RightHand). That is what reproduces the stored `m_RootX.t`:
/// with it the T-pose centre of mass matches to 3e-7 of the human scale on three avatars;
/// with the symmetric row it misses by 0.14–0.42 % of the scale, all of it towards the
/// body's right (+x), even on exactly mirror-symmetric T-poses.
pub fn mass_parts(avatar: &AvatarData) -> Vec<Part> {
    use HumanBone as B;
    let node = |b: HumanBone| avatar.bone_human_node(b);
    let either = |a: HumanBone, b: HumanBone| node(a).or_else(|| node(b));
    let torso_top = |b: HumanBone| {
        vec![
            node(b),
            either(B::Neck, B::Head),
            either(B::LeftShoulder, B::LeftUpperArm),
            either(B::RightShoulder, B::RightUpperArm),
        ]
    };
    let pair = |a: HumanBone, b: HumanBone| vec![node(a), node(b)];
    BODY_ORDER
        .iter()
        .filter(|&&bone| node(bone).is_some())
        .filter_map(|&bone| {
            let points = match bone {
                B::Hips => vec![
                    node(B::LeftUpperLeg),
                    node(B::RightUpperLeg),
                    node(B::Spine),
                ],
                B::LeftUpperLeg => pair(bone, B::LeftLowerLeg),
                B::RightUpperLeg => pair(bone, B::RightLowerLeg),
                B::LeftLowerLeg => pair(bone, B::LeftFoot),
                B::RightLowerLeg => pair(bone, B::RightFoot),
                B::Spine if node(B::Chest).is_some() => pair(bone, B::Chest),
                B::Chest if node(B::UpperChest).is_some() => pair(bone, B::UpperChest),
                B::Spine | B::Chest | B::UpperChest => torso_top(bone),
                B::Neck => pair(bone, B::Head),
                B::LeftShoulder => pair(bone, B::LeftUpperArm),
                B::RightShoulder => pair(bone, B::RightUpperArm),
                B::LeftUpperArm => pair(bone, B::LeftLowerArm),
                B::RightUpperArm => pair(bone, B::RightLowerArm),
                // Unity's row (see above): the left upper arm, not the left elbow.
                B::LeftLowerArm => pair(B::LeftUpperArm, B::LeftHand),
                B::RightLowerArm => pair(bone, B::RightHand),
                _ => vec![node(bone)],
            };
            let points: Option<Vec<usize>> = points.into_iter().collect();
            Some(Part {
                bone,
                mass: f64::from(avatar.bone_mass(bone)),
                points: points?,
            })
        })
        .collect()
}

/// The centre of mass of positions `p` (by human node).
pub fn centre_of_mass(parts: &[Part], p: &[V3]) -> V3 {
    let mut sum = V3::ZERO;
    let mut total = 0.0;
    for part in parts {
        let n = part.points.len() as f64;
        let centre = part
            .points
            .iter()
            .filter_map(|&i| p.get(i))
            .fold(V3::ZERO, |a, &b| a + b)
            * (1.0 / n);
        sum = sum + centre * part.mass;
        total += part.mass;
    }
    if total > 0.0 {
        sum * (1.0 / total)
    } else {
        sum
    }
}

/// The human nodes the body orientation is measured from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrientationNodes {
    pub left_arm: usize,
    pub right_arm: usize,
    pub left_leg: usize,
    pub right_leg: usize,
}

impl OrientationNodes {
    /// The avatar's upper arm and upper leg nodes, or `None` when it lacks one.
    pub fn new(avatar: &AvatarData) -> Option<OrientationNodes> {
        Some(OrientationNodes {
            left_arm: avatar.bone_human_node(HumanBone::LeftUpperArm)?,
            right_arm: avatar.bone_human_node(HumanBone::RightUpperArm)?,
            left_leg: avatar.bone_human_node(HumanBone::LeftUpperLeg)?,
            right_leg: avatar.bone_human_node(HumanBone::RightUpperLeg)?,
        })
    }

    /// The body orientation (§4.3, exact): up from mid-legs to mid-arms, right across both
    /// pairs, forward = right × up.
    pub fn orientation(&self, p: &[V3]) -> Q {
        let at = |i: usize| p.get(i).copied().unwrap_or_default();
        let (la, ra, ll, rl) = (
            at(self.left_arm),
            at(self.right_arm),
            at(self.left_leg),
            at(self.right_leg),
        );
        let up = ((la + ra) * 0.5 - (ll + rl) * 0.5).normalize();
        let right = ((ra - la) + (rl - ll)).normalize();
        let forward = right.cross(up).normalize();
        let right = up.cross(forward);
        Q::from_columns(right, up, forward)
    }
}

/// The Hips world transform that puts the body frame at `root_t` (already in metres) with
/// orientation `root_q`, given the provisional pose's centre of mass and orientation
/// measured with the Hips at the origin and unrotated (§4.4).
///
/// The centre of mass is [`mass_parts`]' (Unity's, which reproduces `m_RootX.t`), so the
/// body stands where Unity puts it in every pose, not only in the T-pose.
pub fn solve_hips(root_t: V3, root_q: Q, body_q_tpose: Q, com_p: V3, q_p: Q) -> (V3, Q) {
    let r = (root_q * body_q_tpose * q_p.conj()).normalize();
    (root_t - r.rotate(com_p), r)
}

/// The body frame the pose is placed from: RootT in metres and the normalised RootQ
/// (settled choice 5); without root motion the body keeps its height over the origin and
/// loses its heading (the rotation about the vertical that turns its forward off +Z).
pub fn body_frame(root_t: [f32; 3], root_q: [f32; 4], scale: f64, root_motion: bool) -> Trs {
    let t = V3::from_f32(root_t) * scale;
    let q = Q::from_f32(root_q).normalize();
    if root_motion {
        return Trs { t, q, s: V3::ONE };
    }
    let forward = q.rotate(V3::new(0.0, 0.0, 1.0));
    let heading = forward.x.atan2(forward.z);
    Trs {
        t: V3::new(0.0, t.y, 0.0),
        q: Q::axis_angle(V3::new(0.0, 1.0, 0.0), -heading) * q,
        s: V3::ONE,
    }
}

/// World positions of the human-skeleton nodes in the avatar's own T-pose
/// (`m_Human.m_SkeletonPose`, the Animator root at identity).
pub fn tpose_positions(avatar: &AvatarData) -> Vec<V3> {
    let h = &avatar.human;
    let mut world: Vec<Trs> = Vec::with_capacity(h.tpose.len());
    for (node, x) in h.skeleton.nodes.iter().zip(&h.tpose) {
        let local = Trs {
            t: V3::from_f32(x.t),
            q: Q::from_f32(x.q).normalize(),
            s: V3::from_f32(x.s),
        };
        let w = match node.parent.and_then(|i| world.get(i)) {
            Some(parent) => parent.then(&local),
            None => Trs::IDENTITY,
        };
        world.push(w);
    }
    world.into_iter().map(|w| w.t).collect()
}

/// The body frame of the avatar's own T-pose: centre of mass and orientation, what Unity
/// stores as `m_RootX` (reproduced to 3e-7 of the human scale and 1e-7 rad on real avatars).
pub fn tpose_body(avatar: &AvatarData) -> Option<(V3, Q)> {
    let p = tpose_positions(avatar);
    let com = centre_of_mass(&mass_parts(avatar), &p);
    Some((com, OrientationNodes::new(avatar)?.orientation(&p)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orientation_of_a_standing_body_is_identity() {
        let p = [
            V3::new(-0.2, 1.4, 0.0),
            V3::new(0.2, 1.4, 0.0),
            V3::new(-0.1, 0.9, 0.0),
            V3::new(0.1, 0.9, 0.0),
        ];
        let nodes = OrientationNodes {
            left_arm: 0,
            right_arm: 1,
            left_leg: 2,
            right_leg: 3,
        };
        assert!(nodes.orientation(&p).angle() < 1e-12);
        // Turned 90° to the right (forward +X): the left side is at +Z.
        let turned = p.map(|v| V3::new(v.z, v.y, -v.x));
        let q = nodes.orientation(&turned);
        let f = q.rotate(V3::new(0.0, 0.0, 1.0));
        assert!((f - V3::new(1.0, 0.0, 0.0)).length() < 1e-12, "{f:?}");
    }

    #[test]
    fn hips_solve_puts_the_centre_of_mass_at_root_t() {
        let com_p = V3::new(0.01, 0.12, -0.03);
        let q_p = Q::new(0.05, 0.1, 0.0, 1.0).normalize();
        let root_t = V3::new(0.5, 0.9, 2.0);
        let root_q = Q::new(0.0, 0.3, 0.0, 1.0).normalize();
        let (t, r) = solve_hips(root_t, root_q, Q::IDENTITY, com_p, q_p);
        // The posed body: COM at root_t, orientation root_q.
        assert!((t + r.rotate(com_p) - root_t).length() < 1e-12);
        assert!((r * q_p).dot(root_q).abs() > 1.0 - 1e-12);
    }

    #[test]
    fn without_root_motion_the_body_stands_over_the_origin_facing_forward() {
        let turn = Q::axis_angle(V3::new(0.0, 1.0, 0.0), 2.0);
        let lean = Q::axis_angle(V3::new(1.0, 0.0, 0.0), 0.3);
        let q = (turn * lean).to_f32();
        let body = body_frame([1.0, 0.9, -2.0], q, 2.0, false);
        assert!((body.t - V3::new(0.0, 1.8, 0.0)).length() < 1e-6);
        assert!(body.q.dot(lean).abs() > 1.0 - 1e-9, "{:?}", body.q);
        let moving = body_frame([1.0, 0.9, -2.0], q, 2.0, true);
        assert!((moving.t - V3::new(2.0, 1.8, -4.0)).length() < 1e-6);
    }
}
