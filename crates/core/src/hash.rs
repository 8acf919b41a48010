//! The CRC-32 hashes Unity names paths and properties by.

/// The hash a clip's binding names a path by: the CRC-32 (the zlib one) of the path of
/// GameObject names below the Animator's GameObject, joined with `/`; the GameObject itself
/// is the empty path, hash 0.
pub fn path_hash(path: &str) -> u32 {
    crc32fast::hash(path.as_bytes())
}

/// The hash a float binding names its property by (`m_IsActive`, `blendShape.Smile`, …).
pub fn attribute_hash(name: &str) -> u32 {
    crc32fast::hash(name.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_unity_and_zlib_values() {
        assert_eq!(path_hash(""), 0);
        // Values from the format notes, computed by zlib.crc32.
        assert_eq!(path_hash("Geometry/Robot_A_Body"), 2_327_058_607);
        assert_eq!(path_hash("Base Layer"), 756_556_552);
        assert_eq!(attribute_hash("m_IsActive"), 0x7C5A_22F6);
        assert_eq!(attribute_hash("m_Enabled"), 0xC50B_CE51);
        assert_eq!(attribute_hash("PositionX"), 4_174_552_735);
    }
}
