//! Headless Bevy: the short form of the plugin on the shared characters. A `UnityModelRoot`
//! and a `UnityClipPlayer` loaded by label pose morbman as the manual route (`spawn_model` +
//! `play_clip`) does; swapping the clip handle switches clips; a label that names nothing,
//! a clip of another rig and a humanoid clip on a generic rig warn; a hot reload of the file
//! respawns the model.
#![cfg(feature = "model")]

use crate::common;

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bevy::animation::AnimationPlugin;
use bevy::animation::graph::{AnimationGraph, AnimationGraphHandle, AnimationNodeType};
use bevy::asset::io::memory::{Dir, MemoryAssetReader};
use bevy::asset::io::{AssetSourceBuilder, AssetSourceEvent, AssetSourceId, AssetWatcher};
use bevy::ecs::system::SystemState;
use bevy::mesh::skinning::SkinnedMeshInverseBindposes;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy::transform::TransformPlugin;
use clipscope_bevy::*;
use clipscope_core::humanoid::PoseOptions;

const MORBMAN: &str = "binary/wetboys_plateupemotesapi/morbman";
const DANCES: &str = "binary/wetboys_plateupemotesapi/customemotespackage";
const MOISTURE: &str = "binary/wetboys_plateupemotesapi/moisture_animationreplacements";
const DUCK: &str = "binary/duckhunted/WebPlayer.unity3d";
const COPY: &str = "binary/lessscarymannequins/copy.bundle";

/// A watcher that watches nothing: the test sends the source's change events itself.
struct TestWatcher;
impl AssetWatcher for TestWatcher {}

/// A headless app reading `files` (shared data path → asset name) from memory, with hot
/// reload on; and a function that tells the asset server an asset changed, as a file
/// watcher does.
fn app_with(files: &[(&str, &str)]) -> Option<(App, Dir, impl Fn(&str))> {
    let dir = Dir::default();
    for (rel, name) in files {
        let path = common::data(rel)?;
        dir.insert_asset(Path::new(name), std::fs::read(path).unwrap());
    }
    let events = Arc::new(Mutex::new(None));
    let sender = events.clone();
    let reader = dir.clone();
    let mut app = App::new();
    app.register_asset_source(
        AssetSourceId::Default,
        AssetSourceBuilder::new(move || {
            Box::new(MemoryAssetReader {
                root: reader.clone(),
            })
        })
        .with_watcher(move |s| {
            *sender.lock().unwrap() = Some(s);
            Some(Box::new(TestWatcher))
        }),
    )
    .add_plugins((
        MinimalPlugins,
        AssetPlugin {
            watch_for_changes_override: Some(true),
            ..default()
        },
        AnimationPlugin,
        TransformPlugin,
        ClipscopePlugin,
    ))
    .init_asset::<Mesh>()
    .init_asset::<StandardMaterial>()
    .init_asset::<Image>()
    .init_asset::<SkinnedMeshInverseBindposes>()
    .init_resource::<Seen>()
    .add_observer(|ready: On<UnityModelReady>, mut seen: ResMut<Seen>| {
        seen.ready.push(*ready);
    })
    .add_systems(
        PostUpdate,
        |mut read: MessageReader<UnityPlayerWarning>, mut seen: ResMut<Seen>| {
            seen.warnings.extend(read.read().map(|w| w.message.clone()));
        },
    )
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(
        1.0 / 30.0,
    )));
    let changed = move |name: &str| {
        let events = events.lock().unwrap();
        let sender = events.as_ref().expect("the source is watched");
        let event = AssetSourceEvent::ModifiedAsset(name.into());
        sender.try_send(event).unwrap();
    };
    Some((app, dir, changed))
}

/// What the app reported: models ready, and warnings.
#[derive(Resource, Default)]
struct Seen {
    ready: Vec<UnityModelReady>,
    warnings: Vec<String>,
}

/// Updates until `done` holds (up to 2000 frames, a few seconds of loading).
fn run_until(app: &mut App, mut done: impl FnMut(&mut App) -> bool) {
    for _ in 0..2000 {
        if done(app) {
            return;
        }
        app.update();
        std::thread::sleep(Duration::from_millis(2));
    }
    panic!(
        "the app never got there; warnings: {:?}",
        seen(app).warnings
    );
}

fn seen(app: &App) -> &Seen {
    app.world().resource::<Seen>()
}

fn load<A: Asset>(app: &App, path: &str) -> Handle<A> {
    app.world().resource::<AssetServer>().load(path.to_owned())
}

/// The rig spawned for a model root, once it plays its clip.
fn playing_rig(app: &App, root: Entity) -> Option<Entity> {
    let rig = app.world().get::<UnityModelInstance>(root)?.rig;
    app.world().get::<UnityPlayback>(rig).map(|_| rig)
}

/// True when `rig` plays `clip` through its animation graph.
fn plays(app: &App, rig: Entity, clip: AssetId<AnimationClip>) -> bool {
    let world = app.world();
    let (Some(graph), Some(playback)) = (
        world.get::<AnimationGraphHandle>(rig),
        world.get::<UnityPlayback>(rig),
    ) else {
        return false;
    };
    let graphs = world.resource::<Assets<AnimationGraph>>();
    let node = playback.node.and_then(|n| graphs.get(&graph.0)?.get(n));
    matches!(node.map(|n| &n.node_type), Some(AnimationNodeType::Clip(h)) if h.id() == clip)
}

/// Pauses `rig`'s playhead at clip time `t`.
fn seek(app: &mut App, rig: Entity, t: f32) {
    let mut playback = app.world_mut().get_mut::<UnityPlayback>(rig).unwrap();
    playback.playhead.paused = true;
    playback.playhead.seek(t);
}

/// The local transforms of a rig's joints, in skeleton order.
fn joint_transforms(app: &App, rig: Entity) -> Vec<Transform> {
    let joints = &app.world().get::<RigRoot>(rig).unwrap().joints;
    joints
        .iter()
        .map(|&j| *app.world().get::<Transform>(j).unwrap())
        .collect()
}

/// The world positions of a rig's joints, in skeleton order.
fn joint_positions(app: &App, rig: Entity) -> Vec<Vec3> {
    let joints = &app.world().get::<RigRoot>(rig).unwrap().joints;
    joints
        .iter()
        .map(|&j| app.world().get::<GlobalTransform>(j).unwrap().translation())
        .collect()
}

fn assert_same_pose(got: &[Transform], want: &[Transform], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: joint count");
    for (j, (g, w)) in got.iter().zip(want).enumerate() {
        let close = g.translation.distance(w.translation) < 1e-5
            && g.rotation.angle_between(w.rotation) < 1e-4
            && g.scale.distance(w.scale) < 1e-5;
        assert!(close, "{what}: joint {j} at {g:?}, manual route {w:?}");
    }
}

/// Spawns `file`'s model and plays `clip` on it the manual way: wait for both files,
/// `spawn_model`, the clip's objects, `play_clip`. Returns the rig root.
fn manual_route(app: &mut App, file: &str, rig: &str, clips: &str, clip: &str) -> Entity {
    let model_file: Handle<UnityFile> = load(app, file);
    let clip_file: Handle<UnityFile> = load(app, clips);
    run_until(app, |app| {
        let server = app.world().resource::<AssetServer>();
        server.is_loaded_with_dependencies(&model_file)
            && server.is_loaded_with_dependencies(&clip_file)
    });
    let world = app.world_mut();
    let files = world.resource::<Assets<UnityFile>>();
    let model = files.get(&model_file).unwrap().models.iter();
    let (_, model) = model.clone().find(|(l, _)| l.contains(rig)).expect("model");
    let model = world.resource::<Assets<UnityModel>>().get(model).unwrap();
    let model = model.clone();
    let loaded = files.get(&clip_file).unwrap().clip(clip).unwrap().clone();
    let mut state: SystemState<(Commands, ModelAssets, ResMut<Assets<AnimationGraph>>)> =
        SystemState::new(world);
    let (mut commands, mut assets, mut graphs) = state.get_mut(world).unwrap();
    let root = spawn_model(&mut commands, &mut assets, &model);
    play_clip(&mut commands, &mut graphs, root, &loaded);
    state.apply(world);
    // The files stay loaded with the rig (as an app would keep them).
    world
        .entity_mut(root)
        .insert(Keep(vec![model_file, clip_file]));
    root
}

#[derive(Component)]
struct Keep(#[allow(dead_code)] Vec<Handle<UnityFile>>);

#[test]
fn a_model_root_and_clip_player_pose_morbman_as_the_manual_route_does_at_ten_times() {
    let files = [(MORBMAN, "morbman.bundle"), (DANCES, "dances.bundle")];
    let Some((mut app, _, _)) = app_with(&files) else {
        return;
    };
    let manual = manual_route(
        &mut app,
        "morbman.bundle",
        "morbman",
        "dances.bundle",
        "Default Dance",
    );
    let model: Handle<UnityModel> = load(&app, "morbman.bundle#Model/morbman");
    let dance: Handle<AnimationClip> = load(&app, "dances.bundle#Default Dance");
    let by_player = UnityClipPlayer::new(dance.clone());
    let direct = UnityClipPlayer {
        route: ClipRoute::Direct,
        ..UnityClipPlayer::new(dance)
    };
    let roots = [
        app.world_mut()
            .spawn((UnityModelRoot(model.clone()), by_player))
            .id(),
        app.world_mut().spawn((UnityModelRoot(model), direct)).id(),
    ];
    run_until(&mut app, |app| {
        roots.iter().all(|&r| playing_rig(app, r).is_some())
    });
    assert_eq!(seen(&app).ready.len(), 2);
    assert!(seen(&app).warnings.is_empty(), "{:?}", seen(&app).warnings);
    let rigs = roots.map(|r| playing_rig(&app, r).unwrap());
    for (rig, root) in rigs.iter().zip(roots) {
        assert_eq!(app.world().get::<ChildOf>(*rig).unwrap().parent(), root);
        assert!(app.world().get::<UnityHumanoid>(*rig).is_some());
    }
    // A graph is threaded a frame after it is added: let every route settle.
    app.update();
    app.update();
    let length = app
        .world()
        .get::<UnityPlayback>(manual)
        .unwrap()
        .playhead
        .stop;
    assert!(length > 6.0, "Default Dance runs 6.8 s, not {length}");
    let mut moved = 0;
    let first = joint_transforms(&app, rigs[0]);
    for i in 0..10 {
        let t = length * i as f32 / 10.0 + 0.05;
        for rig in [manual, rigs[0], rigs[1]] {
            seek(&mut app, rig, t);
        }
        app.update();
        let want = joint_transforms(&app, manual);
        assert_same_pose(&joint_transforms(&app, rigs[0]), &want, "player route");
        assert_same_pose(&joint_transforms(&app, rigs[1]), &want, "direct route");
        let differs =
            |(a, b): (&Transform, &Transform)| a.rotation.angle_between(b.rotation) > 0.01;
        moved += want.iter().zip(&first).filter(|p| differs(*p)).count();
    }
    assert!(moved >= 50, "the dance hardly moves the joints ({moved})");
}

#[test]
fn swapping_the_clip_handle_switches_clips() {
    let files = [
        (MORBMAN, "morbman.bundle"),
        (DANCES, "dances.bundle"),
        (MOISTURE, "moisture.bundle"),
    ];
    let Some((mut app, _, _)) = app_with(&files) else {
        return;
    };
    let paths = [MORBMAN, DANCES, MOISTURE].map(|p| common::data(p).unwrap());
    let ws = common::open(&paths);
    let morbman = ws.rigs.iter().find(|r| r.name == "morbman").unwrap();
    let humanoid = morbman.humanoid.clone().expect("morbman is humanoid");
    let model: Handle<UnityModel> = load(&app, "morbman.bundle#Model/morbman");
    let dance = load(&app, "dances.bundle#Default Dance");
    let root = app
        .world_mut()
        .spawn((UnityModelRoot(model), UnityClipPlayer::new(dance)))
        .id();
    run_until(&mut app, |app| playing_rig(app, root).is_some());
    let mut rig = playing_rig(&app, root).unwrap();
    for (label, name) in [
        ("dances.bundle#Default Dance", "Default Dance"),
        ("moisture.bundle#Floss", "Floss"),
        ("moisture.bundle#Dab", "Dab"),
    ] {
        let clip = common::clip(&ws, name);
        let handle: Handle<AnimationClip> = load(&app, label);
        let id = handle.id();
        app.world_mut()
            .get_mut::<UnityClipPlayer>(root)
            .unwrap()
            .clip = handle;
        run_until(&mut app, |app| plays(app, rig, id));
        let playhead = &app.world().get::<UnityPlayback>(rig).unwrap().playhead;
        assert!((playhead.stop - clip.stop).abs() < 1e-6, "{name}'s length");
        app.update();
        app.update();
        seek(&mut app, rig, 0.5);
        app.update();
        let want = humanoid_posed_positions(
            &humanoid,
            &morbman.skeleton,
            clip,
            0.5,
            &PoseOptions::default(),
        );
        let got = joint_positions(&app, rig);
        for (j, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(
                g.distance(*w) < 1e-3,
                "{name}: joint {j} at {g}, posed at {w}"
            );
        }
        assert_eq!(
            playing_rig(&app, root),
            Some(rig),
            "the model is not respawned"
        );
        rig = playing_rig(&app, root).unwrap();
    }
    assert!(seen(&app).warnings.is_empty(), "{:?}", seen(&app).warnings);
}

#[test]
fn an_unknown_label_warns_and_spawns_nothing() {
    let files = [(MORBMAN, "morbman.bundle"), (DANCES, "dances.bundle")];
    let Some((mut app, _, _)) = app_with(&files) else {
        return;
    };
    let nobody: Handle<UnityModel> = load(&app, "morbman.bundle#Model/nobody");
    let ready = Arc::new(Mutex::new(0));
    let count = ready.clone();
    let root = app
        .world_mut()
        .spawn(UnityModelRoot(nobody))
        .observe(move |_: On<UnityModelReady>| *count.lock().unwrap() += 1)
        .id();
    let model: Handle<UnityModel> = load(&app, "morbman.bundle#Model/morbman");
    let missing = load(&app, "dances.bundle#No Such Dance");
    let dancer = app
        .world_mut()
        .spawn((UnityModelRoot(model), UnityClipPlayer::new(missing)))
        .id();
    run_until(&mut app, |app| seen(app).warnings.len() >= 2);
    for _ in 0..10 {
        app.update();
    }
    let warnings = &seen(&app).warnings;
    assert_eq!(warnings.len(), 2, "one warning each: {warnings:?}");
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("morbman.bundle#Model/nobody") && w.contains("Model/morbman")),
        "the warning names the label and what the file holds: {warnings:?}"
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("dances.bundle#No Such Dance")),
        "{warnings:?}"
    );
    assert!(app.world().get::<UnityModelInstance>(root).is_none());
    assert_eq!(*ready.lock().unwrap(), 0);
    assert_eq!(app.world().get::<Children>(root).map_or(0, |c| c.len()), 0);
    // The other model spawned, and plays nothing.
    let rig = app.world().get::<UnityModelInstance>(dancer).unwrap().rig;
    assert!(app.world().get::<UnityPlayback>(rig).is_none());
    let rigs = app
        .world_mut()
        .query::<&RigRoot>()
        .iter(app.world())
        .count();
    assert_eq!(rigs, 1, "only morbman's rig is spawned");
}

#[test]
fn clips_that_do_not_fit_the_rig_warn_with_their_label() {
    let files = [
        (MORBMAN, "morbman.bundle"),
        (DANCES, "dances.bundle"),
        (DUCK, "duck.unity3d"),
        (COPY, "copy.bundle"),
    ];
    let Some((mut app, _, _)) = app_with(&files) else {
        return;
    };
    // A mannequin clip none of whose bindings names a joint of morbman, by the decoded data.
    let ws = common::open(&[common::data(MORBMAN).unwrap(), common::data(COPY).unwrap()]);
    let joints = &ws
        .rigs
        .iter()
        .find(|r| r.name == "morbman")
        .unwrap()
        .skeleton;
    let foreign = ws.clips.iter().find(|c| {
        c.data.as_ref().is_ok_and(|d| {
            d.bindings
                .iter()
                .all(|b| joints.joint_by_hash(b.path).is_none())
        })
    });
    let Some(foreign) = foreign else {
        panic!("every mannequin clip binds some joint path of morbman")
    };
    let morbman: Handle<UnityModel> = load(&app, "morbman.bundle#Model/morbman");
    let duck: Handle<UnityModel> = load(&app, "duck.unity3d#Model/Model");
    let run = load(&app, format!("copy.bundle#{}", foreign.name).as_str());
    let dance = load(&app, "dances.bundle#Default Dance");
    let roots = [
        app.world_mut()
            .spawn((UnityModelRoot(morbman), UnityClipPlayer::new(run)))
            .id(),
        app.world_mut()
            .spawn((UnityModelRoot(duck), UnityClipPlayer::new(dance)))
            .id(),
    ];
    run_until(&mut app, |app| {
        roots.iter().all(|&r| playing_rig(app, r).is_some())
    });
    // The warnings are read a frame later.
    for _ in 0..3 {
        app.update();
    }
    let warnings = &seen(&app).warnings;
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(
        warnings
            .iter()
            .any(|w| w.contains(&format!("\"{}\"", foreign.name)) && w.contains("names a joint")),
        "{warnings:?}"
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("\"Default Dance\"") && w.contains("no humanoid avatar")),
        "{warnings:?}"
    );
}

#[test]
fn a_hot_reload_of_the_file_respawns_the_model() {
    let files = [(MORBMAN, "morbman.bundle"), (DANCES, "dances.bundle")];
    let Some((mut app, dir, changed)) = app_with(&files) else {
        return;
    };
    let model: Handle<UnityModel> = load(&app, "morbman.bundle#Model/morbman");
    let dance = load(&app, "dances.bundle#Default Dance");
    let root = app
        .world_mut()
        .spawn((UnityModelRoot(model), UnityClipPlayer::new(dance)))
        .id();
    run_until(&mut app, |app| playing_rig(app, root).is_some());
    let first = playing_rig(&app, root).unwrap();
    assert_eq!(seen(&app).ready.len(), 1);
    // Write the file again and tell the server, as a file watcher does.
    let bytes = std::fs::read(common::data(MORBMAN).unwrap()).unwrap();
    dir.insert_asset(Path::new("morbman.bundle"), bytes);
    changed("morbman.bundle");
    run_until(&mut app, |app| {
        playing_rig(app, root).is_some_and(|rig| rig != first)
    });
    let second = playing_rig(&app, root).unwrap();
    assert_eq!(seen(&app).ready.len(), 2);
    assert_eq!(seen(&app).ready[1].rig, second);
    app.update();
    assert!(
        app.world().get_entity(first).is_err(),
        "the old rig is gone"
    );
    let children = app.world().get::<Children>(root).unwrap();
    assert_eq!(children.len(), 1);
    assert_eq!(children[0], second);
    assert!(app.world().get::<UnityHumanoid>(second).is_some());
    assert!(seen(&app).warnings.is_empty(), "{:?}", seen(&app).warnings);
}
