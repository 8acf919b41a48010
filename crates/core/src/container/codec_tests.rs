//! The codecs on blocks that `authoring::unityfs` compresses (its tests are here, not in
//! `codec.rs`, so the reader does not import the writer that sits above it).

use super::codec::*;
use clipscope_authoring::unityfs::lzma_block;

fn sample(n: usize) -> Vec<u8> {
    (0..n)
        .map(|i| ((i * 7) % 251) as u8 ^ (i / 300) as u8)
        .collect()
}

#[test]
fn lzma_round_trip() {
    let data = sample(100_000);
    let block = lzma_block(&data);
    let mut out = vec![0; data.len()];
    decompress_into(Codec::Lzma, &block, &mut out).unwrap();
    assert_eq!(out, data);
}

#[test]
fn lzma_truncated_or_oversized_is_an_error() {
    let data = sample(50_000);
    let block = lzma_block(&data);
    let mut out = vec![0; data.len()];
    let err = decompress_into(Codec::Lzma, &block[..block.len() / 2], &mut out).unwrap_err();
    assert!(err.contains("LZMA"), "{err}");
    let mut bigger = vec![0; data.len() + 10];
    assert!(decompress_into(Codec::Lzma, &block, &mut bigger).is_err());
    assert!(decompress_into(Codec::Lzma, &block[..3], &mut out).is_err());
}

#[test]
fn hostile_dictionary_size_is_capped() {
    let data = sample(10_000);
    let mut block = lzma_block(&data);
    block[1..5].copy_from_slice(&u32::MAX.to_le_bytes());
    let mut out = vec![0; data.len()];
    decompress_into(Codec::Lzma, &block, &mut out).unwrap();
    assert_eq!(out, data);
}

#[test]
fn lz4_round_trip_and_size_mismatch() {
    let data = sample(70_000);
    let block = lz4_flex::block::compress(&data);
    let mut out = vec![0; data.len()];
    decompress_into(Codec::Lz4Hc, &block, &mut out).unwrap();
    assert_eq!(out, data);
    let mut short = vec![0; data.len() - 1];
    assert!(decompress_into(Codec::Lz4, &block, &mut short).is_err());
}

#[test]
fn codes_from_flags() {
    assert_eq!(Codec::from_flags(0x41), Ok(Codec::Lzma));
    assert_eq!(Codec::from_flags(0x43), Ok(Codec::Lz4Hc));
    assert_eq!(Codec::from_flags(0x04), Err(4));
}
