//! Unity meshes as Bevy meshes (`mesh.md` §3.4, §5.1–5.3): one Bevy mesh per sub-mesh over
//! the vertices it uses, mirrored into Bevy's right-handed space with the winding reversed,
//! skin attributes for skinned meshes and blend shapes as morph targets.

use bevy::asset::RenderAssetUsages;
use bevy::math::{Mat4, Vec3};
use bevy::mesh::morph::{MAX_MORPH_WEIGHTS, MorphAttributes};
use bevy::mesh::{Indices, Mesh, PrimitiveTopology, VertexAttributeValues};

use clipscope_core::mesh::MeshData;

/// Most morph target elements (targets × vertices) a mesh gets, about 190 MiB of deltas;
/// targets past it (and past Bevy's 256) are left out.
const MAX_MORPH_ELEMENTS: usize = 4 << 20;

/// How a mesh's blend shapes become Bevy morph targets: one target per frame, in channel
/// order. A one-frame channel's target is named after the channel (so name-matching drivers
/// find it); a multi-frame channel's targets are `name#frame`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MorphLayout {
    pub names: Vec<String>,
    /// Per target: (channel, frame).
    pub targets: Vec<(usize, usize)>,
}

impl MorphLayout {
    /// The layout of `mesh`'s blend shapes for sub-meshes of `vertices` vertices, within
    /// Bevy's limits.
    pub fn of(mesh: &MeshData, vertices: usize) -> MorphLayout {
        let cap = MAX_MORPH_WEIGHTS.min(MAX_MORPH_ELEMENTS / vertices.max(1));
        let mut layout = MorphLayout::default();
        for (c, channel) in mesh.blend_shapes.iter().enumerate() {
            for f in 0..channel.frames.len() {
                if layout.targets.len() >= cap {
                    return layout;
                }
                layout.targets.push((c, f));
                layout.names.push(if channel.frames.len() == 1 {
                    channel.name.clone()
                } else {
                    format!("{}#{f}", channel.name)
                });
            }
        }
        layout
    }

    /// Bevy target weights for Unity channel weights (0–100, one per channel; missing ones
    /// are 0), through each channel's frame blending.
    pub fn weights(&self, mesh: &MeshData, channel_weights: &[f32]) -> Vec<f32> {
        let factors: Vec<Vec<f32>> = mesh
            .blend_shapes
            .iter()
            .enumerate()
            .map(|(c, ch)| ch.frame_factors(channel_weights.get(c).copied().unwrap_or(0.0)))
            .collect();
        self.targets
            .iter()
            .map(|&(c, f)| {
                factors
                    .get(c)
                    .and_then(|v| v.get(f))
                    .copied()
                    .unwrap_or(0.0)
            })
            .collect()
    }
}

/// A Unity position, normal or delta in Bevy's space.
fn mirror(v: [f32; 3]) -> [f32; 3] {
    [v[0], v[1], -v[2]]
}

/// A Unity matrix (row-major, [`clipscope_core::mesh::matrix`]) in Bevy's space: `S·M·S` with the Z
/// mirror `S`.
pub fn matrix_to_bevy(m: &clipscope_core::mesh::Mat4) -> Mat4 {
    let s = Mat4::from_scale(Vec3::new(1.0, 1.0, -1.0));
    s * Mat4::from_cols_array(m).transpose() * s
}

/// The vertex range a sub-mesh's indices use, or `None` for a sub-mesh without triangles
/// or with an index past the vertices.
fn vertex_range(mesh: &MeshData, submesh: usize) -> Option<(usize, usize)> {
    let indices = &mesh.submeshes.get(submesh)?.indices;
    let lo = *indices.iter().min()? as usize;
    let hi = *indices.iter().max()? as usize;
    (hi < mesh.vertex_count() && indices.len() >= 3).then_some((lo, hi + 1))
}

/// Sub-mesh `submesh` of `mesh` as a Bevy mesh, or `None` when it has no triangles. With
/// `skinned`, the skin becomes joint attributes (a mesh drawn without a `SkinnedMesh` must
/// not have them); with `morphs`, the blend shapes become morph targets in that layout
/// (which must come from [`MorphLayout::of`] for this mesh).
pub fn bevy_mesh(
    mesh: &MeshData,
    submesh: usize,
    skinned: bool,
    morphs: Option<&MorphLayout>,
) -> Option<Mesh> {
    let (lo, hi) = vertex_range(mesh, submesh)?;
    let n = mesh.vertex_count();
    let sub = mesh.submeshes.get(submesh)?;
    // Unity's front faces are clockwise, Bevy's counter-clockwise: swap two corners.
    let indices: Vec<u32> = sub
        .indices
        .chunks_exact(3)
        .flat_map(|t| [t[0], t[2], t[1]])
        .map(|i| i - lo as u32)
        .collect();
    let range = lo..hi;
    let mirrored = |v: &[[f32; 3]]| v[range.clone()].iter().map(|&p| mirror(p)).collect();
    let positions: Vec<[f32; 3]> = mirrored(&mesh.positions);
    let mut out = Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_indices(Indices::U32(indices));
    if mesh.normals.len() == n {
        let normals: Vec<[f32; 3]> = mirrored(&mesh.normals);
        out.insert_attribute(Mesh::ATTRIBUTE_NORMAL, normals);
    } else {
        out.compute_normals();
    }
    if mesh.uv0.len() == n {
        // Images are uploaded top row first; Unity's v = 0 is the bottom row.
        let uvs: Vec<[f32; 2]> = mesh.uv0[range.clone()]
            .iter()
            .map(|&[u, v]| [u, 1.0 - v])
            .collect();
        out.insert_attribute(Mesh::ATTRIBUTE_UV_0, uvs);
    }
    if skinned && mesh.skin.len() == n && !mesh.bind_poses.is_empty() {
        insert_skin(&mut out, mesh, range.clone());
        // Per-joint boxes, so `DynamicSkinnedMeshBounds` can follow the pose.
        if let Err(e) = out.generate_skinned_mesh_bounds() {
            bevy::log::warn!("{}: no skinned bounds: {e}", mesh.name);
        }
    }
    if let Some(layout) = morphs.filter(|l| !l.targets.is_empty()) {
        out.set_morph_targets(morph_targets(mesh, layout, range));
        out.set_morph_target_names(layout.names.clone());
    }
    Some(out)
}

/// Joint indices (`Uint16x4`) and normalised weights; a vertex without weight follows its
/// first bone, and influences naming a bone past the bind poses are dropped.
fn insert_skin(out: &mut Mesh, mesh: &MeshData, range: std::ops::Range<usize>) {
    let bones = mesh.bind_poses.len();
    let mut joints = Vec::with_capacity(range.len());
    let mut weights = Vec::with_capacity(range.len());
    for w in &mesh.skin[range] {
        let mut j = [0u16; 4];
        let mut k = [0f32; 4];
        for i in 0..4 {
            if (w.bones[i] as usize) < bones && w.weights[i] > 0.0 {
                j[i] = u16::try_from(w.bones[i]).unwrap_or(0);
                k[i] = w.weights[i];
            }
        }
        let total: f32 = k.iter().sum();
        if total > 0.0 && total.is_finite() {
            k.iter_mut().for_each(|x| *x /= total);
        } else {
            j = [
                u16::try_from(w.bones[0])
                    .ok()
                    .filter(|&b| (b as usize) < bones)
                    .unwrap_or(0),
                0,
                0,
                0,
            ];
            k = [1.0, 0.0, 0.0, 0.0];
        }
        joints.push(j);
        weights.push(k);
    }
    out.insert_attribute(
        Mesh::ATTRIBUTE_JOINT_INDEX,
        VertexAttributeValues::Uint16x4(joints),
    );
    out.insert_attribute(Mesh::ATTRIBUTE_JOINT_WEIGHT, weights);
}

/// Dense, target-major morph deltas (`target × vertices + vertex`) over `range`, mirrored.
fn morph_targets(
    mesh: &MeshData,
    layout: &MorphLayout,
    range: std::ops::Range<usize>,
) -> Vec<MorphAttributes> {
    let count = range.len();
    let mut out = vec![MorphAttributes::default(); layout.targets.len() * count];
    for (t, &(c, f)) in layout.targets.iter().enumerate() {
        let Some(frame) = mesh.blend_shapes.get(c).and_then(|ch| ch.frames.get(f)) else {
            continue;
        };
        for d in &frame.vertices {
            let i = d.index as usize;
            if range.contains(&i) {
                out[t * count + i - range.start] = MorphAttributes::new(
                    Vec3::from_array(mirror(d.position)),
                    Vec3::from_array(mirror(d.normal)),
                    Vec3::from_array(mirror(d.tangent)),
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use clipscope_core::mesh::{BlendShapeChannel, BlendShapeDelta, BlendShapeFrame, SubMeshData};

    /// One Unity triangle facing the Unity camera (at -Z, looking +Z): clockwise on screen,
    /// normal -Z.
    fn triangle() -> MeshData {
        MeshData {
            positions: vec![[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 2.0]],
            normals: vec![[0.0, 0.0, -1.0]; 3],
            uv0: vec![[0.0, 0.0], [0.0, 1.0], [1.0, 0.25]],
            submeshes: vec![SubMeshData {
                indices: vec![0, 1, 2],
                index_count: 3,
                vertex_count: 3,
                ..SubMeshData::default()
            }],
            ..MeshData::default()
        }
    }

    fn positions(mesh: &Mesh) -> Vec<[f32; 3]> {
        match mesh.attribute(Mesh::ATTRIBUTE_POSITION) {
            Some(VertexAttributeValues::Float32x3(p)) => p.clone(),
            other => panic!("positions: {other:?}"),
        }
    }

    #[test]
    fn mirrored_triangle_faces_its_mirrored_normal_counter_clockwise() {
        let mut unity = triangle();
        unity.positions[2][2] = 0.0;
        let mesh = bevy_mesh(&unity, 0, false, None).unwrap();
        let p = positions(&mesh);
        let Some(Indices::U32(i)) = mesh.indices() else {
            panic!("u32 indices")
        };
        let [a, b, c] = [i[0], i[1], i[2]].map(|k| Vec3::from_array(p[k as usize]));
        let face = (b - a).cross(c - a).normalize();
        // Bevy's front face is counter-clockwise: its normal is the mirrored Unity normal.
        assert_eq!(face, Vec3::Z);
        let Some(VertexAttributeValues::Float32x3(n)) = mesh.attribute(Mesh::ATTRIBUTE_NORMAL)
        else {
            panic!("normals")
        };
        assert_eq!(n[0], [0.0, 0.0, 1.0]);
    }

    #[test]
    fn positions_mirror_z_and_uvs_flip_v_for_top_down_images() {
        let mesh = bevy_mesh(&triangle(), 0, false, None).unwrap();
        assert_eq!(positions(&mesh)[2], [1.0, 0.0, -2.0]);
        let Some(VertexAttributeValues::Float32x2(uv)) = mesh.attribute(Mesh::ATTRIBUTE_UV_0)
        else {
            panic!("uvs")
        };
        assert_eq!(uv[2], [1.0, 0.75]);
    }

    #[test]
    fn bind_pose_conjugation_keeps_skinning_consistent_with_the_mirror() {
        // Unity: bind pose B, bone world W; v' = W·B·v. Bevy: S·v' = (SWS)(SBS)(S·v).
        let b = clipscope_core::mesh::matrix::from_trs(
            [0.1, -0.4, 0.3],
            [0.2, 0.1, -0.3, 0.927],
            [1.0; 3],
        );
        let w = clipscope_core::mesh::matrix::from_trs(
            [1.0, 2.0, -3.0],
            [0.0, 0.6, 0.0, 0.8],
            [2.0; 3],
        );
        let v = [0.5, -1.0, 2.0];
        let unity = clipscope_core::mesh::matrix::transform_point(
            &clipscope_core::mesh::matrix::mul(&w, &b),
            v,
        );
        let bevy =
            (matrix_to_bevy(&w) * matrix_to_bevy(&b)).transform_point3(Vec3::from_array(mirror(v)));
        assert!(
            bevy.distance(Vec3::from_array(mirror(unity))) < 1e-5,
            "{bevy} vs {unity:?}"
        );
    }

    #[test]
    fn a_sub_mesh_keeps_only_its_vertex_range_with_skin_and_morphs() {
        let mut mesh = triangle();
        mesh.positions.insert(0, [9.0; 3]);
        mesh.normals.insert(0, [0.0, 1.0, 0.0]);
        mesh.uv0.insert(0, [0.0; 2]);
        mesh.submeshes[0].indices = vec![1, 2, 3];
        mesh.bind_poses = vec![clipscope_core::mesh::matrix::IDENTITY; 2];
        mesh.skin = vec![
            clipscope_core::mesh::VertexWeights::default(),
            clipscope_core::mesh::VertexWeights {
                bones: [1, 0, 0, 0],
                weights: [2.0, 2.0, 0.0, 0.0],
            },
            clipscope_core::mesh::VertexWeights {
                bones: [7, 1, 0, 0],
                weights: [0.5, 0.5, 0.0, 0.0],
            },
            clipscope_core::mesh::VertexWeights::default(),
        ];
        mesh.blend_shapes = vec![BlendShapeChannel {
            name: "smile".into(),
            frames: vec![
                BlendShapeFrame {
                    weight: 50.0,
                    vertices: vec![BlendShapeDelta {
                        index: 3,
                        position: [0.0, 0.0, 1.0],
                        ..Default::default()
                    }],
                },
                BlendShapeFrame {
                    weight: 100.0,
                    vertices: vec![BlendShapeDelta {
                        index: 0,
                        position: [1.0; 3],
                        ..Default::default()
                    }],
                },
            ],
            ..Default::default()
        }];
        let layout = MorphLayout::of(&mesh, 3);
        assert_eq!(layout.names, ["smile#0", "smile#1"]);
        assert_eq!(layout.weights(&mesh, &[75.0]), [0.5, 0.5]);
        let out = bevy_mesh(&mesh, 0, true, Some(&layout)).unwrap();
        assert_eq!(out.count_vertices(), 3);
        assert_eq!(positions(&out)[0], [0.0, 0.0, 0.0]);
        let Some(VertexAttributeValues::Float32x4(w)) = out.attribute(Mesh::ATTRIBUTE_JOINT_WEIGHT)
        else {
            panic!("weights")
        };
        // Normalised; an influence on a bone past the bind poses is dropped; no weight at
        // all follows the first bone.
        assert_eq!(w[0], [0.5, 0.5, 0.0, 0.0]);
        assert_eq!(w[1], [0.0, 1.0, 0.0, 0.0]);
        assert_eq!(w[2], [1.0, 0.0, 0.0, 0.0]);
        let targets = out.morph_targets().unwrap();
        assert_eq!(targets.len(), 6);
        // Vertex 3 is local vertex 2 of target 0, mirrored; vertex 0 is outside the range.
        assert_eq!(targets[2].position, Vec3::new(0.0, 0.0, -1.0));
        assert!(targets[3..].iter().all(|t| t.position == Vec3::ZERO));
    }
}
