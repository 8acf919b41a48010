//! Checking every clip of a workspace, a whole game's too: a workspace opened as an index
//! keeps no curves, so each file's clips are decoded again, checked and dropped, one file at
//! a time on every core; memory follows the largest file, not the folder.

use super::rig::workspace_names;
use super::{ClipReport, RigReach, Thresholds, check_entry};
use crate::OpenOptions;
use crate::workspace::{ObjectRef, Workspace};

/// Checks every clip of `ws` (or only those named `clip`), in the workspace's order, as
/// [`super::check_workspace`] does. A clip the workspace keeps only as a summary
/// ([`crate::Detail::Index`]) is decoded again from its file with `options` (those the
/// workspace was opened with). `done` is called once per clip checked, from the threads
/// that check them (a progress bar).
pub fn check_clips(
    ws: &Workspace,
    clip: Option<&str>,
    thresholds: &Thresholds,
    options: &OpenOptions,
    done: &(dyn Fn() + Sync),
) -> Vec<ClipReport> {
    let names = workspace_names(&ws.rigs);
    let reach = RigReach::of(&ws.rigs, None);
    let wanted: Vec<ObjectRef> = ws
        .clips
        .iter()
        .filter(|entry| clip.is_none_or(|name| entry.name == name))
        .map(|entry| entry.at)
        .collect();
    ws.map_clips(&wanted, options, |_, entry| {
        let report = check_entry(ws, &reach, entry, &names, thresholds);
        done();
        report
    })
}
