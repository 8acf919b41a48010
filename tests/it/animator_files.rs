//! The `controller` and `animate` commands on the shared AnimatorControllers: the JSON
//! shapes, a script played, and names that name nothing. The decoding itself is tested in the
//! core's `animator_files`.

use crate::common;

#[test]
fn controller_command_prints_the_issue_json_shape() {
    let Some(path) = common::data("binary/wetboys_plateupemotesapi") else {
        return;
    };
    let (code, out, err) = common::clipscope(&[
        "controller",
        path.to_str().unwrap(),
        "--name",
        "dancecontroller",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let c = &v[0];
    assert_eq!(c["name"], "dancecontroller");
    let machine = &c["layers"][0]["state_machine"];
    assert_eq!(machine["default_state"], "Base Layer.none");
    let poop = &machine["states"][2];
    assert_eq!(poop["full_path"], "Base Layer.Poop");
    assert_eq!(poop["motion"]["clip"], "Default Dance");
    assert_eq!(
        poop["transitions"][0]["destination"],
        serde_json::json!({"kind": "state", "path": "Base Layer.none"})
    );
    assert_eq!(machine["states"][0]["motion"], serde_json::Value::Null);
    let (code, _, err) =
        common::clipscope(&["controller", path.to_str().unwrap(), "--name", "nope"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn animate_plays_dancecontroller_from_a_script() {
    let Some(path) = common::data("binary/wetboys_plateupemotesapi") else {
        return;
    };
    // The default state has no motion and speed 0; the script plays Poop (Default Dance,
    // 6.8 s, loop), whose exit time 1 leads back to the motionless "none".
    let (code, out, err) = common::clipscope(&[
        "animate",
        path.to_str().unwrap(),
        "--controller",
        "dancecontroller",
        "--script",
        "0:play Base Layer.Poop",
        "--times",
        "0,1.7,7",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let state = |i: usize| &v[i]["layers"][0]["states"][0];
    assert_eq!(state(0)["path"], "Base Layer.Poop");
    let leaf = &state(1)["leaves"][0];
    assert_eq!(leaf["clip"], "Default Dance");
    let length = state(1)["length"].as_f64().unwrap();
    assert!((length - 6.8).abs() < 1e-5, "{length}");
    assert!((state(1)["normalized_time"].as_f64().unwrap() - 1.7 / length).abs() < 1e-6);
    assert!((leaf["clip_time"].as_f64().unwrap() - 1.7).abs() < 1e-4);
    assert_eq!(state(2)["path"], "Base Layer.none");
    assert_eq!(state(2)["leaves"], serde_json::json!([]));
    let (code, _, _) = common::clipscope(&[
        "animate",
        path.to_str().unwrap(),
        "--controller",
        "dancecontroller",
        "--script",
        "oops",
        "--json",
    ]);
    assert_eq!(code, 2, "a bad script is a usage error");
}

#[test]
fn controller_json_of_a_text_direct_tree() {
    let Some(path) = common::data("yaml/modular-avatar/DBTP.controller") else {
        return;
    };
    let (code, out, err) = common::clipscope(&["controller", path.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let c = &v[0];
    assert_eq!(
        c["parameters"][0],
        serde_json::json!({"name": "A", "type": "float", "default": 0.0})
    );
    let motion = &c["layers"][0]["state_machine"]["states"][0]["motion"];
    assert_eq!(motion["blend_tree"], "direct");
    assert_eq!(motion["parameter"], serde_json::Value::Null);
    let child = &motion["children"][1];
    assert_eq!(child["direct_parameter"], "B");
    // Its clips are not in the shared data: the reference says what was not found.
    assert_eq!(child["motion"]["clip"], serde_json::Value::Null);
    let reference = child["motion"]["reference"].as_str().unwrap();
    assert!(
        reference.contains("822fa250a223d354b8f2c1e5e4a71beb"),
        "{reference}"
    );
}
