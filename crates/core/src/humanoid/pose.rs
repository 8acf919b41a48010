//! A humanoid pose as a clip stores it: muscle values, the body (RootT/RootQ), the IK goals
//! and the translation DoF, filled from a clip's curves by Mecanim's humanoid curve index
//! (`humanoid.md` §2).

use std::sync::OnceLock;

use super::muscles::{BODY_MUSCLE_COUNT, MUSCLE_COUNT, muscle_name};
use crate::clip::muscles::muscle_index;
use crate::clip::{BindingKind, ClipData, GenericBinding};

pub use super::slot;

/// Bones with translation DoF curves, in slot order.
pub const TDOF_BONE_COUNT: usize = 21;

/// An IK goal: position and rotation relative to the body, position in human-scale units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Goal {
    pub t: [f32; 3],
    pub q: [f32; 4],
}

/// Which goal: the order of the goal slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoalKind {
    LeftFoot = 0,
    RightFoot = 1,
    LeftHand = 2,
    RightHand = 3,
}

/// The values of every humanoid curve at one time.
#[derive(Clone, Debug, PartialEq)]
pub struct HumanPose {
    pub motion_t: [f32; 3],
    pub motion_q: [f32; 4],
    /// The body position (centre of mass) in human-scale units, Animator space.
    pub root_t: [f32; 3],
    /// The body orientation relative to the avatar's T-pose body orientation.
    pub root_q: [f32; 4],
    /// LeftFoot, RightFoot, LeftHand, RightHand.
    pub goals: [Goal; 4],
    /// Muscle values by Unity's muscle index (`HumanTrait`): 55 body, then 40 finger.
    pub muscles: [f32; MUSCLE_COUNT],
    /// Translation DoF per bone (Spine … RightHand, slot order).
    pub tdof: [[f32; 3]; TDOF_BONE_COUNT],
}

const IDENTITY: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

impl Default for HumanPose {
    /// The muscle-zero pose with the body standing at human-scale height 1, facing forward
    /// (what a clip that lacks the root curves plays).
    fn default() -> HumanPose {
        HumanPose {
            motion_t: [0.0; 3],
            motion_q: IDENTITY,
            root_t: [0.0, 1.0, 0.0],
            root_q: IDENTITY,
            goals: [Goal {
                t: [0.0; 3],
                q: IDENTITY,
            }; 4],
            muscles: [0.0; MUSCLE_COUNT],
            tdof: [[0.0; 3]; TDOF_BONE_COUNT],
        }
    }
}

impl HumanPose {
    /// The pose with these (slot, value) pairs set on the default pose.
    pub fn from_values(values: impl IntoIterator<Item = (usize, f32)>) -> HumanPose {
        let mut pose = HumanPose::default();
        for (slot, value) in values {
            pose.set(slot, value);
        }
        pose
    }

    /// The pose of a clip at clip time `t` (no wrap mapping: map `t` first).
    pub fn sample(clip: &ClipData, t: f32) -> HumanPose {
        let mut pose = HumanPose::default();
        ClipMuscles::new(clip).sample(clip, t, &mut pose);
        pose
    }

    /// Sets one humanoid curve by slot; false (and nothing set) for a slot past the table.
    pub fn set(&mut self, slot: usize, value: f32) -> bool {
        let Some((part, i)) = locate(slot) else {
            return false;
        };
        match self.part_mut(part).get_mut(i) {
            Some(v) => {
                *v = value;
                true
            }
            None => false,
        }
    }

    /// The value of one humanoid curve.
    pub fn get(&self, slot: usize) -> Option<f32> {
        let (part, i) = locate(slot)?;
        self.part(part).get(i).copied()
    }

    fn part(&self, part: Part) -> &[f32] {
        match part {
            Part::MotionT => &self.motion_t,
            Part::MotionQ => &self.motion_q,
            Part::RootT => &self.root_t,
            Part::RootQ => &self.root_q,
            Part::GoalT(g) => self.goals.get(g).map_or(&[], |g| &g.t),
            Part::GoalQ(g) => self.goals.get(g).map_or(&[], |g| &g.q),
            Part::Muscles => &self.muscles,
            Part::Tdof(b) => self.tdof.get(b).map_or(&[], |v| v),
        }
    }

    fn part_mut(&mut self, part: Part) -> &mut [f32] {
        match part {
            Part::MotionT => &mut self.motion_t,
            Part::MotionQ => &mut self.motion_q,
            Part::RootT => &mut self.root_t,
            Part::RootQ => &mut self.root_q,
            Part::GoalT(g) => self.goals.get_mut(g).map_or(&mut [], |g| &mut g.t),
            Part::GoalQ(g) => self.goals.get_mut(g).map_or(&mut [], |g| &mut g.q),
            Part::Muscles => &mut self.muscles,
            Part::Tdof(b) => self.tdof.get_mut(b).map_or(&mut [], |v| v),
        }
    }

    /// The mirror pose (`m_Mirror`, §4.5): left and right muscles and goals swap, the
    /// `Left-Right` muscles change sign, `RootT.x` changes sign and `RootQ` becomes
    /// (x, −y, −z, w). Goals are mirrored like the body (their x and rotation), since they
    /// are body-relative; TDoF values swap sides unchanged (their frame is unknown).
    pub fn mirrored(&self) -> HumanPose {
        let table = mirror_table();
        let mut out = self.clone();
        for (m, &(other, sign)) in table.iter().enumerate() {
            out.muscles[m] = sign * self.muscles[other];
        }
        out.root_t[0] = -self.root_t[0];
        out.root_q = mirror_q(self.root_q);
        out.motion_t[0] = -self.motion_t[0];
        out.motion_q = mirror_q(self.motion_q);
        for (g, other) in [(0, 1), (1, 0), (2, 3), (3, 2)] {
            let src = self.goals[other];
            out.goals[g] = Goal {
                t: [-src.t[0], src.t[1], src.t[2]],
                q: mirror_q(src.q),
            };
        }
        for (b, other) in TDOF_MIRROR.iter().enumerate() {
            out.tdof[b] = self.tdof[*other];
        }
        out
    }
}

/// A group of slots in [`HumanPose`].
#[derive(Clone, Copy)]
enum Part {
    MotionT,
    MotionQ,
    RootT,
    RootQ,
    GoalT(usize),
    GoalQ(usize),
    Muscles,
    Tdof(usize),
}

/// The group of a slot and its place in the group.
fn locate(slot: usize) -> Option<(Part, usize)> {
    use slot::*;
    Some(match slot {
        0..=2 => (Part::MotionT, slot),
        3..=6 => (Part::MotionQ, slot - 3),
        7..=9 => (Part::RootT, slot - ROOT),
        10..=13 => (Part::RootQ, slot - ROOT - 3),
        14..=41 => {
            let (goal, c) = ((slot - GOALS) / 7, (slot - GOALS) % 7);
            if c < 3 {
                (Part::GoalT(goal), c)
            } else {
                (Part::GoalQ(goal), c - 3)
            }
        }
        42..=136 => (Part::Muscles, slot - MUSCLES),
        137..=199 => (Part::Tdof((slot - TDOF) / 3), (slot - TDOF) % 3),
        _ => return None,
    })
}

fn mirror_q(q: [f32; 4]) -> [f32; 4] {
    [q[0], -q[1], -q[2], q[3]]
}

/// TDoF bone order: Spine, Chest, UpperChest, Neck, Head, then the left leg (4), the right
/// leg (4), the left arm (4), the right arm (4).
const TDOF_MIRROR: [usize; TDOF_BONE_COUNT] = [
    0, 1, 2, 3, 4, 9, 10, 11, 12, 5, 6, 7, 8, 17, 18, 19, 20, 13, 14, 15, 16,
];

/// For each muscle: the muscle it takes its mirrored value from, and the sign.
fn mirror_table() -> &'static [(usize, f32); MUSCLE_COUNT] {
    static TABLE: OnceLock<[(usize, f32); MUSCLE_COUNT]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let names: Vec<String> = (0..MUSCLE_COUNT)
            .map(|m| muscle_name(m).unwrap_or_default())
            .collect();
        std::array::from_fn(|m| {
            let name = &names[m];
            let swapped = if let Some(rest) = name.strip_prefix("Left ") {
                format!("Right {rest}")
            } else if let Some(rest) = name.strip_prefix("Right ") {
                format!("Left {rest}")
            } else {
                name.clone()
            };
            let other = names.iter().position(|n| *n == swapped).unwrap_or(m);
            let sign = if m < BODY_MUSCLE_COUNT && name.contains("Left-Right") {
                -1.0
            } else {
                1.0
            };
            (other, sign)
        })
    })
}

/// The humanoid slot of a clip binding, in Unity 5.6+ numbering: binary clips keep the
/// stored index (shifted through its name for files made before 5.6), text clips the index
/// of the curve's name. `None` for bindings that are not humanoid curves.
pub fn humanoid_slot(binding: &GenericBinding) -> Option<usize> {
    if binding.kind() != BindingKind::Muscle {
        return None;
    }
    let index = binding
        .attribute_name
        .as_deref()
        .and_then(muscle_index)
        .unwrap_or(binding.attribute);
    Some(index as usize).filter(|&i| i < slot::COUNT)
}

/// A clip's humanoid curves with their slots, found once and sampled every frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClipMuscles {
    /// (curve index in the clip, slot).
    pub curves: Vec<(usize, usize)>,
}

impl ClipMuscles {
    /// Finds the humanoid curves of `clip` and their slots.
    pub fn new(clip: &ClipData) -> ClipMuscles {
        let curves = clip
            .tracks
            .iter()
            .filter_map(|track| {
                let slot = humanoid_slot(clip.bindings.get(track.binding)?)?;
                Some((*track.curves.first()?, slot))
            })
            .collect();
        ClipMuscles { curves }
    }

    /// True when the clip has humanoid curves.
    pub fn is_humanoid(&self) -> bool {
        !self.curves.is_empty()
    }

    /// Writes the clip's humanoid curves at clip time `t` into `pose` (slots the clip has no
    /// curve for keep their value).
    pub fn sample(&self, clip: &ClipData, t: f32, pose: &mut HumanPose) {
        for &(curve, slot) in &self.curves {
            if let Some(v) = clip.sample_curve(curve, t) {
                pose.set(slot, v);
            }
        }
    }

    /// True when the clip has a curve for goal `goal` (0 LeftFoot, 1 RightFoot, 2 LeftHand,
    /// 3 RightHand): its position or rotation.
    pub fn has_goal(&self, goal: usize) -> bool {
        let first = slot::GOALS + 7 * goal;
        self.curves
            .iter()
            .any(|&(_, s)| (first..first + 7).contains(&s))
    }

    /// The muscles (0..95) the clip animates.
    pub fn muscles(&self) -> impl Iterator<Item = usize> + '_ {
        self.curves
            .iter()
            .filter_map(|&(_, s)| s.checked_sub(slot::MUSCLES).filter(|&m| m < MUSCLE_COUNT))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_land_in_their_fields() {
        let pose = HumanPose::from_values([
            (8, 0.9),
            (13, 0.5),
            (14 + 7 + 2, 0.25),
            (14 + 21 + 6, -1.0),
            (42 + 41, 0.75),
            (97, 0.125),
            (199, 3.0),
        ]);
        assert_eq!(pose.root_t, [0.0, 0.9, 0.0]);
        assert_eq!(pose.root_q[3], 0.5);
        assert_eq!(pose.goals[GoalKind::RightFoot as usize].t[2], 0.25);
        assert_eq!(pose.goals[GoalKind::RightHand as usize].q[3], -1.0);
        assert_eq!(pose.muscles[41], 0.75);
        assert_eq!(pose.muscles[55], 0.125);
        assert_eq!(pose.tdof[20][2], 3.0);
        assert_eq!(pose.get(42 + 41), Some(0.75));
        assert!(!HumanPose::default().clone().set(200, 1.0));
    }

    #[test]
    fn mirror_swaps_sides_and_negates_left_right_muscles() {
        let mut pose = HumanPose::default();
        pose.muscles[41] = 0.5; // Left Arm Twist In-Out
        pose.muscles[1] = 0.3; // Spine Left-Right
        pose.muscles[56] = 0.2; // Left Thumb Spread
        pose.muscles[15] = 0.1; // Left Eye Down-Up
        let m = pose.mirrored();
        assert_eq!(m.muscles[50], 0.5); // Right Arm Twist In-Out
        assert_eq!(m.muscles[41], 0.0);
        assert_eq!(m.muscles[1], -0.3);
        assert_eq!(m.muscles[76], 0.2); // Right Thumb Spread
        assert_eq!(m.muscles[17], 0.1); // Right Eye Down-Up
        assert_eq!(m.mirrored(), pose);
    }
}
