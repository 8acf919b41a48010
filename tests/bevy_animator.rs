//! Headless Bevy: a `UnityAnimator` on a rig produces the joint transforms the library's own
//! evaluation gives (a scripted run with every update blended on the rig, as
//! `clipscope animate --rig` computes it) at 30 times: the locomotion controller (loaded by
//! its `Controller/NAME` label) crossfading Idle → Move, blending Walk and Run by `Speed`, a
//! trigger through Any State; and morbman's humanoid dance controller played into a state.
#![cfg(feature = "bevy")]

mod common;

use std::path::Path;
use std::time::Duration;

use bevy::animation::AnimationPlugin;
use bevy::asset::io::memory::{Dir, MemoryAssetReader};
use bevy::asset::io::{AssetSourceBuilder, AssetSourceId};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy::transform::TransformPlugin;
use clipscope::animator::model::ResolvedClip;
use clipscope::animator::pose::PoseBlender;
use clipscope::animator::script::{self, Action, Step};
use clipscope::demo_controller::locomotion_bytes;
use clipscope::humanoid::JointLocal;
use clipscope::plugin::*;
use clipscope::workspace::{ObjectRef, RigEntry};
use clipscope::{OpenOptions, Workspace};

/// Updates per second: 1/32 s steps are exact in binary, so Bevy's frame time and the
/// library's update step are the same number.
const FPS: f64 = 32.0;

/// A headless app reading `files` (name, bytes) from memory, each frame 1/32 s long.
fn app(files: &[(&str, Vec<u8>)]) -> App {
    let dir = Dir::default();
    for (name, bytes) in files {
        dir.insert_asset(Path::new(name), bytes.clone());
    }
    let mut app = App::new();
    app.register_asset_source(
        AssetSourceId::Default,
        AssetSourceBuilder::new(move || Box::new(MemoryAssetReader { root: dir.clone() })),
    )
    .add_plugins((
        MinimalPlugins,
        AssetPlugin::default(),
        AnimationPlugin,
        TransformPlugin,
        ClipscopePlugin,
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        1.0 / FPS,
    )));
    app
}

/// The library's poses at `times` for `actions`, as `animate --rig` computes them.
fn expected(
    ws: &Workspace,
    controller: usize,
    rig: &RigEntry,
    actions: &[(f64, Action)],
    times: &[f64],
) -> Vec<Vec<JointLocal>> {
    let model = ws.controllers[controller].model.as_ref().unwrap();
    let clip = |r: &ResolvedClip| {
        ws.clip(ObjectRef {
            file: r.file,
            path_id: r.path_id,
        })
        .and_then(|e| e.data.as_ref().ok())
    };
    let mut blender = PoseBlender::new(model, &rig.skeleton, rig.humanoid.as_deref(), &clip);
    let mut latest = Vec::new();
    let mut poses = Vec::new();
    let mut observe = |step: Step<'_>| match step {
        Step::Update(layers) => latest = blender.blend(layers).to_vec(),
        Step::Frame => poses.push(latest.clone()),
    };
    let (frames, warnings) = script::run_observed(model, actions, FPS, times, Some(&mut observe));
    assert_eq!(frames.len(), times.len(), "{warnings:?}");
    poses
}

/// Runs `animator` on a rig spawned from `rig` under `actions` (applied before the frame
/// that reaches their time) and compares its joints with `expected` at `times`. Returns the
/// machine's output at the last time.
fn compare(
    app: &mut App,
    rig: &RigEntry,
    animator: UnityAnimator,
    actions: &[(f64, Action)],
    times: &[f64],
    expected: &[Vec<JointLocal>],
) -> Vec<clipscope::animator::machine::LayerOutput> {
    let root = {
        let mut commands = app.world_mut().commands();
        let root = spawn_rig(&mut commands, &rig.skeleton);
        if let Some(h) = &rig.humanoid {
            commands.entity(root).insert(UnityHumanoid::new(h.clone()));
        }
        commands.entity(root).insert(animator);
        root
    };
    app.world_mut().flush();
    let joints = app.world().get::<RigRoot>(root).unwrap().joints.clone();
    let last = (times.last().unwrap() * FPS).round() as usize;
    let mut next_action = 0;
    let mut compared = 0;
    for frame in 1..=last {
        let t = frame as f64 / FPS;
        while next_action < actions.len() && actions[next_action].0 <= t + 1e-9 {
            let mut a = app.world_mut().get_mut::<UnityAnimator>(root).unwrap();
            match &actions[next_action].1 {
                Action::Set(name, v) => a.set_float(name, *v as f32),
                Action::Trigger(name) => a.set_trigger(name),
                Action::Play(state, nt) => a.play(state, *nt as f32),
                Action::Crossfade(state, s) => a.crossfade(state, *s as f32),
            }
            next_action += 1;
        }
        app.update();
        let a = app.world().get::<UnityAnimator>(root).unwrap();
        assert!(a.is_running(), "the controller is loaded before the run");
        let Some(k) = times.iter().position(|&x| (x - t).abs() < 1e-9) else {
            continue;
        };
        for (j, (&entity, local)) in joints.iter().zip(&expected[k]).enumerate() {
            let got = *app.world().get::<Transform>(entity).unwrap();
            let want = joint_to_bevy(local);
            let close = got.translation.abs_diff_eq(want.translation, 1e-6)
                && got.rotation.abs_diff_eq(want.rotation, 1e-6)
                && got.scale.abs_diff_eq(want.scale, 1e-6);
            assert!(
                close,
                "joint {j} ({}) at {t} s: {got:?}, the library gives {want:?}",
                rig.skeleton.joints[j].path
            );
        }
        compared += 1;
    }
    assert_eq!(compared, times.len());
    app.world()
        .get::<UnityAnimator>(root)
        .unwrap()
        .output()
        .to_vec()
}

/// Every third frame from the third: 30 times.
fn thirty_times() -> Vec<f64> {
    (1..=30).map(|i| (3 * i) as f64 / FPS).collect()
}

#[test]
fn the_locomotion_controller_poses_the_rig_as_the_library_does() {
    let bytes = locomotion_bytes().unwrap();
    let ws = Workspace::open_bytes(
        Path::new("locomotion.bundle"),
        bytes.clone(),
        &OpenOptions::default(),
    );
    let rig = &ws.rigs[0];
    let actions = script::parse("0.5:Speed=1.4;1.25:Speed=2;1.8:Wave!;2.4:Speed=0").unwrap();
    let times = thirty_times();
    let want = expected(&ws, 0, rig, &actions, &times);
    // The run moves the legs: the poses are not all the rest pose.
    let leg = rig
        .skeleton
        .joints
        .iter()
        .position(|j| j.path == "Hips/LeftUpperLeg")
        .unwrap();
    let angles: Vec<f32> = want
        .iter()
        .map(|p| joint_to_bevy(&p[leg]).rotation.to_axis_angle().1)
        .collect();
    assert!(angles.iter().any(|&a| a > 0.3), "{angles:?}");

    let mut app = app(&[("locomotion.bundle", bytes)]);
    let handle: Handle<UnityController> = app
        .world()
        .resource::<AssetServer>()
        .load("locomotion.bundle#Controller/Locomotion");
    for _ in 0..2000 {
        if app
            .world()
            .resource::<Assets<UnityController>>()
            .contains(&handle)
        {
            break;
        }
        app.update();
        std::thread::sleep(Duration::from_millis(2));
    }
    let asset = app
        .world()
        .resource::<Assets<UnityController>>()
        .get(&handle);
    assert_eq!(
        asset.map(|c| c.clips.len()),
        Some(3),
        "the controller and its clips load"
    );
    let out = compare(
        &mut app,
        rig,
        UnityAnimator::new(handle),
        &actions,
        &times,
        &want,
    );
    // At 2.8125 s: the trigger (at 1.8 s) took Any State to Wave, which plays 2 s at half
    // speed before its exit time.
    let paths: Vec<&str> = out[0].states.iter().map(|s| s.path.as_str()).collect();
    assert_eq!(paths, ["Base Layer.Wave"]);
}

#[test]
fn a_humanoid_controller_poses_its_rig_as_the_library_does() {
    let Some(dir) = common::data("binary/wetboys_plateupemotesapi") else {
        return;
    };
    let ws = Workspace::open(&[dir], &OpenOptions::default());
    let (rig_index, rig) = ws
        .rigs
        .iter()
        .enumerate()
        .find(|(_, r)| r.controller.is_some() && r.humanoid.is_some())
        .expect("morbman: a humanoid rig with its controller");
    let controller = ws.rigs[rig_index].controller.unwrap();
    let model = ws.controllers[controller].model.as_ref().unwrap();
    let states: Vec<String> = model.layers[0]
        .state_machine
        .all_states()
        .iter()
        .filter(|s| s.motion.is_some())
        .map(|s| s.full_path.clone())
        .collect();
    assert!(states.len() >= 2, "{states:?}");
    let script = format!("0.1:play {}@0.1;1.5:crossfade {} 0.5", states[0], states[1]);
    let actions = script::parse(&script).unwrap();
    let times = thirty_times();
    let want = expected(&ws, controller, rig, &actions, &times);
    let mut app = app(&[]);
    let asset = UnityController::from_workspace(&ws, controller).unwrap();
    assert!(!asset.clips.is_empty());
    let handle = app
        .world_mut()
        .resource_mut::<Assets<UnityController>>()
        .add(asset);
    let out = compare(
        &mut app,
        rig,
        UnityAnimator::new(handle),
        &actions,
        &times,
        &want,
    );
    assert_eq!(
        out[0].states.last().map(|s| s.path.as_str()),
        Some(states[1].as_str())
    );
}
