//! Playback at scale (`cargo bench --bench rigs`): 1,000 rigs of 50 animated joints advance
//! headless, with clipscope's curves and, for comparison, Bevy's own glTF cubic curves on the
//! same keys. Prints frames per second for both and the per-joint cost ratio.

use std::sync::Arc;
use std::time::{Duration, Instant};

use bevy::animation::animated_field;
use bevy::animation::animation_curves::{AnimatableCurve, AnimatedField};
use bevy::animation::gltf_curves::{CubicKeyframeCurve, CubicRotationCurve};
use bevy::animation::graph::{AnimationGraph, AnimationGraphHandle};
use bevy::animation::{AnimatedBy, AnimationPlayer, AnimationPlugin, AnimationTargetId};
use bevy::asset::uuid::Uuid;
use bevy::math::curve::Curve as BevyCurve;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy::transform::TransformPlugin;
use clipscope::curve::{Curve as UnityCurve, Key};
use clipscope::plugin::curves::{QuatTrack, Vec3Track};

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

fn target(j: usize) -> AnimationTargetId {
    AnimationTargetId(Uuid::from_u64_pair(7, j as u64))
}

/// One clip animating every joint's translation and rotation, with either curve kind.
fn clip(unity: bool) -> AnimationClip {
    let mut clip = AnimationClip::default();
    for j in 0..JOINTS {
        let c: Vec<Vec<Key>> = (0..4).map(|i| keys(j * 4 + i)).collect();
        if unity {
            let xyz = Arc::new([0, 1, 2].map(|i| UnityCurve::from_keys(c[i].clone())));
            let xyzw = Arc::new([0, 1, 2, 3].map(|i| UnityCurve::from_keys(c[i].clone())));
            clip.add_curve_to_target(
                target(j),
                AnimatableCurve::new(
                    animated_field!(Transform::translation),
                    Vec3Track::new(xyz, [1.0, 1.0, -1.0]),
                ),
            );
            clip.add_curve_to_target(
                target(j),
                AnimatableCurve::new(animated_field!(Transform::rotation), QuatTrack::new(xyzw)),
            );
        } else {
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
                        Vec4::new(f(&c[0][k]), f(&c[1][k]), f(&c[2][k]), f(&c[3][k]))
                    };
                    [at(|k| k.in_slope), at(|k| k.value), at(|k| k.out_slope)]
                })
                .collect();
            let translation = CubicKeyframeCurve::new(times.clone(), vec3).expect("valid keys");
            let rotation = CubicRotationCurve::new(times, vec4).expect("valid keys");
            clip.add_curve_to_target(
                target(j),
                AnimatableCurve::new(animated_field!(Transform::translation), translation),
            );
            clip.add_curve_to_target(
                target(j),
                AnimatableCurve::new(animated_field!(Transform::rotation), rotation),
            );
        }
    }
    clip.set_duration(1.0);
    clip
}

/// Frames per second of `frames` updates of 1,000 rigs playing the clip.
fn run(unity: bool, frames: usize) -> f64 {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin::default(),
        AnimationPlugin,
        TransformPlugin,
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(
        1.0 / 60.0,
    )));
    let handle = app
        .world_mut()
        .resource_mut::<Assets<AnimationClip>>()
        .add(clip(unity));
    let (graph, node) = AnimationGraph::from_clip(handle);
    let graph = app
        .world_mut()
        .resource_mut::<Assets<AnimationGraph>>()
        .add(graph);
    for _ in 0..RIGS {
        let mut player = AnimationPlayer::default();
        player.play(node).repeat();
        let root = app
            .world_mut()
            .spawn((
                Transform::default(),
                player,
                AnimationGraphHandle(graph.clone()),
            ))
            .id();
        for j in 0..JOINTS {
            app.world_mut().spawn((
                Transform::default(),
                target(j),
                AnimatedBy(root),
                ChildOf(root),
            ));
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
    if std::env::args().any(|a| a == "--list") {
        println!("rigs: bench");
        return;
    }
    let frames = 120;
    // Alternate the two, twice each, and keep each one's best run: a busy machine slows
    // whichever happens to run at the wrong moment.
    let (mut ours, mut bevys) = (0.0f64, 0.0f64);
    for _ in 0..2 {
        bevys = bevys.max(run(false, frames));
        ours = ours.max(run(true, frames));
    }
    println!(
        "{RIGS} rigs x {JOINTS} joints (translation + rotation each), best of 2 runs of {frames} frames:"
    );
    println!("  clipscope curves : {ours:8.1} frames/s");
    println!("  Bevy glTF curves : {bevys:8.1} frames/s");
    println!(
        "  per-frame cost ratio clipscope / Bevy: {:.2}",
        bevys / ours
    );
}
