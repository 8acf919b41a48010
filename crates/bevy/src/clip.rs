//! A decoded Unity clip's tracks as Bevy curves: one curve per track, targeted by the
//! track's path hash, so a clip needs no rig to load and plays on any rig whose joints carry
//! the same hashes. The bottom of the plugin: the rig, direct playback and the Bevy clip
//! ([`super::bevy_clip`]) are built on these pieces.

use std::sync::Arc;

use bevy::animation::animated_field;
use bevy::animation::animation_curves::{AnimatableCurve, AnimatedField};
use bevy::animation::{AnimationClip, AnimationTargetId};
use bevy::asset::uuid::Uuid;
use bevy::math::curve::Curve as BevyCurve;
use bevy::prelude::*;

use super::curves::{EulerTrack, MIRROR_POSITION, QuatTrack, ScalarTrack, Vec3Track};
use super::properties::{FloatProperty, UnityProperties, property_key};
use clipscope_core::clip::{BindingKind, ClipData, Track};
use clipscope_core::curve::Curve;

/// Namespace of clipscope's animation target ids (the high half of the UUID).
const TARGET_NAMESPACE: u64 = 0x636c_6970_7363_6f70; // "clipscop"

/// The animation target id of the joint at a Unity path hash.
pub fn target_id(path_hash: u32) -> AnimationTargetId {
    AnimationTargetId(Uuid::from_u64_pair(TARGET_NAMESPACE, path_hash as u64))
}

/// The curves of a track, when it has all of them.
fn components<const N: usize>(clip: &ClipData, track: &Track) -> Option<Arc<[Curve; N]>> {
    let curves: Vec<Curve> = track
        .curves
        .iter()
        .map(|&i| clip.curves.get(i).map(|c| c.curve.clone()))
        .collect::<Option<_>>()?;
    let array: [Curve; N] = curves.try_into().ok()?;
    Some(Arc::new(array))
}

/// One track of a clip as the Bevy-side curve that plays it, in Bevy's space.
#[derive(Clone, Debug)]
pub enum TrackCurve {
    Translation(Vec3Track),
    Rotation(QuatTrack),
    Euler(EulerTrack),
    Scale(Vec3Track),
    /// A float, object-index or muscle value, kept in `UnityProperties` under `key`.
    Property {
        key: u64,
        curve: ScalarTrack,
    },
}

impl TrackCurve {
    /// The curve of `track`, or `None` when the clip lacks some of its components.
    pub fn of(clip: &ClipData, track: &Track) -> Option<TrackCurve> {
        let binding = clip.bindings.get(track.binding)?;
        Some(match binding.kind() {
            BindingKind::Position => {
                TrackCurve::Translation(Vec3Track::new(components(clip, track)?, MIRROR_POSITION))
            }
            BindingKind::Scale => {
                TrackCurve::Scale(Vec3Track::new(components(clip, track)?, [1.0; 3]))
            }
            BindingKind::Rotation => TrackCurve::Rotation(QuatTrack::new(components(clip, track)?)),
            BindingKind::Euler { order } => TrackCurve::Euler(EulerTrack {
                xyz: components(clip, track)?,
                order,
            }),
            _ => {
                let [curve] = Arc::unwrap_or_clone(components::<1>(clip, track)?);
                TrackCurve::Property {
                    key: property_key(binding.type_id, binding.attribute),
                    curve: ScalarTrack {
                        curve: Arc::new(curve),
                    },
                }
            }
        })
    }

    /// Sets what the curve drives, at clip time `t`, on a joint's transform and properties.
    pub fn apply(
        &self,
        t: f32,
        transform: &mut Transform,
        properties: Option<&mut UnityProperties>,
    ) {
        match self {
            TrackCurve::Translation(c) => transform.translation = c.sample_unchecked(t),
            TrackCurve::Rotation(c) => transform.rotation = c.sample_unchecked(t),
            TrackCurve::Euler(c) => transform.rotation = c.sample_unchecked(t),
            TrackCurve::Scale(c) => transform.scale = c.sample_unchecked(t),
            TrackCurve::Property { key, curve } => {
                if let Some(properties) = properties {
                    properties.values.insert(*key, curve.sample_unchecked(t));
                }
            }
        }
    }

    /// Adds the curve to a Bevy clip for the joint `target`.
    pub(super) fn add_to(self, clip: &mut AnimationClip, target: AnimationTargetId) {
        match self {
            TrackCurve::Translation(c) => clip.add_curve_to_target(
                target,
                AnimatableCurve::new(animated_field!(Transform::translation), c),
            ),
            TrackCurve::Scale(c) => clip.add_curve_to_target(
                target,
                AnimatableCurve::new(animated_field!(Transform::scale), c),
            ),
            TrackCurve::Rotation(c) => clip.add_curve_to_target(
                target,
                AnimatableCurve::new(animated_field!(Transform::rotation), c),
            ),
            TrackCurve::Euler(c) => clip.add_curve_to_target(
                target,
                AnimatableCurve::new(animated_field!(Transform::rotation), c),
            ),
            TrackCurve::Property { key, curve } => clip
                .add_curve_to_target(target, AnimatableCurve::new(FloatProperty::new(key), curve)),
        }
    }
}
