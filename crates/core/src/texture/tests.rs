//! Decoding known pixels of every uncompressed format, hand-made DXT1/DXT5/BC4 blocks, the
//! row order, and the errors for undecodable data.

use super::*;

fn texture(format: i32, width: u32, height: u32, data: Vec<u8>) -> TextureData {
    TextureData {
        name: "t".into(),
        width,
        height,
        format,
        mip_count: 1,
        color_space: 1,
        data: Ok(data),
        version: (2022, 3),
    }
}

fn u16s(values: &[u16]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn halves(values: &[f32]) -> Vec<u8> {
    values
        .iter()
        .flat_map(|&v| half::f16::from_f32(v).to_le_bytes())
        .collect()
}

fn floats(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// Two pixels of each uncompressed format and the RGBA8 they must give.
fn uncompressed_cases() -> Vec<(i32, Vec<u8>, [[u8; 4]; 2])> {
    let rgb9e5 = |r: u32, g: u32, b: u32, e: u32| (r | g << 9 | b << 18 | e << 27).to_le_bytes();
    vec![
        (1, vec![0x80, 0xFF], [[255, 255, 255, 128], [255; 4]]),
        (
            2,
            u16s(&[0xF840, 0x0123]),
            [[0x88, 0x44, 0x00, 0xFF], [17, 34, 51, 0]],
        ),
        (3, vec![1, 2, 3, 4, 5, 6], [[1, 2, 3, 255], [4, 5, 6, 255]]),
        (
            4,
            vec![1, 2, 3, 4, 5, 6, 7, 8],
            [[1, 2, 3, 4], [5, 6, 7, 8]],
        ),
        (
            5,
            vec![4, 1, 2, 3, 8, 5, 6, 7],
            [[1, 2, 3, 4], [5, 6, 7, 8]],
        ),
        (
            7,
            u16s(&[0xF800, 0x8410]),
            [[255, 0, 0, 255], [132, 130, 132, 255]],
        ),
        (
            9,
            u16s(&[0xFFFF, 0x8080]),
            [[255, 0, 0, 255], [128, 0, 0, 255]],
        ),
        (
            13,
            u16s(&[0x1234, 0xF00F]),
            [[17, 34, 51, 68], [255, 0, 0, 255]],
        ),
        (
            14,
            vec![3, 2, 1, 4, 7, 6, 5, 8],
            [[1, 2, 3, 4], [5, 6, 7, 8]],
        ),
        (
            15,
            halves(&[0.5, 2.0]),
            [[128, 0, 0, 255], [255, 0, 0, 255]],
        ),
        (
            16,
            halves(&[1.0, 0.0, -1.0, 0.25]),
            [[255, 0, 0, 255], [0, 64, 0, 255]],
        ),
        (
            17,
            halves(&[0.0, 0.5, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0]),
            [[0, 128, 255, 255], [255, 255, 255, 0]],
        ),
        (18, floats(&[-1.0, 0.25]), [[0, 0, 0, 255], [64, 0, 0, 255]]),
        (
            19,
            floats(&[1.0, 0.5, f32::NAN, 3.0]),
            [[255, 128, 0, 255], [0, 255, 0, 255]],
        ),
        (
            20,
            floats(&[0.0, 0.5, 1.0, 0.25, 1.0, 1.0, 1.0, 1.0]),
            [[0, 128, 255, 64], [255; 4]],
        ),
        (
            22,
            [rgb9e5(256, 0, 128, 16), rgb9e5(0, 64, 0, 16)].concat(),
            [[255, 0, 128, 255], [0, 64, 0, 255]],
        ),
        (
            62,
            vec![10, 20, 30, 40],
            [[10, 20, 0, 255], [30, 40, 0, 255]],
        ),
        (63, vec![7, 200], [[7, 0, 0, 255], [200, 0, 0, 255]]),
        (
            72,
            u16s(&[0xFFFF, 0, 0x0101, 0x8080]),
            [[255, 0, 0, 255], [1, 128, 0, 255]],
        ),
        (
            73,
            u16s(&[0xFFFF, 0, 0x0101, 0, 0, 0]),
            [[255, 0, 1, 255], [0, 0, 0, 255]],
        ),
        (
            74,
            u16s(&[0xFFFF, 0, 0x0101, 0x8080, 0, 0, 0, 0]),
            [[255, 0, 1, 128], [0, 0, 0, 0]],
        ),
        (75, vec![0x80, 0x7F], [[0, 0, 0, 255], [255, 0, 0, 255]]),
        (
            76,
            vec![0x00, 0x80, 0x7F, 0x00],
            [[128, 0, 0, 255], [255, 128, 0, 255]],
        ),
        (
            77,
            vec![0x80, 0, 0x7F, 0x7F, 0x7F, 0x80],
            [[0, 128, 255, 255], [255, 255, 0, 255]],
        ),
        (
            78,
            vec![0x80, 0, 0x7F, 0x7F, 0, 0, 0, 0x80],
            [[0, 128, 255, 255], [128, 128, 128, 0]],
        ),
        (
            79,
            u16s(&[0x8000, 0x7FFF]),
            [[0, 0, 0, 255], [255, 0, 0, 255]],
        ),
        (
            80,
            u16s(&[0x8000, 0x7FFF, 0, 0]),
            [[0, 255, 0, 255], [128, 128, 0, 255]],
        ),
        (
            81,
            u16s(&[0x8000, 0x7FFF, 0, 0, 0, 0]),
            [[0, 255, 128, 255], [128, 128, 128, 255]],
        ),
        (
            82,
            u16s(&[0x8000, 0x7FFF, 0, 0x7FFF, 0, 0, 0, 0x8000]),
            [[0, 255, 128, 255], [128, 128, 128, 0]],
        ),
    ]
}

#[test]
fn every_uncompressed_format_gives_its_known_pixels() {
    for (format, data, expected) in uncompressed_cases() {
        let image = texture(format, 2, 1, data).decode_rgba();
        let image = image.unwrap_or_else(|e| panic!("format {format}: {e}"));
        assert_eq!(
            image.pixels,
            expected.concat(),
            "format {format} ({})",
            format_name(format)
        );
    }
}

#[test]
fn rows_come_out_top_first() {
    // Unity stores the bottom row first: red, green are the bottom row.
    let data = vec![255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 9, 9, 9, 255];
    let image = texture(4, 2, 2, data).decode_rgba().unwrap();
    assert_eq!(image.pixel(0, 0), Some([0, 0, 255, 255]));
    assert_eq!(image.pixel(1, 0), Some([9, 9, 9, 255]));
    assert_eq!(image.pixel(0, 1), Some([255, 0, 0, 255]));
    assert_eq!(image.pixel(2, 0), None);
}

/// A DXT1 block: red and blue endpoints, every texel red except texel 0 (bottom-left) blue.
fn dxt1_block() -> Vec<u8> {
    let mut block = u16s(&[0xF800, 0x001F]);
    block.extend(1u32.to_le_bytes());
    block
}

#[test]
fn dxt1_blocks_decode_to_their_endpoint_colours() {
    let image = texture(10, 4, 4, dxt1_block()).decode_rgba().unwrap();
    for y in 0..4 {
        for x in 0..4 {
            let expected = if (x, y) == (0, 3) {
                [0, 0, 255, 255]
            } else {
                [255, 0, 0, 255]
            };
            assert_eq!(image.pixel(x, y), Some(expected), "({x}, {y})");
        }
    }
}

#[test]
fn dxt5_blocks_carry_interpolated_alpha() {
    // Alpha endpoints 255 and 0; every texel takes index 1 (0) except texel 5 (index 0, 255)
    // and texel 15 (index 2: (6·255 + 1·0) / 7 = 218.57).
    let indices: u64 = (0..16u64)
        .map(|i| {
            let index = match i {
                5 => 0,
                15 => 2,
                _ => 1,
            };
            index << (3 * i)
        })
        .sum();
    let mut block = vec![255, 0];
    block.extend(&indices.to_le_bytes()[..6]);
    block.extend(u16s(&[0x07E0, 0x0000]));
    block.extend(0u32.to_le_bytes());
    let image = texture(12, 4, 4, block).decode_rgba().unwrap();
    assert_eq!(image.pixel(1, 2), Some([0, 255, 0, 255]));
    assert_eq!(image.pixel(0, 3), Some([0, 255, 0, 0]));
    let corner = image.pixel(3, 0).unwrap()[3];
    assert!((218..=219).contains(&corner), "{corner}");
}

#[test]
fn partial_edge_blocks_decode_for_sizes_off_the_block_grid() {
    // 6×2 needs two DXT1 blocks across and one down.
    let data = [dxt1_block(), dxt1_block()].concat();
    let image = texture(10, 6, 2, data).decode_rgba().unwrap();
    assert_eq!(image.pixels.len(), 6 * 2 * 4);
    assert_eq!(image.pixel(4, 1), Some([0, 0, 255, 255]));
    assert_eq!(image.pixel(5, 1), Some([255, 0, 0, 255]));
}

#[test]
fn short_unsupported_and_corrupt_data_are_errors() {
    let short = texture(10, 8, 8, dxt1_block()).decode_rgba();
    assert!(
        matches!(short, Err(TextureError::ShortData { needed: 32, .. })),
        "{short:?}"
    );
    let short = texture(4, 2, 2, vec![0; 15]).decode_rgba();
    assert!(
        matches!(short, Err(TextureError::ShortData { .. })),
        "{short:?}"
    );
    for format in [6, 21, 23, 99, -1] {
        let result = texture(format, 4, 4, vec![0; 4096]).decode_rgba();
        assert!(
            matches!(result, Err(TextureError::Unsupported { .. })),
            "{format}: {result:?}"
        );
    }
    for format in [28, 29, 64, 65] {
        let garbage: Vec<u8> = (0..200u32).map(|i| (i * 37 % 251) as u8).collect();
        let result = texture(format, 16, 16, garbage).decode_rgba();
        assert!(
            matches!(result, Err(TextureError::Decode { .. })),
            "{format}: {result:?}"
        );
    }
    let missing = TextureData {
        data: Err(crate::resource::ResourceError::Unavailable {
            path: "x.resS".into(),
        }),
        ..texture(4, 1, 1, Vec::new())
    };
    assert!(matches!(
        missing.decode_rgba(),
        Err(TextureError::Stream(_))
    ));
}

#[test]
fn sizes_outside_one_to_16384_are_refused_before_allocating() {
    assert!(matches!(
        checked_size(0, 4),
        Err(TextureError::BadSize { .. })
    ));
    assert!(matches!(
        checked_size(16385, 4),
        Err(TextureError::BadSize { .. })
    ));
    assert!(matches!(
        checked_size(4, -1),
        Err(TextureError::BadSize { .. })
    ));
    assert_eq!(checked_size(16384, 1).unwrap(), (16384, 1));
    let huge = texture(4, 20000, 20000, vec![0; 16]).decode_rgba();
    assert!(matches!(huge, Err(TextureError::BadSize { .. })));
}

#[test]
fn png_output_reads_back_as_the_same_pixels() {
    let image = texture(3, 2, 1, vec![1, 2, 3, 4, 5, 6])
        .decode_rgba()
        .unwrap();
    let mut bytes = Vec::new();
    image.write_png(&mut bytes).unwrap();
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (2, 1));
    assert_eq!(&buf[..info.buffer_size()], image.pixels.as_slice());
}

#[test]
fn crunch_headers_must_name_the_textures_size() {
    let mut header = vec![0u8; 64];
    header[..2].copy_from_slice(b"Hx");
    header[12..14].copy_from_slice(&64u16.to_be_bytes());
    header[14..16].copy_from_slice(&32u16.to_be_bytes());
    let wrong = texture(29, 16, 16, header.clone()).decode_rgba();
    assert!(
        matches!(&wrong, Err(TextureError::Decode { detail, .. }) if detail.contains("64×32")),
        "{wrong:?}"
    );
    // The right size passes the check and reaches the decoder, which rejects the empty body.
    let body = texture(29, 64, 32, header).decode_rgba();
    assert!(
        matches!(&body, Err(TextureError::Decode { detail, .. }) if !detail.contains("64×32")),
        "{body:?}"
    );
}

mod damaged {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1024))]

        #[test]
        fn any_format_size_and_data_decode_or_fail_without_panicking(
            format in 0i32..90,
            width in 1u32..40,
            height in 1u32..40,
            data in proptest::collection::vec(any::<u8>(), 0..8192),
        ) {
            let t = texture(format, width, height, data);
            if let Ok(image) = t.decode_rgba() {
                prop_assert_eq!(image.pixels.len(), (width * height * 4) as usize);
            }
        }
    }
}

#[test]
fn a_texture_of_size_zero_keeps_its_facts_and_says_it_has_no_pixels() {
    use crate::unity::Int;
    use crate::unity::texture::Texture2D;
    let atlas = Texture2D {
        m_Name: "Font Texture".into(),
        m_TextureFormat: Int(1),
        ..Texture2D::default()
    };
    let err = from_unity(atlas, (2020, 3), &crate::resource::NoStreams).unwrap_err();
    match &err {
        TextureError::NoPixels {
            name,
            format,
            width,
            height,
        } => assert_eq!(
            (name.as_str(), *format, *width, *height),
            ("Font Texture", 1, 0, 0)
        ),
        other => panic!("{other:?}"),
    }
    assert!(err.to_string().contains("no pixels"), "{err}");
    // One side of 0 is empty too; a negative side is a bad size.
    let strip = Texture2D {
        m_Width: Int(4),
        ..Texture2D::default()
    };
    let err = from_unity(strip, (2020, 3), &crate::resource::NoStreams).unwrap_err();
    assert!(
        matches!(err, TextureError::NoPixels { width: 4, .. }),
        "{err:?}"
    );
    let bad = Texture2D {
        m_Width: Int(-4),
        m_Height: Int(4),
        ..Texture2D::default()
    };
    let err = from_unity(bad, (2020, 3), &crate::resource::NoStreams).unwrap_err();
    assert!(matches!(err, TextureError::BadSize { .. }), "{err:?}");
}
