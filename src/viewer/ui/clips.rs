//! The clip list, read like a library: clips grouped by the file they come from (its file
//! name, and the inner `CAB-…` file only where a bundle holds several; the full path on
//! hover; long names cut in the middle) or by the rig they play on, filtered by name and by
//! kind; the shown clip is scrolled into view when it is picked from the command line or
//! the rig changes. Files that could not be read are listed under "problems" with why.

use bevy_egui::egui;

use crate::viewer::clip_index::{ClipIndex, ClipKind};
use crate::viewer::scene::{Library, Selection};
use clipscope_core::workspace::{ClipEntry, ObjectRef, Workspace};

/// Names longer than this many characters are cut in the middle.
const NAME_CHARS: usize = 38;

/// `text` with its middle replaced by `…` when it is longer than `max` characters.
pub fn cut_middle(text: &str, max: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= max || max < 5 {
        return text.to_string();
    }
    let keep = max - 1;
    let head: String = chars[..keep / 2].iter().collect();
    let tail: String = chars[chars.len() - (keep - keep / 2)..].iter().collect();
    format!("{head}…{tail}")
}

/// A file's label: its file name, with the inner file where its container holds several;
/// and its full location, for the hover text.
pub fn file_label(ws: &Workspace, file: usize) -> (String, String) {
    let Some(f) = ws.files.get(file) else {
        return (String::new(), String::new());
    };
    let name = f.source.file_name().map_or_else(
        || f.source.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let siblings = ws.files.iter().filter(|o| o.source == f.source).count();
    let label = if siblings > 1 && !f.inner.is_empty() {
        format!("{name} / {}", f.inner)
    } else {
        name
    };
    (cut_middle(&label, NAME_CHARS), f.location())
}

/// The clip list with its search box, kind filter, grouping and problems.
pub fn files_and_clips(
    ui: &mut egui::Ui,
    library: &Library,
    index: &ClipIndex,
    selection: &mut Selection,
) {
    ui.heading("Clips");
    ui.horizontal(|ui| {
        ui.label("search");
        ui.text_edit_singleline(&mut selection.filter)
            .on_hover_text("clip names containing this (any case)");
    });
    ui.horizontal(|ui| {
        egui::ComboBox::from_id_salt("kind filter")
            .selected_text(selection.kind.map_or("every kind", ClipKind::name))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut selection.kind, None, "every kind");
                for kind in ClipKind::ALL {
                    ui.selectable_value(&mut selection.kind, Some(kind), kind.name());
                }
            });
        ui.checkbox(&mut selection.group_by_rig, "by rig")
            .on_hover_text("group the clips by the rig they play on, not by file");
    });
    let ws = &library.main;
    pinned_reference(ui, library, selection);
    let shown = index.listed(
        ws,
        &selection.filter,
        selection.kind,
        selection.group_by_rig,
    );
    let scroll = std::mem::take(&mut selection.scroll_to_clip);
    egui::ScrollArea::vertical()
        .id_salt("clips")
        .max_height(ui.available_height() * 0.8)
        .show(ui, |ui| {
            for (key, title, hover) in groups(ws, index, &shown, selection.group_by_rig) {
                let members: Vec<usize> = shown
                    .iter()
                    .copied()
                    .filter(|&i| index.group_of(ws, i, selection.group_by_rig) == key)
                    .collect();
                egui::CollapsingHeader::new(title)
                    .id_salt((selection.group_by_rig, key))
                    .default_open(true)
                    .show(ui, |ui| {
                        for i in members {
                            clip_row(ui, &ws.clips[i], selection, scroll);
                        }
                    })
                    .header_response
                    .on_hover_text(hover);
            }
        });
    problems(ui, ws);
}

/// The groups that hold a shown clip, in order: (key, title, hover text).
fn groups(
    ws: &Workspace,
    index: &ClipIndex,
    shown: &[usize],
    by_rig: bool,
) -> Vec<(usize, String, String)> {
    let mut keys: Vec<usize> = shown
        .iter()
        .map(|&i| index.group_of(ws, i, by_rig))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys.into_iter()
        .map(|key| {
            if !by_rig {
                let (label, location) = file_label(ws, key);
                return (key, label, location);
            }
            match ws.rigs.get(key) {
                Some(rig) => {
                    let (file, location) = file_label(ws, rig.at.file);
                    let title = format!("plays on {}", cut_middle(&rig.name, NAME_CHARS));
                    (key, title, format!("{} in {file} ({location})", rig.name))
                }
                None => (
                    key,
                    "no rig found".to_string(),
                    "no opened rig matches these clips' paths".to_string(),
                ),
            }
        })
        .collect()
}

/// One clip's row: the pin button and its name, kind of wrap and length.
fn clip_row(ui: &mut egui::Ui, entry: &ClipEntry, selection: &mut Selection, scroll: bool) {
    let selected = selection.clip == Some(entry.at);
    let clip = match &entry.data {
        Ok(clip) => clip,
        Err(e) => {
            ui.colored_label(
                egui::Color32::LIGHT_RED,
                format!("{} (error)", cut_middle(&entry.name, NAME_CHARS)),
            )
            .on_hover_text(e.to_string());
            return;
        }
    };
    let text = format!(
        "{}  ({}, {:.2} s)",
        cut_middle(&clip.name, NAME_CHARS),
        clip.wrap_mode(),
        clip.length()
    );
    ui.horizontal(|ui| {
        pin_button(ui, entry.at, selection);
        let row = ui
            .selectable_label(selected, text)
            .on_hover_text(&clip.name);
        if selected && scroll {
            row.scroll_to_me(Some(egui::Align::Center));
        }
        if row.clicked() && !selected {
            selection.clip = Some(entry.at);
            selection.joint = None;
            selection.dirty = true;
        }
    });
}

/// The files that could not be read and the other errors of the load, each with its reason.
fn problems(ui: &mut egui::Ui, ws: &Workspace) {
    if ws.errors.is_empty() {
        return;
    }
    ui.separator();
    egui::CollapsingHeader::new(format!("{} problems", ws.errors.len()))
        .id_salt("problems")
        .default_open(true)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("problem list")
                .max_height(160.0)
                .show(ui, |ui| {
                    for e in &ws.errors {
                        ui.colored_label(egui::Color32::LIGHT_RED, e.to_string());
                    }
                });
        });
}

/// The pinned reference clip, with a button to unpin it.
fn pinned_reference(ui: &mut egui::Ui, library: &Library, selection: &mut Selection) {
    let Some(at) = selection.reference else {
        ui.weak("pin a clip (☆) to compare the shown one with it");
        return;
    };
    let name = library.main.clip(at).map_or("?", |c| c.name.as_str());
    let (_, file) = file_label(&library.main, at.file);
    ui.horizontal(|ui| {
        ui.label(format!("reference: {}", cut_middle(name, NAME_CHARS)))
            .on_hover_text(file);
        if ui.small_button("unpin").clicked() {
            selection.reference = None;
        }
    });
}

/// Pins (or unpins) a clip as the reference the shown clip is compared with.
fn pin_button(ui: &mut egui::Ui, at: ObjectRef, selection: &mut Selection) {
    let pinned = selection.reference == Some(at);
    let (symbol, hover) = if pinned {
        ("★", "the reference: click to unpin")
    } else {
        ("☆", "pin as reference: the shown clip is compared with it")
    };
    if ui
        .selectable_label(pinned, symbol)
        .on_hover_text(hover)
        .clicked()
    {
        selection.reference = if pinned { None } else { Some(at) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_are_cut_in_the_middle() {
        assert_eq!(cut_middle("short", 10), "short");
        let cut = cut_middle("CAB-0123456789abcdef0123456789abcdef", 12);
        assert_eq!(cut.chars().count(), 12);
        assert_eq!(cut, "CAB-0…abcdef");
    }
}
