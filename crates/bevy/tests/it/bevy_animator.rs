//! Headless Bevy: a `UnityAnimator` on a rig produces the joint transforms the library's own
//! evaluation gives (a scripted run with every update blended on the rig, as
//! `clipscope animate --rig` computes it) at 30 times: the locomotion controller (loaded by
//! its `Controller/NAME` label) crossfading Idle → Move, blending Walk and Run by `Speed`, a
//! trigger through Any State; and morbman's humanoid dance controller played into a state.
//! Then what the animator adds on top: clip events sent as `UnityClipEvent`s with the
//! leaves' weights (an event at a state's start included), and root motion moving the rig
//! root's `Transform` by the closed form of a clip that travels straight while it turns
//! (humanoid body and generic root-motion bone, across a loop wrap), or not at all when
//! Apply Root Motion is off.

use crate::common;
use clipscope_authoring::fixtures::root_motion as root_motion_fixture;

use std::path::Path;
use std::time::Duration;

use bevy::animation::AnimationPlugin;
use bevy::asset::io::memory::{Dir, MemoryAssetReader};
use bevy::asset::io::{AssetSourceBuilder, AssetSourceId};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy::transform::TransformPlugin;
use clipscope_authoring::demo_controller::locomotion_bytes;
use clipscope_bevy::*;
use clipscope_core::animator::model::ResolvedClip;
use clipscope_core::animator::pose::PoseBlender;
use clipscope_core::animator::script::{self, Action, Step};
use clipscope_core::humanoid::JointLocal;
use clipscope_core::workspace::{ObjectRef, RigEntry};
use clipscope_core::{OpenOptions, Workspace};

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
) -> Vec<clipscope_core::animator::machine::LayerOutput> {
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

/// The controller of a bundle written from `clips` and `controller` (the authoring
/// module's), as the plugin's asset, added to `app`.
fn controller_asset(
    app: &mut App,
    clips: &[clipscope_authoring::ClipSpec],
    controller: &clipscope_authoring::controller::AnimatorController,
) -> Handle<UnityController> {
    use clipscope_authoring::controller::write_controller_bundle;
    let bytes = write_controller_bundle(clips, controller).expect("writes");
    let ws = Workspace::open_bytes(Path::new("case.bundle"), bytes, &OpenOptions::default());
    assert!(ws.errors.is_empty(), "{:?}", ws.errors);
    let asset = UnityController::from_workspace(&ws, 0).expect("decodes");
    assert_eq!(asset.clips.len(), clips.len());
    app.world_mut()
        .resource_mut::<Assets<UnityController>>()
        .add(asset)
}

/// Spawns a rig of `skeleton` (with `humanoid`, where given) driven by `animator`, after one
/// update of the app: Bevy's first update has no frame time (and runs no fixed update, so
/// its messages would be read again in the next), so frame `k` after this is at `k`/32 s.
fn spawn_animated(
    app: &mut App,
    skeleton: &clipscope_core::rig::Skeleton,
    humanoid: Option<&std::sync::Arc<clipscope_core::humanoid::HumanoidRig>>,
    animator: UnityAnimator,
) -> Entity {
    app.update();
    let mut commands = app.world_mut().commands();
    let root = spawn_rig(&mut commands, skeleton);
    if let Some(h) = humanoid {
        commands.entity(root).insert(UnityHumanoid::new(h.clone()));
    }
    commands.entity(root).insert(animator);
    app.world_mut().flush();
    root
}

#[test]
fn clip_events_fire_from_every_weighted_leaf_with_its_weight() {
    use clipscope_authoring::controller_cases::crossfade_over_crossfade;
    use root_motion_fixture::still_clip;
    // A plays One (1 s, looping): Start at 0 and Step at 10/32 s. Go (set before frame 40)
    // starts A -> B (0.5 s = 16 frames) at the end of frame 40, with B (Two, 2 s) at weight
    // 0; from frame 41 B has weight (k - 40)/16 and A the rest. Two has BStart at 0 and Mid
    // at 4/32 s.
    let clips = [
        still_clip("One", 1.0, &[(0.0, "Start"), (0.3125, "Step")]),
        still_clip("Two", 2.0, &[(0.0, "BStart"), (0.125, "Mid")]),
    ];
    let mut app = app(&[]);
    let handle = controller_asset(&mut app, &clips, &crossfade_over_crossfade());
    let skeleton = clipscope_core::rig::Skeleton::from_paths(["Body"]);
    let root = spawn_animated(&mut app, &skeleton, None, UnityAnimator::new(handle));
    let mut fired = Vec::new();
    for frame in 1..=60 {
        if frame == 40 {
            app.world_mut()
                .get_mut::<UnityAnimator>(root)
                .unwrap()
                .set_trigger("Go");
        }
        app.update();
        let messages = app.world().resource::<Messages<UnityClipEvent>>();
        for e in messages.iter_current_update_messages() {
            assert_eq!(e.entity, root);
            fired.push((frame, e.function.clone(), e.time, e.weight));
        }
    }
    let expected = [
        // The entry state's start fires with the first frame.
        (1, "Start", 0.0, 1.0),
        (10, "Step", 0.3125, 1.0),
        // One loops at frame 32 (t = 1 s): its start again.
        (32, "Start", 0.0, 1.0),
        // B entered at frame 40 with weight 0: its start fires once it has weight.
        (41, "BStart", 0.0, 1.0 / 16.0),
        (42, "Step", 0.3125, 14.0 / 16.0),
        (44, "Mid", 0.125, 4.0 / 16.0),
    ];
    assert_eq!(fired.len(), expected.len(), "{fired:?}");
    for (got, want) in fired.iter().zip(expected) {
        assert_eq!(
            (got.0, got.1.as_str(), got.2),
            (want.0, want.1, want.2),
            "{fired:?}"
        );
        assert!((got.3 - want.3).abs() < 1e-6, "{fired:?}");
    }
}

/// Runs `frames` frames and returns the root's `Transform` at each frame in `at` (frame
/// numbers), with the `GlobalTransform` of joint `probe`.
fn run_frames(
    app: &mut App,
    root: Entity,
    probe: usize,
    at: &[usize],
) -> Vec<(Transform, GlobalTransform)> {
    let joint = app.world().get::<RigRoot>(root).unwrap().joints[probe];
    let last = *at.iter().max().unwrap();
    let mut out = Vec::new();
    for frame in 1..=last {
        app.update();
        assert!(app.world().get::<UnityAnimator>(root).unwrap().is_running());
        if at.contains(&frame) {
            let t = *app.world().get::<Transform>(root).unwrap();
            let g = *app.world().get::<GlobalTransform>(joint).unwrap();
            out.push((t, g));
        }
    }
    out
}

/// The root's `Transform` that the closed form gives after `t` seconds from `start`, in
/// Bevy's space (Unity's x, −z; a turn about +Y becomes the opposite turn).
fn expected_root(start: Transform, t: f64, scale: f64) -> Transform {
    let (x, z, heading) = root_motion_fixture::closed_form(t, scale);
    let travel = Vec3::new(x as f32, 0.0, -z as f32);
    Transform {
        translation: start.translation + start.rotation * (start.scale * travel),
        rotation: start.rotation * Quat::from_rotation_y(-heading as f32),
        scale: start.scale,
    }
}

fn assert_root(got: &Transform, want: &Transform, what: &str) {
    assert!(
        got.translation.abs_diff_eq(want.translation, 2e-4)
            && got.rotation.abs_diff_eq(want.rotation, 2e-4),
        "{what}: {got:?}, the closed form gives {want:?}"
    );
}

/// Frames compared: within the first loop, at its end (the wrap) and after it.
const FRAMES: [usize; 5] = [8, 16, 32, 40, 48];

#[test]
fn humanoid_root_motion_moves_the_rig_root_by_the_closed_form() {
    use clipscope_authoring::controller_cases::crossfade_over_crossfade;
    use root_motion_fixture::{humanoid_walk, still_clip};
    let Some(dir) = common::data("binary/wetboys_plateupemotesapi") else {
        return;
    };
    let ws = Workspace::open(&[dir], &OpenOptions::default());
    let rig = ws
        .rigs
        .iter()
        .find(|r| r.humanoid.is_some())
        .expect("morbman: a humanoid rig");
    let humanoid = rig.humanoid.as_ref().unwrap();
    let scale = humanoid.human_scale() as f64;
    let hips = humanoid
        .bone_joint(clipscope_core::avatar::HumanBone::Hips)
        .expect("hips");
    let clips = [humanoid_walk("Walk"), still_clip("Still", 1.0, &[])];
    for apply in [true, false] {
        let mut app = app(&[]);
        let handle = controller_asset(&mut app, &clips, &crossfade_over_crossfade());
        let animator = UnityAnimator::new(handle).with_root_motion(apply);
        let root = spawn_animated(&mut app, &rig.skeleton, Some(humanoid), animator);
        let start = rest_transform(&rig.skeleton.joints[0]);
        let got = run_frames(&mut app, root, hips, &FRAMES);
        for (&frame, (t, hips_world)) in FRAMES.iter().zip(&got) {
            let time = frame as f64 / FPS;
            let root_world = if apply {
                let want = expected_root(start, time, scale);
                assert_root(t, &want, &format!("frame {frame}"));
                want
            } else {
                assert_root(
                    t,
                    &start,
                    &format!("frame {frame}: without root motion it stays"),
                );
                // The body plays the clip's own path, back at its start each loop.
                expected_root(start, time % root_motion_fixture::LENGTH as f64, scale)
            };
            // The body is posed over the moving root (in place) with root motion, and
            // travels away from the still root without it: the hips stay within 0.2 m
            // of where the root is (applied) or of where the clip puts the body.
            let d = (hips_world.translation() - root_world.translation)
                .with_y(0.0)
                .length();
            assert!(d < 0.2, "apply {apply}, frame {frame}: hips {d} m off");
        }
    }
}

#[test]
fn a_generic_root_motion_bone_moves_the_rig_root_by_the_closed_form() {
    use clipscope_authoring::controller_cases::crossfade_over_crossfade;
    use root_motion_fixture::{BONE, HEIGHT, generic_walk, still_clip};
    let clips = [generic_walk("Walk"), still_clip("Still", 1.0, &[])];
    let skeleton = clipscope_core::rig::Skeleton::from_paths([BONE]);
    assert_eq!(skeleton.joints[1].path, BONE);
    for apply in [true, false] {
        let mut app = app(&[]);
        let handle = controller_asset(&mut app, &clips, &crossfade_over_crossfade());
        let mut animator = UnityAnimator::new(handle).with_root_motion(apply);
        animator.root_motion_bone = Some(1);
        let root = spawn_animated(&mut app, &skeleton, None, animator);
        let start = rest_transform(&skeleton.joints[0]);
        let bone = app.world().get::<RigRoot>(root).unwrap().joints[1];
        let got = run_frames(&mut app, root, 1, &FRAMES);
        for (&frame, (t, _)) in FRAMES.iter().zip(&got) {
            let time = frame as f64 / FPS;
            if apply {
                assert_root(
                    t,
                    &expected_root(start, time, 1.0),
                    &format!("frame {frame}"),
                );
            } else {
                assert_root(
                    t,
                    &start,
                    &format!("frame {frame}: without root motion it stays"),
                );
            }
        }
        // The bone: in place over the root (its height kept, facing +Z) with root motion;
        // where the clip puts it without.
        let local = *app.world().get::<Transform>(bone).unwrap();
        let time = *FRAMES.last().unwrap() as f64 / FPS;
        let clip_time = time % root_motion_fixture::LENGTH as f64;
        let want = if apply {
            Transform::from_xyz(0.0, HEIGHT, 0.0)
        } else {
            let h = root_motion_fixture::TURN * clip_time;
            Transform::from_xyz(
                0.0,
                HEIGHT,
                -(root_motion_fixture::SPEED * clip_time) as f32,
            )
            .with_rotation(Quat::from_rotation_y(-h as f32))
        };
        assert_root(&local, &want, &format!("apply {apply}: the bone"));
    }
}

/// A serialized file (Unity 2020.3) with a one-joint rig whose Animator has Apply Root
/// Motion `apply`: the authoring module writes it off; the byte is set in place (the
/// Animator's layout: GameObject, Enabled, Avatar, Controller, CullingMode, UpdateMode,
/// then m_ApplyRootMotion and m_LinearVelocityBlending, aligned, then
/// m_HasTransformHierarchy, m_AllowConstantClipSamplingOptimization and
/// m_KeepAnimatorControllerStateOnDisable, aligned).
fn rig_file(apply: bool) -> Vec<u8> {
    use clipscope_authoring::{
        Bundle, Joint, RigComponent, RigSpec, UnityTarget, write_serialized,
    };
    let mut bundle = Bundle::new(UnityTarget::Unity2020);
    bundle.rig = Some(RigSpec {
        joints: vec![Joint {
            name: "Walker".into(),
            parent: None,
            position: [0.0; 3],
            rotation: [0.0, 0.0, 0.0, 1.0],
            scale: [1.0; 3],
            active: true,
        }],
        component: RigComponent::Animator,
        renderers: Vec::new(),
    });
    let mut bytes = write_serialized(&bundle).expect("writes");
    let file = clipscope_core::serialized::SerializedFile::parse(bytes.clone(), None).unwrap();
    let info = file.objects.iter().find(|o| o.class_id == 95).unwrap();
    let object = file.object_bytes(info).unwrap().to_vec();
    let at = bytes
        .windows(object.len())
        .position(|w| w == object.as_slice())
        .expect("the Animator's bytes");
    let flags = at + 48;
    assert_eq!(object.len(), 56);
    assert_eq!(
        bytes[flags..flags + 8],
        [0, 0, 0, 0, 1, 1, 0, 0],
        "the 2020.3 Animator layout"
    );
    bytes[flags] = u8::from(apply);
    bytes
}

#[test]
fn apply_root_motion_is_read_from_the_animator_and_set_by_for_rig() {
    for apply in [false, true] {
        let ws = Workspace::open_bytes(
            Path::new("walker.assets"),
            rig_file(apply),
            &OpenOptions::default(),
        );
        assert!(ws.errors.is_empty(), "{:?}", ws.errors);
        assert_eq!(ws.rigs.len(), 1);
        assert_eq!(ws.rigs[0].apply_root_motion, apply);
        let animator = UnityAnimator::for_rig(Handle::default(), &ws, &ws.rigs[0]);
        assert_eq!(animator.apply_root_motion, apply);
        assert_eq!(
            animator.root_motion_bone, None,
            "no Avatar, no root-motion bone"
        );
    }
    // morbman's Animator: off, as its prefab (`yaml/plateupemotesapi/morbman.prefab`,
    // `m_ApplyRootMotion: 0`) has it.
    if let Some(dir) = common::data("binary/wetboys_plateupemotesapi/morbman") {
        let ws = Workspace::open(&[dir], &OpenOptions::default());
        let rig = ws.rigs.iter().find(|r| r.humanoid.is_some()).unwrap();
        assert!(!rig.apply_root_motion);
    }
}

#[test]
fn root_motion_blends_the_leaves_by_their_weights_through_a_crossfade() {
    use clipscope_authoring::controller_cases::crossfade_over_crossfade;
    use root_motion_fixture::{BONE, SPEED, TURN, generic_walk, still_clip};
    // A walks (the generic clip); Go, set before frame 20, crossfades into B (still) over
    // 16 frames: in frame 20 + j, A weighs 1 − j/16; from frame 36 B alone plays.
    let clips = [generic_walk("Walk"), still_clip("Still", 1.0, &[])];
    let skeleton = clipscope_core::rig::Skeleton::from_paths([BONE]);
    let mut app = app(&[]);
    let handle = controller_asset(&mut app, &clips, &crossfade_over_crossfade());
    let mut animator = UnityAnimator::new(handle).with_root_motion(true);
    animator.root_motion_bone = Some(1);
    let root = spawn_animated(&mut app, &skeleton, None, animator);
    let start = rest_transform(&skeleton.joints[0]);
    for frame in 1..=48 {
        if frame == 20 {
            let mut a = app.world_mut().get_mut::<UnityAnimator>(root).unwrap();
            a.set_trigger("Go");
        }
        app.update();
    }
    // The same by hand: each frame A moves from clip time a to a + 1/32 (its travel along
    // +Z turned back by its heading at a, and its turn), weighted, under the root's
    // heading so far (Unity's space).
    let dt = 1.0 / FPS;
    let (mut x, mut z, mut heading) = (0.0f64, 0.0f64, 0.0f64);
    for frame in 1..36 {
        let w = if frame <= 20 {
            1.0
        } else {
            1.0 - (frame - 20) as f64 / 16.0
        };
        let a = ((frame - 1) as f64 * dt) % 1.0;
        let (s, c) = (-TURN * a).sin_cos();
        let (lx, lz) = (SPEED * dt * s, SPEED * dt * c);
        let (s, c) = heading.sin_cos();
        x += w * (lx * c + lz * s);
        z += w * (lz * c - lx * s);
        heading += w * TURN * dt;
    }
    let want = Transform {
        translation: start.translation + start.rotation * Vec3::new(x as f32, 0.0, -z as f32),
        rotation: start.rotation * Quat::from_rotation_y(-heading as f32),
        scale: start.scale,
    };
    let got = *app.world().get::<Transform>(root).unwrap();
    assert_root(&got, &want, "after the crossfade");
    // Less than A alone would have gone.
    let alone = expected_root(start, 48.0 / FPS, 1.0);
    assert!(got.translation.length() < alone.translation.length() - 0.1);
}
