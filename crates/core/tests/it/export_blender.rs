//! The exported `.glb` imported by Blender's own glTF importer (headless, `blender -b
//! --python`, default import options): every animation played, and every joint's world
//! position at 12 times per clip compared with where `clipscope pose` puts it (mirrored
//! into glTF's space), within the export's translation tolerance: 1e-4 of the body's size
//! (joints near the body: a socket parked far away is not measured). Cases: every shared humanoid clip on
//! morbman (defaults, meshes included), duckhunted's legacy clips, and the
//! squash-and-stretch sword fixture; and a written clip on quinn's real mesh whose blend
//! shape curve plays as the shape key's value (against the clip's weight over the shape's
//! full weight, within 2e-4).
//!
//! Prints SKIP with the reason where Blender (or the shared data) is missing. Blender runs
//! with no other Python interpreter on `PATH` (pyenv shims and virtual environments make
//! its embedded Python load the wrong library).

use crate::common;
use clipscope_authoring::fixtures::morph as morph_fixture;
use clipscope_authoring::fixtures::skew as skew_fixture;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use clipscope_core::body::Body;
use clipscope_core::export::{
    ExportClip, ExportOptions, ExportRig, clips_playing_on, export, space,
};
use clipscope_core::humanoid::PoseOptions;
use clipscope_core::pose::ClipPoser;
use clipscope_core::workspace::RigEntry;
use clipscope_core::world::World;
use clipscope_core::{ClipData, OpenOptions, Workspace};
use serde_json::{Value, json};

/// Times per clip compared.
const TIMES: usize = 12;

/// Largest difference of a shape key's value from the clip's weight.
const WEIGHT_TOLERANCE: f64 = 2e-4;

/// A blend shape compared as its Blender shape key: its name (the exported `targetNames`)
/// and its weight (0..1, of the shape's full weight) in a clip at a clip time.
struct Shape<'f> {
    name: &'f str,
    weight: &'f dyn Fn(&ClipData, f32) -> f32,
}

/// `PATH` without directories that hold another Python (pyenv, virtual environments).
fn clean_path() -> String {
    let path = std::env::var("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .filter(|d| {
            let s = d.to_string_lossy();
            !(s.contains("pyenv") || s.contains("venv") || s.contains("conda"))
        })
        .map(|d| d.display().to_string())
        .collect::<Vec<_>>()
        .join(":")
}

/// Blender's executable on the cleaned `PATH`, or `None` (with SKIP printed).
fn blender() -> Option<PathBuf> {
    let found = std::env::split_paths(&clean_path())
        .map(|d| d.join("blender"))
        .find(|p| p.is_file());
    if found.is_none() {
        eprintln!("SKIP: blender is not installed (apt-get install blender python3-numpy)");
    }
    found
}

/// A fresh directory under the system's temporary folder.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "clipscope-export-blender-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Where `pose` puts every joint of `rig` at 12 times of each clip, in glTF's space (the
/// rig's root placed by its own local transform, as the file's root node is), keyed by the
/// joints' path hashes; and each of `shapes`' weights at those times.
fn expected(
    rig: &RigEntry,
    clips: &[ExportClip<'_>],
    names: &[String],
    shapes: &[Shape<'_>],
) -> Value {
    let humanoid = rig.humanoid.as_deref();
    let body = Body::of(&rig.skeleton, humanoid);
    let animations: Vec<Value> = clips
        .iter()
        .zip(names)
        .map(|(c, name)| {
            let poser = ClipPoser::new(c.clip, &rig.skeleton, humanoid);
            let times: Vec<f32> = (0..TIMES)
                .map(|i| c.clip.length() * i as f32 / (TIMES - 1) as f32)
                .collect();
            let mut joints: HashMap<String, Vec<[f32; 3]>> = HashMap::new();
            let mut far: Vec<String> = Vec::new();
            for &t in &times {
                let locals = poser.locals(c.clip.start + t, &PoseOptions::default());
                let world = poser.world(&locals);
                let near = body.near(&world.iter().map(|w| w.t.map(f64::from)).collect::<Vec<_>>());
                let root = World::IDENTITY.then(locals[0].t, locals[0].q, locals[0].s);
                for ((joint, w), near) in rig.skeleton.joints.iter().zip(&world).zip(near) {
                    let p = root.transform_point(w.t.map(f64::from));
                    let p = space::point(p.map(|v| v as f32));
                    let key = joint.path_hash.to_string();
                    if !near {
                        far.push(key.clone());
                    }
                    joints.entry(key).or_default().push(p);
                }
            }
            // A joint far from the body at some time (a parked socket) is not measured.
            for key in far {
                joints.remove(&key);
            }
            let weights: HashMap<&str, Vec<f32>> = shapes
                .iter()
                .map(|s| {
                    let at = times.iter().map(|&t| (s.weight)(c.clip, c.clip.start + t));
                    (s.name, at.collect())
                })
                .collect();
            json!({ "name": name, "times": times, "joints": joints, "shapes": weights })
        })
        .collect();
    json!({ "animations": animations })
}

/// Exports `clips` on `rig`, plays the file in Blender and compares every joint with
/// `pose` (and each of `shapes` with its shape key). Returns the largest distance, in rig
/// sizes.
fn blender_round_trip(
    blender: &Path,
    name: &str,
    ws: &Workspace,
    rig: &RigEntry,
    clips: &[ExportClip<'_>],
    shapes: &[Shape<'_>],
) -> f64 {
    let exported =
        export(ws, &ExportRig::of(rig), clips, &ExportOptions::default()).expect("exports");
    for c in &exported.report.clips {
        eprintln!("  {}", c.summary());
    }
    let names: Vec<String> = exported
        .report
        .clips
        .iter()
        .map(|c| c.name.clone())
        .collect();
    let want = expected(rig, clips, &names, shapes);
    let dir = temp_dir(name);
    let (glb, want_path, out) = (
        dir.join("in.glb"),
        dir.join("want.json"),
        dir.join("out.json"),
    );
    std::fs::write(&glb, &exported.glb).unwrap();
    std::fs::write(&want_path, want.to_string()).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/blender_round_trip.py");
    let run = Command::new(blender)
        .env("PATH", clean_path())
        .env_remove("PYTHONHOME")
        .env_remove("PYTHONPATH")
        .env_remove("VIRTUAL_ENV")
        .args([
            "-b",
            "--factory-startup",
            "--python-exit-code",
            "1",
            "--python",
        ])
        .arg(&script)
        .arg("--")
        .args([&glb, &want_path, &out])
        .output()
        .expect("blender runs");
    let got: Value = std::fs::read_to_string(&out)
        .ok()
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or_else(|| {
            panic!(
                "{name}: Blender wrote no result (exit {:?}):\n{}\n{}",
                run.status.code(),
                String::from_utf8_lossy(&run.stdout),
                String::from_utf8_lossy(&run.stderr)
            )
        });
    let _ = std::fs::remove_dir_all(&dir);
    let size = f64::from(exported.report.rig_size);
    let tolerance = f64::from(exported.report.tolerance_translation) / size;
    let by_hash: HashMap<String, &str> = rig
        .skeleton
        .joints
        .iter()
        .map(|j| (j.path_hash.to_string(), j.path.as_str()))
        .collect();
    let mut worst = 0.0f64;
    let mut compared = 0;
    for anim in want["animations"].as_array().unwrap() {
        let animation = anim["name"].as_str().unwrap();
        let times = anim["times"].as_array().unwrap();
        for (hash, rows) in anim["joints"].as_object().unwrap() {
            let got_rows = &got[animation]["joints"][hash];
            for (i, want_row) in rows.as_array().unwrap().iter().enumerate() {
                let g = &got_rows[i];
                if g.is_null() {
                    continue;
                }
                let d = (0..3)
                    .map(|k| (g[k].as_f64().unwrap() - want_row[k].as_f64().unwrap()).powi(2))
                    .sum::<f64>()
                    .sqrt()
                    / size;
                // Blender keeps f32 (and `pose`'s positions are f32): their rounding.
                let magnitude = (0..3)
                    .map(|k| want_row[k].as_f64().unwrap().abs())
                    .fold(size, f64::max);
                assert!(
                    d <= tolerance + 2e-6 * magnitude / size,
                    "{name} {animation} at {}: {} is {d:.2e} body sizes from pose: Blender {g}, pose {want_row}",
                    times[i],
                    by_hash.get(hash).copied().unwrap_or(hash)
                );
                worst = worst.max(d);
                compared += 1;
            }
        }
    }
    assert!(compared > 0, "{name}: Blender found no joint");
    compare_shapes(name, &want, &got);
    eprintln!(
        "{name}: {compared} joint positions within {worst:.2e} body sizes of pose in Blender"
    );
    worst
}

/// Every wanted shape weight against the shape key's value Blender plays; panics on a
/// difference over [`WEIGHT_TOLERANCE`] or a shape key Blender lacks.
fn compare_shapes(name: &str, want: &Value, got: &Value) {
    for anim in want["animations"].as_array().unwrap() {
        let animation = anim["name"].as_str().unwrap();
        let times = anim["times"].as_array().unwrap();
        for (shape, rows) in anim["shapes"].as_object().unwrap() {
            let played = &got[animation]["shapes"][shape];
            for (i, w) in rows.as_array().unwrap().iter().enumerate() {
                let w = w.as_f64().unwrap();
                let g = played[i].as_f64().unwrap_or_else(|| {
                    panic!("{name} {animation}: Blender has no shape key {shape}")
                });
                assert!(
                    (g - w).abs() <= WEIGHT_TOLERANCE,
                    "{name} {animation} at {}: shape key {shape} is {g}, the clip's weight {w}",
                    times[i]
                );
            }
            eprintln!("{name} {animation}: shape key {shape} plays the clip's weights");
        }
    }
}

fn open(rels: &[&str]) -> Option<Workspace> {
    let paths: Option<Vec<PathBuf>> = rels.iter().map(|r| common::data(r)).collect();
    let Some(paths) = paths else {
        eprintln!("SKIP: ../shared/data is missing");
        return None;
    };
    Some(common::open(&paths))
}

#[test]
fn exported_characters_play_in_blender_where_pose_puts_them() {
    let Some(blender) = blender() else {
        return;
    };
    let sword = Workspace::open_bytes(
        Path::new("sword.bundle"),
        skew_fixture::bundle(),
        &OpenOptions::default(),
    );
    let rig = sword
        .rigs
        .iter()
        .position(|r| r.name == skew_fixture::RIG)
        .unwrap();
    let clips = clips_playing_on(&sword, rig);
    blender_round_trip(&blender, "sword", &sword, &sword.rigs[rig], &clips, &[]);
    if let Some(ws) = open(&[
        "binary/wetboys_plateupemotesapi/morbman",
        "binary/wetboys_plateupemotesapi/customemotespackage",
        "binary/wetboys_plateupemotesapi/moisture_animationreplacements",
    ]) {
        let rig = ws.rigs.iter().position(|r| r.name == "morbman").unwrap();
        let clips = clips_playing_on(&ws, rig);
        assert_eq!(clips.len(), 4);
        blender_round_trip(&blender, "morbman", &ws, &ws.rigs[rig], &clips, &[]);
    }
    if let Some(ws) = open(&["binary/duckhunted/WebPlayer.unity3d"]) {
        let rig = (0..ws.rigs.len())
            .max_by_key(|&i| ws.rigs[i].clips.len())
            .unwrap();
        let clips = clips_playing_on(&ws, rig);
        assert_eq!(clips.len(), 4);
        blender_round_trip(&blender, "duckhunted", &ws, &ws.rigs[rig], &clips, &[]);
    }
}

/// Rigs that park weapon sockets kilometres from the body, as Risk of Rain 2's do: the
/// generic framing fixture (a socket 30 km away at rest, one its clip parks 1 km away)
/// and morbman's avatar under a rotated, scaled Armature with sockets 1 km and 30 km away,
/// playing every shared humanoid emote. The rig's size is the body's, and Blender plays
/// every joint of the body within 1e-4 of it.
#[test]
fn rigs_with_sockets_parked_kilometres_away_play_in_blender_within_their_bodys_size() {
    use clipscope_authoring::fixtures::avatar as avatar_fixture;
    use clipscope_authoring::fixtures::framing;
    use clipscope_authoring::fixtures::humanoid as humanoid_fixture;
    let Some(blender) = blender() else {
        return;
    };
    let ws = Workspace::open_bytes(
        Path::new("parked.bundle"),
        framing::bytes(),
        &OpenOptions::default(),
    );
    let rig = ws
        .rigs
        .iter()
        .position(|r| r.name == framing::ROOT)
        .unwrap();
    let clips = clips_playing_on(&ws, rig);
    let worst = blender_round_trip(&blender, "parked", &ws, &ws.rigs[rig], &clips, &[]);
    assert!(worst <= 1e-4, "{worst}");
    let (Some(m), Some(emotes)) = (humanoid_fixture::morbman(), humanoid_fixture::emotes()) else {
        return;
    };
    let (ws, rig) = avatar_fixture::open(avatar_fixture::Case::Parked, &m.avatar, &m.skeleton);
    let clips = humanoid_fixture::humanoid_export_clips(&emotes);
    assert_eq!(clips.len(), 4);
    let worst = blender_round_trip(&blender, "parked humanoid", &ws, &ws.rigs[rig], &clips, &[]);
    assert!(worst <= 1e-4, "{worst}");
}

/// The blend shape curve of a written clip on quinn's real mesh plays in Blender as the
/// shape key's value, with its joints where `pose` puts them.
#[test]
fn blend_shape_curves_play_in_blender_as_shape_key_values() {
    let Some(blender) = blender() else {
        return;
    };
    let Some(quinn) = common::data("binary/lessscarymannequins/copy.bundle") else {
        eprintln!("SKIP: ../shared/data is missing");
        return;
    };
    let (ws, rig, shape, full) = morph_fixture::open_with_quinn(&quinn, &temp_dir("morph"));
    let at = ws
        .clips
        .iter()
        .find(|c| c.data.as_ref().is_ok_and(|d| d.name == morph_fixture::CLIP))
        .expect("the written clip");
    let clip = at.data.as_ref().unwrap();
    let binding = clipscope_core::hash::attribute_hash(&format!("blendShape.{shape}"));
    let track = clip
        .curves
        .iter()
        .position(|c| {
            c.binding
                .is_some_and(|b| clip.bindings[b].attribute == binding)
        })
        .expect("the blend shape curve");
    let weight = |clip: &ClipData, t: f32| clip.sample_curve(track, t).unwrap_or(0.0) / full;
    // The weight runs over most of the shape's range: a shape key left at rest fails.
    let range: Vec<f32> = (0..=30).map(|i| weight(clip, i as f32 * 0.05)).collect();
    let (lo, hi) = range
        .iter()
        .fold((1.0f32, 0.0f32), |(l, h), w| (l.min(*w), h.max(*w)));
    assert!(lo < 0.05 && hi > 0.95, "{lo} {hi}");
    let clips = [ExportClip { at: at.at, clip }];
    let shapes = [Shape {
        name: &shape,
        weight: &weight,
    }];
    blender_round_trip(&blender, "morph", &ws, &ws.rigs[rig], &clips, &shapes);
}
