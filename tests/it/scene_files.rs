//! The character side of real files through the command line: `list --json`'s `meshes` and
//! `textures`, and `clipscope texture`. The workspace's side is tested in the core's
//! `scene_files`.

use crate::common;

use common::{clipscope, data, open};
use serde_json::Value;

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
