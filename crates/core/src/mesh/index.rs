//! The index buffer and sub-meshes: 16- or 32-bit indices, triangles, strips and quads,
//! `baseVertex` applied, every index checked against the vertex count (`mesh.md` §2.2).

use super::{MeshError, SubMeshData, Topology};
use crate::binary::Endian;
use crate::unity::mesh::{Mesh, SubMesh};

/// Bytes per stored index: 4 when `m_IndexFormat` is 1 (2017.3+) or `m_Use16BitIndices` is 0
/// (3.4 and older), else 2.
pub(super) fn index_size(mesh: &Mesh) -> usize {
    let wide = mesh.m_IndexFormat.is_some_and(|f| f.0 == 1)
        || mesh.m_Use16BitIndices.is_some_and(|f| f.0 == 0);
    if wide { 4 } else { 2 }
}

/// The raw index buffer as integers in the file's byte order (a trailing partial index is
/// dropped).
pub(super) fn index_buffer(mesh: &Mesh, endian: Endian) -> Vec<u32> {
    let bytes = &mesh.m_IndexBuffer;
    let big = endian == Endian::Big;
    match index_size(mesh) {
        4 => bytes
            .chunks_exact(4)
            .map(|b| {
                let b = [b[0], b[1], b[2], b[3]];
                if big {
                    u32::from_be_bytes(b)
                } else {
                    u32::from_le_bytes(b)
                }
            })
            .collect(),
        _ => bytes
            .chunks_exact(2)
            .map(|b| {
                let b = [b[0], b[1]];
                u32::from(if big {
                    u16::from_be_bytes(b)
                } else {
                    u16::from_le_bytes(b)
                })
            })
            .collect(),
    }
}

/// Every sub-mesh as a triangle list over `indices` (the decoded index buffer).
pub(super) fn submeshes(
    mesh: &Mesh,
    indices: &[u32],
    vertex_count: usize,
) -> Result<Vec<SubMeshData>, MeshError> {
    let size = index_size(mesh) as u64;
    mesh.m_SubMeshes
        .iter()
        .enumerate()
        .map(|(i, sm)| {
            submesh(sm, indices, size, vertex_count)
                .map_err(|detail| MeshError::SubMesh { submesh: i, detail })
        })
        .collect()
}

fn topology(sm: &SubMesh) -> Result<Topology, String> {
    if let Some(strip) = sm.isTriStrip {
        // Unity < 4: any non-zero value is a strip (3.5 writes 2).
        return Ok(if strip.0 != 0 {
            Topology::TriangleStrip
        } else {
            Topology::Triangles
        });
    }
    Ok(match sm.topology.map_or(0, |t| t.0) {
        0 => Topology::Triangles,
        1 => Topology::TriangleStrip,
        2 => Topology::Quads,
        3 => Topology::Lines,
        4 => Topology::LineStrip,
        5 => Topology::Points,
        other => return Err(format!("unknown topology {other}")),
    })
}

fn submesh(
    sm: &SubMesh,
    indices: &[u32],
    index_size: u64,
    vertex_count: usize,
) -> Result<SubMeshData, String> {
    let topology = topology(sm)?;
    let first =
        u64::try_from(sm.firstByte.0).map_err(|_| "negative firstByte".to_string())? / index_size;
    let count = u64::try_from(sm.indexCount.0).map_err(|_| "negative indexCount".to_string())?;
    let range = first
        .checked_add(count)
        .filter(|&end| end <= indices.len() as u64)
        .map(|end| first as usize..end as usize)
        .ok_or_else(|| {
            format!(
                "indices {first}..{first}+{count} lie outside the {} stored",
                indices.len()
            )
        })?;
    let stored = &indices[range];
    let triangles = match topology {
        Topology::Triangles => stored.chunks_exact(3).flatten().copied().collect(),
        Topology::TriangleStrip => strip(stored),
        Topology::Quads => stored
            .chunks_exact(4)
            .flat_map(|q| [q[0], q[1], q[2], q[0], q[2], q[3]])
            .collect(),
        Topology::Lines | Topology::LineStrip | Topology::Points => Vec::new(),
    };
    let base = sm.baseVertex.map_or(0, |b| b.u32());
    let indices = triangles
        .into_iter()
        .map(|i| {
            i.checked_add(base)
                .filter(|&v| (v as usize) < vertex_count)
                .ok_or_else(|| {
                    format!("index {i} + base vertex {base} is past the {vertex_count} vertices")
                })
        })
        .collect::<Result<Vec<u32>, String>>()?;
    Ok(SubMeshData {
        topology,
        index_count: count as u32,
        first_vertex: sm.firstVertex.u32(),
        vertex_count: sm.vertexCount.u32(),
        indices,
    })
}

/// A triangle strip as a list: degenerate triangles are skipped, every odd one swaps its first
/// two corners to keep the winding.
fn strip(stored: &[u32]) -> Vec<u32> {
    let mut out = Vec::new();
    for (i, w) in stored.windows(3).enumerate() {
        let (a, b, c) = (w[0], w[1], w[2]);
        if a == b || a == c || b == c {
            continue;
        }
        if i % 2 == 1 {
            out.extend([b, a, c]);
        } else {
            out.extend([a, b, c]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unity::Int;

    fn sub(first_byte: i64, count: i64, topology: i64) -> SubMesh {
        SubMesh {
            firstByte: Int(first_byte),
            indexCount: Int(count),
            topology: Some(Int(topology)),
            ..SubMesh::default()
        }
    }

    #[test]
    fn strips_skip_degenerates_and_flip_odd_triangles() {
        // 0 1 2 3 3 4 5: triangles (0,1,2) (2,1,3) [3 degenerate ones] (3,4,5) at even i = 4.
        assert_eq!(strip(&[0, 1, 2, 3, 3, 4, 5]), [0, 1, 2, 2, 1, 3, 3, 4, 5]);
    }

    #[test]
    fn first_byte_counts_in_index_size_and_base_vertex_is_added() {
        let indices = [9, 9, 0, 1, 2];
        let mut sm = sub(4, 3, 0);
        sm.baseVertex = Some(Int(2));
        let out = submesh(&sm, &indices, 2, 5).unwrap();
        assert_eq!(out.indices, [2, 3, 4]);
        assert!(
            submesh(&sm, &indices, 2, 4).is_err(),
            "4 + base 2 is past 4 vertices"
        );
        let wide = submesh(&sub(8, 3, 0), &indices, 4, 10).unwrap();
        assert_eq!(wide.indices, [0, 1, 2]);
    }

    #[test]
    fn quads_split_into_two_triangles_and_lines_are_skipped() {
        let quads = submesh(&sub(0, 4, 2), &[0, 1, 2, 3], 2, 4).unwrap();
        assert_eq!(quads.indices, [0, 1, 2, 0, 2, 3]);
        let lines = submesh(&sub(0, 4, 3), &[0, 1, 2, 3], 2, 4).unwrap();
        assert_eq!((lines.topology, lines.indices.len()), (Topology::Lines, 0));
    }

    #[test]
    fn ranges_past_the_buffer_and_bad_topologies_are_errors() {
        assert!(submesh(&sub(2, 3, 0), &[0, 1, 2], 2, 3).is_err());
        assert!(submesh(&sub(0, i64::MAX, 0), &[0, 1, 2], 2, 3).is_err());
        assert!(submesh(&sub(0, 3, 9), &[0, 1, 2], 2, 3).is_err());
        assert!(submesh(&sub(-2, 3, 0), &[0, 1, 2], 2, 3).is_err());
    }
}
