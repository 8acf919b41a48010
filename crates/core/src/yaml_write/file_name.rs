//! File names for written assets: what a clip's or controller's name becomes on disk.

/// A file name with the characters no file system allows (and control characters)
/// replaced by `_`; never empty, never `.` or `..`, no trailing dots or spaces.
pub fn safe_file_name(name: &str) -> String {
    let replaced: String = name
        .chars()
        .map(|c| {
            if c.is_control() || "/\\:*?\"<>|".contains(c) {
                '_'
            } else {
                c
            }
        })
        .collect();
    let trimmed = replaced.trim_end_matches(['.', ' ']).trim_start();
    if trimmed.is_empty() {
        "clip".to_string()
    } else {
        trimmed.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::safe_file_name;

    #[test]
    fn characters_no_file_system_allows_are_replaced() {
        assert_eq!(safe_file_name("a/b:c?"), "a_b_c_");
        assert_eq!(safe_file_name("Wave\u{7}. "), "Wave_");
        assert_eq!(safe_file_name(".."), "clip");
        assert_eq!(safe_file_name(""), "clip");
    }
}
