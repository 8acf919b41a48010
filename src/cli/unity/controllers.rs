//! `unity`'s controllers: each override controller's base added to what is written, each
//! controller's text made on any core (its state machines decoded again), and the files
//! saved with their lines.

use std::collections::BTreeSet;
use std::path::PathBuf;

use clipscope_core::animator::model::Controller;
use clipscope_core::workspace::{ObjectRef, Workspace};
use clipscope_core::yaml_write::{
    CONTROLLER_FILE_ID, ControllerReport, ControllerText, MASK_FILE_ID, OVERRIDE_FILE_ID,
    OverrideText, write_controller, write_controller_model, write_override,
};

use super::layout::Layout;
use super::names::UniqueNames;
use super::{source_folder, write_asset};

/// The controllers asked for and, for each override controller among them, its base
/// (and the base's base): an `.overrideController` names its base by guid.
pub(super) fn with_bases(ws: &Workspace, controllers: Vec<usize>) -> Vec<usize> {
    let mut set: BTreeSet<usize> = controllers.iter().copied().collect();
    let mut stack = controllers;
    while let Some(i) = stack.pop() {
        let Some(o) = &ws.controllers[i].overrides else {
            continue;
        };
        if let Some(base) = ws.controllers.iter().position(|c| c.at == o.base)
            && set.insert(base)
        {
            stack.push(base);
        }
    }
    set.into_iter().collect()
}

/// A controller's text, made on any core.
pub(super) enum Made {
    Override(OverrideText),
    Controller(ControllerText),
}

/// Controller `index`'s text: an `.overrideController`, or a `.controller` of `model`, its
/// state machines decoded again; one that did not decode gives its reason as writing
/// reports it.
pub(super) fn make_controller(
    ws: &Workspace,
    index: usize,
    model: Result<Controller, String>,
) -> Result<Made, String> {
    let written = if ws.controllers[index].overrides.is_some() {
        write_override(ws, index).map(Made::Override)
    } else {
        match model {
            Ok(model) => write_controller_model(ws, index, &model).map(Made::Controller),
            Err(_) if ws.controllers[index].model.is_err() => {
                write_controller(ws, index).map(Made::Controller)
            }
            Err(e) => return Err(e),
        }
    };
    written.map_err(|e| e.to_string())
}

/// Writes one `.overrideController` and its `.meta`, printing its line; the report with
/// `written` set, the folder, and the clips of its pairs.
pub(super) fn save_override(
    ws: &Workspace,
    layout: &Layout,
    at: ObjectRef,
    o: OverrideText,
    folders: &mut UniqueNames,
) -> Result<(serde_json::Value, PathBuf, Vec<ObjectRef>), String> {
    let dir = source_folder(ws, layout, at);
    let path = write_asset(
        &dir,
        &o.name,
        "overrideController",
        &o.text,
        &o.guid,
        OVERRIDE_FILE_ID,
        folders,
    )?;
    let mut report = o.report;
    report.written = Some(path.display().to_string());
    println!(
        "wrote {}: overrides {:?}, {} clips replaced",
        path.display(),
        report.base,
        report.overrides
    );
    let value = serde_json::to_value(&report).map_err(|e| e.to_string())?;
    Ok((value, dir, o.clips))
}

/// Writes one `.controller` and its masks (each with its `.meta`), printing its line; the
/// report with `written` set, the folder, and the clips it plays.
pub(super) fn save_controller(
    ws: &Workspace,
    layout: &Layout,
    at: ObjectRef,
    controller: ControllerText,
    folders: &mut UniqueNames,
) -> Result<(serde_json::Value, PathBuf, Vec<ObjectRef>), String> {
    let dir = source_folder(ws, layout, at);
    let mut report = controller.report;
    for (mask, mask_report) in controller.masks.iter().zip(&mut report.masks) {
        let path = write_asset(
            &dir,
            &mask.name,
            "mask",
            &mask.text,
            &mask.guid,
            MASK_FILE_ID,
            folders,
        )?;
        mask_report.written = Some(path.display().to_string());
    }
    let path = write_asset(
        &dir,
        &controller.name,
        "controller",
        &controller.text,
        &controller.guid,
        CONTROLLER_FILE_ID,
        folders,
    )?;
    report.written = Some(path.display().to_string());
    println!("{}", controller_line(&report));
    for d in report.dropped.iter().skip(1) {
        eprintln!("warning: {}: {d}", path.display());
    }
    let value = serde_json::to_value(&report).map_err(|e| e.to_string())?;
    Ok((value, dir, controller.clips))
}

/// `wrote PATH: S states, T transitions, B blend trees, M masks, C clips[, N names not
/// found][, K clips not loaded]`.
fn controller_line(r: &ControllerReport) -> String {
    let c = &r.counts;
    let mut line = format!(
        "wrote {}: {} layers, {} states, {} transitions, {} blend trees, {} masks, {} clips",
        r.written.as_deref().unwrap_or(""),
        c.layers,
        c.states,
        c.state_transitions + c.transitions,
        c.blend_trees,
        r.masks.len(),
        r.clips
    );
    if !r.names_not_found.is_empty() {
        line.push_str(&format!(", {} names not found", r.names_not_found.len()));
    }
    if !r.missing_clips.is_empty() {
        line.push_str(&format!(", {} clips not loaded", r.missing_clips.len()));
    }
    line
}
