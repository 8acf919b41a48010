//! Where a UnityFS bundle keeps its block table and data, and what the table says.
//!
//! The block table follows the header (version 6: at once; versions 7 and 8: on the next
//! 16-byte boundary) or sits at the end of the file (flag 0x80). Some 2019.4.15+ players write
//! version 6 but align as version 7 does; the aligned position is tried when the unaligned one
//! does not decode.

use super::{FLAG_BLOCKS_INFO_AT_END, FLAG_PADDING_AT_START, malformed};
use crate::binary::{ByteReader, Endian, ReadError};
use crate::container::ContainerError;
use crate::container::codec::{self, Codec};

/// The UnityFS header (all fields big-endian).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundleHeader {
    /// Archive format version (6, 7 or 8 are read).
    pub version: u32,
    /// Always "5.x.x".
    pub player_version: String,
    /// The engine version that built the bundle.
    pub revision: String,
    /// Total archive size in bytes.
    pub size: i64,
    pub blocks_info_compressed: u32,
    pub blocks_info_uncompressed: u32,
    pub flags: u32,
    /// Bytes the header takes (before any alignment).
    pub header_len: usize,
}

/// One data block: its sizes and codec (`flags & 0x3f`; 0x40 means streamed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StorageBlock {
    pub uncompressed_size: u32,
    pub compressed_size: u32,
    pub flags: u16,
}

impl StorageBlock {
    /// The block's codec from its flags, or `None` for a code clipscope does not know.
    pub fn codec(&self) -> Option<Codec> {
        Codec::from_flags(u32::from(self.flags)).ok()
    }
}

/// A directory entry: a range of the concatenated, decompressed blocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub offset: u64,
    pub size: u64,
    /// 1 directory, 2 deleted, 4 serialized file.
    pub flags: u32,
    pub path: String,
}

/// The block table and directory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlocksInfo {
    pub blocks: Vec<StorageBlock>,
    pub nodes: Vec<Node>,
}

/// Bytes one block record takes.
const BLOCK_LEN: usize = 10;
/// Fewest bytes one directory record takes (an empty path).
const NODE_MIN_LEN: usize = 21;

impl BlocksInfo {
    /// Parses a decompressed block table (big-endian). At most three bytes may follow the
    /// directory (some writers pad it to four bytes).
    pub fn parse(bytes: &[u8]) -> Result<BlocksInfo, ReadError> {
        let mut r = ByteReader::new(bytes, Endian::Big);
        r.take(16, "data hash")?;
        let block_count = r.count(BLOCK_LEN, "block count")?;
        let mut blocks = Vec::with_capacity(block_count);
        for _ in 0..block_count {
            blocks.push(StorageBlock {
                uncompressed_size: r.u32("block size")?,
                compressed_size: r.u32("block size")?,
                flags: r.u16("block flags")?,
            });
        }
        let node_count = r.count(NODE_MIN_LEN, "directory count")?;
        let mut nodes = Vec::with_capacity(node_count);
        for _ in 0..node_count {
            let offset = r.i64("entry offset")?;
            let size = r.i64("entry size")?;
            let flags = r.u32("entry flags")?;
            let path = r.cstr(4096, "entry path")?;
            let (Ok(offset), Ok(size)) = (u64::try_from(offset), u64::try_from(size)) else {
                return Err(r.error(format!("entry {path}: negative offset or size")));
            };
            nodes.push(Node {
                offset,
                size,
                flags,
                path,
            });
        }
        if r.remaining() > 3 {
            return Err(r.error(format!("{} bytes follow the directory", r.remaining())));
        }
        Ok(BlocksInfo { blocks, nodes })
    }

    /// The sum of the blocks' stored sizes.
    pub fn compressed_size(&self) -> u64 {
        self.blocks
            .iter()
            .map(|b| u64::from(b.compressed_size))
            .sum()
    }

    /// The sum of the blocks' decompressed sizes.
    pub fn uncompressed_size(&self) -> u64 {
        self.blocks
            .iter()
            .map(|b| u64::from(b.uncompressed_size))
            .sum()
    }

    /// Which blocks hold some byte of a node `keep` accepts.
    pub fn blocks_for(&self, keep: impl Fn(&Node) -> bool) -> Vec<bool> {
        let mut needed = vec![false; self.blocks.len()];
        for node in self.nodes.iter().filter(|n| keep(n)) {
            let mut start = 0u64;
            for (i, block) in self.blocks.iter().enumerate() {
                let end = start + u64::from(block.uncompressed_size);
                if start < node.offset + node.size && node.offset < end {
                    needed[i] = true;
                }
                start = end;
            }
        }
        needed
    }

    /// True when every block holding a byte of `node` is in `decompressed`.
    pub fn covered(&self, node: &Node, decompressed: &[bool]) -> bool {
        let mut start = 0u64;
        self.blocks.iter().enumerate().all(|(i, block)| {
            let end = start + u64::from(block.uncompressed_size);
            let overlaps = start < node.offset + node.size && node.offset < end;
            start = end;
            !overlaps || decompressed.get(i).copied().unwrap_or(false)
        })
    }
}

fn align16(n: usize) -> usize {
    n.div_ceil(16) * 16
}

/// True when `bytes[from..to]` exist and are all zero.
fn zero_padding(bytes: &[u8], from: usize, to: usize) -> bool {
    bytes
        .get(from..to)
        .is_some_and(|p| p.iter().all(|&b| b == 0))
}

/// Finds, decompresses and parses the block table; returns it with the offset of the first
/// data block.
pub(super) fn locate(
    bytes: &[u8],
    h: &BundleHeader,
) -> Result<(BlocksInfo, usize), ContainerError> {
    let aligned = align16(h.header_len);
    // Version 6 aligns only when written by a player that pads as version 7 does (zero bytes up
    // to the boundary); both positions are tried, unaligned first.
    let after_header: Vec<usize> = if h.version >= 7 {
        vec![aligned]
    } else if aligned != h.header_len && zero_padding(bytes, h.header_len, aligned) {
        vec![h.header_len, aligned]
    } else {
        vec![h.header_len]
    };
    let size = h.size as usize;
    let table_len = h.blocks_info_compressed as usize;
    if h.flags & FLAG_BLOCKS_INFO_AT_END != 0 {
        let at = size
            .checked_sub(table_len)
            .ok_or_else(|| malformed("bundle header", "block table is larger than the archive"))?;
        let info = read_table(bytes, at, h)?;
        // The data fills the space between the header and the table exactly.
        let stored = info.compressed_size() as usize;
        let start = after_header
            .iter()
            .copied()
            .find(|&s| s + stored == at)
            .unwrap_or(after_header[0]);
        return Ok((info, start));
    }
    let mut first_error = None;
    for at in after_header {
        match read_table(bytes, at, h) {
            Ok(info) => {
                let mut start = at + table_len;
                if h.flags & FLAG_PADDING_AT_START != 0 {
                    start = align16(start);
                }
                if start as u64 + info.compressed_size() <= bytes.len() as u64 {
                    return Ok((info, start));
                }
                first_error.get_or_insert_with(|| {
                    malformed("bundle block table", "blocks run past the end of the file")
                });
            }
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Err(first_error.unwrap_or_else(|| malformed("bundle block table", "not found")))
}

/// Decompresses and parses the block table stored at `at`.
fn read_table(bytes: &[u8], at: usize, h: &BundleHeader) -> Result<BlocksInfo, ContainerError> {
    let bad = |detail: String| malformed("bundle block table", detail);
    let stored = at
        .checked_add(h.blocks_info_compressed as usize)
        .and_then(|end| bytes.get(at..end))
        .ok_or_else(|| {
            bad(format!(
                "{} bytes at {at} run past the end of the file",
                h.blocks_info_compressed
            ))
        })?;
    let codec = Codec::from_flags(h.flags).map_err(|c| bad(format!("unknown compression {c}")))?;
    let mut table = vec![0u8; h.blocks_info_uncompressed as usize];
    codec::decompress_into(codec, stored, &mut table)
        .map_err(|e| bad(format!("{} at {at}: {e}", codec.name())))?;
    BlocksInfo::parse(&table).map_err(|e| bad(e.to_string()))
}
