//! Small value types shared by Unity's classes.

use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};
use std::fmt;

/// An integer of any stored width or signedness (type trees disagree across versions).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Int(pub i64);

/// A float that also accepts integers.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Float(pub f32);

struct NumberVisitor;

impl<'de> Visitor<'de> for NumberVisitor {
    type Value = f64;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a number")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<f64, E> {
        Ok(v as u8 as f64)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<f64, E> {
        Ok(v as f64)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<f64, E> {
        Ok(v as f64)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
        Ok(v)
    }
}

struct IntVisitor;

impl<'de> Visitor<'de> for IntVisitor {
    type Value = i64;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an integer")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<i64, E> {
        Ok(v as i64)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<i64, E> {
        Ok(v)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<i64, E> {
        Ok(v as i64)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<i64, E> {
        Ok(v as i64)
    }
}

impl<'de> Deserialize<'de> for Int {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(IntVisitor).map(Int)
    }
}

impl<'de> Deserialize<'de> for Float {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NumberVisitor).map(|v| Float(v as f32))
    }
}

impl Int {
    /// The value as an `i32` (truncated when it does not fit).
    pub fn i32(self) -> i32 {
        self.0 as i32
    }
    /// The value as a `u32` (truncated when it does not fit).
    pub fn u32(self) -> u32 {
        self.0 as u32
    }
    /// Whether it is non-zero (Unity's `bool` and `UInt8` flags).
    pub fn flag(self) -> bool {
        self.0 != 0
    }
}

/// A reference to an object: file id 0 is this file, N is the file's external N-1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(default)]
pub struct PPtr {
    pub m_FileID: Int,
    pub m_PathID: Int,
}

impl PPtr {
    /// Whether it points at nothing (path id 0).
    pub fn is_null(&self) -> bool {
        self.m_PathID.0 == 0
    }
    /// The file it points into: 0 this file, N the file's external N-1.
    pub fn file_id(&self) -> i32 {
        self.m_FileID.i32()
    }
    /// The object's path id within that file.
    pub fn path_id(&self) -> i64 {
        self.m_PathID.0
    }
}

/// `Vector3f` / `float3`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Vec3 {
    pub x: f32,
    pub y: f32,
    pub z: f32,
}

/// `Quaternionf` / `float4`, stored x, y, z, w.
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Quat {
    pub x: f32,
    pub y: f32,
    pub z: f32,
    pub w: f32,
}

impl Vec3 {
    /// `[x, y, z]`.
    pub fn to_array(self) -> [f32; 3] {
        [self.x, self.y, self.z]
    }
}

impl Quat {
    /// `[x, y, z, w]`.
    pub fn to_array(self) -> [f32; 4] {
        [self.x, self.y, self.z, self.w]
    }
}
