//! Turns [`RendererSpec`]s into the objects that draw a cube: a Mesh, a MeshFilter, a
//! MeshRenderer and a Material each, as values for [`super::tree`] (these classes have dozens
//! of fields a fixture leaves at Unity's zero).

use rabex::objects::pptr::PathId;
use serde_json::{Value, json};

use super::spec::RendererSpec;

/// Unity's class ids of the four objects, in the order of [`RendererObjects::objects`].
pub(crate) const CLASSES: [i32; 4] = [MESH, MESH_FILTER, MESH_RENDERER, MATERIAL];
const MESH: i32 = 43;
const MESH_FILTER: i32 = 33;
const MESH_RENDERER: i32 = 23;
const MATERIAL: i32 = 21;

/// The path ids of one renderer's objects, in [`CLASSES`] order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RendererIds {
    pub mesh: PathId,
    pub filter: PathId,
    pub renderer: PathId,
    pub material: PathId,
}

impl RendererIds {
    /// The four ids counting from `first`.
    pub(crate) fn from(first: PathId) -> Self {
        RendererIds {
            mesh: first,
            filter: first + 1,
            renderer: first + 2,
            material: first + 3,
        }
    }
}

/// The values of one renderer's objects, each with its class and path id.
pub(crate) fn objects(
    spec: &RendererSpec,
    game_object: PathId,
    ids: RendererIds,
) -> [(i32, PathId, Value); 4] {
    [
        (MESH, ids.mesh, cube_mesh(&spec.name, spec.size)),
        (
            MESH_FILTER,
            ids.filter,
            json!({"m_GameObject": pptr(game_object), "m_Mesh": pptr(ids.mesh)}),
        ),
        (
            MESH_RENDERER,
            ids.renderer,
            mesh_renderer(spec.enabled, game_object, ids.material),
        ),
        (MATERIAL, ids.material, material(spec)),
    ]
}

fn pptr(path_id: PathId) -> Value {
    json!({"m_FileID": 0, "m_PathID": path_id})
}

/// A MeshRenderer drawing one material, with the flags Unity sets on a new one.
fn mesh_renderer(enabled: bool, game_object: PathId, material: PathId) -> Value {
    json!({
        "m_GameObject": pptr(game_object),
        "m_Enabled": u8::from(enabled),
        "m_CastShadows": 1,
        "m_ReceiveShadows": 1,
        "m_DynamicOccludee": 1,
        "m_MotionVectors": 1,
        "m_LightProbeUsage": 1,
        "m_ReflectionProbeUsage": 1,
        "m_RayTracingMode": 2,
        "m_RenderingLayerMask": 1,
        "m_LightmapIndex": 0xffff,
        "m_LightmapIndexDynamic": 0xffff,
        "m_LightmapTilingOffset": {"x": 1.0, "y": 1.0, "z": 0.0, "w": 0.0},
        "m_LightmapTilingOffsetDynamic": {"x": 1.0, "y": 1.0, "z": 0.0, "w": 0.0},
        "m_Materials": [pptr(material)],
        "m_ScaleInLightmap": 1.0,
        "m_AutoUVMaxDistance": 0.5,
        "m_AutoUVMaxAngle": 89.0,
    })
}

/// A Material with no shader whose `_Color` is the spec's colour, followed by its further
/// floats and colours.
fn material(spec: &RendererSpec) -> Value {
    let rgba = |[r, g, b, a]: [f32; 4]| json!({"r": r, "g": g, "b": b, "a": a});
    let colors: Vec<Value> = std::iter::once(("_Color", spec.color))
        .chain(spec.colors.iter().map(|(n, c)| (n.as_str(), *c)))
        .map(|(n, c)| json!([n, rgba(c)]))
        .collect();
    let floats: Vec<Value> = spec.floats.iter().map(|(n, v)| json!([n, v])).collect();
    json!({
        "m_Name": spec.name,
        "m_CustomRenderQueue": -1,
        "m_SavedProperties": {
            "m_TexEnvs": [],
            "m_Floats": floats,
            "m_Colors": colors,
        },
    })
}

/// The cube's 24 vertices (four per face, so each face has its own normal) and 36 indices,
/// wound clockwise seen from outside (Unity's front faces).
pub(crate) fn cube(size: f32) -> (Vec<[f32; 3]>, Vec<[f32; 3]>, Vec<u16>) {
    let h = size / 2.0;
    let (mut positions, mut normals, mut indices) = (Vec::new(), Vec::new(), Vec::new());
    for axis in 0..3 {
        for sign in [1.0f32, -1.0] {
            let unit = |k: usize| -> [f32; 3] { std::array::from_fn(|i| f32::from(i == k)) };
            let (n, u, v) = (unit(axis), unit((axis + 1) % 3), unit((axis + 2) % 3));
            let first = positions.len() as u16;
            for (a, b) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                positions.push(std::array::from_fn(|i| {
                    h * (sign * n[i] + a * u[i] + b * v[i])
                }));
                normals.push(n.map(|c| sign * c));
            }
            // Corners run counter-clockwise about `n` (u × v = n), which in Unity's
            // left-handed space is clockwise seen from the side `n` points to.
            let quad: [u16; 6] = if sign > 0.0 {
                [0, 1, 2, 0, 2, 3]
            } else {
                [0, 2, 1, 0, 3, 2]
            };
            indices.extend(quad.map(|i| first + i));
        }
    }
    (positions, normals, indices)
}

/// A Mesh of [`cube`]: positions and normals (f32 × 3) interleaved in stream 0, 16-bit
/// indices, one sub-mesh (the 2018.1+ layout of 14 channels, which 2020.3 and Unity 6 share).
fn cube_mesh(name: &str, size: f32) -> Value {
    let (positions, normals, indices) = cube(size);
    let mut vertex_bytes = Vec::new();
    for (p, n) in positions.iter().zip(&normals) {
        for c in p.iter().chain(n) {
            vertex_bytes.extend(c.to_le_bytes());
        }
    }
    let index_bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
    let mut channels = vec![json!({}); 14];
    channels[0] = json!({"stream": 0, "offset": 0, "format": 0, "dimension": 3});
    channels[1] = json!({"stream": 0, "offset": 12, "format": 0, "dimension": 3});
    let h = size / 2.0;
    let aabb = json!({
        "m_Center": {"x": 0.0, "y": 0.0, "z": 0.0},
        "m_Extent": {"x": h, "y": h, "z": h},
    });
    json!({
        "m_Name": name,
        "m_SubMeshes": [{
            "firstByte": 0, "indexCount": indices.len(), "topology": 0, "baseVertex": 0,
            "firstVertex": 0, "vertexCount": positions.len(), "localAABB": aabb,
        }],
        "m_IsReadable": true,
        "m_KeepVertices": true,
        "m_KeepIndices": true,
        "m_IndexFormat": 0,
        "m_IndexBuffer": index_bytes,
        "m_VertexData": {
            "m_VertexCount": positions.len(),
            "m_Channels": channels,
            "m_DataSize": vertex_bytes,
        },
        "m_LocalAABB": aabb,
        "m_MeshUsageFlags": 0,
    })
}
