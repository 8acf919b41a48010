//! The names of the files `unity` writes, made unique in each folder.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher, Hash, Hasher};
use std::path::Path;

/// Names taken in each folder, case-insensitively (as on Windows and macOS). A name is
/// held as a 64-bit hash of its folder and `name.ext` in lower case, not as text: a whole
/// game writes tens of thousands of files into thousands of folders. Two names with one
/// hash would only cost the second a number.
#[derive(Default)]
pub(super) struct UniqueNames {
    taken: HashSet<u64>,
    /// The last number given to each name in each folder, where one was: the next claim of
    /// the same name starts after it (a game's thousand `Idle`s are not counted up from 1
    /// each time).
    last: HashMap<u64, usize>,
}

/// The hash `dir/name.ext` is held by: the same in every run (`DefaultHasher::default` has
/// fixed keys), so the names given do not change from run to run.
fn name_hash(dir: &Path, name: &str, ext: &str) -> u64 {
    let mut hasher = BuildHasherDefault::<DefaultHasher>::default().build_hasher();
    dir.to_string_lossy().to_lowercase().hash(&mut hasher);
    format!("{name}.{ext}").to_lowercase().hash(&mut hasher);
    hasher.finish()
}

impl UniqueNames {
    /// `name`, or `name 1`, `name 2`, … where `name.ext` is taken in `dir`.
    pub(super) fn claim(&mut self, dir: &Path, name: &str, ext: &str) -> String {
        numbered(name, self.claim_number(dir, name, ext))
    }

    /// [`UniqueNames::claim`] as the number given to `name` (0 for none): what a file's
    /// name is kept as until it is written.
    pub(super) fn claim_number(&mut self, dir: &Path, name: &str, ext: &str) -> usize {
        let plain = name_hash(dir, name, ext);
        if self.taken.insert(plain) {
            return 0;
        }
        let n = self.last.entry(plain).or_insert(0);
        loop {
            *n += 1;
            if self.taken.insert(name_hash(dir, &numbered(name, *n), ext)) {
                return *n;
            }
        }
    }
}

/// `name`, or `name N` for a number `N` other than 0.
pub(super) fn numbered(name: &str, number: usize) -> String {
    if number == 0 {
        name.to_string()
    } else {
        format!("{name} {number}")
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
        // A folder is one folder whatever its case, as on Windows and macOS.
        assert_eq!(names.claim(Path::new("OUT/A"), "Idle", "anim"), "Idle 3");
        // A number taken by a name of its own is passed over.
        assert_eq!(names.claim(dir, "Walk 1", "anim"), "Walk 1");
        assert_eq!(names.claim_number(dir, "Walk", "anim"), 0);
        assert_eq!(names.claim_number(dir, "walk", "anim"), 2);
        assert_eq!(numbered("Walk", 2), "Walk 2");
        assert_eq!(safe_file_name("a/b:c?"), "a_b_c_");
        assert_eq!(safe_file_name(".."), "clip");
        assert_eq!(safe_file_name(""), "clip");
    }
}
