//! `cargo bench --bench rigs -- --humanoid`: 200 humanoid rigs (morbman's skeleton and
//! avatar, from `../shared/data`) playing the shared humanoid clips (each rig its own clip
//! and phase) with `play_clip_direct`, next to 200 generic rigs of the same 38 joints playing
//! a clip that moves and turns every joint, and 200 rigs that play nothing. Prints frames per
//! second and the cost per rig per frame (less the idle rigs' frame time). `--only humanoid`
//! (or `generic`, `idle`) runs one load, for a profiler.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bevy::animation::AnimationPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy::transform::TransformPlugin;
use clipscope_bevy::{
    ClipscopePlugin, DirectClip, LoadedClip, UnityHumanoid, UnityPlayback, play_clip_direct,
    spawn_rig,
};
use clipscope_core::clip::{
    ClipCurve, ClipData, GenericBinding, LegacyKind, Storage, Track, attribute,
};
use clipscope_core::humanoid::{ClipMuscles, HumanoidRig};
use clipscope_core::rig::Skeleton;
use clipscope_core::{OpenOptions, Workspace, WrapMode};

const RIGS: usize = 200;
const FRAMES: usize = 300;

/// What the rigs play.
#[derive(Clone, Copy, PartialEq)]
enum Load {
    Humanoid,
    Generic,
    Idle,
}

/// morbman's skeleton and avatar, and the shared humanoid clips.
struct Data {
    skeleton: Skeleton,
    rig: Arc<HumanoidRig>,
    clips: Vec<LoadedClip>,
}

fn load(root: &Path) -> Data {
    let d = root.join("binary/wetboys_plateupemotesapi");
    let paths: Vec<PathBuf> = [
        "morbman",
        "customemotespackage",
        "moisture_animationreplacements",
    ]
    .iter()
    .map(|f| d.join(f))
    .collect();
    let ws = Workspace::open(&paths, &OpenOptions::default());
    let entry = ws
        .rigs
        .iter()
        .find(|r| r.humanoid.is_some())
        .expect("morbman");
    let clips = ws
        .clips
        .iter()
        .filter_map(|c| c.data.as_ref().ok())
        .filter(|c| ClipMuscles::new(c).is_humanoid())
        .map(|c| loaded(Arc::new(c.clone())))
        .collect();
    Data {
        skeleton: clipscope_core::rig::Skeleton::clone(&entry.skeleton),
        rig: entry.humanoid.clone().expect("humanoid"),
        clips,
    }
}

fn loaded(clip: Arc<ClipData>) -> LoadedClip {
    let name = clip.name.clone();
    LoadedClip::from_direct(
        name.clone(),
        name,
        0,
        DirectClip::new(clip),
        Handle::default(),
    )
}

/// A 1 s legacy clip moving and turning every joint of `skeleton` (31 Hermite keys a curve).
fn generic_clip(skeleton: &Skeleton) -> ClipData {
    let (mut bindings, mut curves, mut tracks) = (Vec::new(), Vec::new(), Vec::new());
    for (j, joint) in skeleton.joints.iter().enumerate() {
        for (attribute, count, kind) in [
            (attribute::POSITION, 3, LegacyKind::Position),
            (attribute::ROTATION, 4, LegacyKind::Rotation),
        ] {
            let first = curves.len();
            for c in 0..count {
                curves.push(ClipCurve {
                    curve: clipscope_core::curve::Curve::from_keys(super::keys(j * 4 + c)),
                    storage: Storage::Legacy(kind),
                    binding: Some(bindings.len()),
                    component: c as u8,
                });
            }
            tracks.push(Track {
                binding: bindings.len(),
                curves: (first..curves.len()).collect(),
            });
            bindings.push(GenericBinding {
                path: joint.path_hash,
                path_name: Some(joint.path.clone()),
                ..super::binding(0, attribute)
            });
        }
    }
    ClipData {
        bindings,
        curves,
        tracks,
        ..super::unity_clip()
    }
}

/// Frames per second of [`FRAMES`] updates of [`RIGS`] rigs playing `load`.
fn run(data: &Data, load: Load) -> f64 {
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
    let generic = loaded(Arc::new(generic_clip(&data.skeleton)));
    let world = app.world_mut();
    for i in 0..RIGS {
        let mut commands = world.commands();
        let root = spawn_rig(&mut commands, &data.skeleton);
        let clip = match load {
            Load::Humanoid => {
                commands
                    .entity(root)
                    .insert(UnityHumanoid::new(data.rig.clone()));
                Some(&data.clips[i % data.clips.len()])
            }
            Load::Generic => Some(&generic),
            Load::Idle => None,
        };
        if let Some(clip) = clip {
            let mut playback = play_clip_direct(&mut commands, root, clip);
            playback.playhead.wrap = WrapMode::Loop;
            playback.playhead.seek(clip.data.start + i as f32 * 0.037);
            commands.entity(root).insert(playback);
        }
        world.flush();
    }
    assert_eq!(
        world.query::<&UnityPlayback>().iter(world).count(),
        if load == Load::Idle { 0 } else { RIGS }
    );
    for _ in 0..5 {
        app.update();
    }
    let start = Instant::now();
    for _ in 0..FRAMES {
        app.update();
    }
    FRAMES as f64 / start.elapsed().as_secs_f64()
}

pub fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    if !root.is_dir() {
        eprintln!("skipping: {} is missing", root.display());
        return;
    }
    let data = load(&root);
    // `-- --humanoid --only humanoid|generic|idle`: one load, longer, for a profiler.
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--only") {
        let load = match args.get(i + 1).map(String::as_str) {
            Some("humanoid") => Load::Humanoid,
            Some("generic") => Load::Generic,
            _ => Load::Idle,
        };
        let fps = (0..5).map(|_| run(&data, load)).fold(0.0, f64::max);
        println!("{fps:.1} frames/s");
        return;
    }
    let names: Vec<&str> = data.clips.iter().map(|c| c.name.as_str()).collect();
    // Take turns, five rounds, and keep each load's best run: a busy machine slows whichever
    // happens to run at the wrong moment.
    let loads = [Load::Humanoid, Load::Generic, Load::Idle];
    let mut best = [0.0f64; 3];
    for _ in 0..5 {
        for (i, &load) in loads.iter().enumerate() {
            best[i] = best[i].max(run(&data, load));
        }
    }
    let [humanoid, generic, idle] = best;
    let per_rig = |fps: f64| (1e6 / fps - 1e6 / idle).max(0.0) / RIGS as f64;
    let joints = data.skeleton.joints.len();
    println!(
        "{RIGS} rigs of {joints} joints at 1/60 s a frame, play_clip_direct, best of 5 runs of {FRAMES} frames:"
    );
    println!(
        "  humanoid ({}): {humanoid:8.1} frames/s, {:6.2} us per rig per frame",
        names.join(", "),
        per_rig(humanoid)
    );
    println!(
        "  generic (position + rotation on every joint): {generic:8.1} frames/s, {:6.2} us per rig per frame",
        per_rig(generic)
    );
    println!("  idle rigs (no clip): {idle:8.1} frames/s");
    println!(
        "  per-rig cost ratio, humanoid / generic: {:.2}",
        per_rig(humanoid) / per_rig(generic)
    );
}
