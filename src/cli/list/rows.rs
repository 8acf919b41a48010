//! The rows of clips, meshes and textures, written out to scratch files as the files are
//! read.

use std::cell::RefCell;
use std::io::{BufReader, BufWriter, Write};

use clipscope_core::Workspace;
use clipscope_core::workspace::{Added, Listed, ObjectRef};
use serde_json::Value;

use super::format::{
    Indented, clip_json, clip_lines, mesh_json, mesh_line, texture_json, texture_line,
};

/// One section's rows as they are written out while the files are read: each row (as the
/// JSON document or the table places it) in a scratch file on disk.
pub(super) struct Section {
    file: BufWriter<std::fs::File>,
    count: usize,
}

/// A section's row formats: as an element of the JSON document's array, and as the
/// table's lines.
type Formats<T> = (fn(&Workspace, &T) -> Value, fn(&Workspace, &T) -> String);

/// A row as the JSON document or the table prints it.
enum Row {
    /// An element of the section's array.
    Json(Value),
    /// The table's lines.
    Lines(String),
}

impl Section {
    /// Writes the rows of `items`, as JSON (`as_json`) or as the table's lines, in the
    /// formats `rows` (JSON, lines), keeping the first error in `error`.
    fn write_all<T>(
        &mut self,
        ws: &Workspace,
        items: &[T],
        as_json: bool,
        error: &mut Option<std::io::Error>,
        rows: Formats<T>,
    ) {
        for item in items {
            let row = if as_json {
                Row::Json(rows.0(ws, item))
            } else {
                Row::Lines(rows.1(ws, item))
            };
            if let Err(e) = self.write(row) {
                error.get_or_insert(e);
            }
        }
    }

    /// Writes one row: JSON as an element of the section's array (after a comma and a line
    /// but the first, at the third level of the document), or the table's lines.
    fn write(&mut self, row: Row) -> std::io::Result<()> {
        let file = &mut self.file;
        let written = match row {
            Row::Json(json) => {
                let sep: &[u8] = if self.count == 0 { b"    " } else { b",\n    " };
                file.write_all(sep).and_then(|()| {
                    serde_json::to_writer_pretty(Indented(Indented(&mut *file)), &json)
                        .map_err(std::io::Error::other)
                })
            }
            Row::Lines(lines) => file.write_all(lines.as_bytes()),
        };
        self.count += 1;
        written
    }

    /// The rows, to be read back in order.
    fn finish(self) -> std::io::Result<Written> {
        use std::io::Seek;
        let mut file = self.file.into_inner().map_err(|e| e.into_error())?;
        file.rewind()?;
        Ok(Written {
            rows: RefCell::new(BufReader::new(file)),
            count: self.count,
        })
    }
}

/// The rows of clips, meshes and textures as they are written out while the files are read;
/// the workspace lets go of those objects ([`Listed::LetGo`]), keeping of each clip and
/// mesh its name, which the rigs' and controllers' rows name them by. Without scratch
/// files (none can be made) the workspace keeps them and the rows are made from it at the
/// end.
pub(super) struct ListRows {
    json: bool,
    /// Clips, meshes, textures ([`Kind`]).
    pub(super) sections: Option<[Section; 3]>,
    /// The first error writing a scratch file: the list is not printed.
    error: Option<std::io::Error>,
}

/// A scratch file for each section's rows.
fn scratch_sections() -> std::io::Result<[Section; 3]> {
    let section = || {
        clipscope_core::workspace::scratch_file().map(|f| Section {
            file: BufWriter::new(f),
            count: 0,
        })
    };
    Ok([section()?, section()?, section()?])
}

impl ListRows {
    pub(super) fn new(json: bool) -> ListRows {
        let sections = match scratch_sections() {
            Ok(sections) => Some(sections),
            Err(e) => {
                eprintln!(
                    "warning: no scratch file for the rows of clips, meshes and textures \
                     ({e}); they are held in memory"
                );
                None
            }
        };
        ListRows {
            json,
            sections,
            error: None,
        }
    }

    /// Writes the rows of what a file `added` out; whether the workspace keeps it.
    pub(super) fn add(&mut self, ws: &Workspace, added: Added<'_>) -> Listed {
        let Some([clips, meshes, textures]) = &mut self.sections else {
            return Listed::Kept;
        };
        let (json, error) = (self.json, &mut self.error);
        clips.write_all(ws, added.clips, json, error, (clip_json, clip_lines));
        meshes.write_all(ws, added.meshes, json, error, (mesh_json, mesh_line));
        let texture: Formats<_> = (texture_json, texture_line);
        textures.write_all(ws, added.textures, json, error, texture);
        Listed::LetGo
    }

    /// The rows, to be read back in order.
    pub(super) fn finish(self) -> std::io::Result<Rows> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let Some([clips, meshes, textures]) = self.sections else {
            return Ok(Rows::Kept);
        };
        Ok(Rows::Written([
            clips.finish()?,
            meshes.finish()?,
            textures.finish()?,
        ]))
    }
}

/// A section's rows in a scratch file, `count` of them.
pub(super) struct Written {
    pub(super) rows: RefCell<BufReader<std::fs::File>>,
    pub(super) count: usize,
}

impl Written {
    /// Copies the rows to `out`.
    pub(super) fn copy_to(&self, out: &mut impl Write) -> std::io::Result<u64> {
        std::io::copy(&mut *self.rows.borrow_mut(), out)
    }
}

/// Where the rows of clips, meshes and textures are.
pub(super) enum Rows {
    /// In scratch files: clips, meshes, textures ([`Kind`]).
    Written([Written; 3]),
    /// In the workspace.
    Kept,
}

/// A workspace opened for a list, and the rows written out while it was read.
pub(super) struct Listing<'a> {
    pub(super) ws: &'a Workspace,
    pub(super) rows: Rows,
}

/// One of the sections written out while the files are read, in the order of their
/// scratch files.
#[derive(Clone, Copy)]
pub(super) enum Kind {
    Clips,
    Meshes,
    Textures,
}

impl Listing<'_> {
    /// The name of the clip at `at`; `#<path id>` where it is not loaded.
    pub(super) fn clip_name(&self, at: ObjectRef) -> String {
        match self.ws.clip_name(at) {
            Some(name) => name.to_string(),
            None => format!("#{}", at.path_id),
        }
    }

    /// A section's rows in their scratch file; `None` where the workspace kept them.
    pub(super) fn written(&self, kind: Kind) -> Option<&Written> {
        match &self.rows {
            Rows::Written(sections) => Some(&sections[kind as usize]),
            Rows::Kept => None,
        }
    }

    /// How many rows a section has.
    pub(super) fn count(&self, kind: Kind) -> usize {
        match (self.written(kind), kind) {
            (Some(w), _) => w.count,
            (None, Kind::Clips) => self.ws.clips.len(),
            (None, Kind::Meshes) => self.ws.meshes.len(),
            (None, Kind::Textures) => self.ws.textures.len(),
        }
    }
}
