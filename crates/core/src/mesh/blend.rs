//! Blend shapes: `BlendShapeData` (5.0+: channels → frames → sparse vertices) and the named
//! shapes of 4.x (one frame each), every range and vertex index checked (`mesh.md` §2.6); and
//! their evaluation at a channel weight.

use super::{BlendShapeChannel, BlendShapeDelta, BlendShapeFrame, MeshData, MeshError};
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

impl BlendShapeChannel {
    /// How much of each frame's deltas a channel weight (0–100, as clips and renderers store
    /// it) applies: up to the first frame the deltas grow linearly from zero; between two
    /// frames they blend linearly; past the last frame the last segment is extended (a
    /// one-frame channel scales by `weight / frame weight`, as Unity does). Frames with
    /// non-increasing weights get nothing past the first.
    pub fn frame_factors(&self, weight: f32) -> Vec<f32> {
        let mut factors = vec![0.0; self.frames.len()];
        let w: Vec<f32> = self.frames.iter().map(|f| f.weight).collect();
        let Some(&first) = w.first() else {
            return factors;
        };
        let segment = (1..w.len())
            .find(|&i| weight <= w[i])
            .unwrap_or(w.len() - 1);
        if weight <= first || segment == 0 || w[segment] <= w[segment - 1] {
            factors[0] = if first != 0.0 { weight / first } else { 0.0 };
        } else {
            let t = (weight - w[segment - 1]) / (w[segment] - w[segment - 1]);
            factors[segment - 1] = 1.0 - t;
            factors[segment] = t;
        }
        factors
    }
}

/// The mesh's positions with its blend shapes applied at `weights` (one per channel, 0–100;
/// missing weights are 0).
pub fn blend_positions(mesh: &MeshData, weights: &[f32]) -> Vec<[f32; 3]> {
    let mut out = mesh.positions.clone();
    for (channel, &weight) in mesh.blend_shapes.iter().zip(weights) {
        for (frame, factor) in channel.frames.iter().zip(channel.frame_factors(weight)) {
            if factor == 0.0 {
                continue;
            }
            for d in &frame.vertices {
                if let Some(p) = out.get_mut(d.index as usize) {
                    for (c, delta) in p.iter_mut().zip(d.position) {
                        *c += factor * delta;
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn channel(weights: &[f32]) -> BlendShapeChannel {
        BlendShapeChannel {
            frames: weights
                .iter()
                .map(|&weight| BlendShapeFrame {
                    weight,
                    vertices: vec![BlendShapeDelta {
                        index: 0,
                        position: [weight, 0.0, 0.0],
                        ..BlendShapeDelta::default()
                    }],
                })
                .collect(),
            ..BlendShapeChannel::default()
        }
    }

    #[test]
    fn one_frame_scales_by_weight_over_frame_weight() {
        let c = channel(&[100.0]);
        assert_eq!(c.frame_factors(0.0), [0.0]);
        assert_eq!(c.frame_factors(25.0), [0.25]);
        assert_eq!(c.frame_factors(150.0), [1.5]);
    }

    #[test]
    fn several_frames_blend_their_neighbours() {
        let c = channel(&[25.0, 50.0, 100.0]);
        assert_eq!(c.frame_factors(10.0), [0.4, 0.0, 0.0]);
        assert_eq!(c.frame_factors(25.0), [1.0, 0.0, 0.0]);
        assert_eq!(c.frame_factors(37.5), [0.5, 0.5, 0.0]);
        assert_eq!(c.frame_factors(75.0), [0.0, 0.5, 0.5]);
        assert_eq!(c.frame_factors(100.0), [0.0, 0.0, 1.0]);
        assert_eq!(c.frame_factors(125.0), [0.0, -0.5, 1.5]);
        assert!(channel(&[]).frame_factors(50.0).is_empty());
    }

    #[test]
    fn blended_positions_add_the_weighted_deltas() {
        let mesh = MeshData {
            positions: vec![[1.0, 2.0, 3.0], [0.0; 3]],
            blend_shapes: vec![channel(&[50.0, 100.0]), channel(&[100.0])],
            ..MeshData::default()
        };
        // Channel 0 at 75: half of frame 50 (+50) and half of frame 100 (+100) = +75 in x;
        // channel 1 at 10: a tenth of +100.
        assert_eq!(
            blend_positions(&mesh, &[75.0, 10.0]),
            [[86.0, 2.0, 3.0], [0.0; 3]]
        );
        assert_eq!(blend_positions(&mesh, &[]), mesh.positions);
    }
}
