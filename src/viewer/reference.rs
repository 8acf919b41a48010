//! A pinned reference clip: the shown clip compared with it ([`clipscope_core::diff`]) once per change
//! of either, for the curve view's ghost lines and each track's largest difference.

use std::collections::HashMap;
use std::sync::Arc;

use bevy::prelude::*;

use super::scene::{Library, SceneState, Selection};
use clipscope_core::clip::{ClipData, Track};
use clipscope_core::diff::{ClipDiff, CurveDiff, diff_clips};
use clipscope_core::workspace::ObjectRef;

/// The comparison of the shown clip with the pinned one.
#[derive(Resource, Default)]
pub struct ReferenceDiff {
    /// The shown clip (by address) and the reference it was computed for.
    key: Option<(usize, ObjectRef)>,
    /// The reference clip and where it lives.
    pub reference: Option<(ObjectRef, Arc<ClipData>)>,
    pub diff: Option<ClipDiff>,
    /// Shown clip's curve index to its entry in `diff.curves`.
    by_curve: HashMap<usize, usize>,
    /// At the playhead, the joints whose positions differ most between the shown clip's
    /// pose and the reference's (joint index, metres), largest first (set as the ghost is
    /// drawn).
    pub worst_joints: Vec<(usize, f32)>,
}

/// A track's difference from the reference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TrackDifference {
    /// The largest `max_abs` of its curves, and for a rotation the largest angle in degrees.
    Matched {
        max_abs: f64,
        angle_deg: Option<f64>,
    },
    /// The reference lacks some of its curves.
    Missing,
}

impl ReferenceDiff {
    /// The comparison of curve `index` of the shown clip, when the reference has it.
    pub fn curve(&self, index: usize) -> Option<&CurveDiff> {
        let diff = self.diff.as_ref()?;
        diff.curves.get(*self.by_curve.get(&index)?)
    }

    /// The reference's curve matched with curve `index` of the shown clip.
    pub fn reference_curve(&self, index: usize) -> Option<&clipscope_core::clip::ClipCurve> {
        let (_, clip) = self.reference.as_ref()?;
        clip.curves.get(self.curve(index)?.b_index)
    }

    /// A track's difference, when a reference is pinned.
    pub fn track(&self, track: &Track) -> Option<TrackDifference> {
        self.diff.as_ref()?;
        let mut max_abs = 0.0f64;
        let mut angle_deg = None;
        for &i in &track.curves {
            let Some(c) = self.curve(i) else {
                return Some(TrackDifference::Missing);
            };
            max_abs = max_abs.max(c.max_abs);
            angle_deg = c.angle_deg.or(angle_deg);
        }
        Some(TrackDifference::Matched { max_abs, angle_deg })
    }
}

/// Recomputes the comparison when the shown clip or the pinned reference changes.
pub fn update_reference_diff(
    selection: Res<Selection>,
    scene: Res<SceneState>,
    library: Option<Res<Library>>,
    mut state: ResMut<ReferenceDiff>,
) {
    let key = scene
        .clip
        .as_ref()
        .map(|c| Arc::as_ptr(c) as usize)
        .zip(selection.reference);
    if key == state.key {
        return;
    }
    *state = ReferenceDiff { key, ..default() };
    let (Some(shown), Some(at), Some(library)) = (&scene.clip, selection.reference, library) else {
        return;
    };
    let Some(reference) = library.clip(at) else {
        return;
    };
    let diff = diff_clips(shown, &reference);
    state.by_curve = diff
        .curves
        .iter()
        .enumerate()
        .map(|(n, c)| (c.a_index, n))
        .collect();
    state.reference = Some((at, reference));
    state.diff = Some(diff);
}

impl std::fmt::Display for TrackDifference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TrackDifference::Matched {
                max_abs,
                angle_deg: Some(angle),
            } => write!(f, "Δ {max_abs:.4} ({angle:.3}°)"),
            TrackDifference::Matched { max_abs, .. } => write!(f, "Δ {max_abs:.4}"),
            TrackDifference::Missing => f.write_str("Δ not in reference"),
        }
    }
}

#[cfg(test)]
mod tests {
    use bevy::ecs::system::RunSystemOnce;

    use super::*;
    use crate::viewer::scene::initial_reference;
    use clipscope_core::diff::{CurveKey, diff_clips};
    use clipscope_core::workspace::{OpenOptions, Workspace};

    const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/");

    /// The shared Floss `.anim` and the bundle that holds its build, opened together as the
    /// viewer opens two paths; `None` (said) when the data is missing.
    fn floss_pair() -> Option<Workspace> {
        let paths = [
            "yaml/plateupemotesapi/Floss.anim",
            "binary/wetboys_plateupemotesapi/moisture_animationreplacements",
        ]
        .map(|p| std::path::PathBuf::from(DATA).join(p));
        if paths.iter().any(|p| !p.exists()) {
            eprintln!("SKIP: the shared Floss pair is missing");
            return None;
        }
        Some(Workspace::open(&paths, &OpenOptions::default()))
    }

    #[test]
    fn pinning_the_build_compares_the_text_clip_with_it_track_by_track() {
        let Some(ws) = floss_pair() else { return };
        let shown = crate::viewer::scene::initial_clip(&ws, Some("Floss")).unwrap();
        let pinned = initial_reference(&ws, "Floss", Some(shown)).expect("the other Floss");
        assert_ne!(
            shown.file, pinned.file,
            "the reference comes from the other file"
        );
        assert_eq!(initial_reference(&ws, "NoSuchClip", Some(shown)), None);
        let shown_data = Arc::new(ws.clip(shown).unwrap().data.as_ref().unwrap().clone());
        let expected = diff_clips(&shown_data, ws.clip(pinned).unwrap().data.as_ref().unwrap());

        let mut world = World::new();
        world.insert_resource(Selection {
            clip: Some(shown),
            reference: Some(pinned),
            ..default()
        });
        world.insert_resource(SceneState {
            clip: Some(shown_data.clone()),
            ..default()
        });
        world.insert_resource(Library::full(Arc::new(ws)));
        world.init_resource::<ReferenceDiff>();
        world.run_system_once(update_reference_diff).unwrap();

        let state = world.resource::<ReferenceDiff>();
        let diff = state.diff.as_ref().expect("compared");
        assert_eq!(diff.curves.len(), expected.curves.len());
        assert_eq!(diff.max_abs, expected.max_abs);
        assert!(
            diff.max_abs > 0.0,
            "the build's dense frames differ from the keys"
        );
        // Every curve of the shown clip has its match, with the same binding.
        let reference = &state.reference.as_ref().unwrap().1;
        for i in 0..shown_data.curves.len() {
            let matched = state.curve(i).expect("matched");
            assert_eq!(CurveKey::of(&shown_data, i), matched.key);
            assert_eq!(CurveKey::of(reference, matched.b_index), matched.key);
            assert!(std::ptr::eq(
                state.reference_curve(i).unwrap(),
                &reference.curves[matched.b_index]
            ));
        }
        // A track's difference is the largest of its curves'.
        let mut largest = 0.0f64;
        for track in &shown_data.tracks {
            let Some(TrackDifference::Matched { max_abs, .. }) = state.track(track) else {
                panic!("every track is matched");
            };
            let of_curves = track
                .curves
                .iter()
                .map(|&i| state.curve(i).unwrap().max_abs)
                .fold(0.0, f64::max);
            assert_eq!(max_abs, of_curves);
            largest = largest.max(max_abs);
        }
        assert_eq!(largest, expected.max_abs);

        // Unpinning clears the comparison.
        world.resource_mut::<Selection>().reference = None;
        world.run_system_once(update_reference_diff).unwrap();
        assert!(world.resource::<ReferenceDiff>().diff.is_none());
    }
}
