//! The exported `.glb` read back by Bevy's own glTF loader (`bevy_gltf`, headless): every
//! animation played through Bevy's `AnimationPlayer` (seeked to 30 times per clip), and every
//! joint and mesh node the animation moves compared with clipscope's own evaluation of the
//! clip (mirrored into glTF's space by the export's `space` module), within the report's
//! stated error plus 1e-5; and every joint near the body where Bevy's world puts it
//! (`GlobalTransform`) within the export's translation tolerance, 1e-4 of the body's size
//! (a socket parked far away is not measured). Then the meshes: Bevy's loaded meshes have the source's vertex
//! count, skin joint count, morph target count and texture size.
//!
//! Cases: a generic Mecanim clip (`copy.bundle`'s quinn, and the streamed clip of
//! `resetanimator`), the legacy clips of `duckhunted`, every shared humanoid clip baked onto
//! `morbman`, Unity's own stepped keys (`ConstantTangents.anim` on stand-in joints), and a
//! written legacy clip with Hermite, stepped and blend shape curves on quinn's real mesh;
//! rigs that park weapon sockets kilometres away (a generic one, and morbman's avatar under
//! a rotated, scaled Armature).

use crate::common;
use clipscope_authoring::fixtures::morph as morph_fixture;
use clipscope_authoring::fixtures::skew as skew_fixture;
use clipscope_authoring::gltf_validator;

use std::collections::HashMap;
use std::path::{Path as FsPath, PathBuf};
use std::time::{Duration, Instant};

use bevy::animation::graph::{AnimationGraph, AnimationGraphHandle, AnimationNodeIndex};
use bevy::animation::{AnimationClip, AnimationPlayer, AnimationPlugin, AnimationTargetId};
use bevy::asset::{AssetPlugin, AssetServer, Assets, Handle, LoadState};
use bevy::ecs::name::Name;
use bevy::gltf::{Gltf, GltfMaterial, GltfMesh, GltfPlugin};
use bevy::image::{Image, ImagePlugin};
use bevy::mesh::morph::MorphWeights;
use bevy::mesh::skinning::SkinnedMesh;
use bevy::mesh::{Mesh, Mesh3d, MeshPlugin};
use bevy::prelude::{App, Entity, MinimalPlugins, Transform};
use bevy::transform::TransformPlugin;
use bevy::transform::components::GlobalTransform;
use bevy::world_serialization::{WorldAssetRoot, WorldSerializationPlugin};
use clipscope_core::body::Body;
use clipscope_core::export::evaluate::{Path, angle_between, distance, max_abs_diff};
use clipscope_core::export::{
    ClipReport, ExportClip, ExportOptions, ExportRig, Exported, Mode, clips_playing_on, export,
    space,
};
use clipscope_core::humanoid::{JointLocal, PoseOptions};
use clipscope_core::pose::ClipPoser;
use clipscope_core::workspace::MeshSource;
use clipscope_core::world::World;
use clipscope_core::{ClipData, Workspace};

/// Times per clip at which Bevy's pose is compared.
const TIMES: usize = 30;

/// A fresh directory under the system's temporary folder, one per call (tests running at
/// once may load files of one name).
fn temp_dir(name: &str) -> PathBuf {
    static COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "clipscope-export-bevy-{}-{name}-{n}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A headless app that reads assets from `dir` with Bevy's glTF loader, its animation
/// player and its world (scene) spawner; no renderer.
fn app(dir: &FsPath) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin {
            file_path: dir.display().to_string(),
            ..Default::default()
        },
        TransformPlugin,
        ImagePlugin::default(),
        MeshPlugin,
        AnimationPlugin,
        WorldSerializationPlugin,
        GltfPlugin::default(),
    ));
    register_scene_types(&mut app);
    app.finish();
    app.cleanup();
    app
}

/// Registers, for reflection, every component the glTF loader puts in a scene: Bevy's world
/// spawner clones them by reflection and panics on an unregistered one (the full plugin set
/// registers them; this headless set does not).
fn register_scene_types(app: &mut App) {
    use bevy::animation::AnimatedBy;
    use bevy::camera::primitives::Aabb;
    use bevy::camera::visibility::{
        DynamicSkinnedMeshBounds, InheritedVisibility, NoFrustumCulling, ViewVisibility,
        Visibility, VisibilityClass,
    };
    use bevy::ecs::hierarchy::{ChildOf, Children};
    use bevy::gltf::{
        GltfExtras, GltfMaterialExtras, GltfMaterialName, GltfMeshExtras, GltfMeshName,
        GltfSceneExtras, GltfSceneName,
    };
    use bevy::mesh::morph::MeshMorphWeights;
    use bevy::transform::components::{GlobalTransform, TransformTreeChanged};
    app.register_type::<Transform>()
        .register_type::<GlobalTransform>()
        .register_type::<TransformTreeChanged>()
        .register_type::<Visibility>()
        .register_type::<InheritedVisibility>()
        .register_type::<ViewVisibility>()
        .register_type::<VisibilityClass>()
        .register_type::<Aabb>()
        .register_type::<DynamicSkinnedMeshBounds>()
        .register_type::<NoFrustumCulling>()
        .register_type::<Name>()
        .register_type::<ChildOf>()
        .register_type::<Children>()
        .register_type::<GltfExtras>()
        .register_type::<GltfSceneExtras>()
        .register_type::<GltfSceneName>()
        .register_type::<GltfMeshExtras>()
        .register_type::<GltfMeshName>()
        .register_type::<GltfMaterialExtras>()
        .register_type::<GltfMaterialName>()
        .register_type::<AnimationTargetId>()
        .register_type::<AnimatedBy>()
        .register_type::<AnimationPlayer>()
        .register_type::<Mesh3d>()
        .register_type::<SkinnedMesh>()
        .register_type::<MorphWeights>()
        .register_type::<MeshMorphWeights>();
}

/// Steps `app` until `done` says so (or panics after a minute: loading runs on other
/// threads).
fn run_until(app: &mut App, what: &str, mut done: impl FnMut(&mut App) -> bool) {
    let start = Instant::now();
    while !done(app) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "timed out waiting for {what}"
        );
        app.update();
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The file loaded by Bevy and its default scene spawned.
struct Loaded {
    app: App,
    gltf: Handle<Gltf>,
    /// Entities of the spawned scene's animated nodes, by Bevy's target id.
    targets: HashMap<AnimationTargetId, Entity>,
    players: Vec<Entity>,
    /// The glTF document (read with the `gltf` crate) for node paths and channels.
    doc: gltf::Gltf,
}

impl Loaded {
    /// Writes `glb` into a temporary folder and loads it there with Bevy's asset server.
    fn new(name: &str, glb: &[u8]) -> Loaded {
        let dir = temp_dir(name);
        std::fs::write(dir.join("out.glb"), glb).unwrap();
        let mut app = app(&dir);
        let server = app.world().resource::<AssetServer>().clone();
        let handle: Handle<Gltf> = server.load("out.glb");
        run_until(&mut app, "the glb to load", |app| {
            match app.world().resource::<AssetServer>().load_state(&handle) {
                LoadState::Failed(e) => panic!("Bevy's loader failed: {e}"),
                LoadState::Loaded => server.is_loaded_with_dependencies(&handle),
                _ => false,
            }
        });
        let scene = {
            let gltf = app.world().resource::<Assets<Gltf>>().get(&handle).unwrap();
            gltf.default_scene
                .clone()
                .or_else(|| gltf.scenes.first().cloned())
                .expect("a scene")
        };
        app.world_mut().spawn(WorldAssetRoot(scene));
        let doc = gltf::Gltf::from_slice(glb).expect("the glb parses");
        let animated = doc.animations().next().is_some();
        run_until(&mut app, "the scene to spawn", |app| {
            let mut names = app.world_mut().query::<&Name>();
            let spawned = names.iter(app.world()).count() >= doc.nodes().count();
            let mut players = app.world_mut().query::<&AnimationPlayer>();
            spawned && (!animated || players.iter(app.world()).next().is_some())
        });
        let mut q = app.world_mut().query::<(Entity, &AnimationTargetId)>();
        let targets = q.iter(app.world()).map(|(e, id)| (*id, e)).collect();
        let mut q = app
            .world_mut()
            .query_filtered::<Entity, bevy::ecs::query::With<AnimationPlayer>>();
        let players = q.iter(app.world()).collect();
        let _ = std::fs::remove_dir_all(&dir);
        Loaded {
            app,
            gltf: handle,
            targets,
            players,
            doc,
        }
    }

    fn gltf(&self) -> &Gltf {
        self.app
            .world()
            .resource::<Assets<Gltf>>()
            .get(&self.gltf)
            .unwrap()
    }

    /// Bevy's target id of glTF node `index`: the names from its scene root down, as the
    /// loader names nodes (`GltfNode{i}` for an unnamed one).
    fn target_of(&self, index: usize) -> AnimationTargetId {
        let mut parent = HashMap::new();
        for node in self.doc.nodes() {
            for child in node.children() {
                parent.insert(child.index(), node.index());
            }
        }
        let nodes: Vec<gltf::Node<'_>> = self.doc.nodes().collect();
        let mut names = Vec::new();
        let mut at = Some(index);
        while let Some(i) = at {
            let name = nodes[i]
                .name()
                .map(str::to_string)
                .unwrap_or_else(|| format!("GltfNode{i}"));
            names.push(Name::new(name));
            at = parent.get(&i).copied();
        }
        names.reverse();
        AnimationTargetId::from_names(names.iter())
    }

    /// Every channel of animation `name` in the file: (node, path).
    fn channels(&self, name: &str) -> Vec<(usize, Path)> {
        let anim = self
            .doc
            .animations()
            .find(|a| a.name() == Some(name))
            .unwrap_or_else(|| panic!("animation {name} in the file"));
        anim.channels()
            .map(|c| {
                let path = match c.target().property() {
                    gltf::animation::Property::Translation => Path::Translation,
                    gltf::animation::Property::Rotation => Path::Rotation,
                    gltf::animation::Property::Scale => Path::Scale,
                    gltf::animation::Property::MorphTargetWeights => Path::Weights,
                };
                (c.target().node().index(), path)
            })
            .collect()
    }

    /// Plays the clip `node` of the players' graph, paused at `t` seconds, for one frame.
    fn pose_at(&mut self, node: AnimationNodeIndex, t: f32) {
        for &p in &self.players {
            let mut player = self.app.world_mut().get_mut::<AnimationPlayer>(p).unwrap();
            player.stop_all();
            player.play(node).pause().set_seek_time(t);
        }
        self.app.update();
    }

    /// The largest distance, in Bevy's world now (`GlobalTransform`, the file's root node
    /// placed by its own transform), of a joint near `body` from where `pose` puts it with
    /// `locals` (mirrored, its root placed likewise). Every joint near the body must be a
    /// spawned node.
    fn world_off(&self, body: &Body, poser: &ClipPoser<'_>, locals: &[JointLocal]) -> f64 {
        let world = poser.world(locals);
        let root = World::IDENTITY.then(locals[0].t, locals[0].q, locals[0].s);
        let points: Vec<[f64; 3]> = world
            .iter()
            .map(|w| root.transform_point(w.t.map(f64::from)))
            .collect();
        let near = body.near(&points);
        let mut worst = 0.0f64;
        for (j, (p, near)) in points.iter().zip(near).enumerate() {
            if !near {
                continue;
            }
            let id = self.target_of(j);
            let entity = *self
                .targets
                .get(&id)
                .unwrap_or_else(|| panic!("joint {j} is no node Bevy spawned"));
            let got = self
                .app
                .world()
                .get::<GlobalTransform>(entity)
                .expect("a GlobalTransform")
                .translation();
            let want = space::point(p.map(|c| c as f32));
            let d = (0..3)
                .map(|k| (f64::from(got[k]) - f64::from(want[k])).powi(2))
                .sum::<f64>()
                .sqrt();
            // Bevy composes in f32: its rounding, relative to the point's size.
            let rounding = 1e-6 * want.iter().fold(1.0f32, |m, c| m.max(c.abs()));
            worst = worst.max((d - f64::from(rounding)).max(0.0));
        }
        worst
    }

    /// Bevy's value of `path` on glTF node `node` now.
    fn value(&self, node: usize, path: Path) -> Vec<f32> {
        let id = self.target_of(node);
        let entity = *self
            .targets
            .get(&id)
            .unwrap_or_else(|| panic!("node {node} is not an animation target in Bevy"));
        let world = self.app.world();
        if path == Path::Weights {
            let w = world
                .get::<MorphWeights>(entity)
                .expect("MorphWeights on the mesh node");
            return w.weights().to_vec();
        }
        let t = world.get::<Transform>(entity).unwrap();
        match path {
            Path::Translation => t.translation.to_array().to_vec(),
            Path::Rotation => t.rotation.to_array().to_vec(),
            _ => t.scale.to_array().to_vec(),
        }
    }
}

/// The report's stated error for a path, plus 1e-5.
fn allowed(report: &ClipReport, path: Path) -> f32 {
    1e-5 + match path {
        Path::Rotation => report.max_rotation_error_rad,
        Path::Translation => report.max_translation_error,
        Path::Scale => report.max_scale_error,
        Path::Weights => report.max_weight_error,
    }
}

fn error(path: Path, got: &[f32], want: &[f32]) -> f32 {
    if got.len() != want.len() {
        return f32::INFINITY;
    }
    match path {
        Path::Rotation => angle_between(got, want),
        Path::Translation => distance(got, want),
        Path::Scale | Path::Weights => max_abs_diff(got, want),
    }
}

/// Morph weights a clip sets at a clip time, by glTF mesh node (for clips with blend
/// shape curves).
type Weights<'a> = &'a dyn Fn(&ClipData, usize, f32) -> Vec<f32>;

/// Exports `clips` on `rig`, loads the file with Bevy, plays every animation and compares
/// every animated node at [`TIMES`] times with clipscope's evaluation (mirrored). Returns
/// the export and the loaded app for further checks.
fn round_trip(
    name: &str,
    ws: &Workspace,
    rig: &ExportRig<'_>,
    clips: &[ExportClip<'_>],
    options: &ExportOptions,
    weights: Option<Weights<'_>>,
) -> (Exported, Loaded) {
    let exported = export(ws, rig, clips, options).expect("exports");
    gltf_validator::validator(&exported.glb);
    let mut loaded = Loaded::new(name, &exported.glb);
    assert!(!loaded.players.is_empty(), "{name}: no AnimationPlayer");
    // One graph with every animation the file holds, on every player.
    let handles: Vec<(String, Handle<AnimationClip>)> = exported
        .report
        .clips
        .iter()
        .filter(|c| c.channels > 0)
        .map(|c| {
            let h = loaded
                .gltf()
                .named_animations
                .get(c.name.as_str())
                .unwrap_or_else(|| panic!("{name}: Bevy has no animation {}", c.name))
                .clone();
            (c.name.clone(), h)
        })
        .collect();
    let (graph, nodes) = AnimationGraph::from_clips(handles.iter().map(|(_, h)| h.clone()));
    let graph = loaded
        .app
        .world_mut()
        .resource_mut::<Assets<AnimationGraph>>()
        .add(graph);
    for &p in &loaded.players.clone() {
        loaded
            .app
            .world_mut()
            .entity_mut(p)
            .insert(AnimationGraphHandle(graph.clone()));
    }
    // Bevy threads a new graph one frame late.
    loaded.app.update();
    let pose = PoseOptions {
        root_motion: options.root_motion,
    };
    let units = common::translation_units(&rig.skeleton);
    let body = Body::of(&rig.skeleton, rig.humanoid);
    let mut worst = 0.0f64;
    let mut compared = 0;
    // A report per clip, in order (a clip that failed would have none: there is none here).
    assert_eq!(exported.report.clips.len(), clips.len(), "{name}");
    for (c, report) in clips.iter().zip(&exported.report.clips) {
        if report.channels == 0 {
            continue;
        }
        let index = handles.iter().position(|(n, _)| *n == report.name).unwrap();
        let length = c.clip.length();
        let bevy_clip = loaded
            .app
            .world()
            .resource::<Assets<AnimationClip>>()
            .get(&handles[index].1)
            .unwrap();
        assert!(
            (bevy_clip.duration() - length).abs() < 1e-4,
            "{name} {}: Bevy's clip lasts {} s, the clip {length} s",
            report.name,
            bevy_clip.duration()
        );
        let channels = loaded.channels(&report.name);
        assert_eq!(channels.len(), report.channels, "{name} {}", report.name);
        for &(node, _) in &channels {
            assert!(
                bevy_clip
                    .curves_for_target(loaded.target_of(node))
                    .is_some(),
                "{name} {}: Bevy bound no curve to node {node}",
                report.name
            );
        }
        let humanoid = rig.humanoid;
        let poser = ClipPoser::new(c.clip, &rig.skeleton, humanoid);
        for i in 0..TIMES {
            let t = length * i as f32 / (TIMES - 1) as f32;
            loaded.pose_at(nodes[index], t);
            let locals = poser.locals(c.clip.start + t, &pose);
            let off = loaded.world_off(&body, &poser, &locals);
            assert!(
                off <= f64::from(exported.report.tolerance_translation) * (1.0 + 1e-3),
                "{name} {} ({:?}) at {t}: a joint of the body is {off:.3e} from where pose \
                 puts it in Bevy's world (tolerance {:.3e})",
                report.name,
                options.mode,
                exported.report.tolerance_translation
            );
            worst = worst.max(off / f64::from(exported.report.rig_size));
            for &(node, path) in &channels {
                let got = loaded.value(node, path);
                let want: Vec<f32> = match path {
                    Path::Translation => space::point(locals[node].t).to_vec(),
                    Path::Rotation => space::rotation(locals[node].q).to_vec(),
                    Path::Scale => locals[node].s.to_vec(),
                    Path::Weights => {
                        let w = weights.expect("a weights channel needs expected weights");
                        w(c.clip, node, c.clip.start + t)
                    }
                };
                // The report states translations in the rig's units.
                let unit = if path == Path::Translation {
                    units[node]
                } else {
                    1.0
                };
                let err = error(path, &got, &want) * unit;
                assert!(
                    err <= allowed(report, path),
                    "{name} {} ({:?}) node {node} {path:?} at {t}: Bevy {got:?}, clipscope \
                     {want:?}, error {err}; report {report:?}",
                    report.name,
                    options.mode,
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 0, "{name}: nothing compared");
    eprintln!(
        "{name} ({:?}): {compared} values compared; every joint of the body within {worst:.2e} \
         body sizes of pose in Bevy's world",
        options.mode
    );
    for c in &exported.report.clips {
        eprintln!("  {}", c.summary());
    }
    (exported, loaded)
}

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

fn modes() -> [ExportOptions; 2] {
    [Mode::Linear, Mode::Exact].map(|mode| ExportOptions {
        mode,
        ..ExportOptions::default()
    })
}

#[test]
fn generic_clips_play_in_bevy_as_clipscope_poses_them() {
    if let Some(ws) = open(&["binary/lessscarymannequins/copy.bundle"]) {
        let rig = rig_index(&ws, "quinn");
        let clips = clips_playing_on(&ws, rig);
        assert_eq!(clips.len(), 1);
        for options in modes() {
            round_trip(
                "quinn",
                &ws,
                &ExportRig::of(&ws.rigs[rig]),
                &clips,
                &options,
                None,
            );
        }
    }
    // A streamed clip that moves and scales its GameObject (path "").
    if let Some(ws) = open(&["binary/resetanimator/WebPlayer.unity3d"]) {
        let rig = rig_index(&ws, "Cube");
        let clips = clips_playing_on(&ws, rig);
        assert_eq!(clips.len(), 1);
        for options in modes() {
            let (out, _) = round_trip(
                "resetanimator",
                &ws,
                &ExportRig::of(&ws.rigs[rig]),
                &clips,
                &options,
                None,
            );
            assert!(out.report.clips[0].channels >= 2);
        }
    }
}

#[test]
fn legacy_clips_play_in_bevy_as_clipscope_poses_them() {
    let Some(ws) = open(&["binary/duckhunted/WebPlayer.unity3d"]) else {
        return;
    };
    let rig = (0..ws.rigs.len())
        .max_by_key(|&i| ws.rigs[i].clips.len())
        .unwrap();
    let clips = clips_playing_on(&ws, rig);
    let mut names: Vec<&str> = clips.iter().map(|c| c.clip.name.as_str()).collect();
    names.sort();
    assert_eq!(names, ["Fire", "Idle", "Reload", "Run"]);
    for options in modes() {
        round_trip(
            "duckhunted",
            &ws,
            &ExportRig::of(&ws.rigs[rig]),
            &clips,
            &options,
            None,
        );
    }
}

#[test]
fn every_shared_humanoid_clip_baked_onto_morbman_plays_in_bevy() {
    let Some(ws) = open(&[
        "binary/wetboys_plateupemotesapi/morbman",
        "binary/wetboys_plateupemotesapi/customemotespackage",
        "binary/wetboys_plateupemotesapi/moisture_animationreplacements",
    ]) else {
        return;
    };
    let rig = rig_index(&ws, "morbman");
    let clips = clips_playing_on(&ws, rig);
    let mut names: Vec<&str> = clips.iter().map(|c| c.clip.name.as_str()).collect();
    names.sort();
    assert_eq!(names, ["Dab", "Default Dance", "Floss", "nobones"]);
    for root_motion in [true, false] {
        let options = ExportOptions {
            root_motion,
            ..ExportOptions::default()
        };
        let (out, _) = round_trip(
            "morbman",
            &ws,
            &ExportRig::of(&ws.rigs[rig]),
            &clips,
            &options,
            None,
        );
        for c in &out.report.clips {
            assert!(c.channels > 20, "{c:?}");
        }
    }
}

/// Rigs that park weapon sockets kilometres from the body, as Risk of Rain 2's do: the
/// generic framing fixture (a socket 30 km away at rest, one its clip parks 1 km away) and
/// morbman's avatar under a rotated, scaled Armature with sockets 1 km and 30 km away,
/// playing every shared humanoid emote. Bevy puts every joint of the body within 1e-4 of
/// the body's size of `pose` (checked in `round_trip`).
#[test]
fn rigs_with_sockets_parked_kilometres_away_play_in_bevy_within_their_bodys_size() {
    use clipscope_authoring::fixtures::avatar as avatar_fixture;
    use clipscope_authoring::fixtures::framing;
    use clipscope_authoring::fixtures::humanoid as humanoid_fixture;
    let ws = Workspace::open_bytes(
        FsPath::new("parked.bundle"),
        framing::bytes(),
        &clipscope_core::OpenOptions::default(),
    );
    let rig = rig_index(&ws, framing::ROOT);
    let clips = clips_playing_on(&ws, rig);
    let (out, _) = round_trip(
        "parked",
        &ws,
        &ExportRig::of(&ws.rigs[rig]),
        &clips,
        &ExportOptions::default(),
        None,
    );
    assert!(
        (out.report.rig_size - 2.0).abs() < 1e-4,
        "{}",
        out.report.rig_size
    );
    let (Some(m), Some(emotes)) = (humanoid_fixture::morbman(), humanoid_fixture::emotes()) else {
        return;
    };
    let (ws, rig) = avatar_fixture::open(avatar_fixture::Case::Parked, &m.avatar, &m.skeleton);
    let clips = humanoid_fixture::humanoid_export_clips(&emotes);
    assert_eq!(clips.len(), 4);
    let (out, _) = round_trip(
        "parked humanoid",
        &ws,
        &ExportRig::of(&ws.rigs[rig]),
        &clips,
        &ExportOptions::default(),
        None,
    );
    // The human bones' size, not the sockets' 30 km.
    assert!(out.report.rig_size < 2.0, "{}", out.report.rig_size);
}

#[test]
fn unitys_own_stepped_keys_hold_in_bevy() {
    let Some(path) = common::data("yaml/modular-avatar/ConstantTangents.anim") else {
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
    for options in modes() {
        let (out, _) = round_trip("stepped", &ws, &rig, &clips, &options, None);
        let doc = gltf::Gltf::from_slice(&out.glb).unwrap();
        let steps = doc
            .animations()
            .flat_map(|a| a.channels().collect::<Vec<_>>())
            .filter(|c| c.sampler().interpolation() == gltf::animation::Interpolation::Step)
            .count();
        assert!(steps >= 1, "a STEP channel for the stepped position");
    }
}

#[test]
fn blend_shape_and_stepped_curves_on_a_real_mesh_play_in_bevy() {
    let Some(quinn) = common::data("binary/lessscarymannequins/copy.bundle") else {
        return;
    };
    let (ws, rig, shape, full) = morph_fixture::open_with_quinn(&quinn, &temp_dir("fixture"));
    let entry = &ws.rigs[rig];
    let clip = ws
        .clips
        .iter()
        .find(|c| c.data.as_ref().is_ok_and(|d| d.name == morph_fixture::CLIP))
        .expect("the written clip");
    let clips = [ExportClip {
        at: clip.at,
        clip: clip.data.as_ref().unwrap(),
    }];
    // quinn's renderer weights at rest, over the shape's full weight.
    let rest = match &entry.renderers[0].kind {
        clipscope_core::workspace::RendererKind::Skinned {
            blend_shape_weights,
            ..
        } => blend_shape_weights.first().copied().unwrap_or(0.0) / full,
        _ => 0.0,
    };
    let curve = clips[0]
        .clip
        .bindings
        .iter()
        .position(|b| {
            b.attribute == clipscope_core::hash::attribute_hash(&format!("blendShape.{shape}"))
        })
        .expect("the blend shape binding");
    let track = clips[0]
        .clip
        .curves
        .iter()
        .position(|c| c.binding == Some(curve))
        .unwrap();
    let weights = |clip: &ClipData, _node: usize, t: f32| -> Vec<f32> {
        vec![clip.sample_curve(track, t).unwrap_or(rest * full) / full]
    };
    for options in modes() {
        let (out, loaded) = round_trip(
            "morph",
            &ws,
            &ExportRig::of(entry),
            &clips,
            &options,
            Some(&weights),
        );
        let report = &out.report.clips[0];
        assert!(report.dropped.is_empty(), "{report:?}");
        let channels = loaded.channels(&report.name);
        let paths: Vec<Path> = channels.iter().map(|c| c.1).collect();
        for p in [Path::Translation, Path::Scale, Path::Weights] {
            assert!(paths.contains(&p), "{p:?} in {paths:?}");
        }
    }
}

/// What Bevy loaded of a file's meshes: per mesh entity, (vertices, skin joints, morph
/// targets, base colour texture size).
fn bevy_meshes(loaded: &mut Loaded) -> Vec<(usize, usize, usize, Option<[u32; 2]>)> {
    let world = loaded.app.world_mut();
    let mut q = world.query::<(
        &Mesh3d,
        Option<&SkinnedMesh>,
        Option<&bevy::ecs::hierarchy::ChildOf>,
    )>();
    let found: Vec<(Handle<Mesh>, usize, Option<Entity>)> = q
        .iter(world)
        .map(|(m, s, parent)| {
            (
                m.0.clone(),
                s.map_or(0, |s| s.joints.len()),
                parent.map(|p| p.parent()),
            )
        })
        .collect();
    let world = loaded.app.world();
    let meshes = world.resource::<Assets<Mesh>>();
    let gltf = world.resource::<Assets<Gltf>>().get(&loaded.gltf).unwrap();
    let gltf_meshes = world.resource::<Assets<GltfMesh>>();
    let materials = world.resource::<Assets<GltfMaterial>>();
    let images = world.resource::<Assets<Image>>();
    found
        .into_iter()
        .map(|(handle, joints, parent)| {
            let mesh = meshes.get(&handle).expect("the mesh asset");
            let vertices = mesh.count_vertices();
            let morphs = parent
                .and_then(|p| world.get::<MorphWeights>(p))
                .map_or(0, |w| w.weights().len());
            if morphs > 0 {
                let names = mesh.morph_target_names().map_or(0, <[String]>::len);
                assert_eq!(names, morphs, "target names and weights");
                let displacements = mesh.morph_targets().map_or(0, Vec::len);
                assert_eq!(displacements, morphs * vertices, "displacements per target");
            }
            // The primitive whose mesh this is, and its material's texture.
            let texture = gltf
                .meshes
                .iter()
                .filter_map(|m| gltf_meshes.get(m))
                .flat_map(|m| &m.primitives)
                .find(|p| p.mesh.id() == handle.id())
                .and_then(|p| p.material.as_ref())
                .and_then(|m| materials.get(m))
                .and_then(|m| m.base_color_texture.as_ref())
                .map(|t| {
                    let image = images.get(t).expect("the texture is loaded");
                    [image.width(), image.height()]
                });
            (vertices, joints, morphs, texture)
        })
        .collect()
}

#[test]
fn skinned_and_textured_meshes_load_in_bevy_as_the_source_has_them() {
    let no_clips: [ExportClip<'_>; 0] = [];
    let mut checked = 0;
    for (file, rig_name, parts) in [
        ("binary/lessscarymannequins/copy.bundle", "quinn", 2),
        ("binary/wetboys_plateupemotesapi/morbman", "morbman", 1),
        ("binary/duckhunted/WebPlayer.unity3d", "Model", 1),
    ] {
        let Some(ws) = open(&[file]) else {
            continue;
        };
        let entry = &ws.rigs[rig_index(&ws, rig_name)];
        let out = export(
            &ws,
            &ExportRig::of(entry),
            &no_clips,
            &ExportOptions::default(),
        )
        .unwrap();
        gltf_validator::validator(&out.glb);
        let mut loaded = Loaded::new(rig_name, &out.glb);
        let got = bevy_meshes(&mut loaded);
        assert_eq!(got.len(), parts, "{rig_name}: {got:?}");
        // The source: the renderers Unity draws at rest.
        let drawn = entry
            .renderers
            .iter()
            .find(|r| r.enabled && r.active_in_hierarchy)
            .unwrap();
        let MeshSource::Loaded(at) = &drawn.mesh else {
            panic!("{rig_name}: a loaded mesh")
        };
        let mesh = ws.mesh(*at).and_then(|m| m.data.clone()).unwrap();
        let texture = drawn
            .materials
            .iter()
            .flatten()
            .find_map(|&m| ws.material(m))
            .and_then(|m| ws.material_texture(m))
            .and_then(|t| t.image.as_ref().map(|_| [t.width, t.height]));
        for part in &got {
            assert_eq!(part.0, mesh.vertex_count(), "{rig_name}: vertices");
            assert_eq!(part.1, mesh.bind_poses.len(), "{rig_name}: skin joints");
            assert_eq!(part.2, mesh.blend_shapes.len(), "{rig_name}: morph targets");
            assert_eq!(part.3, texture, "{rig_name}: texture size");
        }
        eprintln!("{rig_name}: {got:?}");
        checked += 1;
    }
    if checked == 0 {
        eprintln!("skipped: the shared data is missing");
    }
}

/// The squash-and-stretch sword exported and played by Bevy: at the end of the clip (the
/// Sword stretched 3×) every node's `GlobalTransform` (Bevy's affine composition) is where
/// `pose` puts the joint and where the matrix closed form puts the Blade and the Tip.
#[test]
fn a_stretched_parent_skews_its_child_in_bevy_as_pose_composes_it() {
    let ws = Workspace::open_bytes(
        FsPath::new("sword.bundle"),
        skew_fixture::bundle(),
        &clipscope_core::OpenOptions::default(),
    );
    assert!(ws.errors.is_empty(), "{:?}", ws.errors);
    let rig = rig_index(&ws, skew_fixture::RIG);
    let clips = clips_playing_on(&ws, rig);
    assert_eq!(clips.len(), 1);
    let entry = &ws.rigs[rig];
    let (_, loaded) = round_trip(
        "sword",
        &ws,
        &ExportRig::of(entry),
        &clips,
        &ExportOptions::default(),
        None,
    );
    // round_trip leaves the clip paused at its end.
    let clip = clips[0].clip;
    let poser = ClipPoser::new(clip, &entry.skeleton, None);
    let locals = poser.locals(clip.stop, &PoseOptions::default());
    let world = poser.world(&locals);
    let k = skew_fixture::stretch(f64::from(clip.length()));
    let mut closed_forms = 0;
    for (j, joint) in entry.skeleton.joints.iter().enumerate() {
        // The loader gives target ids to the nodes below the animation's root.
        let Some(&entity) = loaded.targets.get(&loaded.target_of(j)) else {
            continue;
        };
        let bevy = loaded
            .app
            .world()
            .get::<bevy::transform::components::GlobalTransform>(entity)
            .expect("a GlobalTransform")
            .translation()
            .to_array();
        let want = space::point(world[j].t);
        assert!(
            distance(&bevy, &want) < 1e-5,
            "{}: Bevy {bevy:?}, pose {want:?}",
            joint.path
        );
        let closed = match joint.path.as_str() {
            skew_fixture::TIP => Some(skew_fixture::tip(k)),
            skew_fixture::BLADE => Some(skew_fixture::blade(k)),
            _ => None,
        };
        if let Some(c) = closed {
            let c = space::point(c.map(|v| v as f32));
            assert!(
                distance(&bevy, &c) < 1e-5,
                "{}: Bevy {bevy:?}, closed form {c:?}",
                joint.path
            );
            closed_forms += 1;
        }
    }
    assert_eq!(closed_forms, 2);
}
