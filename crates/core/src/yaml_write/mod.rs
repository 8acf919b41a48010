//! The writing side of [`crate::yaml`]: built clips back into Unity's text `.anim` files,
//! exactly, and controllers into `.controller` and `.mask` files, with a report of what was
//! written and how exact it is.
//!
//! One function per file kind, each taking a [`Workspace`] and returning the text and its
//! report: [`write_anim`] ([`ClipReport`]), [`write_controller`] ([`ControllerReport`], with
//! the controller's masks and the clips it plays) and [`write_mask`]; the CLI (`clipscope
//! unity`) and the viewer call the same functions.
//!
//! - Keys come from the built curves, not resampled ([`keys`]): streamed and legacy keys as
//!   stored, dense frames as linear keys, a constant as one key; a vector's components get
//!   shared key times by splitting their segments where another component has a key.
//! - Names come from what the workspace knows ([`names`]); what stays unknown is written so
//!   the file still loads (`unresolved/0x1234abcd`) and is listed in the report. Script
//!   curves reference their scripts by derived guids, listed in the report ([`script`]).
//! - The report's `max_error` is measured (its `measure` module): the text read back by
//!   [`crate::yaml::read_yaml`]'s reader and evaluated by Unity's keyframe rules, against the
//!   built clip.

pub mod controller;
pub mod controller_text;
mod emit;
pub mod file_id;
pub mod file_name;
mod float;
pub mod guid;
pub mod keys;
mod layout;
pub mod mask;
mod measure;
pub mod names;
mod out;
pub mod override_text;
mod plan;
mod scalar;
pub mod script;

use serde::Serialize;

pub use controller::{
    ControllerReport, ControllerText, write_controller, write_controller_model, write_mask,
};
pub use emit::TextRef;
pub use file_id::CONTROLLER_FILE_ID;
pub use float::f32_text;
pub use layout::Layout;
pub use mask::{MASK_FILE_ID, MaskReport, MaskText};
pub use names::NameBook;
pub use out::recycle;
pub use override_text::{OVERRIDE_FILE_ID, OverrideReport, OverrideText, write_override};
pub use script::{SCRIPT_FILE_ID, ScriptReport};

use crate::unity::{Int, PPtr};
use crate::version::UnityVersion;
use crate::workspace::{ObjectRef, Workspace};

/// The main object's file id in a `.anim` file.
pub const ANIM_FILE_ID: i64 = 7_400_000;

/// Options for writing.
#[derive(Clone, Debug, Default)]
pub struct WriteOptions {
    /// The Unity version whose serialized layout is written; `None`: the source's, when it
    /// is 2019.4 or newer, else 2019.4.
    pub unity_version: Option<UnityVersion>,
    /// How the report's `max_error` is measured.
    pub measure: Measure,
}

/// How a written clip's error is measured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// The text read back by clipscope's YAML reader and decoded, against the built clip:
    /// everything between the built curves and what a reader of the file gets.
    #[default]
    ReadBack,
    /// The keys as written, before they become text, against the built clip: the writer's
    /// own error at a fraction of the cost (floats are spelled to read back to the same
    /// bits, so only the reader is left out).
    Keys,
    /// Not measured (`max_error` is then `None`).
    Skip,
}

/// Why a clip could not be written at all.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WriteError {
    #[error("no clip at file {file}, path id {path_id}")]
    NoClip { file: usize, path_id: i64 },
    #[error("no controller number {index} in the workspace")]
    NoController { index: usize },
    #[error("controller number {index} has no layer {layer}")]
    NoLayer { index: usize, layer: usize },
    #[error("{file}: {name:?} (path id {path_id}) was not decoded: {reason}")]
    NotDecoded {
        file: String,
        name: String,
        path_id: i64,
        reason: String,
    },
}

/// What was written for one clip (the `--report` entry).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ClipReport {
    /// The source file (and its name inside a container).
    pub source: String,
    pub clip: String,
    pub path_id: i64,
    /// The file written, set by whoever writes it to disk.
    pub written: Option<String>,
    /// The Unity version whose layout was written.
    pub unity_version: String,
    /// Scalar curves written.
    pub curves: usize,
    /// Keys (or frames, or constants) of the built curves.
    pub keys_in: usize,
    /// Keys written, over every component.
    pub keys_out: usize,
    /// Largest measured difference, relative to `max(1, |value|)`; `None` when not measured.
    pub max_error: Option<f32>,
    /// How `max_error` was measured.
    pub measured: Measure,
    /// `max_error` after allowing each sample the f32 rounding of its time (dense curves
    /// evaluated late in a long clip): the writer's own error.
    pub max_error_beyond_time_rounding: Option<f32>,
    /// Why the measurement failed, where it did.
    pub measure_error: Option<String>,
    /// Path hashes no rig hierarchy or Avatar name table knows (written as
    /// `unresolved/0x…`).
    pub unresolved_paths: Vec<String>,
    /// Property hashes no table knows (written as `0x…`).
    pub unresolved_attributes: Vec<String>,
    /// Object references that name nothing loaded (written with a derived guid), scripts
    /// included.
    pub unresolved_objects: usize,
    /// The scripts its MonoBehaviour curves reference, written with derived guids: point
    /// them at the project's own scripts.
    pub scripts: Vec<ScriptReport>,
    /// What the built clip had that is not written, or written with defaults.
    pub dropped: Vec<String>,
    /// Clip settings a build does not keep, written at Unity's defaults.
    pub defaulted_settings: Vec<&'static str>,
}

/// A written `.anim`.
#[derive(Clone, Debug)]
pub struct AnimText {
    /// The clip's name (the file name before it is made unique and safe).
    pub name: String,
    pub text: String,
    /// The guid for its `.meta`, derived from (source file, path id).
    pub guid: String,
    pub report: ClipReport,
}

/// Settings the writer cannot know from a build: the additive reference pose (the muscle
/// clip keeps none of it) and the bounds.
const DEFAULTED: &[&str] = &["m_AdditiveReferencePoseClip", "m_Bounds"];

/// Where the object at `at` was read from, for messages.
fn source_location(ws: &Workspace, at: ObjectRef) -> String {
    ws.files
        .get(at.file)
        .map(|f| f.location())
        .unwrap_or_default()
}

/// The name a file is known by in guids: its file name and inner name, so the folder it
/// lies in does not change the guids.
pub fn source_key(ws: &Workspace, file: usize) -> String {
    ws.files.get(file).map_or_else(String::new, |f| {
        let name = f
            .source
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        format!("{name}/{}", f.inner)
    })
}

/// The guid of the asset written for an object.
pub fn object_guid(ws: &Workspace, at: ObjectRef) -> String {
    guid::derived_guid(&source_key(ws, at.file), at.path_id)
}

/// What a clip's (file id, path id) reference points at.
enum Target {
    Null,
    /// A loaded object.
    Loaded(ObjectRef),
    /// An object not loaded: the guid derived from the reference itself.
    Unloaded(String),
}

impl Target {
    /// The target of `reference` made in file `file`.
    fn of(ws: &Workspace, file: usize, (file_id, path_id): (i32, i64)) -> Target {
        let pptr = PPtr {
            m_FileID: Int(i64::from(file_id)),
            m_PathID: Int(path_id),
        };
        if pptr.is_null() {
            return Target::Null;
        }
        match ws.resolve(file, pptr) {
            Some(at) => Target::Loaded(at),
            None => Target::Unloaded(unloaded_guid(ws, file, (file_id, path_id))),
        }
    }
}

/// The guid written for a reference that names nothing loaded, derived from the reference.
fn unloaded_guid(ws: &Workspace, file: usize, (file_id, path_id): (i32, i64)) -> String {
    guid::derived_guid(&format!("{}#{file_id}", source_key(ws, file)), path_id)
}

/// The `.anim` text of the clip at `at`, with its report.
pub fn write_anim(
    ws: &Workspace,
    names: &NameBook,
    at: ObjectRef,
    options: &WriteOptions,
) -> Result<AnimText, WriteError> {
    let entry = ws.clip(at).ok_or(WriteError::NoClip {
        file: at.file,
        path_id: at.path_id,
    })?;
    let clip = entry.data.as_ref().map_err(|e| WriteError::NotDecoded {
        file: source_location(ws, at),
        name: entry.name.clone(),
        path_id: at.path_id,
        reason: e.to_string(),
    })?;
    write_anim_of(ws, names, at, clip, options)
}

/// The `.anim` text of `clip`, the clip at `at` decoded (by the workspace, or again with
/// [`Workspace::decode_clips`] when the workspace keeps only an index), with its report.
pub fn write_anim_of(
    ws: &Workspace,
    names: &NameBook,
    at: ObjectRef,
    clip: &crate::clip::ClipData,
    options: &WriteOptions,
) -> Result<AnimText, WriteError> {
    let source = source_location(ws, at);
    if clip.summary_only.is_some() {
        return Err(WriteError::NotDecoded {
            file: source,
            name: clip.name.clone(),
            path_id: at.path_id,
            reason: "the workspace keeps only its summary (decode it with Workspace::decode_clips)"
                .into(),
        });
    }
    let version = options.unity_version.clone().unwrap_or_else(|| {
        let source = ws
            .files
            .get(at.file)
            .and_then(|f| f.summary.as_ref())
            .map(|s| s.effective_version());
        Layout::version_for(source)
    });
    let layout = Layout::of(&version);
    let plan = plan::Plan::of(clip, names);
    let mut unresolved_objects = 0;
    let mut reference = |file_id: i32, path_id: i64| {
        let guid = match Target::of(ws, at.file, (file_id, path_id)) {
            Target::Null => return TextRef::Null,
            Target::Loaded(target) => object_guid(ws, target),
            Target::Unloaded(guid) => {
                unresolved_objects += 1;
                guid
            }
        };
        TextRef::Asset {
            file_id: path_id,
            guid,
            kind: 3,
        }
    };
    let pptr: Vec<TextRef> = clip
        .pptr_mapping
        .iter()
        .map(|&(f, p)| reference(f, p))
        .collect();
    let mut script_refs = script::ScriptRefs::new(ws, at.file);
    let scripts: Vec<TextRef> = plan
        .groups
        .iter()
        .map(|g| script_refs.reference(g.binding.script))
        .collect();
    let events: Vec<TextRef> = clip
        .events
        .iter()
        .map(|e| reference(e.object.0, e.object.1))
        .collect();
    let refs = emit::Refs {
        pptr: &pptr,
        scripts: &scripts,
        events: &events,
    };
    let text = emit::anim_text(clip, &plan, &refs, layout);
    let (measured, measure_error) = match options.measure {
        Measure::Skip => (None, None),
        Measure::Keys => (Some(measure::keys(clip, &plan, &pptr)), None),
        Measure::ReadBack => match measure::read_back(clip, &plan, &pptr, &text) {
            Ok(m) => (Some(m), None),
            Err(e) => (None, Some(e)),
        },
    };
    let mut dropped = plan.dropped.clone();
    let approximate: usize = plan
        .groups
        .iter()
        .flat_map(|g| &g.curves)
        .map(|c| c.approximate_splits)
        .sum();
    if approximate > 0 {
        dropped.push(format!(
            "{approximate} weighted segments were split at another component's key time by value and slope (not exact)"
        ));
    }
    let report = ClipReport {
        source,
        clip: clip.name.clone(),
        path_id: at.path_id,
        written: None,
        unity_version: version.to_string(),
        curves: plan.curve_count(),
        keys_in: plan.keys_in(),
        keys_out: plan.keys_out(),
        max_error: measured.map(|m| m.max_error),
        measured: options.measure,
        max_error_beyond_time_rounding: measured.map(|m| m.beyond_time_rounding),
        measure_error,
        unresolved_paths: plan.unresolved_paths.clone(),
        unresolved_attributes: plan.unresolved_attributes.clone(),
        unresolved_objects: unresolved_objects + script_refs.unresolved(),
        scripts: script_refs.scripts,
        dropped,
        defaulted_settings: if clip.legacy {
            Vec::new()
        } else {
            DEFAULTED.to_vec()
        },
    };
    Ok(AnimText {
        name: clip.name.clone(),
        text,
        guid: object_guid(ws, at),
        report,
    })
}
