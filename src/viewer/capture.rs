//! `clipscope view … --screenshot out.png`: render until the pipelines are ready, save one
//! frame, write where each joint lands on screen next to it (`out.png.joints.json`, for tests
//! and tools: each joint's name, pixel `x`, `y` and `world` position in Bevy's space), and
//! exit.

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};

use super::ViewerOptions;
use super::scene::SceneState;
use crate::plugin::RigJoint;

/// Frames to wait after the rig appears: pipelines compile slowly on software renderers.
pub const WARMUP_FRAMES: u32 = 120;

/// Requests the screenshot once the scene has been shown long enough.
pub fn capture_when_ready(
    mut commands: Commands,
    options: Res<ViewerOptions>,
    scene: Res<SceneState>,
    mut requested: Local<bool>,
    cameras: Query<(&Camera, &GlobalTransform), With<Camera3d>>,
    joints: Query<(&GlobalTransform, &Name), With<RigJoint>>,
    windows: Query<&Window>,
) {
    let Some(path) = options.screenshot.clone() else {
        return;
    };
    if *requested || scene.root.is_none() || scene.frames < WARMUP_FRAMES {
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
        let json = serde_json::json!({ "view": rect, "joints": projected });
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
