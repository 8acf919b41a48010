//! Keyboard shortcuts: space play/pause, left/right step (a frame, or the step set in the
//! timeline), `,` `.` the previous/next key of the plotted curves, up/down the previous/next
//! clip of the list, home/end, `[` `]` speed, `i` `o` the play range's in and out markers
//! (Backspace clears them), `f` frame the rig, `s` the skeleton and its joint markers on or
//! off.

use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;

use super::camera::OrbitCamera;
use super::clip_index::ClipIndex;
use super::scene::{Library, SceneState, Selection, playback_of};
use clipscope_bevy::UnityPlayback;
use clipscope_core::timeline::{TimelineCommand, apply, key_after, key_before, key_marks};

/// The command a key asks for, stepping `step` frames.
fn command_for(key: KeyCode, step: f32) -> Option<TimelineCommand> {
    Some(match key {
        KeyCode::Space => TimelineCommand::TogglePlay,
        KeyCode::ArrowLeft => TimelineCommand::Step(-step),
        KeyCode::ArrowRight => TimelineCommand::Step(step),
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

/// The viewer's keyboard shortcuts: transport keys drive the playhead, `f` frames the rig,
/// `s` toggles the skeleton, up/down change the clip.
#[allow(clippy::too_many_arguments)]
pub fn shortcuts(
    keys: Res<ButtonInput<KeyCode>>,
    scene: Res<SceneState>,
    library: Option<Res<Library>>,
    index: Res<ClipIndex>,
    mut playbacks: Query<&mut UnityPlayback>,
    mut orbit: ResMut<OrbitCamera>,
    mut selection: ResMut<Selection>,
    egui: Option<Res<EguiWantsInput>>,
) {
    if egui.is_some_and(|e| e.wants_keyboard_input()) {
        return;
    }
    if keys.just_pressed(KeyCode::KeyF) {
        orbit.reframe();
    }
    if keys.just_pressed(KeyCode::KeyS) {
        // Skeleton and markers together: on shows both, off hides both.
        let shown = selection.markers_shown(selection.meshes && scene.has_meshes);
        let on = !(selection.skeleton && shown);
        selection.skeleton = on;
        selection.joint_markers = Some(on);
    }
    for (key, step) in [(KeyCode::ArrowUp, -1), (KeyCode::ArrowDown, 1)] {
        if keys.just_pressed(key) {
            next_clip(library.as_deref(), &index, &mut selection, step);
        }
    }
    let Some(mut playback) = playback_of(&scene, &mut playbacks) else {
        return;
    };
    let marks = || {
        scene
            .clip
            .as_ref()
            .map(|c| key_marks(c, &selection.tracks))
            .unwrap_or_default()
    };
    let t = playback.playhead.clip_time();
    if keys.just_pressed(KeyCode::Period)
        && let Some(k) = key_after(&marks(), t)
    {
        apply(&mut playback.playhead, TimelineCommand::Seek(k));
        playback.playhead.paused = true;
    }
    if keys.just_pressed(KeyCode::Comma)
        && let Some(k) = key_before(&marks(), t)
    {
        apply(&mut playback.playhead, TimelineCommand::Seek(k));
        playback.playhead.paused = true;
    }
    for key in keys.get_just_pressed() {
        if let Some(command) = command_for(*key, selection.step) {
            apply(&mut playback.playhead, command);
        }
    }
}

/// Shows the clip `step` places away in the clip list's order (wrapping).
fn next_clip(library: Option<&Library>, index: &ClipIndex, selection: &mut Selection, step: isize) {
    let Some(library) = library else {
        return;
    };
    let ws = &library.main;
    let listed = index.listed(
        ws,
        &selection.filter,
        selection.kind,
        selection.group_by_rig,
    );
    let here = selection
        .clip
        .and_then(|at| ws.clips.iter().position(|c| c.at == at));
    if let Some(next) = index.step(&listed, here, step).filter(|&n| Some(n) != here) {
        selection.clip = Some(ws.clips[next].at);
        selection.joint = None;
        selection.dirty = true;
        selection.scroll_to_clip = true;
    }
}
