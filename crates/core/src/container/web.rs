//! Reader for the old Unity web player containers, `UnityWeb` (LZMA) and `UnityRaw` (stored).
//!
//! These containers predate UnityFS (Unity 3.x to 5.x web player builds and legacy asset
//! bundles). `rabex` panics on them, so they are parsed here by hand. The layout (spec §2.6),
//! with every header field big-endian:
//!
//! ```text
//! cstr signature; u32 version (1..5); cstr bundleVersion; cstr unityRevision
//! [version>=4] u8[16] hash; u32 crc
//! u32 minimumStreamedBytes; u32 headerSize; u32 numberOfLevelsToDownloadBeforeStreaming
//! i32 levelCount; levelCount x { u32 compressedSize; u32 uncompressedSize }
//! [version>=2] u32 completeFileSize
//! [version>=3] u32 fileInfoHeaderSize
//! ```
//!
//! The data starts at `headerSize`. The level sizes are cumulative (each level is a streaming
//! checkpoint), so the **last** level describes the whole payload. `UnityWeb` data is one LZMA
//! "alone" stream (5 property bytes, u64 LE uncompressed size, then the range-coded data);
//! `UnityRaw` data is stored as is. The (decompressed) payload begins with a big-endian
//! directory, `i32 count; count x { cstr name; u32 offset; u32 size }`, whose offsets are
//! relative to the payload start.
//!
//! All input is treated as untrusted: nothing here panics, counts are checked against the bytes
//! left before anything is allocated from them, strings are bounded, and decompression is
//! bounded both by [`MAX_DECOMPRESSED`] and by a plausible compression ratio.

use super::codec;
use crate::blob::Blob;

/// Largest decompressed payload accepted (1 GiB). Web player builds were far smaller; anything
/// above this is treated as hostile or corrupt rather than decoded.
pub const MAX_DECOMPRESSED: u64 = 1 << 30;

/// Largest accepted LZMA expansion ratio (uncompressed / compressed). Real asset data compresses
/// by 2x to 20x; LZMA cannot physically exceed a few thousand to one, so a header claiming more
/// is a lie that would only make us allocate.
const MAX_LZMA_RATIO: u64 = 1000;

/// Longest NUL-terminated string accepted (signature, versions, entry names).
const MAX_CSTR: usize = 1024;

/// Size of the LZMA "alone" header: 5 property bytes + u64 LE uncompressed size.
const LZMA_HEADER_LEN: usize = 13;

/// Smallest possible directory entry: an empty name (just the NUL) + offset + size.
const MIN_ENTRY_LEN: usize = 1 + 4 + 4;

/// Size of one level-table record: compressedSize + uncompressedSize.
const LEVEL_LEN: usize = 8;

/// Signature (with its NUL) of LZMA-compressed web containers.
const SIG_WEB: &[u8] = b"UnityWeb\0";
/// Signature (with its NUL) of stored web containers.
const SIG_RAW: &[u8] = b"UnityRaw\0";

/// One file inside a web player container.
#[derive(Clone, Debug)]
pub struct WebEntry {
    /// File name from the directory, e.g. `mainData` or `sharedassets0.assets`.
    pub name: String,
    /// The file's bytes, a range of the (decompressed) payload.
    pub data: Blob,
}

/// A decoded UnityWeb / UnityRaw container.
#[derive(Clone, Debug)]
pub struct WebContainer {
    /// `UnityWeb` or `UnityRaw`.
    pub signature: String,
    /// Container format version (1..=5).
    pub version: u32,
    /// Unity engine version that built the file, e.g. `4.6.1f1`.
    pub unity_revision: String,
    /// Files in directory order.
    pub entries: Vec<WebEntry>,
}

/// Why a web container could not be read.
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    /// The input ended before a field was complete.
    #[error("web container truncated while reading {what}")]
    Truncated {
        /// The field being read.
        what: &'static str,
    },
    /// The input does not start with `UnityWeb\0` or `UnityRaw\0`.
    #[error("not a UnityWeb/UnityRaw container (signature missing)")]
    NotWebContainer,
    /// The container version is outside 1..=5 (version 6 uses the UnityFS layout).
    #[error(
        "unsupported UnityWeb/UnityRaw version {0}: only 1..=5 are supported \
         (version 6 uses the UnityFS layout and must be read as UnityFS)"
    )]
    UnsupportedVersion(u32),
    /// A NUL-terminated string was longer than the accepted bound.
    #[error("string {what} is longer than {MAX_CSTR} bytes")]
    StringTooLong {
        /// The field being read.
        what: &'static str,
    },
    /// A string was not valid UTF-8.
    #[error("string {what} is not valid UTF-8")]
    InvalidUtf8 {
        /// The field being read.
        what: &'static str,
    },
    /// The header's size fields are inconsistent with the file.
    #[error("bad header: {0}")]
    BadHeader(String),
    /// The level table is empty or larger than the file.
    #[error("bad level table: {0}")]
    BadLevelTable(String),
    /// The LZMA stream is corrupt or truncated.
    #[error("LZMA decompression failed: {0}")]
    Decompress(String),
    /// The declared uncompressed size exceeds a safety limit.
    #[error("declared uncompressed size {declared} exceeds the limit of {limit} bytes")]
    TooLarge {
        /// The size the file claims.
        declared: u64,
        /// The limit it broke (absolute, or derived from the compressed size).
        limit: u64,
    },
    /// The directory at the start of the payload is malformed.
    #[error("bad directory: {0}")]
    BadDirectory(String),
    /// A directory entry points outside the payload.
    #[error("entry {name:?} (offset {offset}, size {size}) lies outside the {len}-byte payload")]
    BadEntry {
        /// Entry name.
        name: String,
        /// Declared offset, relative to the payload start.
        offset: u64,
        /// Declared size.
        size: u64,
        /// Payload length.
        len: u64,
    },
}

/// A bounds-checked big-endian reader over a byte slice; every read fails instead of panicking.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    /// Starts reading `bytes` at offset 0.
    fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, pos: 0 }
    }

    /// Bytes not yet consumed.
    fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    /// Consumes exactly `n` bytes.
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], WebError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len())
            .ok_or(WebError::Truncated { what })?;
        let slice = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(slice)
    }

    /// Consumes a fixed-size array.
    fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], WebError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N, what)?);
        Ok(out)
    }

    /// Reads a big-endian u32.
    fn u32_be(&mut self, what: &'static str) -> Result<u32, WebError> {
        Ok(u32::from_be_bytes(self.array(what)?))
    }

    /// Reads a big-endian i32.
    fn i32_be(&mut self, what: &'static str) -> Result<i32, WebError> {
        Ok(i32::from_be_bytes(self.array(what)?))
    }

    /// Reads a NUL-terminated UTF-8 string of at most [`MAX_CSTR`] bytes (NUL excluded).
    fn cstr(&mut self, what: &'static str) -> Result<String, WebError> {
        let rest = self.bytes.get(self.pos..).unwrap_or_default();
        let window = &rest[..rest.len().min(MAX_CSTR + 1)];
        let Some(len) = window.iter().position(|&b| b == 0) else {
            return Err(if window.len() > MAX_CSTR {
                WebError::StringTooLong { what }
            } else {
                WebError::Truncated { what }
            });
        };
        let text = self.take(len + 1, what)?;
        std::str::from_utf8(&text[..len])
            .map(str::to_owned)
            .map_err(|_| WebError::InvalidUtf8 { what })
    }
}

/// The header fields the reader needs; the rest is read and checked but not kept.
struct Header {
    signature: String,
    version: u32,
    unity_revision: String,
    header_size: u32,
    /// Last level's `compressedSize`: the whole payload's size on disk.
    compressed_size: u32,
    /// Last level's `uncompressedSize`: the whole payload's decoded size.
    uncompressed_size: u32,
}

impl WebContainer {
    /// True when `bytes` start with the `UnityWeb` or `UnityRaw` signature.
    ///
    /// The terminating NUL is required, so the unrelated WebGL `UnityWebData1.0` container,
    /// which shares the `UnityWeb` prefix, is not mistaken for one of these.
    pub fn is_web(bytes: &[u8]) -> bool {
        bytes.starts_with(SIG_WEB) || bytes.starts_with(SIG_RAW)
    }

    /// Parses a whole container held in memory, decompressing it if it is `UnityWeb`.
    pub fn parse(bytes: &[u8]) -> Result<WebContainer, WebError> {
        if !Self::is_web(bytes) {
            return Err(WebError::NotWebContainer);
        }
        let header = read_header(bytes)?;
        let stored = level_data(bytes, &header)?;
        let payload = Blob::from(if header.signature == "UnityWeb" {
            decompress_lzma(stored, header.uncompressed_size)?
        } else {
            stored.to_vec()
        });
        let entries = read_directory(&payload)?;
        Ok(WebContainer {
            signature: header.signature,
            version: header.version,
            unity_revision: header.unity_revision,
            entries,
        })
    }
}

/// Reads and validates the big-endian header up to `fileInfoHeaderSize`.
fn read_header(bytes: &[u8]) -> Result<Header, WebError> {
    let mut cur = Cursor::new(bytes);
    let signature = cur.cstr("signature")?;
    let version = cur.u32_be("version")?;
    if !(1..=5).contains(&version) {
        return Err(WebError::UnsupportedVersion(version));
    }
    let _bundle_version = cur.cstr("bundle version")?;
    let unity_revision = cur.cstr("unity revision")?;
    if version >= 4 {
        let _hash: [u8; 16] = cur.array("hash")?;
        let _crc = cur.u32_be("crc")?;
    }
    let _minimum_streamed_bytes = cur.u32_be("minimum streamed bytes")?;
    let header_size = cur.u32_be("header size")?;
    let _levels_before_streaming = cur.u32_be("levels before streaming")?;
    let (compressed_size, uncompressed_size) = read_last_level(&mut cur)?;
    if version >= 2 {
        let _complete_file_size = cur.u32_be("complete file size")?;
    }
    if version >= 3 {
        let _file_info_header_size = cur.u32_be("file info header size")?;
    }
    check_header_size(header_size, cur.pos, bytes.len())?;
    Ok(Header {
        signature,
        version,
        unity_revision,
        header_size,
        compressed_size,
        uncompressed_size,
    })
}

/// Reads the level table and returns the last level's (compressed, uncompressed) sizes.
///
/// The count is checked against the bytes left before iterating, so a huge count fails at
/// once instead of looping.
fn read_last_level(cur: &mut Cursor<'_>) -> Result<(u32, u32), WebError> {
    let count = cur.i32_be("level count")?;
    if count <= 0 {
        return Err(WebError::BadLevelTable(format!("level count {count}")));
    }
    let needed = u64::from(count.unsigned_abs()) * LEVEL_LEN as u64;
    if needed > cur.remaining() as u64 {
        return Err(WebError::BadLevelTable(format!(
            "{count} levels need {needed} bytes but only {} remain",
            cur.remaining()
        )));
    }
    let mut last = (0, 0);
    for _ in 0..count {
        last = (
            cur.u32_be("level compressed size")?,
            cur.u32_be("level uncompressed size")?,
        );
    }
    Ok(last)
}

/// Checks that `headerSize` covers the fields just read and lies inside the file.
fn check_header_size(header_size: u32, fields_end: usize, len: usize) -> Result<(), WebError> {
    let header_size = header_size as usize;
    if header_size < fields_end {
        return Err(WebError::BadHeader(format!(
            "header size {header_size} is smaller than its {fields_end} bytes of fields"
        )));
    }
    if header_size > len {
        return Err(WebError::Truncated { what: "header" });
    }
    Ok(())
}

/// Returns the payload bytes as stored on disk: `compressedSize` bytes from `headerSize`.
fn level_data<'a>(bytes: &'a [u8], header: &Header) -> Result<&'a [u8], WebError> {
    let start = header.header_size as usize;
    start
        .checked_add(header.compressed_size as usize)
        .and_then(|end| bytes.get(start..end))
        .ok_or(WebError::Truncated { what: "level data" })
}

/// Decompresses an LZMA "alone" stream whose output is bounded before any work is done.
///
/// The size comes from the LZMA header, or from the level table when the header says
/// "unknown" (all ones). It must not exceed [`MAX_DECOMPRESSED`] nor [`MAX_LZMA_RATIO`] times
/// the compressed length; the output buffer is allocated at that size and never grows.
fn decompress_lzma(stored: &[u8], level_uncompressed: u32) -> Result<Vec<u8>, WebError> {
    let header: [u8; LZMA_HEADER_LEN] = stored
        .get(..LZMA_HEADER_LEN)
        .and_then(|s| s.try_into().ok())
        .ok_or(WebError::Truncated {
            what: "LZMA header",
        })?;
    let size_field: [u8; 8] = header[5..].try_into().unwrap_or([0xff; 8]);
    let declared = match u64::from_le_bytes(size_field) {
        u64::MAX => u64::from(level_uncompressed),
        n => n,
    };
    let compressed_len = (stored.len() - LZMA_HEADER_LEN) as u64;
    let size = check_lzma_size(declared, compressed_len)?;
    let mut props = [0u8; codec::LZMA_PROPS_LEN];
    props.copy_from_slice(&header[..codec::LZMA_PROPS_LEN]);
    let mut out = vec![0u8; size];
    codec::lzma_into(props, &stored[LZMA_HEADER_LEN..], &mut out).map_err(WebError::Decompress)?;
    Ok(out)
}

/// Refuses sizes over the absolute limit or with an implausible expansion ratio.
fn check_lzma_size(declared: u64, compressed_len: u64) -> Result<usize, WebError> {
    if declared > MAX_DECOMPRESSED {
        return Err(WebError::TooLarge {
            declared,
            limit: MAX_DECOMPRESSED,
        });
    }
    let ratio_limit = compressed_len.saturating_mul(MAX_LZMA_RATIO);
    if declared > ratio_limit {
        return Err(WebError::TooLarge {
            declared,
            limit: ratio_limit,
        });
    }
    usize::try_from(declared).map_err(|_| WebError::TooLarge {
        declared,
        limit: usize::MAX as u64,
    })
}

/// Reads the big-endian directory at the payload start.
fn read_directory(payload: &Blob) -> Result<Vec<WebEntry>, WebError> {
    let mut cur = Cursor::new(payload);
    let count = cur.i32_be("directory count")?;
    let count = usize::try_from(count)
        .map_err(|_| WebError::BadDirectory(format!("negative entry count {count}")))?;
    if count.saturating_mul(MIN_ENTRY_LEN) > cur.remaining() {
        return Err(WebError::BadDirectory(format!(
            "{count} entries cannot fit in the {} bytes left",
            cur.remaining()
        )));
    }
    let mut entries = Vec::with_capacity(count);
    for _ in 0..count {
        entries.push(read_entry(&mut cur, payload)?);
    }
    Ok(entries)
}

/// Reads one directory record, checking it lies inside the payload.
fn read_entry(cur: &mut Cursor<'_>, payload: &Blob) -> Result<WebEntry, WebError> {
    let name = cur.cstr("entry name")?;
    let offset = cur.u32_be("entry offset")?;
    let size = cur.u32_be("entry size")?;
    let start = offset as usize;
    let data = start
        .checked_add(size as usize)
        .and_then(|end| payload.slice(start..end));
    match data {
        Some(data) => Ok(WebEntry { name, data }),
        None => Err(WebError::BadEntry {
            name,
            offset: offset.into(),
            size: size.into(),
            len: payload.len() as u64,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DATA_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/binary");

    /// Loads a real test file, or prints why the test is skipped and returns `None`.
    fn load(rel: &str) -> Option<Vec<u8>> {
        let path = format!("{DATA_DIR}/{rel}");
        if !std::path::Path::new(DATA_DIR).is_dir() {
            eprintln!("SKIP: test data folder {DATA_DIR} is missing");
            return None;
        }
        Some(std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}")))
    }

    /// Big-endian u32 at `at`.
    fn be_u32(data: &[u8], at: usize) -> u32 {
        u32::from_be_bytes(data[at..at + 4].try_into().unwrap())
    }

    /// Entries are either .NET assemblies (PE files, `MZ`) or SerializedFiles whose big-endian
    /// header gives format version 9 (bytes 8..12) and the file's own size (bytes 4..8).
    fn check_entry(entry: &WebEntry) {
        let (name, data) = (&entry.name, &entry.data);
        assert!(data.len() >= 20, "{name} too short");
        if name.ends_with(".dll") {
            assert!(data.starts_with(b"MZ"), "{name} is not a PE file");
        } else {
            assert_eq!(be_u32(data, 8), 9, "{name} format version");
            assert_eq!(be_u32(data, 4) as usize, data.len(), "{name} file size");
        }
    }

    fn check_real(rel: &str, revision: &str, names: &[&str]) {
        let Some(bytes) = load(rel) else { return };
        assert!(WebContainer::is_web(&bytes));
        let web = WebContainer::parse(&bytes).expect("real file parses");
        let got: Vec<&str> = web.entries.iter().map(|e| e.name.as_str()).collect();
        println!("{rel}: {got:?}");
        assert_eq!(web.signature, "UnityWeb");
        assert_eq!(web.version, 3);
        assert_eq!(web.unity_revision, revision);
        assert_eq!(got, names);
        web.entries.iter().for_each(check_entry);
    }

    #[test]
    fn parses_resetanimator_4_6() {
        check_real(
            "resetanimator/WebPlayer.unity3d",
            "4.6.1f1",
            &[
                "UnityEngine.UI.dll",
                "Assembly-CSharp.dll",
                "sharedassets0.assets",
                "resources/unity_builtin_extra",
                "mainData",
            ],
        );
    }

    #[test]
    fn parses_duckhunted_3_5() {
        check_real(
            "duckhunted/WebPlayer.unity3d",
            "3.5.2f2",
            &[
                "Boo.Lang.dll",
                "Assembly-UnityScript.dll",
                "Assembly-UnityScript-firstpass.dll",
                "Assembly-CSharp-firstpass.dll",
                "sharedassets0.assets",
                "mainData",
            ],
        );
    }

    #[test]
    fn every_truncation_errors() {
        let Some(bytes) = load("resetanimator/WebPlayer.unity3d") else {
            return;
        };
        for i in 0..200 {
            let len = bytes.len() * i / 200;
            assert!(
                WebContainer::parse(&bytes[..len]).is_err(),
                "truncated to {len} parsed"
            );
        }
    }

    #[test]
    fn byte_flips_never_panic() {
        let Some(bytes) = load("resetanimator/WebPlayer.unity3d") else {
            return;
        };
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut ok, mut err) = (0, 0);
        for _ in 0..300 {
            let mut copy = bytes.clone();
            let pos = (next() % 200) as usize;
            let bit = 1u8 << (next() % 8);
            copy[pos] ^= bit;
            match WebContainer::parse(&copy) {
                Ok(_) => ok += 1,
                Err(_) => err += 1,
            }
        }
        println!("byte flips: {ok} ok, {err} err");
    }

    /// Builds a version-3 UnityWeb header with one level and the given fields, followed by
    /// `payload` at `headerSize`.
    fn synth(level_count: i32, compressed: u32, uncompressed: u32, payload: &[u8]) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(b"UnityWeb\0");
        b.extend_from_slice(&3u32.to_be_bytes());
        b.extend_from_slice(b"3.x.x\0");
        b.extend_from_slice(b"4.6.1f1\0");
        b.extend_from_slice(&0u32.to_be_bytes()); // minimumStreamedBytes
        b.extend_from_slice(&60u32.to_be_bytes()); // headerSize
        b.extend_from_slice(&1u32.to_be_bytes()); // levels before streaming
        b.extend_from_slice(&level_count.to_be_bytes());
        b.extend_from_slice(&compressed.to_be_bytes());
        b.extend_from_slice(&uncompressed.to_be_bytes());
        b.extend_from_slice(&0u32.to_be_bytes()); // completeFileSize
        b.extend_from_slice(&0u32.to_be_bytes()); // fileInfoHeaderSize
        b.resize(60, 0);
        b.extend_from_slice(payload);
        b
    }

    #[test]
    fn huge_level_count_errors_fast() {
        let bytes = synth(0x7fff_ffff, 20, 20, &[0; 20]);
        assert!(matches!(
            WebContainer::parse(&bytes),
            Err(WebError::BadLevelTable(_))
        ));
    }

    #[test]
    fn huge_lzma_size_errors_fast() {
        let mut lzma = vec![0x5d, 0, 0, 0x08, 0];
        lzma.extend_from_slice(&(4u64 << 30).to_le_bytes());
        lzma.extend_from_slice(&[0; 64]);
        let bytes = synth(1, lzma.len() as u32, u32::MAX, &lzma);
        let err = WebContainer::parse(&bytes).unwrap_err();
        assert!(matches!(err, WebError::TooLarge { .. }), "{err}");

        // Unknown size in the LZMA header falls back to the level's 4 GiB - 1: still refused.
        lzma[5..13].copy_from_slice(&u64::MAX.to_le_bytes());
        let bytes = synth(1, lzma.len() as u32, u32::MAX, &lzma);
        let err = WebContainer::parse(&bytes).unwrap_err();
        assert!(matches!(err, WebError::TooLarge { .. }), "{err}");
    }

    #[test]
    fn implausible_ratio_is_refused() {
        let mut lzma = vec![0x5d, 0, 0, 0x08, 0];
        lzma.extend_from_slice(&(100u64 << 20).to_le_bytes());
        lzma.extend_from_slice(&[0; 64]);
        let bytes = synth(1, lzma.len() as u32, 0, &lzma);
        let err = WebContainer::parse(&bytes).unwrap_err();
        assert!(
            matches!(err, WebError::TooLarge { limit: 64_000, .. }),
            "{err}"
        );
    }

    #[test]
    fn unity_raw_round_trip() {
        // Directory: one entry "a" at offset 14, size 3.
        let mut payload = Vec::new();
        payload.extend_from_slice(&1i32.to_be_bytes());
        payload.extend_from_slice(b"a\0");
        payload.extend_from_slice(&14u32.to_be_bytes());
        payload.extend_from_slice(&3u32.to_be_bytes());
        payload.extend_from_slice(b"xyz");
        let mut bytes = synth(1, payload.len() as u32, payload.len() as u32, &payload);
        bytes[..9].copy_from_slice(b"UnityRaw\0");
        let web = WebContainer::parse(&bytes).unwrap();
        assert_eq!(web.signature, "UnityRaw");
        assert_eq!(web.entries.len(), 1);
        assert_eq!(web.entries[0].name, "a");
        assert_eq!(&*web.entries[0].data, b"xyz");

        // An entry reaching past the payload is refused.
        let size_at = bytes.len() - 3 - 4;
        bytes[size_at..size_at + 4].copy_from_slice(&4u32.to_be_bytes());
        assert!(matches!(
            WebContainer::parse(&bytes),
            Err(WebError::BadEntry { .. })
        ));
    }

    #[test]
    fn version_6_and_other_signatures_are_refused() {
        let mut bytes = synth(1, 0, 0, &[]);
        bytes[9..13].copy_from_slice(&6u32.to_be_bytes());
        assert!(matches!(
            WebContainer::parse(&bytes),
            Err(WebError::UnsupportedVersion(6))
        ));
        assert!(!WebContainer::is_web(b"UnityWebData1.0\0"));
        assert!(!WebContainer::is_web(b"UnityFS\0"));
        assert!(matches!(
            WebContainer::parse(b"UnityFS\0"),
            Err(WebError::NotWebContainer)
        ));
    }
}
