//! The egui panels: files and clips on the left, the joint tree and properties on the right,
//! the timeline and curve view at the bottom, a status bar on top.

mod plot;
mod side;
mod timeline;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::load::Loading;
use super::scene::{Library, SceneState, Selection};
use crate::plugin::UnityPlayback;

/// Draws every panel.
#[allow(clippy::too_many_arguments)]
pub fn panels(
    mut contexts: EguiContexts,
    library: Option<Res<Library>>,
    loading: Option<Res<Loading>>,
    mut selection: ResMut<Selection>,
    scene: Res<SceneState>,
    mut playbacks: Query<&mut UnityPlayback>,
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
    if let Some(library) = library.as_deref() {
        egui::Panel::left("files")
            .resizable(true)
            .default_size(260.0)
            .show(&mut root, |ui| {
                side::files_and_clips(ui, library, &mut selection);
            });
    }
    egui::Panel::right("rig")
        .resizable(true)
        .default_size(300.0)
        .show(&mut root, |ui| {
            side::rig_panel(ui, &scene, &mut selection, &playbacks);
        });
    let playback = scene.root.and_then(|r| playbacks.get_mut(r).ok());
    if let (Some(mut playback), Some(clip)) = (playback, scene.clip.as_ref()) {
        egui::Panel::bottom("timeline")
            .resizable(true)
            .default_size(260.0)
            .show(&mut root, |ui| {
                timeline::transport(ui, &mut playback.playhead, &mut selection, clip);
                timeline::ticks_and_keys(ui, &mut playback.playhead, &selection, clip);
                plot::curve_view(ui, &mut playback.playhead, &selection, clip);
            });
    }
    Ok(())
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
        if scene.humanoid {
            ui.colored_label(
                egui::Color32::YELLOW,
                "humanoid (muscle) curves are decoded and listed but not retargeted onto the rig",
            );
        }
    });
}
