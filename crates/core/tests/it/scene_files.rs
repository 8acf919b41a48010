//! The character side of real files through the workspace: each rig's renderers with their
//! meshes, bones, materials and textures resolved. `list --json`'s `meshes` and `textures`
//! and `clipscope texture` are tested in the root package's `scene_files`.

use crate::common;

use clipscope_core::workspace::{MeshSource, RendererKind};
use common::{data, open};

#[test]
fn skinned_renderers_place_every_bone_on_a_joint() {
    let (Some(copy), Some(morbman)) = (
        data("binary/lessscarymannequins/copy.bundle"),
        data("binary/wetboys_plateupemotesapi/morbman"),
    ) else {
        return;
    };
    let ws = open(&[copy, morbman]);
    for (rig_name, mesh_name, bones) in [("quinn", "body", 26), ("morbman", "Body_4", 23)] {
        let rig = ws.rigs.iter().find(|r| r.name == rig_name).unwrap();
        let skinned: Vec<_> = rig
            .renderers
            .iter()
            .filter(|r| matches!(r.kind, RendererKind::Skinned { .. }))
            .collect();
        assert_eq!(skinned.len(), 1, "{rig_name}");
        let r = skinned[0];
        let MeshSource::Loaded(at) = &r.mesh else {
            panic!("{rig_name}: {:?}", r.mesh)
        };
        let mesh = ws.mesh(*at).unwrap();
        assert_eq!(mesh.name, mesh_name);
        let RendererKind::Skinned { bones: placed, .. } = &r.kind else {
            unreachable!()
        };
        assert_eq!(placed.len(), bones, "{rig_name}");
        assert!(placed.iter().all(Option::is_some), "{rig_name}: {placed:?}");
        // Bone i of the renderer is the joint whose path the mesh names for bind pose i.
        let data = mesh.data.as_ref().unwrap();
        for (i, joint) in placed.iter().enumerate() {
            let hash = rig.skeleton.joints[joint.unwrap()].path_hash;
            assert_eq!(data.bone_name_hashes[i], hash, "{rig_name} bone {i}");
        }
        assert!(
            r.materials.iter().all(Option::is_some),
            "{rig_name}: {:?}",
            r.materials
        );
    }
}

#[test]
fn rigid_renderers_find_their_meshes_materials_and_textures() {
    let Some(path) = data("binary/duckhunted/WebPlayer.unity3d") else {
        return;
    };
    let ws = open(&[path]);
    let rig = ws.rigs.iter().find(|r| r.name == "Model").unwrap();
    let rigid: Vec<_> = rig
        .renderers
        .iter()
        .filter(|r| r.kind == RendererKind::Rigid)
        .collect();
    assert!(!rigid.is_empty());
    let loaded = rigid
        .iter()
        .filter(|r| matches!(r.mesh, MeshSource::Loaded(_)))
        .count();
    assert!(
        loaded > 0,
        "{:?}",
        rigid.iter().map(|r| &r.mesh).collect::<Vec<_>>()
    );
    // Every material a renderer uses is loaded and names a texture of the file that decodes.
    let mut textured = 0;
    for r in &rigid {
        for m in r.materials.iter().flatten() {
            let material = ws.material(*m).unwrap();
            if let Some(t) = ws.material_texture(material) {
                assert!(t.image.is_some(), "{}: {:?}", t.name, t.error);
                textured += 1;
            }
        }
    }
    assert!(textured > 0);
}
