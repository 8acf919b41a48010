//! The clip list, read like a library: clips grouped by the file they come from (its file
//! name, and the inner `CAB-…` file only where a bundle holds several; the full path on
//! hover; long names cut in the middle) or by the rig they play on, filtered by name and by
//! kind; the shown clip is scrolled into view when it is picked from the command line or
//! the rig changes. Files that could not be read are listed under "problems" with why.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use bevy_egui::egui;

use crate::viewer::clip_index::{ClipIndex, ClipKind};
use crate::viewer::load::FoundSoFar;
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

/// A file's label: its file name, with the inner file where its container holds several
/// (`siblings`: how many opened files share its file on disk); and its full location, for
/// the hover text.
pub fn file_label(ws: &Workspace, file: usize, siblings: usize) -> (String, String) {
    let Some(f) = ws.files.get(file) else {
        return (String::new(), String::new());
    };
    let name = f.source.file_name().map_or_else(
        || f.source.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let label = if siblings > 1 && !f.inner.is_empty() {
        format!("{name} / {}", f.inner)
    } else {
        name
    };
    (cut_middle(&label, NAME_CHARS), f.location())
}

/// A line of the clip list: a group's header or a clip (an index into the workspace's
/// clips).
#[derive(Clone, Debug, PartialEq)]
enum Row {
    Group {
        key: usize,
        title: String,
        hover: String,
        open: bool,
    },
    Clip(usize),
}

/// What the list's lines were made from: they are made again only when one changes, so a
/// whole game's 20,000 clips cost nothing on the frames between.
#[derive(Clone, Debug, PartialEq)]
struct RowsKey {
    /// The workspace (its address) and its number of clips.
    workspace: (usize, usize),
    filter: String,
    kind: Option<ClipKind>,
    by_rig: bool,
    closed: Vec<usize>,
}

/// The list's lines, kept in egui's memory between frames.
#[derive(Clone, Default)]
struct ListState {
    key: Option<Arc<RowsKey>>,
    rows: Arc<Vec<Row>>,
    /// The groups folded shut, for the current grouping (sorted).
    closed: Vec<usize>,
    by_rig: bool,
}

/// The clip list with its search box, kind filter, grouping and problems. Only the lines in
/// view are drawn, and the lines are made again only when the filter, the grouping or a
/// fold changes.
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
    let id = ui.id().with("clip list");
    let mut state: ListState = ui.data_mut(|d| d.get_temp(id)).unwrap_or_default();
    if state.by_rig != selection.group_by_rig {
        state.closed.clear();
        state.by_rig = selection.group_by_rig;
    }
    let key = RowsKey {
        workspace: (Arc::as_ptr(ws) as usize, ws.clips.len()),
        filter: selection.filter.clone(),
        kind: selection.kind,
        by_rig: selection.group_by_rig,
        closed: state.closed.clone(),
    };
    if state.key.as_deref() != Some(&key) {
        state.rows = Arc::new(rows(ws, index, &key));
        state.key = Some(Arc::new(key));
    }
    let rows = Arc::clone(&state.rows);
    let scroll = std::mem::take(&mut selection.scroll_to_clip);
    let row_height = ui.spacing().interact_size.y;
    let mut area = egui::ScrollArea::vertical()
        .id_salt("clips")
        .max_height(ui.available_height() * 0.8);
    let shown_row = || {
        let at = selection.clip?;
        let i = ws.clips.iter().position(|c| c.at == at)?;
        rows.iter().position(|r| *r == Row::Clip(i))
    };
    if let Some(row) = shown_row().filter(|_| scroll) {
        // Only the lines in view are drawn, so the shown clip is scrolled to by its place.
        let step = row_height + ui.spacing().item_spacing.y;
        let centre = ui.available_height() * 0.4;
        area = area.vertical_scroll_offset((row as f32 * step - centre).max(0.0));
    }
    area.show_rows(ui, row_height, rows.len(), |ui, range| {
        // One line each: the list is laid out by lines of one height.
        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
        for row in &rows[range] {
            match row {
                Row::Group {
                    key,
                    title,
                    hover,
                    open,
                } => {
                    let arrow = if *open { "⏷" } else { "⏵" };
                    let header = ui
                        .selectable_label(
                            false,
                            egui::RichText::new(format!("{arrow} {title}")).strong(),
                        )
                        .on_hover_text(hover);
                    if header.clicked() {
                        match state.closed.binary_search(key) {
                            Ok(at) => {
                                state.closed.remove(at);
                            }
                            Err(at) => state.closed.insert(at, *key),
                        }
                    }
                }
                Row::Clip(i) => {
                    ui.horizontal(|ui| {
                        ui.add_space(ui.spacing().indent);
                        clip_row(ui, &ws.clips[*i], selection);
                    });
                }
            }
        }
    });
    ui.data_mut(|d| d.insert_temp(id, state));
    problems(ui, ws);
}

/// The list's lines: each group that holds a listed clip, then its clips unless it is folded
/// shut.
fn rows(ws: &Workspace, index: &ClipIndex, key: &RowsKey) -> Vec<Row> {
    let listed = index.listed(ws, &key.filter, key.kind, key.by_rig);
    // How many opened files each file on disk holds, counted once.
    let mut siblings: HashMap<&Path, usize> = HashMap::new();
    for f in &ws.files {
        *siblings.entry(&*f.source).or_default() += 1;
    }
    let mut out = Vec::with_capacity(listed.len() * 2);
    // `listed` is in group order: each group is a run of it.
    for run in listed
        .chunk_by(|&a, &b| index.group_of(ws, a, key.by_rig) == index.group_of(ws, b, key.by_rig))
    {
        let group = index.group_of(ws, run[0], key.by_rig);
        let (title, hover) = group_title(ws, group, key.by_rig, &siblings);
        let open = key.closed.binary_search(&group).is_err();
        out.push(Row::Group {
            key: group,
            title,
            hover,
            open,
        });
        if open {
            out.extend(run.iter().map(|&i| Row::Clip(i)));
        }
    }
    out
}

/// A group's title and hover text: its file, or the rig its clips play on.
fn group_title(
    ws: &Workspace,
    key: usize,
    by_rig: bool,
    siblings: &HashMap<&Path, usize>,
) -> (String, String) {
    let count = |file: usize| {
        ws.files
            .get(file)
            .and_then(|f| siblings.get(&*f.source))
            .copied()
            .unwrap_or(1)
    };
    if !by_rig {
        return file_label(ws, key, count(key));
    }
    match ws.rigs.get(key) {
        Some(rig) => {
            let (file, location) = file_label(ws, rig.at.file, count(rig.at.file));
            let title = format!("plays on {}", cut_middle(&rig.name, NAME_CHARS));
            (title, format!("{} in {file} ({location})", rig.name))
        }
        None => (
            "no rig found".to_string(),
            "no opened rig matches these clips' paths".to_string(),
        ),
    }
}

/// The clips of the files read so far, while the others are read: their names by file,
/// with the search applied (they are picked once every file is read).
pub fn found_so_far(ui: &mut egui::Ui, found: &FoundSoFar, filter: &mut String) {
    ui.heading("Clips");
    ui.horizontal(|ui| {
        ui.label("search");
        ui.text_edit_singleline(filter)
            .on_hover_text("clip names containing this (any case)");
    });
    let shown = found.matching(filter);
    ui.weak(format!(
        "{} of {} clips found so far; they can be picked once every file is read",
        shown.len(),
        found.clips.len()
    ));
    let row_height = ui.spacing().interact_size.y;
    egui::ScrollArea::vertical()
        .id_salt("clips found")
        .max_height(ui.available_height() * 0.8)
        .show_rows(ui, row_height, shown.len(), |ui, range| {
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
            for &i in &shown[range] {
                let (file, name, _) = &found.clips[i];
                ui.label(cut_middle(name, NAME_CHARS))
                    .on_hover_text(&found.files[*file]);
            }
        });
}

/// One clip's row: the pin button and its name, kind of wrap and length.
fn clip_row(ui: &mut egui::Ui, entry: &ClipEntry, selection: &mut Selection) {
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
    let (_, file) = file_label(&library.main, at.file, 1);
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
    use clipscope_authoring::shared_data::data;
    use clipscope_core::{Detail, OpenOptions};

    /// The list's lines on the shared binary files: each file a header followed by its clips
    /// in order, every clip once; a folded file keeps its header and hides its clips; the
    /// search keeps the matching clips and their headers; grouped by rig, the headers name
    /// the rigs the clips play on.
    #[test]
    fn the_list_is_a_header_per_group_with_its_clips_and_a_fold_hides_them() {
        let Some(binary) = data("binary") else {
            return;
        };
        let options = OpenOptions {
            detail: Detail::Full,
            ..OpenOptions::default()
        };
        let ws = Workspace::open(&[binary], &options);
        let index = ClipIndex::new(&ws);
        let key = |filter: &str, by_rig: bool, closed: Vec<usize>| RowsKey {
            workspace: (0, ws.clips.len()),
            filter: filter.into(),
            kind: None,
            by_rig,
            closed,
        };
        let all = rows(&ws, &index, &key("", false, Vec::new()));
        let mut seen = vec![0; ws.clips.len()];
        let mut groups = Vec::new();
        for row in &all {
            match row {
                Row::Group { key, open, .. } => {
                    assert!(*open);
                    groups.push(*key);
                }
                Row::Clip(i) => {
                    assert_eq!(Some(&ws.clips[*i].at.file), groups.last(), "{i}");
                    seen[*i] += 1;
                }
            }
        }
        assert!(seen.iter().all(|&n| n == 1), "{seen:?}");
        assert!(groups.len() >= 5 && groups.is_sorted(), "{groups:?}");
        let folded = rows(&ws, &index, &key("", false, vec![groups[0]]));
        let hidden = ws.clips.iter().filter(|c| c.at.file == groups[0]).count();
        assert_eq!(folded.len(), all.len() - hidden);
        assert!(matches!(&folded[0], Row::Group { open: false, .. }));
        let name = ws.clips[0].name.to_uppercase();
        let found = rows(&ws, &index, &key(&name, false, Vec::new()));
        assert!(found.contains(&Row::Clip(0)) && found.len() < all.len());
        for row in &found {
            if let Row::Clip(i) = row {
                assert!(ws.clips[*i].name.to_uppercase().contains(&name));
            }
        }
        let by_rig = rows(&ws, &index, &key("", true, Vec::new()));
        assert_eq!(
            by_rig.len(),
            all.len() - groups.len()
                + by_rig
                    .iter()
                    .filter(|r| matches!(r, Row::Group { .. }))
                    .count()
        );
        for row in &by_rig {
            if let Row::Group { key, title, .. } = row {
                match ws.rigs.get(*key) {
                    Some(rig) => assert!(title.contains(&rig.name), "{title}"),
                    None => assert_eq!(title, "no rig found"),
                }
            }
        }
    }

    #[test]
    fn long_names_are_cut_in_the_middle() {
        assert_eq!(cut_middle("short", 10), "short");
        let cut = cut_middle("CAB-0123456789abcdef0123456789abcdef", 12);
        assert_eq!(cut.chars().count(), 12);
        assert_eq!(cut, "CAB-0…abcdef");
    }
}
