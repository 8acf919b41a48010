//! Names of the humanoid curves an Animator binding (class 95, custom type 8) carries,
//! indexed by the binding's attribute (Unity 5.6 and later numbering).

const BODY_MUSCLES: [&str; 55] = [
    "Spine Front-Back",
    "Spine Left-Right",
    "Spine Twist Left-Right",
    "Chest Front-Back",
    "Chest Left-Right",
    "Chest Twist Left-Right",
    "UpperChest Front-Back",
    "UpperChest Left-Right",
    "UpperChest Twist Left-Right",
    "Neck Nod Down-Up",
    "Neck Tilt Left-Right",
    "Neck Turn Left-Right",
    "Head Nod Down-Up",
    "Head Tilt Left-Right",
    "Head Turn Left-Right",
    "Left Eye Down-Up",
    "Left Eye In-Out",
    "Right Eye Down-Up",
    "Right Eye In-Out",
    "Jaw Close",
    "Jaw Left-Right",
    "Left Upper Leg Front-Back",
    "Left Upper Leg In-Out",
    "Left Upper Leg Twist In-Out",
    "Left Lower Leg Stretch",
    "Left Lower Leg Twist In-Out",
    "Left Foot Up-Down",
    "Left Foot Twist In-Out",
    "Left Toes Up-Down",
    "Right Upper Leg Front-Back",
    "Right Upper Leg In-Out",
    "Right Upper Leg Twist In-Out",
    "Right Lower Leg Stretch",
    "Right Lower Leg Twist In-Out",
    "Right Foot Up-Down",
    "Right Foot Twist In-Out",
    "Right Toes Up-Down",
    "Left Shoulder Down-Up",
    "Left Shoulder Front-Back",
    "Left Arm Down-Up",
    "Left Arm Front-Back",
    "Left Arm Twist In-Out",
    "Left Forearm Stretch",
    "Left Forearm Twist In-Out",
    "Left Hand Down-Up",
    "Left Hand In-Out",
    "Right Shoulder Down-Up",
    "Right Shoulder Front-Back",
    "Right Arm Down-Up",
    "Right Arm Front-Back",
    "Right Arm Twist In-Out",
    "Right Forearm Stretch",
    "Right Forearm Twist In-Out",
    "Right Hand Down-Up",
    "Right Hand In-Out",
];

const GOALS: [&str; 4] = ["LeftFoot", "RightFoot", "LeftHand", "RightHand"];
const FINGERS: [&str; 5] = ["Thumb", "Index", "Middle", "Ring", "Little"];
const FINGER_DOFS: [&str; 4] = ["1 Stretched", "Spread", "2 Stretched", "3 Stretched"];
const TDOF_BONES: [&str; 21] = [
    "Spine",
    "Chest",
    "UpperChest",
    "Neck",
    "Head",
    "LeftUpperLeg",
    "LeftLowerLeg",
    "LeftFoot",
    "LeftToes",
    "RightUpperLeg",
    "RightLowerLeg",
    "RightFoot",
    "RightToes",
    "LeftShoulder",
    "LeftUpperArm",
    "LeftLowerArm",
    "LeftHand",
    "RightShoulder",
    "RightUpperArm",
    "RightLowerArm",
    "RightHand",
];
const TQ: [&str; 7] = ["T.x", "T.y", "T.z", "Q.x", "Q.y", "Q.z", "Q.w"];
const XYZ: [&str; 3] = ["x", "y", "z"];

/// Number of humanoid curve slots.
pub const MUSCLE_SLOTS: u32 = 200;

/// The name of humanoid curve `index`, or `None` past the table. `before_5_6` shifts the body
/// muscles of files made before UpperChest existed.
pub fn muscle_name(index: u32, before_5_6: bool) -> Option<String> {
    let i = if before_5_6 && index >= 48 {
        index + 3
    } else {
        index
    } as usize;
    Some(match i {
        0..=6 => format!("Motion{}", TQ[i]),
        7..=13 => format!("Root{}", TQ[i - 7]),
        14..=41 => format!("{}{}", GOALS[(i - 14) / 7], TQ[(i - 14) % 7]),
        42..=96 => BODY_MUSCLES[i - 42].to_string(),
        97..=136 => {
            let j = i - 97;
            let hand = if j < 20 { "Left" } else { "Right" };
            let finger = FINGERS[(j % 20) / 4];
            format!("{hand} {finger} {}", FINGER_DOFS[j % 4])
        }
        137..=199 => format!("{}TDOF.{}", TDOF_BONES[(i - 137) / 3], XYZ[(i - 137) % 3]),
        _ => return None,
    })
}

// Names as text-serialized (YAML) clips write them: a YAML clip stores each humanoid curve
// as a float curve of class 95 whose attribute is the curve's name. Body, root and goal curves
// are spelled as in the table; finger muscles are not: YAML writes
// `LeftHand.Index.1 Stretched` where the table (Unity's `HumanTrait.MuscleName`) says
// `Left Index 1 Stretched`.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The table's name for a YAML humanoid attribute (`LeftHand.Thumb.Spread` →
/// `Left Thumb Spread`); other names are returned as they are.
pub fn table_name(yaml: &str) -> Cow<'_, str> {
    let finger = ["LeftHand.", "RightHand."].iter().find_map(|hand| {
        let rest = yaml.strip_prefix(hand)?;
        let (finger, dof) = rest.split_once('.')?;
        let side = &hand[..hand.len() - "Hand.".len()];
        Some(format!("{side} {finger} {dof}"))
    });
    match finger {
        Some(name) => Cow::Owned(name),
        None => Cow::Borrowed(yaml),
    }
}

/// The humanoid curve index (Unity 5.6+ numbering) of a YAML attribute, or `None` when it
/// names no humanoid curve.
pub fn muscle_index(yaml: &str) -> Option<u32> {
    static INDEX: OnceLock<HashMap<String, u32>> = OnceLock::new();
    let index = INDEX.get_or_init(|| {
        (0..MUSCLE_SLOTS)
            .filter_map(|i| Some((muscle_name(i, false)?, i)))
            .collect()
    });
    index.get(table_name(yaml).as_ref()).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn finger_names_map_to_the_table() {
        assert_eq!(
            table_name("LeftHand.Index.1 Stretched"),
            "Left Index 1 Stretched"
        );
        assert_eq!(table_name("RightHand.Thumb.Spread"), "Right Thumb Spread");
        assert_eq!(table_name("Spine Front-Back"), "Spine Front-Back");
        assert_eq!(muscle_index("RootT.x"), Some(7));
        assert_eq!(muscle_index("Left Thumb 1 Stretched"), Some(97));
        assert_eq!(muscle_index("LeftHand.Thumb.1 Stretched"), Some(97));
        assert_eq!(muscle_index("RightHand.Little.3 Stretched"), Some(136));
        assert_eq!(muscle_index("m_IsActive"), None);
    }

    #[test]
    fn table_covers_unity_layout() {
        assert_eq!(muscle_name(0, false).unwrap(), "MotionT.x");
        assert_eq!(muscle_name(13, false).unwrap(), "RootQ.w");
        assert_eq!(muscle_name(14, false).unwrap(), "LeftFootT.x");
        assert_eq!(muscle_name(41, false).unwrap(), "RightHandQ.w");
        assert_eq!(muscle_name(42, false).unwrap(), "Spine Front-Back");
        assert_eq!(muscle_name(96, false).unwrap(), "Right Hand In-Out");
        assert_eq!(muscle_name(97, false).unwrap(), "Left Thumb 1 Stretched");
        assert_eq!(muscle_name(136, false).unwrap(), "Right Little 3 Stretched");
        assert_eq!(muscle_name(199, false).unwrap(), "RightHandTDOF.z");
        assert_eq!(muscle_name(200, false), None);
        // Before 5.6 the body muscles from UpperChest on are three slots earlier.
        assert_eq!(muscle_name(48, true).unwrap(), "Neck Nod Down-Up");
    }
}
