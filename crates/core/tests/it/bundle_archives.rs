//! Every archive layout, written byte by byte (`clipscope_authoring::unityfs`), opened back
//! through `container::open` (which skips `.resource` audio and video, as every read does).

use clipscope_authoring::unityfs::{ArchiveEntry, ArchiveLayout, write_archive};
use clipscope_core::container::bundle::BundleHeader;
use clipscope_core::container::codec::Codec;
use clipscope_core::container::{ContainerError, open};

/// Bytes that look like a serialized file (format 22 header) followed by a known pattern.
fn fake_serialized(len: usize, seed: u8) -> Vec<u8> {
    let mut v = vec![0u8; len];
    v[8..12].copy_from_slice(&22u32.to_be_bytes());
    // format 22: sizes as u64 at 16..40, endianness at 40
    v[16..24].copy_from_slice(&0u64.to_be_bytes());
    v[24..32].copy_from_slice(&(len as u64).to_be_bytes());
    v[32..40].copy_from_slice(&48u64.to_be_bytes());
    for (i, b) in v.iter_mut().enumerate().skip(48) {
        *b = (i as u8).wrapping_mul(31) ^ seed;
    }
    v
}

fn resource(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i / 7) as u8).collect()
}

/// Opens `layout` over a serialized file and a `.resS` and checks both come back intact.
fn round_trip(layout: &ArchiveLayout) {
    let cab = fake_serialized(300_000, 3);
    let res = resource(70_000);
    let bytes = write_archive(
        &[
            ArchiveEntry {
                path: "CAB-0123",
                data: &cab,
                flags: 4,
            },
            ArchiveEntry {
                path: "CAB-0123.resS",
                data: &res,
                flags: 0,
            },
        ],
        layout,
    );
    let opened = open(bytes).unwrap_or_else(|e| panic!("{layout:?}: {e}"));
    assert_eq!(opened.files.len(), 1, "{layout:?}");
    assert_eq!(opened.files[0].name, "CAB-0123");
    assert!(*opened.files[0].bytes == *cab, "{layout:?}");
    assert_eq!(opened.resources.len(), 1);
    assert!(*opened.resources[0].bytes == *res, "{layout:?}");
    assert_eq!(
        opened.unity_revision.as_deref(),
        Some(layout.revision.as_str())
    );
}

fn layouts() -> Vec<ArchiveLayout> {
    let mut all = Vec::new();
    for version in [6, 7, 8] {
        for table_at_end in [false, true] {
            for (revision, padding_flag) in [
                ("2019.4.0f1", false),
                ("2020.3.33f1", false),
                ("2020.3.34f1", false),
                ("2020.3.34f1", true),
                ("2022.3.29f1", true),
            ] {
                all.push(ArchiveLayout {
                    version,
                    revision: revision.into(),
                    table_at_end,
                    padding_flag,
                    ..ArchiveLayout::new(version)
                });
            }
        }
    }
    all
}

#[test]
fn every_version_and_table_placement_opens() {
    for layout in layouts() {
        round_trip(&layout);
    }
}

#[test]
fn version_6_padded_as_version_7_opens() {
    for table_at_end in [false, true] {
        for table_codec in [Codec::Lz4Hc, Codec::None, Codec::Lzma] {
            round_trip(&ArchiveLayout {
                revision: "2019.4.15f1".into(),
                v6_aligned: true,
                table_at_end,
                table_codec,
                ..ArchiveLayout::new(6)
            });
        }
    }
}

#[test]
fn every_codec_in_one_and_many_blocks() {
    for version in [6, 8] {
        for block_codec in [Codec::None, Codec::Lzma, Codec::Lz4, Codec::Lz4Hc] {
            for table_codec in [Codec::None, Codec::Lzma, Codec::Lz4, Codec::Lz4Hc] {
                // 128 KiB blocks as Unity cuts LZ4 archives, and odd sizes so that both entries
                // start and end inside blocks.
                for block_size in [None, Some(128 << 10), Some(33_333)] {
                    round_trip(&ArchiveLayout {
                        block_codec,
                        table_codec,
                        block_size,
                        ..ArchiveLayout::new(version)
                    });
                }
            }
        }
    }
}

#[test]
fn old_era_padding_flag_is_unitycn_encryption() {
    let cab = fake_serialized(1000, 1);
    let layout = ArchiveLayout {
        revision: "2020.3.33f1".into(),
        padding_flag: true,
        ..ArchiveLayout::new(7)
    };
    let bytes = write_archive(
        &[ArchiveEntry {
            path: "CAB-1",
            data: &cab,
            flags: 4,
        }],
        &layout,
    );
    assert!(matches!(open(bytes), Err(ContainerError::Encrypted(_))));
}

#[test]
fn unwanted_resources_are_not_decompressed() {
    let cab = fake_serialized(200_000, 9);
    let audio = resource(400_000);
    let layout = ArchiveLayout {
        block_codec: Codec::Lz4,
        block_size: Some(128 << 10),
        ..ArchiveLayout::new(8)
    };
    let bytes = write_archive(
        &[
            ArchiveEntry {
                path: "CAB-1",
                data: &cab,
                flags: 4,
            },
            ArchiveEntry {
                path: "CAB-1.resource",
                data: &audio,
                flags: 0,
            },
        ],
        &layout,
    );
    let opened = open(bytes.clone()).unwrap();
    assert!(*opened.files[0].bytes == *cab);
    assert!(opened.resources.is_empty());
    // A corrupt block that only the skipped resource uses does not matter.
    let mut broken = bytes;
    let last_block_byte = broken.len() - 10;
    broken[last_block_byte] ^= 0xff;
    let opened = open(broken).unwrap();
    assert!(*opened.files[0].bytes == *cab);
}

#[test]
fn lies_in_the_block_table_are_errors() {
    let cab = fake_serialized(50_000, 5);
    let layout = ArchiveLayout {
        table_codec: Codec::None,
        block_codec: Codec::None,
        ..ArchiveLayout::new(6)
    };
    let good = write_archive(
        &[ArchiveEntry {
            path: "CAB-1",
            data: &cab,
            flags: 4,
        }],
        &layout,
    );
    let header_len = BundleHeader::read(&good).unwrap().header_len;
    // Block table: hash (16), count (4), then the first block's sizes.
    let block = header_len + 20;
    for (at, value) in [
        (block, u32::MAX),
        (block + 4, u32::MAX),
        (block, 49_999),
        (header_len + 16, 1 << 30),
    ] {
        let mut bad = good.clone();
        bad[at..at + 4].copy_from_slice(&value.to_be_bytes());
        let err = open(bad).unwrap_err();
        assert!(
            matches!(err, ContainerError::Malformed { .. }),
            "{at}: {err}"
        );
    }
    // An entry that runs past the data.
    let node_size = header_len + 20 + 10 + 4 + 8;
    let mut bad = good.clone();
    bad[node_size..node_size + 8].copy_from_slice(&60_000i64.to_be_bytes());
    assert!(open(bad).is_err());
}

#[test]
fn every_truncation_is_an_error() {
    let cab = fake_serialized(5_000, 2);
    for table_at_end in [false, true] {
        let layout = ArchiveLayout {
            table_at_end,
            block_codec: Codec::Lz4,
            ..ArchiveLayout::new(6)
        };
        let bytes = write_archive(
            &[ArchiveEntry {
                path: "CAB-1",
                data: &cab,
                flags: 4,
            }],
            &layout,
        );
        for len in (0..bytes.len()).step_by(7) {
            assert!(open(bytes[..len].to_vec()).is_err(), "{len}");
        }
    }
}
