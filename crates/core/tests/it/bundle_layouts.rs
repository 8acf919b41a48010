//! The real bundles of `../shared/data`, their entries rewritten in every UnityFS layout
//! (`authoring::unityfs`): version 6 with the block table after the header and at the end,
//! version 6 padded as version 7, LZ4 in 128 KiB blocks, version 8 with the padding flag. Each
//! opens to the same clips and rigs as the original.

use crate::common;

use std::path::Path;

use clipscope_authoring::unityfs::{ArchiveEntry, ArchiveLayout, write_archive};
use clipscope_core::container::{self, codec::Codec};
use clipscope_core::{OpenOptions, Workspace};
use common::data;

const BUNDLES: [&str; 4] = [
    "binary/wetboys_plateupemotesapi/customemotespackage",
    "binary/wetboys_plateupemotesapi/moisture_animationreplacements",
    "binary/wetboys_plateupemotesapi/morbman",
    "binary/lessscarymannequins/copy.bundle",
];

fn layouts() -> Vec<ArchiveLayout> {
    let v6 = |revision: &str, table_at_end, v6_aligned| ArchiveLayout {
        revision: revision.into(),
        table_at_end,
        v6_aligned,
        ..ArchiveLayout::new(6)
    };
    vec![
        v6("2019.4.0f1", false, false),
        v6("2019.4.0f1", true, false),
        v6("2019.4.15f1", false, true),
        v6("2019.4.15f1", true, true),
        ArchiveLayout {
            block_codec: Codec::Lz4Hc,
            block_size: Some(128 << 10),
            ..ArchiveLayout::new(7)
        },
        ArchiveLayout {
            revision: "2022.3.29f1".into(),
            padding_flag: true,
            table_codec: Codec::Lzma,
            block_codec: Codec::None,
            ..ArchiveLayout::new(8)
        },
    ]
}

/// What a workspace found, in a form two workspaces can be compared by.
fn summary(ws: &Workspace) -> Vec<String> {
    let mut out: Vec<String> = ws
        .clips
        .iter()
        .map(|c| format!("clip {} {:?}", c.name, c.data.as_ref().ok()))
        .collect();
    out.extend(
        ws.rigs
            .iter()
            .map(|r| format!("rig {} {:?} {:?}", r.name, r.skeleton, r.clips)),
    );
    out.extend(
        ws.controllers
            .iter()
            .map(|c| format!("controller {} {:?}", c.name, c.clips)),
    );
    out
}

#[test]
fn real_bundles_open_the_same_in_every_layout() {
    for rel in BUNDLES {
        let Some(path) = data(rel) else {
            return;
        };
        let bytes = std::fs::read(&path).unwrap();
        let original = Workspace::open_bytes(&path, bytes.clone(), &OpenOptions::default());
        assert!(original.errors.is_empty(), "{rel}: {:?}", original.errors);
        assert!(
            !original.clips.is_empty() || !original.rigs.is_empty(),
            "{rel}"
        );
        let opened = container::open(bytes).unwrap();
        let entries: Vec<ArchiveEntry> = opened
            .files
            .iter()
            .map(|f| ArchiveEntry {
                path: &f.name,
                data: &f.bytes,
                flags: 4,
            })
            .chain(opened.resources.iter().map(|r| ArchiveEntry {
                path: &r.name,
                data: &r.bytes,
                flags: 0,
            }))
            .collect();
        for layout in layouts() {
            let rewritten = write_archive(&entries, &layout);
            let ws = Workspace::open_bytes(Path::new(rel), rewritten, &OpenOptions::default());
            assert!(ws.errors.is_empty(), "{rel} as {layout:?}: {:?}", ws.errors);
            assert_eq!(summary(&ws), summary(&original), "{rel} as {layout:?}");
        }
    }
}
