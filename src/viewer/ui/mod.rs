//! The egui panels: files and clips on the left, the joint tree and properties on the right,
//! the timeline and curve view at the bottom, a status bar on top.

mod clips;
mod controller;
pub mod export;
mod plot;
mod side;
mod timeline;
pub mod unity_save;

use bevy::camera::Viewport;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::clip_index::ClipIndex;
use super::controller::ControllerView;
use super::load::Loading;
use super::reference::ReferenceDiff;
use super::scene::{Library, SceneState, Selection};
use clipscope_bevy::UnityPlayback;

/// Draws every panel.
#[allow(clippy::too_many_arguments)]
pub fn panels(
    mut contexts: EguiContexts,
    library: Option<Res<Library>>,
    index: Res<ClipIndex>,
    loading: Option<Res<Loading>>,
    mut selection: ResMut<Selection>,
    scene: Res<SceneState>,
    reference: Res<ReferenceDiff>,
    mut export: ResMut<export::ExportPanel>,
    mut controller: ResMut<ControllerView>,
    mut playbacks: Query<&mut UnityPlayback>,
    mut cameras: Query<&mut Camera, With<Camera3d>>,
    windows: Query<&Window>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = egui::Ui::new(
        ctx.clone(),
        "viewer".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    egui::Panel::top("status").show(&mut root, |ui| {
        status_bar(ui, library.as_deref(), loading.as_deref(), &scene)
    });
    let playback = scene.root.and_then(|r| playbacks.get_mut(r).ok());
    if let (Some(mut playback), Some(clip)) = (playback, scene.clip.as_ref()) {
        if let Some(t) = selection.seek.take() {
            playback.playhead.seek(t);
            playback.playhead.paused = true;
        }
        egui::Panel::bottom("timeline")
            .resizable(true)
            .default_size(260.0)
            .show(&mut root, |ui| {
                if controller.active {
                    controller::controller_transport(ui, &mut controller);
                    plot::curve_view(ui, &mut playback.playhead, &selection, clip, &reference);
                    return;
                }
                timeline::transport(ui, &mut playback.playhead, clip, &mut selection);
                timeline::ticks_and_keys(ui, &mut playback.playhead, &selection, clip);
                plot::curve_view(ui, &mut playback.playhead, &selection, clip, &reference);
            });
    }
    if let Some(library) = library.as_deref() {
        egui::Panel::left("files")
            .resizable(true)
            .default_size(260.0)
            .max_size(420.0)
            .show(&mut root, |ui| {
                clips::files_and_clips(ui, library, &index, &mut selection);
            });
    } else if let Some(loading) = loading.as_deref().filter(|l| !l.found.files.is_empty()) {
        // Its own panel: the width it takes is not kept for the clip list that follows.
        egui::Panel::left("files loading")
            .resizable(true)
            .default_size(260.0)
            .max_size(420.0)
            .show(&mut root, |ui| {
                clips::found_so_far(ui, &loading.found, &mut selection.filter);
            });
    }
    egui::Panel::right("rig")
        .resizable(true)
        .default_size(300.0)
        .max_size(480.0)
        .show(&mut root, |ui| {
            side::rig_panel(
                ui,
                library.as_deref().map(|l| (l, &*index)),
                &scene,
                &mut selection,
                &playbacks,
                &reference,
                &mut export,
            );
            unity_save::unity_save_section(ui, library.as_deref(), &selection);
            // The controller folds under the rig it drives, so the 3D view keeps its width.
            if let Some(library) = library
                .as_deref()
                .filter(|l| !l.main.controllers.is_empty())
            {
                ui.separator();
                egui::CollapsingHeader::new("Controller")
                    .id_salt("controller panel")
                    .default_open(false)
                    .show(ui, |ui| {
                        controller::controller_panel(ui, library, &mut controller, &mut selection);
                    });
            }
        });
    let view = root.available_rect_before_wrap();
    fit_camera(view, &mut cameras, &windows);
    if let Some(clip) = scene.clip.as_ref() {
        view_caption(&root, view, clip);
    }
    Ok(())
}

/// The shown clip's name, rate and frame count over the 3D view's top-left corner, so a
/// screenshot says what it shows.
fn view_caption(root: &egui::Ui, view: egui::Rect, clip: &clipscope_core::clip::ClipData) {
    let frames = clipscope_core::timeline::frame_at(clip.stop, clip.start, clip.sample_rate);
    let text = format!(
        "{}  ·  {} fps  ·  {} frames  ·  {:.2} s",
        clip.name,
        clip.sample_rate,
        frames,
        clip.stop - clip.start
    );
    root.painter().with_clip_rect(view).text(
        view.left_top() + egui::vec2(8.0, 6.0),
        egui::Align2::LEFT_TOP,
        text,
        egui::FontId::proportional(14.0),
        egui::Color32::from_gray(215),
    );
}

/// Renders the 3D view into the space the panels leave free, so framing centres the rig there.
fn fit_camera(
    rect: egui::Rect,
    cameras: &mut Query<&mut Camera, With<Camera3d>>,
    windows: &Query<&Window>,
) {
    let Some(window) = windows.iter().next() else {
        return;
    };
    let scale = window.scale_factor();
    let size = UVec2::new(window.physical_width(), window.physical_height());
    let min = (Vec2::new(rect.min.x, rect.min.y) * scale)
        .as_uvec2()
        .min(size);
    let max = (Vec2::new(rect.max.x, rect.max.y) * scale)
        .as_uvec2()
        .min(size);
    if max.x <= min.x + 8 || max.y <= min.y + 8 {
        return;
    }
    let viewport = Viewport {
        physical_position: min,
        physical_size: max - min,
        ..default()
    };
    for mut camera in cameras.iter_mut() {
        let same = camera.viewport.as_ref().is_some_and(|v| {
            (v.physical_position, v.physical_size)
                == (viewport.physical_position, viewport.physical_size)
        });
        if !same {
            camera.viewport = Some(viewport.clone());
        }
    }
}

fn status_bar(
    ui: &mut egui::Ui,
    library: Option<&Library>,
    loading: Option<&Loading>,
    scene: &SceneState,
) {
    ui.horizontal(|ui| {
        if let Some(l) = loading {
            ui.spinner();
            let fraction = if l.total > 0 {
                l.done as f32 / l.total as f32
            } else {
                0.0
            };
            ui.add(
                egui::ProgressBar::new(fraction)
                    .desired_width(200.0)
                    .show_percentage(),
            );
            ui.label(format!("loading {}", l.current));
        }
        if let Some(lib) = library {
            let ws = &lib.main;
            ui.label(format!(
                "{} files, {} clips, {} rigs",
                ws.files.len(),
                ws.clips.len(),
                ws.rigs.len()
            ));
            if !ws.errors.is_empty() {
                ui.colored_label(
                    egui::Color32::LIGHT_RED,
                    format!("{} errors", ws.errors.len()),
                )
                .on_hover_text(
                    ws.errors
                        .iter()
                        .map(|e| e.to_string())
                        .collect::<Vec<_>>()
                        .join("\n"),
                );
            }
            if !ws.warnings.is_empty() {
                ui.colored_label(
                    egui::Color32::YELLOW,
                    format!("{} warnings", ws.warnings.len()),
                )
                .on_hover_text(ws.warnings.join("\n"));
            }
        }
        if let Some(note) = &scene.note {
            ui.colored_label(egui::Color32::YELLOW, note);
        }
        if scene.far_joints > 0 {
            let (n, verb) = match scene.far_joints {
                1 => ("1 joint".to_string(), "lies"),
                n => (format!("{n} joints"), "lie"),
            };
            ui.label(format!(
                "{n} {verb} far outside the view (zoom out to see them)"
            ));
        }
    });
}
