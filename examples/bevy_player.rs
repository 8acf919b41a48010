//! A Unity character in a Bevy app the way Bevy spawns a glTF: one component spawns the
//! model once it is loaded, another plays the clip once both are ready. No polling.
//!
//! `cargo run --release --example bevy_player -- ../shared/data/binary/lessscarymannequins/copy.bundle TestClip quinn`
//! (the file, a clip's label, a model's name; paths are relative to the folder the app runs
//! in). `examples/bevy_manual.rs` does each step by hand.

use bevy::{asset::UnapprovedPathMode, core_pipeline::tonemapping::Tonemapping, prelude::*};
use clipscope_bevy::*;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut arg = || args.next().unwrap_or_default();
    let (file, clip, model) = (arg(), arg(), arg());
    let assets = AssetPlugin {
        file_path: std::env::current_dir().unwrap().display().to_string(),
        unapproved_path_mode: UnapprovedPathMode::Allow,
        ..default()
    };
    let setup = move |mut commands: Commands, server: Res<AssetServer>| {
        let eye = Transform::from_xyz(0.0, 1.5, 4.0).looking_at(Vec3::Y, Vec3::Y);
        commands.spawn((Camera3d::default(), Tonemapping::None, eye));
        commands.spawn((DirectionalLight::default(), eye));
        commands.spawn((
            UnityModelRoot(server.load(format!("{file}#Model/{model}"))),
            UnityClipPlayer::new(server.load(format!("{file}#{clip}"))),
        ));
    };
    App::new()
        .add_plugins((DefaultPlugins.set(assets), ClipscopePlugin))
        .add_systems(Startup, setup)
        .run();
}
