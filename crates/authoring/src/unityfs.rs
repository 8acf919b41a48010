//! Writing UnityFS archives byte by byte, in every layout clipscope reads: archive versions 6,
//! 7 and 8, the block table after the header or at the end, the 0x200 padding flag, version 6
//! padded as version 7 (2019.4.15+ players), and data cut into blocks of any codec.
//!
//! rabex's writer only writes versions 7 and up with one layout; these archives are the test
//! fixtures for the layouts it cannot write.

use liblzma::stream::{Action, LzmaOptions, Status, Stream};

use clipscope_core::container::codec::{Codec, LZMA_PROPS_LEN};

/// How to lay out an archive.
#[derive(Clone, Debug)]
pub struct ArchiveLayout {
    /// Archive format version (6, 7 or 8).
    pub version: u32,
    /// The engine version in the header (decides what flag 0x200 means).
    pub revision: String,
    /// Put the block table at the end of the file (flag 0x80).
    pub table_at_end: bool,
    /// Set flag 0x200 and align the first data block to 16 bytes.
    pub padding_flag: bool,
    /// Version 6 only: align the block table as version 7 does (some 2019.4.15+ players).
    pub v6_aligned: bool,
    /// Codec of the block table.
    pub table_codec: Codec,
    /// Codec of the data blocks.
    pub block_codec: Codec,
    /// Uncompressed size of each data block (the last may be shorter); `None`: one block.
    pub block_size: Option<usize>,
}

impl ArchiveLayout {
    /// A version 7 archive of Unity 2020.3.34 with an LZ4HC table and one LZMA block.
    pub fn new(version: u32) -> Self {
        ArchiveLayout {
            version,
            revision: "2020.3.34f1".into(),
            table_at_end: false,
            padding_flag: false,
            v6_aligned: false,
            table_codec: Codec::Lz4Hc,
            block_codec: Codec::Lzma,
            block_size: None,
        }
    }
}

/// One entry of the archive's directory.
pub struct ArchiveEntry<'a> {
    pub path: &'a str,
    pub data: &'a [u8],
    /// 4 for a serialized file, 0 for a resource.
    pub flags: u32,
}

/// Compresses `data` with `codec` in the form Unity stores a block.
pub fn compress(codec: Codec, data: &[u8]) -> Vec<u8> {
    match codec {
        Codec::None => data.to_vec(),
        Codec::Lzma => lzma_block(data),
        // LZ4HC differs from LZ4 only in how hard the compressor searches; the block format and
        // the decoder are the same.
        Codec::Lz4 | Codec::Lz4Hc => lz4_flex::block::compress(data),
    }
}

/// Unity's LZMA block form: five property bytes, then the raw stream (no size field).
pub fn lzma_block(data: &[u8]) -> Vec<u8> {
    let options = LzmaOptions::new_preset(6).expect("preset 6 exists");
    let mut encoder = Stream::new_lzma_encoder(&options).expect("the LZMA encoder starts");
    let mut alone = Vec::with_capacity(data.len() / 2 + 4096);
    let mut input = data;
    loop {
        let before = encoder.total_in();
        let status = encoder
            .process_vec(input, &mut alone, Action::Finish)
            .expect("LZMA encoding of bytes in memory succeeds");
        input = &input[(encoder.total_in() - before) as usize..];
        if status == Status::StreamEnd {
            break;
        }
        alone.reserve(64 * 1024);
    }
    // The `.lzma` header is the properties, then the u64 size Unity does not store.
    let mut block = alone[..LZMA_PROPS_LEN].to_vec();
    block.extend_from_slice(&alone[13..]);
    block
}

/// Writes an archive holding `entries`, concatenated in order, with `layout`.
pub fn write_archive(entries: &[ArchiveEntry<'_>], layout: &ArchiveLayout) -> Vec<u8> {
    let data: Vec<u8> = entries
        .iter()
        .flat_map(|e| e.data.iter().copied())
        .collect();
    let chunk = layout.block_size.unwrap_or(data.len()).max(1);
    let blocks: Vec<(usize, Vec<u8>)> = data
        .chunks(chunk)
        .map(|c| (c.len(), compress(layout.block_codec, c)))
        .collect();
    let table = block_table(entries, &blocks, layout.block_codec);
    let packed_table = compress(layout.table_codec, &table);

    let mut flags = codec_code(layout.table_codec) | 0x40;
    if layout.table_at_end {
        flags |= 0x80;
    }
    if layout.padding_flag {
        flags |= 0x200;
    }
    let mut out = header(layout, &packed_table, &table, flags);
    if layout.version >= 7 || layout.v6_aligned {
        pad16(&mut out);
    }
    if !layout.table_at_end {
        out.extend_from_slice(&packed_table);
        if layout.padding_flag {
            pad16(&mut out);
        }
    }
    for (_, block) in &blocks {
        out.extend_from_slice(block);
    }
    if layout.table_at_end {
        out.extend_from_slice(&packed_table);
    }
    let size = out.len() as i64;
    let size_at = size_field_offset(layout);
    out[size_at..size_at + 8].copy_from_slice(&size.to_be_bytes());
    out
}

fn codec_code(codec: Codec) -> u32 {
    match codec {
        Codec::None => 0,
        Codec::Lzma => 1,
        Codec::Lz4 => 2,
        Codec::Lz4Hc => 3,
    }
}

/// The header with a zero archive size (filled in at the end).
fn header(layout: &ArchiveLayout, packed_table: &[u8], table: &[u8], flags: u32) -> Vec<u8> {
    let mut out = b"UnityFS\0".to_vec();
    out.extend_from_slice(&layout.version.to_be_bytes());
    out.extend_from_slice(b"5.x.x\0");
    out.extend_from_slice(layout.revision.as_bytes());
    out.push(0);
    out.extend_from_slice(&0i64.to_be_bytes());
    out.extend_from_slice(&(packed_table.len() as u32).to_be_bytes());
    out.extend_from_slice(&(table.len() as u32).to_be_bytes());
    out.extend_from_slice(&flags.to_be_bytes());
    out
}

fn size_field_offset(layout: &ArchiveLayout) -> usize {
    8 + 4 + 6 + layout.revision.len() + 1
}

fn pad16(out: &mut Vec<u8>) {
    out.resize(out.len().div_ceil(16) * 16, 0);
}

/// The uncompressed block table: hash, blocks, directory (big-endian).
fn block_table(entries: &[ArchiveEntry<'_>], blocks: &[(usize, Vec<u8>)], codec: Codec) -> Vec<u8> {
    let mut t = vec![0u8; 16];
    t.extend_from_slice(&(blocks.len() as i32).to_be_bytes());
    for (size, packed) in blocks {
        t.extend_from_slice(&(*size as u32).to_be_bytes());
        t.extend_from_slice(&(packed.len() as u32).to_be_bytes());
        t.extend_from_slice(&(codec_code(codec) as u16 | 0x40).to_be_bytes());
    }
    t.extend_from_slice(&(entries.len() as i32).to_be_bytes());
    let mut offset = 0i64;
    for e in entries {
        t.extend_from_slice(&offset.to_be_bytes());
        t.extend_from_slice(&(e.data.len() as i64).to_be_bytes());
        t.extend_from_slice(&e.flags.to_be_bytes());
        t.extend_from_slice(e.path.as_bytes());
        t.push(0);
        offset += e.data.len() as i64;
    }
    t
}
