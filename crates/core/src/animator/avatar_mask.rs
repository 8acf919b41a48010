//! AvatarMask assets (class 319, `.mask` files or a document of the controller's own file)
//! that text controllers' layers name in `m_Mask`: `m_Elements` (transform paths with
//! weights: the skeleton mask) and `m_Mask` (the 13 humanoid body parts, each a `u32`
//! written as 8 hex digits, little-endian, non-zero = on), turned into the layer's mask as
//! a built controller stores it.
#![allow(non_snake_case)]

use serde::Deserialize;

use super::mask::body_words;
use crate::unity::Float;
use crate::yaml::{Document, from_body, restore, split_documents, unity_floats};

/// Class id of AvatarMask.
pub const AVATAR_MASK: i32 = 319;

/// Largest `.mask` file read.
const MAX_BYTES: u64 = 16 << 20;

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RawMask {
    m_Mask: String,
    m_Elements: Vec<RawElement>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RawElement {
    m_Path: String,
    m_Weight: Float,
}

/// A layer mask: transform paths with weights (empty = none) and body-mask words (`None` =
/// every part on).
pub type LayerMask = (Vec<(String, f32)>, Option<Vec<u32>>);

/// The AvatarMask document `file_id` among `documents` (the only one when `file_id` is
/// not found and the file holds one).
pub(crate) fn from_documents(documents: &[Document], file_id: i64) -> Result<LayerMask, String> {
    let masks: Vec<&Document> = documents
        .iter()
        .filter(|d| d.class_id == AVATAR_MASK)
        .collect();
    let doc = match masks.iter().find(|d| d.file_id == file_id) {
        Some(d) => d,
        None if masks.len() == 1 => masks[0],
        None => return Err(format!("no AvatarMask document &{file_id}")),
    };
    let raw: RawMask = from_body(doc, &unity_floats(doc.body))
        .map_err(|e| format!("AvatarMask &{} (line {}): {e}", doc.file_id, doc.line))?;
    let elements = raw
        .m_Elements
        .into_iter()
        .map(|e| {
            let mut path = e.m_Path;
            restore(&mut path);
            (path, e.m_Weight.0)
        })
        .collect();
    Ok((elements, body_mask(&raw.m_Mask)))
}

/// Reads the AvatarMask `file_id` of a `.mask` file.
pub fn from_file(path: &std::path::Path, file_id: i64) -> Result<LayerMask, String> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_BYTES).read_to_string(&mut text))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let split = split_documents(&text);
    from_documents(&split.documents, file_id).map_err(|e| format!("{}: {e}", path.display()))
}

/// The body-mask words of `m_Mask` (`None` when every part is on or the text is not 13
/// hex words).
fn body_mask(hex: &str) -> Option<Vec<u32>> {
    let hex = hex.trim();
    if !hex.len().is_multiple_of(8) || !hex.is_ascii() {
        return None;
    }
    let parts: Vec<u32> = (0..hex.len() / 8)
        .map(|i| {
            let word = u32::from_str_radix(&hex[8 * i..8 * i + 8], 16).ok()?;
            Some(word.swap_bytes())
        })
        .collect::<Option<_>>()?;
    if parts.is_empty() || parts.iter().all(|&p| p != 0) {
        return None;
    }
    Some(body_words(&parts))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MASK: &str = "%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!319 &31900000
AvatarMask:
  m_ObjectHideFlags: 0
  m_Name: Upper
  m_Mask: 00000000010000000100000000000000000000000100000001000000010000000100000000000000000000000000000000000000
  m_Elements:
  - m_Path: 
    m_Weight: 1
  - m_Path: Armature
    m_Weight: 1
  - m_Path: Armature/Hips
    m_Weight: 0
";

    #[test]
    fn elements_and_body_parts() {
        let split = split_documents(MASK);
        let (elements, words) = from_documents(&split.documents, 31900000).expect("reads");
        assert_eq!(
            elements,
            [
                (String::new(), 1.0),
                ("Armature".into(), 1.0),
                ("Armature/Hips".into(), 0.0)
            ]
        );
        // Body, Head, LeftArm, RightArm, LeftFingers, RightFingers on; root, legs, IK off.
        let mut parts = [0u32; 13];
        for p in [1, 2, 5, 6, 7, 8] {
            parts[p] = 1;
        }
        assert_eq!(words, Some(body_words(&parts)));
        assert_eq!(body_mask(&"01000000".repeat(13)), None, "all on is no mask");
    }
}
