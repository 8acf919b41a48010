//! Checking every clip of a workspace, a whole game's too: a workspace opened as an index
//! keeps no curves, so each file's clips are decoded again, checked and dropped, one file at
//! a time on every core; memory follows the largest file, not the folder.

use std::collections::BTreeMap;
use std::path::Path;

use rayon::prelude::*;

use super::rig::workspace_names;
use super::{ClipReport, RigReach, Thresholds, check_entry};
use crate::OpenOptions;
use crate::workspace::{ClipEntry, Workspace};

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
    let wanted: Vec<&ClipEntry> = ws
        .clips
        .iter()
        .filter(|entry| clip.is_none_or(|name| entry.name == name))
        .collect();
    let mut by_source: BTreeMap<&Path, Vec<usize>> = BTreeMap::new();
    for (i, entry) in wanted.iter().enumerate() {
        let source = ws
            .files
            .get(entry.at.file)
            .map_or(Path::new(""), |f| &f.source);
        by_source.entry(source).or_default().push(i);
    }
    let groups: Vec<Vec<usize>> = by_source.into_values().collect();
    let mut reports: Vec<(usize, ClipReport)> = groups
        .par_iter()
        .flat_map_iter(|group| {
            let again: Vec<_> = group
                .iter()
                .map(|&i| wanted[i])
                .filter(|e| e.data.as_ref().is_ok_and(|d| d.summary_only.is_some()))
                .map(|e| e.at)
                .collect();
            let mut decoded = ws.decode_clips(&again, options).into_iter();
            group
                .iter()
                .map(|&i| {
                    let entry = wanted[i];
                    let summary = entry.data.as_ref().is_ok_and(|d| d.summary_only.is_some());
                    let again = if summary { decoded.next() } else { None };
                    let report = match again {
                        Some(data) => {
                            let full = ClipEntry {
                                at: entry.at,
                                name: entry.name.clone(),
                                data,
                            };
                            check_entry(ws, &reach, &full, &names, thresholds)
                        }
                        None => check_entry(ws, &reach, entry, &names, thresholds),
                    };
                    done();
                    (i, report)
                })
                .collect::<Vec<_>>()
        })
        .collect();
    reports.sort_by_key(|(i, _)| *i);
    reports.into_iter().map(|(_, r)| r).collect()
}
