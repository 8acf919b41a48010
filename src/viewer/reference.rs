//! A pinned reference clip: the shown clip compared with it ([`crate::diff`]) once per change
//! of either, for the curve view's ghost lines and each track's largest difference.

use std::collections::HashMap;
use std::sync::Arc;

use bevy::prelude::*;

use super::scene::{Library, SceneState, Selection};
use crate::clip::{ClipData, Track};
use crate::diff::{ClipDiff, CurveDiff, diff_clips};
use crate::workspace::ObjectRef;

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
    pub fn reference_curve(&self, index: usize) -> Option<&crate::clip::ClipCurve> {
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
    let Some(reference) = library.main.clip(at).and_then(|c| c.data.as_ref().ok()) else {
        return;
    };
    let diff = diff_clips(shown, reference);
    state.by_curve = diff
        .curves
        .iter()
        .enumerate()
        .map(|(n, c)| (c.a_index, n))
        .collect();
    state.reference = Some((at, Arc::new(reference.clone())));
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
