//! Meshes no shared file has, written as real serialized files against the release type trees
//! of each Unity version (rabex's writer and type-tree package): every layout from 3.x to
//! Unity 6, a compressed mesh, vertex data in a `.resS`, 32-bit indices, skins in both forms,
//! multi-frame and 4.x blend shapes, old renderers, and malformed meshes.

use crate::unity_writer;

use clipscope_core::mesh::{self, MeshData, MeshError, Topology, VertexWeights};
use clipscope_core::resource::{MemoryStreams, NoStreams, StreamSource};
use clipscope_core::serialized::SerializedFile;
use serde_json::{Value, json};
use unity_writer::{Object, serialized_file};

const MESH: i32 = 43;

/// The fixture mesh: four vertices, two triangles.
const POSITIONS: [[f32; 3]; 4] = [
    [-1.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [0.0, 2.0, 0.0],
    [0.0, 0.5, 3.0],
];
const NORMALS: [[f32; 3]; 4] = [
    [0.0, 0.0, -1.0],
    [0.0, 0.0, -1.0],
    [0.0, 1.0, 0.0],
    [1.0, 0.0, 0.0],
];
const UV0: [[f32; 2]; 4] = [[0.0, 0.0], [1.0, 0.0], [0.5, 1.0], [0.25, 0.75]];
const TRIANGLES: [u32; 6] = [0, 1, 2, 0, 2, 3];

fn vec3(v: [f32; 3]) -> Value {
    json!({"x": v[0], "y": v[1], "z": v[2]})
}

/// The stored bounds of the fixture: min (−1, 0, 0), max (1, 2, 3).
fn aabb() -> Value {
    json!({"m_Center": vec3([0.0, 1.0, 1.5]), "m_Extent": vec3([1.0, 1.0, 1.5])})
}

fn le_bytes<const N: usize>(values: impl IntoIterator<Item = [u8; N]>) -> Vec<u8> {
    values.into_iter().flatten().collect()
}

fn f16(v: f32) -> [u8; 2] {
    half::f16::from_f32(v).to_le_bytes()
}

fn version_at_least(version: &str, major: u32) -> bool {
    version.split('.').next().unwrap().parse::<u32>().unwrap() >= major
}

/// `m_VertexData` for `version`: position and normal (f32×3) in stream 0, UV0 (f16×2) in
/// stream 1, on the channel numbers of the version's table (14 from 2018, 8 from 5.0, 6
/// before). `m_Streams` is given for the 4.x/5.0 trees that store it.
fn vertex_data(version: &str) -> Value {
    let (uv, channel_count) = if version_at_least(version, 2018) {
        (4, 14)
    } else if version_at_least(version, 5) {
        (3, 8)
    } else {
        (3, 6)
    };
    let mut channels = vec![json!({}); channel_count];
    channels[0] = json!({"stream": 0, "offset": 0, "format": 0, "dimension": 3});
    channels[1] = json!({"stream": 0, "offset": 12, "format": 0, "dimension": 3});
    channels[uv] = json!({"stream": 1, "offset": 0, "format": 1, "dimension": 2});
    let mut data = Vec::new();
    for v in 0..4 {
        data.extend(le_bytes(POSITIONS[v].map(f32::to_le_bytes)));
        data.extend(le_bytes(NORMALS[v].map(f32::to_le_bytes)));
    }
    for uv in UV0 {
        data.extend(le_bytes(uv.map(f16)));
    }
    json!({
        "m_CurrentChannels": 3 | 1 << uv,
        "m_VertexCount": 4,
        "m_Channels": channels,
        "m_Streams": [
            {"channelMask": 3, "offset": 0, "stride": 24},
            {"channelMask": 1 << uv, "offset": 96, "stride": 4},
        ],
        "m_DataSize": data,
    })
}

/// The fixture Mesh for `version`'s tree; fields a tree lacks are not written.
fn quad_mesh(version: &str) -> Value {
    let index: Vec<u8> = le_bytes(TRIANGLES.map(|i| (i as u16).to_le_bytes()));
    json!({
        "m_Name": "fixture",
        "m_Use16BitIndices": 1,
        "m_SubMeshes": [{
            "firstByte": 0, "indexCount": 6, "topology": 0, "isTriStrip": 0, "triangleCount": 2,
            "firstVertex": 0, "vertexCount": 4, "localAABB": aabb(),
        }],
        "m_IndexFormat": 0,
        "m_IndexBuffer": index,
        "m_VertexData": vertex_data(version),
        "m_LocalAABB": aabb(),
        "m_IsReadable": true,
        "m_Vertices": POSITIONS.map(vec3),
        "m_Normals": NORMALS.map(vec3),
        "m_UV": UV0.map(|[x, y]| json!({"x": x, "y": y})),
    })
}

fn file_with(version: &str, class_id: i32, value: Value) -> SerializedFile {
    let bytes = serialized_file(
        version,
        &[Object {
            class_id,
            path_id: 7,
            value,
        }],
    );
    let file = SerializedFile::parse(bytes, None).expect("the fixture parses");
    assert_eq!(file.unity_version, version);
    file
}

fn decode(version: &str, value: Value, streams: &dyn StreamSource) -> Result<MeshData, MeshError> {
    let file = file_with(version, MESH, value);
    mesh::read(&file, file.object(7).unwrap(), streams)
}

fn assert_fixture(m: &MeshData, what: &str) {
    assert_eq!(m.positions, POSITIONS, "{what}");
    assert_eq!(m.normals, NORMALS, "{what}");
    assert_eq!(m.uv0, UV0, "{what}");
    assert_eq!(m.submeshes.len(), 1, "{what}");
    assert_eq!(m.submeshes[0].indices, TRIANGLES, "{what}");
    assert_eq!(m.bounds(), Some(m.local_aabb), "{what}");
    assert_eq!(
        m.local_aabb.to_array(),
        [0.0, 1.0, 1.5, 1.0, 1.0, 1.5],
        "{what}"
    );
}

#[test]
fn every_layout_from_unity_3_to_unity_6_decodes_the_same_mesh() {
    // 3.5.0's release tree is the old one with plain arrays; 4.3 stores its streams; 5.0 has
    // both stored streams and 8 channels; later versions compute the streams.
    for version in [
        "3.5.0f1",
        "4.3.0f1",
        "5.0.0f1",
        "5.6.0f1",
        "2017.4.0f1",
        "2018.4.0f1",
        "2019.4.0f1",
        "2020.3.34f1",
        "2022.3.29f1",
        "6000.0.58f2",
        "6000.2.0f1",
    ] {
        let m = decode(version, quad_mesh(version), &NoStreams)
            .unwrap_or_else(|e| panic!("{version}: {e}"));
        assert_fixture(&m, version);
    }
}

#[test]
fn vertex_data_in_a_ress_resource_is_read_through_the_stream_source() {
    for version in ["2018.4.0f1", "2020.3.34f1"] {
        let mut value = quad_mesh(version);
        let data = value["m_VertexData"]["m_DataSize"].take();
        let bytes: Vec<u8> = data
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b.as_u64().unwrap() as u8)
            .collect();
        value["m_VertexData"]["m_DataSize"] = json!([]);
        value["m_StreamData"] = json!({
            "offset": 16, "size": bytes.len(), "path": "archive:/CAB-fixture/CAB-fixture.resS",
        });
        let mut blob = vec![0xAB; 16];
        blob.extend(&bytes);
        let streams = MemoryStreams::from_entries([("CAB-fixture.resS", blob)]);
        assert_fixture(&decode(version, value.clone(), &streams).unwrap(), version);
        let missing = decode(version, value, &NoStreams).unwrap_err();
        assert!(matches!(missing, MeshError::Stream(_)), "{missing}");
    }
}

#[test]
fn thirty_two_bit_indices_follow_m_index_format() {
    let mut value = quad_mesh("2019.4.0f1");
    value["m_IndexFormat"] = json!(1);
    value["m_IndexBuffer"] = json!(le_bytes(TRIANGLES.map(u32::to_le_bytes)));
    assert_fixture(&decode("2019.4.0f1", value, &NoStreams).unwrap(), "u32");
}

/// Items packed least significant bit first.
fn packed(bits: usize, items: &[u32], start_range: Option<(f32, f32)>) -> Value {
    let mut data = vec![0u8; (items.len() * bits).div_ceil(8)];
    for (i, &item) in items.iter().enumerate() {
        for b in (0..bits).filter(|b| item >> b & 1 == 1) {
            data[(i * bits + b) / 8] |= 1 << ((i * bits + b) % 8);
        }
    }
    let mut v = json!({"m_NumItems": items.len(), "m_Data": data, "m_BitSize": bits});
    if let Some((start, range)) = start_range {
        v["m_Start"] = json!(start);
        v["m_Range"] = json!(range);
    }
    v
}

#[test]
fn compressed_meshes_decode_to_the_quantised_values() {
    // Positions on a 1/64 grid from −1 (10 bits), normals as (x, y) + sign of z, UV0 on a
    // 1/4 grid (3 bits), the index buffer in m_Triangles, a two-bone skin in 31sts.
    let positions: Vec<u32> = POSITIONS
        .iter()
        .flatten()
        .map(|&v| ((v + 1.0) * 64.0) as u32)
        .collect();
    let normal_xy: Vec<u32> = NORMALS
        .iter()
        .flat_map(|n| [n[0] as u32, n[1] as u32])
        .collect();
    let signs: Vec<u32> = NORMALS.iter().map(|n| u32::from(n[2] > 0.0)).collect();
    let uv: Vec<u32> = UV0.iter().flatten().map(|&v| (v * 4.0) as u32).collect();
    for version in ["5.6.0f1", "2019.4.0f1", "2022.3.29f1"] {
        let mut value = quad_mesh(version);
        value["m_MeshCompression"] = json!(2);
        value["m_IndexBuffer"] = json!([]);
        value["m_VertexData"] = json!({"m_VertexCount": 0});
        value["m_BindPose"] = json!([{}, {}]);
        value["m_CompressedMesh"] = json!({
            "m_Vertices": packed(10, &positions, Some((-1.0, 1023.0 / 64.0))),
            "m_UV": packed(3, &uv, Some((0.0, 7.0 / 4.0))),
            "m_UVInfo": 0b0101,
            "m_Normals": packed(1, &normal_xy, Some((0.0, 1.0))),
            "m_NormalSigns": packed(1, &signs, None),
            "m_Weights": packed(5, &[31, 10, 21, 31, 31], None),
            "m_BoneIndices": packed(1, &[1, 0, 1, 0, 1], None),
            "m_Triangles": packed(2, &TRIANGLES, None),
        });
        let m = decode(version, value, &NoStreams).unwrap_or_else(|e| panic!("{version}: {e}"));
        assert_fixture(&m, version);
        let skin: Vec<([u32; 4], [f32; 4])> = m.skin.iter().map(|w| (w.bones, w.weights)).collect();
        assert_eq!(
            skin[1],
            ([0, 1, 0, 0], [10.0 / 31.0, 21.0 / 31.0, 0.0, 0.0]),
            "{version}"
        );
        assert_eq!(skin[3], ([1, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]), "{version}");
    }
}

fn skin_fixture() -> [VertexWeights; 4] {
    let w = |bones: [u32; 4], weights: [f32; 4]| VertexWeights { bones, weights };
    [
        w([0, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
        w([1, 0, 0, 0], [0.75, 0.25, 0.0, 0.0]),
        w([2, 1, 0, 0], [0.5, 0.25, 0.125, 0.125]),
        w([2, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
    ]
}

fn identity() -> Value {
    json!({"e00": 1.0, "e11": 1.0, "e22": 1.0, "e33": 1.0})
}

#[test]
fn skins_read_the_same_from_m_skin_and_from_blend_channels() {
    // 2017.4: m_Skin entries.
    let mut old = quad_mesh("2017.4.0f1");
    old["m_Skin"] = json!(skin_fixture().map(|w| {
        let mut s = json!({});
        for k in 0..4 {
            s[format!("weight[{k}]")] = json!(w.weights[k]);
            s[format!("boneIndex[{k}]")] = json!(w.bones[k]);
        }
        s
    }));
    old["m_BindPose"] = json!([identity(), identity(), identity()]);
    let m = decode("2017.4.0f1", old, &NoStreams).unwrap();
    assert_eq!(m.skin, skin_fixture());

    let mut new = skinned_mesh();
    let m = decode("2020.3.34f1", new.clone(), &NoStreams).unwrap();
    assert_fixture(&m, "skinned 2020.3");
    assert_eq!(m.skin, skin_fixture());
    assert_eq!(m.bind_poses[1], mesh::matrix::IDENTITY);

    // A bone past the bind poses is an error.
    new["m_BindPose"] = json!([identity(), identity()]);
    let err = decode("2020.3.34f1", new, &NoStreams).unwrap_err();
    assert!(matches!(err, MeshError::Skin(_)), "{err}");
}

/// The fixture in 2020.3 with a four-bone skin: channel 12 (f32×4) and 13 (u32×4) after
/// position and normal in stream 0, and three identity bind poses.
fn skinned_mesh() -> Value {
    let mut new = quad_mesh("2020.3.34f1");
    let vd = &mut new["m_VertexData"];
    vd["m_Channels"][12] = json!({"stream": 0, "offset": 24, "format": 0, "dimension": 4});
    vd["m_Channels"][13] = json!({"stream": 0, "offset": 40, "format": 10, "dimension": 4});
    let mut data = Vec::new();
    for (v, w) in skin_fixture().iter().enumerate() {
        data.extend(le_bytes(POSITIONS[v].map(f32::to_le_bytes)));
        data.extend(le_bytes(NORMALS[v].map(f32::to_le_bytes)));
        data.extend(le_bytes(w.weights.map(f32::to_le_bytes)));
        data.extend(le_bytes(w.bones.map(u32::to_le_bytes)));
    }
    data.extend(le_bytes(UV0.iter().flatten().map(|&v| f16(v))));
    vd["m_DataSize"] = json!(data);
    new["m_BindPose"] = json!([identity(), identity(), identity()]);
    new
}

fn shape_vertex(index: u32, dy: f32) -> Value {
    json!({"vertex": vec3([0.0, dy, 0.0]), "normal": vec3([0.0, 0.0, dy]), "tangent": vec3([dy, 0.0, 0.0]), "index": index})
}

#[test]
fn multi_frame_blend_shapes_keep_their_frames_in_order() {
    let mut value = quad_mesh("2022.3.29f1");
    value["m_Shapes"] = json!({
        "vertices": [
            shape_vertex(2, 0.25), shape_vertex(2, 0.5), shape_vertex(3, -0.5),
            shape_vertex(2, 1.0), shape_vertex(3, -1.0), shape_vertex(0, 9.0),
        ],
        "shapes": [
            {"firstVertex": 0, "vertexCount": 1, "hasNormals": true, "hasTangents": true},
            {"firstVertex": 1, "vertexCount": 2, "hasNormals": true, "hasTangents": true},
            {"firstVertex": 3, "vertexCount": 2, "hasNormals": true, "hasTangents": true},
            {"firstVertex": 5, "vertexCount": 1, "hasNormals": false, "hasTangents": false},
        ],
        "channels": [
            {"name": "grow", "nameHash": 11, "frameIndex": 0, "frameCount": 3},
            {"name": "poke", "nameHash": 22, "frameIndex": 3, "frameCount": 1},
        ],
        "fullWeights": [25.0, 50.0, 100.0, 100.0],
    });
    let m = decode("2022.3.29f1", value.clone(), &NoStreams).unwrap();
    let grow = &m.blend_shapes[0];
    assert_eq!((grow.name.as_str(), grow.name_hash), ("grow", 11));
    let frames: Vec<(f32, Vec<(u32, f32)>)> = grow
        .frames
        .iter()
        .map(|f| {
            (
                f.weight,
                f.vertices
                    .iter()
                    .map(|d| (d.index, d.position[1]))
                    .collect(),
            )
        })
        .collect();
    assert_eq!(
        frames,
        [
            (25.0, vec![(2, 0.25)]),
            (50.0, vec![(2, 0.5), (3, -0.5)]),
            (100.0, vec![(2, 1.0), (3, -1.0)]),
        ]
    );
    let last = grow.frames[2].vertices[1];
    assert_eq!(
        (last.normal, last.tangent),
        ([0.0, 0.0, -1.0], [-1.0, 0.0, 0.0])
    );
    assert_eq!(
        m.blend_shapes[1].frames[0].vertices[0].position,
        [0.0, 9.0, 0.0]
    );

    value["m_Shapes"]["channels"][0]["frameCount"] = json!(5);
    let err = decode("2022.3.29f1", value, &NoStreams).unwrap_err();
    assert!(matches!(err, MeshError::BlendShapes(_)), "{err}");
}

#[test]
fn unity_4_named_shapes_become_one_frame_channels() {
    let mut value = quad_mesh("4.3.0f1");
    value["m_Shapes"] = json!([
        {"name": "blink", "firstVertex": 0, "vertexCount": 2, "hasNormals": true},
        {"name": "smile", "firstVertex": 2, "vertexCount": 1},
    ]);
    value["m_ShapeVertices"] = json!([
        shape_vertex(0, 1.0),
        shape_vertex(1, 2.0),
        shape_vertex(3, 3.0)
    ]);
    let m = decode("4.3.0f1", value, &NoStreams).unwrap();
    let names: Vec<(&str, u32, usize)> = m
        .blend_shapes
        .iter()
        .map(|c| (c.name.as_str(), c.name_hash, c.frames[0].vertices.len()))
        .collect();
    let crc = clipscope_core::hash::attribute_hash;
    assert_eq!(
        names,
        [("blink", crc("blink"), 2), ("smile", crc("smile"), 1)]
    );
    assert_eq!(m.blend_shapes[1].frames[0].weight, 100.0);
    assert_eq!(m.blend_shapes[1].frames[0].vertices[0].index, 3);
}

#[test]
fn strips_and_quads_become_triangle_lists() {
    let mut value = quad_mesh("2019.4.0f1");
    value["m_IndexBuffer"] = json!(le_bytes([0u16, 1, 2, 3, 0, 1, 2, 3].map(u16::to_le_bytes)));
    value["m_SubMeshes"] = json!([
        {"firstByte": 0, "indexCount": 4, "topology": 1, "vertexCount": 4},
        {"firstByte": 8, "indexCount": 4, "topology": 2, "vertexCount": 4},
    ]);
    let m = decode("2019.4.0f1", value, &NoStreams).unwrap();
    assert_eq!(m.submeshes[0].topology, Topology::TriangleStrip);
    assert_eq!(m.submeshes[0].indices, [0, 1, 2, 2, 1, 3]);
    assert_eq!(m.submeshes[1].indices, [0, 1, 2, 0, 2, 3]);
}

#[test]
fn malformed_meshes_are_errors_not_panics() {
    let version = "2022.3.29f1";
    let mut past = quad_mesh(version);
    past["m_IndexBuffer"] = json!(le_bytes([0u16, 1, 4].map(u16::to_le_bytes)));
    past["m_SubMeshes"][0]["indexCount"] = json!(3);
    let err = decode(version, past, &NoStreams).unwrap_err();
    assert!(err.to_string().contains("past the 4 vertices"), "{err}");

    let mut huge = quad_mesh(version);
    huge["m_VertexData"]["m_VertexCount"] = json!(4_000_000_000u32);
    let err = decode(version, huge, &NoStreams).unwrap_err();
    assert!(matches!(err, MeshError::VertexData(_)), "{err}");

    let mut long = quad_mesh(version);
    long["m_SubMeshes"][0]["indexCount"] = json!(u32::MAX);
    let err = decode(version, long, &NoStreams).unwrap_err();
    assert!(
        matches!(err, MeshError::SubMesh { submesh: 0, .. }),
        "{err}"
    );

    let mut shapes = quad_mesh(version);
    shapes["m_Shapes"] = json!({"vertices": [], "shapes": [{"firstVertex": 0, "vertexCount": 1_000_000}],
        "channels": [{"name": "x", "frameIndex": 0, "frameCount": 1}], "fullWeights": [100.0]});
    let err = decode(version, shapes, &NoStreams).unwrap_err();
    assert!(matches!(err, MeshError::BlendShapes(_)), "{err}");

    let mut stream = quad_mesh(version);
    stream["m_VertexData"]["m_DataSize"] = json!([]);
    stream["m_StreamData"] = json!({"offset": u64::MAX - 4, "size": 112, "path": "a.resS"});
    let streams = MemoryStreams::from_entries([("a.resS", vec![0u8; 200])]);
    let err = decode(version, stream, &streams).unwrap_err();
    assert!(matches!(err, MeshError::Stream(_)), "{err}");
}

#[test]
fn renderers_of_unity_4_keep_subset_indices_and_bones() {
    let value = json!({
        "m_GameObject": {"m_FileID": 0, "m_PathID": 3},
        "m_Enabled": true,
        "m_Materials": [{"m_PathID": 11}, {"m_PathID": 12}],
        "m_SubsetIndices": [2, 3],
        "m_Mesh": {"m_PathID": 9},
        "m_Bones": [{"m_PathID": 5}, {"m_PathID": 6}],
        "m_RootBone": {"m_PathID": 5},
        "m_AABB": aabb(),
    });
    let file = file_with("4.3.0f1", 137, value);
    let smr = mesh::renderer::read_skinned(&file, file.object(7).unwrap()).unwrap();
    assert_eq!(smr.mesh.path_id(), 9);
    let bones: Vec<i64> = smr.bones.iter().map(|b| b.path_id()).collect();
    assert_eq!(bones, [5, 6]);
    assert_eq!(smr.root_bone.map(|b| b.path_id()), Some(5));
    assert_eq!(smr.materials.len(), 2);
    assert_eq!((smr.submesh_of(0), smr.submesh_of(1)), (2, 3));
    assert!(smr.enabled && smr.blend_shape_weights.is_empty());
    assert_eq!(smr.bounds.extent, [1.0, 1.0, 1.5]);
}

#[test]
fn statically_batched_renderers_draw_their_range_of_the_combined_mesh() {
    let value = json!({
        "m_GameObject": {"m_PathID": 3},
        "m_Enabled": 1,
        "m_Materials": [{"m_PathID": 11}, {"m_PathID": 12}],
        "m_StaticBatchInfo": {"firstSubMesh": 4, "subMeshCount": 2},
        "m_Mesh": {"m_PathID": 9},
        "m_Bones": [{"m_PathID": 5}],
        "m_BlendShapeWeights": [30.0, 0.0],
        "m_RootBone": {"m_PathID": 5},
        "m_AABB": aabb(),
    });
    let file = file_with("2022.3.29f1", 137, value);
    let smr = mesh::renderer::read_skinned(&file, file.object(7).unwrap()).unwrap();
    assert_eq!((smr.submesh_of(0), smr.submesh_of(1)), (4, 5));
    assert_eq!(smr.blend_shape_weights, [30.0, 0.0]);
    assert_eq!(smr.game_object.path_id(), 3);
}

mod damaged {
    use super::*;
    use proptest::prelude::*;

    /// A 2020.3 file with a skinned, blend-shaped mesh, and the length of its object data
    /// (the file's tail).
    fn skinned_file() -> (Vec<u8>, usize) {
        let version = "2020.3.34f1";
        let mut value = skinned_mesh();
        value["m_Shapes"] = json!({
            "vertices": [shape_vertex(1, 1.0)],
            "shapes": [{"firstVertex": 0, "vertexCount": 1}],
            "channels": [{"name": "a", "frameIndex": 0, "frameCount": 1}],
            "fullWeights": [100.0],
        });
        let tree = unity_writer::tree(MESH, version);
        let object_len = unity_writer::object_bytes(&tree, &value).len();
        let file = serialized_file(
            version,
            &[Object {
                class_id: MESH,
                path_id: 7,
                value,
            }],
        );
        (file, object_len)
    }

    #[test]
    fn the_undamaged_file_decodes() {
        let file = SerializedFile::parse(skinned_file().0, None).unwrap();
        let m = mesh::read(&file, file.object(7).unwrap(), &NoStreams).unwrap();
        assert_fixture(&m, "undamaged");
        assert_eq!((m.skin.len(), m.blend_shapes.len()), (4, 1));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn damaged_mesh_objects_decode_or_fail_without_panicking(
            edits in proptest::collection::vec((any::<u16>(), any::<u8>()), 1..8)
        ) {
            let (mut bytes, object_len) = skinned_file();
            let start = bytes.len() - object_len;
            for (at, value) in edits {
                let at = start + at as usize % object_len;
                bytes[at] = value;
            }
            if let Ok(file) = SerializedFile::parse(bytes, None) {
                for info in &file.objects {
                    if let Ok(m) = mesh::read(&file, info, &NoStreams) {
                        let n = m.vertex_count() as u32;
                        prop_assert!(m.submeshes.iter().flat_map(|s| &s.indices).all(|&i| i < n));
                        let _ = mesh::skin_positions(&m, &[]);
                        let _ = mesh::posed_bounds(&m, &[]);
                    }
                }
            }
        }
    }
}
