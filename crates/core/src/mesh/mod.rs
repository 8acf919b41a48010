//! Meshes (class 43) decoded into plain vertex and index arrays, in Unity's own space.
//!
//! Every layout from Unity 3.x to Unity 6 (`mesh.md` §2): the plain arrays of 3.4, the fixed
//! streams of 3.5, the serialised streams of 4.x, the computed streams of 5.0+, vertex data in
//! a `.resS` resource (through a [`StreamSource`]), compressed meshes, both skin forms, bind
//! poses and blend shapes. Nothing is mirrored or re-wound here: positions, normals and
//! tangents are Unity's left-handed values, triangles keep Unity's (clockwise) winding, and
//! UVs are as stored. Every count is checked against the bytes behind it before anything is
//! allocated, and every index against the vertex count.
//!
//! Also here: the renderers that draw meshes ([`renderer`]), the built-in meshes of `unity
//! default resources` ([`builtin`]), and Unity's skinning formula ([`skin_positions`]).

mod blend;
mod builtin;
mod compressed;
mod format;
mod index;
pub mod matrix;
mod packed;
pub mod renderer;
mod skin;
mod vertex;

use crate::binary::Endian;
use crate::resource::{ResourceError, StreamSource};
use crate::serialized::{ObjectInfo, SerializedError, SerializedFile};
use crate::unity;

pub use blend::blend_positions;
pub use builtin::{BUILTIN_MESHES, builtin, is_default_resources};
pub use matrix::Mat4;
pub use skin::{posed_bounds, posed_points, skin_positions};

/// A decoded mesh, in Unity's space and winding.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshData {
    pub name: String,
    pub positions: Vec<[f32; 3]>,
    /// Empty when the mesh has none.
    pub normals: Vec<[f32; 3]>,
    /// xyz and the bitangent sign w; empty when the mesh has none.
    pub tangents: Vec<[f32; 4]>,
    /// First UV set as stored (v = 0 is the bottom of the image); empty when absent.
    pub uv0: Vec<[f32; 2]>,
    /// Second UV set (usually lightmap UVs); empty when absent.
    pub uv1: Vec<[f32; 2]>,
    /// Vertex colours, 0–1; empty when absent.
    pub colors: Vec<[f32; 4]>,
    pub submeshes: Vec<SubMeshData>,
    /// Per vertex, up to four bone influences; empty for a mesh without a skin.
    pub skin: Vec<VertexWeights>,
    /// Mesh space → bone space, one per bone, row-major as stored ([`matrix`]).
    pub bind_poses: Vec<Mat4>,
    /// CRC-32 of each bone's path under the model root.
    pub bone_name_hashes: Vec<u32>,
    pub root_bone_name_hash: u32,
    /// Per bone, the box around its vertices in the bone's space (`m_BonesAABB`, 2019.1+;
    /// `None` for a bone no vertex uses). Empty for older files.
    pub bone_bounds: Vec<Option<Aabb>>,
    pub blend_shapes: Vec<BlendShapeChannel>,
    /// The bounds Unity stored (`m_LocalAABB`).
    pub local_aabb: Aabb,
}

/// One sub-mesh: the triangles drawn with material `i`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SubMeshData {
    pub topology: Topology,
    /// `indexCount` as stored (strip or quad indices count as stored).
    pub index_count: u32,
    /// The vertex range the sub-mesh uses (`firstVertex`, `vertexCount`).
    pub first_vertex: u32,
    pub vertex_count: u32,
    /// A triangle list of absolute vertex indices (`baseVertex` applied), Unity's winding;
    /// empty for lines and points.
    pub indices: Vec<u32>,
}

/// `MeshTopology`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Topology {
    #[default]
    Triangles,
    TriangleStrip,
    Quads,
    Lines,
    LineStrip,
    Points,
}

/// Four bone influences of one vertex; unused slots have weight 0.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct VertexWeights {
    pub bones: [u32; 4],
    pub weights: [f32; 4],
}

/// A blend-shape channel (what a clip's blend-shape curve drives).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BlendShapeChannel {
    pub name: String,
    /// CRC-32 of `name`: the attribute a clip binds the channel by.
    pub name_hash: u32,
    /// In increasing weight; a one-frame channel has one frame at weight 100.
    pub frames: Vec<BlendShapeFrame>,
}

/// The full deltas of a channel at `weight` (0–100).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BlendShapeFrame {
    pub weight: f32,
    /// Sparse: only the vertices the frame moves.
    pub vertices: Vec<BlendShapeDelta>,
}

/// One vertex's deltas in one frame, in mesh space.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BlendShapeDelta {
    pub index: u32,
    pub position: [f32; 3],
    pub normal: [f32; 3],
    pub tangent: [f32; 3],
}

/// An axis-aligned box as Unity stores one: centre and half-extents.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Aabb {
    pub center: [f32; 3],
    pub extent: [f32; 3],
}

impl Aabb {
    /// The smallest box around `points`, or `None` when there are none or one is not finite.
    pub fn around<'a>(points: impl IntoIterator<Item = &'a [f32; 3]>) -> Option<Aabb> {
        let mut min = [f32::INFINITY; 3];
        let mut max = [f32::NEG_INFINITY; 3];
        for p in points {
            if !p.iter().all(|c| c.is_finite()) {
                return None;
            }
            for k in 0..3 {
                min[k] = min[k].min(p[k]);
                max[k] = max[k].max(p[k]);
            }
        }
        (min[0] <= max[0]).then(|| Aabb {
            center: std::array::from_fn(|k| (min[k] + max[k]) * 0.5),
            extent: std::array::from_fn(|k| (max[k] - min[k]) * 0.5),
        })
    }

    /// `[cx, cy, cz, ex, ey, ez]`.
    pub fn to_array(&self) -> [f32; 6] {
        let [cx, cy, cz] = self.center;
        let [ex, ey, ez] = self.extent;
        [cx, cy, cz, ex, ey, ez]
    }

    /// A min/max box; `None` when it is empty (Unity stores +∞/−∞) or not finite.
    fn from_min_max(b: &unity::mesh::MinMaxAabb) -> Option<Aabb> {
        let (lo, hi) = (b.m_Min.to_array(), b.m_Max.to_array());
        Aabb::around(&[lo, hi]).filter(|_| (0..3).all(|k| lo[k] <= hi[k]))
    }

    /// The eight corners.
    pub fn corners(&self) -> [[f32; 3]; 8] {
        let (c, e) = (self.center, self.extent);
        std::array::from_fn(|i| {
            std::array::from_fn(|k| {
                if i >> k & 1 == 0 {
                    c[k] - e[k]
                } else {
                    c[k] + e[k]
                }
            })
        })
    }

    fn from_unity(a: &unity::math::Aabb) -> Aabb {
        Aabb {
            center: a.m_Center.to_array(),
            extent: a.m_Extent.to_array(),
        }
    }
}

impl MeshData {
    /// Centre and half-extent of the decoded positions; `None` for a mesh without vertices.
    pub fn bounds(&self) -> Option<Aabb> {
        Aabb::around(&self.positions)
    }

    /// The number of vertices (decoded positions).
    pub fn vertex_count(&self) -> usize {
        self.positions.len()
    }

    /// True when the mesh carries per-vertex bone weights.
    pub fn is_skinned(&self) -> bool {
        !self.skin.is_empty()
    }
}

/// Why a mesh could not be decoded.
#[derive(Debug, thiserror::Error)]
pub enum MeshError {
    #[error("reading the object: {0}")]
    Read(#[from] SerializedError),
    #[error("vertex data in a resource: {0}")]
    Stream(#[from] ResourceError),
    #[error("vertex data: {0}")]
    VertexData(String),
    #[error("compressed mesh: {0}")]
    Compressed(String),
    #[error("sub-mesh {submesh}: {detail}")]
    SubMesh { submesh: usize, detail: String },
    #[error("skin: {0}")]
    Skin(String),
    #[error("blend shapes: {0}")]
    BlendShapes(String),
}

/// What decoding needs to know about the file a mesh came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Unity major and minor version (e.g. `(2019, 4)`, `(5, 6)`).
    pub version: (u16, u16),
    /// Byte order of multi-byte vertex components.
    pub endian: Endian,
}

impl Layout {
    /// The layout rules of `file`: its Unity version (which decides the mesh layout) and byte order.
    pub fn of(file: &SerializedFile) -> Layout {
        Layout {
            version: (file.effective_version.major, file.effective_version.minor),
            endian: file.endian,
        }
    }

    fn at_least(&self, major: u16, minor: u16) -> bool {
        self.version >= (major, minor)
    }
}

/// Reads and decodes the Mesh object `info` of `file`, taking external vertex data from
/// `streams`.
pub fn read(
    file: &SerializedFile,
    info: &ObjectInfo,
    streams: &dyn StreamSource,
) -> Result<MeshData, MeshError> {
    let mesh: unity::mesh::Mesh = file.read(info)?;
    decode(&mesh, Layout::of(file), streams)
}

/// Decodes a Mesh read from a file with `layout`.
pub fn decode(
    mesh: &unity::mesh::Mesh,
    layout: Layout,
    streams: &dyn StreamSource,
) -> Result<MeshData, MeshError> {
    let mut vertices = vertex::decode(mesh, layout, streams)?;
    let mut indices = index::index_buffer(mesh, layout.endian);
    let mut bind_poses: Vec<Mat4> = mesh.m_BindPose.iter().map(|m| m.to_rows()).collect();
    if let Some(cm) = &mesh.m_CompressedMesh {
        compressed::apply(cm, layout, &mut vertices, &mut indices, &mut bind_poses)?;
    }
    let submeshes = index::submeshes(mesh, &indices, vertices.count)?;
    let skin = skin::weights(mesh, &vertices, bind_poses.len())?;
    let blend_shapes = blend::channels(mesh, vertices.count)?;
    Ok(MeshData {
        name: mesh.m_Name.clone(),
        positions: vertices.positions,
        normals: vertices.normals,
        tangents: vertices.tangents,
        uv0: vertices.uv0,
        uv1: vertices.uv1,
        colors: vertices.colors,
        submeshes,
        skin,
        bind_poses,
        bone_name_hashes: mesh.m_BoneNameHashes.clone(),
        root_bone_name_hash: mesh.m_RootBoneNameHash.map_or(0, |h| h.u32()),
        bone_bounds: mesh.m_BonesAABB.iter().map(Aabb::from_min_max).collect(),
        blend_shapes,
        local_aabb: Aabb::from_unity(&mesh.m_LocalAABB),
    })
}

#[cfg(test)]
mod tests;
