//! [`write_override`]: an override controller (`AnimatorOverrideController`, class 221) back
//! into Unity's `.overrideController` text: `m_Controller` pointing at its base controller
//! as `unity` writes it (guid [`object_guid`], fileID 9100000, or 22100000 for a base that is
//! itself an override controller) and one `m_Clips` pair per replaced clip, both clips as
//! `unity` writes them (fileID 7400000).

use serde::Serialize;

use super::file_id::CONTROLLER_FILE_ID;
use super::{ANIM_FILE_ID, WriteError, object_guid};
use crate::workspace::{ObjectRef, Workspace};

/// The fileID of an `.overrideController`'s one object (class 221).
pub const OVERRIDE_FILE_ID: i64 = 22_100_000;

/// What was written for one override controller (the `--report` entry).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct OverrideReport {
    /// The source file (and its name inside a container).
    pub source: String,
    pub controller: String,
    pub path_id: i64,
    /// The file written, set by whoever writes it to disk.
    pub written: Option<String>,
    /// Its base controller's name.
    pub base: String,
    /// Clips replaced.
    pub overrides: usize,
}

/// A written `.overrideController`.
#[derive(Clone, Debug)]
pub struct OverrideText {
    /// The override controller's name (the file name before it is made unique and safe).
    pub name: String,
    pub text: String,
    /// The guid for its `.meta`, derived from (source file, path id).
    pub guid: String,
    /// Its base controller: write it too ([`super::write_controller`], or this function for
    /// an override of an override) so `m_Controller` resolves.
    pub base: ObjectRef,
    /// The clips of its pairs: write them with [`super::write_anim`].
    pub clips: Vec<ObjectRef>,
    pub report: OverrideReport,
}

/// The `.overrideController` text of controller `index` (into
/// [`Workspace::controllers`]), which must be an override controller whose base is loaded.
pub fn write_override(ws: &Workspace, index: usize) -> Result<OverrideText, WriteError> {
    let (entry, source) = super::controller::entry(ws, index)?;
    let not_written = |reason: String| WriteError::NotDecoded {
        file: source.clone(),
        name: entry.name.clone(),
        path_id: entry.at.path_id,
        reason,
    };
    let Some(overrides) = &entry.overrides else {
        return Err(not_written(match &entry.model {
            Err(e) => e.clone(),
            Ok(_) => "not an override controller".into(),
        }));
    };
    let base = ws
        .controllers
        .iter()
        .find(|c| c.at == overrides.base)
        .ok_or_else(|| not_written("its base controller is not loaded".into()))?;
    let base_file_id = if base.overrides.is_some() {
        OVERRIDE_FILE_ID
    } else {
        CONTROLLER_FILE_ID
    };
    let asset = |file_id: i64, at: ObjectRef| {
        format!(
            "{{fileID: {file_id}, guid: {}, type: 2}}",
            object_guid(ws, at)
        )
    };
    let mut text = String::from(
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!221 &22100000\nAnimatorOverrideController:\n",
    );
    text.push_str("  m_ObjectHideFlags: 0\n  m_CorrespondingSourceObject: {fileID: 0}\n");
    text.push_str("  m_PrefabInstance: {fileID: 0}\n  m_PrefabAsset: {fileID: 0}\n");
    text.push_str("  m_Name: ");
    super::scalar::push_str_scalar(&mut text, &entry.name);
    text.push('\n');
    text.push_str(&format!(
        "  m_Controller: {}\n",
        asset(base_file_id, overrides.base)
    ));
    if overrides.pairs.is_empty() {
        text.push_str("  m_Clips: []\n");
    } else {
        text.push_str("  m_Clips:\n");
        for &(original, with) in &overrides.pairs {
            text.push_str(&format!(
                "  - m_OriginalClip: {}\n    m_OverrideClip: {}\n",
                asset(ANIM_FILE_ID, original),
                asset(ANIM_FILE_ID, with)
            ));
        }
    }
    let mut clips: Vec<ObjectRef> = overrides.pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
    clips.sort_unstable_by_key(|at| (at.file, at.path_id));
    clips.dedup();
    Ok(OverrideText {
        name: entry.name.clone(),
        text,
        guid: object_guid(ws, entry.at),
        base: overrides.base,
        clips,
        report: OverrideReport {
            source,
            controller: entry.name.clone(),
            path_id: entry.at.path_id,
            written: None,
            base: base.name.clone(),
            overrides: overrides.pairs.len(),
        },
    })
}
