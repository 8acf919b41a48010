//! The character side of real files through the workspace and the command line: each rig's
//! renderers with their meshes, bones, materials and textures resolved; `list --json`'s
//! `meshes` and `textures`; `clipscope texture`.

use crate::common;

use clipscope_core::workspace::{MeshSource, RendererKind};
use common::{clipscope, data, open};
use serde_json::Value;

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

#[test]
fn list_json_has_meshes_and_textures_with_the_documented_fields() {
    let (Some(copy), Some(duck), Some(day65)) = (
        data("binary/lessscarymannequins/copy.bundle"),
        data("binary/duckhunted/WebPlayer.unity3d"),
        data("binary/day65platformer2d/sharedassets0.assets"),
    ) else {
        return;
    };
    let (_, out, err) = clipscope(&[
        "list",
        "--json",
        copy.to_str().unwrap(),
        duck.to_str().unwrap(),
        day65.to_str().unwrap(),
    ]);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {err}"));
    let keys = |o: &Value| {
        let mut k: Vec<String> = o.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    let meshes = v["meshes"].as_array().unwrap();
    assert_eq!(meshes.len(), 4);
    for m in meshes {
        assert_eq!(
            keys(m),
            [
                "blend_shapes",
                "bones",
                "bounds",
                "error",
                "file",
                "name",
                "path_id",
                "skinned",
                "submeshes",
                "vertices"
            ]
        );
    }
    let body = meshes.iter().find(|m| m["name"] == "body").unwrap();
    assert_eq!(
        (body["vertices"].as_u64(), body["bones"].as_u64()),
        (Some(2369), Some(26))
    );
    assert_eq!(
        (body["blend_shapes"].as_u64(), body["skinned"].as_bool()),
        (Some(1), Some(true))
    );
    assert_eq!(body["submeshes"].as_array().unwrap().len(), 2);
    assert_eq!(body["bounds"].as_array().unwrap().len(), 6);
    let textures = v["textures"].as_array().unwrap();
    assert_eq!(textures.len(), 11);
    for t in textures {
        assert_eq!(
            keys(t),
            [
                "decoded", "error", "file", "format", "height", "name", "path_id", "width"
            ]
        );
    }
    let rifle = textures.iter().find(|t| t["name"] == "rifle").unwrap();
    assert_eq!(
        (
            rifle["width"].as_u64(),
            rifle["height"].as_u64(),
            rifle["format"].as_i64()
        ),
        (Some(64), Some(64), Some(7))
    );
    assert_eq!(rifle["decoded"], true);
    // day65's sprite sheet lives in a .resS that is not in the shared data: listed, not decoded.
    let sheet = textures
        .iter()
        .find(|t| t["name"] == "Basic Sprites")
        .unwrap();
    assert_eq!(
        (sheet["width"].as_u64(), sheet["height"].as_u64()),
        (Some(224), Some(16))
    );
    assert_eq!(sheet["decoded"], false);
    assert!(sheet["error"].as_str().unwrap().contains("resS"));
}

#[test]
fn texture_writes_the_decoded_image_as_png_top_row_first() {
    let Some(path) = data("binary/duckhunted/WebPlayer.unity3d") else {
        return;
    };
    let ws = open(std::slice::from_ref(&path));
    let rifle = ws.textures.iter().find(|t| t.name == "rifle").unwrap();
    let image = rifle.image.as_ref().unwrap();
    let out = std::env::temp_dir().join(format!("clipscope-rifle-{}.png", std::process::id()));
    let (code, _, err) = clipscope(&[
        "texture",
        path.to_str().unwrap(),
        "--path-id",
        &rifle.at.path_id.to_string(),
        "--png",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&out).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    assert_eq!((info.width, info.height), (64, 64));
    assert_eq!(info.color_type, png::ColorType::Rgba);
    assert_eq!(&pixels[..info.buffer_size()], &image.pixels[..]);
    std::fs::remove_file(out).unwrap();
    // A path id that is no texture is a usage error.
    let (code, _, err) = clipscope(&[
        "texture",
        path.to_str().unwrap(),
        "--path-id",
        "424242",
        "--png",
        "x.png",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("textures there"), "{err}");
}
