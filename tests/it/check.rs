//! `clipscope check`: the report on real files (loop and ping-pong seams, rigs, unmatched
//! blend-shape bindings) and on clips written with `clipscope_authoring` (duplicate
//! bindings, steps, keys past the curve count), with its exit codes.

use crate::common;

use std::path::{Path, PathBuf};

use clipscope_authoring::{
    Binding, Bundle, ClipSpec, Frame, MecanimClip, UnityTarget, write_bundle,
};
use clipscope_core::check::check_workspace;
use clipscope_core::clip::BindingKind;
use common::{clipscope, data};
use serde_json::Value;

/// Runs `check ARGS --json` and parses the array of reports.
fn check_json(args: &[&str]) -> (i32, Vec<Value>) {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    all.push("--json");
    let (code, out, err) = clipscope(&all);
    let reports: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {err}"));
    (code, reports.as_array().expect("an array").clone())
}

fn close(a: &Value, b: f64) -> bool {
    (a.as_f64().unwrap() - b).abs() <= 1e-5 * b.abs().max(1.0)
}

#[test]
fn every_path_of_the_mannequin_clip_is_in_its_rig() {
    let Some(path) = data("binary/lessscarymannequins/copy.bundle") else {
        return;
    };
    let (code, reports) = check_json(&[path.to_str().unwrap(), "--strict"]);
    assert_eq!(code, 0, "a clean file passes --strict");
    assert_eq!(reports.len(), 1);
    let r = &reports[0];
    assert_eq!(r["clip"], "TestClip");
    assert_eq!(r["wrap"], "loop");
    assert_eq!(r["length"], 1.0);
    assert_eq!(r["sample_rate"], 60.0);
    assert_eq!(r["rig"], "quinn");
    assert_eq!(r["rig_note"], "matches 26 of 26 paths");
    assert_eq!(r["unmatched_bindings"], serde_json::json!([]));
    // Constant curves only: a loop with no seam, no steps.
    assert_eq!(r["seams"], serde_json::json!([]));
    assert_eq!(r["steps"], serde_json::json!([]));
    assert_eq!(r["problems"], 0);
}

#[test]
fn the_duck_hunt_run_loop_has_corners_at_its_seam() {
    let Some(path) = data("binary/duckhunted/WebPlayer.unity3d") else {
        return;
    };
    let path = path.to_str().unwrap();
    let (code, reports) = check_json(&[path, "--clip", "Run"]);
    assert_eq!(code, 0, "without --strict problems do not fail");
    assert_eq!(reports.len(), 1);
    let r = &reports[0];
    assert_eq!(
        (r["wrap"].as_str(), r["legacy"].as_bool()),
        (Some("loop"), Some(true))
    );
    assert_eq!(r["rig"], "Model");
    let seams = r["seams"].as_array().unwrap();
    let curves: Vec<u64> = seams.iter().map(|s| s["curve"].as_u64().unwrap()).collect();
    // One entry per joint: the root's rotation (curves 0-3) and position (4-6), and the
    // three Euler hint floats (7-9). Every curve but position y (0 throughout) leaves the
    // seam at another slope than it arrives with; the values meet (the Euler hints within
    // 3.1e-5 degrees).
    assert_eq!(curves, [0, 4, 7, 8, 9]);
    let measures: Vec<&str> = seams
        .iter()
        .map(|s| s["measure"].as_str().unwrap())
        .collect();
    assert_eq!(
        measures,
        ["rotation", "position", "float", "float", "float"]
    );
    assert!(seams.iter().all(|s| s["seam"] == "loop"));
    assert!(
        seams
            .iter()
            .all(|s| s["joint"] == "" || s["measure"] == "float")
    );
    assert!(
        seams
            .iter()
            .all(|s| s["value_jump"].as_f64().unwrap().abs() < 1e-4)
    );
    assert!(seams.iter().all(|s| s["jump"].as_f64().unwrap() < 1e-3));
    // Position x: keys (0, 0.36, slope 0.60526246) ... (0.6667, 0.36, slope -0.60526246);
    // z: slopes -2.2589686 then 2.2589686. The speed jumps by their length, in rig sizes.
    let size = r["rig_size"].as_f64().unwrap();
    assert!(size > 0.0);
    let position = &seams[1];
    assert_eq!(position["binding"], "(root): position");
    assert_eq!(position["component"], 0);
    let speed = (2.0 * 0.605_262_46f64).hypot(2.0 * 2.258_968_6) / size;
    assert!(close(&position["slope_jump"], speed), "{position}");
    // The root turns and travels with corners sharper than any inside the clip: problems;
    // the hint floats' corners are no sharper than their own motion: notes.
    let severities: Vec<&str> = seams
        .iter()
        .map(|s| s["severity"].as_str().unwrap())
        .collect();
    assert_eq!(severities, ["problem", "problem", "note", "note", "note"]);
    for s in &seams[..2] {
        assert!(
            s["slope_jump"].as_f64() > s["inner_slope_jump"].as_f64(),
            "{s}"
        );
    }
    assert_eq!(
        (r["problems"].as_u64(), r["notes"].as_u64()),
        (Some(2), Some(3))
    );

    let (code, _, _) = clipscope(&["check", path, "--clip", "Run", "--strict"]);
    assert_eq!(code, 3);
    let (code, text, _) = clipscope(&["check", path, "--clip", "Run"]);
    assert_eq!(code, 0);
    assert!(
        text.contains("loop seam: (root): position jumps by 0.00% of the rig's size"),
        "{text}"
    );
    assert!(
        !text.contains("m_LocalEulerAnglesHint"),
        "notes are counted, not listed: {text}"
    );
    assert!(text.contains("2 problems, 3 notes"), "{text}");
    // Looser thresholds (a slope jump above 45 x 10 degrees and 50 x 100 rig sizes a second)
    // make both problems notes, and --strict passes.
    let (code, _, _) = clipscope(&[
        "check",
        path,
        "--clip",
        "Run",
        "--strict",
        "--seam-angle",
        "10",
        "--seam-position",
        "100",
    ]);
    assert_eq!(code, 0);
}

#[test]
fn the_duck_hunt_ping_pong_idle_turns_sharply_only_at_its_start() {
    let Some(path) = data("binary/duckhunted/WebPlayer.unity3d") else {
        return;
    };
    let (_, reports) = check_json(&[path.to_str().unwrap()]);
    let by_name = |name: &str| reports.iter().find(|r| r["clip"] == name).unwrap();
    let idle = by_name("Idle");
    assert_eq!(idle["wrap"], "pingpong");
    let seams = idle["seams"].as_array().unwrap();
    // The Euler hint curves end at 1.0667 s, before the stop (1.0833 s), so they arrive
    // flat at the far turn; at the start they leave with slopes 0.0254717, -0.0081681,
    // -0.4959109 degrees/s, and turning back doubles them. Position y's -0.000448/s start
    // slope moves it 1.5e-5 per frame: below the tolerance.
    let got: Vec<(u64, &str)> = seams
        .iter()
        .map(|s| (s["curve"].as_u64().unwrap(), s["seam"].as_str().unwrap()))
        .collect();
    assert_eq!(
        got,
        [
            (7, "ping_pong_start"),
            (8, "ping_pong_start"),
            (9, "ping_pong_start")
        ]
    );
    assert_eq!(seams[0]["binding"], "(root): m_LocalEulerAnglesHint.z");
    // Float curves, measured against their range: turning at a fraction of a degree a second
    // is no sharper than the hints' own motion, so notes.
    for s in seams {
        assert_eq!(
            (s["measure"].as_str(), s["severity"].as_str()),
            (Some("float"), Some("note"))
        );
        assert_eq!(s["value_jump"], 0.0);
        assert!(s["slope_jump"].as_f64().unwrap() > 0.0);
    }
    assert_eq!(
        (idle["problems"].as_u64(), idle["notes"].as_u64()),
        (Some(0), Some(3))
    );
    for once in ["Fire", "Reload"] {
        assert_eq!(by_name(once)["seams"], serde_json::json!([]), "{once}");
    }
}

#[test]
fn dabs_blend_shape_bindings_name_a_mesh_the_rig_does_not_have() {
    let Some(path) = data("binary/wetboys_plateupemotesapi") else {
        return;
    };
    let ws = common::open(&[path]);
    let reports = check_workspace(&ws, Some("Dab"));
    assert_eq!(reports.len(), 1);
    let r = &reports[0];
    assert_eq!(r.rig.as_deref(), Some("morbman"));
    assert_eq!(r.unmatched_bindings.len(), 1);
    let unmatched = &r.unmatched_bindings[0];
    assert_eq!((unmatched.path, unmatched.bindings), (0x7afb_bf9c, 40));
    let dab = common::clip(&ws, "Dab");
    assert!(
        dab.bindings
            .iter()
            .filter(|b| b.path == unmatched.path)
            .all(|b| b.kind() == BindingKind::BlendShape)
    );
}

/// A bundle in a fresh temp folder, removed on drop.
struct TempBundle(PathBuf);

impl TempBundle {
    fn write(name: &str, bundle: &Bundle) -> TempBundle {
        let dir =
            std::env::temp_dir().join(format!("clipscope-check-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("fixture.bundle");
        std::fs::write(&file, write_bundle(bundle).unwrap()).unwrap();
        TempBundle(file)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempBundle {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent().filter(|d| d != &Path::new("")) {
            std::fs::remove_dir_all(dir).ok();
        }
    }
}

/// "Dup": position bound twice (six constants). "Stepped": one float curve, streamed, that
/// holds 1 from 0 s and jumps to 2 at 0.5 s, plus a key for curve 5 of 1.
fn fixture() -> Bundle {
    let mut dup = MecanimClip::new("Dup");
    dup.bindings = vec![Binding::transform(0, 1), Binding::transform(0, 1)];
    dup.constants = vec![0.0; 6];
    let mut stepped = MecanimClip::new("Stepped");
    stepped.bindings = vec![Binding {
        path: 0,
        attribute: 77,
        type_id: 114,
        ..Default::default()
    }];
    stepped.streamed_curve_count = 1;
    let constant = |v: f32| [0.0, 0.0, 0.0, v];
    stepped.frames = vec![
        Frame {
            time: -f32::MAX,
            keys: vec![(0, constant(0.0))],
        },
        Frame {
            time: 0.0,
            keys: vec![(0, constant(1.0)), (5, constant(9.0))],
        },
        Frame {
            time: 0.5,
            keys: vec![(0, constant(2.0))],
        },
        Frame {
            time: 1.0,
            keys: vec![(0, constant(2.0))],
        },
        Frame {
            time: f32::INFINITY,
            keys: vec![],
        },
    ];
    let mut b = Bundle::new(UnityTarget::Unity2020);
    b.clips = vec![ClipSpec::Mecanim(dup), ClipSpec::Mecanim(stepped)];
    b
}

#[test]
fn strict_fails_on_duplicate_bindings_and_keys_past_the_curve_count() {
    let file = TempBundle::write("strict", &fixture());
    let (code, reports) = check_json(&[file.path()]);
    assert_eq!(code, 0);
    let dup = &reports[0];
    assert_eq!(dup["clip"], "Dup");
    assert_eq!(
        dup["duplicate_bindings"],
        serde_json::json!([{ "binding": "(root): position", "indices": [0, 1], "count": 2 }])
    );
    assert_eq!(dup["rig"], Value::Null);
    assert_eq!(dup["problems"], 1);
    let stepped = &reports[1];
    assert_eq!(stepped["clip"], "Stepped");
    // The -f32::MAX initial key holds too, but nobody authored that step.
    assert_eq!(stepped["steps"][0]["times"], serde_json::json!([0.0]));
    assert_eq!(stepped["steps"].as_array().unwrap().len(), 1);
    assert_eq!(stepped["keys_past_curve_count"], 1);
    // Held at 1 until 0.5, then 2: the whole of the curve's range 1..2, a problem.
    let step = &stepped["steps"][0];
    assert_eq!(
        (step["measure"].as_str(), step["severity"].as_str()),
        (Some("float"), Some("problem"))
    );
    assert_eq!(
        (step["jump"].as_f64(), step["at"].as_f64()),
        (Some(1.0), Some(0.5))
    );
    assert_eq!(stepped["problems"], 2);

    let (code, _, _) = clipscope(&["check", file.path(), "--strict"]);
    assert_eq!(code, 3);
    let (code, text, _) = clipscope(&["check", file.path(), "--clip", "Dup"]);
    assert_eq!(code, 0);
    assert!(
        text.contains("duplicate binding: (root): position (2 times"),
        "{text}"
    );
    assert!(!text.contains("Stepped"), "{text}");
}

#[test]
fn a_clip_name_that_matches_nothing_is_a_usage_error() {
    let file = TempBundle::write("usage", &fixture());
    let (code, out, err) = clipscope(&["check", file.path(), "--clip", "Nope"]);
    assert_eq!(code, 2);
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("\"Nope\"") && err.contains("Dup, Stepped"),
        "{err}"
    );
    let (code, _, _) = clipscope(&["check"]);
    assert_eq!(code, 2, "a path is required");
}

#[test]
fn a_file_that_cannot_be_read_exits_1() {
    let dir = std::env::temp_dir().join(format!("clipscope-check-junk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let junk = dir.join("junk.bin");
    std::fs::write(&junk, b"not a Unity file at all").unwrap();
    let (code, reports) = check_json(&[junk.to_str().unwrap(), "--strict"]);
    assert_eq!(code, 1);
    assert!(reports.is_empty());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn humanoid_clips_name_muscles_the_rig_cannot_show_and_values_far_outside() {
    let (Some(rig), Some(emotes)) = (
        data("binary/wetboys_plateupemotesapi/morbman"),
        data("binary/wetboys_plateupemotesapi/moisture_animationreplacements"),
    ) else {
        return;
    };
    let (_, reports) = check_json(&[rig.to_str().unwrap(), emotes.to_str().unwrap()]);
    let dab = reports.iter().find(|r| r["clip"] == "Dab").unwrap();
    assert_eq!(dab["rig"], "morbman");
    let h = &dab["humanoid"];
    let names = |list: &str| -> Vec<String> {
        h[list]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["name"].as_str().unwrap().to_string())
            .collect()
    };
    // morbman's avatar maps no UpperChest and no finger bones.
    let unmapped = names("unmapped");
    assert!(
        unmapped.iter().any(|n| n.starts_with("UpperChest ")),
        "{unmapped:?}"
    );
    assert!(
        unmapped.iter().any(|n| n == "Left Thumb 1 Stretched"),
        "{unmapped:?}"
    );
    assert!(
        unmapped.iter().all(|n| !n.starts_with("Spine ")),
        "{unmapped:?}"
    );
    let far = names("far_outside");
    for m in h["far_outside"].as_array().unwrap() {
        assert!(
            m["min"].as_f64().unwrap() < -1.5 || m["max"].as_f64().unwrap() > 1.5,
            "{m}"
        );
    }
    assert!(!far.is_empty());
    // Unmapped muscles are problems; far-outside values are not.
    let listed = dab["seams"].as_array().unwrap().len()
        + dab["non_finite"].as_array().unwrap().len()
        + dab["unmatched_bindings"].as_array().unwrap().len()
        + dab["duplicate_bindings"].as_array().unwrap().len()
        + unmapped.len();
    assert_eq!(dab["problems"].as_u64().unwrap() as usize, listed);
    // Without a humanoid rig in reach, nothing is said about muscles.
    let (_, alone) = check_json(&[emotes.to_str().unwrap()]);
    assert!(alone.iter().all(|r| r["humanoid"].is_null()));
}

/// Every looping and ping-pong clip of the shared files: the seams and steps above the
/// default thresholds (problems) stay fewer than those below (notes), so `--strict` fails
/// on the pops, not on every good loop.
#[test]
fn every_looping_shared_clip_has_fewer_seam_problems_than_notes() {
    let (Some(binary), Some(yaml)) = (data("binary"), data("yaml")) else {
        return;
    };
    let (_, reports) = check_json(&[binary.to_str().unwrap(), yaml.to_str().unwrap()]);
    let looping: Vec<&Value> = reports
        .iter()
        .filter(|r| r["wrap"] == "loop" || r["wrap"] == "pingpong")
        .collect();
    let count = |severity: &str| -> usize {
        looping
            .iter()
            .flat_map(|r| {
                let seams = r["seams"].as_array().unwrap().iter();
                seams.chain(r["steps"].as_array().unwrap().iter())
            })
            .filter(|s| s["severity"] == severity)
            .count()
    };
    let (problems, notes) = (count("problem"), count("note"));
    let clips_with_problems = looping
        .iter()
        .filter(|r| {
            r["seams"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s["severity"] == "problem")
        })
        .count();
    println!(
        "{} looping clips: {problems} seam and step problems, {notes} notes; {clips_with_problems} clips with a seam problem",
        looping.len()
    );
    assert!(looping.len() >= 10, "{}", looping.len());
    assert!(notes > 0);
    assert!(problems < notes, "{problems} problems, {notes} notes");
    // The report's counts agree with the entries.
    for r in &looping {
        let listed = r["seams"]
            .as_array()
            .unwrap()
            .iter()
            .chain(r["steps"].as_array().unwrap())
            .filter(|s| s["severity"] == "note")
            .count();
        assert_eq!(r["notes"].as_u64(), Some(listed as u64), "{}", r["clip"]);
    }
}

use clipscope_authoring::fixtures::humanoid as humanoid_fixture;

/// `Head Turn Left-Right` (binding attribute 42 + 14) as a one-curve humanoid clip.
fn head_turn_clip(name: &str) -> MecanimClip {
    let mut clip = MecanimClip::new(name);
    clip.bindings = vec![Binding {
        path: 0,
        attribute: 42 + 14,
        type_id: 95,
        custom_type: 8,
        ..Default::default()
    }];
    clip.streamed_curve_count = 1;
    clip
}

/// A one-second humanoid clip (not looping) whose Head Turn muscle holds 0, then `turn` from
/// 0.5 s: a step.
fn head_turn_step(turn: f32) -> ClipSpec {
    let mut clip = head_turn_clip("Snap");
    let held = |time: f32, v: f32| Frame {
        time,
        keys: vec![(0, [0.0, 0.0, 0.0, v])],
    };
    clip.frames = vec![
        held(-f32::MAX, 0.0),
        held(0.0, 0.0),
        held(0.5, turn),
        held(1.0, turn),
        Frame {
            time: f32::INFINITY,
            keys: vec![],
        },
    ];
    ClipSpec::Mecanim(clip)
}

/// A one-second humanoid loop whose Head Turn muscle ramps linearly from 0 to `turn`: at the
/// loop seam it jumps back by `turn`, with no slope jump.
fn head_turn_loop(name: &str, turn: f32) -> ClipSpec {
    let mut clip = head_turn_clip(name);
    clip.loop_time = true;
    clip.frames = vec![
        Frame {
            time: -f32::MAX,
            keys: vec![(0, [0.0; 4])],
        },
        Frame {
            time: 0.0,
            keys: vec![(0, [0.0, 0.0, turn, 0.0])],
        },
        Frame {
            time: 1.0,
            keys: vec![(0, [0.0, 0.0, 0.0, turn])],
        },
        Frame {
            time: f32::INFINITY,
            keys: vec![],
        },
    ];
    ClipSpec::Mecanim(clip)
}

#[test]
fn humanoid_seams_are_measured_in_degrees_on_the_posed_bone() {
    use clipscope_core::avatar::HumanBone;
    let (Some(morbman), Some(path)) = (
        humanoid_fixture::morbman(),
        data("binary/wetboys_plateupemotesapi/morbman"),
    ) else {
        return;
    };
    // The Head's twist axis (x) turns by the muscle value times the avatar's limit.
    let axes = morbman.avatar.bone_axes(HumanBone::Head).expect("a Head");
    let limit = f64::from(axes.max[0].to_degrees());
    let head = morbman
        .avatar
        .bone_path(HumanBone::Head)
        .unwrap()
        .to_owned();
    let head = head.rsplit('/').next().unwrap();
    let mut b = Bundle::new(UnityTarget::Unity2020);
    b.clips = vec![
        head_turn_loop("Turn", 0.5),
        head_turn_loop("Nudge", 0.01),
        head_turn_step(0.25),
    ];
    let file = TempBundle::write("muscle", &b);
    let (code, reports) = check_json(&[path.to_str().unwrap(), file.path()]);
    assert_eq!(code, 0);
    for (name, turn, severity) in [("Turn", 0.5, "problem"), ("Nudge", 0.01, "note")] {
        let r = reports.iter().find(|r| r["clip"] == name).unwrap();
        assert_eq!(r["rig"], "morbman", "{name}");
        let seams = r["seams"].as_array().unwrap();
        let rotations: Vec<&Value> = seams
            .iter()
            .filter(|s| s["measure"] == "rotation")
            .collect();
        assert_eq!(rotations.len(), 1, "{name}: only the Head turns: {seams:?}");
        let s = rotations[0];
        let joint = s["joint"].as_str().unwrap();
        assert_eq!(joint.rsplit('/').next(), Some(head), "{name}");
        let (jump, want) = (s["jump"].as_f64().unwrap(), turn * limit);
        eprintln!("{name}: the Head jumps {jump}° (muscle {turn} × limit {limit}°)");
        assert!(
            (jump - want).abs() <= 1e-3 * want.max(1.0),
            "{name}: {jump}° vs {want}°"
        );
        assert!(
            s["slope_jump"].as_f64().unwrap() < 0.05 * want.max(1.0),
            "{s}"
        );
        assert_eq!(s["severity"], severity, "{name}: {s}");
        // Whatever else the head turn moves (the body position, by the centre of mass) is
        // a note.
        for other in seams.iter().filter(|s| s["measure"] != "rotation") {
            assert_eq!(other["severity"], "note", "{name}: {other}");
        }
    }
    // A step in the muscle is measured on the bone too, not on the muscle's range.
    let snap = reports.iter().find(|r| r["clip"] == "Snap").unwrap();
    assert_eq!(snap["seams"], serde_json::json!([]));
    let steps = snap["steps"].as_array().unwrap();
    assert!(steps.iter().all(|s| s["measure"] != "muscle"), "{steps:?}");
    let rotations: Vec<&Value> = steps
        .iter()
        .filter(|s| s["measure"] == "rotation")
        .collect();
    assert_eq!(rotations.len(), 1, "only the Head turns: {steps:?}");
    let s = rotations[0];
    assert_eq!(s["joint"].as_str().unwrap().rsplit('/').next(), Some(head));
    let (jump, want) = (s["jump"].as_f64().unwrap(), 0.25 * limit);
    assert!(
        (jump - want).abs() <= 1e-3 * want,
        "step {jump}° vs {want}°"
    );
    assert!(close(&s["at"], 0.5), "{s}");
    assert_eq!(s["severity"], "problem");
}
