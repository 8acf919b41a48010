//! Override controllers (`AnimatorOverrideController`, class 221): a base controller's
//! state machine with some of its clips replaced. Once every file is read, each one's model
//! is its base controller's (found through `m_Controller`, in any loaded file), every leaf
//! that plays an overridden original clip playing the override instead: its name, length,
//! loop and cycle offset (so its states last as the override does, as in Unity).

use std::collections::HashMap;

use super::known::Known;
use super::merge::Builder;
use super::{ObjectRef, Overrides, PPtr};
use crate::animator::model::ClipSource;
use crate::yaml::AssetLink;

/// A reference as a built or a text file stores it.
#[derive(Clone, Debug)]
pub(super) enum Link {
    Binary(PPtr),
    Text(AssetLink),
}

impl Link {
    /// What it names, for messages.
    fn describe(&self) -> String {
        match self {
            Link::Binary(p) => format!("file {}, path id {}", p.m_FileID.0, p.m_PathID.0),
            Link::Text(l) => match (&l.guid, &l.resolved_path) {
                (_, Some(path)) => format!("fileID {} of {}", l.file_id, path.display()),
                (Some(guid), None) => format!("fileID {} of guid {guid}", l.file_id),
                (None, None) => format!("fileID {}", l.file_id),
            },
        }
    }
}

/// An override controller still to resolve.
pub(super) struct OverrideLinks {
    /// Its index in the workspace's controllers.
    pub index: usize,
    /// `m_Controller`: the base controller (or another override controller); `None` when
    /// null.
    pub base: Option<Link>,
    /// `m_Clips` whose override is set: (original, override).
    pub pairs: Vec<(Link, Link)>,
}

/// How many override controllers may stack on one base (an override of an override).
const MAX_DEPTH: usize = 8;

impl Builder {
    /// Gives every override controller its base's model with its clips replaced; one whose
    /// base is not loaded, not decoded or an override chain that loops keeps an error that
    /// says so. `clips`: every loaded clip, kept or let go of.
    pub(super) fn resolve_overrides(&mut self, clips: &Known) {
        let mut pending = std::mem::take(&mut self.overrides);
        // An override of an override waits for its base: at most MAX_DEPTH rounds.
        for _ in 0..MAX_DEPTH {
            let before = pending.len();
            let waiting: Vec<usize> = pending.iter().map(|o| o.index).collect();
            pending.retain(|o| !self.resolve_override(o, &waiting, clips));
            if pending.len() == before || pending.is_empty() {
                break;
            }
        }
        for o in pending {
            let name = self.ws.controllers[o.index].name.clone();
            let from = self.ws.controllers[o.index].at.file;
            let why = match self.base_index(from, o.base.as_ref()) {
                Some(_) => "its base controller is an override controller whose chain does not end (or is deeper than 8)".to_string(),
                None => self.missing_base(from, o.base.as_ref()),
            };
            self.ws
                .warnings
                .push(format!("override controller {name:?}: {why}"));
            self.ws.controllers[o.index].model = Err(why);
        }
    }

    /// Resolves one override controller unless its base is among `waiting` (itself an
    /// override not resolved yet). True when it is done (resolved, or failed for good).
    fn resolve_override(&mut self, o: &OverrideLinks, waiting: &[usize], clips: &Known) -> bool {
        let from = self.ws.controllers[o.index].at.file;
        let Some(base) = self.base_index(from, o.base.as_ref()) else {
            return false;
        };
        if base == o.index || waiting.contains(&base) {
            return false;
        }
        let model = match &self.ws.controllers[base].model {
            Ok(model) => model.clone(),
            Err(e) => {
                let why = format!(
                    "its base controller {:?} was not decoded: {e}",
                    self.ws.controllers[base].name
                );
                self.ws.controllers[o.index].model = Err(why);
                return true;
            }
        };
        // (original, override) as loaded clips; an override that is not loaded leaves the
        // original playing, with a warning.
        let mut replace: HashMap<ObjectRef, (ObjectRef, ClipSource)> = HashMap::new();
        let mut pairs = Vec::new();
        for (original, with) in &o.pairs {
            let Some(original_at) = self.target(from, original) else {
                continue;
            };
            match self.target(from, with).filter(|at| clips.contains(at)) {
                Some(at) => {
                    replace.insert(original_at, (at, source_of(with)));
                    pairs.push((original_at, at));
                }
                None => self.ws.warnings.push(format!(
                    "override controller {:?}: its override clip ({}) is not loaded; the original plays",
                    self.ws.controllers[o.index].name,
                    with.describe()
                )),
            }
        }
        let mut model = model;
        model.name.clone_from(&self.ws.controllers[o.index].name);
        model.visit_clips_mut(&mut |leaf| {
            let Some(resolved) = &leaf.resolved else {
                return;
            };
            let at = ObjectRef {
                file: resolved.file,
                path_id: resolved.path_id,
            };
            if let Some((with_at, with)) = replace.get(&at) {
                leaf.resolved = self.resolved_clip(*with_at);
                leaf.source = with.clone();
            }
        });
        let base = self.ws.controllers[base].at;
        let entry = &mut self.ws.controllers[o.index];
        entry.model = Ok(model);
        entry.overrides = Some(Box::new(Overrides { base, pairs }));
        true
    }

    /// The loaded object a link from file `from` names.
    fn target(&self, from: usize, link: &Link) -> Option<ObjectRef> {
        match link {
            Link::Binary(p) => self.ws.resolve(from, *p),
            Link::Text(l) => self.resolve_link(from, l),
        }
    }

    /// The loaded controller `base` names from file `from`.
    fn base_index(&self, from: usize, base: Option<&Link>) -> Option<usize> {
        let at = self.target(from, base?)?;
        super::index_at(&self.ws.controllers, at, |c| c.at)
    }

    /// Why an override controller's base is not there.
    fn missing_base(&self, from: usize, base: Option<&Link>) -> String {
        let Some(base) = base else {
            return "it names no base controller".into();
        };
        match self.target(from, base) {
            Some(at) => format!(
                "its base controller ({}, path id {}) is not a loaded AnimatorController",
                self.ws.files[at.file].location(),
                at.path_id
            ),
            None => format!(
                "its base controller ({}) is in a file that was not opened: open it too",
                base.describe()
            ),
        }
    }
}

/// How a leaf playing the clip `link` names it.
fn source_of(link: &Link) -> ClipSource {
    match link {
        Link::Binary(p) => ClipSource::Binary {
            file_id: p.m_FileID.0,
            path_id: p.m_PathID.0,
        },
        Link::Text(l) => ClipSource::Text {
            guid: l.guid.clone(),
            file_id: l.file_id,
            resolved_path: l.resolved_path.clone(),
        },
    }
}
