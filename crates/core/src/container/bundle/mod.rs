//! UnityFS AssetBundles (archive versions 6, 7 and 8), read here in full: the header, the
//! block table and directory, and the data blocks, decompressed once into one buffer that the
//! entries share.
//!
//! Every size is checked against the file and our caps before anything is allocated.

mod layout;

use rayon::prelude::*;

use super::codec::{self, Codec};
use super::{ContainerError, ContainerKind, InnerFile, Opened};
use crate::binary::{ByteReader, Endian};
use crate::blob::Blob;
pub use layout::{BlocksInfo, BundleHeader, Node, StorageBlock};

/// Largest uncompressed bundle accepted (the sum of its blocks).
pub const MAX_UNCOMPRESSED: u64 = 2 << 30;
/// Largest ratio of uncompressed to compressed size accepted for the whole bundle.
pub const MAX_RATIO: u64 = 1024;
/// Largest block table accepted.
const MAX_BLOCKS_INFO: u32 = 64 << 20;

/// Header flag: the block table sits at the end of the file.
pub const FLAG_BLOCKS_INFO_AT_END: u32 = 0x80;
/// Header flag (from 2020.3.34, 2021.3.2, 2022.1.1): the data starts on a 16-byte boundary.
pub const FLAG_PADDING_AT_START: u32 = 0x200;

/// Opens a UnityFS bundle: its serialized files and those resources `wanted` names.
pub(super) fn open(
    bytes: Vec<u8>,
    wanted: impl Fn(&str) -> bool,
) -> Result<Opened, ContainerError> {
    let header = BundleHeader::read(&bytes)?;
    header.check_encryption()?;
    let (info, data_start) = layout::locate(&bytes, &header)?;
    check_blocks(&info, data_start, bytes.len())?;
    let needed = info.blocks_for(|node| is_serialized_name(node) || wanted(&node.path));
    let lzma = info
        .blocks
        .iter()
        .zip(&needed)
        .any(|(block, &needed)| needed && block.codec() == Some(Codec::Lzma));
    let data = decompress_blocks(bytes, &info, data_start, &needed)?;
    let mut files = Vec::new();
    let mut resources = Vec::new();
    for node in &info.nodes {
        if !info.covered(node, &needed) {
            continue;
        }
        let start = node.offset as usize;
        let entry = InnerFile {
            name: node.path.clone(),
            bytes: data
                .slice(start..start + node.size as usize)
                .ok_or_else(|| {
                    malformed("bundle directory", format!("{} is out of range", node.path))
                })?,
        };
        if crate::serialized::looks_serialized(&entry.bytes) {
            files.push(entry);
        } else {
            resources.push(entry);
        }
    }
    Ok(Opened {
        kind: ContainerKind::UnityFs,
        unity_revision: Some(header.revision),
        files,
        resources,
        lzma,
    })
}

/// A bundle's block table and directory, and the offset of its first data block, checked
/// against the file and the caps.
pub fn locate_blocks(bytes: &[u8]) -> Result<(BlocksInfo, usize), ContainerError> {
    locate_checked(bytes, &BundleHeader::read(bytes)?)
}

fn locate_checked(
    bytes: &[u8],
    header: &BundleHeader,
) -> Result<(BlocksInfo, usize), ContainerError> {
    header.check_encryption()?;
    let (info, data_start) = layout::locate(bytes, header)?;
    check_blocks(&info, data_start, bytes.len())?;
    Ok((info, data_start))
}

/// Nodes that may hold a serialized file: everything but resource blobs by their extension.
fn is_serialized_name(node: &Node) -> bool {
    let lower = node.path.to_ascii_lowercase();
    !(lower.ends_with(".ress") || lower.ends_with(".resource"))
}

pub(super) fn malformed(what: &'static str, detail: impl Into<String>) -> ContainerError {
    ContainerError::Malformed {
        what,
        detail: detail.into(),
    }
}

/// Checks the block table and directory against the file size and our caps.
fn check_blocks(
    info: &BlocksInfo,
    data_start: usize,
    file_len: usize,
) -> Result<(), ContainerError> {
    let bad = |detail: String| malformed("bundle block table", detail);
    let compressed = info.compressed_size();
    let uncompressed = info.uncompressed_size();
    let room = file_len.saturating_sub(data_start) as u64;
    if compressed > room {
        return Err(bad(format!(
            "blocks hold {compressed} bytes but only {room} follow the block table"
        )));
    }
    if uncompressed > MAX_UNCOMPRESSED || uncompressed > compressed.max(1).saturating_mul(MAX_RATIO)
    {
        return Err(bad(format!(
            "blocks expand {compressed} bytes to {uncompressed}, past the limit"
        )));
    }
    for (i, block) in info.blocks.iter().enumerate() {
        if let Err(code) = Codec::from_flags(u32::from(block.flags)) {
            return Err(bad(format!(
                "block {i}: compression {code} is not supported"
            )));
        }
    }
    for node in &info.nodes {
        if node
            .offset
            .checked_add(node.size)
            .is_none_or(|end| end > uncompressed)
        {
            return Err(bad(format!(
                "entry {} at {}+{} lies outside the {uncompressed} bytes of data",
                node.path, node.offset, node.size
            )));
        }
    }
    Ok(())
}

/// Decompresses the `needed` blocks into one buffer (in parallel; blocks are independent).
/// When every block is stored uncompressed, the file's own buffer is the data.
fn decompress_blocks(
    file: Vec<u8>,
    info: &BlocksInfo,
    data_start: usize,
    needed: &[bool],
) -> Result<Blob, ContainerError> {
    let total = info.uncompressed_size() as usize;
    let stored = info.compressed_size() as usize;
    let all_raw = info
        .blocks
        .iter()
        .all(|b| b.codec() == Some(Codec::None) && b.compressed_size == b.uncompressed_size);
    if all_raw {
        return Blob::from(file)
            .slice(data_start..data_start + stored)
            .ok_or_else(|| malformed("bundle data", "blocks run past the end of the file"));
    }
    let mut out = vec![0u8; total];
    let mut jobs = Vec::with_capacity(info.blocks.len());
    let (mut rest, mut at) = (out.as_mut_slice(), data_start);
    for (i, block) in info.blocks.iter().enumerate() {
        let (dst, tail) = rest.split_at_mut(block.uncompressed_size as usize);
        rest = tail;
        let src = file
            .get(at..at + block.compressed_size as usize)
            .ok_or_else(|| {
                malformed(
                    "bundle data",
                    format!("block {i} runs past the end of the file"),
                )
            })?;
        at += block.compressed_size as usize;
        if needed.get(i).copied().unwrap_or(false) {
            jobs.push((i, block, src, dst));
        }
    }
    jobs.into_par_iter().try_for_each(|(i, block, src, dst)| {
        let codec = block.codec().unwrap_or(Codec::None);
        codec::decompress_into(codec, src, dst)
            .map_err(|e| malformed("bundle data", format!("block {i} ({}): {e}", codec.name())))
    })?;
    drop(file);
    Ok(Blob::from(out))
}

/// Reads the fixed header fields (big-endian).
pub(super) fn read_header_fields(bytes: &[u8]) -> Result<BundleHeader, crate::binary::ReadError> {
    let mut r = ByteReader::new(bytes, Endian::Big);
    r.cstr(16, "signature")?;
    let version = r.u32("archive version")?;
    let player_version = r.cstr(64, "player version")?;
    let revision = r.cstr(64, "engine version")?;
    let size = r.i64("archive size")?;
    let blocks_info_compressed = r.u32("block table size")?;
    let blocks_info_uncompressed = r.u32("block table size")?;
    let flags = r.u32("flags")?;
    Ok(BundleHeader {
        version,
        player_version,
        revision,
        size,
        blocks_info_compressed,
        blocks_info_uncompressed,
        flags,
        header_len: r.position(),
    })
}

impl BundleHeader {
    /// Reads a UnityFS archive's header, checked against the file's length and the archive
    /// versions clipscope reads (6 to 8).
    pub fn read(bytes: &[u8]) -> Result<BundleHeader, ContainerError> {
        let h = read_header_fields(bytes).map_err(|e| malformed("bundle header", e.to_string()))?;
        if !(6..=8).contains(&h.version) {
            return Err(ContainerError::UnsupportedVersion {
                what: "UnityFS archive",
                version: h.version,
            });
        }
        if h.size < 0 || h.size as u64 > bytes.len() as u64 {
            return Err(malformed(
                "bundle header",
                format!("declares {} bytes but the file has {}", h.size, bytes.len()),
            ));
        }
        if h.blocks_info_compressed as usize > bytes.len() {
            return Err(malformed(
                "bundle header",
                format!(
                    "block table of {} bytes is larger than the file",
                    h.blocks_info_compressed
                ),
            ));
        }
        if h.blocks_info_uncompressed > MAX_BLOCKS_INFO {
            return Err(malformed(
                "bundle block table",
                format!("declares {} bytes", h.blocks_info_uncompressed),
            ));
        }
        Ok(h)
    }

    /// True when flag 0x200 means padding (its meaning from 2020.3.34, 2021.3.2 and 2022.1.1)
    /// rather than UnityCN encryption.
    pub fn padding_flag_era(&self) -> bool {
        padding_flag_era(&self.revision)
    }

    fn check_encryption(&self) -> Result<(), ContainerError> {
        if self.flags & 0x1400 != 0 {
            return Err(ContainerError::Encrypted(format!(
                "archive flags {:#x}",
                self.flags
            )));
        }
        if self.flags & FLAG_PADDING_AT_START != 0 && !self.padding_flag_era() {
            return Err(ContainerError::Encrypted(format!(
                "UnityCN flag 0x200 set by Unity {}",
                self.revision
            )));
        }
        if let Err(code) = Codec::from_flags(self.flags) {
            return Err(malformed(
                "bundle header",
                format!("unknown block table compression {code}"),
            ));
        }
        Ok(())
    }
}

/// True for revisions in which flag 0x200 means padding rather than UnityCN encryption. A
/// stripped or unreadable revision is taken as recent.
pub fn padding_flag_era(revision: &str) -> bool {
    let Ok(version) = revision.parse::<crate::version::UnityVersion>() else {
        return true;
    };
    let v = (version.major, version.minor, version.patch);
    match v.0 {
        y if y < 2020 => false,
        2020 => v >= (2020, 3, 34),
        2021 => v >= (2021, 3, 2),
        2022 => v >= (2022, 1, 1),
        _ => true,
    }
}
