//! Serde mirrors of the Unity classes this module writes.
//!
//! rabex's serializer walks the type tree and matches each struct field by name, in order, so
//! every struct here lists its fields exactly in the type tree's order (release layout, checked
//! against the embedded TPK for 2020.3.34f1 and 6000.0.58f2). It does not notice missing
//! *trailing* fields, which is why the tests read every written object back against the full
//! type tree. Where the two versions differ, there is one struct per version and an
//! `#[serde(untagged)]` enum that serializes as whichever variant it holds.
#![allow(non_snake_case)]

pub(crate) mod avatar;
pub(crate) mod clip;
pub(crate) mod rig;

use serde::Serialize;

/// `Vector3f` / `float3`.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub(crate) struct Vec3 {
    pub x: f32,
    pub y: f32,
    pub z: f32,
}

impl Vec3 {
    /// `(0, 0, 0)`.
    pub const ZERO: Vec3 = Vec3::splat(0.0);
    /// `(1, 1, 1)`.
    pub const ONE: Vec3 = Vec3::splat(1.0);

    /// `(v, v, v)`.
    pub const fn splat(v: f32) -> Self {
        Vec3 { x: v, y: v, z: v }
    }
}

impl From<[f32; 3]> for Vec3 {
    fn from([x, y, z]: [f32; 3]) -> Self {
        Vec3 { x, y, z }
    }
}

/// `Quaternionf` / `float4` / `Vector4f`, stored x, y, z, w.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub(crate) struct Vec4 {
    pub x: f32,
    pub y: f32,
    pub z: f32,
    pub w: f32,
}

impl Vec4 {
    /// `(0, 0, 0, 0)`.
    pub const ZERO: Vec4 = Vec4 {
        x: 0.0,
        y: 0.0,
        z: 0.0,
        w: 0.0,
    };
    /// The identity quaternion `(0, 0, 0, 1)`.
    pub const IDENTITY: Vec4 = Vec4 {
        x: 0.0,
        y: 0.0,
        z: 0.0,
        w: 1.0,
    };
}

impl From<[f32; 4]> for Vec4 {
    fn from([x, y, z, w]: [f32; 4]) -> Self {
        Vec4 { x, y, z, w }
    }
}

/// `xform` (5.4+ layout): translation, rotation, scale.
#[derive(Clone, Copy, Debug, Serialize)]
pub(crate) struct Xform {
    pub t: Vec3,
    pub q: Vec4,
    pub s: Vec3,
}

impl Xform {
    /// The identity transform: no translation or rotation, unit scale.
    pub const IDENTITY: Xform = Xform {
        t: Vec3::ZERO,
        q: Vec4::IDENTITY,
        s: Vec3::ONE,
    };
}

/// `AABB`.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub(crate) struct Aabb {
    pub m_Center: Vec3,
    pub m_Extent: Vec3,
}
