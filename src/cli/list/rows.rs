//! The clips' rows, written out to a scratch file as the files are read.

use std::io::Write;

use clipscope_core::Workspace;
use clipscope_core::workspace::{ClipEntry, Listed, ObjectRef};

use super::format::{Indented, clip_json, clip_lines};

/// The clips' rows as they are written out while the files are read: each row (as the JSON
/// document or the table places it) in a scratch file on disk; the workspace keeps each
/// clip's name ([`Workspace::let_go`]), which the rigs' and controllers' rows name their
/// clips by. Without a scratch file (none can be made) the workspace keeps its clips and
/// the rows are made from them at the end.
pub(super) struct ClipRows {
    json: bool,
    pub(super) file: Option<std::io::BufWriter<std::fs::File>>,
    /// The first error writing the scratch file: the list is not printed.
    error: Option<std::io::Error>,
    count: usize,
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
        }
    }

    /// Writes the rows of a file's `clips` out; whether the workspace keeps them.
    pub(super) fn add(&mut self, ws: &Workspace, clips: &[ClipEntry]) -> Listed {
        let Some(file) = &mut self.file else {
            return Listed::Kept;
        };
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
            self.count += 1;
        }
        Listed::LetGo
    }

    /// The rows, to be read back in order.
    pub(super) fn finish(self) -> std::io::Result<Clips> {
        use std::io::Seek;
        if let Some(e) = self.error {
            return Err(e);
        }
        let Some(file) = self.file else {
            return Ok(Clips::Kept);
        };
        let mut file = file.into_inner().map_err(|e| e.into_error())?;
        file.rewind()?;
        Ok(Clips::Written {
            rows: std::cell::RefCell::new(std::io::BufReader::new(file)),
            count: self.count,
        })
    }
}

/// Where the clips' rows are.
pub(super) enum Clips {
    /// In a scratch file, `count` of them.
    Written {
        rows: std::cell::RefCell<std::io::BufReader<std::fs::File>>,
        count: usize,
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
        match self.ws.clip_name(at) {
            Some(name) => name.to_string(),
            None => format!("#{}", at.path_id),
        }
    }

    /// How many clips there are.
    pub(super) fn clip_count(&self) -> usize {
        match &self.clips {
            Clips::Written { count, .. } => *count,
            Clips::Kept => self.ws.clips.len(),
        }
    }
}
