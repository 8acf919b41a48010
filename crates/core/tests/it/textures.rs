//! Textures, materials and sprites: the shared files' (sizes and mip chains against the
//! stored byte counts, material slots against the textures they name) and fixtures written
//! against real type trees (every uncompressed format with known pixels, hand-made DXT1/DXT5
//! blocks, data in a `.resS`, undecodable formats).

use crate::common;
use crate::unity_writer;

use clipscope_core::material;
use clipscope_core::mesh::renderer;
use clipscope_core::resource::{MemoryStreams, NoStreams, ResourceError};
use clipscope_core::serialized::SerializedFile;
use clipscope_core::texture::{self, RgbaImage, TextureData, TextureError};
use clipscope_core::unity::class;
use serde_json::{Value, json};
use unity_writer::{Object, serialized_file};

fn textures(file: &SerializedFile) -> Vec<(i64, TextureData)> {
    file.objects
        .iter()
        .filter(|o| o.class_id == class::TEXTURE_2D)
        .map(|o| {
            (
                o.path_id,
                texture::read(file, o, &NoStreams).expect("the texture reads"),
            )
        })
        .collect()
}

fn materials(file: &SerializedFile) -> Vec<material::MaterialData> {
    file.objects
        .iter()
        .filter(|o| o.class_id == class::MATERIAL)
        .map(|o| material::read(file, o).expect("the material reads"))
        .collect()
}

#[test]
fn web_player_textures_hold_exactly_their_mip_chains_and_decode() {
    let Some(files) = common::serialized_files("binary/duckhunted/WebPlayer.unity3d") else {
        return;
    };
    let all = textures(&files[0]);
    assert_eq!(all.len(), 10);
    let mut formats: Vec<i32> = all.iter().map(|(_, t)| t.format).collect();
    formats.sort();
    formats.dedup();
    assert_eq!(formats, [2, 3, 7, 10, 12]);
    for (_, t) in &all {
        // The blob is the whole chain down to 1×1: it checks each format's block size.
        let held = t.data.as_ref().unwrap().len();
        assert_eq!(
            t.chain_size(),
            Some(held),
            "{} ({})",
            t.name,
            t.format_name()
        );
        let image = t
            .decode_rgba()
            .unwrap_or_else(|e| panic!("{}: {e}", t.name));
        assert_eq!(image.pixels.len(), (t.width * t.height * 4) as usize);
        assert!(t.is_srgb());
        if matches!(t.format, 3 | 7 | 10) {
            assert!(
                image.pixels.chunks(4).all(|p| p[3] == 255),
                "{} is opaque",
                t.name
            );
        }
    }
    let diffuse = all.iter().find(|(_, t)| t.name == "diffuse").unwrap();
    assert_eq!(
        (diffuse.1.width, diffuse.1.height, diffuse.1.mip_count),
        (64, 1024, 11)
    );
}

#[test]
fn web_player_materials_name_their_textures() {
    let Some(files) = common::serialized_files("binary/duckhunted/WebPlayer.unity3d") else {
        return;
    };
    let shared = &files[0];
    let names: std::collections::HashMap<i64, String> = textures(shared)
        .into_iter()
        .map(|(id, t)| (id, t.name))
        .collect();
    let all = materials(shared);
    assert_eq!(all.len(), 6);
    for m in &all {
        let slot = m
            .main_texture
            .as_ref()
            .expect("every material here has a _MainTex");
        assert_eq!(slot.property, "_MainTex");
        assert_eq!(slot.texture.file_id(), 0);
        assert!(names.contains_key(&slot.texture.path_id()), "{}", m.name);
    }
    let rifle = all.iter().find(|m| m.name == "rifle").unwrap();
    assert_eq!(
        names[&rifle.main_texture.as_ref().unwrap().texture.path_id()],
        "rifle"
    );
    let grass = all.iter().find(|m| m.name == "grass").unwrap();
    let slot = grass.main_texture.as_ref().unwrap();
    assert_eq!(
        (names[&slot.texture.path_id()].as_str(), slot.scale),
        ("grass", [100.0, 100.0])
    );
    assert_eq!(rifle.color, Some([0.8, 0.8, 0.8, 1.0]));
}

#[test]
fn reset_animator_floor_is_a_tiled_dxt1_texture() {
    let Some(files) = common::serialized_files("binary/resetanimator/WebPlayer.unity3d") else {
        return;
    };
    let [(id, floor)] = textures(&files[0]).try_into().unwrap();
    assert_eq!(
        (floor.width, floor.height, floor.format, floor.mip_count),
        (16, 16, 10, 5)
    );
    assert_eq!(floor.chain_size(), Some(184));
    assert!(floor.decode_rgba().is_ok());
    let m = materials(&files[0]);
    let tiled = m.iter().find(|m| m.name == "floor").unwrap();
    let slot = tiled.main_texture.as_ref().unwrap();
    assert_eq!((slot.texture.path_id(), slot.scale), (id, [12.0, 12.0]));
    let plain = m.iter().find(|m| m.name == "Default-Diffuse").unwrap();
    assert_eq!(
        (plain.main_texture.as_ref(), plain.color),
        (None, Some([1.0, 1.0, 1.0, 0.5]))
    );
}

#[test]
fn player_texture_in_a_missing_ress_keeps_its_facts_and_fails_to_decode() {
    let Some(files) = common::serialized_files("binary/day65platformer2d/sharedassets0.assets")
    else {
        return;
    };
    let file = &files[0];
    let info = file
        .objects
        .iter()
        .find(|o| o.class_id == class::TEXTURE_2D)
        .unwrap();
    let sheet = texture::read(file, info, &MemoryStreams::new()).unwrap();
    assert_eq!(
        (sheet.width, sheet.height, sheet.format_name()),
        (224, 16, "DXT5")
    );
    assert!(matches!(
        &sheet.data,
        Err(ResourceError::NotFound { name, .. }) if name == "sharedassets0.assets.resS"
    ));
    assert!(matches!(sheet.decode_rgba(), Err(TextureError::Stream(_))));
    // Its eight sprites are 16-pixel cells of the sheet.
    let sprites: Vec<_> = file
        .objects
        .iter()
        .filter(|o| o.class_id == class::SPRITE)
        .map(|o| renderer::read_sprite(file, o).unwrap())
        .collect();
    assert_eq!(sprites.len(), 8);
    for s in &sprites {
        assert_eq!(s.texture.path_id(), info.path_id);
        let [x, y, w, h] = s.texture_rect;
        assert_eq!(
            (x % 16.0, y, w, h, s.pixels_to_units),
            (0.0, 0.0, 16.0, 16.0, 16.0)
        );
        assert_eq!(s.pivot, [0.5, 0.5]);
    }
}

#[test]
fn skinned_characters_materials_have_colours_but_no_known_texture() {
    let Some(copy) = common::serialized_files("binary/lessscarymannequins/copy.bundle") else {
        return;
    };
    for m in materials(&copy[0]) {
        assert_eq!(m.main_texture, None, "{}", m.name);
        assert!(m.color.is_some(), "{}", m.name);
    }
    let Some(morbman) = common::serialized_files("binary/wetboys_plateupemotesapi/morbman") else {
        return;
    };
    let [player] = materials(&morbman[0]).try_into().unwrap();
    assert_eq!(
        (player.name.as_str(), player.main_texture, player.color),
        ("Player", None, None)
    );
}

// ---- fixtures ----

const TEXTURE: i32 = 28;

/// A Texture2D value for `version`'s tree.
fn texture_value(format: i32, width: u32, height: u32, data: Vec<u8>) -> Value {
    json!({
        "m_Name": format!("format{format}"),
        "m_Width": width, "m_Height": height, "m_CompleteImageSize": data.len(),
        "m_TextureFormat": format, "m_MipCount": 1, "m_MipMap": false, "m_ImageCount": 1,
        "m_TextureDimension": 2, "m_ColorSpace": 1,
        "image data": data,
        "m_StreamData": {"offset": 0, "size": 0, "path": ""},
    })
}

fn read_fixture(version: &str, value: Value, streams: &MemoryStreams) -> TextureData {
    let bytes = serialized_file(
        version,
        &[Object {
            class_id: TEXTURE,
            path_id: 3,
            value,
        }],
    );
    let file = SerializedFile::parse(bytes, None).unwrap();
    texture::read(&file, file.object(3).unwrap(), streams).unwrap()
}

/// A 2×2 image, top row first, whose channels are all 0 or 255 (exact in every format).
const IMAGE: [[u8; 4]; 4] = [
    [255, 0, 0, 255],
    [0, 255, 0, 0],
    [0, 0, 255, 255],
    [255, 255, 255, 0],
];

/// Which channels a format keeps.
#[derive(Clone, Copy)]
enum Kept {
    Alpha,
    R,
    Rg,
    Rgb,
    Rgba,
}

/// How each uncompressed format stores a pixel whose channels are 0 or 255.
fn encode(format: i32, p: [u8; 4]) -> (Kept, Vec<u8>) {
    let [r, g, b, a] = p;
    let bit = |c: u8| u16::from(c == 255);
    let u16s = |cs: &[u8]| -> Vec<u8> {
        cs.iter()
            .flat_map(|&c| (c as u16 * 257).to_le_bytes())
            .collect()
    };
    let halves = |cs: &[u8]| -> Vec<u8> {
        cs.iter()
            .flat_map(|&c| half::f16::from_f32(c as f32 / 255.0).to_le_bytes())
            .collect()
    };
    let floats = |cs: &[u8]| -> Vec<u8> {
        cs.iter()
            .flat_map(|&c| (c as f32 / 255.0).to_le_bytes())
            .collect()
    };
    let s8 = |cs: &[u8]| -> Vec<u8> {
        cs.iter()
            .map(|&c| if c == 255 { 0x7F } else { 0x80 })
            .collect()
    };
    let s16 = |cs: &[u8]| -> Vec<u8> {
        cs.iter()
            .flat_map(|&c| if c == 255 { i16::MAX } else { i16::MIN }.to_le_bytes())
            .collect()
    };
    use Kept::*;
    match format {
        1 => (Alpha, vec![a]),
        2 => (
            Rgba,
            (bit(a) * 0xF000 + bit(r) * 0x0F00 + bit(g) * 0x00F0 + bit(b) * 0x000F)
                .to_le_bytes()
                .to_vec(),
        ),
        3 => (Rgb, vec![r, g, b]),
        4 => (Rgba, vec![r, g, b, a]),
        5 => (Rgba, vec![a, r, g, b]),
        7 => (
            Rgb,
            (bit(r) * 0xF800 + bit(g) * 0x07E0 + bit(b) * 0x001F)
                .to_le_bytes()
                .to_vec(),
        ),
        9 => (R, u16s(&[r])),
        13 => (
            Rgba,
            (bit(r) * 0xF000 + bit(g) * 0x0F00 + bit(b) * 0x00F0 + bit(a) * 0x000F)
                .to_le_bytes()
                .to_vec(),
        ),
        14 => (Rgba, vec![b, g, r, a]),
        15 => (R, halves(&[r])),
        16 => (Rg, halves(&[r, g])),
        17 => (Rgba, halves(&[r, g, b, a])),
        18 => (R, floats(&[r])),
        19 => (Rg, floats(&[r, g])),
        20 => (Rgba, floats(&[r, g, b, a])),
        22 => {
            // Mantissa 256 at exponent 16 is 1.0.
            let m = |c: u8| u32::from(c == 255) * 256;
            (
                Rgb,
                (m(r) | m(g) << 9 | m(b) << 18 | 16 << 27)
                    .to_le_bytes()
                    .to_vec(),
            )
        }
        62 => (Rg, vec![r, g]),
        63 => (R, vec![r]),
        72 => (Rg, u16s(&[r, g])),
        73 => (Rgb, u16s(&[r, g, b])),
        74 => (Rgba, u16s(&[r, g, b, a])),
        75 => (R, s8(&[r])),
        76 => (Rg, s8(&[r, g])),
        77 => (Rgb, s8(&[r, g, b])),
        78 => (Rgba, s8(&[r, g, b, a])),
        79 => (R, s16(&[r])),
        80 => (Rg, s16(&[r, g])),
        81 => (Rgb, s16(&[r, g, b])),
        82 => (Rgba, s16(&[r, g, b, a])),
        other => panic!("not an uncompressed format: {other}"),
    }
}

fn expected(kept: Kept, [r, g, b, a]: [u8; 4]) -> [u8; 4] {
    match kept {
        Kept::Alpha => [255, 255, 255, a],
        Kept::R => [r, 0, 0, 255],
        Kept::Rg => [r, g, 0, 255],
        Kept::Rgb => [r, g, b, 255],
        Kept::Rgba => [r, g, b, a],
    }
}

const UNCOMPRESSED: [i32; 29] = [
    1, 2, 3, 4, 5, 7, 9, 13, 14, 15, 16, 17, 18, 19, 20, 22, 62, 63, 72, 73, 74, 75, 76, 77, 78,
    79, 80, 81, 82,
];

#[test]
fn every_uncompressed_format_decodes_its_known_pixels_top_row_first() {
    for format in UNCOMPRESSED {
        // Stored bottom row first: pixels 2, 3 then 0, 1.
        let mut data = Vec::new();
        let mut kept = Kept::Rgba;
        for p in [IMAGE[2], IMAGE[3], IMAGE[0], IMAGE[1]] {
            let (k, bytes) = encode(format, p);
            kept = k;
            data.extend(bytes);
        }
        let t = read_fixture(
            "2020.3.34f1",
            texture_value(format, 2, 2, data),
            &MemoryStreams::new(),
        );
        assert_eq!((t.width, t.height, t.format), (2, 2, format));
        let image = t
            .decode_rgba()
            .unwrap_or_else(|e| panic!("format {format}: {e}"));
        let want: Vec<u8> = IMAGE.iter().flat_map(|&p| expected(kept, p)).collect();
        assert_eq!(image.pixels, want, "format {format} ({})", t.format_name());
    }
}

fn dxt1_block() -> Vec<u8> {
    // Endpoints red and blue; texel 0 (the bottom-left, stored first) blue, the rest red.
    let mut block = [0xF800u16, 0x001F].map(u16::to_le_bytes).concat();
    block.extend(1u32.to_le_bytes());
    block
}

#[test]
fn hand_made_dxt_blocks_decode_to_their_colours() {
    let t = read_fixture(
        "2022.3.29f1",
        texture_value(10, 4, 4, dxt1_block()),
        &MemoryStreams::new(),
    );
    let image = t.decode_rgba().unwrap();
    assert_eq!(image.pixel(0, 3), Some([0, 0, 255, 255]));
    assert_eq!(image.pixel(0, 0), Some([255, 0, 0, 255]));
    assert_eq!(image.pixel(3, 3), Some([255, 0, 0, 255]));

    // DXT5: alpha endpoints 255 / 0, texel 5 (row 1, column 1) opaque, the rest transparent;
    // colour endpoints green / black with every texel green.
    let indices: u64 = (0..16u64).map(|i| u64::from(i != 5) << (3 * i)).sum();
    let mut block = vec![255, 0];
    block.extend(&indices.to_le_bytes()[..6]);
    block.extend([0x07E0u16, 0].map(u16::to_le_bytes).concat());
    block.extend([0; 4]);
    let t = read_fixture(
        "2022.3.29f1",
        texture_value(12, 4, 4, block),
        &MemoryStreams::new(),
    );
    let image = t.decode_rgba().unwrap();
    for y in 0..4 {
        for x in 0..4 {
            let alpha = if (x, y) == (1, 2) { 255 } else { 0 };
            assert_eq!(image.pixel(x, y), Some([0, 255, 0, alpha]), "({x}, {y})");
        }
    }
}

#[test]
fn crunched_garbage_and_unknown_formats_are_errors() {
    let garbage: Vec<u8> = (0..64u8).collect();
    for (format, version) in [(28, "2019.4.0f1"), (29, "5.6.0f1"), (64, "2020.3.34f1")] {
        let t = read_fixture(
            version,
            texture_value(format, 8, 8, garbage.clone()),
            &MemoryStreams::new(),
        );
        let result = t.decode_rgba();
        assert!(
            matches!(result, Err(TextureError::Decode { .. })),
            "{format}: {result:?}"
        );
    }
    let t = read_fixture(
        "2020.3.34f1",
        texture_value(21, 2, 2, vec![0; 8]),
        &MemoryStreams::new(),
    );
    assert!(matches!(
        t.decode_rgba(),
        Err(TextureError::Unsupported {
            format: 21,
            name: "YUY2"
        })
    ));
}

#[test]
fn streamed_image_data_is_read_from_the_ress_next_to_the_file() {
    let pixels: Vec<u8> = [IMAGE[2], IMAGE[3], IMAGE[0], IMAGE[1]].concat();
    for version in ["2018.4.0f1", "2020.3.34f1", "6000.0.58f2"] {
        let mut value = texture_value(4, 2, 2, Vec::new());
        value["m_StreamData"] =
            json!({"offset": 4, "size": 16, "path": "sharedassets0.assets.resS"});
        let mut blob = vec![0xEE; 4];
        blob.extend(&pixels);
        blob.extend([0xEE; 8]);
        let streams = MemoryStreams::from_entries([("sharedassets0.assets.resS", blob)]);
        let image: RgbaImage = read_fixture(version, value.clone(), &streams)
            .decode_rgba()
            .unwrap();
        assert_eq!(image.pixels, IMAGE.concat(), "{version}");
        let missing = read_fixture(version, value, &MemoryStreams::new());
        assert!(
            matches!(missing.decode_rgba(), Err(TextureError::Stream(_))),
            "{version}"
        );
    }
}

#[test]
fn odd_sized_inline_data_and_old_mip_flags_read_correctly() {
    // 3 bytes of image data, then m_StreamData after the alignment padding.
    let t = read_fixture(
        "2020.3.34f1",
        texture_value(3, 1, 1, vec![10, 20, 30]),
        &MemoryStreams::new(),
    );
    assert_eq!(t.decode_rgba().unwrap().pixels, [10, 20, 30, 255]);
    // Unity 3.5 and 4.x store a mip flag instead of a count: 8×4 has 4 levels.
    let mut value = texture_value(4, 8, 4, vec![7; (8 * 4 + 4 * 2 + 2 + 1) * 4]);
    value["m_MipMap"] = json!(true);
    for version in ["3.5.0f1", "4.6.1f1"] {
        let t = read_fixture(version, value.clone(), &MemoryStreams::new());
        assert_eq!(
            (t.mip_count, t.chain_size()),
            (4, Some(43 * 4)),
            "{version}"
        );
        assert_eq!(t.decode_rgba().unwrap().pixels, vec![7; 8 * 4 * 4]);
    }
}

#[test]
fn material_slots_read_under_both_key_layouts() {
    // 5.5 keys properties by FastPropertyName { name }, 5.6 and later by plain strings.
    let tex = |id: i64| json!({"m_Texture": {"m_FileID": 0, "m_PathID": id}, "m_Scale": {"x": 2.0, "y": 2.0}, "m_Offset": {"x": 0.5, "y": 0.0}});
    for (version, key) in [
        ("5.5.0f1", true),
        ("2022.3.29f1", false),
        ("6000.0.58f2", false),
    ] {
        let name = |n: &str| if key { json!({"name": n}) } else { json!(n) };
        let value = json!({
            "m_Name": "M",
            "m_SavedProperties": {
                "m_TexEnvs": [[name("_BumpMap"), tex(4)], [name("_BaseMap"), tex(9)]],
                "m_Floats": [[name("_Cutoff"), 0.5]],
                "m_Colors": [[name("_BaseColor"), {"r": 0.25, "g": 0.5, "b": 1.0, "a": 1.0}]],
            },
        });
        let bytes = serialized_file(
            version,
            &[Object {
                class_id: 21,
                path_id: 2,
                value,
            }],
        );
        let file = SerializedFile::parse(bytes, None).unwrap();
        let m = material::read(&file, file.object(2).unwrap()).unwrap();
        let slot = m
            .main_texture
            .unwrap_or_else(|| panic!("{version}: no main texture"));
        assert_eq!(
            (slot.property.as_str(), slot.texture.path_id()),
            ("_BaseMap", 9),
            "{version}"
        );
        assert_eq!(
            (slot.scale, slot.offset),
            ([2.0, 2.0], [0.5, 0.0]),
            "{version}"
        );
        assert_eq!(m.color, Some([0.25, 0.5, 1.0, 1.0]), "{version}");
    }
}

#[test]
fn material_alpha_reads_keywords_in_each_layout_and_the_render_queue() {
    // Keywords: a list up to 5.0, one space-separated string from 5.1, m_ValidKeywords from
    // 2022.1. Each fixture names a cut-out and a transparent keyword set.
    let read = |version: &str, value: Value| {
        let bytes = serialized_file(
            version,
            &[Object {
                class_id: 21,
                path_id: 2,
                value,
            }],
        );
        let file = SerializedFile::parse(bytes, None).unwrap();
        material::read(&file, file.object(2).unwrap())
            .unwrap()
            .alpha
    };
    let name = |version: &str, n: &str| {
        if version.starts_with('4') {
            json!({"name": n})
        } else {
            json!(n)
        }
    };
    let cutoff = |version: &str| json!({"m_Floats": [[name(version, "_Cutoff"), 0.25]]});
    let mask = material::AlphaMode::Mask { cutoff: 0.25 };
    for (version, field, cut, blend) in [
        (
            "4.6.1f1",
            "m_ShaderKeywords",
            json!(["_ALPHATEST_ON"]),
            json!(["_NORMALMAP", "_ALPHABLEND_ON"]),
        ),
        (
            "2020.3.34f1",
            "m_ShaderKeywords",
            json!("_NORMALMAP _ALPHATEST_ON"),
            json!("_ALPHAPREMULTIPLY_ON"),
        ),
        (
            "2022.3.29f1",
            "m_ValidKeywords",
            json!(["_ALPHATEST_ON"]),
            json!(["_SURFACE_TYPE_TRANSPARENT"]),
        ),
    ] {
        let base =
            json!({"m_Name": "M", "m_CustomRenderQueue": -1, "m_SavedProperties": cutoff(version)});
        let mut v = base.clone();
        v[field] = cut;
        assert_eq!(read(version, v), mask, "{version}");
        let mut v = base.clone();
        v[field] = blend;
        assert_eq!(read(version, v), material::AlphaMode::Blend, "{version}");
        assert_eq!(
            read(version, base.clone()),
            material::AlphaMode::Opaque,
            "{version}"
        );
        // Without keywords, a custom queue in the transparent range.
        let mut v = base;
        v["m_CustomRenderQueue"] = json!(3000);
        assert_eq!(read(version, v), material::AlphaMode::Blend, "{version}");
    }
    // The shared files' materials say opaque (queue -1 or none, `_Mode` 0, no alpha keyword).
    for rel in [
        "binary/lessscarymannequins/copy.bundle",
        "binary/wetboys_plateupemotesapi/morbman",
        "binary/duckhunted/WebPlayer.unity3d",
    ] {
        let Some(files) = common::serialized_files(rel) else {
            return;
        };
        for m in materials(&files[0]) {
            assert_eq!(m.alpha, material::AlphaMode::Opaque, "{rel} {}", m.name);
        }
    }
}
