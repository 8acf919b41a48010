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

use bevy::prelude::*;

use super::clip::{TrackCurve, target_id};
use super::humanoid::HumanoidCurves;
use super::playback::UnityPlayback;
use super::properties::UnityProperties;
use super::rig::{RigJoint, RigRoot, rest_transform, world_positions};
use crate::clip::ClipData;
use crate::rig::Skeleton;

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
            for track in bound.tracks.iter() {
                track.apply(t, &mut transform, properties.as_deref_mut());
            }
        });
}
