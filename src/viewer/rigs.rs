//! Which rig a clip plays on: the one `clipscope check` picks (a humanoid clip on a humanoid
//! rig), or the one the user picked from the rig list; with a placeholder when the files
//! hold no rig for the clip.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::library::Library;
use clipscope_core::check::pick_rig;
use clipscope_core::clip::ClipData;
use clipscope_core::humanoid::{ClipMuscles, HumanoidRig};
use clipscope_core::rig::Skeleton;
use clipscope_core::workspace::{ObjectRef, RigEntry};

/// The rig a clip plays on.
pub struct ChosenRig {
    /// Where the rig came from, for the panel.
    pub name: String,
    /// Its index in the opened files' rigs; `None` for a rig built from paths.
    pub index: Option<usize>,
    pub skeleton: Skeleton,
    /// Path hash to path: the rig's joints and its Avatar's `m_TOS`.
    pub names: BTreeMap<u32, String>,
    /// The rig's humanoid avatar, when the clip is humanoid and the rig has one: it poses
    /// the clip.
    pub humanoid: Option<Arc<HumanoidRig>>,
    /// Why a humanoid clip is not posed, when it is not.
    pub note: Option<String>,
}

/// The rig `clip` plays on: rig `pinned` of the opened files when the user (or `--rig`)
/// picked one,
/// else the one `clipscope check` picks (for a humanoid clip, the humanoid rig that lists
/// it, else the first humanoid rig; then a rig that lists the clip, then the one matching
/// most of its path hashes), else one built from an Avatar's paths or a placeholder per
/// bound path.
pub fn choose_rig(
    library: &Library,
    at: ObjectRef,
    clip: &ClipData,
    pinned: Option<usize>,
) -> ChosenRig {
    let ws = &*library.main;
    let humanoid_clip = ClipMuscles::new(clip).is_humanoid();
    let index = pinned
        .filter(|&i| i < ws.rigs.len())
        .or_else(|| pick_rig(&ws.rigs, at, clip).map(|(i, _)| i));
    let mut chosen = match index.and_then(|i| ws.rigs.get(i)) {
        Some(rig) => ChosenRig {
            index,
            ..of_entry(rig, humanoid_clip)
        },
        None => placeholder(library, clip),
    };
    let error = index
        .and_then(|i| ws.rigs.get(i))
        .and_then(|r| r.humanoid_error.clone());
    if humanoid_clip && chosen.humanoid.is_none() {
        chosen.note = Some(if let Some(e) = error {
            format!("{} cannot pose humanoid clips: {e}", chosen.name)
        } else if ws.humanoid_rigs().next().is_none() {
            "no humanoid rig is loaded: the muscle curves are listed and plotted; open a \
             character with a humanoid Avatar (or --rig) to pose them"
                .into()
        } else {
            format!(
                "{} has no humanoid Avatar: pick a humanoid rig to pose this clip",
                chosen.name
            )
        });
    }
    chosen
}

/// A rig of the workspace.
fn of_entry(rig: &RigEntry, humanoid_clip: bool) -> ChosenRig {
    let mut names: BTreeMap<u32, String> = rig
        .skeleton
        .joints
        .iter()
        .map(|j| (j.path_hash, j.path.clone()))
        .collect();
    names.extend(rig.tos.iter().map(|(&hash, path)| (hash, path.clone())));
    ChosenRig {
        name: rig.name.clone(),
        index: None,
        skeleton: clipscope_core::rig::Skeleton::clone(&rig.skeleton),
        names,
        humanoid: rig.humanoid.clone().filter(|_| humanoid_clip),
        note: None,
    }
}

/// No rig: the Avatars' paths where the clip binds some, else the clip's own paths or a
/// placeholder joint per bound path.
fn placeholder(library: &Library, clip: &ClipData) -> ChosenRig {
    let tos: BTreeMap<u32, String> = library
        .main
        .rigs
        .iter()
        .flat_map(|r| r.tos.iter().map(|(&hash, path)| (hash, path.clone())))
        .collect();
    if clip.bindings.iter().any(|b| tos.contains_key(&b.path)) {
        return ChosenRig {
            name: "from the Avatar's paths".into(),
            index: None,
            skeleton: Skeleton::from_paths(tos.values().map(String::as_str)),
            names: tos,
            humanoid: None,
            note: None,
        };
    }
    let own: BTreeMap<u32, String> = clip
        .bindings
        .iter()
        .filter_map(|b| b.path_name.clone().map(|p| (b.path, p)))
        .collect();
    let skeleton = if own.is_empty() {
        Skeleton::placeholder(clip.bindings.iter().map(|b| b.path), &tos)
    } else {
        Skeleton::from_paths(own.values().map(String::as_str))
    };
    ChosenRig {
        name: "placeholder (no rig found)".into(),
        index: None,
        skeleton,
        names: own,
        humanoid: None,
        note: None,
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use clipscope_core::clip::CUSTOM_TYPE_MUSCLE;
    use clipscope_core::demo::{DEMO, DEMO_FILE_NAME};
    use clipscope_core::workspace::{OpenOptions, Workspace};

    fn demo() -> Library {
        let ws = Workspace::open_bytes(
            Path::new(DEMO_FILE_NAME),
            DEMO.to_vec(),
            &OpenOptions::default(),
        );
        Library::full(Arc::new(ws))
    }

    #[test]
    fn a_picked_rig_is_used_and_a_stale_pick_falls_back() {
        let library = demo();
        let entry = library.main.clips.first().unwrap();
        let clip = entry.data.as_ref().unwrap();
        let rig = &library.main.rigs[0];
        let chosen = choose_rig(&library, entry.at, clip, Some(0));
        assert_eq!(chosen.name, rig.name);
        assert_eq!(chosen.skeleton.joints.len(), rig.skeleton.joints.len());
        assert!(chosen.humanoid.is_none() && chosen.note.is_none());
        let fallback = choose_rig(&library, entry.at, clip, Some(99));
        assert_eq!(fallback.name, rig.name, "the automatic pick");
    }

    #[test]
    fn a_humanoid_clip_without_a_humanoid_rig_says_why_it_is_not_posed() {
        let library = demo();
        let entry = library.main.clips.first().unwrap();
        let mut clip = entry.data.as_ref().unwrap().clone();
        let muscle = clip.bindings.first_mut().unwrap();
        (muscle.type_id, muscle.custom_type, muscle.attribute) = (95, CUSTOM_TYPE_MUSCLE, 50);
        let chosen = choose_rig(&library, entry.at, &clip, None);
        assert!(chosen.humanoid.is_none());
        let note = chosen.note.expect("a note");
        assert!(note.starts_with("no humanoid rig is loaded"), "{note}");
    }
}
