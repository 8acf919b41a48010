//! Avatar documents (class 90, `.asset`) into the binary reader's [`AvatarObject`], so
//! [`crate::avatar::AvatarData::from_raw`] checks and converts a text Avatar exactly as a
//! built one.
//!
//! The text layout differs from the binary one in three ways (seen on a Unity 2022.3 VRoid
//! avatar, `animationcliptovrma/VrmAvatar.asset`):
//! - the integer arrays `m_ID`, `m_HumanBoneIndex`, `m_HandBoneIndex`,
//!   `m_HumanSkeletonIndexArray`, `m_HumanSkeletonReverseIndexArray` and
//!   `m_SkeletonNameIDArray` are hex dumps of little-endian 32-bit integers (`ffffffff` is
//!   -1), one string each;
//! - `m_TOS` is a mapping from hash to path, not a list of pairs;
//! - flags (`m_HasLeftHand`, `m_HasTDoF`, …) are 0/1 scalars.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Visitor};

use super::document::Document;
use super::values::{from_body, restore, unity_floats};
use crate::unity::avatar::{self as raw, AvatarObject};
use crate::unity::clip::OffsetPtr;
use crate::unity::{Float, Int};

/// Most 32-bit values one hex field may hold (a real avatar has a few hundred nodes): the
/// input is untrusted, and the document's own length bounds it anyway.
const MAX_HEX_VALUES: usize = 1 << 20;

/// Reads one Avatar document.
pub(crate) fn read_avatar(doc: &Document) -> Result<AvatarObject, String> {
    let body = unity_floats(doc.body);
    let text: TextAvatar = from_body(doc, &body)?;
    let mut avatar = text.into_raw()?;
    restore(&mut avatar.m_Name);
    avatar.m_TOS.values_mut().for_each(restore);
    Ok(avatar)
}

/// A hex dump of little-endian 32-bit integers, as the text form writes integer arrays.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Hex(String);

impl<'de> Deserialize<'de> for Hex {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_string(HexVisitor)
    }
}

struct HexVisitor;

impl Visitor<'_> for HexVisitor {
    type Value = Hex;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a hex dump of little-endian 32-bit integers")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Hex, E> {
        Ok(Hex(v.trim().to_string()))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Hex, E> {
        Ok(Hex::default())
    }
}

impl Hex {
    /// The 32-bit words, in order.
    fn words(&self, what: &str) -> Result<Vec<u32>, String> {
        let s = self.0.as_bytes();
        if !s.len().is_multiple_of(8) {
            return Err(format!(
                "{what}: a hex dump of 32-bit integers has a multiple of 8 digits, not {}",
                s.len()
            ));
        }
        if s.len() / 8 > MAX_HEX_VALUES {
            return Err(format!(
                "{what}: {} values, more than the {MAX_HEX_VALUES} allowed",
                s.len() / 8
            ));
        }
        s.chunks_exact(8)
            .enumerate()
            .map(|(i, chunk)| {
                let mut bytes = [0u8; 4];
                for (b, pair) in bytes.iter_mut().zip(chunk.chunks_exact(2)) {
                    *b = hex_byte(pair).ok_or_else(|| {
                        format!(
                            "{what}: value {i} ({:?}) is not hex",
                            String::from_utf8_lossy(chunk)
                        )
                    })?;
                }
                Ok(u32::from_le_bytes(bytes))
            })
            .collect()
    }

    /// Signed indices (-1 for none), as the binary reader gives them.
    fn indices(&self, what: &str) -> Result<Vec<Int>, String> {
        Ok(self
            .words(what)?
            .into_iter()
            .map(|w| Int(i64::from(w as i32)))
            .collect())
    }

    /// Unsigned hashes, as the binary reader gives them.
    fn hashes(&self, what: &str) -> Result<Vec<Int>, String> {
        Ok(self
            .words(what)?
            .into_iter()
            .map(|w| Int(i64::from(w)))
            .collect())
    }
}

fn hex_byte(pair: &[u8]) -> Option<u8> {
    if !pair.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct TextAvatar {
    m_Name: String,
    m_Avatar: TextConstant,
    m_TOS: BTreeMap<u32, String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct TextConstant {
    m_AvatarSkeleton: Option<OffsetPtr<TextSkeleton>>,
    m_AvatarSkeletonPose: Option<OffsetPtr<raw::SkeletonPose>>,
    m_DefaultPose: Option<OffsetPtr<raw::SkeletonPose>>,
    m_Human: OffsetPtr<TextHuman>,
    m_HumanSkeletonIndexArray: Hex,
    m_HumanSkeletonReverseIndexArray: Option<Hex>,
    m_RootMotionBoneIndex: Int,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct TextSkeleton {
    m_Node: Vec<raw::Node>,
    m_ID: Hex,
    m_AxesArray: Vec<raw::Axes>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct TextHand {
    m_HandBoneIndex: Hex,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct TextHuman {
    m_RootX: raw::Xform,
    m_Skeleton: OffsetPtr<TextSkeleton>,
    m_SkeletonPose: OffsetPtr<raw::SkeletonPose>,
    m_LeftHand: OffsetPtr<TextHand>,
    m_RightHand: OffsetPtr<TextHand>,
    m_HumanBoneIndex: Hex,
    m_HumanBoneMass: Vec<Float>,
    m_Scale: Float,
    m_ArmTwist: Float,
    m_ForeArmTwist: Float,
    m_UpperLegTwist: Float,
    m_LegTwist: Float,
    m_ArmStretch: Float,
    m_LegStretch: Float,
    m_FeetSpacing: Float,
    m_HasLeftHand: Int,
    m_HasRightHand: Int,
    m_HasTDoF: Option<Int>,
}

impl TextSkeleton {
    fn into_raw(self, what: &str) -> Result<raw::Skeleton, String> {
        Ok(raw::Skeleton {
            m_ID: self.m_ID.hashes(&format!("{what}.m_ID"))?,
            m_Node: self.m_Node,
            m_AxesArray: self.m_AxesArray,
        })
    }
}

impl TextAvatar {
    fn into_raw(self) -> Result<AvatarObject, String> {
        let c = self.m_Avatar;
        let skeleton = match c.m_AvatarSkeleton {
            Some(s) => Some(OffsetPtr {
                data: s.data.into_raw("m_AvatarSkeleton")?,
            }),
            None => None,
        };
        let reverse = match &c.m_HumanSkeletonReverseIndexArray {
            Some(h) => Some(h.indices("m_HumanSkeletonReverseIndexArray")?),
            None => None,
        };
        Ok(AvatarObject {
            m_Name: self.m_Name,
            m_Avatar: raw::AvatarConstant {
                m_AvatarSkeleton: skeleton,
                m_Skeleton: None,
                m_AvatarSkeletonPose: c.m_AvatarSkeletonPose,
                m_SkeletonPose: None,
                m_DefaultPose: c.m_DefaultPose,
                m_Human: OffsetPtr {
                    data: c.m_Human.data.into_raw()?,
                },
                m_HumanSkeletonIndexArray: c
                    .m_HumanSkeletonIndexArray
                    .indices("m_HumanSkeletonIndexArray")?,
                m_HumanSkeletonReverseIndexArray: reverse,
                m_RootMotionBoneIndex: c.m_RootMotionBoneIndex,
            },
            m_TOS: self.m_TOS,
        })
    }
}

impl TextHuman {
    fn into_raw(self) -> Result<raw::Human, String> {
        let hand = |h: TextHand, what: &str| -> Result<OffsetPtr<raw::Hand>, String> {
            Ok(OffsetPtr {
                data: raw::Hand {
                    m_HandBoneIndex: h.m_HandBoneIndex.indices(what)?,
                },
            })
        };
        Ok(raw::Human {
            m_RootX: self.m_RootX,
            m_Skeleton: OffsetPtr {
                data: self.m_Skeleton.data.into_raw("m_Human.m_Skeleton")?,
            },
            m_SkeletonPose: self.m_SkeletonPose,
            m_LeftHand: hand(self.m_LeftHand.data, "m_LeftHand.m_HandBoneIndex")?,
            m_RightHand: hand(self.m_RightHand.data, "m_RightHand.m_HandBoneIndex")?,
            m_HumanBoneIndex: self.m_HumanBoneIndex.indices("m_HumanBoneIndex")?,
            m_HumanBoneMass: self.m_HumanBoneMass,
            m_Scale: self.m_Scale,
            m_ArmTwist: self.m_ArmTwist,
            m_ForeArmTwist: self.m_ForeArmTwist,
            m_UpperLegTwist: self.m_UpperLegTwist,
            m_LegTwist: self.m_LegTwist,
            m_ArmStretch: self.m_ArmStretch,
            m_LegStretch: self.m_LegStretch,
            m_FeetSpacing: self.m_FeetSpacing,
            m_HasLeftHand: self.m_HasLeftHand,
            m_HasRightHand: self.m_HasRightHand,
            m_HasTDoF: self.m_HasTDoF,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_dumps_are_little_endian_words() {
        let h = Hex("0300000014000000ffffffff".into());
        assert_eq!(h.indices("x").unwrap(), [Int(3), Int(20), Int(-1)]);
        assert_eq!(
            Hex("59d426a5".into()).hashes("x").unwrap(),
            [Int(0xa526_d459)]
        );
        assert_eq!(Hex::default().words("x").unwrap(), Vec::<u32>::new());
        let odd = Hex("0300000".into()).words("m_ID").unwrap_err();
        assert!(odd.contains("m_ID") && odd.contains('7'), "{odd}");
        let bad = Hex("0300000g".into()).words("m_ID").unwrap_err();
        assert!(bad.contains("value 0"), "{bad}");
    }

    #[test]
    fn a_small_text_avatar_reads_into_the_binary_struct() {
        let body = "Avatar:\n  m_Name: Tiny\n  m_Avatar:\n    m_AvatarSkeleton:\n      data:\n        m_Node:\n        - m_ParentId: -1\n          m_AxesId: -1\n        - m_ParentId: 0\n          m_AxesId: -1\n        m_ID: 000000000b000000\n        m_AxesArray: []\n    m_Human:\n      data:\n        m_Scale: 0.9\n        m_HumanBoneIndex: ffffffff01000000\n        m_HasLeftHand: 1\n        m_HasTDoF: 0\n    m_HumanSkeletonIndexArray: 0000000001000000\n    m_HumanSkeletonReverseIndexArray: \n  m_TOS:\n    0: \n    11: Hips\n";
        let doc = Document {
            class_id: 90,
            file_id: 9,
            stripped: false,
            line: 3,
            body,
        };
        let raw = read_avatar(&doc).unwrap();
        assert_eq!(raw.m_Name, "Tiny");
        let sk = raw.m_Avatar.m_AvatarSkeleton.as_ref().unwrap();
        assert_eq!(sk.data.m_ID, [Int(0), Int(11)]);
        assert_eq!(sk.data.m_Node[1].m_ParentId, Int(0));
        let h = &raw.m_Avatar.m_Human.data;
        assert_eq!(h.m_HumanBoneIndex, [Int(-1), Int(1)]);
        assert_eq!(h.m_Scale, Float(0.9));
        assert_eq!(h.m_HasLeftHand, Int(1));
        assert_eq!(h.m_HasTDoF, Some(Int(0)));
        assert_eq!(raw.m_Avatar.m_HumanSkeletonIndexArray, [Int(0), Int(1)]);
        // Written empty: read as absent, which the converter derives from the forward map.
        let reverse = raw.m_Avatar.m_HumanSkeletonReverseIndexArray.as_ref();
        assert!(reverse.is_none_or(Vec::is_empty));
        assert_eq!(raw.m_TOS.get(&11).map(String::as_str), Some("Hips"));
        assert_eq!(raw.m_TOS.get(&0).map(String::as_str), Some(""));
        let bad = body.replace("000000000b000000", "00000000zz000000");
        let doc = Document { body: &bad, ..doc };
        let e = read_avatar(&doc).unwrap_err();
        assert!(e.contains("m_AvatarSkeleton.m_ID"), "{e}");
    }
}
