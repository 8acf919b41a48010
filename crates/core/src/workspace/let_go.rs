//! What a workspace keeps of the clips and meshes it let go of ([`super::Listed::LetGo`]),
//! held compactly: a whole game has tens of thousands of them, the largest part of a list's
//! index.
//!
//! Each keeps its reference, its name and what references to it need (a clip's times and
//! looping, which a controller's states take). The names lie back to back in one buffer:
//! a clip's entry is 32 bytes and a mesh's 16, where a clip held as a [`ResolvedClip`] took
//! 56 bytes, a mesh as a reference and a `Box<str>` 32, and each name a heap allocation of
//! 32 bytes or more.

use super::{ClipEntry, ObjectRef, index_at, room};
use crate::animator::model::ResolvedClip;

/// Entries let go of, each with a name, in the order they were let go of (the files').
#[derive(Debug)]
pub struct LetGo<T> {
    entries: Vec<Named<T>>,
    /// Every entry's name, back to back: entry `i`'s ends at its `name_end`, and starts
    /// where the entry before it ends.
    names: String,
}

/// The clips let go of: their names, times and looping.
pub type LetGoClips = LetGo<ClipTimes>;

/// The meshes let go of: their names, which renderers name them by.
pub type LetGoMeshes = LetGo<()>;

/// A clip's times and looping, which a controller's states take.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClipTimes {
    pub start: f32,
    pub length: f32,
    pub cycle_offset: f32,
    pub looping: bool,
}

impl ClipTimes {
    /// A clip's times; zero where it could not be decoded.
    pub fn of(clip: &ClipEntry) -> ClipTimes {
        match &clip.data {
            Ok(d) => ClipTimes {
                start: d.start,
                length: d.stop - d.start,
                cycle_offset: d.cycle_offset,
                looping: d.loop_time,
            },
            Err(_) => ClipTimes {
                start: 0.0,
                length: 0.0,
                cycle_offset: 0.0,
                looping: false,
            },
        }
    }
}

impl ClipTimes {
    /// What a controller's leaf needs of the clip `name` at `at` with these times.
    pub fn resolved(self, name: &str, at: ObjectRef) -> ResolvedClip {
        ResolvedClip {
            name: name.to_string(),
            file: at.file,
            path_id: at.path_id,
            start: self.start,
            length: self.length,
            looping: self.looping,
            cycle_offset: self.cycle_offset,
        }
    }
}

/// One entry: where it is, where its name ends, and what else it keeps.
#[derive(Debug)]
struct Named<T> {
    path_id: i64,
    name_end: u32,
    file: u32,
    value: T,
}

impl<T> Default for LetGo<T> {
    fn default() -> Self {
        LetGo {
            entries: Vec::new(),
            names: String::new(),
        }
    }
}

impl<T> LetGo<T> {
    /// Keeps the entry at `at` with its name; `false` (nothing kept) where its file's
    /// number or the names' length does not fit the compact entry, so that the caller
    /// keeps it whole.
    pub(super) fn push(&mut self, at: ObjectRef, name: &str, value: T) -> bool {
        let (Ok(file), Ok(name_end)) = (
            u32::try_from(at.file),
            u32::try_from(self.names.len() + name.len()),
        ) else {
            return false;
        };
        room(&mut self.entries, 1);
        if self.names.capacity() - self.names.len() < name.len() {
            // As the entries grow: by an eighth, not doubling.
            let more = name.len().max(self.names.len() / 8).max(256);
            self.names.reserve_exact(more);
        }
        self.names.push_str(name);
        self.entries.push(Named {
            path_id: at.path_id,
            name_end,
            file,
            value,
        });
        true
    }

    /// How many entries were let go of.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing was let go of.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Each entry's reference, in the order they were let go of.
    pub fn refs(&self) -> impl Iterator<Item = ObjectRef> + '_ {
        self.entries.iter().map(entry_at)
    }

    /// Each entry's reference and name, in the order they were let go of.
    pub fn iter(&self) -> impl Iterator<Item = (ObjectRef, &str)> + '_ {
        (0..self.entries.len()).map(|i| (entry_at(&self.entries[i]), self.name_of(i)))
    }

    /// The name of the entry let go of at `at`.
    pub fn name(&self, at: ObjectRef) -> Option<&str> {
        let i = self.index(at)?;
        Some(self.name_of(i))
    }

    /// The name and what else is kept of the entry at `at`.
    pub fn get(&self, at: ObjectRef) -> Option<(&str, &T)> {
        let i = self.index(at)?;
        Some((self.name_of(i), &self.entries[i].value))
    }

    fn index(&self, at: ObjectRef) -> Option<usize> {
        index_at(&self.entries, at, entry_at)
    }

    fn name_of(&self, i: usize) -> &str {
        let start = i
            .checked_sub(1)
            .map_or(0, |p| self.entries[p].name_end as usize);
        self.names
            .get(start..self.entries[i].name_end as usize)
            .unwrap_or("")
    }
}

impl LetGoClips {
    /// What a controller's leaf needs of the clip let go of at `at`.
    pub fn resolved(&self, at: ObjectRef) -> Option<ResolvedClip> {
        let (name, times) = self.get(at)?;
        Some(times.resolved(name, at))
    }
}

/// An entry's reference.
fn entry_at<T>(e: &Named<T>) -> ObjectRef {
    ObjectRef {
        file: e.file as usize,
        path_id: e.path_id,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(file: usize, path_id: i64) -> ObjectRef {
        ObjectRef { file, path_id }
    }

    /// Each entry is found by its reference with its own name (empty names and names of any
    /// length between others) and value, and nothing is found where nothing was let go of.
    #[test]
    fn each_entry_is_found_with_its_own_name() {
        let mut clips = LetGoClips::default();
        let names = [
            "Idle",
            "",
            "a much longer name than most clips have, with ü",
            "x",
        ];
        for (i, name) in names.iter().enumerate() {
            let times = ClipTimes {
                start: i as f32,
                length: 2.0,
                cycle_offset: 0.25,
                looping: i % 2 == 0,
            };
            assert!(clips.push(at(i / 2, 10 + i as i64), name, times));
        }
        assert_eq!(clips.len(), 4);
        for (i, name) in names.iter().enumerate() {
            let here = at(i / 2, 10 + i as i64);
            assert_eq!(clips.name(here), Some(*name));
            let r = clips.resolved(here).unwrap();
            assert_eq!(
                (r.name.as_str(), r.file, r.path_id),
                (*name, here.file, here.path_id)
            );
            let times = (r.start, r.length, r.cycle_offset, r.looping);
            assert_eq!(times, (i as f32, 2.0, 0.25, i % 2 == 0));
        }
        let listed: Vec<(ObjectRef, &str)> = clips.iter().collect();
        assert_eq!(listed[2], (at(1, 12), names[2]));
        assert_eq!(clips.refs().count(), 4);
        let nothing = at(0, 12);
        assert!(clips.name(nothing).is_none() && clips.resolved(nothing).is_none());
        let mut meshes = LetGoMeshes::default();
        assert!(meshes.push(at(3, -7), "Body", ()));
        assert_eq!(meshes.name(at(3, -7)), Some("Body"));
        assert_eq!(meshes.name(at(3, 7)), None);
    }

    /// A file number beyond the compact entry's is refused, for the caller to keep whole.
    #[cfg(target_pointer_width = "64")]
    #[test]
    fn a_file_number_too_large_is_refused() {
        let mut meshes = LetGoMeshes::default();
        assert!(!meshes.push(at(u32::MAX as usize + 1, 1), "far", ()));
        assert!(meshes.is_empty());
    }

    /// The entries are as compact as the module says: a clip's 32 bytes, a mesh's 16.
    #[test]
    fn entries_are_compact() {
        assert_eq!(std::mem::size_of::<Named<ClipTimes>>(), 32);
        assert_eq!(std::mem::size_of::<Named<()>>(), 16);
    }
}
