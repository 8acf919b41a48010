//! Decoding hand-built Mesh structs: stream layouts, formats, external data, skins, blend
//! shapes, compressed meshes and malformed input.

use super::*;
use crate::resource::{MemoryStreams, NoStreams};
use crate::unity::Int;
use crate::unity::clip::PackedBitVector;
use crate::unity::math::StreamingInfo;
use crate::unity::mesh::{
    BlendShapeData, BlendShapeVertex, ChannelInfo, CompressedMesh, Mesh, MeshBlendShape,
    MeshBlendShapeChannel, Shapes, StreamInfo, SubMesh, VertexData,
};

fn at(major: u16, minor: u16) -> Layout {
    Layout {
        version: (major, minor),
        endian: Endian::Little,
    }
}

fn channel(stream: u8, offset: u8, format: u8, dimension: u8) -> ChannelInfo {
    ChannelInfo {
        stream,
        offset,
        format,
        dimension,
    }
}

fn triangles(indices: &[u16]) -> (Vec<u8>, SubMesh) {
    let bytes = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
    let sub = SubMesh {
        indexCount: Int(indices.len() as i64),
        topology: Some(Int(0)),
        ..SubMesh::default()
    };
    (bytes, sub)
}

/// A 2019+ mesh: `channels` (14 entries) over `data`.
fn modern(count: usize, channels: Vec<ChannelInfo>, data: Vec<u8>) -> Mesh {
    let (index, sub) = triangles(&[0, 1, 2]);
    Mesh {
        m_Name: "test".into(),
        m_SubMeshes: vec![sub],
        m_IndexBuffer: index,
        m_IndexFormat: Some(Int(0)),
        m_VertexData: Some(VertexData {
            m_VertexCount: Int(count as i64),
            m_Channels: channels,
            m_DataSize: data,
            ..VertexData::default()
        }),
        ..Mesh::default()
    }
}

fn f32s(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn f16s(values: &[f32]) -> Vec<u8> {
    values
        .iter()
        .flat_map(|&v| half::f16::from_f32(v).to_le_bytes())
        .collect()
}

const TRIANGLE: [[f32; 3]; 3] = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 2.0, -1.0]];

/// Three vertices: stream 0 = position f32×3 + normal f16×4 (dimension byte 0x34) + blend
/// index u32×1; stream 1 = UV0 f16×2. Stream 0 (3 × 24 = 72 bytes) is padded to 80.
fn two_stream_mesh() -> Mesh {
    let mut channels = vec![ChannelInfo::default(); 14];
    channels[0] = channel(0, 0, 0, 3);
    channels[1] = channel(0, 12, 1, 0x34);
    channels[13] = channel(0, 20, 10, 1);
    channels[4] = channel(1, 0, 1, 2);
    let mut data = Vec::new();
    for (v, p) in TRIANGLE.iter().enumerate() {
        data.extend(f32s(p));
        data.extend(f16s(&[0.0, 0.0, -1.0, 0.0]));
        data.extend((v as u32 % 2).to_le_bytes());
    }
    data.resize(80, 0xEE);
    for v in 0..3 {
        data.extend(f16s(&[v as f32 * 0.5, 1.0]));
    }
    modern(3, channels, data)
}

#[test]
fn streams_follow_one_another_padded_to_16_bytes() {
    let mesh = decode(&two_stream_mesh(), at(2022, 3), &NoStreams).unwrap();
    assert_eq!(mesh.positions, TRIANGLE);
    assert_eq!(mesh.normals, [[0.0, 0.0, -1.0]; 3]);
    assert_eq!(mesh.uv0, [[0.0, 1.0], [0.5, 1.0], [1.0, 1.0]]);
    assert_eq!(mesh.submeshes[0].indices, [0, 1, 2]);
    assert_eq!(
        mesh.bounds(),
        Some(Aabb {
            center: [0.5, 1.0, -0.5],
            extent: [0.5, 1.0, 0.5]
        })
    );
}

#[test]
fn a_single_bone_index_channel_without_weights_gets_weight_one() {
    let mut raw = two_stream_mesh();
    raw.m_BindPose = vec![Default::default(); 2];
    let mesh = decode(&raw, at(2022, 3), &NoStreams).unwrap();
    let bones: Vec<u32> = mesh.skin.iter().map(|w| w.bones[0]).collect();
    assert_eq!(bones, [0, 1, 0]);
    assert!(mesh.skin.iter().all(|w| w.weights == [1.0, 0.0, 0.0, 0.0]));
    raw.m_BindPose.truncate(1);
    let err = decode(&raw, at(2022, 3), &NoStreams).unwrap_err();
    assert!(matches!(err, MeshError::Skin(_)), "{err}");
}

#[test]
fn vertex_data_in_a_resource_is_read_through_the_stream_source() {
    let mut raw = two_stream_mesh();
    let vd = raw.m_VertexData.as_mut().unwrap();
    let mut blob = vec![7u8; 100];
    blob.extend(std::mem::take(&mut vd.m_DataSize));
    raw.m_StreamData = Some(StreamingInfo {
        offset: Int(100),
        size: Int(blob.len() as i64 - 100),
        path: "archive:/CAB-0123/CAB-0123.resS".into(),
    });
    let streams = MemoryStreams::from_entries([("CAB-0123.resS", blob)]);
    let mesh = decode(&raw, at(2022, 3), &streams).unwrap();
    assert_eq!(mesh.positions, TRIANGLE);
    let err = decode(&raw, at(2022, 3), &NoStreams).unwrap_err();
    assert!(matches!(err, MeshError::Stream(_)), "{err}");
}

#[test]
fn unity_2017_numbers_formats_differently() {
    // 2017.x: format 3 = UNorm8 colour, 6 = SNorm16 normal; channel 2 is the colour (< 2018).
    let mut channels = vec![ChannelInfo::default(); 8];
    channels[0] = channel(0, 0, 0, 3);
    channels[1] = channel(0, 12, 6, 4);
    channels[2] = channel(0, 20, 3, 4);
    let mut data = Vec::new();
    for p in TRIANGLE {
        data.extend(f32s(&p));
        for n in [0i16, -32768, 32767, 0] {
            data.extend(n.to_le_bytes());
        }
        data.extend([255, 0, 51, 255]);
    }
    let mesh = decode(&modern(3, channels, data), at(2017, 4), &NoStreams).unwrap();
    assert_eq!(mesh.normals[2], [0.0, -1.0, 1.0]);
    assert_eq!(mesh.colors[1], [1.0, 0.0, 0.2, 1.0]);
    assert!(mesh.tangents.is_empty());
}

#[test]
fn big_endian_files_swap_components() {
    let mut channels = vec![ChannelInfo::default(); 14];
    channels[0] = channel(0, 0, 0, 3);
    let data: Vec<u8> = TRIANGLE
        .iter()
        .flatten()
        .flat_map(|v| v.to_be_bytes())
        .collect();
    let mut raw = modern(3, channels, data);
    raw.m_IndexBuffer = [0u16, 1, 2].iter().flat_map(|i| i.to_be_bytes()).collect();
    let layout = Layout {
        version: (2019, 4),
        endian: Endian::Big,
    };
    let mesh = decode(&raw, layout, &NoStreams).unwrap();
    assert_eq!(mesh.positions, TRIANGLE);
    assert_eq!(mesh.submeshes[0].indices, [0, 1, 2]);
}

#[test]
fn stored_4x_streams_give_offsets_strides_and_channel_masks() {
    // Stream 0 at offset 8: position only (mask 1), stride 16 with 4 padding bytes; the normal
    // channel is described but its mask bit is off, so it is absent.
    let channels = vec![
        channel(0, 0, 0, 3),
        channel(0, 12, 0, 1),
        ChannelInfo::default(),
        ChannelInfo::default(),
    ];
    let mut data = vec![0u8; 8];
    for p in TRIANGLE {
        data.extend(f32s(&p));
        data.extend([1, 2, 3, 4]);
    }
    let mut raw = modern(3, channels, data);
    raw.m_VertexData.as_mut().unwrap().m_Streams = Some(vec![StreamInfo {
        channelMask: Int(1),
        offset: Int(8),
        stride: Int(16),
    }]);
    let mesh = decode(&raw, at(4, 6), &NoStreams).unwrap();
    assert_eq!(mesh.positions, TRIANGLE);
    assert!(mesh.normals.is_empty());
}

#[test]
fn thirty_two_bit_indices_strips_and_base_vertex() {
    let mut channels = vec![ChannelInfo::default(); 14];
    channels[0] = channel(0, 0, 0, 3);
    let data = f32s(&[0.0; 15]);
    let mut raw = modern(5, channels, data);
    raw.m_IndexFormat = Some(Int(1));
    raw.m_IndexBuffer = [9u32, 0, 1, 2, 0, 1, 2]
        .iter()
        .flat_map(|i| i.to_le_bytes())
        .collect();
    raw.m_SubMeshes = vec![
        SubMesh {
            firstByte: Int(4),
            indexCount: Int(3),
            topology: Some(Int(0)),
            baseVertex: Some(Int(2)),
            ..SubMesh::default()
        },
        SubMesh {
            firstByte: Int(16),
            indexCount: Int(3),
            topology: Some(Int(1)),
            ..SubMesh::default()
        },
    ];
    let mesh = decode(&raw, at(2019, 4), &NoStreams).unwrap();
    assert_eq!(mesh.submeshes[0].indices, [2, 3, 4]);
    assert_eq!(mesh.submeshes[1].indices, [0, 1, 2]);
    assert_eq!(mesh.submeshes[1].topology, Topology::TriangleStrip);
    raw.m_SubMeshes[0].baseVertex = Some(Int(3));
    let err = decode(&raw, at(2019, 4), &NoStreams).unwrap_err();
    assert!(err.to_string().contains("past the 5 vertices"), "{err}");
}

fn shape_vertex(index: i64, dy: f32) -> BlendShapeVertex {
    BlendShapeVertex {
        vertex: crate::unity::Vec3 {
            x: 0.0,
            y: dy,
            z: 0.0,
        },
        normal: crate::unity::Vec3 {
            x: 0.0,
            y: 0.0,
            z: dy,
        },
        index: Int(index),
        ..BlendShapeVertex::default()
    }
}

fn two_frame_shapes() -> BlendShapeData {
    BlendShapeData {
        vertices: vec![
            shape_vertex(0, 1.0),
            shape_vertex(2, 0.5),
            shape_vertex(0, 2.0),
            shape_vertex(1, 3.0),
            shape_vertex(1, -1.0),
        ],
        shapes: vec![
            MeshBlendShape {
                firstVertex: Int(0),
                vertexCount: Int(2),
                ..MeshBlendShape::default()
            },
            MeshBlendShape {
                firstVertex: Int(2),
                vertexCount: Int(2),
                ..MeshBlendShape::default()
            },
            MeshBlendShape {
                firstVertex: Int(4),
                vertexCount: Int(1),
                ..MeshBlendShape::default()
            },
        ],
        channels: vec![
            MeshBlendShapeChannel {
                name: "smile".into(),
                nameHash: crate::hash::attribute_hash("smile"),
                frameIndex: Int(0),
                frameCount: Int(2),
            },
            MeshBlendShapeChannel {
                name: "blink".into(),
                nameHash: 5,
                frameIndex: Int(2),
                frameCount: Int(1),
            },
        ],
        fullWeights: vec![50.0, 100.0, 100.0],
    }
}

#[test]
fn blend_shape_channels_own_their_frames_and_sparse_vertices() {
    let mut raw = two_stream_mesh();
    raw.m_Shapes = Some(Shapes::Data(two_frame_shapes()));
    let mesh = decode(&raw, at(2022, 3), &NoStreams).unwrap();
    let smile = &mesh.blend_shapes[0];
    assert_eq!(smile.name_hash, crate::hash::attribute_hash("smile"));
    let weights: Vec<f32> = smile.frames.iter().map(|f| f.weight).collect();
    assert_eq!(weights, [50.0, 100.0]);
    let second: Vec<(u32, f32, f32)> = smile.frames[1]
        .vertices
        .iter()
        .map(|d| (d.index, d.position[1], d.normal[2]))
        .collect();
    assert_eq!(second, [(0, 2.0, 2.0), (1, 3.0, 3.0)]);
    assert_eq!(
        mesh.blend_shapes[1].frames[0].vertices[0].position,
        [0.0, -1.0, 0.0]
    );
}

#[test]
fn blend_shape_ranges_and_indices_are_checked() {
    let mut raw = two_stream_mesh();
    let mut shapes = two_frame_shapes();
    shapes.channels[1].frameCount = Int(2);
    raw.m_Shapes = Some(Shapes::Data(shapes));
    assert!(matches!(
        decode(&raw, at(2022, 3), &NoStreams),
        Err(MeshError::BlendShapes(_))
    ));
    let mut shapes = two_frame_shapes();
    shapes.vertices[4].index = Int(3);
    raw.m_Shapes = Some(Shapes::Data(shapes));
    let err = decode(&raw, at(2022, 3), &NoStreams).unwrap_err();
    assert!(err.to_string().contains("past the 3 vertices"), "{err}");
}

#[test]
fn malformed_vertex_data_is_an_error_not_a_panic() {
    let mut raw = two_stream_mesh();
    raw.m_VertexData.as_mut().unwrap().m_VertexCount = Int(u32::MAX as i64);
    let err = decode(&raw, at(2022, 3), &NoStreams).unwrap_err();
    assert!(matches!(err, MeshError::VertexData(_)), "{err}");
    let mut raw = two_stream_mesh();
    raw.m_VertexData.as_mut().unwrap().m_Channels[5] = channel(1, 0, 77, 2);
    assert!(decode(&raw, at(2022, 3), &NoStreams).is_err());
    let mut raw = two_stream_mesh();
    raw.m_VertexData.as_mut().unwrap().m_DataSize.truncate(90);
    assert!(decode(&raw, at(2022, 3), &NoStreams).is_err());
    let mut raw = two_stream_mesh();
    raw.m_SubMeshes[0].indexCount = Int(i64::from(u32::MAX));
    let err = decode(&raw, at(2022, 3), &NoStreams).unwrap_err();
    assert!(
        matches!(err, MeshError::SubMesh { submesh: 0, .. }),
        "{err}"
    );
    let mut raw = two_stream_mesh();
    raw.m_IndexBuffer = vec![0, 0, 1, 0, 3, 0];
    assert!(decode(&raw, at(2022, 3), &NoStreams).is_err());
}

/// Packs `items` of `bits` bits each, least significant bit first.
fn pack(bits: usize, items: &[u32]) -> Vec<u8> {
    let mut data = vec![0u8; (items.len() * bits).div_ceil(8)];
    for (i, &item) in items.iter().enumerate() {
        for b in 0..bits {
            if item >> b & 1 == 1 {
                data[(i * bits + b) / 8] |= 1 << ((i * bits + b) % 8);
            }
        }
    }
    data
}

fn packed(bits: usize, items: &[u32], range: Option<(f32, f32)>) -> PackedBitVector {
    PackedBitVector {
        m_NumItems: Int(items.len() as i64),
        m_Range: range.map(|r| r.1),
        m_Start: range.map(|r| r.0),
        m_Data: pack(bits, items),
        m_BitSize: Some(Int(bits as i64)),
    }
}

/// A compressed triangle: positions in 8 bits on a grid of 1/16 (start −2, range 255/16), UV0
/// and UV1 via `m_UVInfo`, normals ±Z, a one-bone skin, and the triangle in `m_Triangles`.
fn compressed_mesh() -> Mesh {
    let q = |v: f32| ((v + 2.0) * 16.0) as u32;
    let positions: Vec<u32> = TRIANGLE.iter().flatten().map(|&v| q(v)).collect();
    let cm = CompressedMesh {
        m_Vertices: packed(8, &positions, Some((-2.0, 255.0 / 16.0))),
        // UV set 0 (2D) then set 1 (2D): info = 0b0101 | 0b0101 << 4.
        m_UV: packed(2, &[0, 1, 2, 3, 3, 2, 1, 0, 0, 0, 3, 3], Some((0.0, 3.0))),
        m_UVInfo: Some(Int(0x55)),
        m_Normals: packed(1, &[1, 1, 1, 1, 1, 1], Some((0.0, 0.0))),
        m_NormalSigns: packed(1, &[0, 1, 0], None),
        m_Weights: packed(5, &[31, 31, 31], None),
        m_BoneIndices: packed(2, &[0, 1, 0], None),
        m_Triangles: packed(2, &[0, 1, 2], None),
        ..CompressedMesh::default()
    };
    Mesh {
        m_Name: "packed".into(),
        m_SubMeshes: vec![SubMesh {
            indexCount: Int(3),
            topology: Some(Int(0)),
            ..SubMesh::default()
        }],
        m_MeshCompression: Int(2),
        m_VertexData: Some(VertexData::default()),
        m_CompressedMesh: Some(cm),
        m_BindPose: vec![Default::default(); 2],
        ..Mesh::default()
    }
}

#[test]
fn compressed_meshes_unpack_every_vector() {
    let mesh = decode(&compressed_mesh(), at(2019, 4), &NoStreams).unwrap();
    assert_eq!(mesh.positions, TRIANGLE);
    assert_eq!(mesh.uv0, [[0.0, 1.0], [2.0, 3.0], [3.0, 2.0]]);
    assert_eq!(mesh.uv1, [[1.0, 0.0], [0.0, 0.0], [3.0, 3.0]]);
    assert_eq!(
        mesh.normals,
        [[0.0, 0.0, -1.0], [0.0, 0.0, 1.0], [0.0, 0.0, -1.0]]
    );
    let bones: Vec<[u32; 4]> = mesh.skin.iter().map(|w| w.bones).collect();
    assert_eq!(bones, [[0, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0]]);
    assert!(mesh.skin.iter().all(|w| w.weights == [1.0, 0.0, 0.0, 0.0]));
    assert_eq!(mesh.submeshes[0].indices, [0, 1, 2]);
}

#[test]
fn compressed_vectors_shorter_than_the_vertex_count_are_errors() {
    let mut raw = compressed_mesh();
    let cm = raw.m_CompressedMesh.as_mut().unwrap();
    cm.m_NormalSigns = packed(1, &[0, 1], None);
    let err = decode(&raw, at(2019, 4), &NoStreams).unwrap_err();
    assert!(matches!(err, MeshError::Compressed(_)), "{err}");
}
