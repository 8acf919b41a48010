//! Human bones: Unity's `HumanBodyBones` order and names, and the orders the Avatar stores
//! its bone maps in (`humanoid.md` §1.1).

/// A human bone, numbered as Unity's `HumanBodyBones` enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum HumanBone {
    Hips = 0,
    LeftUpperLeg = 1,
    RightUpperLeg = 2,
    LeftLowerLeg = 3,
    RightLowerLeg = 4,
    LeftFoot = 5,
    RightFoot = 6,
    Spine = 7,
    Chest = 8,
    Neck = 9,
    Head = 10,
    LeftShoulder = 11,
    RightShoulder = 12,
    LeftUpperArm = 13,
    RightUpperArm = 14,
    LeftLowerArm = 15,
    RightLowerArm = 16,
    LeftHand = 17,
    RightHand = 18,
    LeftToes = 19,
    RightToes = 20,
    LeftEye = 21,
    RightEye = 22,
    Jaw = 23,
    LeftThumbProximal = 24,
    LeftThumbIntermediate = 25,
    LeftThumbDistal = 26,
    LeftIndexProximal = 27,
    LeftIndexIntermediate = 28,
    LeftIndexDistal = 29,
    LeftMiddleProximal = 30,
    LeftMiddleIntermediate = 31,
    LeftMiddleDistal = 32,
    LeftRingProximal = 33,
    LeftRingIntermediate = 34,
    LeftRingDistal = 35,
    LeftLittleProximal = 36,
    LeftLittleIntermediate = 37,
    LeftLittleDistal = 38,
    RightThumbProximal = 39,
    RightThumbIntermediate = 40,
    RightThumbDistal = 41,
    RightIndexProximal = 42,
    RightIndexIntermediate = 43,
    RightIndexDistal = 44,
    RightMiddleProximal = 45,
    RightMiddleIntermediate = 46,
    RightMiddleDistal = 47,
    RightRingProximal = 48,
    RightRingIntermediate = 49,
    RightRingDistal = 50,
    RightLittleProximal = 51,
    RightLittleIntermediate = 52,
    RightLittleDistal = 53,
    UpperChest = 54,
}

/// `HumanBodyBones` names, by value (0 Hips … 53 RightLittleDistal, 54 UpperChest).
const NAMES: [&str; HumanBone::COUNT] = [
    "Hips",
    "LeftUpperLeg",
    "RightUpperLeg",
    "LeftLowerLeg",
    "RightLowerLeg",
    "LeftFoot",
    "RightFoot",
    "Spine",
    "Chest",
    "Neck",
    "Head",
    "LeftShoulder",
    "RightShoulder",
    "LeftUpperArm",
    "RightUpperArm",
    "LeftLowerArm",
    "RightLowerArm",
    "LeftHand",
    "RightHand",
    "LeftToes",
    "RightToes",
    "LeftEye",
    "RightEye",
    "Jaw",
    "LeftThumbProximal",
    "LeftThumbIntermediate",
    "LeftThumbDistal",
    "LeftIndexProximal",
    "LeftIndexIntermediate",
    "LeftIndexDistal",
    "LeftMiddleProximal",
    "LeftMiddleIntermediate",
    "LeftMiddleDistal",
    "LeftRingProximal",
    "LeftRingIntermediate",
    "LeftRingDistal",
    "LeftLittleProximal",
    "LeftLittleIntermediate",
    "LeftLittleDistal",
    "RightThumbProximal",
    "RightThumbIntermediate",
    "RightThumbDistal",
    "RightIndexProximal",
    "RightIndexIntermediate",
    "RightIndexDistal",
    "RightMiddleProximal",
    "RightMiddleIntermediate",
    "RightMiddleDistal",
    "RightRingProximal",
    "RightRingIntermediate",
    "RightRingDistal",
    "RightLittleProximal",
    "RightLittleIntermediate",
    "RightLittleDistal",
    "UpperChest",
];

/// Every bone, by `HumanBodyBones` value.
const ALL: [HumanBone; HumanBone::COUNT] = [
    HumanBone::Hips,
    HumanBone::LeftUpperLeg,
    HumanBone::RightUpperLeg,
    HumanBone::LeftLowerLeg,
    HumanBone::RightLowerLeg,
    HumanBone::LeftFoot,
    HumanBone::RightFoot,
    HumanBone::Spine,
    HumanBone::Chest,
    HumanBone::Neck,
    HumanBone::Head,
    HumanBone::LeftShoulder,
    HumanBone::RightShoulder,
    HumanBone::LeftUpperArm,
    HumanBone::RightUpperArm,
    HumanBone::LeftLowerArm,
    HumanBone::RightLowerArm,
    HumanBone::LeftHand,
    HumanBone::RightHand,
    HumanBone::LeftToes,
    HumanBone::RightToes,
    HumanBone::LeftEye,
    HumanBone::RightEye,
    HumanBone::Jaw,
    HumanBone::LeftThumbProximal,
    HumanBone::LeftThumbIntermediate,
    HumanBone::LeftThumbDistal,
    HumanBone::LeftIndexProximal,
    HumanBone::LeftIndexIntermediate,
    HumanBone::LeftIndexDistal,
    HumanBone::LeftMiddleProximal,
    HumanBone::LeftMiddleIntermediate,
    HumanBone::LeftMiddleDistal,
    HumanBone::LeftRingProximal,
    HumanBone::LeftRingIntermediate,
    HumanBone::LeftRingDistal,
    HumanBone::LeftLittleProximal,
    HumanBone::LeftLittleIntermediate,
    HumanBone::LeftLittleDistal,
    HumanBone::RightThumbProximal,
    HumanBone::RightThumbIntermediate,
    HumanBone::RightThumbDistal,
    HumanBone::RightIndexProximal,
    HumanBone::RightIndexIntermediate,
    HumanBone::RightIndexDistal,
    HumanBone::RightMiddleProximal,
    HumanBone::RightMiddleIntermediate,
    HumanBone::RightMiddleDistal,
    HumanBone::RightRingProximal,
    HumanBone::RightRingIntermediate,
    HumanBone::RightRingDistal,
    HumanBone::RightLittleProximal,
    HumanBone::RightLittleIntermediate,
    HumanBone::RightLittleDistal,
    HumanBone::UpperChest,
];

/// Mecanim's internal body order (`m_HumanBoneIndex`, `m_HumanBoneMass`): not the
/// `HumanBodyBones` order, since UpperChest comes after Chest.
pub const BODY_ORDER: [HumanBone; BODY_BONES] = [
    HumanBone::Hips,
    HumanBone::LeftUpperLeg,
    HumanBone::RightUpperLeg,
    HumanBone::LeftLowerLeg,
    HumanBone::RightLowerLeg,
    HumanBone::LeftFoot,
    HumanBone::RightFoot,
    HumanBone::Spine,
    HumanBone::Chest,
    HumanBone::UpperChest,
    HumanBone::Neck,
    HumanBone::Head,
    HumanBone::LeftShoulder,
    HumanBone::RightShoulder,
    HumanBone::LeftUpperArm,
    HumanBone::RightUpperArm,
    HumanBone::LeftLowerArm,
    HumanBone::RightLowerArm,
    HumanBone::LeftHand,
    HumanBone::RightHand,
    HumanBone::LeftToes,
    HumanBone::RightToes,
    HumanBone::LeftEye,
    HumanBone::RightEye,
    HumanBone::Jaw,
];

/// Body bones in `m_HumanBoneIndex` (Unity 5.6 and later).
pub const BODY_BONES: usize = 25;
/// Body bones before Unity 5.6, which had no UpperChest.
pub const BODY_BONES_BEFORE_5_6: usize = 24;
/// Where UpperChest sits in the internal body order.
pub const UPPER_CHEST_SLOT: usize = 9;
/// Finger bones per hand in `m_HandBoneIndex` (finger-major: Thumb, Index, Middle, Ring,
/// Little × Proximal, Intermediate, Distal).
pub const HAND_BONES: usize = 15;

impl HumanBone {
    /// Number of bones (`HumanBodyBones.LastBone`).
    pub const COUNT: usize = 55;

    /// The bone with this `HumanBodyBones` value.
    pub fn from_index(index: usize) -> Option<HumanBone> {
        ALL.get(index).copied()
    }

    /// Every bone, in `HumanBodyBones` order.
    pub fn all() -> impl Iterator<Item = HumanBone> {
        ALL.into_iter()
    }

    /// The `HumanBodyBones` value.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The `HumanBodyBones` name (`"Hips"`, `"LeftThumbProximal"`, …).
    pub fn name(self) -> &'static str {
        NAMES[self.index()]
    }

    /// The bone a name names.
    pub fn from_name(name: &str) -> Option<HumanBone> {
        NAMES
            .iter()
            .position(|n| *n == name)
            .and_then(HumanBone::from_index)
    }

    /// The bone of finger slot `slot` (0..15) of `m_HandBoneIndex` on the given hand.
    pub fn finger(right: bool, slot: usize) -> Option<HumanBone> {
        if slot >= HAND_BONES {
            return None;
        }
        HumanBone::from_index(24 + 15 * usize::from(right) + slot)
    }

    /// For a finger bone: (right hand, finger 0..5 Thumb…Little, phalanx 0..3).
    pub fn finger_parts(self) -> Option<(bool, usize, usize)> {
        let i = self.index().checked_sub(24).filter(|&i| i < 30)?;
        Some((i >= 15, (i % 15) / 3, i % 3))
    }

    /// The same bone on the other side (Left ↔ Right); middle bones map to themselves.
    pub fn mirror(self) -> HumanBone {
        let name = self.name();
        let other = if let Some(rest) = name.strip_prefix("Left") {
            format!("Right{rest}")
        } else if let Some(rest) = name.strip_prefix("Right") {
            format!("Left{rest}")
        } else {
            return self;
        };
        HumanBone::from_name(&other).unwrap_or(self)
    }
}

impl std::fmt::Display for HumanBone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_human_body_bones() {
        assert_eq!(HumanBone::Hips.name(), "Hips");
        assert_eq!(
            HumanBone::from_index(24).unwrap().name(),
            "LeftThumbProximal"
        );
        assert_eq!(
            HumanBone::from_index(53).unwrap().name(),
            "RightLittleDistal"
        );
        assert_eq!(HumanBone::UpperChest.name(), "UpperChest");
        assert_eq!(HumanBone::from_index(55), None);
        assert_eq!(HumanBone::from_name("Jaw"), Some(HumanBone::Jaw));
    }

    #[test]
    fn internal_body_order_puts_upper_chest_after_chest() {
        let names: Vec<&str> = BODY_ORDER.iter().map(|&b| b.name()).collect();
        assert_eq!(
            &names[7..12],
            ["Spine", "Chest", "UpperChest", "Neck", "Head"]
        );
        assert_eq!(names[UPPER_CHEST_SLOT], "UpperChest");
        assert_eq!(names[24], "Jaw");
    }

    #[test]
    fn fingers_are_finger_major() {
        let b = HumanBone::finger(true, 4).unwrap();
        assert_eq!(b.name(), "RightIndexIntermediate");
        assert_eq!(b.finger_parts(), Some((true, 1, 1)));
        assert_eq!(HumanBone::Jaw.finger_parts(), None);
        assert_eq!(HumanBone::UpperChest.finger_parts(), None);
    }

    #[test]
    fn mirror_swaps_sides() {
        assert_eq!(HumanBone::LeftUpperArm.mirror(), HumanBone::RightUpperArm);
        assert_eq!(
            HumanBone::RightThumbProximal.mirror(),
            HumanBone::LeftThumbProximal
        );
        assert_eq!(HumanBone::Spine.mirror(), HumanBone::Spine);
        assert!(HumanBone::all().all(|b| b.mirror().mirror() == b));
    }
}
