//! `.mask` files (AvatarMask, class 319) for a layer's skeleton and body masks, field by
//! field as Unity writes them: `m_Mask`, the 13 humanoid body parts each a `u32` in 8 hex
//! digits, little-endian (`01000000` on, `00000000` off), and `m_Elements`, the transform
//! paths with their weights.
//!
//! A built body mask is a set of bits (one per muscle, goal, finger group and translation
//! DoF, see [`crate::animator::mask`]); an AvatarMask turns body parts on or off as a whole.
//! A part is written on when all of its bits are set; words that are not a union of whole
//! parts cannot be written exactly and the report says so.

use serde::Serialize;

use super::out::Out;
use crate::animator::mask::body_words;

/// The main object's file id in a `.mask` file.
pub const MASK_FILE_ID: i64 = 31_900_000;

/// The 13 body parts of an AvatarMask, in Unity's order.
pub const BODY_PARTS: [&str; 13] = [
    "Root",
    "Body",
    "Head",
    "LeftLeg",
    "RightLeg",
    "LeftArm",
    "RightArm",
    "LeftFingers",
    "RightFingers",
    "LeftFootIK",
    "RightFootIK",
    "LeftHandIK",
    "RightHandIK",
];

/// What was written for one mask.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MaskReport {
    /// The layer whose mask it is.
    pub layer: String,
    /// The file written, set by whoever writes it to disk.
    pub written: Option<String>,
    /// Skeleton mask entries (transform paths with weights).
    pub elements: usize,
    /// Body parts written off (empty: every part on).
    pub parts_off: Vec<&'static str>,
    /// Paths that stayed hashes (`0x1a2b3c4d`).
    pub unresolved_paths: Vec<String>,
    /// What the body mask held that whole parts cannot say.
    pub inexact: Option<String>,
}

/// A written `.mask`.
#[derive(Clone, Debug)]
pub struct MaskText {
    /// The mask's name (the file name before it is made unique and safe).
    pub name: String,
    pub text: String,
    /// The guid for its `.meta`.
    pub guid: String,
    pub report: MaskReport,
}

/// The per-part flags of `words` (built body-mask words): a part is on when every one of
/// its bits is set. `None` words: every part on.
pub fn body_parts(words: Option<&[u32]>) -> [bool; 13] {
    let mut parts = [true; 13];
    let Some(words) = words else { return parts };
    for (i, on) in parts.iter_mut().enumerate() {
        let mut only = [0u32; 13];
        only[i] = 1;
        let bits = body_words(&only);
        *on = bits
            .iter()
            .enumerate()
            .all(|(w, b)| words.get(w).is_none_or(|word| word & b == *b));
    }
    parts
}

/// The `.mask` text named `name` for a skeleton mask and body-mask words, with its report.
pub fn mask_text(
    name: &str,
    layer: &str,
    elements: &[(String, f32)],
    body: Option<&[u32]>,
) -> (String, MaskReport) {
    let parts = body_parts(body);
    let mut o = Out {
        text: String::with_capacity(256 + 48 * elements.len()),
        spellings: Default::default(),
    };
    o.line(0, "%YAML 1.1");
    o.line(0, "%TAG !u! tag:unity3d.com,2011:");
    o.line(0, &format!("--- !u!319 &{MASK_FILE_ID}"));
    o.line(0, "AvatarMask:");
    o.int(2, "m_ObjectHideFlags", 0);
    o.line(2, "m_CorrespondingSourceObject: {fileID: 0}");
    o.line(2, "m_PrefabInstance: {fileID: 0}");
    o.line(2, "m_PrefabAsset: {fileID: 0}");
    o.string(2, "m_Name", name);
    let hex: String = parts
        .iter()
        .map(|&on| if on { "01000000" } else { "00000000" })
        .collect();
    o.line(2, &format!("m_Mask: {hex}"));
    if elements.is_empty() {
        o.line(2, "m_Elements: []");
    } else {
        o.line(2, "m_Elements:");
    }
    for (path, weight) in elements {
        o.string(2, "- m_Path", path);
        o.float(4, "m_Weight", *weight);
    }
    let inexact = body.and_then(|words| {
        if words.len() < 3 {
            // Before 5.2 the human had fewer bits (59 in two words); which of them are
            // which part is not measured, so the 5.2 table reads them.
            return Some(format!(
                "body mask words {words:08x?} are in the layout before 5.2; parts read with the 5.2 table"
            ));
        }
        let flags: Vec<u32> = parts.iter().map(|&on| u32::from(on)).collect();
        let back = body_words(&flags);
        let same = words.iter().zip(&back).all(|(w, b)| w == b);
        (!same).then(|| {
            format!(
                "body mask words {words:08x?} are not whole body parts; written as {:08x?}",
                &back[..words.len().min(back.len())]
            )
        })
    });
    let report = MaskReport {
        layer: layer.to_string(),
        written: None,
        elements: elements.len(),
        parts_off: BODY_PARTS
            .iter()
            .zip(parts)
            .filter(|(_, on)| !on)
            .map(|(n, _)| *n)
            .collect(),
        unresolved_paths: elements
            .iter()
            .flat_map(|(p, _)| p.split('/'))
            .filter(|p| super::controller_text::is_hash_name(p))
            .map(str::to_string)
            .collect(),
        inexact,
    };
    (o.text, report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_round_trip_through_their_bits() {
        // Upper body: Body, Head, arms and fingers on.
        let mut flags = [0u32; 13];
        for p in [1, 2, 5, 6, 7, 8] {
            flags[p] = 1;
        }
        let words = body_words(&flags);
        let parts = body_parts(Some(&words));
        let on: Vec<usize> = (0..13).filter(|&i| parts[i]).collect();
        assert_eq!(on, [1, 2, 5, 6, 7, 8]);
        let (text, report) = mask_text("Upper", "Upper", &[], Some(&words));
        assert!(text.contains(
            "m_Mask: 00000000010000000100000000000000000000000100000001000000010000000100000000000000000000000000000000000000\n"
        ), "{text}");
        assert_eq!(report.inexact, None);
        assert_eq!(
            report.parts_off,
            [
                "Root",
                "LeftLeg",
                "RightLeg",
                "LeftFootIK",
                "RightFootIK",
                "LeftHandIK",
                "RightHandIK"
            ]
        );
        // One muscle bit less than the left leg: the part is written off, and said so.
        let mut partial = words.clone();
        partial[0] |= body_words(&{
            let mut f = [0u32; 13];
            f[3] = 1;
            f
        })[0]
            & !(1 << 22);
        let (_, report) = mask_text("Odd", "Odd", &[], Some(&partial));
        assert!(report.inexact.is_some());
    }
}
