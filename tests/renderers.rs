//! `list --json` reports each rig's renderers with whether Unity draws them at rest.

mod common;

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
