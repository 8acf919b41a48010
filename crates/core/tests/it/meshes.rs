//! Meshes and renderers of the shared Unity files, against what the files store: decoded
//! bounds against `m_LocalAABB`, skinning against the bind pose and the renderer's bounds,
//! bone hashes against the Transform paths, strips against the stored triangle counts.

use crate::common;

use clipscope_core::hash::path_hash;
use clipscope_core::mesh::{self, Aabb, MeshData, matrix, renderer};
use clipscope_core::resource::NoStreams;
use clipscope_core::rig::Hierarchy;
use clipscope_core::serialized::SerializedFile;
use clipscope_core::unity::class;

/// Every mesh of a file, decoded.
fn meshes(file: &SerializedFile) -> Vec<(i64, MeshData)> {
    file.objects
        .iter()
        .filter(|o| o.class_id == class::MESH)
        .map(|o| {
            (
                o.path_id,
                mesh::read(file, o, &NoStreams).expect("the mesh decodes"),
            )
        })
        .collect()
}

fn assert_close(a: &[f32], b: &[f32], tolerance: f32, what: &str) {
    assert_eq!(a.len(), b.len(), "{what}");
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() <= tolerance, "{what}: {a:?} vs {b:?}");
    }
}

fn assert_bounds_match_stored(m: &MeshData) {
    let bounds = m.bounds().expect("the mesh has vertices");
    assert_close(
        &bounds.to_array(),
        &m.local_aabb.to_array(),
        1e-6,
        &format!("{} bounds", m.name),
    );
}

/// The path of `transform` below `root` (names joined by `/`), walking up the fathers.
fn path_below(h: &Hierarchy, root: i64, transform: i64) -> Option<String> {
    let mut names = Vec::new();
    let mut id = transform;
    while id != root {
        names.push(h.name_of(id));
        id = h.transforms.get(&id)?.m_Father.path_id();
        if names.len() > 64 {
            return None;
        }
    }
    names.reverse();
    Some(names.join("/"))
}

/// The one skinned renderer of a file, its mesh and the file's hierarchy.
fn skinned_character(file: &SerializedFile) -> (renderer::SkinnedRenderer, MeshData, Hierarchy) {
    let mut problems = Vec::new();
    let renderers = renderer::read_all(file, &mut problems);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(renderers.skinned.len(), 1);
    let smr = renderers.skinned[0].clone();
    let info = file
        .object(smr.mesh.path_id())
        .expect("the mesh is in the file");
    let mesh = mesh::read(file, info, &NoStreams).unwrap();
    let hierarchy = Hierarchy::read(file, &mut problems);
    assert!(problems.is_empty(), "{problems:?}");
    (smr, mesh, hierarchy)
}

#[test]
fn copy_bundle_body_decodes_to_its_stored_facts() {
    let Some(files) = common::serialized_files("binary/lessscarymannequins/copy.bundle") else {
        return;
    };
    let (smr, body, h) = skinned_character(&files[0]);
    assert_eq!(body.name, "body");
    assert_eq!(body.vertex_count(), 2369);
    let counts: Vec<u32> = body.submeshes.iter().map(|s| s.index_count).collect();
    assert_eq!(counts, [5604, 1920]);
    assert!(
        body.submeshes
            .iter()
            .all(|s| s.indices.len() == s.index_count as usize)
    );
    assert_eq!((body.normals.len(), body.uv0.len()), (2369, 2369));
    assert_bounds_match_stored(&body);

    // A single-bone skin: every vertex fully on one of the 26 bones.
    assert_eq!((body.bind_poses.len(), smr.bones.len()), (26, 26));
    assert_eq!(body.skin.len(), 2369);
    assert!(
        body.skin
            .iter()
            .all(|w| w.weights == [1.0, 0.0, 0.0, 0.0] && w.bones[0] < 26)
    );

    // One blend shape, one frame at weight 100, 1 772 sparse vertices; the renderer starts it at 0.
    let [leg_up] = body.blend_shapes.as_slice() else {
        panic!("one channel");
    };
    assert_eq!(
        (leg_up.name.as_str(), leg_up.name_hash),
        ("leg_up", 1_551_551_495)
    );
    assert_eq!(leg_up.frames.len(), 1);
    assert_eq!(leg_up.frames[0].weight, 100.0);
    assert_eq!(leg_up.frames[0].vertices.len(), 1772);
    assert_eq!(smr.blend_shape_weights, [0.0]);

    // Bone i is m_Bones[i]; its hash is the CRC-32 of its path below the renderer's parent.
    let own = h.transform_of(smr.game_object.path_id()).unwrap();
    let model_root = h.transforms[&own].m_Father.path_id();
    for (i, bone) in smr.bones.iter().enumerate() {
        let path = path_below(&h, model_root, bone.path_id()).expect("bone under the model");
        assert_eq!(
            body.bone_name_hashes[i],
            path_hash(&path),
            "bone {i} {path}"
        );
    }
    let root = smr.root_bone.unwrap().path_id();
    let root_path = path_below(&h, model_root, root).unwrap();
    assert_eq!(body.root_bone_name_hash, path_hash(&root_path));
    assert_eq!(smr.materials.len(), 2);
    assert_eq!(body.submeshes.len(), smr.materials.len());
}

#[test]
fn copy_bundle_rig_in_bind_pose_skins_every_vertex_onto_the_unskinned_mesh() {
    let Some(files) = common::serialized_files("binary/lessscarymannequins/copy.bundle") else {
        return;
    };
    let (smr, body, h) = skinned_character(&files[0]);
    let bones = renderer::bone_world_matrices(&h, &smr);
    let skinned = mesh::skin_positions(&body, &bones);
    let own = h.transform_of(smr.game_object.path_id()).unwrap();
    let placed = renderer::world_matrix(&h, own);
    let size = body
        .bounds()
        .unwrap()
        .extent
        .iter()
        .fold(0.0f32, |a, &b| a.max(b));
    let mut worst = 0.0f32;
    for (v, p) in body.positions.iter().enumerate() {
        let expected = matrix::transform_point(&placed, *p);
        for c in 0..3 {
            worst = worst.max((skinned[v][c] - expected[c]).abs());
        }
    }
    // The world is scaled by 0.01; 3e-5 of the model's size is float noise.
    assert!(
        worst < 3e-5 * size,
        "worst vertex off by {worst} (size {size})"
    );
}

/// The bind-pose world matrices of a mesh's bones, expressed in its root bone's space:
/// `bindpose[root] × bindpose[i]⁻¹`.
fn bind_pose_in_root_space(mesh: &MeshData, root: usize) -> Vec<matrix::Mat4> {
    let root = mesh.bind_poses[root];
    mesh.bind_poses
        .iter()
        .map(|b| matrix::mul(&root, &matrix::inverse_affine(b).unwrap()))
        .collect()
}

fn inside(p: [f32; 3], b: &Aabb, slack: f32) -> bool {
    (0..3).all(|k| (p[k] - b.center[k]).abs() <= b.extent[k] + slack)
}

#[test]
fn renderer_bounds_are_the_bone_boxes_placed_at_the_bind_pose() {
    // Unity keeps m_AABB in the root bone's space, as the union of each bone's box
    // (m_BonesAABB) placed at the bind pose; the posed rig does not enter.
    for rel in [
        "binary/lessscarymannequins/copy.bundle",
        "binary/wetboys_plateupemotesapi/morbman",
    ] {
        let Some(files) = common::serialized_files(rel) else {
            return;
        };
        let (smr, body, _) = skinned_character(&files[0]);
        let root = smr
            .bones
            .iter()
            .position(|b| Some(*b) == smr.root_bone)
            .unwrap();
        let bind = bind_pose_in_root_space(&body, root);
        let bounds = mesh::posed_bounds(&body, &bind).unwrap();
        let scale = smr.bounds.extent.iter().fold(0.0f32, |a, &b| a.max(b));
        assert_close(
            &bounds.to_array(),
            &smr.bounds.to_array(),
            1e-5 * scale,
            rel,
        );
    }
}

#[test]
fn every_vertex_lies_in_the_boxes_of_the_bones_it_follows() {
    for rel in [
        "binary/lessscarymannequins/copy.bundle",
        "binary/wetboys_plateupemotesapi/morbman",
    ] {
        let Some(files) = common::serialized_files(rel) else {
            return;
        };
        let (_, body, _) = skinned_character(&files[0]);
        assert_eq!(body.bone_bounds.len(), body.bind_poses.len());
        let size = body.local_aabb.extent.iter().fold(0.0f32, |a, &b| a.max(b));
        for (v, w) in body.skin.iter().enumerate() {
            for k in (0..4).filter(|&k| w.weights[k] > 0.0) {
                let bone = w.bones[k] as usize;
                let p = matrix::transform_point(&body.bind_poses[bone], body.positions[v]);
                let b = body.bone_bounds[bone].expect("a used bone has a box");
                assert!(
                    inside(p, &b, 1e-5 * size),
                    "{rel}: vertex {v} outside bone {bone}"
                );
            }
        }
    }
}

#[test]
fn morbman_posed_rig_skins_inside_its_posed_bone_boxes() {
    let Some(files) = common::serialized_files("binary/wetboys_plateupemotesapi/morbman") else {
        return;
    };
    let (smr, body, h) = skinned_character(&files[0]);
    assert_eq!(body.name, "Body_4");
    assert_eq!(body.vertex_count(), 6266);
    assert_eq!(body.submeshes[0].index_count, 34752);
    assert_eq!((body.bind_poses.len(), smr.bones.len()), (23, 23));
    assert_eq!((body.tangents.len(), body.uv0.len()), (6266, 6266));
    assert_bounds_match_stored(&body);
    for w in &body.skin {
        let sum: f32 = w.weights.iter().sum();
        assert!((sum - 1.0).abs() < 1e-3, "weights sum to {sum}");
        assert!(w.weights.windows(2).all(|p| p[0] >= p[1]), "sorted: {w:?}");
    }
    let posed = renderer::bone_world_matrices(&h, &smr);
    let own = renderer::world_matrix(&h, h.transform_of(smr.game_object.path_id()).unwrap());
    let bind: Vec<_> = body
        .bind_poses
        .iter()
        .map(|b| matrix::mul(&own, &matrix::inverse_affine(b).unwrap()))
        .collect();
    let posed_box = mesh::posed_bounds(&body, &posed).unwrap();
    let bind_box = mesh::posed_bounds(&body, &bind).unwrap();
    let size = posed_box.extent.iter().fold(0.0f32, |a, &b| a.max(b));
    // The rig is stored posed, away from the bind pose …
    let moved =
        (0..6).any(|k| (posed_box.to_array()[k] - bind_box.to_array()[k]).abs() > 0.05 * size);
    assert!(moved, "posed {posed_box:?} vs bind {bind_box:?}");
    // … and each skinned vertex is a blend of points inside its bones' posed boxes.
    let skinned = mesh::skin_positions(&body, &posed);
    let skinned_box = Aabb::around(&skinned).unwrap();
    for p in &skinned {
        assert!(
            inside(*p, &posed_box, 1e-5 * size),
            "{p:?} outside {posed_box:?}"
        );
    }
    for k in 0..3 {
        assert!(
            skinned_box.extent[k] > 0.5 * posed_box.extent[k],
            "{skinned_box:?}"
        );
    }
}

#[test]
fn web_player_rigid_meshes_match_their_stored_bounds_and_strip_counts() {
    let Some(files) = common::serialized_files("binary/duckhunted/WebPlayer.unity3d") else {
        return;
    };
    let shared = &files[0];
    let decoded = meshes(shared);
    assert_eq!(decoded.len(), 3);
    for (path_id, m) in &decoded {
        assert_bounds_match_stored(m);
        // 3.5 strips (isTriStrip = 2) give exactly the stored triangle count.
        let raw: clipscope_core::unity::mesh::Mesh =
            shared.read(shared.object(*path_id).unwrap()).unwrap();
        for (sub, stored) in m.submeshes.iter().zip(&raw.m_SubMeshes) {
            assert_eq!(
                Some(sub.indices.len() as i64 / 3),
                stored.triangleCount.map(|t| t.0),
                "{} ({:?})",
                m.name,
                sub.topology
            );
        }
    }
    let strips: Vec<usize> = decoded
        .iter()
        .flat_map(|(_, m)| &m.submeshes)
        .filter(|s| s.topology == mesh::Topology::TriangleStrip)
        .map(|s| s.indices.len() / 3)
        .collect();
    assert_eq!(strips, [2, 120]);
}

#[test]
fn web_player_mesh_renderers_find_their_meshes_and_built_ins() {
    let Some(files) = common::serialized_files("binary/duckhunted/WebPlayer.unity3d") else {
        return;
    };
    let main = &files[1];
    let mut problems = Vec::new();
    let r = renderer::read_all(main, &mut problems);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(r.meshes.len(), 16);
    assert!(
        r.meshes
            .iter()
            .all(|m| !m.mesh.is_null() && !m.materials.is_empty())
    );
    let library = &main.externals[0].path;
    assert!(mesh::is_default_resources(library), "{library}");
    let cubes: Vec<_> = r
        .meshes
        .iter()
        .filter(|m| m.mesh.file_id() == 1 && m.mesh.path_id() == 10202)
        .collect();
    assert_eq!(cubes.len(), 9);
    let cube = mesh::builtin(10202).unwrap();
    assert_eq!(cube.bounds().unwrap().extent, [0.5; 3]);
    // The tree mesh has two sub-meshes and two materials (bark, leaves).
    let tree = r.meshes.iter().find(|m| m.mesh.path_id() == 18).unwrap();
    assert_eq!(tree.materials.len(), 2);
}

#[test]
fn reset_animator_mesh_filters_use_built_in_plane_and_cube() {
    let Some(files) = common::serialized_files("binary/resetanimator/WebPlayer.unity3d") else {
        return;
    };
    let main = files.last().unwrap();
    let mut problems = Vec::new();
    let r = renderer::read_all(main, &mut problems);
    assert!(problems.is_empty(), "{problems:?}");
    let ids: Vec<i64> = r.meshes.iter().map(|m| m.mesh.path_id()).collect();
    assert_eq!(ids, [10209, 10202]);
    let h = Hierarchy::read(main, &mut problems);
    let names: Vec<String> = r
        .meshes
        .iter()
        .map(|m| h.game_objects[&m.game_object.path_id()].m_Name.clone())
        .collect();
    // The GameObjects are named after the primitives they were created as.
    assert_eq!(names, ["Plane", "Cube"]);
    for id in ids {
        assert!(mesh::builtin(id).is_some_and(|m| m.vertex_count() > 0));
    }
}
