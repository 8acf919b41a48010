//! Texture2D (class 28): the image data, inline or in a `.resS` resource, and mip 0 of every
//! format `mesh.md` §4.3 lists decoded into RGBA8, top row first (as an image viewer shows it;
//! Unity stores the bottom row first). Uncompressed formats are decoded here
//! (`raw`); block-compressed, ETC, ASTC, PVRTC and crunched ones with `texture2ddecoder`
//! (`blocks`). A format that cannot be decoded is an error value, never a panic.

mod blocks;
mod formats;
mod raw;

use std::io::Write;

use crate::resource::{ResourceError, StreamSource};
use crate::serialized::{ObjectInfo, SerializedError, SerializedFile};
use crate::unity::texture::Texture2D;

pub use formats::format_name;

/// Largest side accepted (Unity's own limit is 16384).
pub const MAX_SIDE: u32 = 16384;

/// A texture as stored: its facts and its raw image data.
#[derive(Clone, Debug, PartialEq)]
pub struct TextureData {
    pub name: String,
    pub width: u32,
    pub height: u32,
    /// `m_TextureFormat` (see [`format_name`]).
    pub format: i32,
    /// Mip levels stored (1 when there is no chain).
    pub mip_count: u32,
    /// `m_ColorSpace`: 1 for colour (sRGB) textures, 0 for linear data.
    pub color_space: i32,
    /// The whole image blob (mip 0 first, then the rest of the chain, per image), or why
    /// streamed data could not be fetched (the facts above are still valid then).
    pub data: Result<Vec<u8>, ResourceError>,
    /// Unity major and minor version of the file (chooses the crunch flavour).
    pub version: (u16, u16),
}

/// An RGBA8 image, rows top first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RgbaImage {
    pub width: u32,
    pub height: u32,
    /// `width × height × 4` bytes.
    pub pixels: Vec<u8>,
}

/// Why a texture could not be read or decoded.
#[derive(Debug, thiserror::Error)]
pub enum TextureError {
    #[error("reading the object: {0}")]
    Read(#[from] SerializedError),
    #[error("image data in a resource: {0}")]
    Stream(#[from] ResourceError),
    #[error("size {width}×{height} is outside 1..={MAX_SIDE} per side")]
    BadSize { width: i64, height: i64 },
    /// A texture of size 0 (a font atlas or render target that a script fills at run
    /// time): its facts are known, it has nothing to decode.
    #[error("the texture has no pixels (size {width}×{height}: filled at run time)")]
    NoPixels {
        name: String,
        format: i32,
        width: i64,
        height: i64,
    },
    #[error("texture format {format} ({name}) is not decoded")]
    Unsupported { format: i32, name: &'static str },
    #[error("{name}: mip 0 of {width}×{height} needs {needed} bytes, the texture holds {held}")]
    ShortData {
        name: &'static str,
        width: u32,
        height: u32,
        needed: usize,
        held: usize,
    },
    #[error("{name}: {detail}")]
    Decode { name: &'static str, detail: String },
    #[error("writing PNG: {0}")]
    Png(String),
}

/// Reads the Texture2D `info` of `file`, taking streamed image data from `streams`.
pub fn read(
    file: &SerializedFile,
    info: &ObjectInfo,
    streams: &dyn StreamSource,
) -> Result<TextureData, TextureError> {
    let t: Texture2D = file.read(info)?;
    let version = (file.effective_version.major, file.effective_version.minor);
    from_unity(t, version, streams)
}

/// Builds a [`TextureData`] from a read Texture2D, fetching streamed data (a failed fetch is
/// kept in [`TextureData::data`]).
pub fn from_unity(
    t: Texture2D,
    version: (u16, u16),
    streams: &dyn StreamSource,
) -> Result<TextureData, TextureError> {
    if t.m_Width.0 == 0 || t.m_Height.0 == 0 {
        return Err(TextureError::NoPixels {
            format: t.m_TextureFormat.i32(),
            name: t.m_Name,
            width: t.m_Width.0,
            height: t.m_Height.0,
        });
    }
    let (width, height) = checked_size(t.m_Width.0, t.m_Height.0)?;
    let data = match &t.m_StreamData {
        Some(s) if t.image_data.is_empty() && !s.path.is_empty() && s.size.0 > 0 => {
            // Stored unsigned (u32, or u64 from 2020.1): reinterpret, the source checks range.
            streams.read(&s.path, s.offset.0 as u64, s.size.0 as u64)
        }
        _ => Ok(t.image_data),
    };
    let mip_count = match (t.m_MipCount, t.m_MipMap) {
        (Some(n), _) => n.0.clamp(1, 32) as u32,
        (None, Some(m)) if m.flag() => 1 + width.max(height).ilog2(),
        _ => 1,
    };
    Ok(TextureData {
        name: t.m_Name,
        width,
        height,
        format: t.m_TextureFormat.i32(),
        mip_count,
        color_space: t.m_ColorSpace.i32(),
        data,
        version,
    })
}

/// Bytes of one mip level of `width` × `height` pixels in `format`, or `None` for crunched
/// and undecoded formats (whose sizes are not fixed or not known here).
pub fn level_size(format: i32, width: u32, height: u32) -> Option<usize> {
    let (w, h) = (width.max(1) as usize, height.max(1) as usize);
    if let Some(bytes) = raw::bytes_per_pixel(format) {
        return Some(w * h * bytes);
    }
    let ((bw, bh), bytes) = blocks::block_layout(format)?;
    Some(w.div_ceil(bw) * h.div_ceil(bh) * bytes)
}

fn checked_size(width: i64, height: i64) -> Result<(u32, u32), TextureError> {
    let side = |v: i64| {
        u32::try_from(v)
            .ok()
            .filter(|&v| (1..=MAX_SIDE).contains(&v))
    };
    match (side(width), side(height)) {
        (Some(w), Some(h)) => Ok((w, h)),
        _ => Err(TextureError::BadSize { width, height }),
    }
}

impl TextureData {
    /// True for colour data to be shown as sRGB (`m_ColorSpace` 1).
    pub fn is_srgb(&self) -> bool {
        self.color_space == 1
    }

    /// Bytes of the whole mip chain of one image, or `None` where [`level_size`] has none.
    pub fn chain_size(&self) -> Option<usize> {
        (0..self.mip_count.min(32))
            .map(|l| level_size(self.format, self.width >> l, self.height >> l))
            .sum()
    }

    /// The format's name (`"DXT5"`, `"RGBA32"`, …).
    pub fn format_name(&self) -> &'static str {
        format_name(self.format)
    }

    /// Mip 0 as RGBA8, top row first.
    pub fn decode_rgba(&self) -> Result<RgbaImage, TextureError> {
        checked_size(self.width.into(), self.height.into())?;
        let data = self
            .data
            .as_ref()
            .map_err(|e| TextureError::Stream(e.clone()))?;
        let bottom_up = match raw::decode(self, data)? {
            Some(pixels) => pixels,
            None => blocks::decode(self, data)?,
        };
        Ok(RgbaImage {
            width: self.width,
            height: self.height,
            pixels: flip_rows(bottom_up, self.width as usize * 4),
        })
    }
}

/// Reverses the row order of an image with rows of `row` bytes.
fn flip_rows(pixels: Vec<u8>, row: usize) -> Vec<u8> {
    if row == 0 {
        return pixels;
    }
    pixels.rchunks_exact(row).flatten().copied().collect()
}

impl RgbaImage {
    /// The pixel at column `x`, row `y` (row 0 at the top).
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let at = (y as usize * self.width as usize + x as usize) * 4;
        let p = self.pixels.get(at..at + 4)?;
        Some([p[0], p[1], p[2], p[3]])
    }

    /// Writes the image as an 8-bit RGBA PNG.
    pub fn write_png(&self, w: impl Write) -> Result<(), TextureError> {
        let png_error = |e: png::EncodingError| TextureError::Png(e.to_string());
        let mut encoder = png::Encoder::new(w, self.width, self.height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(png_error)?;
        writer.write_image_data(&self.pixels).map_err(png_error)?;
        writer.finish().map_err(png_error)
    }
}

#[cfg(test)]
mod tests;
