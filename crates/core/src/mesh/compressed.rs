//! Compressed meshes (`m_CompressedMesh`, `mesh.md` §2.7): every non-empty packed vector
//! replaces the matching plain data.

use super::packed::{floats, ints, item_count};
use super::vertex::Vertices;
use super::{Layout, Mat4, MeshError, VertexWeights};
use crate::unity::clip::PackedBitVector;
use crate::unity::mesh::CompressedMesh;

fn bad(detail: impl Into<String>) -> MeshError {
    MeshError::Compressed(detail.into())
}

/// Applies the compressed vectors to the decoded vertices, index buffer and bind poses.
pub(super) fn apply(
    cm: &CompressedMesh,
    layout: Layout,
    out: &mut Vertices,
    indices: &mut Vec<u32>,
    bind_poses: &mut Vec<Mat4>,
) -> Result<(), MeshError> {
    let what = |name: &'static str| move |e: String| bad(format!("{name}: {e}"));
    if item_count(&cm.m_Vertices) > 0 {
        let n = item_count(&cm.m_Vertices) / 3;
        out.count = n;
        out.positions = chunks(&floats(&cm.m_Vertices, 0, n * 3).map_err(what("m_Vertices"))?);
    }
    let n = out.count;
    if item_count(&cm.m_UV) > 0 {
        uvs(cm, out).map_err(what("m_UV"))?;
    }
    if let Some(poses) = cm.m_BindPoses.as_ref().filter(|p| item_count(p) > 0) {
        let count = item_count(poses) / 16;
        *bind_poses = chunks(&floats(poses, 0, count * 16).map_err(what("m_BindPoses"))?);
    }
    if item_count(&cm.m_Normals) > 0 {
        let xy = floats(&cm.m_Normals, 0, n * 2).map_err(what("m_Normals"))?;
        let signs = ints(&cm.m_NormalSigns, 0, n).map_err(what("m_NormalSigns"))?;
        out.normals = (0..n)
            .map(|i| unit_from_xy(xy[2 * i], xy[2 * i + 1], signs[i] != 0))
            .collect();
    }
    if item_count(&cm.m_Tangents) > 0 {
        let xy = floats(&cm.m_Tangents, 0, n * 2).map_err(what("m_Tangents"))?;
        let signs = ints(&cm.m_TangentSigns, 0, n * 2).map_err(what("m_TangentSigns"))?;
        out.tangents = (0..n)
            .map(|i| {
                let [x, y, z] = unit_from_xy(xy[2 * i], xy[2 * i + 1], signs[2 * i] != 0);
                [x, y, z, if signs[2 * i + 1] > 0 { 1.0 } else { -1.0 }]
            })
            .collect();
    }
    colors(cm, layout, out)?;
    if item_count(&cm.m_Weights) > 0 {
        out.packed_skin = skin(&cm.m_Weights, &cm.m_BoneIndices, n)?;
    }
    if item_count(&cm.m_Triangles) > 0 {
        *indices =
            ints(&cm.m_Triangles, 0, item_count(&cm.m_Triangles)).map_err(what("m_Triangles"))?;
    }
    Ok(())
}

/// Groups a flat float list into fixed-size items (a trailing partial item is dropped).
fn chunks<const N: usize>(flat: &[f32]) -> Vec<[f32; N]> {
    flat.chunks_exact(N)
        .map(|c| std::array::from_fn(|k| c[k]))
        .collect()
}

/// A unit vector from its x and y: z = √(1 − x² − y²), or (x, y, 0) renormalised when that is
/// negative; z is negated when `positive_z` is false.
fn unit_from_xy(x: f32, y: f32, positive_z: bool) -> [f32; 3] {
    let zz = 1.0 - x * x - y * y;
    let [x, y, z] = if zz >= 0.0 {
        [x, y, zz.sqrt()]
    } else {
        let len = (x * x + y * y).sqrt();
        if len > 0.0 {
            [x / len, y / len, 0.0]
        } else {
            [0.0, 0.0, 0.0]
        }
    };
    [x, y, if positive_z { z } else { -z }]
}

/// UV sets: with `m_UVInfo`, 4 bits per set (bit 2 present, bits 0–1 dimension − 1), stored one
/// after another; without it, UV0 then (when there is room) UV1, two floats each.
fn uvs(cm: &CompressedMesh, out: &mut Vertices) -> Result<(), String> {
    let n = out.count;
    let info = cm.m_UVInfo.map_or(0, |i| i.u32());
    if info == 0 {
        out.uv0 = chunks(&floats(&cm.m_UV, 0, n * 2)?);
        if item_count(&cm.m_UV) >= n * 4 {
            out.uv1 = chunks(&floats(&cm.m_UV, n * 2, n * 2)?);
        }
        return Ok(());
    }
    let mut start = 0;
    for set in 0..8 {
        let bits = (info >> (4 * set)) & 0xF;
        if bits & 4 == 0 {
            continue;
        }
        let dims = 1 + (bits & 3) as usize;
        let values = floats(&cm.m_UV, start, dims * n)?;
        let uv = (0..n)
            .map(|v| {
                [
                    values[v * dims],
                    if dims > 1 { values[v * dims + 1] } else { 0.0 },
                ]
            })
            .collect();
        match set {
            0 => out.uv0 = uv,
            1 => out.uv1 = uv,
            _ => {}
        }
        start += dims * n;
    }
    Ok(())
}

/// Colours: float colours (5.0+) or, before 5.0, packed bytes (each stored item is one RGBA32).
fn colors(cm: &CompressedMesh, layout: Layout, out: &mut Vertices) -> Result<(), MeshError> {
    if let Some(fc) = cm.m_FloatColors.as_ref().filter(|v| item_count(v) > 0) {
        let flat = floats(fc, 0, item_count(fc)).map_err(|e| bad(format!("m_FloatColors: {e}")))?;
        out.colors = chunks(&flat);
    } else if let Some(packed) = cm
        .m_Colors
        .as_ref()
        .filter(|v| item_count(v) > 0 && !layout.at_least(5, 0))
    {
        // Each item is 4 bytes of `m_BitSize / 4` bits.
        let bytes = PackedBitVector {
            m_NumItems: crate::unity::Int(packed.m_NumItems.0.saturating_mul(4)),
            m_Range: None,
            m_Start: None,
            m_Data: packed.m_Data.clone(),
            m_BitSize: packed.m_BitSize.map(|b| crate::unity::Int(b.0 / 4)),
        };
        let values =
            ints(&bytes, 0, item_count(&bytes)).map_err(|e| bad(format!("m_Colors: {e}")))?;
        out.colors = values
            .chunks_exact(4)
            .map(|c| std::array::from_fn(|k| c[k] as f32 / 255.0))
            .collect();
    }
    Ok(())
}

/// Weights in 31sts with their bone indices: per vertex, (weight, index) pairs until the
/// weights reach 31 or three were read; a fourth then takes the rest.
fn skin(
    weights: &PackedBitVector,
    bones: &PackedBitVector,
    vertex_count: usize,
) -> Result<Vec<VertexWeights>, MeshError> {
    let w = ints(weights, 0, item_count(weights)).map_err(|e| bad(format!("m_Weights: {e}")))?;
    let b = ints(bones, 0, item_count(bones)).map_err(|e| bad(format!("m_BoneIndices: {e}")))?;
    let mut bone = b.iter().copied();
    let mut next_bone = || {
        bone.next()
            .ok_or_else(|| bad("m_BoneIndices ends before m_Weights"))
    };
    let mut out = Vec::with_capacity(vertex_count);
    let mut current = VertexWeights::default();
    let (mut slot, mut sum) = (0usize, 0u32);
    for &weight in &w {
        current.weights[slot] = weight as f32 / 31.0;
        current.bones[slot] = next_bone()?;
        slot += 1;
        sum += weight;
        if sum >= 31 || slot == 3 {
            if sum < 31 {
                current.weights[3] = (31 - sum) as f32 / 31.0;
                current.bones[3] = next_bone()?;
            }
            if out.len() == vertex_count {
                return Err(bad(format!(
                    "m_Weights holds more than {vertex_count} vertices"
                )));
            }
            out.push(current);
            current = VertexWeights::default();
            (slot, sum) = (0, 0);
        }
    }
    if out.len() != vertex_count {
        return Err(bad(format!(
            "m_Weights holds {} vertices, the mesh {vertex_count}",
            out.len()
        )));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unity::Int;

    fn ints_vector(bits: i64, items: &[u32]) -> PackedBitVector {
        let mut data = vec![0u8; (items.len() * bits as usize).div_ceil(8)];
        for (i, &item) in items.iter().enumerate() {
            for b in 0..bits as usize {
                if item >> b & 1 == 1 {
                    let pos = i * bits as usize + b;
                    data[pos / 8] |= 1 << (pos % 8);
                }
            }
        }
        PackedBitVector {
            m_NumItems: Int(items.len() as i64),
            m_Range: None,
            m_Start: None,
            m_Data: data,
            m_BitSize: Some(Int(bits)),
        }
    }

    #[test]
    fn weights_end_at_31_or_after_three_with_the_rest_fourth() {
        // Vertex 0: one bone (31). Vertex 1: 20 + 11. Vertex 2: 10 + 10 + 5, rest 6 to a fourth.
        let weights = ints_vector(5, &[31, 20, 11, 10, 10, 5]);
        let bones = ints_vector(4, &[3, 1, 2, 4, 5, 6, 7]);
        let skin = skin(&weights, &bones, 3).unwrap();
        assert_eq!(skin[0].bones, [3, 0, 0, 0]);
        assert_eq!(skin[0].weights, [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(skin[1].bones, [1, 2, 0, 0]);
        assert_eq!(skin[1].weights, [20.0 / 31.0, 11.0 / 31.0, 0.0, 0.0]);
        assert_eq!(skin[2].bones, [4, 5, 6, 7]);
        assert_eq!(
            skin[2].weights.map(|w| (w * 31.0).round()),
            [10.0, 10.0, 5.0, 6.0]
        );
    }

    #[test]
    fn weights_that_disagree_with_the_vertex_count_are_errors() {
        let weights = ints_vector(5, &[31, 31]);
        let bones = ints_vector(4, &[0, 1]);
        assert!(skin(&weights, &bones, 1).is_err());
        assert!(skin(&weights, &bones, 3).is_err());
        assert!(skin(&weights, &ints_vector(4, &[0]), 2).is_err());
    }

    #[test]
    fn unit_vectors_rebuild_z_with_its_sign() {
        let close = |a: [f32; 3], b: [f32; 3]| a.iter().zip(b).all(|(a, b)| (a - b).abs() < 1e-6);
        assert!(close(unit_from_xy(0.6, 0.0, true), [0.6, 0.0, 0.8]));
        assert!(close(unit_from_xy(0.6, 0.0, false), [0.6, 0.0, -0.8]));
        let [x, y, z] = unit_from_xy(1.0, 1.0, true);
        assert!((x - 0.70710677).abs() < 1e-6 && (y - x).abs() < 1e-6 && z == 0.0);
    }
}
