//! A minimal Bevy app: load a Unity file as an asset and play a clip on its rig.
//!
//! `cargo run --release --example bevy_player -- ../shared/data/binary/duckhunted/WebPlayer.unity3d Run`
//! (paths are relative to the folder the app runs in; Bevy's asset root is set to it).

use bevy::animation::graph::AnimationGraph;
use bevy::prelude::*;
use clipscope::plugin::{
    ClipscopePlugin, RigJoint, UnityFile, UnityRig, play_clip, spawn_unity_rig,
};

#[derive(Resource)]
struct Wanted(Handle<UnityFile>, String);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (file, clip) = (
        args.get(1).cloned().unwrap_or_default(),
        args.get(2).cloned().unwrap_or_default(),
    );
    let root = std::env::current_dir().unwrap().display().to_string();
    App::new()
        .add_plugins((
            DefaultPlugins.set(AssetPlugin {
                file_path: root,
                ..default()
            }),
            ClipscopePlugin,
        ))
        .add_systems(
            Startup,
            move |mut commands: Commands, server: Res<AssetServer>| {
                commands.spawn((
                    Camera3d::default(),
                    Transform::from_xyz(0.0, 1.5, 4.0).looking_at(Vec3::Y, Vec3::Y),
                ));
                commands.insert_resource(Wanted(server.load(file.clone()), clip.clone()));
            },
        )
        .add_systems(Update, (start_when_loaded, draw_bones))
        .run();
}

/// Once the file is loaded: spawn its first rig and play the clip on it.
fn start_when_loaded(
    mut commands: Commands,
    wanted: Option<Res<Wanted>>,
    files: Res<Assets<UnityFile>>,
    rigs: Res<Assets<UnityRig>>,
    mut graphs: ResMut<Assets<AnimationGraph>>,
) {
    let Some(wanted) = wanted else { return };
    let Some(file) = files.get(&wanted.0) else {
        return;
    };
    let (Some((_, rig)), Some(clip)) = (file.rigs.first(), file.clip(&wanted.1)) else {
        return;
    };
    let Some(rig) = rigs.get(rig) else { return };
    // With its humanoid avatar, where it has one: humanoid clips then pose it.
    let root = spawn_unity_rig(&mut commands, rig);
    play_clip(&mut commands, &mut graphs, root, clip);
    commands.remove_resource::<Wanted>();
}

/// Bones as lines from each joint to its parent.
fn draw_bones(
    mut gizmos: Gizmos,
    joints: Query<(&GlobalTransform, &ChildOf), With<RigJoint>>,
    all: Query<&GlobalTransform>,
) {
    for (joint, parent) in &joints {
        if let Ok(p) = all.get(parent.parent()) {
            gizmos.line(p.translation(), joint.translation(), Color::WHITE);
        }
    }
}
