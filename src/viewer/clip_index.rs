//! What the clip list shows of every clip each frame, found once when the files are loaded:
//! its kind (humanoid, sprite, legacy, generic) and the rig it plays on (the one `check` and
//! `pose` pick).

use bevy::prelude::*;

use clipscope_core::check::pick_rig;
use clipscope_core::clip::ClipData;
use clipscope_core::humanoid::pose::humanoid_slot;
use clipscope_core::workspace::Workspace;

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
/// that did not decode) and the rig it plays on.
#[derive(Resource, Clone, Debug, Default)]
pub struct ClipIndex {
    pub kinds: Vec<Option<ClipKind>>,
    pub rigs: Vec<Option<usize>>,
}

impl ClipIndex {
    /// The facts of every clip of `ws`.
    pub fn new(ws: &Workspace) -> ClipIndex {
        let (kinds, rigs) = ws
            .clips
            .iter()
            .map(|c| match &c.data {
                Ok(clip) => (
                    Some(ClipKind::of(clip)),
                    pick_rig(&ws.rigs, c.at, clip).map(|(i, _)| i),
                ),
                Err(_) => (None, None),
            })
            .unzip();
        ClipIndex { kinds, rigs }
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
        assert!(index.rigs.iter().all(|&r| r == Some(0)));
        // The locomotion bundle's gaits are Mecanim clips on generic paths.
        let gaits = open("locomotion.bundle", locomotion_bytes().unwrap());
        let index = ClipIndex::new(&gaits);
        assert!(!index.kinds.is_empty());
        assert!(index.kinds.iter().all(|&k| k == Some(ClipKind::Generic)));
        assert!(index.rigs.iter().all(|&r| r == Some(0)));
    }
}
