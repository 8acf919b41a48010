//! Layer masks as factors per property (spec §4.9): a generic skeleton mask gives each
//! joint a weight, a humanoid body mask switches the human pose's values (muscles, body,
//! goals, translation DoF) on or off by body part.
//!
//! The body mask's bits are those of the built `m_BodyMask` (`word0`, `word1`, `word2`):
//! bit 0 the root (body position and orientation, motion), bits 1 to 55 the 55 body muscles
//! in Unity's muscle order, bits 56 to 59 the IK goals (left foot, right foot, left hand,
//! right hand), bits 60 and 61 the left and right fingers, bits 64 to 82 the translation
//! DoF by body part. The table that maps an AvatarMask's 13 body parts to these bits was
//! measured by building masks with one part each (R2API's `CreateBodyMaskFromAvatarMask`,
//! cited by the spec); the per-muscle reading of the bits follows from it (each part's bits
//! are exactly its muscles, in muscle order).

use crate::humanoid::MUSCLE_COUNT;
use crate::humanoid::pose::slot;
use crate::rig::Skeleton;

/// The bits each AvatarMask body part (Unity's `AvatarMaskBodyPart` order: Root, Body,
/// Head, LeftLeg, RightLeg, LeftArm, RightArm, LeftFingers, RightFingers, LeftFootIK,
/// RightFootIK, LeftHandIK, RightHandIK) sets in `word0`, `word1`, `word2`.
const PART_BITS: [[u32; 3]; 13] = [
    [1, 0, 0],
    [1022, 3_221_225_472, 1],
    [4_193_280, 0, 6],
    [1_069_547_520, 0, 120],
    [3_221_225_472, 63, 1920],
    [0, 32704, 30720],
    [0, 16_744_448, 491_520],
    [0, 268_435_456, 0],
    [0, 536_870_912, 0],
    [0, 16_777_216, 0],
    [0, 33_554_432, 0],
    [0, 67_108_864, 0],
    [0, 134_217_728, 0],
];

/// Built body-mask words from an AvatarMask's per-part flags (`m_Mask`, 13 values, non-zero
/// = on). Missing parts count as on.
pub fn body_words(parts: &[u32]) -> Vec<u32> {
    let mut words = vec![0u32; 3];
    for (i, bits) in PART_BITS.iter().enumerate() {
        if parts.get(i).is_none_or(|&v| v != 0) {
            for (w, b) in words.iter_mut().zip(bits) {
                *w |= b;
            }
        }
    }
    words
}

/// The body-mask bit that gates a human-pose slot (`humanoid::pose::slot` numbering).
fn slot_bit(s: usize) -> Option<usize> {
    Some(match s {
        _ if s < slot::GOALS => 0,
        _ if s < slot::MUSCLES => 56 + (s - slot::GOALS) / 7,
        _ if s < slot::MUSCLES + MUSCLE_COUNT => {
            let m = s - slot::MUSCLES;
            match m {
                0..55 => 1 + m,
                55..75 => 60,
                _ => 61,
            }
        }
        _ if s < slot::COUNT => {
            // 21 TDoF bones: Spine, Chest, UpperChest share the body's bit.
            let bone = (s - slot::TDOF) / 3;
            64 + bone.saturating_sub(2)
        }
        _ => return None,
    })
}

/// The factor (0 or 1) of every human-pose slot under a body mask; all 1 without one.
pub fn human_factors(words: Option<&[u32]>) -> Vec<f32> {
    (0..slot::COUNT)
        .map(|s| match (words, slot_bit(s)) {
            (Some(words), Some(bit)) => match words.get(bit / 32) {
                Some(w) if w & (1 << (bit % 32)) == 0 => 0.0,
                _ => 1.0,
            },
            _ => 1.0,
        })
        .collect()
}

/// The factor of every joint under a skeleton mask (entries name a transform by path or
/// by its path hash written `0x%08x`). An empty mask is no mask (all 1); a joint a
/// non-empty mask does not list gets 0.
pub fn joint_factors(mask: &[(String, f32)], skeleton: &Skeleton) -> Vec<f32> {
    if mask.is_empty() {
        return vec![1.0; skeleton.joints.len()];
    }
    skeleton
        .joints
        .iter()
        .map(|joint| {
            let hex = format!("0x{:08x}", joint.path_hash);
            mask.iter()
                .find(|(name, _)| *name == joint.path || *name == hex)
                .map_or(0.0, |(_, w)| w.clamp(0.0, 1.0))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_part_on_is_the_built_full_mask() {
        let words = body_words(&[1; 13]);
        // The "no mask" words of built data, less the two body bits of word1 that no
        // muscle uses (they are part of Body too).
        assert_eq!(words, vec![0xFFFF_FFFF, 0xFFFF_FFFF, 0x7FFFF]);
    }

    #[test]
    fn each_muscle_bit_follows_the_part_table() {
        // Left leg only: muscles 21..29 on, others off; root off.
        let mut parts = [0u32; 13];
        parts[3] = 1;
        let f = human_factors(Some(&body_words(&parts)));
        for m in 0..MUSCLE_COUNT {
            let on = (21..29).contains(&m);
            assert_eq!(
                f[slot::MUSCLES + m],
                if on { 1.0 } else { 0.0 },
                "muscle {m}"
            );
        }
        assert_eq!(f[slot::ROOT], 0.0);
        // Right arm: muscles 46..55.
        let mut parts = [0u32; 13];
        parts[6] = 1;
        let f = human_factors(Some(&body_words(&parts)));
        let on: Vec<usize> = (0..MUSCLE_COUNT)
            .filter(|&m| f[slot::MUSCLES + m] == 1.0)
            .collect();
        assert_eq!(on, (46..55).collect::<Vec<_>>());
    }
}
