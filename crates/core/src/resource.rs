//! Data stored outside an object: the `.resS` / `.resource` blobs that meshes and textures point
//! into with `m_StreamData { offset, size, path }`.
//!
//! Decoders ask a [`StreamSource`] for `size` bytes at `offset` of `path` and never learn where
//! the bytes live: a bundle's own resource entries ([`MemoryStreams`]), files next to a
//! `.assets` file, or nowhere ([`NoStreams`]).

use std::borrow::Cow;

/// Largest single read a source hands out (1 GiB): no real mesh or texture comes near it, and a
/// corrupt size must not turn into a huge allocation.
pub const MAX_STREAM_READ: u64 = 1 << 30;

/// Why stream data could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResourceError {
    #[error("no resource named {name:?} (from stream path {path:?})")]
    NotFound { path: String, name: String },
    #[error(
        "stream data {offset}+{size} lies outside {name:?} ({len} bytes)",
        name = resource_name(path)
    )]
    OutOfBounds {
        path: String,
        offset: u64,
        size: u64,
        len: u64,
    },
    #[error("stream data of {size} bytes is larger than the {MAX_STREAM_READ}-byte limit")]
    TooLarge { size: u64 },
    #[error("stream data in {path:?} is not available here (no resource files were opened)")]
    Unavailable { path: String },
}

/// Where the bytes of `m_StreamData` come from.
pub trait StreamSource {
    /// `size` bytes at `offset` of the resource `path` (`m_StreamData.path`, e.g.
    /// `archive:/CAB-…/CAB-….resS` or `sharedassets0.assets.resS`).
    fn read(&self, path: &str, offset: u64, size: u64) -> Result<Vec<u8>, ResourceError>;
}

/// The last component of a stream path: what a resource is matched by.
pub fn resource_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// Checks `offset + size` against a blob of `len` bytes and the read limit, returning the
/// byte range to slice.
pub fn checked_range(
    path: &str,
    offset: u64,
    size: u64,
    len: u64,
) -> Result<std::ops::Range<usize>, ResourceError> {
    if size > MAX_STREAM_READ {
        return Err(ResourceError::TooLarge { size });
    }
    let out_of_bounds = || ResourceError::OutOfBounds {
        path: path.to_string(),
        offset,
        size,
        len,
    };
    let end = offset.checked_add(size).ok_or_else(out_of_bounds)?;
    if end > len {
        return Err(out_of_bounds());
    }
    let start = usize::try_from(offset).map_err(|_| out_of_bounds())?;
    let end = usize::try_from(end).map_err(|_| out_of_bounds())?;
    Ok(start..end)
}

/// Resource blobs held in memory (a container's `.resS` / `.resource` entries), matched by the
/// last path component, ignoring ASCII case.
#[derive(Clone, Debug, Default)]
pub struct MemoryStreams<'a> {
    blobs: Vec<(String, Cow<'a, [u8]>)>,
}

impl<'a> MemoryStreams<'a> {
    /// An empty set: no stream data in memory.
    pub fn new() -> Self {
        MemoryStreams { blobs: Vec::new() }
    }

    /// Adds a blob under `name` (a container entry name; only its last component counts).
    pub fn add(&mut self, name: &str, bytes: impl Into<Cow<'a, [u8]>>) {
        self.blobs
            .push((resource_name(name).to_string(), bytes.into()));
    }

    /// A source over `(name, bytes)` entries.
    pub fn from_entries<N: AsRef<str>, B: Into<Cow<'a, [u8]>>>(
        entries: impl IntoIterator<Item = (N, B)>,
    ) -> Self {
        let mut streams = MemoryStreams::new();
        for (name, bytes) in entries {
            streams.add(name.as_ref(), bytes);
        }
        streams
    }

    /// The blob a stream path names.
    pub fn blob(&self, path: &str) -> Option<&[u8]> {
        let name = resource_name(path);
        self.blobs
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, b)| b.as_ref())
    }

    /// Whether no stream data is held.
    pub fn is_empty(&self) -> bool {
        self.blobs.is_empty()
    }
}

impl StreamSource for MemoryStreams<'_> {
    fn read(&self, path: &str, offset: u64, size: u64) -> Result<Vec<u8>, ResourceError> {
        let blob = self.blob(path).ok_or_else(|| ResourceError::NotFound {
            path: path.to_string(),
            name: resource_name(path).to_string(),
        })?;
        let range = checked_range(path, offset, size, blob.len() as u64)?;
        Ok(blob[range].to_vec())
    }
}

/// A container's own resources first, then files of the same name in a folder on disk (a
/// player's `sharedassets0.assets.resS` next to `sharedassets0.assets`). Only the requested
/// range of a disk file is read.
#[derive(Clone, Debug, Default)]
pub struct FileStreams<'a> {
    pub memory: MemoryStreams<'a>,
    pub dir: Option<std::path::PathBuf>,
}

impl StreamSource for FileStreams<'_> {
    fn read(&self, path: &str, offset: u64, size: u64) -> Result<Vec<u8>, ResourceError> {
        if self.memory.blob(path).is_some() {
            return self.memory.read(path, offset, size);
        }
        let not_found = || ResourceError::NotFound {
            path: path.to_string(),
            name: resource_name(path).to_string(),
        };
        let name = resource_name(path);
        if name.is_empty() || name == "." || name == ".." {
            return Err(not_found());
        }
        let file_path = self.dir.as_ref().ok_or_else(not_found)?.join(name);
        read_file_range(&file_path, path, offset, size).ok_or_else(not_found)?
    }
}

/// `size` bytes at `offset` of a file; `None` when the file cannot be opened.
fn read_file_range(
    file_path: &std::path::Path,
    path: &str,
    offset: u64,
    size: u64,
) -> Option<Result<Vec<u8>, ResourceError>> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(file_path).ok()?;
    let len = file.metadata().ok()?.len();
    let range = match checked_range(path, offset, size, len) {
        Ok(range) => range,
        Err(e) => return Some(Err(e)),
    };
    let mut out = vec![0u8; range.len()];
    let read = file
        .seek(SeekFrom::Start(offset))
        .and_then(|_| file.read_exact(&mut out));
    Some(read.map(|_| out).map_err(|_| ResourceError::OutOfBounds {
        path: path.to_string(),
        offset,
        size,
        len,
    }))
}

/// A source with no resources: every read is an error.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoStreams;

impl StreamSource for NoStreams {
    fn read(&self, path: &str, _offset: u64, _size: u64) -> Result<Vec<u8>, ResourceError> {
        Err(ResourceError::Unavailable {
            path: path.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn streams() -> MemoryStreams<'static> {
        MemoryStreams::from_entries([
            ("CAB-abc.resS", (0u8..16).collect::<Vec<u8>>()),
            ("sharedassets0.assets.resS", vec![9u8; 4]),
        ])
    }

    #[test]
    fn archive_paths_match_entries_by_last_component_ignoring_case() {
        let s = streams();
        assert_eq!(
            s.read("archive:/CAB-abc/cab-ABC.ress", 2, 3).unwrap(),
            [2, 3, 4]
        );
        assert_eq!(s.read("sharedassets0.assets.resS", 0, 4).unwrap(), [9; 4]);
        assert_eq!(s.read("CAB-abc.resS", 16, 0).unwrap(), Vec::<u8>::new());
    }

    #[test]
    fn reads_past_the_blob_or_unknown_names_are_errors() {
        let s = streams();
        assert!(matches!(
            s.read("CAB-abc.resS", 10, 7),
            Err(ResourceError::OutOfBounds { len: 16, .. })
        ));
        assert!(matches!(
            s.read("CAB-abc.resS", u64::MAX, 2),
            Err(ResourceError::OutOfBounds { .. })
        ));
        assert!(matches!(
            s.read("CAB-abc.resS", 0, MAX_STREAM_READ + 1),
            Err(ResourceError::TooLarge { .. })
        ));
        assert!(matches!(
            s.read("archive:/CAB-x/CAB-x.resS", 0, 1),
            Err(ResourceError::NotFound { ref name, .. }) if name == "CAB-x.resS"
        ));
        assert!(matches!(
            NoStreams.read("a.resS", 0, 1),
            Err(ResourceError::Unavailable { .. })
        ));
    }
}
