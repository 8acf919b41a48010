//! glTF export of real Unity files: the written `.glb` parses with the `gltf` crate's
//! validation, and every channel read back from it, evaluated by glTF's rules, matches
//! clipscope's own evaluation (mirrored into glTF's space) within the report's stated error.

mod common;
#[path = "support/gltf_validator.rs"]
mod gltf_validator;

use std::collections::HashMap;
use std::path::PathBuf;

use clipscope::Workspace;
use clipscope::export::evaluate::{Interpolation, Keys, Path, angle_between, distance};
use clipscope::export::{
    ExportClip, ExportOptions, ExportRig, Exported, Mode, Report, clips_playing_on, export, space,
};
use clipscope::humanoid::PoseOptions;
use clipscope::pose::ClipPoser;

/// Opens shared files, or `None` when the shared data is missing.
fn open(rels: &[&str]) -> Option<Workspace> {
    let paths: Option<Vec<PathBuf>> = rels.iter().map(|r| common::data(r)).collect();
    Some(common::open(&paths?))
}

fn rig_index(ws: &Workspace, name: &str) -> usize {
    ws.rigs
        .iter()
        .position(|r| r.name == name)
        .unwrap_or_else(|| panic!("rig {name}"))
}

/// A channel read back from the file.
struct ReadChannel {
    node: usize,
    path: Path,
    keys: Keys,
}

/// Parses the GLB with validation, checks the layout rules, and reads every animation's
/// channels back, by animation name.
fn read_back(glb: &[u8]) -> (gltf::Gltf, HashMap<String, Vec<ReadChannel>>) {
    let gltf = gltf::Gltf::from_slice(glb).expect("the glb parses and validates");
    // 4-byte alignment of every view, and min/max where glTF requires them.
    for view in gltf.views() {
        assert_eq!(
            view.offset() % 4,
            0,
            "buffer view {} misaligned",
            view.index()
        );
    }
    for mesh in gltf.meshes() {
        for p in mesh.primitives() {
            let pos = p.get(&gltf::Semantic::Positions).expect("positions");
            assert!(
                pos.min().is_some() && pos.max().is_some(),
                "POSITION min/max"
            );
            for target in p.morph_targets() {
                let t = target.positions().expect("target positions");
                assert!(
                    t.min().is_some() && t.max().is_some(),
                    "target POSITION min/max"
                );
            }
        }
    }
    let blob = gltf.blob.clone().expect("a binary chunk");
    let mut out = HashMap::new();
    for anim in gltf.animations() {
        let mut channels = Vec::new();
        for ch in anim.channels() {
            let input = ch.sampler().input();
            assert!(
                input.min().is_some() && input.max().is_some(),
                "input min/max"
            );
            let reader = ch.reader(|_| Some(&blob[..]));
            let times: Vec<f32> = reader.read_inputs().expect("inputs").collect();
            use gltf::animation::util::ReadOutputs;
            let (path, values, width): (Path, Vec<f32>, usize) = match reader
                .read_outputs()
                .expect("outputs")
            {
                ReadOutputs::Translations(v) => (Path::Translation, v.flatten().collect(), 3),
                ReadOutputs::Rotations(v) => (Path::Rotation, v.into_f32().flatten().collect(), 4),
                ReadOutputs::Scales(v) => (Path::Scale, v.flatten().collect(), 3),
                ReadOutputs::MorphTargetWeights(v) => {
                    let v: Vec<f32> = v.into_f32().collect();
                    let per_key = if ch.sampler().interpolation()
                        == gltf::animation::Interpolation::CubicSpline
                    {
                        v.len() / (3 * times.len())
                    } else {
                        v.len() / times.len()
                    };
                    (Path::Weights, v, per_key)
                }
            };
            let interpolation = match ch.sampler().interpolation() {
                gltf::animation::Interpolation::Linear => Interpolation::Linear,
                gltf::animation::Interpolation::Step => Interpolation::Step,
                gltf::animation::Interpolation::CubicSpline => Interpolation::CubicSpline,
            };
            channels.push(ReadChannel {
                node: ch.target().node().index(),
                path,
                keys: Keys {
                    interpolation,
                    times,
                    values,
                    width,
                },
            });
        }
        out.insert(anim.name().unwrap_or_default().to_string(), channels);
    }
    (gltf, out)
}

/// The report's stated error for a path, plus 1e-5.
fn allowed(report: &clipscope::export::ClipReport, path: Path) -> f32 {
    1e-5 + match path {
        Path::Rotation => report.max_rotation_error_rad,
        Path::Translation => report.max_translation_error,
        Path::Scale => report.max_scale_error,
        Path::Weights => report.max_weight_error,
    }
}

/// Exports, reads back, and compares every transform channel at 30 times per clip with the
/// clip posed by clipscope on the rig (mirrored), within the report's error. Returns the
/// export for further checks.
fn round_trip(
    ws: &Workspace,
    rig: usize,
    clips: &[ExportClip<'_>],
    options: &ExportOptions,
) -> Exported {
    let entry = &ws.rigs[rig];
    let exported = export(ws, &ExportRig::of(entry), clips, options).expect("exports");
    let (gltf, animations) = read_back(&exported.glb);
    // Nodes carry their joint's path hash.
    for (j, node) in gltf.nodes().enumerate() {
        let extras: serde_json::Value =
            serde_json::from_str(node.extras().as_ref().expect("extras").get()).unwrap();
        assert_eq!(
            extras["unity_path_hash"],
            entry.skeleton.joints[j].path_hash
        );
    }
    let options_pose = PoseOptions {
        root_motion: options.root_motion,
    };
    for (c, report) in clips.iter().zip(&exported.report.clips) {
        let channels = &animations[&report.name];
        assert_eq!(channels.len(), report.channels, "{}", report.name);
        let humanoid = entry.humanoid.as_deref();
        let poser = ClipPoser::new(c.clip, &entry.skeleton, humanoid);
        let length = c.clip.length();
        let mut checked = 0;
        for i in 0..30 {
            let t = length * i as f32 / 29.0;
            let locals = poser.locals(c.clip.start + t, &options_pose);
            for ch in channels.iter().filter(|ch| ch.path != Path::Weights) {
                let got = ch.keys.evaluate(ch.path, t);
                let l = &locals[ch.node];
                let (want, err): (Vec<f32>, f32) = match ch.path {
                    Path::Translation => {
                        let w = space::point(l.t).to_vec();
                        let e = distance(&got, &w);
                        (w, e)
                    }
                    Path::Rotation => {
                        let w = space::rotation(l.q).to_vec();
                        let e = angle_between(&got, &w);
                        (w, e)
                    }
                    _ => {
                        let w = l.s.to_vec();
                        let e = got
                            .iter()
                            .zip(&w)
                            .map(|(a, b)| (a - b).abs())
                            .fold(0.0, f32::max);
                        (w, e)
                    }
                };
                assert!(
                    err <= allowed(report, ch.path),
                    "{} node {} {:?} at {t}: {got:?} vs {want:?} (error {err}, report {report:?})",
                    report.name,
                    ch.node,
                    ch.path
                );
                checked += 1;
            }
        }
        assert!(checked > 0, "{}: no channel checked", report.name);
    }
    gltf_validator::validator(&exported.glb);
    exported
}

fn print(report: &Report) {
    for c in &report.clips {
        eprintln!("{}", c.summary());
    }
}

#[test]
fn generic_mecanim_clip_on_its_rig_round_trips_with_the_mesh() {
    let Some(ws) = open(&["binary/lessscarymannequins/copy.bundle"]) else {
        return;
    };
    let rig = rig_index(&ws, "quinn");
    let clips = clips_playing_on(&ws, rig);
    assert_eq!(clips.len(), 1);
    for mode in [Mode::Linear, Mode::Exact] {
        let options = ExportOptions {
            mode,
            ..ExportOptions::default()
        };
        let out = round_trip(&ws, rig, &clips, &options);
        print(&out.report);
        let clip = &out.report.clips[0];
        // 26 joints × (translation, rotation, scale), constant curves only.
        assert_eq!(clip.channels, 78);
        assert!(clip.max_rotation_error_rad < 1e-4, "{clip:?}");
        assert!(clip.max_translation_error < 1e-5, "{clip:?}");
    }
    let out = export(
        &ws,
        &ExportRig::of(&ws.rigs[rig]),
        &clips,
        &ExportOptions::default(),
    )
    .unwrap();
    let gltf = gltf::Gltf::from_slice(&out.glb).unwrap();
    let mesh_entry = ws.rigs[rig].renderers.iter().find_map(|r| match &r.mesh {
        clipscope::workspace::MeshSource::Loaded(at) => ws.mesh(*at),
        _ => None,
    });
    let source = mesh_entry
        .and_then(|m| m.data.clone())
        .expect("a decoded mesh");
    let mesh = gltf.meshes().next().expect("a mesh");
    let positions = mesh
        .primitives()
        .next()
        .unwrap()
        .get(&gltf::Semantic::Positions)
        .unwrap();
    assert_eq!(positions.count(), source.vertex_count());
    let skin = gltf.skins().next().expect("a skin");
    assert_eq!(skin.joints().count(), source.bind_poses.len());
}

#[test]
fn legacy_clips_round_trip_with_their_dropped_curves_listed() {
    let Some(ws) = open(&["binary/duckhunted/WebPlayer.unity3d"]) else {
        return;
    };
    let rig = (0..ws.rigs.len())
        .max_by_key(|&i| ws.rigs[i].clips.len())
        .unwrap();
    let clips = clips_playing_on(&ws, rig);
    let names: Vec<&str> = clips.iter().map(|c| c.clip.name.as_str()).collect();
    for want in ["Fire", "Idle", "Reload", "Run"] {
        assert!(names.contains(&want), "{names:?}");
    }
    for mode in [Mode::Linear, Mode::Exact] {
        let options = ExportOptions {
            mode,
            ..ExportOptions::default()
        };
        let out = round_trip(&ws, rig, &clips, &options);
        print(&out.report);
        for c in &out.report.clips {
            assert!(c.max_rotation_error_rad < 2e-2, "{c:?}");
        }
    }
}

#[test]
fn humanoid_clips_bake_onto_another_files_rig() {
    let Some(ws) = open(&[
        "binary/wetboys_plateupemotesapi/morbman",
        "binary/wetboys_plateupemotesapi/customemotespackage",
        "binary/wetboys_plateupemotesapi/moisture_animationreplacements",
    ]) else {
        return;
    };
    let rig = rig_index(&ws, "morbman");
    let all = clips_playing_on(&ws, rig);
    let clips: Vec<ExportClip<'_>> = all
        .into_iter()
        .filter(|c| ["Default Dance", "Floss", "Dab"].contains(&c.clip.name.as_str()))
        .collect();
    assert_eq!(clips.len(), 3);
    let out = round_trip(
        &ws,
        rig,
        &clips,
        &ExportOptions {
            fps: Some(120.0),
            ..ExportOptions::default()
        },
    );
    print(&out.report);
    let dab = out.report.clips.iter().find(|c| c.name == "Dab").unwrap();
    // Dab's 40 blend-shape bindings have no matching shape on morbman's mesh.
    let shapes = dab
        .dropped
        .iter()
        .filter(|d| d.reason.contains("blend shape"))
        .count();
    assert_eq!(shapes, 40, "{:?}", dab.dropped);
    for c in &out.report.clips {
        assert!(c.channels > 20, "{c:?}");
    }
}

#[test]
fn the_command_writes_the_file_and_the_report_and_says_why_when_it_cannot() {
    let Some(bundle) = common::data("binary/lessscarymannequins/copy.bundle") else {
        return;
    };
    let bundle = bundle.display().to_string();
    let dir = std::env::temp_dir().join(format!("clipscope-export-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let glb = dir.join("quinn.glb").display().to_string();
    let json = dir.join("quinn.json").display().to_string();
    let (code, out, err) = common::clipscope(&[
        "export", &bundle, "--mode", "exact", "-o", &glb, "--report", &json,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("TestClip: 78 channels"), "{out}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["rig"], "quinn");
    assert_eq!(report["mode"], "exact");
    assert_eq!(report["clips"][0]["name"], "TestClip");
    assert_eq!(report["meshes"][0]["vertices"], 2369);
    let bytes = std::fs::read(&glb).unwrap();
    assert_eq!(
        gltf::Gltf::from_slice(&bytes).unwrap().animations().count(),
        1
    );
    // Usage errors: 2; nothing to export: 1.
    let (code, _, err) = common::clipscope(&["export", &bundle, "--clip", "Nope", "-o", &glb]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("clips there: TestClip"), "{err}");
    let (code, _, err) = common::clipscope(&["export", &bundle, "--rig", "Nope", "-o", &glb]);
    assert_eq!(code, 2, "{err}");
    if let Some(morbman) = common::data("binary/wetboys_plateupemotesapi/morbman") {
        let (code, _, err) =
            common::clipscope(&["export", &morbman.display().to_string(), "-o", &glb]);
        assert_eq!(code, 1, "a rig without clips: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_clip_without_a_rig_exports_on_stand_in_joints() {
    let Some(hop) = common::data("yaml/unitypackage-js/Hop.anim") else {
        return;
    };
    let ws = common::open(&[hop]);
    let clips: Vec<ExportClip<'_>> = ws
        .clips
        .iter()
        .map(|e| ExportClip {
            at: e.at,
            clip: e.data.as_ref().unwrap(),
        })
        .collect();
    let rig = ExportRig::stand_in(&ws, &clips);
    let out = export(&ws, &rig, &clips, &ExportOptions::default()).unwrap();
    let (gltf, animations) = read_back(&out.glb);
    assert_eq!(animations.len(), 1);
    let clip = &out.report.clips[0];
    assert!(clip.channels >= 1, "{clip:?}");
    // The animated joint's path is the clip's own, or a hash-named stand-in.
    for ch in &animations["Hop"] {
        let node = gltf.nodes().nth(ch.node).unwrap();
        let extras: serde_json::Value =
            serde_json::from_str(node.extras().as_ref().unwrap().get()).unwrap();
        assert!(extras["unity_path_hash"].is_u64(), "{extras}");
        if extras.get("unity_path").is_none() {
            assert!(node.name().unwrap().starts_with('#'));
        }
    }
    gltf_validator::validator(&out.glb);
}

#[test]
fn a_clip_whose_curves_glb_cannot_carry_is_reported_and_writes_no_animation() {
    let Some(path) = common::data("yaml/modular-avatar/HQ_OFF.anim") else {
        return;
    };
    let ws = common::open(&[path]);
    let clips: Vec<ExportClip<'_>> = ws
        .clips
        .iter()
        .map(|e| ExportClip {
            at: e.at,
            clip: e.data.as_ref().unwrap(),
        })
        .collect();
    let rig = ExportRig::stand_in(&ws, &clips);
    let out = export(&ws, &rig, &clips, &ExportOptions::default()).unwrap();
    assert_eq!(out.animations(), 0);
    let clip = &out.report.clips[0];
    assert_eq!(clip.channels, 0);
    assert!(!clip.dropped.is_empty());
    assert!(
        gltf::Gltf::from_slice(&out.glb)
            .unwrap()
            .animations()
            .next()
            .is_none()
    );
}
