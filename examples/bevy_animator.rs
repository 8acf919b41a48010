//! An AnimatorController driving a character in Bevy: the demo rig runs the small
//! `Locomotion` controller (`clipscope_authoring::demo_controller`: Idle, and a Walk/Run blend tree on
//! `Speed`, with 0.25 s crossfades; a `Wave` trigger through Any State). Space cycles the
//! speed idle → walk → run → idle; W sets the trigger. The state machine and the pose follow
//! Unity's rules; the log says which states play.
//!
//! `cargo run --release --example bevy_animator`
//!
//! The controller is loaded the way a game loads any of a file's controllers, by its label:
//! `server.load("locomotion.bundle#Controller/Locomotion")` (the example writes that bundle
//! into a temporary folder first). The rig is spawned from the same file's rig with
//! `spawn_rig`; a model from `"file#Model/NAME"` works the same way (put the animator on its
//! rig).

use bevy::asset::UnapprovedPathMode;
use bevy::core_pipeline::tonemapping::Tonemapping;
use bevy::prelude::*;
use clipscope_authoring::demo_controller::locomotion_bytes;
use clipscope_bevy::*;
use clipscope_core::{OpenOptions, Workspace};

/// The speeds Space cycles through.
const SPEEDS: [f32; 3] = [0.0, 1.0, 2.0];

#[derive(Resource)]
struct Character {
    root: Entity,
    speed: usize,
    shown: String,
}

fn main() {
    let dir = std::env::temp_dir().join("clipscope-bevy-animator");
    let bytes = locomotion_bytes().expect("the locomotion bundle is written");
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    std::fs::write(dir.join("locomotion.bundle"), &bytes).expect("the bundle is written");
    let ws = Workspace::open_bytes("locomotion.bundle".as_ref(), bytes, &OpenOptions::default());
    let skeleton = ws.rigs[0].skeleton.clone();
    let assets = AssetPlugin {
        file_path: dir.display().to_string(),
        unapproved_path_mode: UnapprovedPathMode::Allow,
        ..default()
    };
    let setup = move |mut commands: Commands, server: Res<AssetServer>| {
        let eye = Transform::from_xyz(1.8, 1.4, 2.6).looking_at(Vec3::Y * 0.9, Vec3::Y);
        commands.spawn((Camera3d::default(), Tonemapping::None, eye));
        let root = spawn_rig(&mut commands, &skeleton);
        let controller = server.load("locomotion.bundle#Controller/Locomotion");
        commands.entity(root).insert(UnityAnimator::new(controller));
        commands.insert_resource(Character {
            root,
            speed: 0,
            shown: String::new(),
        });
        info!("Space: idle → walk → run; W: wave");
    };
    App::new()
        .add_plugins((DefaultPlugins.set(assets), ClipscopePlugin))
        .add_systems(Startup, setup)
        .add_systems(Update, (keys, report))
        .add_systems(
            PostUpdate,
            draw_skeleton.after(bevy::transform::TransformSystems::Propagate),
        )
        .run();
}

/// Space cycles the speed; W sets the wave trigger.
fn keys(
    input: Res<ButtonInput<KeyCode>>,
    mut character: ResMut<Character>,
    mut animators: Query<&mut UnityAnimator>,
) {
    let Ok(mut animator) = animators.get_mut(character.root) else {
        return;
    };
    if input.just_pressed(KeyCode::Space) {
        character.speed = (character.speed + 1) % SPEEDS.len();
        animator.set_float("Speed", SPEEDS[character.speed]);
        info!("Speed = {}", SPEEDS[character.speed]);
    }
    if input.just_pressed(KeyCode::KeyW) {
        animator.set_trigger("Wave");
    }
}

/// Logs the playing states when they change.
fn report(mut character: ResMut<Character>, animators: Query<&UnityAnimator>) {
    let Ok(animator) = animators.get(character.root) else {
        return;
    };
    let Some(layer) = animator.output().first() else {
        return;
    };
    let shown = match &layer.transition {
        Some(t) => format!("{} → {}", t.from, t.to),
        None => layer
            .states
            .iter()
            .map(|s| s.path.clone())
            .collect::<Vec<_>>()
            .join(", "),
    };
    if shown != character.shown {
        info!("{shown}");
        character.shown = shown;
    }
}

/// The skeleton as lines from each joint to its parent.
fn draw_skeleton(
    mut gizmos: Gizmos,
    joints: Query<(&GlobalTransform, &ChildOf), With<RigJoint>>,
    globals: Query<&GlobalTransform>,
) {
    for (joint, parent) in &joints {
        if let Ok(p) = globals.get(parent.parent()) {
            gizmos.line(p.translation(), joint.translation(), Color::WHITE);
        }
    }
}
