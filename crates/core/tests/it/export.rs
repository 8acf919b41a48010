//! glTF export of real Unity files: the written `.glb` parses with the `gltf` crate's
//! validation, and every channel read back from it, evaluated by glTF's rules, matches
//! clipscope's own evaluation (mirrored into glTF's space) within the report's stated error.
//! The `clipscope export` command itself is tested in the root package's `export`.

use crate::common;
use clipscope_authoring::fixtures::avatar as fixtures;
use clipscope_authoring::fixtures::humanoid as humanoid_fixture;
use clipscope_authoring::gltf_validator;

use std::collections::HashMap;
use std::path::PathBuf;

use clipscope_core::Workspace;
use clipscope_core::body::Body;
use clipscope_core::export::evaluate::{Interpolation, Keys, Path, angle_between, distance};
use clipscope_core::export::{
    ExportClip, ExportOptions, ExportRig, Exported, Mode, Report, clips_playing_on, export, space,
};
use clipscope_core::humanoid::PoseOptions;
use clipscope_core::pose::ClipPoser;

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
fn allowed(report: &clipscope_core::export::ClipReport, path: Path) -> f32 {
    1e-5 + match path {
        Path::Rotation => report.max_rotation_error_rad,
        Path::Translation => report.max_translation_error,
        Path::Scale => report.max_scale_error,
        Path::Weights => report.max_weight_error,
    }
}

/// Exports, reads back, and compares every transform channel at 30 times per clip with the
/// clip posed by clipscope on the rig (mirrored), within the report's error (translations
/// in the rig's units, as the report states them). Returns the export for further checks.
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
    let units = common::translation_units(&entry.skeleton);
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
                        let e = distance(&got, &w) * units[ch.node];
                        (w, e)
                    }
                    Path::Rotation => {
                        let w = space::rotation(l.q).to_vec();
                        // As glTF players (slerp) and Blender (nlerp) play it.
                        let blender = ch.keys.evaluate_blender(ch.path, t);
                        let e = angle_between(&got, &w).max(angle_between(&blender, &w));
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
    eprintln!(
        "{}: body size {}, translation tolerance {:.2e}",
        report.rig, report.rig_size, report.tolerance_translation
    );
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
        clipscope_core::workspace::MeshSource::Loaded(at) => ws.mesh(*at),
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

/// The morbman rig and every shared humanoid clip.
fn morbman_with_emotes() -> Option<Workspace> {
    open(&[
        "binary/wetboys_plateupemotesapi/morbman",
        "binary/wetboys_plateupemotesapi/customemotespackage",
        "binary/wetboys_plateupemotesapi/moisture_animationreplacements",
    ])
}

#[test]
fn every_shared_humanoid_clip_on_morbman_exports_within_the_default_tolerance() {
    let Some(ws) = morbman_with_emotes() else {
        return;
    };
    let rig = rig_index(&ws, "morbman");
    let clips = clips_playing_on(&ws, rig);
    assert_eq!(clips.len(), 4);
    let options = ExportOptions::default();
    let out = round_trip(&ws, rig, &clips, &options);
    print(&out.report);
    let r = &out.report;
    assert_eq!((r.tolerance_rad, r.tolerance_other), (1e-3, 1e-4));
    assert!((r.tolerance_translation - 1e-4 * r.rig_size).abs() < 1e-9);
    assert!(r.rig_size > 0.5 && r.rig_size < 3.0, "{}", r.rig_size);
    for c in &r.clips {
        assert!(c.within_tolerance, "{c:?}");
        assert!(c.max_rotation_error_rad <= 1e-3, "{c:?}");
        assert!(c.max_translation_error <= r.tolerance_translation, "{c:?}");
    }
    assert!(
        r.warnings.iter().all(|w| !w.contains("tolerance")),
        "{:?}",
        r.warnings
    );
}

/// Tolerances below what f32 keys 1 ms apart can hold are not met, and the report and the
/// warnings say so.
#[test]
fn a_clip_that_cannot_reach_the_tolerance_says_so() {
    let Some(ws) = morbman_with_emotes() else {
        return;
    };
    let rig = rig_index(&ws, "morbman");
    let clips = clips_playing_on(&ws, rig);
    let options = ExportOptions {
        tolerance_rad: 1e-7,
        tolerance_size: 1e-9,
        ..ExportOptions::default()
    };
    let dab: Vec<ExportClip<'_>> = clips.into_iter().filter(|c| c.clip.name == "Dab").collect();
    let out = export(&ws, &ExportRig::of(&ws.rigs[rig]), &dab, &options).unwrap();
    let c = &out.report.clips[0];
    assert!(!c.within_tolerance, "{c:?}");
    assert!(
        out.report
            .warnings
            .iter()
            .any(|w| w.contains("Dab") && w.contains("cannot reach the tolerance")),
        "{:?}",
        out.report.warnings
    );
}

/// A long humanoid clip as real emote packs have them: 213.5 s at 30 Hz, 145 bindings (130
/// of them root, goal and muscle curves, the rest script fields, Animator parameters and
/// activity) in all three blocks: 41 streamed, 78 dense and 26 constant curves.
fn long_humanoid_clip() -> Vec<u8> {
    use clipscope_authoring::{
        Binding, Bundle, ClipSpec, Dense, Frame, MecanimClip, UnityTarget, write_bundle,
    };
    const STOP: f32 = 213.5;
    const RATE: f32 = 30.0;
    let muscle = |slot: u32| Binding {
        path: 0,
        attribute: slot,
        type_id: 95,
        custom_type: 8,
        ..Default::default()
    };
    let other = |i: u32| match i % 3 {
        0 => Binding {
            path: clipscope_core::path_hash("Props/Lamp"),
            attribute: 0x1000 + i,
            type_id: 114,
            ..Default::default()
        },
        1 => Binding {
            path: 0,
            attribute: 0x2000 + i,
            type_id: 95,
            ..Default::default()
        },
        _ => Binding {
            path: clipscope_core::path_hash("Props"),
            attribute: 0x3000 + i,
            type_id: 1,
            ..Default::default()
        },
    };
    // The value of root, goal and muscle slot `slot` at `t`: a walk turning slowly, goals
    // held, muscles swinging.
    let value = |slot: u32, t: f32| -> f32 {
        let heading = 0.3 * t;
        match slot {
            7 => 0.1 * (0.5 * t).sin(),
            8 => 1.0,
            9 => 0.05 * t,
            11 => (heading / 2.0).sin(),
            13 => (heading / 2.0).cos(),
            10 | 12 => 0.0,
            14..42 if (slot - 14) % 7 == 6 => 1.0,
            14..42 => 0.1,
            _ => 0.3 * (0.7 * t + slot as f32).sin(),
        }
    };
    let streamed: Vec<Binding> = (7..14)
        .chain(42..72)
        .map(muscle)
        .chain((0..4).map(other))
        .collect();
    let dense: Vec<Binding> = (72..137).chain(14..27).map(muscle).collect();
    let constant: Vec<Binding> = (27..42).map(muscle).chain((4..15).map(other)).collect();
    assert_eq!((streamed.len(), dense.len(), constant.len()), (41, 78, 26));
    let slot_of = |b: &Binding| (b.custom_type == 8).then_some(b.attribute);
    // Streamed keys every half second, linear segments between.
    let step = 0.5;
    let keys_at = |t: f32| -> Vec<(i32, [f32; 4])> {
        streamed
            .iter()
            .enumerate()
            .map(|(c, b)| {
                let v = slot_of(b).map_or(c as f32, |s| value(s, t));
                let next = slot_of(b).map_or(v, |s| value(s, (t + step).min(STOP)));
                let slope = if t < STOP { (next - v) / step } else { 0.0 };
                (c as i32, [0.0, 0.0, slope, v])
            })
            .collect()
    };
    let mut frames = vec![Frame {
        time: -f32::MAX,
        keys: keys_at(0.0)
            .into_iter()
            .map(|(c, k)| (c, [0.0, 0.0, 0.0, k[3]]))
            .collect(),
    }];
    let count = (STOP / step) as usize;
    frames.extend((0..=count).map(|k| {
        let t = k as f32 * step;
        Frame {
            time: t,
            keys: keys_at(t),
        }
    }));
    frames.push(Frame {
        time: f32::INFINITY,
        keys: Vec::new(),
    });
    let frame_count = (STOP * RATE) as usize + 1;
    let mut samples = Vec::with_capacity(frame_count * dense.len());
    for f in 0..frame_count {
        let t = f as f32 / RATE;
        samples.extend(
            dense
                .iter()
                .map(|b| slot_of(b).map_or(0.0, |s| value(s, t))),
        );
    }
    let mut clip = MecanimClip::new("Long");
    clip.stop = STOP;
    clip.sample_rate = RATE;
    clip.streamed_curve_count = streamed.len() as u32;
    clip.frames = frames;
    clip.dense = Some(Dense {
        frame_count: frame_count as i32,
        curve_count: dense.len() as u32,
        sample_rate: RATE,
        begin_time: 0.0,
        samples,
    });
    clip.constants = constant
        .iter()
        .map(|b| slot_of(b).map_or(1.0, |s| value(s, 0.0)))
        .collect();
    clip.bindings = streamed.into_iter().chain(dense).chain(constant).collect();
    let mut bundle = Bundle::new(UnityTarget::Unity2020);
    bundle.clips = vec![ClipSpec::Mecanim(clip)];
    write_bundle(&bundle).expect("the long clip writes")
}

#[test]
fn a_long_humanoid_clip_in_all_three_blocks_exports_and_moves_the_rig() {
    let Some(ws) = open(&["binary/wetboys_plateupemotesapi/morbman"]) else {
        return;
    };
    let long = Workspace::open_bytes(
        std::path::Path::new("long.bundle"),
        long_humanoid_clip(),
        &clipscope_core::OpenOptions::default(),
    );
    assert!(long.errors.is_empty(), "{:?}", long.errors);
    let entry = &long.clips[0];
    let clip = entry.data.as_ref().expect("the long clip decodes");
    assert_eq!((clip.bindings.len(), clip.stop), (145, 213.5));
    let muscles = clipscope_core::humanoid::ClipMuscles::new(clip);
    assert_eq!(muscles.curves.len(), 130);
    let rig = rig_index(&ws, "morbman");
    let clips = [ExportClip { at: entry.at, clip }];
    let out = round_trip(&ws, rig, &clips, &ExportOptions::default());
    print(&out.report);
    assert_eq!(out.animations(), 1, "{:?}", out.report.warnings);
    let c = &out.report.clips[0];
    assert!(c.channels > 20, "{c:?}");
    // The 15 bindings that are not humanoid curves are listed as dropped.
    assert_eq!(c.dropped.len(), 15, "{:?}", c.dropped);
    assert!(c.within_tolerance, "{c:?}");
}

/// Every node's world position at glTF time `t` as a player composes the read-back file
/// (full TRS matrices in f64, node 0 at the origin as `pose` places the rig's root), its
/// rotations slerped (glTF) or, with `blender`, nlerped. Nodes are joints (no meshes).
fn file_positions(
    gltf: &gltf::Gltf,
    channels: &[ReadChannel],
    t: f32,
    blender: bool,
) -> Vec<[f64; 3]> {
    let mut locals: Vec<([f32; 3], [f32; 4], [f32; 3])> =
        gltf.nodes().map(|n| n.transform().decomposed()).collect();
    let mut parents = vec![None; locals.len()];
    for n in gltf.nodes() {
        for c in n.children() {
            parents[c.index()] = Some(n.index());
        }
    }
    for ch in channels {
        let v = if blender {
            ch.keys.evaluate_blender(ch.path, t)
        } else {
            ch.keys.evaluate(ch.path, t)
        };
        let l = &mut locals[ch.node];
        match ch.path {
            Path::Translation => l.0 = [v[0], v[1], v[2]],
            Path::Rotation => l.1 = [v[0], v[1], v[2], v[3]],
            Path::Scale => l.2 = [v[0], v[1], v[2]],
            Path::Weights => {}
        }
    }
    let mut out = Vec::new();
    clipscope_core::world::compose(parents, locals, &mut out);
    out.iter().map(|w| w.position()).collect()
}

/// Exports `clips` on `rig` (no meshes) at the default tolerances and checks the world
/// position of every joint near the body (as [`Body`] has it: the body's joints, and the
/// others within its radius of the body's centre in that frame), in the file as glTF players
/// and as Blender play it, against `pose`'s world positions (mirrored) at 12 times per clip:
/// within the report's translation tolerance, 1e-4 of the body's size. Returns the largest
/// distance relative to the body's size, and that of the Hips (0 for a generic rig).
fn file_matches_pose(
    ws: &Workspace,
    entry: &clipscope_core::workspace::RigEntry,
    clips: &[ExportClip<'_>],
) -> (f64, f64) {
    let options = ExportOptions {
        meshes: false,
        ..ExportOptions::default()
    };
    let exported = export(ws, &ExportRig::of(entry), clips, &options).expect("exports");
    print(&exported.report);
    let size = f64::from(exported.report.rig_size);
    let humanoid = entry.humanoid.as_deref();
    let body = Body::of(&entry.skeleton, humanoid);
    assert_eq!(body.size, exported.report.rig_size);
    let tolerance = f64::from(exported.report.tolerance_translation);
    assert!((tolerance - 1e-4 * size).abs() < 1e-9 * size);
    let (gltf, animations) = read_back(&exported.glb);
    let hips = humanoid.and_then(|h| h.bone_joint(clipscope_core::avatar::HumanBone::Hips));
    let (mut worst, mut worst_hips) = (0.0f64, 0.0f64);
    let mut compared = 0;
    for (c, report) in clips.iter().zip(&exported.report.clips) {
        assert!(report.within_tolerance, "{report:?}");
        let channels = &animations[&report.name];
        let poser = ClipPoser::new(c.clip, &entry.skeleton, humanoid);
        for i in 0..12 {
            let t = c.clip.length() * i as f32 / 11.0;
            let locals = poser.locals(c.clip.start + t, &PoseOptions::default());
            let world = poser.world(&locals);
            let near = body.near(&world.iter().map(|w| w.t.map(f64::from)).collect::<Vec<_>>());
            let want: Vec<[f32; 3]> = world.iter().map(|w| space::point(w.t)).collect();
            for blender in [false, true] {
                let got = file_positions(&gltf, channels, t, blender);
                for (j, (g, w)) in got.iter().zip(&want).enumerate() {
                    if !near[j] {
                        continue;
                    }
                    let d = (0..3)
                        .map(|k| (g[k] - f64::from(w[k])).powi(2))
                        .sum::<f64>()
                        .sqrt();
                    // pose's own world positions are f32.
                    let f32_rounding =
                        1e-6 * f64::from(w.iter().fold(1.0f32, |m, c| m.max(c.abs())));
                    assert!(
                        d <= tolerance + f32_rounding,
                        "{} at {t} (blender {blender}): {} is {:.2e} body sizes from pose: {g:?} vs {w:?}",
                        report.name,
                        entry.skeleton.joints[j].path,
                        d / size
                    );
                    worst = worst.max(d / size);
                    if Some(j) == hips {
                        worst_hips = worst_hips.max(d / size);
                    }
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 0);
    (worst, worst_hips)
}

#[test]
fn hips_under_a_rotated_scaled_armature_and_beside_a_parked_socket_match_pose_in_the_file() {
    let (Some(m), Some(emotes)) = (humanoid_fixture::morbman(), humanoid_fixture::emotes()) else {
        return;
    };
    let clips = humanoid_fixture::humanoid_export_clips(&emotes);
    assert_eq!(clips.len(), 4);
    for case in [
        fixtures::Case::Deep,
        fixtures::Case::Socket,
        fixtures::Case::Parked,
    ] {
        let (ws, rig) = fixtures::open(case, &m.avatar, &m.skeleton);
        let (worst, hips) = file_matches_pose(&ws, &ws.rigs[rig], &clips);
        eprintln!(
            "{case:?}: every joint within {worst:.2e} body sizes of pose, the Hips {hips:.2e}"
        );
    }
}

/// A generic character laid out as Risk of Rain 2's are (a rotated Armature scaled 0.01,
/// a weapon socket parked 30 km away at rest and one the clip parks 1 km away): the rig's
/// size is the body's (2 m), and every joint of the body plays where `pose` puts it within
/// 1e-4 of it.
#[test]
fn a_generic_rig_with_sockets_parked_kilometres_away_exports_within_its_bodys_size() {
    use clipscope_authoring::fixtures::framing;
    let ws = Workspace::open_bytes(
        std::path::Path::new("parked.bundle"),
        framing::bytes(),
        &clipscope_core::OpenOptions::default(),
    );
    let rig = rig_index(&ws, framing::ROOT);
    let clips = clips_playing_on(&ws, rig);
    assert_eq!(clips.len(), 1);
    let (worst, _) = file_matches_pose(&ws, &ws.rigs[rig], &clips);
    let exported = export(
        &ws,
        &ExportRig::of(&ws.rigs[rig]),
        &clips,
        &ExportOptions::default(),
    )
    .unwrap();
    // The root and the Armature at the origin, the head's top at 2 m; hands 1.2 m apart.
    assert!(
        (exported.report.rig_size - 2.0).abs() < 1e-4,
        "{}",
        exported.report.rig_size
    );
    eprintln!("parked generic: every joint near the body within {worst:.2e} body sizes of pose");
}
