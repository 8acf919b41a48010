//! [`write_controller`] and [`write_mask`]: a workspace's AnimatorController (built class 91
//! or text) back into Unity's `.controller` text, with the `.mask` files its layers use and
//! a report; the clips its motions play are referenced by the guid `unity` writes them with
//! ([`object_guid`]) and fileID 7400000.

use std::collections::BTreeSet;

use serde::Serialize;

use super::controller_text::{ControllerDocs, ControllerRefs, Counts, controller_text};
use super::emit::TextRef;
use super::mask::{MASK_FILE_ID, MaskReport, MaskText, mask_text};
use super::{ANIM_FILE_ID, WriteError, guid, object_guid, source_key};
use crate::animator::model::{ClipMotion, ClipSource, Controller};
use crate::unity::{Int, PPtr};
use crate::workspace::{ControllerEntry, ObjectRef, Workspace};

/// What was written for one controller (the `--report` entry).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ControllerReport {
    /// The source file (and its name inside a container).
    pub source: String,
    pub controller: String,
    pub path_id: i64,
    /// The file written, set by whoever writes it to disk.
    pub written: Option<String>,
    #[serde(flatten)]
    pub counts: Counts,
    /// Clips its motions play that are written beside it.
    pub clips: usize,
    /// Masks written for its layers.
    pub masks: Vec<MaskReport>,
    /// Names the controller's string table does not hold, written in hex.
    pub names_not_found: Vec<String>,
    /// Clip motions whose clip is not loaded: written with the reference they had (a text
    /// file's guid) or a derived guid (a built file's clip in a file not opened).
    pub missing_clips: Vec<String>,
    /// What the model held that is not written, or written with defaults.
    pub dropped: Vec<String>,
}

/// A written `.controller`.
#[derive(Clone, Debug)]
pub struct ControllerText {
    /// The controller's name (the file name before it is made unique and safe).
    pub name: String,
    pub text: String,
    /// The guid for its `.meta`, derived from (source file, path id).
    pub guid: String,
    /// The `.mask` files its layers reference (write them beside it, with their guids).
    pub masks: Vec<MaskText>,
    /// The clips its motions play, each once: write them with [`super::write_anim`] so the
    /// references resolve.
    pub clips: Vec<ObjectRef>,
    pub report: ControllerReport,
}

/// What a build does not keep and the text writes at Unity's defaults.
const DEFAULTED: &str = "graph positions on a grid";

/// Controller `index` (into [`Workspace::controllers`]) and where it was read from.
pub(super) fn entry(
    ws: &Workspace,
    index: usize,
) -> Result<(&ControllerEntry, String), WriteError> {
    let entry = ws
        .controllers
        .get(index)
        .ok_or(WriteError::NoController { index })?;
    let source = ws
        .files
        .get(entry.at.file)
        .map(|f| f.location())
        .unwrap_or_default();
    Ok((entry, source))
}

/// The decoded model of controller `index` (into [`Workspace::controllers`]).
fn model(ws: &Workspace, index: usize) -> Result<(&Controller, ObjectRef, String), WriteError> {
    let (entry, source) = entry(ws, index)?;
    let model = entry.model.as_ref().map_err(|e| WriteError::NotDecoded {
        file: source.clone(),
        name: entry.name.clone(),
        path_id: entry.at.path_id,
        reason: e.clone(),
    })?;
    Ok((model, entry.at, source))
}

/// The guid of the `.mask` written for layer `layer` of the controller at `at`.
fn mask_guid(ws: &Workspace, at: ObjectRef, layer: usize) -> String {
    let key = format!("{}#mask{layer}", source_key(ws, at.file));
    guid::derived_guid(&key, at.path_id)
}

/// Whether a layer has a mask to write.
fn has_mask(layer: &crate::animator::model::Layer) -> bool {
    !layer.mask.is_empty() || layer.body_mask.is_some()
}

/// The `.mask` text of layer `layer` of controller `index`, with its report; `Ok(None)` when
/// the layer has no mask.
pub fn write_mask(
    ws: &Workspace,
    index: usize,
    layer: usize,
) -> Result<Option<MaskText>, WriteError> {
    let (model, at, _) = model(ws, index)?;
    mask_of(ws, index, at, model, layer)
}

/// [`write_mask`] of `model`, controller `index` (at `at`) decoded.
fn mask_of(
    ws: &Workspace,
    index: usize,
    at: ObjectRef,
    model: &Controller,
    layer: usize,
) -> Result<Option<MaskText>, WriteError> {
    let l = model
        .layers
        .get(layer)
        .ok_or(WriteError::NoLayer { index, layer })?;
    if !has_mask(l) {
        return Ok(None);
    }
    let name = format!("{} {}", model.name, l.name);
    let (text, report) = mask_text(&name, &l.name, &l.mask, l.body_mask.as_deref());
    Ok(Some(MaskText {
        name,
        text,
        guid: mask_guid(ws, at, layer),
        report,
    }))
}

/// The `.controller` text of controller `index` (into [`Workspace::controllers`]) with its
/// masks, the clips it plays and its report.
pub fn write_controller(ws: &Workspace, index: usize) -> Result<ControllerText, WriteError> {
    let (model, at, source) = model(ws, index)?;
    write_controller_of(ws, (index, at, source), model)
}

/// The `.controller` text of `model`, controller `index` decoded (by the workspace, or again
/// with [`Workspace::decode_controller`] when the workspace keeps only its outline), with
/// its masks, the clips it plays and its report.
pub fn write_controller_model(
    ws: &Workspace,
    index: usize,
    model: &Controller,
) -> Result<ControllerText, WriteError> {
    let (entry, source) = entry(ws, index)?;
    write_controller_of(ws, (index, entry.at, source), model)
}

/// [`write_controller`] of `model`: controller `index`, read from `at` in `source`.
fn write_controller_of(
    ws: &Workspace,
    (index, at, source): (usize, ObjectRef, String),
    model: &Controller,
) -> Result<ControllerText, WriteError> {
    let mut masks = Vec::new();
    let mut mask_refs = Vec::with_capacity(model.layers.len());
    let mut dropped = vec![DEFAULTED.to_string()];
    for (i, layer) in model.layers.iter().enumerate() {
        if let Some(why) = &layer.mask_asset {
            dropped.push(format!("layer {}: mask not written: {why}", layer.name));
        }
        match mask_of(ws, index, at, model, i)? {
            Some(mask) => {
                mask_refs.push(Some(TextRef::Asset {
                    file_id: MASK_FILE_ID,
                    guid: mask.guid.clone(),
                    kind: 2,
                }));
                masks.push(mask);
            }
            None => mask_refs.push(None),
        }
    }
    let missing = std::cell::RefCell::new(BTreeSet::new());
    let clips = std::cell::RefCell::new(BTreeSet::new());
    let clip_ref = |c: &ClipMotion| -> TextRef {
        if let Some(r) = &c.resolved {
            let target = ObjectRef {
                file: r.file,
                path_id: r.path_id,
            };
            if ws.has_clip(target) {
                clips.borrow_mut().insert(target);
                return TextRef::Asset {
                    file_id: ANIM_FILE_ID,
                    guid: object_guid(ws, target),
                    kind: 2,
                };
            }
        }
        let asset = |file_id: i64, guid: String| TextRef::Asset {
            file_id,
            guid,
            kind: 2,
        };
        let written = match &c.source {
            ClipSource::Binary { file_id, path_id } => {
                let pptr = PPtr {
                    m_FileID: Int(*file_id),
                    m_PathID: Int(*path_id),
                };
                match ws.resolve(at.file, pptr) {
                    Some(target) if ws.has_clip(target) => {
                        clips.borrow_mut().insert(target);
                        return asset(ANIM_FILE_ID, object_guid(ws, target));
                    }
                    Some(target) => asset(ANIM_FILE_ID, object_guid(ws, target)),
                    None => {
                        let key = format!("{}#{file_id}", source_key(ws, at.file));
                        asset(ANIM_FILE_ID, guid::derived_guid(&key, *path_id))
                    }
                }
            }
            ClipSource::Text {
                guid: Some(g),
                file_id,
                ..
            } => asset(*file_id, g.clone()),
            ClipSource::Text {
                guid: None,
                file_id,
                ..
            } => TextRef::Local(*file_id),
            ClipSource::Missing(_) => TextRef::Null,
        };
        missing.borrow_mut().insert(c.source.describe());
        written
    };
    let refs = ControllerRefs {
        clip: &clip_ref,
        masks: &mask_refs,
    };
    let ControllerDocs {
        text,
        counts,
        names_not_found,
        notes,
    } = controller_text(model, &refs);
    dropped.extend(notes);
    let clips: Vec<ObjectRef> = clips.into_inner().into_iter().collect();
    let report = ControllerReport {
        source,
        controller: model.name.clone(),
        path_id: at.path_id,
        written: None,
        counts,
        clips: clips.len(),
        masks: masks.iter().map(|m| m.report.clone()).collect(),
        names_not_found: names_not_found.into_iter().collect(),
        missing_clips: missing.into_inner().into_iter().collect(),
        dropped,
    };
    Ok(ControllerText {
        name: model.name.clone(),
        text,
        guid: object_guid(ws, at),
        masks,
        clips,
        report,
    })
}
