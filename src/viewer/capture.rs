//! `clipscope view … --screenshot out.png`: render until the pipelines are ready, save one
//! frame, write where each joint lands on screen next to it (`out.png.joints.json`, for tests
//! and tools: each joint's name, pixel `x`, `y` and `world` position in Bevy's space; the
//! rig's name; the shown clip; the pinned reference with its comparison's summary; the
//! playhead's play range and the clip time it showed on each frame before; the onion poses
//! and the motion path drawn), and exit.

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};

use super::ViewerOptions;
use super::ground::GroundTrace;
use super::onion::GhostTrace;
use super::onion_mesh::OnionJoint;
use super::reference::ReferenceDiff;
use super::scene::{Library, SceneState, Selection};
use clipscope_bevy::{RigJoint, UnityPlayback};

/// The clip time shown on each frame since the rig appeared, and the play range: what a
/// test reads to see the playhead loop inside its markers.
#[derive(Resource, Default)]
pub struct PlayheadTrace {
    pub times: Vec<f32>,
    pub range: Option<(f32, f32)>,
}

/// Records the shown clip time of this frame.
pub fn trace_playhead(
    scene: Res<SceneState>,
    playbacks: Query<&UnityPlayback>,
    mut trace: ResMut<PlayheadTrace>,
) {
    let Some(playback) = scene.root.and_then(|r| playbacks.get(r).ok()) else {
        return;
    };
    trace.times.push(playback.playhead.clip_time());
    trace.range = playback.playhead.range.map(|_| playback.playhead.span());
}

/// What the sidecar reports of the scene shown.
#[derive(bevy::ecs::system::SystemParam)]
pub struct Shown<'w> {
    selection: Res<'w, Selection>,
    library: Option<Res<'w, Library>>,
    reference: Res<'w, ReferenceDiff>,
    trace: Res<'w, PlayheadTrace>,
    ghosts: Res<'w, GhostTrace>,
    ground: Res<'w, GroundTrace>,
}

/// The shown rig's joints (not the onion copies').
type ShownJoint = (With<RigJoint>, Without<OnionJoint>);

/// Frames to wait after the rig appears: pipelines compile slowly on software renderers.
pub const WARMUP_FRAMES: u32 = 120;

/// Requests the screenshot once the scene has been shown long enough.
#[allow(clippy::too_many_arguments)]
pub fn capture_when_ready(
    mut commands: Commands,
    options: Res<ViewerOptions>,
    scene: Res<SceneState>,
    mut requested: Local<bool>,
    cameras: Query<(&Camera, &GlobalTransform), With<Camera3d>>,
    joints: Query<(&GlobalTransform, &Name), ShownJoint>,
    windows: Query<&Window>,
    shown: Shown,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(path) = options.screenshot.clone() else {
        return;
    };
    if *requested {
        return;
    }
    if shown.library.is_some() && shown.selection.clip.is_none() {
        // Loaded, and no clip to show (none decoded, or `--clip` names none): the scene is
        // never built, so say so and stop rather than wait for it.
        *requested = true;
        error!(
            "--screenshot: nothing to show, the opened files have no decoded clip to play (or none with the --clip name)"
        );
        exit.write(AppExit::error());
        return;
    }
    if scene.root.is_none() || scene.frames < WARMUP_FRAMES {
        return;
    }
    *requested = true;
    if let (Ok((camera, camera_transform)), Some(view)) = (
        cameras.single(),
        cameras
            .single()
            .ok()
            .and_then(|(c, _)| c.logical_viewport_rect()),
    ) {
        let scale = windows.iter().next().map_or(1.0, |w| w.scale_factor());
        let projected: Vec<serde_json::Value> = joints
            .iter()
            .filter_map(|(g, name)| {
                let ndc = camera.world_to_ndc(camera_transform, g.translation())?;
                let x = view.min.x + (ndc.x + 1.0) / 2.0 * view.width();
                let y = view.min.y + (1.0 - ndc.y) / 2.0 * view.height();
                let world = g.translation().to_array();
                Some(serde_json::json!({
                    "name": name.as_str(), "x": x * scale, "y": y * scale, "world": world
                }))
            })
            .collect();
        let sidecar = format!("{}.joints.json", path.display());
        let rect = [
            view.min.x * scale,
            view.min.y * scale,
            view.max.x * scale,
            view.max.y * scale,
        ];
        let Shown {
            selection,
            library,
            reference,
            trace,
            ghosts,
            ground,
        } = shown;
        let json = serde_json::json!({
            "view": rect,
            "joints": projected,
            "rig": scene.rig_name,
            "clip": clip_json(library.as_deref(), selection.clip),
            "reference": reference_json(library.as_deref(), &reference),
            "playhead": {"range": trace.range, "times": trace.times},
            "onion": ghosts.onion.iter().map(|(t, joints)| serde_json::json!({
                "time": t,
                "joints": joints.iter().map(|p| p.to_array()).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "onion_meshes": ghosts.onion_meshes.iter().map(|(t, joints)| serde_json::json!({
                "time": t,
                "joints": joints.iter().map(|p| p.to_array()).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "reference_pose": ghosts.reference.as_ref().map(|(t, joints)| serde_json::json!({
                "time": t,
                "joints": joints.iter().map(|p| p.to_array()).collect::<Vec<_>>(),
                "worst": reference.worst_joints.iter().map(|(j, d)| serde_json::json!({"joint": j, "distance": d})).collect::<Vec<_>>(),
            })),
            "path": ghosts.path.as_ref().map(|(joint, points)| serde_json::json!({
                "joint": joint,
                "points": points.iter().map(|(t, p)| serde_json::json!({"time": t, "world": p.to_array()})).collect::<Vec<_>>(),
                "keys": ghosts.path_keys.iter().map(|(t, p)| serde_json::json!({"time": t, "world": p.to_array()})).collect::<Vec<_>>(),
            })),
            "end_paths": ghosts.end_paths.iter().map(|(joint, points)| serde_json::json!({
                "joint": joint,
                "points": points.iter().map(|(t, p)| serde_json::json!({"time": t, "world": p.to_array()})).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "feet": ground.feet.iter().map(|(j, p, touching)| serde_json::json!({
                "joint": j, "ground": p.to_array(), "touching": touching,
            })).collect::<Vec<_>>(),
            "trajectory": ground.trajectory.as_ref().map(|(joint, points)| serde_json::json!({
                "joint": joint,
                "points": points.iter().map(|(t, p, f)| serde_json::json!({"time": t, "ground": p.to_array(), "facing": f.to_array()})).collect::<Vec<_>>(),
            })),
        });
        if let Err(e) = std::fs::write(&sidecar, json.to_string()) {
            error!("could not write {sidecar}: {e}");
        }
    }
    commands
        .spawn(Screenshot::primary_window())
        .observe(save_to_disk(path))
        .observe(
            |_: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
                exit.write(AppExit::Success);
            },
        );
}

/// The shown clip: `{"name", "file", "path_id"}`, or null.
fn clip_json(
    library: Option<&Library>,
    at: Option<clipscope_core::workspace::ObjectRef>,
) -> serde_json::Value {
    let Some(entry) = library.zip(at).and_then(|(l, at)| l.main.clip(at)) else {
        return serde_json::Value::Null;
    };
    let file = library.and_then(|l| l.main.files.get(entry.at.file));
    serde_json::json!({
        "name": entry.name,
        "file": file.map(|f| f.source.display().to_string()),
        "path_id": entry.at.path_id,
    })
}

/// The pinned reference and the comparison the viewer shows: `{"clip": {..}, "curves",
/// "only_in_shown", "only_in_reference", "max_abs"}`, or null when none is pinned.
fn reference_json(library: Option<&Library>, reference: &ReferenceDiff) -> serde_json::Value {
    let (Some((at, _)), Some(diff)) = (&reference.reference, &reference.diff) else {
        return serde_json::Value::Null;
    };
    serde_json::json!({
        "clip": clip_json(library, Some(*at)),
        "curves": diff.curves.len(),
        "only_in_shown": diff.only_in_a.len(),
        "only_in_reference": diff.only_in_b.len(),
        "max_abs": diff.max_abs,
    })
}
