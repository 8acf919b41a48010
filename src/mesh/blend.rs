//! Blend shapes: `BlendShapeData` (5.0+: channels → frames → sparse vertices) and the named
//! shapes of 4.x (one frame each), every range and vertex index checked (`mesh.md` §2.6).

use super::{BlendShapeChannel, BlendShapeDelta, BlendShapeFrame, MeshError};
use crate::hash::attribute_hash;
use crate::unity::Int;
use crate::unity::mesh::{BlendShapeData, BlendShapeVertex, Mesh, Shapes};

fn bad(detail: impl Into<String>) -> MeshError {
    MeshError::BlendShapes(detail.into())
}

pub(super) fn channels(
    mesh: &Mesh,
    vertex_count: usize,
) -> Result<Vec<BlendShapeChannel>, MeshError> {
    match &mesh.m_Shapes {
        None => Ok(Vec::new()),
        Some(Shapes::Data(data)) => from_data(data, vertex_count),
        Some(Shapes::Named(shapes)) => shapes
            .iter()
            .map(|s| {
                let vertices = deltas(
                    &mesh.m_ShapeVertices,
                    s.firstVertex,
                    s.vertexCount,
                    vertex_count,
                )?;
                Ok(BlendShapeChannel {
                    name: s.name.clone(),
                    name_hash: attribute_hash(&s.name),
                    frames: vec![BlendShapeFrame {
                        weight: 100.0,
                        vertices,
                    }],
                })
            })
            .collect(),
    }
}

fn from_data(
    data: &BlendShapeData,
    vertex_count: usize,
) -> Result<Vec<BlendShapeChannel>, MeshError> {
    data.channels
        .iter()
        .map(|ch| {
            let first = usize::try_from(ch.frameIndex.0).ok();
            let count = usize::try_from(ch.frameCount.0).ok();
            let frames = first
                .zip(count)
                .and_then(|(f, n)| Some(f..f.checked_add(n)?))
                .filter(|r| r.end <= data.shapes.len() && r.end <= data.fullWeights.len())
                .ok_or_else(|| {
                    bad(format!(
                        "channel {:?}: frames {}+{} outside the {} stored",
                        ch.name,
                        ch.frameIndex.0,
                        ch.frameCount.0,
                        data.shapes.len().min(data.fullWeights.len())
                    ))
                })?;
            let frames = frames
                .map(|f| {
                    let shape = &data.shapes[f];
                    Ok(BlendShapeFrame {
                        weight: data.fullWeights[f],
                        vertices: deltas(
                            &data.vertices,
                            shape.firstVertex,
                            shape.vertexCount,
                            vertex_count,
                        )?,
                    })
                })
                .collect::<Result<_, MeshError>>()?;
            Ok(BlendShapeChannel {
                name: ch.name.clone(),
                name_hash: ch.nameHash,
                frames,
            })
        })
        .collect()
}

/// `vertices[first .. first + count]`, each naming a mesh vertex.
fn deltas(
    vertices: &[BlendShapeVertex],
    first: Int,
    count: Int,
    vertex_count: usize,
) -> Result<Vec<BlendShapeDelta>, MeshError> {
    let range = usize::try_from(first.0)
        .ok()
        .zip(usize::try_from(count.0).ok())
        .and_then(|(f, n)| Some(f..f.checked_add(n)?))
        .filter(|r| r.end <= vertices.len())
        .ok_or_else(|| {
            bad(format!(
                "shape vertices {}+{} outside the {} stored",
                first.0,
                count.0,
                vertices.len()
            ))
        })?;
    vertices[range]
        .iter()
        .map(|v| {
            let index = u32::try_from(v.index.0)
                .ok()
                .filter(|&i| (i as usize) < vertex_count)
                .ok_or_else(|| {
                    bad(format!(
                        "shape vertex index {} is past the {vertex_count} vertices",
                        v.index.0
                    ))
                })?;
            Ok(BlendShapeDelta {
                index,
                position: v.vertex.to_array(),
                normal: v.normal.to_array(),
                tangent: v.tangent.to_array(),
            })
        })
        .collect()
}
