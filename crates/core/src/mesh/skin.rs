//! Skin weights in both stored forms (`m_Skin` up to 2018.1, blend channels from 2018.2, a
//! compressed mesh's packed weights) and Unity's linear-blend skinning (`mesh.md` §2.4, §3.3).

use super::matrix::{self, Mat4};
use super::vertex::Vertices;
use super::{Aabb, MeshData, MeshError, VertexWeights};
use crate::unity::mesh::Mesh;

fn bad(detail: impl Into<String>) -> MeshError {
    MeshError::Skin(detail.into())
}

/// The per-vertex influences, or an empty list for a mesh without a skin. Bones with a
/// non-zero weight must name a bind pose (when the mesh has any).
pub(super) fn weights(
    mesh: &Mesh,
    vertices: &Vertices,
    bone_count: usize,
) -> Result<Vec<VertexWeights>, MeshError> {
    let count = vertices.count;
    let skin = if !vertices.packed_skin.is_empty() {
        vertices.packed_skin.clone()
    } else if !vertices.bone_indices.is_empty() {
        from_channels(vertices)
    } else if !mesh.m_Skin.is_empty() {
        if mesh.m_Skin.len() != count {
            return Err(bad(format!(
                "m_Skin has {} entries for {count} vertices",
                mesh.m_Skin.len()
            )));
        }
        mesh.m_Skin
            .iter()
            .map(|s| VertexWeights {
                bones: [s.boneIndex0, s.boneIndex1, s.boneIndex2, s.boneIndex3]
                    .map(|b| b.max(0) as u32),
                weights: [s.weight0, s.weight1, s.weight2, s.weight3],
            })
            .collect()
    } else {
        return Ok(Vec::new());
    };
    if bone_count > 0 {
        check_bones(&skin, bone_count)?;
    }
    Ok(skin)
}

/// Blend weight and index channels. Without a weight channel a single index gets weight 1
/// (single-bone skins, `mesh.md` §2.4); several indices without weights give the first one
/// weight 1.
fn from_channels(v: &Vertices) -> Vec<VertexWeights> {
    v.bone_indices
        .iter()
        .enumerate()
        .map(|(i, &bones)| {
            let mut weights = [0.0; 4];
            match v.weights.get(i) {
                Some(w) => weights[..v.weight_dims].copy_from_slice(&w[..v.weight_dims]),
                None => weights[0] = 1.0,
            }
            let mut bones = bones;
            bones[v.index_dims..].fill(0);
            VertexWeights { bones, weights }
        })
        .collect()
}

fn check_bones(skin: &[VertexWeights], bone_count: usize) -> Result<(), MeshError> {
    for (v, w) in skin.iter().enumerate() {
        for k in 0..4 {
            if w.weights[k] != 0.0 && w.bones[k] as usize >= bone_count {
                return Err(bad(format!(
                    "vertex {v} names bone {} of {bone_count}",
                    w.bones[k]
                )));
            }
        }
    }
    Ok(())
}

/// The mesh's positions skinned by Unity's formula:
/// `Σ_k w_k · (boneWorld[b_k] × bindpose[b_k]) · v`, with `bone_world[i]` the world matrix of
/// the renderer's bone `i` (row-major, [`matrix`]). Blend shapes are not applied. A mesh
/// without a skin is returned unchanged; a missing bone or bind pose counts as identity, and a
/// vertex whose weights are all zero follows its first bone.
pub fn skin_positions(mesh: &MeshData, bone_world: &[Mat4]) -> Vec<[f32; 3]> {
    if mesh.skin.len() != mesh.positions.len() {
        return mesh.positions.clone();
    }
    let skinning: Vec<Mat4> = (0..mesh.bind_poses.len().max(bone_world.len()))
        .map(|i| {
            let world = bone_world.get(i).unwrap_or(&matrix::IDENTITY);
            let bind = mesh.bind_poses.get(i).unwrap_or(&matrix::IDENTITY);
            matrix::mul(world, bind)
        })
        .collect();
    let joint = |b: u32| skinning.get(b as usize).unwrap_or(&matrix::IDENTITY);
    mesh.positions
        .iter()
        .zip(&mesh.skin)
        .map(|(&p, w)| {
            let total: f32 = w.weights.iter().sum();
            if total == 0.0 {
                return matrix::transform_point(joint(w.bones[0]), p);
            }
            let mut out = [0.0f32; 3];
            for k in 0..4 {
                if w.weights[k] != 0.0 {
                    let q = matrix::transform_point(joint(w.bones[k]), p);
                    for c in 0..3 {
                        out[c] += w.weights[k] * q[c];
                    }
                }
            }
            out
        })
        .collect()
}

/// The box around a skinned mesh posed by `bone_world` (as for [`skin_positions`]), computed
/// the way Unity bounds skinned meshes: each bone's box (`bone_bounds`, in bone space) placed
/// by its world matrix. Without bone boxes (files before 2019.1) the skinned positions are
/// bounded instead. Blend shapes are not included.
pub fn posed_bounds(mesh: &MeshData, bone_world: &[Mat4]) -> Option<Aabb> {
    if mesh.bone_bounds.iter().all(Option::is_none) {
        return Aabb::around(&skin_positions(mesh, bone_world));
    }
    let corners: Vec<[f32; 3]> = bone_box_corners(mesh, bone_world).collect();
    Aabb::around(&corners)
}

/// The corners of each bone's box (`bone_bounds`, in bone space) placed by its world matrix.
fn bone_box_corners<'a>(
    mesh: &'a MeshData,
    bone_world: &'a [Mat4],
) -> impl Iterator<Item = [f32; 3]> + 'a {
    mesh.bone_bounds
        .iter()
        .enumerate()
        .filter_map(|(i, b)| Some((bone_world.get(i).unwrap_or(&matrix::IDENTITY), (*b)?)))
        .flat_map(|(world, b)| b.corners().map(|p| matrix::transform_point(world, p)))
}

/// Points on a skinned mesh posed by `bone_world` whose box is [`posed_bounds`]' box, and
/// which follow the body's shape rather than its box: each bone's box corners placed by its
/// world matrix; without bone boxes, the skinned vertices furthest along each axis and each
/// diagonal (26 directions). What a camera frames: a box's corner, seen in three-quarter view,
/// lies where no part of the body is and pushes the camera back.
pub fn posed_points(mesh: &MeshData, bone_world: &[Mat4]) -> Vec<[f32; 3]> {
    if mesh.bone_bounds.iter().any(Option::is_some) {
        return bone_box_corners(mesh, bone_world)
            .filter(|p| p.iter().all(|c| c.is_finite()))
            .collect();
    }
    let skinned: Vec<[f32; 3]> = skin_positions(mesh, bone_world)
        .into_iter()
        .filter(|p| p.iter().all(|c| c.is_finite()))
        .collect();
    let mut out = Vec::new();
    for dx in -1..=1 {
        for dy in -1..=1 {
            for dz in -1..=1 {
                if (dx, dy, dz) == (0, 0, 0) {
                    continue;
                }
                let along = |p: &[f32; 3]| p[0] * dx as f32 + p[1] * dy as f32 + p[2] * dz as f32;
                if let Some(p) = skinned.iter().max_by(|a, b| along(a).total_cmp(&along(b))) {
                    out.push(*p);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::matrix::from_trs;

    /// The framing points of a posed mesh: real vertices (no box corner), and their box is
    /// the mesh's posed box.
    #[test]
    fn posed_points_are_vertices_spanning_the_posed_box() {
        let mesh = MeshData {
            positions: vec![
                [0.0, 0.0, 0.0],
                [1.0, 2.0, 0.0],
                [-1.0, 1.0, 0.5],
                [0.2, 0.3, -0.4],
            ],
            skin: vec![VertexWeights::default(); 4],
            bind_poses: vec![matrix::IDENTITY],
            ..MeshData::default()
        };
        let up = from_trs([0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]);
        let points = posed_points(&mesh, &[up]);
        let skinned = skin_positions(&mesh, &[up]);
        assert!(points.iter().all(|p| skinned.contains(p)), "{points:?}");
        assert_eq!(Aabb::around(&points), posed_bounds(&mesh, &[up]));
        assert!(!points.contains(&[1.0, 3.0, 0.5]), "a box corner");
    }

    #[test]
    fn a_vertex_blends_its_bones_by_weight() {
        let mesh = MeshData {
            positions: vec![[1.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
            skin: vec![
                VertexWeights {
                    bones: [0, 1, 0, 0],
                    weights: [0.25, 0.75, 0.0, 0.0],
                },
                VertexWeights::default(),
            ],
            bind_poses: vec![
                matrix::IDENTITY,
                from_trs([-1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]),
            ],
            ..MeshData::default()
        };
        let up = from_trs([0.0, 4.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]);
        let skinned = skin_positions(&mesh, &[matrix::IDENTITY, up]);
        // Bone 0 keeps (1,0,0); bone 1 takes it to (0,0,0) then up by 4: 0.25·x + 0.75·(0,4,0).
        assert_eq!(skinned[0], [0.25, 3.0, 0.0]);
        // All-zero weights follow bone 0.
        assert_eq!(skinned[1], [0.0, 0.0, 0.0]);
    }

    #[test]
    fn single_index_channels_without_weights_get_weight_one() {
        let v = Vertices {
            count: 1,
            bone_indices: vec![[5, 9, 9, 9]],
            index_dims: 1,
            ..Vertices::default()
        };
        assert_eq!(
            from_channels(&v),
            [VertexWeights {
                bones: [5, 0, 0, 0],
                weights: [1.0, 0.0, 0.0, 0.0]
            }]
        );
        assert!(check_bones(&from_channels(&v), 5).is_err());
        assert!(check_bones(&from_channels(&v), 6).is_ok());
    }
}
