//! "Save as Unity .anim" for the shown clip and "Save controller" for the controller panel's
//! controller: a folder (default `unity` in the working directory) and a button that writes
//! through [`clipscope_core::yaml_write::write_anim_of`] and
//! [`clipscope_core::yaml_write::write_controller`] (the functions `clipscope unity` calls),
//! each file with its `.meta`, then the report's line.

use std::path::Path;

use bevy_egui::egui;

use crate::viewer::library::Library;
use crate::viewer::scene::Selection;
use clipscope_core::workspace::ObjectRef;
use clipscope_core::yaml_write::file_name::safe_file_name;
use clipscope_core::yaml_write::guid;
use clipscope_core::yaml_write::{
    ANIM_FILE_ID, AnimText, CONTROLLER_FILE_ID, MASK_FILE_ID, NameBook, WriteOptions,
    write_anim_of, write_controller,
};

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

/// The clip at `at` as `.anim` text, decoded from its file when the files were opened as an
/// index.
fn write_one(library: &Library, names: &NameBook, at: ObjectRef) -> Result<AnimText, String> {
    let ws = &library.main;
    let clip = library
        .clip(at)
        .ok_or_else(|| format!("the clip (path id {}) did not decode", at.path_id))?;
    write_anim_of(ws, names, at, &clip, &WriteOptions::default()).map_err(|e| e.to_string())
}

/// Writes the selected clip into `folder`; the report's line or the error.
fn save(library: &Library, selection: &Selection, folder: &str) -> Result<String, String> {
    let at = selection.clip.ok_or("no clip is shown")?;
    let ws = &library.main;
    let names = NameBook::build(ws);
    let anim = write_one(library, &names, at)?;
    let dir = Path::new(folder.trim());
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = write_anim(dir, &anim)?;
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

/// Writes a clip's text and its `.meta` as `dir/<name>.anim`; the path.
fn write_anim(dir: &Path, anim: &AnimText) -> Result<std::path::PathBuf, String> {
    write_with_meta(
        dir,
        &anim.name,
        "anim",
        &anim.text,
        &anim.guid,
        ANIM_FILE_ID,
    )
}

/// Writes `text` and its `.meta` as `dir/<name>.<ext>`; the path.
fn write_with_meta(
    dir: &Path,
    name: &str,
    ext: &str,
    text: &str,
    guid: &str,
    main_file_id: i64,
) -> Result<std::path::PathBuf, String> {
    guid::write_with_meta(dir, &safe_file_name(name), ext, text, guid, main_file_id)
        .map_err(|e| e.to_string())
}

/// Writes controller `index` with its masks and the clips it plays into `folder`; the
/// report's line or the error.
fn save_controller(library: &Library, index: usize, folder: &str) -> Result<String, String> {
    let ws = &library.main;
    let controller = write_controller(ws, index).map_err(|e| e.to_string())?;
    let dir = Path::new(folder.trim());
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for mask in &controller.masks {
        write_with_meta(
            dir,
            &mask.name,
            "mask",
            &mask.text,
            &mask.guid,
            MASK_FILE_ID,
        )?;
    }
    let names = NameBook::build(ws);
    let mut clips_written = 0;
    for &at in &controller.clips {
        let anim = write_one(library, &names, at)?;
        write_anim(dir, &anim)?;
        clips_written += 1;
    }
    let path = write_with_meta(
        dir,
        &controller.name,
        "controller",
        &controller.text,
        &controller.guid,
        CONTROLLER_FILE_ID,
    )?;
    let r = &controller.report;
    let c = &r.counts;
    Ok(format!(
        "wrote {}: {} states, {} transitions, {} blend trees, {} masks, {clips_written} clips, {} names not found, {} clips not loaded",
        path.display(),
        c.states,
        c.state_transitions + c.transitions,
        c.blend_trees,
        r.masks.len(),
        r.names_not_found.len(),
        r.missing_clips.len()
    ))
}

/// "Save controller" for the controller panel: folder, button, and the last result.
pub fn controller_save_section(ui: &mut egui::Ui, library: &Library, index: Option<usize>) {
    let id = ui.id().with("controller save");
    let mut state: SaveState = ui.data_mut(|d| d.get_temp(id)).unwrap_or_default();
    egui::CollapsingHeader::new("Save controller")
        .id_salt("controller save")
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.label("folder");
                ui.text_edit_singleline(&mut state.folder);
            });
            let decoded = index
                .and_then(|i| library.main.controllers.get(i))
                .is_some_and(|c| c.model.is_ok());
            let ready = decoded && !state.folder.trim().is_empty();
            if ui
                .add_enabled(ready, egui::Button::new("Save controller"))
                .on_hover_text(
                    "the controller as an editable .controller, with its layers' .mask files and the clips it plays (.anim), each with its .meta",
                )
                .clicked()
                && let Some(i) = index
            {
                state.result = Some(save_controller(library, i, &state.folder));
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
