//! `list --json` reports each rig's renderers with whether Unity draws them at rest.

use crate::common;

use common::{clipscope, data};
use serde_json::Value;

#[test]
fn duck_hunts_muzzle_flash_is_a_disabled_renderer_and_is_not_drawn() {
    let Some(path) = data("binary/duckhunted/WebPlayer.unity3d") else {
        return;
    };
    let (code, out, err) = clipscope(&["list", "--json", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let model = v["rigs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "Model")
        .expect("the Model rig");
    assert_eq!(
        model["renderers"],
        serde_json::json!([
            { "path": "Cube", "kind": "mesh", "mesh": "Cube", "active": true, "enabled": true, "drawn": true },
            { "path": "MuzzleFlash", "kind": "mesh", "mesh": "Cube", "active": true, "enabled": false, "drawn": false },
        ])
    );
}

use clipscope_authoring::fixtures::renderer as renderer_fixture;

#[test]
fn a_written_rig_reports_each_renderers_activity_and_only_the_active_enabled_one_is_drawn() {
    let path = renderer_fixture::write("list", false);
    let (code, out, err) = clipscope(&["list", "--json", path.to_str().unwrap()]);
    std::fs::remove_dir_all(path.parent().unwrap()).ok();
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let rigs = v["rigs"].as_array().unwrap();
    assert_eq!(rigs.len(), 1, "{out}");
    let want: Vec<Value> = renderer_fixture::CUBES
        .iter()
        .map(|c| {
            serde_json::json!({
                "path": c.path,
                "kind": "mesh",
                "mesh": c.path.rsplit('/').next().unwrap(),
                "active": c.active,
                "enabled": c.enabled,
                "drawn": c.drawn,
            })
        })
        .collect();
    assert_eq!(rigs[0]["name"], renderer_fixture::ROOT);
    assert_eq!(rigs[0]["renderers"], Value::Array(want), "{err}");
    // Nothing about the file is reported as unreadable.
    assert!(!err.contains("warning"), "{err}");
}
