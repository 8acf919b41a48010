//! UnityFS AssetBundles, read with `rabex` after our own checks of the header, the block
//! table and the directory, so that no declared size can make it panic or allocate wildly.

use std::io::Cursor;
use std::panic::{AssertUnwindSafe, catch_unwind};

use rabex::files::bundlefile::{BundleFileReader, ExtractionConfig};

use super::{ContainerError, ContainerKind, Opened, split_serialized};
use crate::binary::{ByteReader, Endian};

/// Largest uncompressed bundle accepted (the sum of its blocks).
pub const MAX_UNCOMPRESSED: u64 = 2 << 30;
/// Largest ratio of uncompressed to compressed size accepted for the whole bundle.
const MAX_RATIO: u64 = 1024;

/// The fields of the UnityFS header that decide whether we can read the bundle.
struct Header {
    revision: String,
    flags: u32,
    blocks_info_uncompressed: u32,
}

fn read_header(bytes: &[u8]) -> Result<Header, ContainerError> {
    let bad = |e: crate::binary::ReadError| ContainerError::Malformed {
        what: "bundle header",
        detail: e.to_string(),
    };
    let mut r = ByteReader::new(bytes, Endian::Big);
    r.cstr(16, "signature").map_err(bad)?;
    let version = r.u32("archive version").map_err(bad)?;
    r.cstr(64, "player version").map_err(bad)?;
    let revision = r.cstr(64, "engine version").map_err(bad)?;
    let size = r.i64("archive size").map_err(bad)?;
    let blocks_info_compressed = r.u32("blocks info size").map_err(bad)?;
    let blocks_info_uncompressed = r.u32("blocks info size").map_err(bad)?;
    let flags = r.u32("flags").map_err(bad)?;
    if !(6..=8).contains(&version) {
        return Err(ContainerError::UnsupportedVersion {
            what: "UnityFS archive",
            version,
        });
    }
    if size < 0 || size as u64 > bytes.len() as u64 {
        return Err(ContainerError::Malformed {
            what: "bundle header",
            detail: format!("declares {size} bytes but the file has {}", bytes.len()),
        });
    }
    if blocks_info_compressed as usize > bytes.len() {
        return Err(ContainerError::Malformed {
            what: "bundle header",
            detail: format!(
                "block table of {blocks_info_compressed} bytes is larger than the file"
            ),
        });
    }
    Ok(Header {
        revision,
        flags,
        blocks_info_uncompressed,
    })
}

/// True for revisions in which flag 0x200 means padding rather than UnityCN encryption.
fn padding_flag_era(revision: &str) -> bool {
    let nums: Vec<u32> = revision
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|p| p.parse().ok())
        .collect();
    let v = (
        nums.first().copied().unwrap_or(0),
        nums.get(1).copied().unwrap_or(0),
        nums.get(2).copied().unwrap_or(0),
    );
    match v.0 {
        0 => true, // stripped: assume recent
        y if y < 2020 => false,
        2020 => v >= (2020, 3, 34),
        2021 => v >= (2021, 3, 2),
        2022 => v >= (2022, 1, 1),
        _ => true,
    }
}

fn check_encryption(h: &Header) -> Result<(), ContainerError> {
    if h.flags & 0x1400 != 0 {
        return Err(ContainerError::Encrypted(format!(
            "archive flags {:#x}",
            h.flags
        )));
    }
    if h.flags & 0x200 != 0 && !padding_flag_era(&h.revision) {
        return Err(ContainerError::Encrypted(format!(
            "UnityCN flag 0x200 set by Unity {}",
            h.revision
        )));
    }
    let compression = h.flags & 0x3f;
    if compression > 3 {
        return Err(ContainerError::Malformed {
            what: "bundle header",
            detail: format!("unknown block table compression {compression}"),
        });
    }
    Ok(())
}

/// Opens a UnityFS bundle and returns its serialized files.
pub(super) fn open(bytes: &[u8]) -> Result<Opened, ContainerError> {
    let header = read_header(bytes)?;
    check_encryption(&header)?;
    if header.blocks_info_uncompressed as u64 > (64 << 20) {
        return Err(ContainerError::Malformed {
            what: "bundle block table",
            detail: format!("declares {} bytes", header.blocks_info_uncompressed),
        });
    }
    let reader = guarded("bundle block table", || {
        BundleFileReader::from_reader(
            Cursor::new(bytes),
            &ExtractionConfig::default().assume_recent_unity(),
        )
    })?;
    check_blocks(&reader, bytes.len() as u64)?;
    let mut entries = Vec::new();
    for entry in reader.files() {
        let data = guarded("bundle file data", || reader.read_at_entry(entry))
            .map_err(|e| named(e, &entry.path))?;
        entries.push((entry.path.clone(), data));
    }
    let (files, resources) = split_serialized(entries.into_iter());
    Ok(Opened {
        kind: ContainerKind::UnityFs,
        unity_revision: Some(header.revision),
        files,
        resources,
    })
}

fn named(e: ContainerError, entry: &str) -> ContainerError {
    match e {
        ContainerError::Malformed { what, detail } => ContainerError::Malformed {
            what,
            detail: format!("{entry}: {detail}"),
        },
        other => other,
    }
}

/// Checks the block table and directory against the file size and our caps.
fn check_blocks(
    reader: &BundleFileReader<Cursor<&[u8]>>,
    file_len: u64,
) -> Result<(), ContainerError> {
    let bad = |detail: String| ContainerError::Malformed {
        what: "bundle block table",
        detail,
    };
    let compressed: u64 = reader
        .blocks()
        .iter()
        .map(|b| b.compressed_size as u64)
        .sum();
    let uncompressed: u64 = reader
        .blocks()
        .iter()
        .map(|b| b.uncompressed_size as u64)
        .sum();
    if compressed > file_len {
        return Err(bad(format!(
            "blocks hold {compressed} bytes but the file has {file_len}"
        )));
    }
    if uncompressed > MAX_UNCOMPRESSED || uncompressed > compressed.max(1).saturating_mul(MAX_RATIO)
    {
        return Err(bad(format!(
            "blocks expand {compressed} bytes to {uncompressed}, past the limit"
        )));
    }
    for entry in reader.files() {
        let end = entry.offset.checked_add(entry.size);
        if entry.offset < 0 || entry.size < 0 || end.is_none_or(|end| end as u64 > uncompressed) {
            return Err(bad(format!(
                "entry {} at {}+{} lies outside the {uncompressed} bytes of data",
                entry.path, entry.offset, entry.size
            )));
        }
    }
    for block in reader.blocks() {
        let codec = block.flags & 0x3f;
        if codec > 3 {
            return Err(bad(format!("block compression {codec} is not supported")));
        }
    }
    Ok(())
}

/// Runs a `rabex` call, turning both its errors and its panics into ours.
fn guarded<T>(
    what: &'static str,
    f: impl FnOnce() -> std::io::Result<T>,
) -> Result<T, ContainerError> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(ContainerError::Malformed {
            what,
            detail: e.to_string(),
        }),
        Err(_) => Err(ContainerError::Malformed {
            what,
            detail: "the bundle reader panicked on this data".into(),
        }),
    }
}
