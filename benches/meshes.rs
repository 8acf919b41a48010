//! Decoding the character (`cargo bench --bench meshes`): every mesh and texture of the
//! shared files that have them, against decompressing the same file's blocks, measured in
//! the same run. Goal: decoding meshes and textures costs no more than the decompression
//! again (ratio at most 1).
//!
//! Needs `../shared/data`.

mod common;

use clipscope_core::container;
use clipscope_core::mesh;
use clipscope_core::resource::MemoryStreams;
use clipscope_core::serialized::SerializedFile;
use clipscope_core::texture;
use clipscope_core::unity::class;
use common::{data, median};

const FILES: [&str; 3] = [
    "binary/wetboys_plateupemotesapi/morbman",
    "binary/lessscarymannequins/copy.bundle",
    "binary/duckhunted/WebPlayer.unity3d",
];

/// Decodes every mesh and texture (mip 0 to RGBA8) of the opened container; returns how many.
fn decode_all(opened: &container::Opened) -> (usize, usize) {
    let streams = MemoryStreams::from_entries(
        opened
            .resources
            .iter()
            .map(|r| (r.name.as_str(), &r.bytes[..])),
    );
    let (mut meshes, mut textures) = (0, 0);
    for inner in &opened.files {
        let file = SerializedFile::parse(inner.bytes.clone(), None).expect("parses");
        for info in &file.objects {
            if info.class_id == class::MESH {
                meshes += usize::from(mesh::read(&file, info, &streams).is_ok());
            } else if info.class_id == class::TEXTURE_2D {
                let t = texture::read(&file, info, &streams).expect("reads");
                textures += usize::from(t.decode_rgba().is_ok());
            }
        }
    }
    (meshes, textures)
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    for rel in FILES {
        let Some(path) = data(rel) else {
            eprintln!("skipping: {rel} is missing");
            continue;
        };
        let bytes = std::fs::read(&path).unwrap();
        let opened = container::open(bytes.clone()).unwrap();
        let (meshes, textures) = decode_all(&opened);
        let (mut ours, mut open) = (Vec::new(), Vec::new());
        for _ in 0..5 {
            open.push(median(5, || {
                std::hint::black_box(container::open(bytes.clone()).unwrap());
            }));
            ours.push(median(5, || {
                std::hint::black_box(decode_all(&opened));
            }));
        }
        ours.sort_unstable();
        open.sort_unstable();
        let (d, o) = (ours[2], open[2]);
        println!(
            "{rel}: {meshes} meshes and {textures} textures decode in {:.2} ms; opening and decompressing the file takes {:.2} ms: ratio {:.2} (goal <= 1)",
            d.as_secs_f64() * 1e3,
            o.as_secs_f64() * 1e3,
            d.as_secs_f64() / o.as_secs_f64()
        );
    }
}
