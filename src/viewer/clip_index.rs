//! What the clip list shows of every clip each frame, found once when the files are loaded:
//! its kind (humanoid, sprite, legacy, generic) and the rig it plays on (the one `check` and
//! `pose` pick).

use bevy::prelude::*;

use clipscope_core::check::RigReach;
use clipscope_core::clip::ClipData;
use clipscope_core::curve::WrapMode;
use clipscope_core::export::ClipReach;
use clipscope_core::humanoid::pose::humanoid_slot;
use clipscope_core::workspace::{ObjectRef, RendererKind, Workspace};

use super::library::Library;

/// Which rigs list which clips, gathered once (not once per clip: a whole game has
/// thousands of each), to weigh each clip against.
struct Weigh<'a> {
    ws: &'a Workspace,
    reach: RigReach,
}

impl<'a> Weigh<'a> {
    fn new(ws: &'a Workspace) -> Self {
        Weigh {
            ws,
            reach: RigReach::of(&ws.rigs, None),
        }
    }

    /// The kind of `clip`, the clip at `at`, and which rigs it plays on.
    fn clip(&self, at: ObjectRef, clip: &ClipData) -> (Option<ClipKind>, Option<ClipReach>) {
        (
            Some(ClipKind::of(clip)),
            Some(ClipReach::of(&self.reach, &self.ws.rigs, at, clip)),
        )
    }
}

/// What a clip animates, for the clip list's filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClipKind {
    /// Muscle curves: plays on any humanoid rig.
    Humanoid,
    /// Object-reference curves (sprite swaps).
    Sprite,
    /// A legacy clip (the Animation component's).
    Legacy,
    /// Any other Mecanim clip.
    Generic,
}

impl ClipKind {
    /// Every kind, in the filter's order.
    pub const ALL: [ClipKind; 4] = [
        ClipKind::Humanoid,
        ClipKind::Legacy,
        ClipKind::Generic,
        ClipKind::Sprite,
    ];

    /// The kind's name in the list.
    pub fn name(self) -> &'static str {
        match self {
            ClipKind::Humanoid => "humanoid",
            ClipKind::Sprite => "sprite",
            ClipKind::Legacy => "legacy",
            ClipKind::Generic => "generic",
        }
    }

    /// The kind of `clip`: humanoid where it has muscle curves, sprite where it swaps
    /// objects, else legacy or generic.
    pub fn of(clip: &ClipData) -> ClipKind {
        if clip.bindings.iter().any(|b| humanoid_slot(b).is_some()) {
            ClipKind::Humanoid
        } else if clip.bindings.iter().any(|b| b.is_pptr) {
            ClipKind::Sprite
        } else if clip.legacy {
            ClipKind::Legacy
        } else {
            ClipKind::Generic
        }
    }
}

/// Per clip of the opened files (in [`Workspace::clips`] order): its kind (`None` for a clip
/// that did not decode) and which rigs it plays on.
#[derive(Resource, Clone, Debug, Default)]
pub struct ClipIndex {
    pub kinds: Vec<Option<ClipKind>>,
    pub reach: Vec<Option<ClipReach>>,
}

impl ClipIndex {
    /// The facts of every clip of `ws`, which holds their curves.
    pub fn new(ws: &Workspace) -> ClipIndex {
        let weigh = Weigh::new(ws);
        let (kinds, reach) = ws
            .clips
            .iter()
            .map(|c| match &c.data {
                Ok(clip) => weigh.clip(c.at, clip),
                Err(_) => (None, None),
            })
            .unzip();
        ClipIndex { kinds, reach }
    }

    /// The facts of every clip of `library`: from its clips where it holds their curves,
    /// else each file's clips decoded again, weighed and dropped, on every core (a whole
    /// game's curves are never held at once).
    pub fn weigh(library: &Library) -> ClipIndex {
        ClipIndex::weigh_with(library, || {})
    }

    /// [`ClipIndex::weigh`], calling `weighed()` as each clip read again is weighed (from
    /// the threads that read them): a progress bar's step.
    pub fn weigh_with(library: &Library, weighed: impl Fn() + Sync) -> ClipIndex {
        let ws = &*library.main;
        if library.holds_curves() {
            return ClipIndex::new(ws);
        }
        let weigh = Weigh::new(ws);
        let decoded: Vec<usize> = (0..ws.clips.len())
            .filter(|&i| ws.clips[i].data.is_ok())
            .collect();
        let wanted: Vec<ObjectRef> = decoded.iter().map(|&i| ws.clips[i].at).collect();
        let weighed = ws.map_clips(&wanted, library.options(), |_, c| {
            let facts = c.data.as_ref().ok().map(|clip| weigh.clip(c.at, clip));
            weighed();
            facts
        });
        let mut index = ClipIndex {
            kinds: vec![None; ws.clips.len()],
            reach: vec![None; ws.clips.len()],
        };
        for (i, facts) in decoded.into_iter().zip(weighed) {
            if let Some((kind, reach)) = facts {
                (index.kinds[i], index.reach[i]) = (kind, reach);
            }
        }
        index
    }

    /// The rig clip `i` plays on (the one `check` and `pose` pick).
    pub fn rig(&self, i: usize) -> Option<usize> {
        self.reach.get(i).copied().flatten().and_then(|r| r.picked)
    }

    /// The clips (indices into [`Workspace::clips`]) that play on rig `index` of `ws`: those
    /// it lists, every humanoid clip where it is humanoid, and those picked for it
    /// ([`ClipReach::plays_on`], as `export` chooses them).
    pub fn playing_on(&self, ws: &Workspace, index: usize) -> Vec<usize> {
        let Some(rig) = ws.rigs.get(index) else {
            return Vec::new();
        };
        (0..ws.clips.len())
            .filter(|&i| {
                self.reach
                    .get(i)
                    .copied()
                    .flatten()
                    .is_some_and(|r| r.plays_on(index, rig, rig.clips.contains(&ws.clips[i].at)))
            })
            .collect()
    }

    /// The clip a user would pick first in a folder of many (a whole game): on the rig with
    /// a skinned mesh that the most clips play on (else the rig most clips play on), its
    /// first looping clip (else its first clip); with no rig any clip plays on, the first
    /// clip that decodes.
    pub fn first_look(&self, ws: &Workspace) -> Option<ObjectRef> {
        let mut counts = vec![0usize; ws.rigs.len()];
        for r in (0..self.reach.len()).filter_map(|i| self.rig(i)) {
            if let Some(c) = counts.get_mut(r) {
                *c += 1;
            }
        }
        let skinned = |r: usize| {
            ws.rigs[r]
                .renderers
                .iter()
                .any(|e| matches!(e.kind, RendererKind::Skinned { .. }))
        };
        // The earliest of the best rigs wins a tie.
        let rig = (0..ws.rigs.len())
            .filter(|&r| counts[r] > 0)
            .max_by_key(|&r| (skinned(r), counts[r], std::cmp::Reverse(r)));
        let Some(rig) = rig else {
            return ws.clips.iter().find(|c| c.data.is_ok()).map(|c| c.at);
        };
        let on_rig = || {
            (0..ws.clips.len())
                .filter(move |&i| self.rig(i) == Some(rig))
                .filter_map(|i| Some((ws.clips[i].at, ws.clips[i].data.as_ref().ok()?)))
        };
        on_rig()
            .find(|(_, c)| c.wrap_mode() == WrapMode::Loop)
            .or_else(|| on_rig().next())
            .map(|(at, _)| at)
    }

    /// What a clip is grouped under in the clip list: its file, or the rig it plays on
    /// (`usize::MAX`: none).
    pub fn group_of(&self, ws: &Workspace, clip: usize, by_rig: bool) -> usize {
        if by_rig {
            self.rig(clip).unwrap_or(usize::MAX)
        } else {
            ws.clips[clip].at.file
        }
    }

    /// The clips the list shows, in its order: those whose name contains `filter` (any
    /// case) and of `kind` where one is chosen, group by group (groups in key order).
    pub fn listed(
        &self,
        ws: &Workspace,
        filter: &str,
        kind: Option<ClipKind>,
        by_rig: bool,
    ) -> Vec<usize> {
        let filter = filter.to_lowercase();
        let mut shown: Vec<usize> = (0..ws.clips.len())
            .filter(|&i| ws.clips[i].name.to_lowercase().contains(&filter))
            .filter(|&i| kind.is_none_or(|k| self.kinds.get(i).copied().flatten() == Some(k)))
            .collect();
        shown.sort_by_key(|&i| self.group_of(ws, i, by_rig));
        shown
    }

    /// The clip `step` places from `at` in the list (`listed`), wrapping at its ends; the
    /// first listed one when `at` is not listed. Clips that did not decode are skipped.
    pub fn step(&self, listed: &[usize], at: Option<usize>, step: isize) -> Option<usize> {
        let playable: Vec<usize> = listed
            .iter()
            .copied()
            .filter(|&i| self.kinds.get(i).copied().flatten().is_some())
            .collect();
        let n = playable.len() as isize;
        if n == 0 {
            return None;
        }
        let Some(here) = at.and_then(|a| playable.iter().position(|&i| i == a)) else {
            return playable.first().copied();
        };
        Some(playable[(here as isize + step).rem_euclid(n) as usize])
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use clipscope_authoring::demo_controller::locomotion_bytes;
    use clipscope_core::demo::{DEMO, DEMO_FILE_NAME};
    use clipscope_core::workspace::OpenOptions;

    fn open(name: &str, bytes: Vec<u8>) -> Workspace {
        Workspace::open_bytes(Path::new(name), bytes, &OpenOptions::default())
    }

    #[test]
    fn every_clip_gets_its_kind_and_the_rig_it_plays_on() {
        // The demo's clips are legacy, on its one rig (its Animation lists them all).
        let demo = open(DEMO_FILE_NAME, DEMO.to_vec());
        let index = ClipIndex::new(&demo);
        assert_eq!(index.kinds.len(), demo.clips.len());
        assert!(index.kinds.iter().all(|&k| k == Some(ClipKind::Legacy)));
        assert!((0..index.reach.len()).all(|i| index.rig(i) == Some(0)));
        // The locomotion bundle's gaits are Mecanim clips on generic paths.
        let gaits = open("locomotion.bundle", locomotion_bytes().unwrap());
        let index = ClipIndex::new(&gaits);
        assert!(!index.kinds.is_empty());
        assert!(index.kinds.iter().all(|&k| k == Some(ClipKind::Generic)));
        assert!((0..index.reach.len()).all(|i| index.rig(i) == Some(0)));
    }

    #[test]
    fn the_list_order_steps_and_wraps() {
        let demo = open(DEMO_FILE_NAME, DEMO.to_vec());
        let index = ClipIndex::new(&demo);
        let all = index.listed(&demo, "", None, false);
        assert_eq!(all, (0..demo.clips.len()).collect::<Vec<_>>());
        assert!(all.len() >= 2);
        let last = *all.last().unwrap();
        assert_eq!(index.step(&all, Some(0), 1), Some(all[1]));
        assert_eq!(index.step(&all, Some(0), -1), Some(last));
        assert_eq!(index.step(&all, Some(last), 1), Some(0));
        assert_eq!(index.step(&all, None, 1), Some(0));
        // The filter ignores case and keeps only the names that contain it.
        let name = demo.clips[1].name.to_lowercase();
        let found = index.listed(&demo, &name.to_uppercase(), None, false);
        assert!(found.contains(&1));
        assert!(found.len() < all.len());
        assert!(
            found
                .iter()
                .all(|&i| demo.clips[i].name.to_lowercase().contains(&name))
        );
        assert!(
            index
                .listed(&demo, "", Some(ClipKind::Generic), false)
                .is_empty()
        );
        assert_eq!(index.step(&[], Some(0), 1), None);
    }
}
