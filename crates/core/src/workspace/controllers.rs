//! Which AnimatorController goes with a rig: the one its Animator references, else the only
//! one whose clips play on it (a clip binds one of the rig's joints, or is humanoid and the
//! rig has a humanoid avatar).

use std::collections::BTreeSet;

use super::{ObjectRef, RigEntry, Workspace};
use crate::animator::Controller;
use crate::humanoid::ClipMuscles;

impl Workspace {
    /// The controllers (indices into [`Workspace::controllers`]) that can drive `rig`, best
    /// first: the rig's own (when `rig` belongs to this workspace and its controller
    /// decoded), then every other decoded controller with a clip that plays on the rig.
    pub fn controllers_for_rig(&self, rig: &RigEntry, own: bool) -> Vec<usize> {
        let decoded = |i: &usize| self.controllers.get(*i).is_some_and(|c| c.model.is_ok());
        let mine = rig.controller.filter(|_| own).filter(decoded);
        let mut out: Vec<usize> = mine.into_iter().collect();
        out.extend(
            (0..self.controllers.len())
                .filter(|i| Some(*i) != mine && decoded(i))
                .filter(|&i| self.controller_plays_on(i, rig)),
        );
        out
    }

    /// The controller that goes with `rig`: its own, else the only one whose clips play on
    /// it. `own` says whether `rig` belongs to this workspace (its controller index is one
    /// of ours).
    pub fn controller_for_rig(&self, rig: &RigEntry, own: bool) -> Option<usize> {
        let found = self.controllers_for_rig(rig, own);
        match found.as_slice() {
            [first, ..] if own && rig.controller == Some(*first) => Some(*first),
            [only] => Some(*only),
            _ => None,
        }
    }

    /// Whether a leaf clip of controller `index` animates a joint of `rig` (or is humanoid
    /// on a humanoid rig).
    fn controller_plays_on(&self, index: usize, rig: &RigEntry) -> bool {
        let Some(Ok(model)) = self.controllers.get(index).map(|c| c.model.as_ref()) else {
            return false;
        };
        model_clips(model).into_iter().any(|at| {
            let Some(Ok(clip)) = self.clip(at).map(|c| c.data.as_ref()) else {
                return false;
            };
            clip.bindings
                .iter()
                .any(|b| rig.skeleton.joint_by_hash(b.path).is_some())
                || (rig.humanoid.is_some() && ClipMuscles::new(clip).is_humanoid())
        })
    }
}

/// Every clip a controller's motions resolved to, each once.
pub fn model_clips(controller: &Controller) -> BTreeSet<ObjectRef> {
    let mut out = BTreeSet::new();
    for layer in &controller.layers {
        for state in layer.state_machine.all_states() {
            if let Some(m) = &state.motion {
                m.visit_clips(&mut |c| {
                    if let Some(r) = &c.resolved {
                        out.insert(ObjectRef {
                            file: r.file,
                            path_id: r.path_id,
                        });
                    }
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::demo::{DEMO, DEMO_FILE_NAME};
    use crate::rig::Skeleton;
    use crate::workspace::OpenOptions;
    use clipscope_authoring::demo_controller::locomotion_bytes;

    fn demo() -> Workspace {
        Workspace::open_bytes(
            Path::new(DEMO_FILE_NAME),
            DEMO.to_vec(),
            &OpenOptions::default(),
        )
    }

    fn locomotion() -> Workspace {
        let bytes = locomotion_bytes().expect("writes");
        let ws = Workspace::open_bytes(
            Path::new("locomotion.bundle"),
            bytes,
            &OpenOptions::default(),
        );
        assert!(ws.errors.is_empty(), "{:?}", ws.errors);
        ws
    }

    #[test]
    fn the_only_controller_whose_clips_play_on_a_rig_goes_with_it() {
        let (rigs, ws) = (demo(), locomotion());
        let rig = &rigs.rigs[0];
        assert_eq!(
            rig.controller, None,
            "the demo rig has an Animation component"
        );
        assert_eq!(ws.controllers_for_rig(rig, false), vec![0]);
        assert_eq!(ws.controller_for_rig(rig, false), Some(0));
        let clips = model_clips(ws.controllers[0].model.as_ref().unwrap());
        let names: Vec<&str> = clips
            .iter()
            .map(|&at| ws.clip(at).unwrap().name.as_str())
            .collect();
        assert_eq!(names, ["Idle", "Walk", "Run"]);
        // A rig none of whose joints the clips bind.
        let mut other = demo().rigs.remove(0);
        other.skeleton = Skeleton::from_paths(["Body/Arm"]).into();
        assert!(ws.controllers_for_rig(&other, false).is_empty());
        assert_eq!(ws.controller_for_rig(&other, false), None);
    }

    #[test]
    fn two_controllers_that_play_on_a_rig_leave_the_choice_to_the_user() {
        let dir = std::env::temp_dir().join(format!("clipscope-rigctl-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bytes = locomotion_bytes().unwrap();
        let paths: Vec<PathBuf> = ["a.bundle", "b.bundle"]
            .iter()
            .map(|n| dir.join(n))
            .collect();
        for p in &paths {
            std::fs::write(p, &bytes).unwrap();
        }
        let ws = Workspace::open(&paths, &OpenOptions::default());
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(ws.controllers.len(), 2);
        let rig = &demo().rigs[0];
        assert_eq!(ws.controllers_for_rig(rig, false), vec![0, 1]);
        assert_eq!(ws.controller_for_rig(rig, false), None);
    }

    #[test]
    fn a_rig_gets_the_controller_its_animator_references() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/data/binary/wetboys_plateupemotesapi");
        if !dir.exists() {
            eprintln!("skipped: {} is missing", dir.display());
            return;
        }
        let ws = Workspace::open(&[dir], &OpenOptions::default());
        let (index, rig) = ws
            .rigs
            .iter()
            .enumerate()
            .find(|(_, r)| r.controller.is_some())
            .expect("morbman's Animator has a controller");
        let own = rig.controller.unwrap();
        assert_eq!(ws.controllers[own].name, "dancecontroller");
        assert_eq!(ws.controller_for_rig(&ws.rigs[index], true), Some(own));
        assert_eq!(ws.controllers_for_rig(rig, true).first(), Some(&own));
        // Its clips (Floss, Default Dance, Dab, nobones) are in the sibling bundles.
        let clips = model_clips(ws.controllers[own].model.as_ref().unwrap());
        assert_eq!(clips.len(), 4, "{clips:?}");
    }
}
