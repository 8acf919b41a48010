//! The clips a workspace let go of ([`super::Listed::LetGo`]), held compactly: a whole
//! game's are tens of thousands, and they are the largest part of a list's index.
//!
//! Each keeps what references to it need: its reference, name, times and looping (which a
//! controller's states take). One entry is 40 bytes and the names lie back to back in one
//! buffer; held as [`ResolvedClip`]s with a `String` each, a clip took 56 bytes and a heap
//! allocation of 32 bytes or more for its name.

use super::{ClipEntry, ObjectRef, index_at};
use crate::animator::model::ResolvedClip;

/// The clips let go of, in the order they were let go of (the files' order).
#[derive(Debug, Default)]
pub struct LetGoClips {
    entries: Vec<Entry>,
    /// Every entry's name, back to back: entry `i`'s ends at its `name_end`, and starts
    /// where the entry before it ends.
    names: String,
}

/// One clip let go of.
#[derive(Debug)]
struct Entry {
    path_id: i64,
    name_end: usize,
    file: u32,
    start: f32,
    length: f32,
    cycle_offset: f32,
    looping: bool,
}

impl LetGoClips {
    /// Keeps what references to `clip` need; `false` (nothing kept) where its file's number
    /// does not fit the compact entry, so that the caller keeps the clip whole.
    pub(super) fn push(&mut self, clip: &ClipEntry) -> bool {
        let Ok(file) = u32::try_from(clip.at.file) else {
            return false;
        };
        let (start, length, looping, cycle_offset) = match &clip.data {
            Ok(d) => (d.start, d.stop - d.start, d.loop_time, d.cycle_offset),
            Err(_) => (0.0, 0.0, false, 0.0),
        };
        grow(&mut self.entries, 1);
        if self.names.capacity() - self.names.len() < clip.name.len() {
            // As the entries grow: by an eighth, not doubling.
            let more = clip.name.len().max(self.names.len() / 8).max(256);
            self.names.reserve_exact(more);
        }
        self.names.push_str(&clip.name);
        self.entries.push(Entry {
            path_id: clip.at.path_id,
            name_end: self.names.len(),
            file,
            start,
            length,
            cycle_offset,
            looping,
        });
        true
    }

    /// How many clips were let go of.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no clip was let go of.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Each clip's reference, in the order they were let go of.
    pub fn refs(&self) -> impl Iterator<Item = ObjectRef> + '_ {
        self.entries.iter().map(entry_at)
    }

    /// The name of the clip let go of at `at`.
    pub fn name(&self, at: ObjectRef) -> Option<&str> {
        let i = self.index(at)?;
        Some(self.name_of(i))
    }

    /// What a controller's leaf needs of the clip let go of at `at`.
    pub fn resolved(&self, at: ObjectRef) -> Option<ResolvedClip> {
        let i = self.index(at)?;
        let e = &self.entries[i];
        Some(ResolvedClip {
            name: self.name_of(i).to_string(),
            file: at.file,
            path_id: at.path_id,
            start: e.start,
            length: e.length,
            looping: e.looping,
            cycle_offset: e.cycle_offset,
        })
    }

    fn index(&self, at: ObjectRef) -> Option<usize> {
        index_at(&self.entries, at, entry_at)
    }

    fn name_of(&self, i: usize) -> &str {
        let start = i.checked_sub(1).map_or(0, |p| self.entries[p].name_end);
        self.names
            .get(start..self.entries[i].name_end)
            .unwrap_or("")
    }
}

/// An entry's reference.
fn entry_at(e: &Entry) -> ObjectRef {
    ObjectRef {
        file: e.file as usize,
        path_id: e.path_id,
    }
}

/// Room for `more` entries, grown by an eighth rather than doubled.
fn grow<T>(list: &mut Vec<T>, more: usize) {
    if list.capacity() - list.len() < more {
        list.reserve_exact(more.max(list.len() / 8).max(16));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    fn entry(file: usize, path_id: i64, name: &str) -> ClipEntry {
        ClipEntry {
            at: ObjectRef { file, path_id },
            name: name.to_string(),
            data: Err(Error::Object {
                location: "file".into(),
                path_id,
                class: "AnimationClip".into(),
                detail: "not decoded".into(),
            }),
        }
    }

    /// Each clip is found by its reference with its own name (empty names and names of any
    /// length between others), and nothing is found where no clip was let go of.
    #[test]
    fn each_clip_is_found_with_its_own_name() {
        let mut clips = LetGoClips::default();
        let names = [
            "Idle",
            "",
            "a much longer name than most clips have, with ü",
            "x",
        ];
        for (i, name) in names.iter().enumerate() {
            assert!(clips.push(&entry(i / 2, 10 + i as i64, name)));
        }
        assert_eq!(clips.len(), 4);
        for (i, name) in names.iter().enumerate() {
            let at = ObjectRef {
                file: i / 2,
                path_id: 10 + i as i64,
            };
            assert_eq!(clips.name(at), Some(*name));
            let r = clips.resolved(at).unwrap();
            assert_eq!(
                (r.name.as_str(), r.file, r.path_id),
                (*name, at.file, at.path_id)
            );
            assert_eq!((r.start, r.length, r.looping), (0.0, 0.0, false));
        }
        let refs: Vec<ObjectRef> = clips.refs().collect();
        assert_eq!(refs.len(), 4);
        let nothing = ObjectRef {
            file: 0,
            path_id: 12,
        };
        assert!(clips.name(nothing).is_none() && clips.resolved(nothing).is_none());
    }

    /// A file number beyond the compact entry's is refused, for the caller to keep whole.
    #[cfg(target_pointer_width = "64")]
    #[test]
    fn a_file_number_too_large_is_refused() {
        let mut clips = LetGoClips::default();
        assert!(!clips.push(&entry(u32::MAX as usize + 1, 1, "far")));
        assert!(clips.is_empty());
    }
}
