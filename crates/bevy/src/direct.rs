//! Direct playback: each joint of a rig samples its own bound tracks into its `Transform`,
//! with no animation graph in between.
//!
//! Bevy's `AnimationPlayer` finds every curve's target through the player's graph and a
//! blend stack on each frame, which is what blending, masks and transitions need. A rig that
//! plays one clip needs none of it: the clip's tracks are bound to the joint entities once
//! (by path hash, as the graph path matches them) and a parallel system samples them at the
//! [`UnityPlayback`]'s clip time. The curves, the playhead, the wrap modes and the events are
//! the same as on the graph path, and so are the values.

use std::collections::HashMap;
use std::sync::Arc;

use bevy::math::curve::Curve as _;
use bevy::prelude::*;

use super::clip::{TrackCurve, target_id};
use super::humanoid::HumanoidCurves;
use super::playback::UnityPlayback;
use super::properties::UnityProperties;
use super::rig::{RigJoint, RigRoot, rest_transform, world_positions};
use clipscope_core::clip::ClipData;
use clipscope_core::rig::Skeleton;

/// On a rig root: the clip its joints play directly. Inserting or replacing it (re)binds the
/// clip's tracks to the joints; removing it stops direct playback.
///
/// The tracks are built once, by [`DirectClip::new`]; clones share them, so every rig playing
/// the clip samples the same curve data.
#[derive(Component, Clone, Debug)]
pub struct DirectClip {
    pub clip: Arc<ClipData>,
    /// The clip's tracks grouped by the path hash they target.
    pub tracks: Arc<HashMap<u32, Arc<[TrackCurve]>>>,
    /// Tracks left out because the clip lacks some of their curves.
    pub skipped: usize,
    /// The clip's humanoid curves (empty for a generic clip), for rigs with a humanoid
    /// avatar.
    pub humanoid: HumanoidCurves,
}

impl DirectClip {
    /// The clip with its tracks built.
    pub fn new(clip: Arc<ClipData>) -> Self {
        let mut by_path: HashMap<u32, Vec<TrackCurve>> = HashMap::new();
        let mut skipped = 0;
        for track in &clip.tracks {
            match (
                clip.bindings.get(track.binding),
                TrackCurve::of(&clip, track),
            ) {
                (Some(binding), Some(curve)) => {
                    by_path.entry(binding.path).or_default().push(curve)
                }
                _ => skipped += 1,
            }
        }
        // Each joint's Transform tracks first, then its property tracks by key: the order
        // `apply_tracks` writes properties in one pass.
        for tracks in by_path.values_mut() {
            tracks.sort_by_key(|t| match t {
                TrackCurve::Property { key, .. } => (true, *key),
                _ => (false, 0),
            });
        }
        let tracks = by_path.into_iter().map(|(k, v)| (k, v.into())).collect();
        DirectClip {
            humanoid: HumanoidCurves::of(&clip),
            clip,
            tracks: Arc::new(tracks),
            skipped,
        }
    }

    /// The clip as a Bevy `AnimationClip` over the same tracks, each targeted by its path
    /// hash, for Bevy's `AnimationPlayer` and graphs.
    pub fn bevy_clip(&self) -> AnimationClip {
        let mut out = AnimationClip::default();
        for (&path, tracks) in self.tracks.iter() {
            for track in tracks.iter() {
                track.clone().add_to(&mut out, target_id(path));
            }
        }
        out.set_duration(self.clip.stop.max(0.0));
        out
    }

    /// The world positions of `skeleton`'s joints posed by the clip at time `t` (its tracks
    /// over the rest pose), in Bevy's space.
    pub fn posed_positions(&self, skeleton: &Skeleton, t: f32) -> Vec<Vec3> {
        world_positions(skeleton, |joint| {
            let mut local = rest_transform(joint);
            for track in self
                .tracks
                .get(&joint.path_hash)
                .iter()
                .flat_map(|t| t.iter())
            {
                track.apply(t, &mut local, None);
            }
            local
        })
    }
}

/// Builds the Bevy clip. Tracks that lack components are left out and counted in the
/// returned number. (A [`DirectClip`] built once gives both this clip and direct playback
/// from the same tracks: see [`DirectClip::bevy_clip`].)
pub fn bevy_clip(clip: &ClipData) -> (AnimationClip, usize) {
    let direct = DirectClip::new(Arc::new(clip.clone()));
    (direct.bevy_clip(), direct.skipped)
}

/// On a joint: the tracks of its rig's [`DirectClip`] that target it.
#[derive(Component, Clone, Debug)]
pub struct BoundTracks {
    /// The rig root, whose [`UnityPlayback`] gives the clip time.
    pub rig: Entity,
    pub tracks: Arc<[TrackCurve]>,
}

/// Binds a new or changed [`DirectClip`]'s tracks to its rig's joints by path hash; joints
/// the clip does not animate lose their old bindings.
pub fn bind_direct_clips(
    mut commands: Commands,
    rigs: Query<(Entity, &DirectClip, &RigRoot), Changed<DirectClip>>,
    joints: Query<&RigJoint>,
) {
    for (root, direct, rig) in &rigs {
        for &joint in &rig.joints {
            let tracks = joints
                .get(joint)
                .ok()
                .and_then(|j| direct.tracks.get(&j.path_hash).cloned());
            let Ok(mut entity) = commands.get_entity(joint) else {
                continue;
            };
            match tracks {
                Some(tracks) => entity.insert(BoundTracks { rig: root, tracks }),
                None => entity.remove::<BoundTracks>(),
            };
        }
    }
}

/// Samples every joint's bound tracks at its rig's clip time, in parallel over joints.
/// Joints whose rig no longer has a [`DirectClip`] are left alone.
pub fn animate_bound_tracks(
    rigs: Query<&UnityPlayback, With<DirectClip>>,
    mut joints: Query<(&BoundTracks, &mut Transform, Option<&mut UnityProperties>)>,
) {
    joints
        .par_iter_mut()
        .for_each(|(bound, mut transform, mut properties)| {
            let Ok(playback) = rigs.get(bound.rig) else {
                return;
            };
            let t = playback.playhead.clip_time();
            apply_tracks(&bound.tracks, t, &mut transform, properties.as_deref_mut());
        });
}

/// Sets what one joint's tracks drive at clip time `t`, as [`TrackCurve::apply`] on each in
/// turn does. Property tracks in key order (as [`DirectClip::new`] sorts them) whose keys
/// the joint's [`UnityProperties`] already holds are written in one pass over the map (a
/// humanoid clip has about 130 of them on the root); otherwise each value is inserted.
pub fn apply_tracks(
    tracks: &[TrackCurve],
    t: f32,
    transform: &mut Transform,
    mut properties: Option<&mut UnityProperties>,
) {
    let mut missing = false;
    {
        let mut values = properties.as_deref_mut().map(|p| p.values.iter_mut());
        let mut current = values.as_mut().and_then(Iterator::next);
        for track in tracks {
            let TrackCurve::Property { key, curve } = track else {
                track.apply(t, transform, None);
                continue;
            };
            while let Some((&k, _)) = current
                && k < *key
            {
                current = values.as_mut().and_then(Iterator::next);
            }
            match current.as_mut() {
                Some((k, value)) if **k == *key => **value = curve.sample_unchecked(t),
                _ => missing = true,
            }
        }
    }
    if missing {
        for track in tracks {
            if let TrackCurve::Property { .. } = track {
                track.apply(t, transform, properties.as_deref_mut());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curves::ScalarTrack;
    use clipscope_core::curve::Curve;

    fn property(key: u64, value: f32) -> TrackCurve {
        TrackCurve::Property {
            key,
            curve: ScalarTrack {
                curve: Arc::new(Curve::constant(value)),
            },
        }
    }

    /// What applying each track in turn gives.
    fn one_by_one(tracks: &[TrackCurve], properties: &UnityProperties) -> UnityProperties {
        let mut out = properties.clone();
        for track in tracks {
            track.apply(0.0, &mut Transform::default(), Some(&mut out));
        }
        out
    }

    #[test]
    fn apply_tracks_writes_what_applying_each_track_in_turn_writes() {
        let sorted = [
            property(1, 1.0),
            property(5, 5.0),
            property(5, 6.0),
            property(9, 9.0),
        ];
        let unsorted = [property(9, 9.0), property(1, 1.0), property(5, 5.0)];
        let mut held = UnityProperties::default();
        held.values
            .extend([(0, 7.0), (1, 0.0), (5, 0.0), (9, 0.0), (12, 3.0)]);
        for tracks in [&sorted[..], &unsorted[..]] {
            // A fresh map (keys inserted), and one holding every key (written in one pass).
            for start in [UnityProperties::default(), held.clone()] {
                let mut got = start.clone();
                apply_tracks(tracks, 0.0, &mut Transform::default(), Some(&mut got));
                assert_eq!(got.values, one_by_one(tracks, &start).values);
            }
        }
        let mut got = held.clone();
        apply_tracks(&sorted, 0.0, &mut Transform::default(), Some(&mut got));
        assert_eq!(
            got.values.get(&5),
            Some(&6.0),
            "the last of equal keys wins"
        );
        assert_eq!(got.values.get(&12), Some(&3.0), "other keys stay");
    }
}
