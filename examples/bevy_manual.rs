//! The long form of `examples/bevy_player.rs`, with each step by hand: load a Unity file as
//! an asset, wait for it, spawn its first character with `spawn_model` and play a clip on it
//! with `play_clip`.
//!
//! `cargo run --release --example bevy_manual -- ../shared/data/binary/lessscarymannequins/copy.bundle TestClip`
//! (paths are relative to the folder the app runs in; Bevy's asset root is set to it).

use bevy::{animation::graph::AnimationGraph, core_pipeline::tonemapping::Tonemapping};
use bevy::{asset::UnapprovedPathMode, prelude::*};
use clipscope_bevy::*;

#[derive(Resource)]
struct Wanted(Handle<UnityFile>, String);

fn main() {
    let mut args = std::env::args().skip(1);
    let mut arg = || args.next().unwrap_or_default();
    let (file, clip) = (arg(), arg());
    let assets = AssetPlugin {
        file_path: std::env::current_dir().unwrap().display().to_string(),
        unapproved_path_mode: UnapprovedPathMode::Allow,
        ..default()
    };
    App::new()
        .add_plugins((DefaultPlugins.set(assets), ClipscopePlugin))
        .add_systems(
            Startup,
            move |mut commands: Commands, server: Res<AssetServer>| {
                let eye = Transform::from_xyz(0.0, 1.5, 4.0).looking_at(Vec3::Y, Vec3::Y);
                commands.spawn((Camera3d::default(), Tonemapping::None, eye));
                commands.spawn((DirectionalLight::default(), eye));
                commands.insert_resource(Wanted(server.load(file.clone()), clip.clone()));
            },
        )
        .add_systems(Update, start_when_loaded)
        .run();
}

/// Once loaded: spawn the first character, give it the clip's objects (sprites), play the clip.
fn start_when_loaded(
    mut commands: Commands,
    wanted: Option<Res<Wanted>>,
    files: Res<Assets<UnityFile>>,
    models: Res<Assets<UnityModel>>,
    mut assets: ModelAssets,
    mut graphs: ResMut<Assets<AnimationGraph>>,
) {
    let Some(Wanted(file, clip)) = wanted.as_deref() else {
        return;
    };
    let Some(file) = files.get(file) else { return };
    let model = file.models.first().and_then(|(_, m)| models.get(m));
    let (Some(model), Some(clip)) = (model, file.clip(clip)) else {
        return;
    };
    // A humanoid rig comes with its Avatar, so humanoid clips pose it too.
    let root = spawn_model(&mut commands, &mut assets, model);
    let objects = model.clip_objects.get(&clip.label).cloned();
    commands.entity(root).insert(objects.unwrap_or_default());
    play_clip(&mut commands, &mut graphs, root, clip);
    commands.remove_resource::<Wanted>();
}
