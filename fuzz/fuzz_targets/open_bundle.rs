//! The UnityFS reader on any bytes must return, never panic, hang or allocate past its caps.
//!
//! The first byte picks a mode. Odd: the rest is a whole file. Even: the rest becomes the
//! entries of an archive written in a layout the second byte picks (version, table placement,
//! padding, codecs, block size), which is then corrupted at the positions the next bytes name,
//! so that the fuzzer reaches every layout's block table and data paths.
#![no_main]

use clipscope_authoring::unityfs::{ArchiveEntry, ArchiveLayout, write_archive};
use clipscope_core::container::{self, codec::Codec};
use libfuzzer_sys::fuzz_target;

const CODECS: [Codec; 4] = [Codec::None, Codec::Lzma, Codec::Lz4, Codec::Lz4Hc];

fn layout(pick: u8) -> ArchiveLayout {
    let version = [6, 7, 8][usize::from(pick % 3)];
    ArchiveLayout {
        revision: if pick & 0x80 != 0 { "2019.4.15f1" } else { "2022.3.29f1" }.into(),
        table_at_end: pick & 4 != 0,
        padding_flag: pick & 8 != 0,
        v6_aligned: pick & 0x10 != 0,
        table_codec: CODECS[usize::from(pick >> 5) % 4],
        block_codec: CODECS[usize::from(pick >> 3) % 4],
        block_size: (pick & 0x40 != 0).then_some(97),
        ..ArchiveLayout::new(version)
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let bytes = if mode & 1 == 1 {
        rest.to_vec()
    } else {
        let Some((&pick, rest)) = rest.split_first() else {
            return;
        };
        let (edits, payload) = rest.split_at(rest.len().min(8));
        let half = payload.len() / 2;
        let mut archive = write_archive(
            &[
                ArchiveEntry { path: "CAB-f", data: &payload[..half], flags: 4 },
                ArchiveEntry { path: "CAB-f.resS", data: &payload[half..], flags: 0 },
            ],
            &layout(pick),
        );
        for pair in edits.chunks(2) {
            if let ([at, value], false) = (pair, archive.is_empty()) {
                let at = usize::from(*at) * 7 % archive.len();
                archive[at] ^= value;
            }
        }
        archive
    };
    if let Ok(opened) = container::open(bytes) {
        let total: usize = opened.files.iter().chain(&opened.resources).map(|f| f.bytes.len()).sum();
        std::hint::black_box(total);
    }
});
