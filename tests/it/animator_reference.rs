//! `controller --json` and `animate --json` against the independent reference in
//! `../shared/data/animator-reference/` (a second implementation of the animator spec,
//! written apart from clipscope): every model and every run of its index, compared field by
//! field with the README's tolerances. Each mismatch is printed with its JSON path
//! (`[12].layers[0].states[1].normalized_time`); the test fails on any.
//!
//! What is not compared, and why: `file` (where the file was read: a path of the machine
//! that ran it), `warnings` (wording; what could not be found is checked by
//! `missing_clips_are_listed` below), the reference's `missing` text (same) and the
//! transitions' `name`, `solo` and `mute` (the model keeps the transitions left after solo
//! and mute are applied and no user names; the reference prints `null`/`false` there).
//! clipscope's own extras `problems`, `reference`, `ik_pass` and `foot_ik` are allowed. A transition's
//! destination, `{"kind", "path"}` in clipscope, is compared as the reference's path string.

use crate::common;

use std::path::{Path, PathBuf};

use serde_json::Value;

use common::reference::compare;

/// Keys of the reference that are not compared (see the module comment).
const NOT_COMPARED: &[&str] = &["file", "warnings", "missing", "solo", "mute"];

fn reference_dir() -> Option<PathBuf> {
    common::data("animator-reference")
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `clipscope ARGS`, its stdout parsed; a failure is one mismatch.
fn run_cli(args: &[String]) -> Result<Value, String> {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = common::clipscope(&args);
    if code != 0 {
        return Err(format!("clipscope {args:?} exited {code}: {err}"));
    }
    serde_json::from_str(&out).map_err(|e| format!("clipscope {args:?}: not JSON: {e}"))
}

/// The folder the index's `setup` describes: Cube.controller, Hop.anim and TextureMove.anim
/// copied into an empty folder with `.meta` files for the two clips.
/// `tag` tells apart the folders of tests that run at the same time.
fn meta_setup(controller: &Path, tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("clipscope-anim-ref-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp folder");
    let from = controller.parent().expect("a folder");
    for name in ["Cube.controller", "Hop.anim", "TextureMove.anim"] {
        std::fs::copy(from.join(name), dir.join(name)).expect("copies");
    }
    for (name, guid) in [
        ("Hop.anim", "e217e1bf86a15d54a80b39e05ba74d82"),
        ("TextureMove.anim", "46b95b416612e44439fad1a12ed84155"),
    ] {
        let meta = format!(
            "fileFormatVersion: 2\nguid: {guid}\nNativeFormatImporter:\n  mainObjectFileID: 7400000\n"
        );
        std::fs::write(dir.join(format!("{name}.meta")), meta).expect("writes");
    }
    dir.join("Cube.controller")
}

/// Every model of the index: (label, mismatches).
fn models(dir: &Path, index: &Value) -> Vec<(String, Vec<String>)> {
    let data = dir.parent().expect("shared data");
    let mut results = Vec::new();
    for entry in index["controllers"].as_array().expect("controllers") {
        let label = entry["label"].as_str().unwrap_or_default().to_string();
        let mut path = data.join(entry["path"].as_str().expect("path"));
        let setup = entry.get("setup").is_some();
        if setup {
            path = meta_setup(&path, "model");
        }
        let name = entry["name"].as_str().expect("name");
        let expected = read_json(&dir.join(entry["expected"].as_str().expect("expected")));
        let args = [
            "controller".to_string(),
            path.display().to_string(),
            "--name".to_string(),
            name.to_string(),
            "--json".to_string(),
        ];
        let mut found = Vec::new();
        match run_cli(&args) {
            Ok(Value::Array(all)) if all.len() == 1 => {
                compare("", "", &expected, &all[0], NOT_COMPARED, &mut found)
            }
            Ok(other) => found.push(format!("expected one controller, got {other}")),
            Err(e) => found.push(e),
        }
        if setup && let Some(dir) = path.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
        results.push((label, found));
    }
    results
}

/// Every run of the index: (label, mismatches).
fn runs(dir: &Path, index: &Value) -> Vec<(String, Vec<String>)> {
    let data = dir.parent().expect("shared data");
    let mut results = Vec::new();
    for (i, run) in index["runs"].as_array().expect("runs").iter().enumerate() {
        let label = format!("run {i} {}", run["label"].as_str().unwrap_or_default());
        let path = data.join(run["path"].as_str().expect("path"));
        let times: Vec<String> = run["times"]
            .as_array()
            .expect("times")
            .iter()
            .map(|t| t.to_string())
            .collect();
        let args = [
            "animate".to_string(),
            path.display().to_string(),
            "--controller".to_string(),
            run["controller"].as_str().expect("controller").to_string(),
            "--script".to_string(),
            run["script"].as_str().expect("script").to_string(),
            "--fps".to_string(),
            run["fps"].to_string(),
            format!("--times={}", times.join(",")),
            "--json".to_string(),
        ];
        let expected = read_json(&dir.join(run["expected"].as_str().expect("expected")));
        let mut found = Vec::new();
        match run_cli(&args) {
            Ok(ours) => compare("", "", &expected, &ours, NOT_COMPARED, &mut found),
            Err(e) => found.push(e),
        }
        results.push((label, found));
    }
    results
}

/// Prints every mismatch; the number of cases that agree.
fn report(kind: &str, results: &[(String, Vec<String>)]) -> usize {
    let mut agree = 0;
    for (label, found) in results {
        if found.is_empty() {
            agree += 1;
            continue;
        }
        eprintln!("{kind} {label}: {} mismatches", found.len());
        for m in found {
            eprintln!("  {m}");
        }
    }
    eprintln!(
        "{kind}s: {agree} of {} agree with the reference",
        results.len()
    );
    agree
}

#[test]
fn every_model_and_run_agrees_with_the_reference() {
    let Some(dir) = reference_dir() else {
        return;
    };
    let index = read_json(&dir.join("index.json"));
    let models = models(&dir, &index);
    let runs = runs(&dir, &index);
    let model_agree = report("model", &models);
    let run_agree = report("run", &runs);
    assert_eq!(
        (model_agree, run_agree),
        (models.len(), runs.len()),
        "models and runs that agree with the reference (mismatches above)"
    );
}

#[test]
fn missing_clips_are_listed() {
    let Some(path) = common::data("yaml/unitypackage-js/Cube.controller") else {
        return;
    };
    // Without `.meta` files the guids name nothing: each is listed, and the states show the
    // clips as not loaded.
    let dir = std::env::temp_dir().join(format!("clipscope-anim-nometa-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp folder");
    let copy = dir.join("Cube.controller");
    std::fs::copy(&path, &copy).expect("copies");
    let (code, out, err) = common::clipscope(&["controller", copy.to_str().unwrap(), "--json"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 0, "{err}");
    for guid in [
        "e217e1bf86a15d54a80b39e05ba74d82",
        "46b95b416612e44439fad1a12ed84155",
    ] {
        assert!(
            err.lines()
                .any(|l| l.contains(guid) && l.contains("no .meta file")),
            "{guid} is listed as not found: {err}"
        );
    }
    let v: Value = serde_json::from_str(&out).expect("JSON");
    let motion = &v[0]["layers"][0]["state_machine"]["states"][0]["motion"];
    assert_eq!(motion["clip"], Value::Null, "{motion}");
}

#[test]
fn a_controller_opened_alone_plays_the_clips_its_meta_guids_name() {
    let Some(path) = common::data("yaml/unitypackage-js/Cube.controller") else {
        return;
    };
    let copy = meta_setup(&path, "alone");
    let ws = clipscope_core::Workspace::open(std::slice::from_ref(&copy), &Default::default());
    let names: Vec<String> = ws.clips.iter().map(|c| c.name.clone()).collect();
    let model = ws.controllers[0].model.clone().expect("decodes");
    let args = [
        "animate".to_string(),
        copy.display().to_string(),
        "--controller".to_string(),
        "Cube".to_string(),
        "--times=0.5".to_string(),
        "--json".to_string(),
    ];
    let frames = run_cli(&args);
    let _ = std::fs::remove_dir_all(copy.parent().expect("a folder"));
    // The two .anim files were opened on demand, and the states' motions resolved to them.
    assert_eq!(names, ["Hop", "TextureMove"], "{:?}", ws.warnings);
    assert_eq!(ws.controllers[0].clips.len(), 2);
    let resolved: Vec<Option<String>> = model
        .layers
        .iter()
        .map(|l| match &l.state_machine.states[0].motion {
            Some(clipscope_core::animator::model::Motion::Clip(c)) => {
                c.resolved.as_ref().map(|r| r.name.clone())
            }
            _ => None,
        })
        .collect();
    assert_eq!(resolved, [Some("Hop".into()), Some("TextureMove".into())]);
    // `animate` plays them: each layer's leaf is the clip, at 0.5 s of its 1 s.
    let frames = frames.expect("animate runs");
    for (layer, clip) in ["Hop", "TextureMove"].iter().enumerate() {
        let leaf = &frames[0]["layers"][layer]["states"][0]["leaves"][0];
        assert_eq!(leaf["clip"], *clip, "{leaf}");
        assert!(
            (leaf["clip_time"].as_f64().unwrap() - 0.5).abs() < 1e-9,
            "{leaf}"
        );
    }
}
