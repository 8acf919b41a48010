//! Headless Bevy: real clips from ../shared/data played on their real rigs through clipscope's
//! plugin and Bevy's `AnimationPlayer`, with joint transforms compared against the decoded
//! curves sampled directly (after the coordinate mirror), for every wrap mode; humanoid clips
//! on the humanoid rig against the rig posed directly (`humanoid` module).

use crate::common;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use bevy::animation::AnimationPlugin;
use bevy::animation::graph::AnimationGraph;
use bevy::asset::io::memory::{Dir, MemoryAssetReader};
use bevy::asset::io::{AssetSourceBuilder, AssetSourceId};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy::transform::TransformPlugin;
use clipscope_bevy::curves::{euler_to_unity_quat, position_to_bevy, rotation_to_bevy};
use clipscope_bevy::*;
use clipscope_core::clip::{BindingKind, ClipData};
use clipscope_core::humanoid::HumanoidRig;
use clipscope_core::rig::Skeleton;
use clipscope_core::{Workspace, WrapMode};

const DT: f32 = 1.0 / 30.0;

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin::default(),
        AnimationPlugin,
        TransformPlugin,
        ClipscopePlugin,
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(
        DT,
    )));
    app
}

/// How a rig plays its clip: through Bevy's `AnimationPlayer` and a graph, or directly.
#[derive(Clone, Copy, Debug)]
enum Route {
    Graph,
    Direct,
}

const ROUTES: [Route; 2] = [Route::Graph, Route::Direct];

/// Spawns `skeleton`, plays `clip` on it through the graph and returns the root.
fn setup(app: &mut App, skeleton: &Skeleton, clip: &ClipData) -> Entity {
    setup_on(app, skeleton, clip, Route::Graph)
}

/// Spawns `skeleton`, plays `clip` on it by `route` and returns the root.
fn setup_on(app: &mut App, skeleton: &Skeleton, clip: &ClipData, route: Route) -> Entity {
    setup_with(app, skeleton, clip, route, None)
}

/// Spawns `skeleton` (with its humanoid avatar, if given), plays `clip` on it by `route` and
/// returns the root.
fn setup_with(
    app: &mut App,
    skeleton: &Skeleton,
    clip: &ClipData,
    route: Route,
    humanoid: Option<Arc<HumanoidRig>>,
) -> Entity {
    let (bevy_clip, skipped) = bevy_clip(clip);
    assert_eq!(skipped, 0);
    let handle = app
        .world_mut()
        .resource_mut::<Assets<AnimationClip>>()
        .add(bevy_clip);
    let loaded = LoadedClip::new(
        clip.name.clone(),
        clip.name.clone(),
        0,
        Arc::new(clip.clone()),
        handle,
    );
    let world = app.world_mut();
    let root = {
        let mut commands = world.commands();
        let root = spawn_rig(&mut commands, skeleton);
        if let Some(rig) = humanoid {
            commands.entity(root).insert(UnityHumanoid::new(rig));
        }
        root
    };
    world.flush();
    world.resource_scope(|world, mut graphs: Mut<Assets<AnimationGraph>>| {
        let mut commands = world.commands();
        match route {
            Route::Graph => play_clip(&mut commands, &mut graphs, root, &loaded),
            Route::Direct => play_clip_direct(&mut commands, root, &loaded),
        };
    });
    world.flush();
    // A new graph is threaded one frame late; let it settle paused at the start.
    world
        .get_mut::<UnityPlayback>(root)
        .unwrap()
        .playhead
        .paused = true;
    app.update();
    app.update();
    root
}

/// Sets the wrap mode and starts playing.
fn play(app: &mut App, root: Entity, wrap: WrapMode) {
    let mut playback = app.world_mut().get_mut::<UnityPlayback>(root).unwrap();
    playback.playhead.wrap = wrap;
    playback.playhead.paused = false;
}

/// The transform the decoded clip gives the joint at `path_hash` at clip time `t`, in Bevy's
/// space, starting from its rest pose.
fn expected(clip: &ClipData, rest: Transform, path_hash: u32, t: f32) -> Transform {
    let mut out = rest;
    for track in clip
        .tracks
        .iter()
        .filter(|tr| clip.bindings[tr.binding].path == path_hash)
    {
        let v: Vec<f32> = track
            .curves
            .iter()
            .map(|&i| clip.curves[i].curve.sample(t))
            .collect();
        match clip.bindings[track.binding].kind() {
            BindingKind::Position => out.translation = position_to_bevy([v[0], v[1], v[2]]),
            BindingKind::Scale => out.scale = Vec3::new(v[0], v[1], v[2]),
            BindingKind::Rotation => out.rotation = rotation_to_bevy([v[0], v[1], v[2], v[3]]),
            BindingKind::Euler { order } => {
                out.rotation =
                    rotation_to_bevy(euler_to_unity_quat([v[0], v[1], v[2]], order).to_array())
            }
            _ => {}
        }
    }
    out
}

fn joint(app: &mut App, root: Entity, path_hash: u32) -> Entity {
    let joints = app.world().get::<RigRoot>(root).unwrap().joints.clone();
    joints
        .into_iter()
        .find(|&e| app.world().get::<RigJoint>(e).unwrap().path_hash == path_hash)
        .expect("joint")
}

fn assert_close(actual: &Transform, want: &Transform, what: &str) {
    assert!(
        actual.translation.abs_diff_eq(want.translation, 1e-4),
        "{what}: translation {} vs {}",
        actual.translation,
        want.translation
    );
    assert!(
        actual.scale.abs_diff_eq(want.scale, 1e-4),
        "{what}: scale {} vs {}",
        actual.scale,
        want.scale
    );
    let dot = actual.rotation.dot(want.rotation).abs();
    assert!(
        dot > 1.0 - 1e-5,
        "{what}: rotation {} vs {}",
        actual.rotation,
        want.rotation
    );
}

/// Plays `frames` frames and checks every animated joint each frame.
fn check_frames(
    app: &mut App,
    root: Entity,
    skeleton: &Skeleton,
    clip: &ClipData,
    frames: usize,
) -> Vec<f32> {
    let paths: Vec<u32> = clip
        .bindings
        .iter()
        .filter(|b| b.is_transform())
        .map(|b| b.path)
        .collect();
    let mut seen = Vec::new();
    for frame in 0..frames {
        app.update();
        let t = app
            .world()
            .get::<UnityPlayback>(root)
            .unwrap()
            .playhead
            .clip_time();
        seen.push(t);
        for &hash in &paths {
            let Some(index) = skeleton.joint_by_hash(hash) else {
                continue;
            };
            let rest = rest_transform(&skeleton.joints[index]);
            let entity = joint(app, root, hash);
            let actual = *app.world().get::<Transform>(entity).unwrap();
            assert_close(
                &actual,
                &expected(clip, rest, hash, t),
                &format!("{} frame {frame} t={t}", clip.name),
            );
        }
    }
    seen
}

fn duck_workspace() -> Option<Workspace> {
    let path = common::data("binary/duckhunted/WebPlayer.unity3d")?;
    Some(common::open(&[path]))
}

#[test]
fn legacy_clips_play_on_their_web_player_rig_in_every_wrap_mode() {
    let Some(ws) = duck_workspace() else { return };
    let rig = ws
        .rigs
        .iter()
        .find(|r| r.name == "Model")
        .expect("the rifle's Animation rig");
    for name in ["Idle", "Run", "Fire", "Reload"] {
        let clip = common::clip(&ws, name).clone();
        let unmatched = unmatched_bindings(&clip, &rig.skeleton, &Default::default());
        for (wrap, route) in [
            WrapMode::Once,
            WrapMode::Loop,
            WrapMode::PingPong,
            WrapMode::ClampForever,
        ]
        .into_iter()
        .flat_map(|w| ROUTES.map(|r| (w, r)))
        {
            let mut app = app();
            let root = setup_on(&mut app, &rig.skeleton, &clip, route);
            play(&mut app, root, wrap);
            let frames = (clip.length() / DT * 2.5) as usize + 2;
            let seen = check_frames(&mut app, root, &rig.skeleton, &clip, frames);
            let last = *seen.last().unwrap();
            match wrap {
                WrapMode::Once => assert_eq!(last, clip.start, "{name}: once returns to the start"),
                WrapMode::ClampForever => {
                    assert_eq!(last, clip.stop, "{name}: clamp forever holds the end")
                }
                _ => assert!(
                    seen.iter().any(|&t| t < clip.stop * 0.5)
                        && seen.iter().all(|&t| t <= clip.stop)
                ),
            }
        }
        assert!(
            unmatched.iter().all(|u| u.path_hash != 0),
            "{name}: the root binds"
        );
    }
}

#[test]
fn far_past_the_end_and_backwards() {
    let Some(ws) = duck_workspace() else { return };
    let rig = ws.rigs.iter().find(|r| r.name == "Model").unwrap();
    let clip = common::clip(&ws, "Idle").clone();
    assert_eq!(clip.wrap_mode(), WrapMode::PingPong);
    for route in ROUTES {
        far_past_the_end_and_backwards_on(&rig.skeleton, &clip, route);
    }
}

fn far_past_the_end_and_backwards_on(skeleton: &Skeleton, clip: &ClipData, route: Route) {
    let mut app = app();
    let root = setup_on(&mut app, skeleton, clip, route);
    let length = clip.length();
    {
        let mut playback = app.world_mut().get_mut::<UnityPlayback>(root).unwrap();
        let p = &mut playback.playhead;
        p.seek(clip.start + 100.25 * length);
        p.speed = -1.5;
        p.paused = false;
    }
    let seen = check_frames(&mut app, root, skeleton, clip, 90);
    // 100.25 lengths is 50 periods plus a quarter: the playhead starts a quarter in.
    assert!(
        (seen[0] - (clip.start + 0.25 * length - 1.5 * DT)).abs() < 1e-3,
        "{}",
        seen[0]
    );
    assert!(
        seen.windows(2).any(|w| w[1] > w[0]) && seen.windows(2).any(|w| w[1] < w[0]),
        "bounces"
    );
}

#[test]
fn streamed_clip_plays_on_its_scene_cube() {
    let Some(path) = common::data("binary/resetanimator/WebPlayer.unity3d") else {
        return;
    };
    let ws = common::open(&[path]);
    let clip = common::clip(&ws, "TestClip").clone();
    let rig = ws
        .rigs
        .iter()
        .find(|r| !r.clips.is_empty())
        .expect("the Cube's Animator");
    assert!(unmatched_bindings(&clip, &rig.skeleton, &rig.tos).is_empty());
    for wrap in [
        WrapMode::Loop,
        WrapMode::PingPong,
        WrapMode::ClampForever,
        WrapMode::Once,
    ] {
        for route in ROUTES {
            let mut app = app();
            let root = setup_on(&mut app, &rig.skeleton, &clip, route);
            play(&mut app, root, wrap);
            check_frames(&mut app, root, &rig.skeleton, &clip, 150);
        }
    }
}

#[test]
fn mannequin_clip_poses_its_rig_and_every_binding_matches() {
    let Some(path) = common::data("binary/lessscarymannequins/copy.bundle") else {
        return;
    };
    let ws = common::open(&[path]);
    let clip = common::clip(&ws, "TestClip").clone();
    let rig = &ws.rigs[0];
    assert!(unmatched_bindings(&clip, &rig.skeleton, &rig.tos).is_empty());
    for route in ROUTES {
        let mut app = app();
        let root = setup_on(&mut app, &rig.skeleton, &clip, route);
        app.world_mut()
            .get_mut::<UnityPlayback>(root)
            .unwrap()
            .playhead
            .paused = false;
        check_frames(&mut app, root, &rig.skeleton, &clip, 40);
    }
}

#[test]
fn events_fire_when_the_playhead_crosses_them() {
    let Some(ws) = duck_workspace() else { return };
    let rig = ws.rigs.iter().find(|r| r.name == "Model").unwrap();
    let mut clip = common::clip(&ws, "Run").clone();
    clip.events = vec![clipscope_core::clip::ClipEvent {
        time: 0.3,
        function: "Step".into(),
        data: "left".into(),
        float: 1.5,
        int: 2,
        ..Default::default()
    }];
    let mut app = app();
    let root = setup(&mut app, &rig.skeleton, &clip);
    app.world_mut()
        .get_mut::<UnityPlayback>(root)
        .unwrap()
        .playhead
        .paused = false;
    let mut fired = Vec::new();
    for _ in 0..60 {
        app.update();
        let messages = app.world().resource::<Messages<UnityClipEvent>>();
        fired.extend(messages.iter_current_update_messages().cloned());
    }
    // 60 frames of 1/30 s is 2 s: three turns of a 0.667 s loop.
    assert_eq!(fired.len(), 3, "{fired:?}");
    assert!(
        fired
            .iter()
            .all(|e| e.function == "Step" && e.entity == root && e.int == 2)
    );
}

/// An app whose default asset source holds the file at `path` as `name`, and the handle of
/// `name` loaded through the plugin's loader (waiting up to 400 frames).
fn load_from_memory(path: &Path, name: &str) -> (App, Handle<UnityFile>) {
    let dir = Dir::default();
    dir.insert_asset(Path::new(name), std::fs::read(path).unwrap());
    let mut app = App::new();
    app.register_asset_source(
        AssetSourceId::Default,
        AssetSourceBuilder::new(move || Box::new(MemoryAssetReader { root: dir.clone() })),
    )
    .add_plugins((
        MinimalPlugins,
        AssetPlugin::default(),
        AnimationPlugin,
        ClipscopePlugin,
    ));
    let handle: Handle<UnityFile> = app.world().resource::<AssetServer>().load(name.to_owned());
    for _ in 0..400 {
        if app
            .world()
            .resource::<AssetServer>()
            .is_loaded_with_dependencies(&handle)
        {
            break;
        }
        app.update();
        std::thread::sleep(Duration::from_millis(5));
    }
    (app, handle)
}

#[test]
fn the_asset_loader_yields_clips_and_rigs() {
    let Some(path) = common::data("binary/duckhunted/WebPlayer.unity3d") else {
        return;
    };
    let (app, handle) = load_from_memory(&path, "duck.unity3d");
    let files = app.world().resource::<Assets<UnityFile>>();
    let file = files.get(&handle).expect("loaded");
    let labels: Vec<&str> = file.clips.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels.len(), 4, "{labels:?}");
    let clips = app.world().resource::<Assets<AnimationClip>>();
    for c in &file.clips {
        let bevy = clips.get(&c.handle).expect("clip sub-asset");
        assert!((bevy.duration() - c.data.stop).abs() < 1e-6);
    }
    let rigs = app.world().resource::<Assets<UnityRig>>();
    let (_, rig) = file
        .rigs
        .iter()
        .find(|(l, _)| l.contains("Model"))
        .expect("rig label");
    let rig = rigs.get(rig).unwrap();
    assert_eq!(rig.clips.len(), 4);
    let by_label: Handle<AnimationClip> = app
        .world()
        .resource::<AssetServer>()
        .load("duck.unity3d#Run");
    assert_eq!(by_label.id(), file.clip("Run").unwrap().handle.id());
}

/// The clip of a text `.anim` from `yaml/modular-avatar`, and a rig of its bound paths.
#[cfg(feature = "scene")]
fn modular_avatar_clip(file: &str, name: &str) -> Option<(ClipData, Skeleton)> {
    let path = common::data(&format!("yaml/modular-avatar/{file}"))?;
    let ws = common::open(&[path]);
    let clip = common::clip(&ws, name).clone();
    let paths: Vec<String> = clip
        .bindings
        .iter()
        .filter_map(|b| b.path_name.clone())
        .collect();
    let skeleton = Skeleton::from_paths(paths.iter().map(String::as_str));
    Some((clip, skeleton))
}

/// Advances to clip time `t` (a multiple of the frame time) and returns it.
#[cfg(feature = "scene")]
fn play_to(app: &mut App, root: Entity, frames: usize) -> f32 {
    for _ in 0..frames {
        app.update();
    }
    app.world()
        .get::<UnityPlayback>(root)
        .unwrap()
        .playhead
        .clip_time()
}

#[test]
#[cfg(feature = "scene")]
fn is_active_curves_drive_visibility() {
    use bevy::camera::visibility::Visibility;
    let Some((clip, skeleton)) = modular_avatar_clip("clap_on.anim", "clap_on") else {
        return;
    };
    // clap_on: ClapEffect is active at 0 and steps to inactive at 1 s, the clip's end.
    let hash = clipscope_core::path_hash("ClapEffect");
    for route in ROUTES {
        let mut app = app();
        let root = setup_on(&mut app, &skeleton, &clip, route);
        play(&mut app, root, WrapMode::ClampForever);
        let effect = joint(&mut app, root, hash);
        let t = play_to(&mut app, root, 15);
        assert!(t > 0.4 && t < 1.0, "{t}");
        let visibility = |app: &App, e| app.world().get::<Visibility>(e).copied();
        assert_eq!(
            visibility(&app, effect),
            Some(Visibility::Inherited),
            "{route:?}"
        );
        let t = play_to(&mut app, root, 30);
        assert_eq!(t, clip.stop, "clamp forever holds the end");
        assert_eq!(
            visibility(&app, effect),
            Some(Visibility::Hidden),
            "{route:?}"
        );
        // Joints whose activity is not animated keep their visibility.
        assert_eq!(visibility(&app, root), Some(Visibility::Inherited));
    }
}

#[test]
#[cfg(feature = "scene")]
fn blend_shape_curves_drive_morph_weights_by_name() {
    use bevy::asset::RenderAssetUsages;
    use bevy::mesh::PrimitiveTopology;
    use bevy::mesh::morph::MorphWeights;
    let Some((clip, skeleton)) = modular_avatar_clip("BSSTAnimation.anim", "BSSTAnimation") else {
        return;
    };
    let curve = |name: &str| {
        let i = clip
            .curves
            .iter()
            .position(|c| {
                c.binding.is_some_and(|b| {
                    clip.bindings[b].attribute_name.as_deref()
                        == Some(format!("blendShape.{name}").as_str())
                })
            })
            .expect("blend shape curve");
        clip.curves[i].curve.clone()
    };
    let (shape_0, shape_1) = (curve("shape_0"), curve("shape_1"));
    for route in ROUTES {
        let mut app = app();
        app.init_asset::<Mesh>();
        let mut mesh = Mesh::new(
            PrimitiveTopology::TriangleList,
            RenderAssetUsages::default(),
        );
        // A target the clip does not animate, between two it does, in the mesh's own order.
        mesh.set_morph_target_names(vec![
            "shape_1".into(),
            "unanimated".into(),
            "shape_0".into(),
        ]);
        let mesh = app.world_mut().resource_mut::<Assets<Mesh>>().add(mesh);
        let root = setup_on(&mut app, &skeleton, &clip, route);
        let renderer = joint(&mut app, root, clipscope_core::path_hash("BaseMesh"));
        app.world_mut()
            .entity_mut(renderer)
            .insert(MorphWeights::new(vec![0.0, 0.7, 0.0], Some(mesh)).unwrap());
        play(&mut app, root, WrapMode::Loop);
        let mut moved = false;
        for _ in 0..40 {
            let t = play_to(&mut app, root, 1);
            let weights = app.world().get::<MorphWeights>(renderer).unwrap().weights();
            let want = [shape_1.sample(t) / 100.0, 0.7, shape_0.sample(t) / 100.0];
            for (got, want) in weights.iter().zip(want) {
                assert!(
                    (got - want).abs() < 1e-5,
                    "{route:?} t={t}: {weights:?} vs {want}"
                );
            }
            moved |= weights[2] > 0.1;
        }
        assert!(
            moved,
            "{route:?}: shape_0 rises to 100 over the second half"
        );
        // The properties say what they drive.
        let properties = app.world().get::<UnityProperties>(renderer).unwrap();
        let label = |name: &str| {
            properties
                .labels
                .values()
                .find(|l| l.name.as_deref() == Some(name))
                .map(|l| l.kind.as_str())
        };
        assert_eq!(label("blendShape.shape_0"), Some("blend shape"));
        assert_eq!(label("blendShape.missing_mesh_shape"), Some("blend shape"));
        assert_eq!(properties.values.len(), 4, "{:?}", properties.values);
    }
}

#[test]
fn posed_positions_follow_the_clip_over_the_rest_pose() {
    let Some(ws) = duck_workspace() else { return };
    let rig = ws.rigs.iter().find(|r| r.name == "Model").unwrap();
    let clip = Arc::new(common::clip(&ws, "Run").clone());
    let direct = DirectClip::new(clip.clone());
    for t in [0.0, 0.3, 0.6] {
        let posed = direct.posed_positions(&rig.skeleton, t);
        assert_eq!(posed.len(), rig.skeleton.joints.len());
        // The root's position is the clip's root position curve, mirrored.
        let want = expected(&clip, rest_transform(&rig.skeleton.joints[0]), 0, t);
        assert!(
            posed[0].abs_diff_eq(want.translation, 1e-5),
            "t={t}: {}",
            posed[0]
        );
    }
    // Run carries the rifle away from where it starts: the pose moves.
    let (a, b) = (
        direct.posed_positions(&rig.skeleton, 0.0)[0],
        direct.posed_positions(&rig.skeleton, 0.3)[0],
    );
    assert!(a.distance(b) > 0.5, "{a} {b}");
}

mod humanoid;
