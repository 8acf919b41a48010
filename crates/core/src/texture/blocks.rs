//! Block-compressed, ETC/EAC, ATC, ASTC, PVRTC and crunched formats through
//! `texture2ddecoder` (`mesh.md` §4.3). The data size is checked before decoding, and a panic
//! inside the decoder (the crunch and PVRTC decoders index freely) becomes an error.

use std::panic::{AssertUnwindSafe, catch_unwind};

use texture2ddecoder as t2d;

use super::{TextureData, TextureError, format_name};

type Run = fn(&[u8], usize, usize, &mut [u32]) -> Result<(), &'static str>;

/// How a format is laid out and decoded.
struct Decoder {
    /// Block width and height in pixels, and bytes per block; `bytes == 0` for crunched data,
    /// whose size is not known in advance.
    block: (usize, usize),
    bytes: usize,
    run: Run,
}

fn astc<const B: usize>(d: &[u8], w: usize, h: usize, img: &mut [u32]) -> Result<(), &'static str> {
    t2d::decode_astc(d, w, h, B, B, img)
}

fn decoder(format: i32, version: (u16, u16)) -> Option<Decoder> {
    let block = |bytes: usize, run: Run| Decoder {
        block: (4, 4),
        bytes,
        run,
    };
    let astc_run = |side: usize| -> Run {
        match side {
            4 => astc::<4>,
            5 => astc::<5>,
            6 => astc::<6>,
            8 => astc::<8>,
            10 => astc::<10>,
            _ => astc::<12>,
        }
    };
    const ASTC_SIDES: [usize; 6] = [4, 5, 6, 8, 10, 12];
    let unity_crunch = version >= (2017, 3);
    Some(match format {
        10 => block(8, t2d::decode_bc1),
        11 => block(16, t2d::decode_bc2),
        12 => block(16, t2d::decode_bc3),
        24 => block(16, t2d::decode_bc6_unsigned),
        25 => block(16, t2d::decode_bc7),
        26 => block(8, t2d::decode_bc4),
        27 => block(16, t2d::decode_bc5),
        28 | 29 if !unity_crunch => block(0, t2d::decode_crunch),
        28 | 29 | 64 | 65 => block(0, t2d::decode_unity_crunch),
        30 | 31 => Decoder {
            block: (8, 4),
            bytes: 8,
            run: t2d::decode_pvrtc_2bpp,
        },
        32 | 33 => block(8, t2d::decode_pvrtc_4bpp),
        34 | 60 => block(8, t2d::decode_etc1),
        35 => block(8, t2d::decode_atc_rgb4),
        36 => block(16, t2d::decode_atc_rgba8),
        41 => block(8, t2d::decode_eacr),
        42 => block(8, t2d::decode_eacr_signed),
        43 => block(16, t2d::decode_eacrg),
        44 => block(16, t2d::decode_eacrg_signed),
        45 => block(8, t2d::decode_etc2_rgb),
        46 => block(8, t2d::decode_etc2_rgba1),
        47 | 61 => block(16, t2d::decode_etc2_rgba8),
        48..=59 | 66..=71 => {
            let side = ASTC_SIDES[((format - 48) % 6) as usize];
            Decoder {
                block: (side, side),
                bytes: 16,
                run: astc_run(side),
            }
        }
        _ => return None,
    })
}

/// Block size in pixels and bytes per block of a block format (`None` for crunched data and
/// formats this module does not decode).
pub(super) fn block_layout(format: i32) -> Option<((usize, usize), usize)> {
    decoder(format, (2017, 3))
        .filter(|d| d.bytes > 0)
        .map(|d| (d.block, d.bytes))
}

/// A crunched blob starts with a header naming its size (big-endian u16 width and height at
/// bytes 12 and 14); it must be the texture's, which also bounds what the decoder allocates.
fn check_crunch_header(t: &TextureData, data: &[u8]) -> Result<(), TextureError> {
    let name = format_name(t.format);
    let field = |at: usize| {
        data.get(at..at + 2)
            .map(|b| u16::from_be_bytes([b[0], b[1]]))
    };
    match (data.get(..2), field(12), field(14)) {
        (Some(b"Hx"), Some(w), Some(h)) if (u32::from(w), u32::from(h)) == (t.width, t.height) => {
            Ok(())
        }
        (Some(b"Hx"), Some(w), Some(h)) => Err(TextureError::Decode {
            name,
            detail: format!(
                "crunch header says {w}×{h}, the texture is {}×{}",
                t.width, t.height
            ),
        }),
        _ => Err(TextureError::Decode {
            name,
            detail: "no crunch header".into(),
        }),
    }
}

/// Mip 0 as RGBA8, rows in stored order.
pub(super) fn decode(t: &TextureData, data: &[u8]) -> Result<Vec<u8>, TextureError> {
    let name = format_name(t.format);
    let d = decoder(t.format, t.version).ok_or(TextureError::Unsupported {
        format: t.format,
        name,
    })?;
    let (w, h) = (t.width as usize, t.height as usize);
    let needed = w.div_ceil(d.block.0) * h.div_ceil(d.block.1) * d.bytes;
    if data.len() < needed.max(1) {
        return Err(TextureError::ShortData {
            name,
            width: t.width,
            height: t.height,
            needed: needed.max(1),
            held: data.len(),
        });
    }
    if d.bytes == 0 {
        check_crunch_header(t, data)?;
    }
    let mut image = vec![0u32; w * h];
    let outcome = catch_unwind(AssertUnwindSafe(|| (d.run)(data, w, h, &mut image)));
    match outcome {
        Ok(Ok(())) => {}
        Ok(Err(detail)) => {
            return Err(TextureError::Decode {
                name,
                detail: detail.to_string(),
            });
        }
        Err(_) => {
            return Err(TextureError::Decode {
                name,
                detail: "the decoder failed on this data".into(),
            });
        }
    }
    // texture2ddecoder writes each pixel as the little-endian bytes B, G, R, A.
    Ok(image
        .into_iter()
        .flat_map(|px| {
            let [b, g, r, a] = px.to_le_bytes();
            [r, g, b, a]
        })
        .collect())
}
