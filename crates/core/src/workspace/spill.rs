//! Decompressed files kept on disk between an index's two readings of a game.
//!
//! A writer over a whole game reads each file twice: once for the index, once to decode its
//! clips again ([`super::Workspace::decode_clips`]). A bundle or web container must be
//! decompressed both times, and LZMA is the slowest step of either reading. With a
//! [`Spill`] in the [`super::OpenOptions`], the index's reading writes out each decompressed
//! serialized file that holds clips (a plain copy, no work), and the second reading takes
//! those bytes instead of decompressing the container again. Memory stays bounded by the
//! largest file; the disk holds the decompressed clip files until the spill is dropped.
//! Its file is unlinked as soon as it is made, so that nothing is left behind even by a
//! process that is killed: the system frees it when the spill (or the process) closes it.

use std::collections::HashMap;
use std::fmt;
use std::fs::File;
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::blob::Blob;

/// The user's cache folder for what clipscope keeps on disk while it runs
/// (`$XDG_CACHE_HOME/clipscope`, else `~/.cache/clipscope`), made if missing: it lies on
/// disk where the temporary folder is often memory (tmpfs). The temporary folder when there
/// is no such folder and it cannot be made.
pub fn cache_folder() -> PathBuf {
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")));
    cache
        .map(|c| c.join("clipscope"))
        .filter(|dir| std::fs::create_dir_all(dir).is_ok())
        .unwrap_or_else(std::env::temp_dir)
}

/// A scratch file for what a command would otherwise hold in memory until it ends (the rows
/// of `list` over a whole game): made in the [`cache_folder`] and unlinked at once, so the
/// system frees it when it is closed, even if the process is killed.
/// Where the file system does not let an open file be unlinked, it is closed and removed,
/// and this is an error: the caller holds what it meant to write in memory instead.
pub fn scratch_file() -> std::io::Result<File> {
    let (file, path, linked) = unlinked_file(&cache_folder(), "scratch")?;
    if linked {
        drop(file);
        std::fs::remove_file(&path)?;
        return Err(std::io::Error::other(format!(
            "{}: an open file cannot be unlinked there",
            path.display()
        )));
    }
    Ok(file)
}

/// A new file `parent/.clipscope-<what>-<pid>-<n>` for reading and writing, unlinked at
/// once where the file system allows; its path, and whether its name is still there.
fn unlinked_file(parent: &Path, what: &str) -> std::io::Result<(File, PathBuf, bool)> {
    // Numbered: a process may hold several (the viewer opens a spill per load).
    static MADE: AtomicUsize = AtomicUsize::new(0);
    let n = MADE.fetch_add(1, Ordering::Relaxed);
    let path = parent.join(format!(".clipscope-{what}-{}-{n}", std::process::id()));
    let file = File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(&path)?;
    let linked = std::fs::remove_file(&path).is_err();
    Ok((file, path, linked))
}

/// Decompressed serialized files appended to one unlinked file (one file, not one per
/// serialized file: making files is what some file systems are slowest at).
pub struct Spill {
    path: PathBuf,
    /// The file's name could not be unlinked at once: it is removed when dropped.
    linked: bool,
    inner: Mutex<Inner>,
}

/// The file and what it holds, behind one lock.
struct Inner {
    /// `None` once a write failed: nothing more is kept.
    file: Option<File>,
    /// Bytes written so far.
    end: u64,
    kept: HashMap<(PathBuf, String), Kept>,
}

/// One serialized file kept: where its bytes are, and its container's engine version.
#[derive(Clone)]
struct Kept {
    offset: u64,
    len: usize,
    revision: Option<String>,
}

/// A serialized file taken back from a spill.
pub(super) struct Taken {
    pub bytes: Blob,
    pub revision: Option<String>,
}

impl Spill {
    /// A new, empty spill in the user's cache folder ([`cache_folder`]).
    pub fn in_cache() -> std::io::Result<Spill> {
        Spill::new_in(&cache_folder())
    }

    /// A new, empty spill: a file made inside `parent` (`.clipscope-spill-<pid>-<n>`) and
    /// unlinked at once, so that it is on `parent`'s disk but in no folder.
    pub fn new_in(parent: &Path) -> std::io::Result<Spill> {
        let (file, path, linked) = unlinked_file(parent, "spill")?;
        Ok(Spill {
            path,
            linked,
            inner: Mutex::new(Inner {
                file: Some(file),
                end: 0,
                kept: HashMap::new(),
            }),
        })
    }

    /// Where the file the serialized files are kept in was made (its name is already
    /// unlinked).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How many bytes are kept.
    pub fn bytes(&self) -> u64 {
        self.lock().end
    }

    /// How many serialized files are kept.
    pub fn len(&self) -> usize {
        self.lock().kept.len()
    }

    /// True when no file is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Keeps the serialized file `inner` of the container `source`. When the spill cannot
    /// be written (a full disk), nothing more is kept: those files are decompressed again
    /// when asked for.
    pub(super) fn keep(&self, source: &Path, inner: &str, revision: Option<&str>, bytes: &[u8]) {
        let mut guard = self.lock();
        let state = &mut *guard;
        let Some(file) = &mut state.file else {
            return;
        };
        if file.write_all(bytes).is_err() {
            state.file = None;
            return;
        }
        let kept = Kept {
            offset: state.end,
            len: bytes.len(),
            revision: revision.map(str::to_string),
        };
        state.end += bytes.len() as u64;
        state
            .kept
            .insert((source.to_path_buf(), inner.to_string()), kept);
    }

    /// The serialized file `inner` of `source` as kept, or `None` when it was not kept or
    /// can no longer be read.
    pub(super) fn take(&self, source: &Path, inner: &str) -> Option<Taken> {
        let (kept, file) = {
            let state = self.lock();
            let kept = state
                .kept
                .get(&(source.to_path_buf(), inner.to_string()))
                .cloned()?;
            (kept, state.file.as_ref()?.try_clone().ok()?)
        };
        let mut bytes = vec![0; kept.len];
        file.read_exact_at(&mut bytes, kept.offset).ok()?;
        Some(Taken {
            bytes: Blob::from(bytes),
            revision: kept.revision,
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Spill {
    fn drop(&mut self) {
        if self.linked {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

impl fmt::Debug for Spill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Spill")
            .field("path", &self.path)
            .field("files", &self.len())
            .field("bytes", &self.bytes())
            .finish()
    }
}
