//! "Save as Unity .anim" for the shown clip: a folder (default `unity` in the working
//! directory) and a button that writes the clip through
//! [`crate::yaml_write::write_anim`] (the same function `clipscope unity` calls), with its
//! `.meta`, then the report's line.

use std::path::Path;

use bevy_egui::egui;

use crate::viewer::library::Library;
use crate::viewer::scene::Selection;
use crate::yaml_write::file_name::safe_file_name;
use crate::yaml_write::guid::meta_text;
use crate::yaml_write::{ANIM_FILE_ID, NameBook, WriteOptions, write_anim};

/// What the section remembers between frames (kept in egui's memory).
#[derive(Clone, Debug)]
struct SaveState {
    folder: String,
    result: Option<Result<String, String>>,
}

impl Default for SaveState {
    fn default() -> Self {
        SaveState {
            folder: "unity".into(),
            result: None,
        }
    }
}

/// Writes the selected clip into `folder`; the report's line or the error.
fn save(library: &Library, selection: &Selection, folder: &str) -> Result<String, String> {
    let at = selection.clip.ok_or("no clip is shown")?;
    let ws = &library.main;
    let names = NameBook::build(ws);
    let anim = write_anim(ws, &names, at, &WriteOptions::default()).map_err(|e| e.to_string())?;
    let dir = Path::new(folder.trim());
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let stem = safe_file_name(&anim.name);
    let path = dir.join(format!("{stem}.anim"));
    std::fs::write(&path, &anim.text).map_err(|e| format!("{}: {e}", path.display()))?;
    let meta = dir.join(format!("{stem}.anim.meta"));
    std::fs::write(&meta, meta_text(&anim.guid, ANIM_FILE_ID))
        .map_err(|e| format!("{}: {e}", meta.display()))?;
    let r = &anim.report;
    Ok(format!(
        "wrote {}: {} curves, {} keys, max error {}, {} unresolved paths",
        path.display(),
        r.curves,
        r.keys_out,
        r.max_error
            .map_or_else(|| "not measured".into(), |e| format!("{e:.1e}")),
        r.unresolved_paths.len()
    ))
}

/// The section: folder, button, and the last result.
pub fn unity_save_section(ui: &mut egui::Ui, library: Option<&Library>, selection: &Selection) {
    let Some(library) = library else { return };
    let id = ui.id().with("unity save");
    let mut state: SaveState = ui.data_mut(|d| d.get_temp(id)).unwrap_or_default();
    egui::CollapsingHeader::new("Save as Unity .anim")
        .id_salt("unity save")
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.label("folder");
                ui.text_edit_singleline(&mut state.folder);
            });
            let ready = selection.clip.is_some() && !state.folder.trim().is_empty();
            if ui
                .add_enabled(ready, egui::Button::new("Save as Unity .anim"))
                .on_hover_text("the shown clip as an editable .anim (exact keys) with its .meta")
                .clicked()
            {
                state.result = Some(save(library, selection, &state.folder));
            }
            match &state.result {
                Some(Ok(line)) => {
                    ui.label(egui::RichText::new(line).small());
                }
                Some(Err(e)) => {
                    ui.colored_label(egui::Color32::LIGHT_RED, e);
                }
                None => {}
            }
        });
    ui.data_mut(|d| d.insert_temp(id, state));
}
