//! Assets that text files name by guid but that were not among the paths opened: found
//! through the project's `.meta` files (the nearest `Assets` folder above, else the file's
//! own folder) and opened on demand, as a Unity project finds them, so a `.controller`
//! opened alone plays the `.anim` files beside it.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::extract::Extracted;
use crate::animator::model::{ClipSource, Controller};

/// Most rounds of opening on demand (an Animator's controller, then that controller's
/// clips, ...).
pub(super) const MAX_ROUNDS: usize = 4;
/// Most files opened on demand in all.
pub(super) const MAX_LINKED: usize = 10_000;

/// File kinds opened on demand: native assets that hold clips and controllers (an FBX's
/// clips are the importer's, not decodable here).
const KINDS: &[&str] = &["anim", "controller", "overridecontroller", "asset"];

fn wanted(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| KINDS.contains(&e.to_ascii_lowercase().as_str()))
}

/// A path as a key for "already opened": canonical where it exists.
pub(super) fn key(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// The files opened so far, as keys ([`key`]). Made from the given files only when a text
/// file first links to another: a whole game's binary files never need it, and it would
/// hold every path again and cost a `canonicalize` each.
pub(super) struct Opened<'a> {
    given: &'a [(Arc<Path>, bool)],
    keys: Option<HashSet<PathBuf>>,
}

impl<'a> Opened<'a> {
    /// The files given to open.
    pub(super) fn new(given: &'a [(Arc<Path>, bool)]) -> Self {
        Opened { given, keys: None }
    }

    /// Marks `path` as opened; false when it already was.
    fn insert(&mut self, path: &Path) -> bool {
        let given = self.given;
        self.keys
            .get_or_insert_with(|| given.iter().map(|(p, _)| key(p)).collect())
            .insert(key(path))
    }
}

/// The files that `extracted` link to by guid and that `opened` does not hold yet, each
/// once (and now in `opened`), at most `limit` of them.
pub(super) fn linked_paths(
    extracted: &[Extracted],
    opened: &mut Opened,
    limit: usize,
) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut add = |path: &Path| {
        if out.len() < limit && wanted(path) && opened.insert(path) {
            out.push(path.to_path_buf());
        }
    };
    for found in extracted {
        let Extracted::Yaml {
            contents, models, ..
        } = found
        else {
            continue;
        };
        let controllers = contents.controllers.iter().flat_map(|c| c.links());
        let rigs = contents
            .rigs
            .iter()
            .flat_map(|r| r.controller.iter().chain(&r.clips));
        for link in controllers.chain(rigs) {
            if let Some(path) = &link.resolved_path {
                add(path);
            }
        }
        for model in models.iter().filter_map(|(_, m)| m.as_ref().ok()) {
            for path in model_paths(model) {
                add(&path);
            }
        }
    }
    out
}

/// The asset paths a text controller's clip motions resolved to.
fn model_paths(model: &Controller) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for layer in &model.layers {
        for state in layer.state_machine.all_states() {
            if let Some(m) = &state.motion {
                m.visit_clips(&mut |c| {
                    if let ClipSource::Text {
                        resolved_path: Some(p),
                        ..
                    } = &c.source
                    {
                        out.push(p.clone());
                    }
                });
            }
        }
    }
    out
}
