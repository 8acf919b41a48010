//! Texture2D (class 28) as stored, Unity 3.x to Unity 6 (`mesh.md` §4.2).

use serde::Deserialize;

use super::Int;
use super::math::StreamingInfo;

/// Unity's `Texture2D`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Texture2D {
    pub m_Name: String,
    pub m_Width: Int,
    pub m_Height: Int,
    pub m_CompleteImageSize: Int,
    pub m_TextureFormat: Int,
    /// Unity 5.2+.
    pub m_MipCount: Option<Int>,
    /// Before 5.2: whether a mip chain follows.
    pub m_MipMap: Option<Int>,
    pub m_ImageCount: Int,
    pub m_TextureDimension: Int,
    pub m_ColorSpace: Int,
    /// Mip chain(s), mip 0 first; empty when the pixels are in `m_StreamData`.
    #[serde(rename = "image data")]
    pub image_data: Vec<u8>,
    /// Unity 5.3+.
    pub m_StreamData: Option<StreamingInfo>,
}
