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
    let mut reports = Vec::new();
    check_clips_each(ws, clip, thresholds, options, done, |r| reports.push(r));
    reports
}

/// [`check_clips`], each report handed to `take` in the workspace's order as soon as it
/// and those before it are done (printed as they come), instead of all of them at the end:
/// a whole game's reports need not wait in memory.
pub fn check_clips_each(
    ws: &Workspace,
    clip: Option<&str>,
    thresholds: &Thresholds,
    options: &OpenOptions,
    done: &(dyn Fn() + Sync),
    mut take: impl FnMut(ClipReport),
) {
    let names = workspace_names(&ws.rigs);
    let reach = RigReach::of(&ws.rigs, None);
    let wanted: Vec<ObjectRef> = ws
        .clips
        .iter()
        .filter(|entry| clip.is_none_or(|name| entry.name == name))
        .map(|entry| entry.at)
        .collect();
    let check = |_: usize, entry: &crate::workspace::ClipEntry| {
        let report = check_entry(ws, &reach, entry, &names, thresholds);
        done();
        report
    };
    ws.each_clip_in_order(&wanted, options, check, |_, report| take(report));
}
