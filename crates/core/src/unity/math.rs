//! Small geometric value types of meshes, materials and sprites: `Vector2f`, `Vector4f`,
//! `ColorRGBA`, `AABB`, `Matrix4x4f`, `Rectf`.

use serde::Deserialize;

use super::Vec3;

/// `Vector2f`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Vec2 {
    pub x: f32,
    pub y: f32,
}

/// `Vector4f`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Vec4 {
    pub x: f32,
    pub y: f32,
    pub z: f32,
    pub w: f32,
}

/// `ColorRGBA` as floats (materials, sprite renderers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct ColorRGBA {
    pub r: f32,
    pub g: f32,
    pub b: f32,
    pub a: f32,
}

/// `ColorRGBA` packed in one `UInt32` (Unity 3.x mesh colours): r in the low byte.
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct PackedColor {
    pub rgba: u32,
}

/// `AABB`: centre and half-extents.
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Aabb {
    pub m_Center: Vec3,
    pub m_Extent: Vec3,
}

/// `Rectf`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Rectf {
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
}

/// `Matrix4x4f`, serialised row by row: `eRC` is row R, column C of a column-vector matrix.
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Matrix4x4f {
    pub e00: f32,
    pub e01: f32,
    pub e02: f32,
    pub e03: f32,
    pub e10: f32,
    pub e11: f32,
    pub e12: f32,
    pub e13: f32,
    pub e20: f32,
    pub e21: f32,
    pub e22: f32,
    pub e23: f32,
    pub e30: f32,
    pub e31: f32,
    pub e32: f32,
    pub e33: f32,
}

impl Matrix4x4f {
    /// The sixteen floats in file order (row-major).
    pub fn to_rows(&self) -> [f32; 16] {
        [
            self.e00, self.e01, self.e02, self.e03, self.e10, self.e11, self.e12, self.e13,
            self.e20, self.e21, self.e22, self.e23, self.e30, self.e31, self.e32, self.e33,
        ]
    }
}

/// `StreamingInfo`: data kept in a resource file (`offset` is u32 before 2020.1, u64 after).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct StreamingInfo {
    pub offset: super::Int,
    pub size: super::Int,
    pub path: String,
}
