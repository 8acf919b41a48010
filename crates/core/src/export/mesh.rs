//! The rig's meshes: one glTF mesh per renderer on the renderer's joint node, one primitive
//! per drawn sub-mesh (sharing the vertex accessors), mirrored with the winding reversed;
//! skinned meshes with a skin (the renderer's bones, the mesh's bind poses conjugated by
//! the mirror) and blend shapes as morph targets (each shape's full-weight frame).

use std::sync::Arc;

use gltf_json as json;
use json::accessor::Type;
use json::buffer::Target;
use json::mesh::Semantic;
use json::validation::Checked;
use serde_json::json;

use super::bindings::MorphNode;
use super::document::{Document, extras};
use super::material::Materials;
use super::report::MeshReport;
use super::space;
use crate::mesh::{MeshData, Topology};
use crate::workspace::{MeshSource, RendererEntry, RendererKind, Workspace};

/// Most joints a skin may have (Bevy's loader limit).
pub const MAX_JOINTS: usize = 256;
/// Most morph targets a mesh may have (Bevy's loader limit).
pub const MAX_TARGETS: usize = 256;
/// Most morph target elements (targets × vertices) a mesh gets (Bevy's morph texture).
const MAX_MORPH_ELEMENTS: usize = 4 << 20;

/// What the meshes added.
#[derive(Default)]
pub struct Meshes {
    pub reports: Vec<MeshReport>,
    pub morphs: Vec<MorphNode>,
}

/// The decoded mesh a renderer draws.
fn mesh_of(ws: &Workspace, r: &RendererEntry, warnings: &mut Vec<String>) -> Option<Arc<MeshData>> {
    match &r.mesh {
        MeshSource::Loaded(at) => {
            let m = ws.mesh(*at).and_then(|m| m.data.clone());
            if m.is_none() {
                warnings.push(format!(
                    "renderer {}: its mesh did not decode",
                    r.at.path_id
                ));
            }
            m
        }
        MeshSource::Builtin(id) => crate::mesh::builtin(*id).map(Arc::new),
        MeshSource::Missing(why) => {
            warnings.push(format!("renderer {}: {why}", r.at.path_id));
            None
        }
        MeshSource::None => None,
    }
}

/// Adds every renderer's mesh of the rig to the document.
pub fn add_meshes(
    doc: &mut Document,
    ws: &Workspace,
    renderers: &[RendererEntry],
    joints: usize,
    warnings: &mut Vec<String>,
) -> Meshes {
    let mut out = Meshes::default();
    let mut materials = Materials::default();
    let mut used = vec![false; joints];
    for r in renderers {
        if !r.drawn() {
            // Unity does not draw it at rest (an inactive GameObject or a disabled renderer:
            // hitboxes, helpers); glTF has no activity to turn it on later.
            warnings.push(format!(
                "renderer {} on joint {}: not drawn at rest ({}), left out",
                r.at.path_id,
                r.joint,
                if r.enabled {
                    "its GameObject is inactive"
                } else {
                    "the renderer is disabled"
                }
            ));
            continue;
        }
        if matches!(r.kind, RendererKind::Sprite { .. }) {
            warnings.push(format!("renderer {}: sprites are left out", r.at.path_id));
            continue;
        }
        let Some(mesh) = mesh_of(ws, r, warnings) else {
            continue;
        };
        if r.joint >= joints || used[r.joint] {
            warnings.push(format!(
                "renderer {}: a second renderer on one joint, left out",
                r.at.path_id
            ));
            continue;
        }
        if let Some((index, report, morph)) = add_mesh(doc, ws, r, &mesh, &mut materials, warnings)
        {
            used[r.joint] = true;
            let node = &mut doc.root.nodes[r.joint];
            node.mesh = Some(index);
            if let Some(morph) = &morph {
                node.weights = Some(morph.rest.clone());
            }
            if let RendererKind::Skinned { bones, .. } = &r.kind
                && let Some(skin) = add_skin(doc, &mesh, bones, r.joint, joints, warnings)
            {
                doc.root.nodes[r.joint].skin = Some(skin);
            }
            out.reports.push(report);
            out.morphs.extend(morph);
        }
    }
    out
}

/// Normalised, or `fallback` for a zero or broken vector.
fn unit3(v: [f32; 3], fallback: [f32; 3]) -> [f32; 3] {
    let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if len > 1e-12 && len.is_finite() {
        v.map(|c| c / len)
    } else {
        fallback
    }
}

fn add_mesh(
    doc: &mut Document,
    ws: &Workspace,
    r: &RendererEntry,
    mesh: &MeshData,
    materials: &mut Materials,
    warnings: &mut Vec<String>,
) -> Option<(json::Index<json::Mesh>, MeshReport, Option<MorphNode>)> {
    let n = mesh.vertex_count();
    if n == 0 || !mesh.positions.iter().flatten().all(|c| c.is_finite()) {
        warnings.push(format!(
            "mesh {}: no vertices or non-finite positions, left out",
            mesh.name
        ));
        return None;
    }
    let mut report = MeshReport {
        name: mesh.name.clone(),
        vertices: n,
        ..MeshReport::default()
    };
    let flat3 = |v: Vec<[f32; 3]>| v.into_iter().flatten().collect::<Vec<f32>>();
    let mut attributes = std::collections::BTreeMap::new();
    let positions = flat3(mesh.positions.iter().map(|&p| space::point(p)).collect());
    attributes.insert(
        Checked::Valid(Semantic::Positions),
        doc.floats(&positions, Type::Vec3, true, Some(Target::ArrayBuffer)),
    );
    if mesh.normals.len() == n {
        let normals = flat3(
            mesh.normals
                .iter()
                .map(|&v| unit3(space::point(v), [0.0, 1.0, 0.0]))
                .collect(),
        );
        attributes.insert(
            Checked::Valid(Semantic::Normals),
            doc.floats(&normals, Type::Vec3, false, Some(Target::ArrayBuffer)),
        );
        if mesh.tangents.len() == n {
            let tangents: Vec<f32> = mesh
                .tangents
                .iter()
                .flat_map(|&t| {
                    let m = space::tangent(t);
                    let xyz = unit3([m[0], m[1], m[2]], [1.0, 0.0, 0.0]);
                    [xyz[0], xyz[1], xyz[2], if m[3] < 0.0 { -1.0 } else { 1.0 }]
                })
                .collect();
            attributes.insert(
                Checked::Valid(Semantic::Tangents),
                doc.floats(&tangents, Type::Vec4, false, Some(Target::ArrayBuffer)),
            );
        }
    }
    if mesh.uv0.len() == n {
        let uv: Vec<f32> = mesh.uv0.iter().flat_map(|&[u, v]| [u, 1.0 - v]).collect();
        attributes.insert(
            Checked::Valid(Semantic::TexCoords(0)),
            doc.floats(&uv, Type::Vec2, false, Some(Target::ArrayBuffer)),
        );
    }
    if let RendererKind::Skinned { .. } = r.kind
        && mesh.skin.len() == n
        && !mesh.bind_poses.is_empty()
        && mesh.bind_poses.len() <= MAX_JOINTS
    {
        let (joints, weights, cut) = skin_attributes(mesh);
        report.influences_cut = cut;
        attributes.insert(Checked::Valid(Semantic::Joints(0)), doc.joints(&joints));
        let weights: Vec<f32> = weights.into_iter().flatten().collect();
        attributes.insert(
            Checked::Valid(Semantic::Weights(0)),
            doc.floats(&weights, Type::Vec4, false, Some(Target::ArrayBuffer)),
        );
    }
    let (targets, morph) = morph_targets(doc, mesh, r, &mut report, warnings);
    let mut primitives = Vec::new();
    for (submesh, material) in parts(r, mesh.submeshes.len()) {
        let Some(sub) = mesh.submeshes.get(submesh) else {
            continue;
        };
        if sub.topology == Topology::Lines
            || sub.topology == Topology::LineStrip
            || sub.topology == Topology::Points
            || sub.indices.len() < 3
            || sub.indices.iter().any(|&i| i as usize >= n)
        {
            continue;
        }
        let indices: Vec<u32> = sub
            .indices
            .chunks_exact(3)
            .flat_map(|t| [t[0], t[2], t[1]])
            .collect();
        let material = material.and_then(|at| materials.material(doc, ws, at, warnings));
        primitives.push(json::mesh::Primitive {
            attributes: attributes.clone(),
            extensions: None,
            extras: None,
            indices: Some(doc.indices(&indices)),
            material,
            mode: Checked::Valid(json::mesh::Mode::Triangles),
            targets: targets.clone(),
        });
    }
    if primitives.is_empty() {
        warnings.push(format!("mesh {}: no triangles drawn, left out", mesh.name));
        return None;
    }
    let names = morph.as_ref().map(|m| m.names.clone()).unwrap_or_default();
    let index = doc.root.push(json::Mesh {
        extensions: None,
        extras: (!names.is_empty())
            .then(|| extras(&json!({ "targetNames": names })))
            .flatten(),
        name: Some(mesh.name.clone()),
        primitives,
        weights: morph.as_ref().map(|m| m.rest.clone()),
    });
    Some((
        index,
        report,
        morph.map(|m| MorphNode {
            joint: r.joint,
            ..m
        }),
    ))
}

/// Material slot `i` draws sub-mesh `submesh_of(i)` (each sub-mesh once); without slots
/// every sub-mesh is drawn plain.
fn parts(r: &RendererEntry, submeshes: usize) -> Vec<(usize, Option<crate::workspace::ObjectRef>)> {
    if r.materials.is_empty() {
        return (0..submeshes).map(|s| (s, None)).collect();
    }
    let mut out: Vec<(usize, Option<crate::workspace::ObjectRef>)> = Vec::new();
    for (slot, material) in r.materials.iter().enumerate() {
        let s = r.submeshes.submesh_of(slot);
        if s < submeshes && !out.iter().any(|(d, _)| *d == s) {
            out.push((s, *material));
        }
    }
    out
}

/// Joint indices and normalised weights per vertex; influences on a bone past the bind
/// poses are dropped (counted), a vertex without weight follows its first bone.
fn skin_attributes(mesh: &MeshData) -> (Vec<[u16; 4]>, Vec<[f32; 4]>, usize) {
    let bones = mesh.bind_poses.len();
    let mut cut = 0;
    let mut joints = Vec::with_capacity(mesh.skin.len());
    let mut weights = Vec::with_capacity(mesh.skin.len());
    for w in &mesh.skin {
        let mut j = [0u16; 4];
        let mut k = [0f32; 4];
        let mut slot = 0;
        for i in 0..4 {
            let (b, x) = (w.bones[i] as usize, w.weights[i]);
            if !(x > 0.0 && x.is_finite()) {
                continue;
            }
            if b >= bones {
                cut += 1;
                continue;
            }
            // One joint twice: its weights add up.
            match j[..slot].iter().position(|&e| e as usize == b) {
                Some(p) => k[p] += x,
                None => {
                    j[slot] = b as u16;
                    k[slot] = x;
                    slot += 1;
                }
            }
        }
        let total: f32 = k.iter().sum();
        if total > 0.0 && total.is_finite() {
            k.iter_mut().for_each(|x| *x /= total);
        } else {
            let first = (w.bones[0] as usize).min(bones - 1);
            j = [first as u16, 0, 0, 0];
            k = [1.0, 0.0, 0.0, 0.0];
        }
        joints.push(j);
        weights.push(k);
    }
    (joints, weights, cut)
}

/// The skin: joint `i` is the renderer's bone `i` (a bone not in the rig stands on the
/// renderer's own joint, with a warning).
fn add_skin(
    doc: &mut Document,
    mesh: &MeshData,
    bones: &[Option<usize>],
    own: usize,
    joints: usize,
    warnings: &mut Vec<String>,
) -> Option<json::Index<json::Skin>> {
    if mesh.skin.len() != mesh.vertex_count() || mesh.bind_poses.is_empty() {
        return None;
    }
    if mesh.bind_poses.len() > MAX_JOINTS {
        warnings.push(format!(
            "mesh {}: {} bones, more than glTF loaders take ({MAX_JOINTS}); written unskinned",
            mesh.name,
            mesh.bind_poses.len()
        ));
        return None;
    }
    let mut missing = 0;
    let list: Vec<json::Index<json::Node>> = (0..mesh.bind_poses.len())
        .map(|i| {
            let j = bones.get(i).copied().flatten().filter(|&j| j < joints);
            if j.is_none() {
                missing += 1;
            }
            json::Index::new(j.unwrap_or(own) as u32)
        })
        .collect();
    if missing > 0 {
        warnings.push(format!(
            "mesh {}: {missing} bones are not joints of the rig; their vertices follow the renderer",
            mesh.name
        ));
    }
    let ibm: Vec<f32> = mesh.bind_poses.iter().flat_map(space::matrix).collect();
    let ibm = doc.floats(&ibm, Type::Mat4, false, None);
    Some(doc.root.push(json::Skin {
        extensions: None,
        extras: None,
        inverse_bind_matrices: Some(ibm),
        joints: list,
        name: Some(mesh.name.clone()),
        skeleton: None,
    }))
}

/// Morph targets (position and normal deltas, mirrored) for the mesh's blend shapes, each
/// at its full-weight frame, within the loaders' limits.
fn morph_targets(
    doc: &mut Document,
    mesh: &MeshData,
    r: &RendererEntry,
    report: &mut MeshReport,
    warnings: &mut Vec<String>,
) -> (Option<Vec<json::mesh::MorphTarget>>, Option<MorphNode>) {
    let n = mesh.vertex_count();
    if mesh.blend_shapes.is_empty() {
        return (None, None);
    }
    let cap = MAX_TARGETS.min(MAX_MORPH_ELEMENTS / n.max(1));
    if mesh.blend_shapes.len() > cap {
        warnings.push(format!(
            "mesh {}: {} blend shapes, {} kept (loader limits)",
            mesh.name,
            mesh.blend_shapes.len(),
            cap
        ));
    }
    let stored = match &r.kind {
        RendererKind::Skinned {
            blend_shape_weights,
            ..
        } => blend_shape_weights.clone(),
        _ => Vec::new(),
    };
    let mut targets = Vec::new();
    let mut node = MorphNode {
        joint: r.joint,
        names: Vec::new(),
        full_weight: Vec::new(),
        rest: Vec::new(),
    };
    for (c, channel) in mesh.blend_shapes.iter().take(cap).enumerate() {
        let Some(frame) = channel.frames.last() else {
            continue;
        };
        report.inbetween_frames_dropped += channel.frames.len() - 1;
        let mut positions = vec![[0.0f32; 3]; n];
        let mut normals = vec![[0.0f32; 3]; n];
        for d in &frame.vertices {
            if let Some(p) = positions.get_mut(d.index as usize) {
                *p = space::point(d.position).map(|x| if x.is_finite() { x } else { 0.0 });
                normals[d.index as usize] =
                    space::point(d.normal).map(|x| if x.is_finite() { x } else { 0.0 });
            }
        }
        let flat = |v: Vec<[f32; 3]>| v.into_iter().flatten().collect::<Vec<f32>>();
        let has_normals = mesh.normals.len() == n && normals.iter().flatten().any(|&x| x != 0.0);
        let positions = doc.floats(
            &flat(positions),
            Type::Vec3,
            true,
            Some(Target::ArrayBuffer),
        );
        let normals = has_normals
            .then(|| doc.floats(&flat(normals), Type::Vec3, false, Some(Target::ArrayBuffer)));
        targets.push(json::mesh::MorphTarget {
            positions: Some(positions),
            normals,
            tangents: None,
        });
        let full = if frame.weight != 0.0 && frame.weight.is_finite() {
            frame.weight
        } else {
            100.0
        };
        node.names.push(channel.name.clone());
        node.full_weight.push(full);
        let w = stored.get(c).copied().unwrap_or(0.0) / full;
        node.rest.push(if w.is_finite() { w } else { 0.0 });
    }
    if targets.is_empty() {
        return (None, None);
    }
    (Some(targets), Some(node))
}
