//! Uncompressed formats, decoded by hand into RGBA8 (rows in stored order). Byte orders and
//! bit layouts as AssetStudio reads them (`mesh.md` §4.3): multi-byte values little-endian;
//! one- and two-channel formats fill red (and green) with blue 0 and alpha opaque, except
//! Alpha8 (white with alpha); floats and halves are clamped to 0–1; signed formats are shifted
//! so that the most negative value is 0.

use half::f16;

use super::{TextureData, TextureError, format_name};

type Pixel = fn(&[u8]) -> [u8; 4];

/// Mip 0 of an uncompressed texture, or `None` for a format this module does not handle.
pub(super) fn decode(t: &TextureData, data: &[u8]) -> Result<Option<Vec<u8>>, TextureError> {
    let Some((bytes_per_pixel, pixel)) = layout(t.format) else {
        return Ok(None);
    };
    let count = t.width as usize * t.height as usize;
    let needed = count * bytes_per_pixel;
    let Some(mip0) = data.get(..needed) else {
        return Err(TextureError::ShortData {
            name: format_name(t.format),
            width: t.width,
            height: t.height,
            needed,
            held: data.len(),
        });
    };
    let mut out = Vec::with_capacity(count * 4);
    for p in mip0.chunks_exact(bytes_per_pixel) {
        out.extend(pixel(p));
    }
    Ok(Some(out))
}

/// Bytes per pixel of an uncompressed format.
pub(super) fn bytes_per_pixel(format: i32) -> Option<usize> {
    layout(format).map(|(bytes, _)| bytes)
}

fn u16_at(p: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([p[2 * i], p[2 * i + 1]])
}

fn f32_at(p: &[u8], i: usize) -> f32 {
    f32::from_le_bytes([p[4 * i], p[4 * i + 1], p[4 * i + 2], p[4 * i + 3]])
}

fn half_at(p: &[u8], i: usize) -> f32 {
    f16::from_bits(u16_at(p, i)).to_f32()
}

/// 0–1 → 0–255, clamped; NaN is 0.
fn unit(v: f32) -> u8 {
    if v.is_nan() {
        0
    } else {
        (v.clamp(0.0, 1.0) * 255.0).round() as u8
    }
}

/// 16 bits → 8 bits, rounding (`x × 257` maps back to `x`).
fn wide(v: u16) -> u8 {
    ((v as u32 + 128) / 257) as u8
}

/// A 4-bit value scaled to 8 bits.
fn nibble(v: u16, shift: u32) -> u8 {
    ((v >> shift) & 0xF) as u8 * 17
}

fn signed8(v: u8) -> u8 {
    (v as i8 as i16 + 128) as u8
}

fn signed16(v: u16) -> u8 {
    wide((v as i16 as i32 + 32768) as u16)
}

fn rgb9e5(p: &[u8]) -> [u8; 4] {
    let n = u32::from_le_bytes([p[0], p[1], p[2], p[3]]);
    let scale = 2f32.powi((n >> 27) as i32 - 24);
    let channel = |shift: u32| unit(((n >> shift) & 0x1FF) as f32 * scale);
    [channel(0), channel(9), channel(18), 255]
}

fn rgb565(p: &[u8]) -> [u8; 4] {
    let v = u16_at(p, 0);
    let (r, g, b) = ((v >> 11) as u8, ((v >> 5) & 63) as u8, (v & 31) as u8);
    [r << 3 | r >> 2, g << 2 | g >> 4, b << 3 | b >> 2, 255]
}

/// Bytes per pixel and the pixel decoder of each uncompressed format.
fn layout(format: i32) -> Option<(usize, Pixel)> {
    Some(match format {
        1 => (1, |p| [255, 255, 255, p[0]]),
        2 => (2, |p| {
            let v = u16_at(p, 0);
            [nibble(v, 8), nibble(v, 4), nibble(v, 0), nibble(v, 12)]
        }),
        3 => (3, |p| [p[0], p[1], p[2], 255]),
        4 => (4, |p| [p[0], p[1], p[2], p[3]]),
        5 => (4, |p| [p[1], p[2], p[3], p[0]]),
        7 => (2, rgb565),
        9 => (2, |p| [wide(u16_at(p, 0)), 0, 0, 255]),
        13 => (2, |p| {
            let v = u16_at(p, 0);
            [nibble(v, 12), nibble(v, 8), nibble(v, 4), nibble(v, 0)]
        }),
        14 => (4, |p| [p[2], p[1], p[0], p[3]]),
        15 => (2, |p| [unit(half_at(p, 0)), 0, 0, 255]),
        16 => (4, |p| [unit(half_at(p, 0)), unit(half_at(p, 1)), 0, 255]),
        17 => (8, |p| [0, 1, 2, 3].map(|i| unit(half_at(p, i)))),
        18 => (4, |p| [unit(f32_at(p, 0)), 0, 0, 255]),
        19 => (8, |p| [unit(f32_at(p, 0)), unit(f32_at(p, 1)), 0, 255]),
        20 => (16, |p| [0, 1, 2, 3].map(|i| unit(f32_at(p, i)))),
        22 => (4, rgb9e5),
        62 => (2, |p| [p[0], p[1], 0, 255]),
        63 => (1, |p| [p[0], 0, 0, 255]),
        72 => (4, |p| [wide(u16_at(p, 0)), wide(u16_at(p, 1)), 0, 255]),
        73 => (6, |p| {
            [
                wide(u16_at(p, 0)),
                wide(u16_at(p, 1)),
                wide(u16_at(p, 2)),
                255,
            ]
        }),
        74 => (8, |p| [0, 1, 2, 3].map(|i| wide(u16_at(p, i)))),
        75 => (1, |p| [signed8(p[0]), 0, 0, 255]),
        76 => (2, |p| [signed8(p[0]), signed8(p[1]), 0, 255]),
        77 => (3, |p| [signed8(p[0]), signed8(p[1]), signed8(p[2]), 255]),
        78 => (4, |p| [0, 1, 2, 3].map(|i| signed8(p[i]))),
        79 => (2, |p| [signed16(u16_at(p, 0)), 0, 0, 255]),
        80 => (4, |p| {
            [signed16(u16_at(p, 0)), signed16(u16_at(p, 1)), 0, 255]
        }),
        81 => (6, |p| {
            let [r, g, b] = [0, 1, 2].map(|i| signed16(u16_at(p, i)));
            [r, g, b, 255]
        }),
        82 => (8, |p| [0, 1, 2, 3].map(|i| signed16(u16_at(p, i)))),
        _ => return None,
    })
}
