//! Playback at scale (`cargo bench --bench rigs`): 1,000 rigs of 50 animated joints advance
//! headless, three ways: clipscope's curves played directly by the joints
//! (`play_clip_direct`), clipscope's curves through Bevy's `AnimationPlayer` and graph
//! (`play_clip`), and Bevy's own glTF cubic curves on the same keys through the same player.
//! Prints frames per second for each and the per-frame cost ratios.
//! `-- --sampling` times one track's sampling alone, ours against Bevy's glTF curves.
//! `-- --humanoid`: 200 humanoid rigs against generic rigs of the same joints (see
//! `rigs/humanoid.rs`).

#[path = "rigs/humanoid.rs"]
mod humanoid;

use std::sync::Arc;
use std::time::{Duration, Instant};

use bevy::animation::animated_field;
use bevy::animation::animation_curves::{AnimatableCurve, AnimatedField};
use bevy::animation::gltf_curves::{CubicKeyframeCurve, CubicRotationCurve};
use bevy::animation::graph::{AnimationGraph, AnimationGraphHandle};
use bevy::animation::{AnimationPlayer, AnimationPlugin};
use bevy::math::curve::Curve as BevyCurve;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy::transform::TransformPlugin;
use clipscope_bevy::curves::{QuatTrack, Vec3Track};
use clipscope_bevy::{ClipscopePlugin, DirectClip, UnityPlayback, bevy_clip, spawn_rig, target_id};
use clipscope_core::clip::{
    BlockCounts, ClipCurve, ClipData, GenericBinding, LegacyKind, Storage, Track, attribute,
};
use clipscope_core::curve::{Curve as UnityCurve, Key};
use clipscope_core::rig::Skeleton;
use clipscope_core::{WrapMode, path_hash};

const RIGS: usize = 1000;
const JOINTS: usize = 50;
const KEYS: usize = 31;

fn keys(seed: usize) -> Vec<Key> {
    (0..KEYS)
        .map(|k| {
            let t = k as f32 / 30.0;
            let v = (t * 3.0 + seed as f32).sin() * 0.3;
            let s = (t * 3.0 + seed as f32).cos() * 0.9;
            Key::new(t, v, s, s)
        })
        .collect()
}

fn joint_path(j: usize) -> String {
    format!("joint{j}")
}

/// A transform binding of joint `j`.
fn binding(j: usize, attribute: u32) -> GenericBinding {
    GenericBinding {
        path: path_hash(&joint_path(j)),
        attribute,
        type_id: 4,
        custom_type: 0,
        is_pptr: false,
        is_int: false,
        script: (0, 0),
        path_name: Some(joint_path(j)),
        attribute_name: None,
    }
}

/// One legacy clip animating every joint's position and rotation: 7 curves per joint.
fn unity_clip() -> ClipData {
    let (mut bindings, mut curves, mut tracks) = (Vec::new(), Vec::new(), Vec::new());
    for j in 0..JOINTS {
        for (attr, count, kind) in [
            (attribute::POSITION, 3, LegacyKind::Position),
            (attribute::ROTATION, 4, LegacyKind::Rotation),
        ] {
            let first = curves.len();
            for c in 0..count {
                curves.push(ClipCurve {
                    curve: UnityCurve::from_keys(keys(j * 4 + c)),
                    storage: Storage::Legacy(kind),
                    binding: Some(bindings.len()),
                    component: c as u8,
                });
            }
            tracks.push(Track {
                binding: bindings.len(),
                curves: (first..curves.len()).collect(),
            });
            bindings.push(binding(j, attr));
        }
    }
    ClipData {
        name: "bench".into(),
        legacy: true,
        keyframed: true,
        start: 0.0,
        stop: 1.0,
        sample_rate: 30.0,
        wrap_mode_code: 2,
        loop_time: false,
        cycle_offset: 0.0,
        settings: Default::default(),
        counts: BlockCounts::default(),
        bindings,
        curves,
        tracks,
        pptr_mapping: Vec::new(),
        events: Vec::new(),
        warnings: Vec::new(),
        summary_only: None,
    }
}

/// The same keys as Bevy's glTF cubic curves, mirrored as clipscope mirrors them.
fn gltf_clip() -> AnimationClip {
    let mut clip = AnimationClip::default();
    for j in 0..JOINTS {
        let c: Vec<Vec<Key>> = (0..4).map(|i| keys(j * 4 + i)).collect();
        let times: Vec<f32> = c[0].iter().map(|k| k.time).collect();
        let vec3: Vec<Vec3> = (0..KEYS)
            .flat_map(|k| {
                let at = |f: fn(&Key) -> f32| Vec3::new(f(&c[0][k]), f(&c[1][k]), -f(&c[2][k]));
                [at(|k| k.in_slope), at(|k| k.value), at(|k| k.out_slope)]
            })
            .collect();
        let vec4: Vec<Vec4> = (0..KEYS)
            .flat_map(|k| {
                let at = |f: fn(&Key) -> f32| {
                    Vec4::new(-f(&c[0][k]), -f(&c[1][k]), f(&c[2][k]), f(&c[3][k]))
                };
                [at(|k| k.in_slope), at(|k| k.value), at(|k| k.out_slope)]
            })
            .collect();
        let translation = CubicKeyframeCurve::new(times.clone(), vec3).expect("valid keys");
        let rotation = CubicRotationCurve::new(times, vec4).expect("valid keys");
        let target = target_id(path_hash(&joint_path(j)));
        clip.add_curve_to_target(
            target,
            AnimatableCurve::new(animated_field!(Transform::translation), translation),
        );
        clip.add_curve_to_target(
            target,
            AnimatableCurve::new(animated_field!(Transform::rotation), rotation),
        );
    }
    clip.set_duration(1.0);
    clip
}

/// How the rigs play.
#[derive(Clone, Copy, PartialEq)]
enum Route {
    Direct,
    Graph,
    Gltf,
}

/// Frames per second of `frames` updates of 1,000 rigs playing the clip by `route`.
fn run(route: Route, frames: usize) -> f64 {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin::default(),
        AnimationPlugin,
        TransformPlugin,
        ClipscopePlugin,
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(
        1.0 / 60.0,
    )));
    let clip = Arc::new(unity_clip());
    let paths: Vec<String> = (0..JOINTS).map(joint_path).collect();
    let skeleton = Skeleton::from_paths(paths.iter().map(String::as_str));
    let bevy = match route {
        Route::Direct => None,
        Route::Graph => Some(bevy_clip(&clip).0),
        Route::Gltf => Some(gltf_clip()),
    };
    let graph = bevy.map(|bevy| {
        let handle = app
            .world_mut()
            .resource_mut::<Assets<AnimationClip>>()
            .add(bevy);
        let (graph, node) = AnimationGraph::from_clip(handle);
        let graph = app
            .world_mut()
            .resource_mut::<Assets<AnimationGraph>>()
            .add(graph);
        (graph, node)
    });
    let direct = DirectClip::new(clip.clone());
    let world = app.world_mut();
    for _ in 0..RIGS {
        let root = spawn_rig(&mut world.commands(), &skeleton);
        world.flush();
        match &graph {
            None => {
                let mut playback = UnityPlayback::new(&clip, None);
                playback.playhead.wrap = WrapMode::Loop;
                world.entity_mut(root).insert((direct.clone(), playback));
            }
            Some((graph, node)) => {
                let mut player = AnimationPlayer::default();
                player.play(*node).repeat();
                world
                    .entity_mut(root)
                    .insert((player, AnimationGraphHandle(graph.clone())));
            }
        }
    }
    for _ in 0..5 {
        app.update();
    }
    let start = Instant::now();
    for _ in 0..frames {
        app.update();
    }
    frames as f64 / start.elapsed().as_secs_f64()
}

/// Nanoseconds per `sample_clamped` of one track, ours and Bevy's glTF curve on the same keys
/// (`cargo bench --bench rigs -- --sampling`).
fn sampling_only() {
    let c: Vec<Vec<Key>> = (0..4).map(keys).collect();
    let vec3 = Vec3Track::new(
        Arc::new([0, 1, 2].map(|i| UnityCurve::from_keys(c[i].clone()))),
        [1.0; 3],
    );
    let quat = QuatTrack::new(Arc::new(
        [0, 1, 2, 3].map(|i| UnityCurve::from_keys(c[i].clone())),
    ));
    let times: Vec<f32> = c[0].iter().map(|k| k.time).collect();
    let triple = |k: usize, n: usize| -> [Vec4; 3] {
        let at = |f: fn(&Key) -> f32| {
            Vec4::from_array([0, 1, 2, 3].map(|i| if i < n { f(&c[i][k]) } else { 0.0 }))
        };
        [at(|k| k.in_slope), at(|k| k.value), at(|k| k.out_slope)]
    };
    let gltf3 = CubicKeyframeCurve::new(
        times.clone(),
        (0..KEYS).flat_map(|k| triple(k, 3).map(|v| v.truncate())),
    )
    .expect("keys");
    let gltf4 = CubicRotationCurve::new(times, (0..KEYS).flat_map(|k| triple(k, 4))).expect("keys");
    let n = 1_000_000u32;
    let time = |i: u32| std::hint::black_box((i % 1000) as f32 * 0.001);
    // Nanoseconds per sample, best of 7 rounds taken in turn with the other curve kind, so a
    // busy moment on the machine does not land on one side only.
    let measure = |f: &dyn Fn(f32) -> f32| {
        let start = Instant::now();
        let sum: f32 = (0..n).map(|i| f(time(i))).sum();
        std::hint::black_box(sum);
        start.elapsed().as_nanos() as f64 / n as f64
    };
    let pair = |ours: &dyn Fn(f32) -> f32, bevys: &dyn Fn(f32) -> f32| {
        let (mut a, mut b) = (f64::MAX, f64::MAX);
        for _ in 0..7 {
            a = a.min(measure(ours));
            b = b.min(measure(bevys));
        }
        (a, b)
    };
    println!("one track, sample_clamped, ns per sample (best of 7):");
    println!(
        "  {:<10} {:>10} {:>10} {:>16}",
        "", "clipscope", "Bevy glTF", "ratio (ours/Bevy)"
    );
    let (a, b) = pair(&|t| vec3.sample_clamped(t).x, &|t| {
        gltf3.sample_clamped(t).x
    });
    println!("  {:<10} {a:>10.1} {b:>10.1} {:>16.2}", "position", a / b);
    let (a, b) = pair(&|t| quat.sample_clamped(t).w, &|t| {
        gltf4.sample_clamped(t).w
    });
    println!("  {:<10} {a:>10.1} {b:>10.1} {:>16.2}", "rotation", a / b);
}

fn main() {
    if std::env::args().any(|a| a == "--sampling") {
        sampling_only();
        return;
    }
    if std::env::args().any(|a| a == "--humanoid") {
        humanoid::main();
        return;
    }
    if std::env::args().any(|a| a == "--list") {
        println!("rigs: bench");
        return;
    }
    let frames = 120;
    // `-- --only direct|graph|gltf`: one route, for a profiler.
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--only") {
        let route = match args.get(i + 1).map(String::as_str) {
            Some("direct") => Route::Direct,
            Some("graph") => Route::Graph,
            _ => Route::Gltf,
        };
        println!("{:.1} frames/s", run(route, frames * 3));
        return;
    }
    // Take turns, five rounds, and keep each route's best run: a busy machine slows
    // whichever happens to run at the wrong moment.
    let routes = [Route::Direct, Route::Graph, Route::Gltf];
    let mut best = [0.0f64; 3];
    for _ in 0..5 {
        for (i, &route) in routes.iter().enumerate() {
            best[i] = best[i].max(run(route, frames));
        }
    }
    let [direct, graph, gltf] = best;
    println!(
        "{RIGS} rigs x {JOINTS} joints (translation + rotation each), best of 5 runs of {frames} frames:"
    );
    println!("  clipscope, direct (play_clip_direct)      : {direct:8.1} frames/s");
    println!("  clipscope curves, Bevy's player (play_clip): {graph:8.1} frames/s");
    println!("  Bevy glTF curves, Bevy's player            : {gltf:8.1} frames/s");
    println!(
        "  per-frame cost ratio, clipscope curves / glTF curves (same player): {:.2}",
        gltf / graph
    );
    println!(
        "  per-frame cost ratio, direct / glTF curves through the player: {:.2}",
        gltf / direct
    );
}
