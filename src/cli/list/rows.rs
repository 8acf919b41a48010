//! The clips' rows, written out to a scratch file as the files are read, and the names the
//! rigs' and controllers' rows name the clips by.

use std::io::Write;

use clipscope_core::Workspace;
use clipscope_core::workspace::{ClipEntry, Listed, ObjectRef};

use super::format::{Indented, clip_json, clip_lines};

/// The clips' rows as they are written out while the files are read: each row (as the JSON
/// document or the table places it) in a scratch file on disk, and each clip's name,
/// which the rigs' and controllers' rows name their clips by. Without a scratch file (none
/// can be made) the workspace keeps its clips and the rows are made from them at the end.
pub(super) struct ClipRows {
    json: bool,
    pub(super) file: Option<std::io::BufWriter<std::fs::File>>,
    /// The first error writing the scratch file: the list is not printed.
    error: Option<std::io::Error>,
    count: usize,
    names: Vec<(ObjectRef, Box<str>)>,
}

impl ClipRows {
    pub(super) fn new(json: bool) -> ClipRows {
        let file = match clipscope_core::workspace::scratch_file() {
            Ok(file) => Some(std::io::BufWriter::new(file)),
            Err(e) => {
                eprintln!(
                    "warning: no scratch file for the clips' rows ({e}); they are held in memory"
                );
                None
            }
        };
        ClipRows {
            json,
            file,
            error: None,
            count: 0,
            names: Vec::new(),
        }
    }

    /// Writes the rows of a file's `clips` out; whether the workspace keeps them.
    pub(super) fn add(&mut self, ws: &Workspace, clips: &[ClipEntry]) -> Listed {
        let Some(file) = &mut self.file else {
            return Listed::Kept;
        };
        // Grown by an eighth, not doubled: a whole game's names are most of what is held.
        let more = clips.len().max(self.names.len() / 8);
        if self.names.capacity() - self.names.len() < clips.len() {
            self.names.reserve_exact(more);
        }
        for c in clips {
            let written = if self.json {
                // An element of the clips' array, as `write_json` places it: after a comma
                // and a line but the first, at the third level of the document.
                let sep: &[u8] = if self.count == 0 { b"    " } else { b",\n    " };
                file.write_all(sep).and_then(|()| {
                    let row = Indented(Indented(&mut *file));
                    serde_json::to_writer_pretty(row, &clip_json(ws, c))
                        .map_err(std::io::Error::other)
                })
            } else {
                file.write_all(clip_lines(ws, c).as_bytes())
            };
            if let Err(e) = written {
                self.error.get_or_insert(e);
            }
            self.names.push((c.at, c.name.as_str().into()));
            self.count += 1;
        }
        Listed::LetGo
    }

    /// The rows, to be read back in order.
    pub(super) fn finish(mut self) -> std::io::Result<Clips> {
        use std::io::Seek;
        if let Some(e) = self.error {
            return Err(e);
        }
        let Some(file) = self.file else {
            return Ok(Clips::Kept);
        };
        let mut file = file.into_inner().map_err(|e| e.into_error())?;
        file.rewind()?;
        self.names.sort_unstable_by_key(|(at, _)| *at);
        Ok(Clips::Written {
            rows: std::cell::RefCell::new(std::io::BufReader::new(file)),
            count: self.count,
            names: self.names,
        })
    }
}

/// Where the clips' rows are.
pub(super) enum Clips {
    /// In a scratch file, `count` of them, with every clip's name by its reference.
    Written {
        rows: std::cell::RefCell<std::io::BufReader<std::fs::File>>,
        count: usize,
        names: Vec<(ObjectRef, Box<str>)>,
    },
    /// In the workspace.
    Kept,
}

/// A workspace opened for a list, and its clips' rows.
pub(super) struct Listing<'a> {
    pub(super) ws: &'a Workspace,
    pub(super) clips: Clips,
}

impl Listing<'_> {
    /// The name of the clip at `at`; `#<path id>` where it is not loaded.
    pub(super) fn clip_name(&self, at: ObjectRef) -> String {
        let name = match &self.clips {
            Clips::Written { names, .. } => names
                .binary_search_by_key(&at, |(at, _)| *at)
                .ok()
                .map(|i| names[i].1.to_string()),
            Clips::Kept => self.ws.clip(at).map(|c| c.name.clone()),
        };
        name.unwrap_or_else(|| format!("#{}", at.path_id))
    }

    /// How many clips there are.
    pub(super) fn clip_count(&self) -> usize {
        match &self.clips {
            Clips::Written { count, .. } => *count,
            Clips::Kept => self.ws.clips.len(),
        }
    }
}
