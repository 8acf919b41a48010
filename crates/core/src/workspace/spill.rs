//! Decompressed files kept on disk between an index's two readings of a game.
//!
//! A writer over a whole game reads each file twice: once for the index, once to decode its
//! clips again ([`super::Workspace::decode_clips`]). A bundle or web container must be
//! decompressed both times, and LZMA is the slowest step of either reading. With a
//! [`Spill`] in the [`super::OpenOptions`], the index's reading writes out each decompressed
//! serialized file that holds clips (a plain copy, no work), and the second reading takes
//! those bytes instead of decompressing the container again. Memory stays bounded by the
//! largest file; the disk holds the decompressed clip files until the spill is dropped,
//! which removes its folder.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::blob::Blob;

/// A folder of decompressed serialized files, removed when dropped.
pub struct Spill {
    dir: PathBuf,
    kept: Mutex<HashMap<(PathBuf, String), Kept>>,
    next: AtomicUsize,
}

/// One serialized file kept: where its bytes are, and its container's engine version.
#[derive(Clone)]
struct Kept {
    path: PathBuf,
    revision: Option<String>,
}

/// A serialized file taken back from a spill.
pub(super) struct Taken {
    pub bytes: Blob,
    pub revision: Option<String>,
}

impl Spill {
    /// A new, empty spill in a folder made inside `parent` (`.clipscope-spill-<pid>`).
    pub fn new_in(parent: &Path) -> std::io::Result<Spill> {
        let dir = parent.join(format!(".clipscope-spill-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        Ok(Spill {
            dir,
            kept: Mutex::default(),
            next: AtomicUsize::new(0),
        })
    }

    /// The folder the files are kept in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// How many serialized files are kept.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// True when no file is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Keeps the serialized file `inner` of the container `source`. A file that cannot be
    /// written is simply not kept: it is decompressed again when asked for.
    pub(super) fn keep(&self, source: &Path, inner: &str, revision: Option<&str>, bytes: &[u8]) {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let path = self.dir.join(format!("{n}.serialized"));
        if std::fs::write(&path, bytes).is_err() {
            let _ = std::fs::remove_file(&path);
            return;
        }
        let kept = Kept {
            path,
            revision: revision.map(str::to_string),
        };
        self.lock()
            .insert((source.to_path_buf(), inner.to_string()), kept);
    }

    /// The serialized file `inner` of `source` as kept, or `None` when it was not kept or
    /// can no longer be read.
    pub(super) fn take(&self, source: &Path, inner: &str) -> Option<Taken> {
        let kept = self
            .lock()
            .get(&(source.to_path_buf(), inner.to_string()))
            .cloned()?;
        let bytes = std::fs::read(&kept.path).ok()?;
        Some(Taken {
            bytes: Blob::from(bytes),
            revision: kept.revision,
        })
    }

    /// True when every one of `inners` of `source` is kept.
    pub(super) fn holds_all<'a>(
        &self,
        source: &Path,
        mut inners: impl Iterator<Item = &'a str>,
    ) -> bool {
        let kept = self.lock();
        inners.all(|inner| kept.contains_key(&(source.to_path_buf(), inner.to_string())))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(PathBuf, String), Kept>> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Spill {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl fmt::Debug for Spill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Spill")
            .field("dir", &self.dir)
            .field("files", &self.len())
            .finish()
    }
}
