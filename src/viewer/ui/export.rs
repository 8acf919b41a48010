//! The rig panel's "Export glTF" action: a path (default `RIGNAME.glb` in the working
//! directory) and a button that writes the shown rig with every clip that plays on it
//! through [`clipscope_core::export::write_clips`], then the report's one line per clip (or the error).

use std::path::Path;

use bevy::prelude::*;
use bevy_egui::egui;

use crate::viewer::clip_index::ClipIndex;
use crate::viewer::scene::{Library, SceneState, Selection};
use clipscope_core::export::{ExportOptions, Mode, decoded_clips, default_file_name, write_clips};
use clipscope_core::workspace::ObjectRef;

/// What the export section remembers between frames.
#[derive(Resource, Default)]
pub struct ExportPanel {
    /// The path typed (relative paths are to the working directory).
    pub path: String,
    /// Unity's Hermite curves as CUBICSPLINE where a channel allows.
    pub exact: bool,
    /// The rig the path's default was made for.
    rig: Option<(usize, String)>,
    /// The last export: its summary lines, or why it failed.
    pub result: Option<Result<Vec<String>, String>>,
}

impl ExportPanel {
    /// Resets the path to the rig's default name when the shown rig changed.
    fn follow(&mut self, index: usize, name: &str) {
        let rig = Some((index, name.to_string()));
        if self.rig != rig {
            self.rig = rig;
            self.path = default_file_name(name);
            self.result = None;
        }
    }
}

/// Writes the rig to the panel's path; the result goes to the panel.
fn run(
    library: &Library,
    clips: &ClipIndex,
    index: usize,
    selection: &Selection,
    panel: &mut ExportPanel,
) {
    let options = ExportOptions {
        mode: if panel.exact {
            Mode::Exact
        } else {
            Mode::Linear
        },
        root_motion: selection.root_motion,
        ..ExportOptions::default()
    };
    let path = Path::new(panel.path.trim());
    // The clips are chosen on every opened file (as they were weighed when the files were
    // opened); the rig and those clips are then written from their files opened in full.
    let playing: Vec<ObjectRef> = clips
        .playing_on(&library.main, index)
        .into_iter()
        .map(|i| library.main.clips[i].at)
        .collect();
    let Some(full) = library.in_full(index, &playing, None) else {
        panel.result = Some(Err("the rig's files could not be opened again".into()));
        return;
    };
    let clips = decoded_clips(&full.ws, &full.clips);
    panel.result = Some(
        write_clips(&full.ws, full.rig, &clips, path, &options)
            .map(|report| {
                let mut lines = vec![format!(
                    "wrote {}: {} animations, {} meshes",
                    report.file,
                    report.clips.iter().filter(|c| c.channels > 0).count(),
                    report.meshes.len()
                )];
                lines.extend(report.clips.iter().map(|c| c.summary()));
                lines.extend(report.warnings.iter().map(|w| format!("warning: {w}")));
                lines
            })
            .map_err(|e| e.to_string()),
    );
}

/// The section: path, button, and the last result.
pub fn export_section(
    ui: &mut egui::Ui,
    library: Option<(&Library, &ClipIndex)>,
    scene: &SceneState,
    selection: &Selection,
    panel: &mut ExportPanel,
) {
    let (Some((library, clips)), Some(index)) = (library, scene.rig_index) else {
        ui.label(
            "Export glTF: the rig is built from the clip's paths; open its model to export it",
        );
        return;
    };
    panel.follow(index, &scene.rig_name);
    egui::CollapsingHeader::new("Export glTF")
        .id_salt("export")
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.label("file");
                ui.text_edit_singleline(&mut panel.path);
            });
            ui.horizontal(|ui| {
                ui.checkbox(&mut panel.exact, "exact").on_hover_text(
                    "Unity's Hermite curves as CUBICSPLINE (Blender drops them: keep linear there)",
                );
                let ready = !panel.path.trim().is_empty();
                if ui
                    .add_enabled(ready, egui::Button::new("Export"))
                    .on_hover_text(
                        "the rig, its meshes and every clip that plays on it, as one .glb",
                    )
                    .clicked()
                {
                    run(library, clips, index, selection, panel);
                }
            });
            match &panel.result {
                Some(Ok(lines)) => {
                    egui::ScrollArea::vertical()
                        .id_salt("export report")
                        .max_height(160.0)
                        .show(ui, |ui| {
                            for line in lines {
                                ui.label(egui::RichText::new(line).small());
                            }
                        });
                }
                Some(Err(e)) => {
                    ui.colored_label(egui::Color32::LIGHT_RED, e);
                }
                None => {}
            }
        });
}
