//! Which rig a clip is checked against, and its bindings against that rig: unmatched paths
//! and duplicate bindings.

use std::collections::{BTreeMap, HashMap};

use super::*;
use crate::clip::{ClipData, GenericBinding};
use crate::humanoid::ClipMuscles;
use crate::rig::Skeleton;
use crate::workspace::{ObjectRef, RigEntry};

/// How a clip's rig was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RigPick {
    /// The rig's controller or Animation component lists the clip.
    Reaches,
    /// The rig's skeleton has `matched` of the clip's `of` distinct binding paths, more than
    /// any other rig's.
    Paths { matched: usize, of: usize },
    /// A humanoid clip that no humanoid rig lists: the first humanoid rig, which poses it
    /// from its muscles (muscles are the same on every humanoid avatar).
    Humanoid,
}

/// The rig to check (and play) a clip on (index into `rigs`), and why: for a humanoid clip,
/// a humanoid rig that lists it, else the first humanoid rig; then a rig that lists the clip;
/// then the rig matching most of its binding paths. For many clips, [`RigReach`] finds the
/// rigs that list each once.
pub fn pick_rig(rigs: &[RigEntry], at: ObjectRef, clip: &ClipData) -> Option<(usize, RigPick)> {
    RigReach::of(rigs, Some(at)).pick(rigs, at, clip)
}

/// Which rigs list each clip (the first, and the first humanoid one), and the first
/// humanoid rig: what [`pick_rig`] asks of every rig for one clip, gathered once.
pub struct RigReach {
    first: HashMap<ObjectRef, usize>,
    first_humanoid: HashMap<ObjectRef, usize>,
    any_humanoid: Option<usize>,
}

impl RigReach {
    /// The rigs listing each clip (only `at`'s, when given).
    pub fn of(rigs: &[RigEntry], at: Option<ObjectRef>) -> RigReach {
        let mut reach = RigReach {
            first: HashMap::new(),
            first_humanoid: HashMap::new(),
            any_humanoid: rigs.iter().position(|r| r.humanoid.is_some()),
        };
        for (i, rig) in rigs.iter().enumerate() {
            for &clip in rig.clips.iter().filter(|&&c| at.is_none_or(|at| c == at)) {
                reach.first.entry(clip).or_insert(i);
                if rig.humanoid.is_some() {
                    reach.first_humanoid.entry(clip).or_insert(i);
                }
            }
        }
        reach
    }

    /// [`pick_rig`] for the clip `clip` at `at`.
    pub fn pick(
        &self,
        rigs: &[RigEntry],
        at: ObjectRef,
        clip: &ClipData,
    ) -> Option<(usize, RigPick)> {
        if ClipMuscles::new(clip).is_humanoid() {
            if let Some(&i) = self.first_humanoid.get(&at) {
                return Some((i, RigPick::Reaches));
            }
            if let Some(i) = self.any_humanoid {
                return Some((i, RigPick::Humanoid));
            }
        }
        if let Some(&i) = self.first.get(&at) {
            return Some((i, RigPick::Reaches));
        }
        best_by_paths(rigs, clip)
    }
}

/// The rig whose skeleton has the most of the clip's distinct binding paths (the first of
/// equals), when any has one.
fn best_by_paths(rigs: &[RigEntry], clip: &ClipData) -> Option<(usize, RigPick)> {
    let paths = distinct_paths(clip);
    let matched = |rig: &RigEntry| {
        paths
            .iter()
            .filter(|&&p| rig.skeleton.joint_by_hash(p).is_some())
            .count()
    };
    let mut best: Option<(usize, usize)> = None;
    for (i, rig) in rigs.iter().enumerate() {
        let m = matched(rig);
        if m > 0 && best.is_none_or(|(_, b)| m > b) {
            best = Some((i, m));
        }
    }
    best.map(|(i, matched)| {
        (
            i,
            RigPick::Paths {
                matched,
                of: paths.len(),
            },
        )
    })
}

/// Path names from every rig: the Avatars' `m_TOS` and the skeletons' joint paths.
pub(super) fn workspace_names(rigs: &[RigEntry]) -> BTreeMap<u32, String> {
    let mut names = BTreeMap::new();
    for rig in rigs {
        for (&hash, path) in rig.tos.iter() {
            names.entry(hash).or_insert_with(|| path.clone());
        }
        for joint in &rig.skeleton.joints {
            names
                .entry(joint.path_hash)
                .or_insert_with(|| joint.path.clone());
        }
    }
    names
}

/// The clip's distinct binding paths, in order of first use.
pub(super) fn distinct_paths(clip: &ClipData) -> Vec<u32> {
    let mut paths = Vec::new();
    for b in &clip.bindings {
        if !paths.contains(&b.path) {
            paths.push(b.path);
        }
    }
    paths
}

/// Binding paths that no joint of `skeleton` has, in order of first use.
pub(super) fn unmatched(
    clip: &ClipData,
    skeleton: &Skeleton,
    names: &BTreeMap<u32, String>,
) -> Vec<Unmatched> {
    distinct_paths(clip)
        .into_iter()
        .filter(|&p| skeleton.joint_by_hash(p).is_none())
        .map(|path| {
            let users = clip.bindings.iter().filter(|b| b.path == path);
            let own_name = users.clone().find_map(|b| b.path_name.clone());
            Unmatched {
                path,
                name: own_name
                    .or_else(|| names.get(&path).cloned())
                    .filter(|n| !n.is_empty()),
                bindings: users.count(),
            }
        })
        .collect()
}

/// What makes two bindings the same target: path, attribute, class, custom type and script.
pub(super) type BindingKey = (u32, u32, i32, u8, (i32, i64));

pub(super) fn binding_key(b: &GenericBinding) -> BindingKey {
    (b.path, b.attribute, b.type_id, b.custom_type, b.script)
}

/// Bindings that occur more than once, in order of first occurrence.
pub(super) fn duplicates(clip: &ClipData, namer: &Namer<'_>) -> Vec<Duplicate> {
    let mut groups: HashMap<BindingKey, Vec<usize>> = HashMap::new();
    for (i, b) in clip.bindings.iter().enumerate() {
        groups.entry(binding_key(b)).or_default().push(i);
    }
    let mut dups: Vec<Vec<usize>> = groups.into_values().filter(|g| g.len() > 1).collect();
    dups.sort_unstable();
    dups.into_iter()
        .map(|indices| Duplicate {
            binding: namer.binding(&clip.bindings[indices[0]]),
            count: indices.len(),
            indices,
        })
        .collect()
}
