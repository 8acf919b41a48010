//! `clipscope diff` and the comparison behind it: a text clip against its own build, a clip
//! against itself, fixtures with one key moved, and the exit codes.

use crate::common;

use std::path::{Path, PathBuf};

use clipscope_authoring::{
    Bundle, ClipSpec, KeySpec, LegacyClip, PathCurve, UnityTarget, write_bundle,
};
use clipscope_core::curve::CurveShape;
use clipscope_core::diff::{comparison_times, diff_clips};
use clipscope_core::sample::wrapped_time;
use clipscope_core::{ClipData, OpenOptions, Workspace, path_hash};
use common::{clipscope, data};
use serde_json::Value;

fn only_clip(ws: &Workspace, name: &str) -> ClipData {
    assert!(ws.errors.is_empty(), "{:?}", ws.errors);
    let found: Vec<_> = ws.clips.iter().filter(|c| c.name == name).collect();
    assert_eq!(found.len(), 1, "one clip named {name}");
    found[0].data.as_ref().expect("decodes").clone()
}

#[test]
fn floss_text_against_its_build_differs_by_the_dense_frames_linear_error() {
    let (Some(text_path), Some(bundle)) = (
        data("yaml/plateupemotesapi/Floss.anim"),
        data("binary/wetboys_plateupemotesapi/moisture_animationreplacements"),
    ) else {
        return;
    };
    let text = only_clip(
        &Workspace::open(&[text_path], &OpenOptions::default()),
        "Floss",
    );
    let built = only_clip(
        &Workspace::open(&[bundle], &OpenOptions::default()),
        "Floss",
    );
    let d = diff_clips(&text, &built);
    assert_eq!(d.curves.len(), 130);
    assert_eq!(d.curves.len(), built.curves.len());
    assert!(d.only_in_a.is_empty() && d.only_in_b.is_empty());
    assert!(d.facts.is_empty(), "{:?}", d.facts);
    let times = comparison_times(&text, &built);
    assert_eq!(d.times, times.len());
    let (wrap_a, wrap_b) = (text.wrap_mode(), built.wrap_mode());
    let mut dense = 0;
    for c in &d.curves {
        let keys = &text.curves[c.a_index].curve;
        let stored = &built.curves[c.b_index].curve;
        // What the build's storage gives, computed here from the text keys: a dense curve
        // interpolates the keys' values at its frames linearly; a constant is the value at
        // the start.
        let rebuilt = |tb: f32| -> f64 {
            match &stored.shape {
                CurveShape::Sampled {
                    begin,
                    rate,
                    values,
                } => {
                    let x = ((tb - begin) * rate).clamp(0.0, (values.len() - 1) as f32) as f64;
                    let k = (x.floor() as usize).min(values.len() - 1);
                    let frame = |k: usize| keys.sample(begin + k as f32 / rate) as f64;
                    let next = frame((k + 1).min(values.len() - 1));
                    frame(k) + (next - frame(k)) * (x - k as f64)
                }
                CurveShape::Constant(_) => keys.sample(text.start) as f64,
                CurveShape::Keys(_) => panic!("Floss's build has no streamed curves"),
            }
        };
        let expected = times
            .iter()
            .map(|&t| {
                let a = keys.sample(wrapped_time(&text, wrap_a, t)) as f64;
                (a - rebuilt(wrapped_time(&built, wrap_b, t))).abs()
            })
            .fold(0.0, f64::max);
        let tolerance = 2e-5;
        assert!(
            (c.max_abs - expected).abs() <= tolerance,
            "{}: max_abs {} but the keys against the build's frames give {expected}",
            c.name,
            c.max_abs
        );
        assert!(c.rms <= c.max_abs);
        assert_eq!(c.a_storage, "keyframe");
        assert_eq!(c.a_keys, keys.len());
        assert_eq!(c.b_keys, stored.len());
        match c.b_storage {
            "dense" => dense += 1,
            "constant" => assert!(c.max_abs < tolerance, "{}: {}", c.name, c.max_abs),
            other => panic!("storage {other}"),
        }
    }
    assert_eq!(dense, 78);
    // Linear frames between curved keys do differ: the comparison sees it.
    assert!(d.max_abs > 1e-2, "{}", d.max_abs);
}

#[test]
fn a_clip_against_itself_is_all_zeros() {
    let Some(bundle) = data("binary/wetboys_plateupemotesapi/moisture_animationreplacements")
    else {
        return;
    };
    let path = bundle.to_str().unwrap();
    let (code, out, err) = clipscope(&[
        "diff",
        path,
        path,
        "--clip",
        "Dab",
        "--json",
        "--tolerance",
        "0",
    ]);
    assert_eq!(code, 0, "{err}");
    let json: Value = serde_json::from_str(&out).unwrap();
    let keys: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut expected = [
        "a",
        "b",
        "times",
        "facts",
        "curves",
        "only_in_a",
        "only_in_b",
        "max_abs",
    ];
    expected.sort();
    let mut keys_sorted = keys.clone();
    keys_sorted.sort();
    assert_eq!(keys_sorted, expected);
    assert_eq!(json["a"]["clip"], "Dab");
    assert_eq!(json["a"]["path_id"], json["b"]["path_id"]);
    assert_eq!(json["max_abs"], 0.0);
    assert!(json["times"].as_u64().unwrap() > 100);
    assert_eq!(json["facts"], Value::Array(vec![]));
    let curves = json["curves"].as_array().unwrap();
    assert_eq!(curves.len(), 170);
    for c in curves {
        assert_eq!(
            (c["max_abs"].as_f64(), c["rms"].as_f64()),
            (Some(0.0), Some(0.0))
        );
        assert_eq!(c["a_storage"], c["b_storage"]);
        assert_eq!(c["a_keys"], c["b_keys"]);
        assert!(c["angle_deg"].is_null(), "Dab binds no Transform rotation");
    }
    let streamed = curves
        .iter()
        .filter(|c| c["a_storage"] == "streamed")
        .count();
    assert_eq!(streamed, 50);
    // Without --clip every name found on both sides is compared, as an array.
    let (code, out, err) = clipscope(&["diff", path, path, "--json"]);
    assert_eq!(code, 0, "{err}");
    let json: Value = serde_json::from_str(&out).unwrap();
    let names: Vec<&str> = json
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["a"]["clip"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Dab", "Floss", "nobones"]);
}

const HIPS: &str = "Hips";
const KEY_TIME: f32 = 0.5;

/// A legacy clip: Hips position (0,0,0) → (0,y,0) → (0,0,0) at 0, 0.5, 1 and Hips rotation
/// identity → yaw → identity, all keys flat, plus a float curve.
fn moved(y: f32, yaw_deg: f32, extra_curve: bool) -> Vec<u8> {
    let half = yaw_deg.to_radians() / 2.0;
    let mut clip = LegacyClip::new("Bob");
    clip.position = vec![PathCurve::new(
        HIPS,
        vec![
            KeySpec::flat(0.0, [0.0; 3]),
            KeySpec::flat(KEY_TIME, [0.0, y, 0.0]),
            KeySpec::flat(1.0, [0.0; 3]),
        ],
    )];
    clip.rotation = vec![PathCurve::new(
        HIPS,
        vec![
            KeySpec::flat(0.0, [0.0, 0.0, 0.0, 1.0]),
            KeySpec::flat(KEY_TIME, [0.0, half.sin(), 0.0, half.cos()]),
            KeySpec::flat(1.0, [0.0, 0.0, 0.0, 1.0]),
        ],
    )];
    if extra_curve {
        clip.scale = vec![PathCurve::new(HIPS, vec![KeySpec::flat(0.0, [1.0; 3])])];
    }
    let mut bundle = Bundle::new(UnityTarget::Unity2020);
    bundle.clips.push(ClipSpec::Legacy(clip));
    write_bundle(&bundle).expect("writes")
}

/// Writes the fixtures into a fresh folder.
fn fixtures(tag: &str) -> (PathBuf, [String; 4]) {
    let dir = std::env::temp_dir().join(format!("clipscope-diff-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, bytes: Vec<u8>| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path.to_str().unwrap().to_string()
    };
    let files = [
        write("base.bundle", moved(1.0, 0.0, false)),
        write("y.bundle", moved(1.25, 0.0, false)),
        write("yaw.bundle", moved(1.0, 30.0, false)),
        write("scale.bundle", moved(1.0, 0.0, true)),
    ];
    (dir, files)
}

fn diff_json(a: &str, b: &str, extra: &[&str]) -> (i32, Value) {
    let (code, out, err) = clipscope(&[&["diff", a, b, "--clip", "Bob", "--json"], extra].concat());
    assert!(code == 0 || code == 3, "{code}: {err}");
    (code, serde_json::from_str(&out).unwrap_or(Value::Null))
}

fn curve(json: &Value, attribute: u32, component: u8) -> &Value {
    json["curves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["attribute"] == attribute && c["component"] == component)
        .unwrap()
}

#[test]
fn one_moved_key_shows_on_exactly_its_curve_at_its_time() {
    let (dir, [base, y, yaw, _]) = fixtures("moved");
    let (_, json) = diff_json(&base, &y, &[]);
    assert_eq!(json["curves"].as_array().unwrap().len(), 7);
    for c in json["curves"].as_array().unwrap() {
        assert_eq!(c["path"], path_hash(HIPS));
        assert_eq!(c["type_id"], 4);
        assert_eq!(
            (c["a_storage"].as_str(), c["a_keys"].as_u64()),
            (Some("keyframe"), Some(3))
        );
        let is_moved = c["attribute"] == 1 && c["component"] == 1;
        if is_moved {
            assert!((c["max_abs"].as_f64().unwrap() - 0.25).abs() < 1e-6, "{c}");
            assert!(
                (c["at"].as_f64().unwrap() - KEY_TIME as f64).abs() < 1e-6,
                "{c}"
            );
            assert!(c["rms"].as_f64().unwrap() > 0.0);
        } else {
            assert_eq!(c["max_abs"], 0.0, "{c}");
        }
        let angle = c["angle_deg"].as_f64();
        assert_eq!(angle, (c["attribute"] == 2).then_some(0.0), "{c}");
    }
    assert!((json["max_abs"].as_f64().unwrap() - 0.25).abs() < 1e-6);

    // A rotation key turned by 30 degrees: the angle between the quaternions, and the y
    // component's difference sin(15°), both at the key.
    let (_, json) = diff_json(&base, &yaw, &[]);
    for component in 0..4 {
        let c = curve(&json, 2, component);
        assert!(
            (c["angle_deg"].as_f64().unwrap() - 30.0).abs() < 1e-3,
            "{c}"
        );
    }
    let y = curve(&json, 2, 1);
    let expected = (15.0f64).to_radians().sin();
    assert!(
        (y["max_abs"].as_f64().unwrap() - expected).abs() < 1e-6,
        "{y}"
    );
    assert!((y["at"].as_f64().unwrap() - KEY_TIME as f64).abs() < 1e-6);
    assert_eq!(curve(&json, 1, 1)["max_abs"], 0.0);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn tolerance_missing_curves_and_bad_inputs_set_the_exit_code() {
    let (dir, [base, y, _, scale]) = fixtures("exit");
    assert_eq!(diff_json(&base, &y, &["--tolerance", "0.3"]).0, 0);
    assert_eq!(diff_json(&base, &y, &["--tolerance", "0.2"]).0, 3);
    // Without --tolerance a difference is no failure.
    assert_eq!(diff_json(&base, &y, &[]).0, 0);
    // A curve only one side has fails any tolerance.
    let (code, json) = diff_json(&base, &scale, &["--tolerance", "1"]);
    assert_eq!(code, 3);
    assert!(json["only_in_a"].as_array().unwrap().is_empty());
    let only_b = json["only_in_b"].as_array().unwrap();
    assert_eq!(only_b.len(), 3);
    assert!(
        only_b
            .iter()
            .all(|k| k["attribute"] == 3 && k["path"] == path_hash(HIPS))
    );
    let (code, _, _) = clipscope(&["diff", &scale, &base, "--clip", "Bob", "--tolerance", "1"]);
    assert_eq!(code, 3);
    // The table, largest difference first.
    let (code, out, err) = clipscope(&["diff", &base, &y]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<&str> = out.lines().filter(|l| l.contains("Hips:")).collect();
    assert_eq!(rows.len(), 7, "{out}");
    assert!(rows[0].contains("Hips: position.y"), "{out}");
    // A file that cannot be read, a clip that is not there, a bad tolerance.
    let missing = Path::new(&dir).join("missing.bundle");
    let (code, _, _) = clipscope(&["diff", &base, missing.to_str().unwrap(), "--clip", "Bob"]);
    assert_eq!(code, 1);
    let (code, _, err) = clipscope(&["diff", &base, &y, "--clip", "Nope"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, _) = clipscope(&["diff", &base, &y, "--tolerance", "-1"]);
    assert_eq!(code, 2);
    let (code, _, _) = clipscope(&["diff", &base, &y, "--clip-a", "Bob"]);
    assert_eq!(code, 2);
    std::fs::remove_dir_all(dir).ok();
}
