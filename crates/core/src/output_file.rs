//! Writing a whole output file at once, past the page cache when it is large.
//!
//! `clipscope unity` writes about ten times its input as text: 11 GB for a 1 GB game. Through
//! the page cache every written page is first a fresh page of memory, and on a machine whose
//! memory is lent page by page (a virtual machine) that costs more than the disk: on the
//! bench's machine, 4.7 s of system time for 3 GB against 0.3 s written directly. A large
//! file's whole blocks are therefore written with `O_DIRECT` on Linux, and its last partial
//! block through the page cache. Where the file system refuses direct writes (`EINVAL`), the
//! file is written the usual way. The bytes on disk are the same either way.
//!
//! A direct write needs its bytes at a block boundary in memory. [`write`] copies borrowed
//! bytes into an aligned buffer of the thread's, 1 MB at a time. [`write_owned`] takes the
//! caller's buffer instead: it moves the bytes to a block boundary within that buffer's own
//! spare room and hands the whole file to the system in one call, which passes the disk
//! several requests at once (a 1 MB write waits for one).

use std::io;
use std::path::Path;

/// Files smaller than this are written through the page cache: their cost is the file's
/// creation, not its pages.
const DIRECT_FROM: usize = 256 * 1024;

/// Writes `bytes` as the whole of the file at `path`, creating or truncating it, as
/// [`std::fs::write`] does.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    if bytes.len() >= DIRECT_FROM {
        match direct::write(path, bytes) {
            Err(error) if error.raw_os_error() == Some(libc::EINVAL) => {}
            done => return done,
        }
    }
    std::fs::write(path, bytes)
}

/// [`write`] of a buffer the caller gives up; the buffer comes back empty (its room kept)
/// for the next file. A large file is written straight from it: its bytes are moved once
/// within the buffer to a block boundary, instead of being copied into another buffer.
pub fn write_owned(path: &Path, mut bytes: Vec<u8>) -> (io::Result<()>, Vec<u8>) {
    #[cfg(target_os = "linux")]
    if bytes.len() >= DIRECT_FROM
        && let Some(start) = direct::align(&mut bytes)
    {
        let result = match direct::write_aligned(path, &bytes[start..]) {
            Err(error) if error.raw_os_error() == Some(libc::EINVAL) => {
                std::fs::write(path, &bytes[start..])
            }
            done => done,
        };
        bytes.clear();
        return (result, bytes);
    }
    let result = std::fs::write(path, &bytes);
    bytes.clear();
    (result, bytes)
}

#[cfg(target_os = "linux")]
mod direct {
    use std::cell::RefCell;
    use std::fs::{File, OpenOptions};
    use std::io::{self, Write};
    use std::os::unix::fs::OpenOptionsExt;
    use std::path::Path;

    /// The alignment of a direct write's buffer, offset and length: the largest logical
    /// block size of common disks.
    const BLOCK: usize = 4096;
    /// How much one direct write of borrowed bytes hands the disk.
    const CHUNK: usize = 1024 * 1024;

    thread_local! {
        /// A chunk's room and a block to spare, so that an aligned chunk fits in it.
        static ROOM: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    }

    /// Writes `bytes`' whole blocks directly, copied a chunk at a time into an aligned
    /// buffer, then the rest through the page cache.
    pub(super) fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
        let whole = bytes.len() / BLOCK * BLOCK;
        let mut file = open_direct(path)?;
        ROOM.with_borrow_mut(|room| {
            room.resize(CHUNK + BLOCK, 0);
            let start = room.as_ptr().align_offset(BLOCK);
            // `align_offset` may decline (usize::MAX): then the usual write.
            let Some(aligned) = room.get_mut(start..start.saturating_add(CHUNK)) else {
                return Err(io::Error::from_raw_os_error(libc::EINVAL));
            };
            for chunk in bytes[..whole].chunks(CHUNK) {
                aligned[..chunk.len()].copy_from_slice(chunk);
                file.write_all(&aligned[..chunk.len()])?;
            }
            Ok::<_, io::Error>(())
        })?;
        drop(file);
        append_tail(path, &bytes[whole..])
    }

    /// Moves `bytes` within their buffer so that they start at a block boundary, growing
    /// the buffer by at most a block; where they now start, or `None` (bytes unmoved) where
    /// no boundary can be found.
    pub(super) fn align(bytes: &mut Vec<u8>) -> Option<usize> {
        let len = bytes.len();
        bytes.reserve(BLOCK);
        // Past `len` the buffer has a block of room, so a boundary lies within it, and
        // filling up to it does not move the buffer.
        let start = bytes.as_ptr().align_offset(BLOCK);
        if start >= BLOCK {
            return None;
        }
        bytes.resize(len + start, 0);
        bytes.copy_within(..len, start);
        Some(start)
    }

    /// Writes `bytes`, which start at a block boundary in memory, with their whole blocks
    /// in one direct write and the rest through the page cache.
    pub(super) fn write_aligned(path: &Path, bytes: &[u8]) -> io::Result<()> {
        let whole = bytes.len() / BLOCK * BLOCK;
        if bytes.as_ptr().align_offset(BLOCK) != 0 {
            return Err(io::Error::from_raw_os_error(libc::EINVAL));
        }
        let mut file = open_direct(path)?;
        file.write_all(&bytes[..whole])?;
        drop(file);
        append_tail(path, &bytes[whole..])
    }

    /// `path` created or truncated, for writing past the page cache.
    fn open_direct(path: &Path) -> io::Result<File> {
        OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .custom_flags(libc::O_DIRECT)
            .open(path)
    }

    /// Appends a file's last partial block through the page cache.
    fn append_tail(path: &Path, tail: &[u8]) -> io::Result<()> {
        if tail.is_empty() {
            return Ok(());
        }
        OpenOptions::new().append(true).open(path)?.write_all(tail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sizes below the direct threshold, at it, on a block and a chunk, and with a tail.
    #[test]
    fn the_file_holds_the_bytes_whatever_their_size() {
        let dir =
            std::env::temp_dir().join(format!("clipscope-output-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.bin");
        for len in [
            0,
            1,
            4095,
            DIRECT_FROM,
            DIRECT_FROM + 1,
            1024 * 1024,
            3 * 1024 * 1024 + 4097,
        ] {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 31 % 251) as u8).collect();
            // A longer file first: writing must truncate it.
            std::fs::write(&path, vec![7u8; len + 5000]).unwrap();
            write(&path, &bytes).unwrap();
            assert_eq!(std::fs::read(&path).unwrap(), bytes, "{len} bytes");
            std::fs::write(&path, vec![7u8; len + 5000]).unwrap();
            let (written, spare) = write_owned(&path, bytes.clone());
            written.unwrap();
            assert_eq!(std::fs::read(&path).unwrap(), bytes, "{len} bytes, owned");
            assert!(spare.is_empty() && spare.capacity() >= len);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
