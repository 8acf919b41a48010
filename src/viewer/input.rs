//! Keyboard shortcuts: space play/pause, left/right step a frame, home/end, `[` `]` speed,
//! `i` `o` the play range's in and out markers (Backspace clears them), `f` frame the rig.

use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;

use super::camera::OrbitCamera;
use super::scene::{SceneState, playback_of};
use clipscope_bevy::UnityPlayback;
use clipscope_core::timeline::{TimelineCommand, apply};

/// The command a key asks for.
fn command_for(key: KeyCode) -> Option<TimelineCommand> {
    Some(match key {
        KeyCode::Space => TimelineCommand::TogglePlay,
        KeyCode::ArrowLeft => TimelineCommand::StepFrames(-1),
        KeyCode::ArrowRight => TimelineCommand::StepFrames(1),
        KeyCode::Home => TimelineCommand::Home,
        KeyCode::End => TimelineCommand::End,
        KeyCode::BracketLeft => TimelineCommand::Slower,
        KeyCode::BracketRight => TimelineCommand::Faster,
        KeyCode::KeyI => TimelineCommand::SetIn,
        KeyCode::KeyO => TimelineCommand::SetOut,
        KeyCode::Backspace => TimelineCommand::ClearRange,
        _ => return None,
    })
}

/// The viewer's keyboard shortcuts: transport keys drive the playhead, `f` frames the rig.
pub fn shortcuts(
    keys: Res<ButtonInput<KeyCode>>,
    scene: Res<SceneState>,
    mut playbacks: Query<&mut UnityPlayback>,
    mut orbit: ResMut<OrbitCamera>,
    egui: Option<Res<EguiWantsInput>>,
) {
    if egui.is_some_and(|e| e.wants_keyboard_input()) {
        return;
    }
    if keys.just_pressed(KeyCode::KeyF) {
        orbit.reframe();
    }
    let Some(mut playback) = playback_of(&scene, &mut playbacks) else {
        return;
    };
    for key in keys.get_just_pressed() {
        if let Some(command) = command_for(*key) {
            apply(&mut playback.playhead, command);
        }
    }
}
