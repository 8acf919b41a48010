//! Mesh (class 43) as stored, every layout from Unity 3.x to Unity 6 (`mesh.md` §2).
//!
//! Fields that moved or changed type between versions are optional; `m_Shapes` is a list of
//! named shapes in 4.x and a `BlendShapeData` from 5.0, so it reads into [`Shapes`].

use serde::Deserialize;
use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};

use super::clip::PackedBitVector;
use super::math::{Aabb, Matrix4x4f, PackedColor, StreamingInfo, Vec2, Vec4};
use super::{Int, Vec3};

/// Unity's `Mesh`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Mesh {
    pub m_Name: String,
    /// Unity 3.4 and older: index size flag (before `m_IndexFormat`).
    pub m_Use16BitIndices: Option<Int>,
    pub m_SubMeshes: Vec<SubMesh>,
    pub m_Shapes: Option<Shapes>,
    /// Unity 4.1–4.x: the vertices of the named shapes.
    pub m_ShapeVertices: Vec<BlendShapeVertex>,
    pub m_BindPose: Vec<Matrix4x4f>,
    pub m_BoneNameHashes: Vec<u32>,
    pub m_RootBoneNameHash: Option<Int>,
    /// Unity 2019.1+: per bone, the box of its vertices in the bone's space.
    pub m_BonesAABB: Vec<MinMaxAabb>,
    pub m_MeshCompression: Int,
    /// Unity 2017.3+: 0 = 16-bit indices, 1 = 32-bit.
    pub m_IndexFormat: Option<Int>,
    pub m_IndexBuffer: Vec<u8>,
    /// Up to 2018.1: four influences per vertex.
    pub m_Skin: Vec<BoneInfluence>,
    /// Unity 3.5+.
    pub m_VertexData: Option<VertexData>,
    pub m_CompressedMesh: Option<CompressedMesh>,
    pub m_LocalAABB: Aabb,
    /// Unity 2018.3+: vertex data kept in a resource file.
    pub m_StreamData: Option<StreamingInfo>,
    /// Unity 3.4 and older: plain vertex arrays.
    pub m_Vertices: Vec<Vec3>,
    pub m_UV: Vec<Vec2>,
    pub m_UV1: Vec<Vec2>,
    pub m_Tangents: Vec<Vec4>,
    pub m_Normals: Vec<Vec3>,
    pub m_Colors: Vec<PackedColor>,
}

/// `SubMesh`: a range of the index buffer drawn with one material.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct SubMesh {
    pub firstByte: Int,
    pub indexCount: Int,
    /// Unity 4.0+: `MeshTopology`.
    pub topology: Option<Int>,
    /// Before 4.0: non-zero means a triangle strip.
    pub isTriStrip: Option<Int>,
    /// Before 4.0: the triangles the sub-mesh draws.
    pub triangleCount: Option<Int>,
    /// Unity 2017.3+.
    pub baseVertex: Option<Int>,
    pub firstVertex: Int,
    pub vertexCount: Int,
    pub localAABB: Aabb,
}

/// `MinMaxAABB`.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(default)]
pub struct MinMaxAabb {
    pub m_Min: Vec3,
    pub m_Max: Vec3,
}

/// `BoneInfluence` / `BoneWeights4`.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(default)]
pub struct BoneInfluence {
    #[serde(rename = "weight[0]")]
    pub weight0: f32,
    #[serde(rename = "weight[1]")]
    pub weight1: f32,
    #[serde(rename = "weight[2]")]
    pub weight2: f32,
    #[serde(rename = "weight[3]")]
    pub weight3: f32,
    #[serde(rename = "boneIndex[0]")]
    pub boneIndex0: i32,
    #[serde(rename = "boneIndex[1]")]
    pub boneIndex1: i32,
    #[serde(rename = "boneIndex[2]")]
    pub boneIndex2: i32,
    #[serde(rename = "boneIndex[3]")]
    pub boneIndex3: i32,
}

/// `VertexData`: channels describing interleaved streams in one byte blob.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct VertexData {
    pub m_CurrentChannels: Option<Int>,
    pub m_VertexCount: Int,
    pub m_Channels: Vec<ChannelInfo>,
    /// Unity 4.x (and 5.0): the streams, serialised.
    pub m_Streams: Option<Vec<StreamInfo>>,
    /// Unity 3.5: four fixed streams and no channels.
    #[serde(rename = "m_Streams[0]")]
    pub m_Streams0: Option<StreamInfo>,
    #[serde(rename = "m_Streams[1]")]
    pub m_Streams1: Option<StreamInfo>,
    #[serde(rename = "m_Streams[2]")]
    pub m_Streams2: Option<StreamInfo>,
    #[serde(rename = "m_Streams[3]")]
    pub m_Streams3: Option<StreamInfo>,
    pub m_DataSize: Vec<u8>,
}

/// Unity's `ChannelInfo`, field for field as its type tree names them.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(default)]
pub struct ChannelInfo {
    pub stream: u8,
    pub offset: u8,
    pub format: u8,
    pub dimension: u8,
}

/// `StreamInfo`: 4.x `{channelMask, offset, stride u8, dividerOp, frequency}`, 3.5
/// `{channelMask, offset, stride u32, align}`.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(default)]
pub struct StreamInfo {
    pub channelMask: Int,
    pub offset: Int,
    pub stride: Int,
}

/// `CompressedMesh`: quantised vertex data in packed bit vectors.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct CompressedMesh {
    pub m_Vertices: PackedBitVector,
    pub m_UV: PackedBitVector,
    /// Before 5.0.
    pub m_BindPoses: Option<PackedBitVector>,
    pub m_Normals: PackedBitVector,
    pub m_Tangents: PackedBitVector,
    pub m_Weights: PackedBitVector,
    pub m_NormalSigns: PackedBitVector,
    pub m_TangentSigns: PackedBitVector,
    /// Unity 5.0+.
    pub m_FloatColors: Option<PackedBitVector>,
    pub m_BoneIndices: PackedBitVector,
    pub m_Triangles: PackedBitVector,
    /// Before 5.0: colours as packed bytes.
    pub m_Colors: Option<PackedBitVector>,
    /// Unity 5.0+: which UV sets are stored, 4 bits each.
    pub m_UVInfo: Option<Int>,
}

/// `m_Shapes` in either layout.
#[derive(Debug)]
pub enum Shapes {
    /// Unity 4.1–4.x: named shapes over `m_ShapeVertices`.
    Named(Vec<NamedShape>),
    /// Unity 5.0+ (`BlendShapeData`).
    Data(BlendShapeData),
}

/// A 4.x `MeshBlendShape`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct NamedShape {
    pub name: String,
    pub firstVertex: Int,
    pub vertexCount: Int,
    pub hasNormals: Int,
    pub hasTangents: Int,
}

/// `BlendShapeData`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct BlendShapeData {
    pub vertices: Vec<BlendShapeVertex>,
    pub shapes: Vec<MeshBlendShape>,
    pub channels: Vec<MeshBlendShapeChannel>,
    pub fullWeights: Vec<f32>,
}

/// One sparse blend-shape delta.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(default)]
pub struct BlendShapeVertex {
    pub vertex: Vec3,
    pub normal: Vec3,
    pub tangent: Vec3,
    pub index: Int,
}

/// One frame's range of `vertices`.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(default)]
pub struct MeshBlendShape {
    pub firstVertex: Int,
    pub vertexCount: Int,
    pub hasNormals: Int,
    pub hasTangents: Int,
}

/// Unity's `MeshBlendShapeChannel`, field for field as its type tree names them.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct MeshBlendShapeChannel {
    pub name: String,
    pub nameHash: u32,
    pub frameIndex: Int,
    pub frameCount: Int,
}

impl<'de> Deserialize<'de> for Shapes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ShapesVisitor;
        impl<'de> Visitor<'de> for ShapesVisitor {
            type Value = Shapes;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of blend shapes or a BlendShapeData")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Shapes, A::Error> {
                Vec::deserialize(SeqAccessDeserializer::new(seq)).map(Shapes::Named)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Shapes, A::Error> {
                BlendShapeData::deserialize(MapAccessDeserializer::new(map)).map(Shapes::Data)
            }
        }
        d.deserialize_any(ShapesVisitor)
    }
}
