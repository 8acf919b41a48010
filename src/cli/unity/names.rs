//! The names of the files `unity` writes, made unique in each folder.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Names taken in each folder, case-insensitively (as on Windows and macOS).
#[derive(Default)]
pub(super) struct UniqueNames {
    taken: HashMap<PathBuf, HashSet<String>>,
    /// The last number given to each name in each folder, where one was: the next claim of
    /// the same name starts after it (a game's thousand `Idle`s are not counted up from 1
    /// each time).
    last: HashMap<(PathBuf, String), usize>,
}

impl UniqueNames {
    /// `name`, or `name 1`, `name 2`, … where `name.ext` is taken in `dir`.
    pub(super) fn claim(&mut self, dir: &Path, name: &str, ext: &str) -> String {
        let taken = self.taken.entry(dir.to_path_buf()).or_default();
        let mut candidate = name.to_string();
        if taken.insert(format!("{candidate}.{ext}").to_lowercase()) {
            return candidate;
        }
        let key = (dir.to_path_buf(), format!("{name}.{ext}").to_lowercase());
        let n = self.last.entry(key).or_insert(0);
        loop {
            *n += 1;
            candidate = format!("{name} {n}");
            if taken.insert(format!("{candidate}.{ext}").to_lowercase()) {
                return candidate;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clipscope_core::yaml_write::file_name::safe_file_name;

    #[test]
    fn names_are_made_unique_and_safe() {
        let mut names = UniqueNames::default();
        let dir = Path::new("out/a");
        assert_eq!(names.claim(dir, "Idle", "anim"), "Idle");
        assert_eq!(names.claim(dir, "idle", "anim"), "idle 1");
        assert_eq!(names.claim(dir, "Idle", "anim"), "Idle 2");
        assert_eq!(names.claim(dir, "Idle", "controller"), "Idle");
        assert_eq!(names.claim(Path::new("out/b"), "Idle", "anim"), "Idle");
        assert_eq!(safe_file_name("a/b:c?"), "a_b_c_");
        assert_eq!(safe_file_name(".."), "clip");
        assert_eq!(safe_file_name(""), "clip");
    }
}
