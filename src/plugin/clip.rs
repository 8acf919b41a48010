//! A decoded Unity clip as a Bevy `AnimationClip`: one curve per track, targeted by the
//! track's path hash, so a clip needs no rig to load and plays on any rig whose joints carry
//! the same hashes.

use std::sync::Arc;

use bevy::animation::animated_field;
use bevy::animation::animation_curves::{AnimatableCurve, AnimatedField};
use bevy::animation::{AnimationClip, AnimationTargetId};
use bevy::asset::uuid::Uuid;
use bevy::prelude::*;

use super::curves::{EulerTrack, MIRROR_POSITION, QuatTrack, ScalarTrack, Vec3Track};
use super::properties::{FloatProperty, property_key};
use crate::clip::{BindingKind, ClipData, Track};
use crate::curve::Curve;

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
        .map(|&i| clip.curves[i].curve.clone())
        .collect();
    let array: [Curve; N] = curves.try_into().ok()?;
    Some(Arc::new(array))
}

/// Builds the Bevy clip. Tracks that lack components are left out and counted in the
/// returned number.
pub fn bevy_clip(clip: &ClipData) -> (AnimationClip, usize) {
    let mut out = AnimationClip::default();
    let mut skipped = 0;
    for track in &clip.tracks {
        let binding = &clip.bindings[track.binding];
        let target = target_id(binding.path);
        let added = match binding.kind() {
            BindingKind::Position => components::<3>(clip, track).map(|xyz| {
                let curve = Vec3Track::new(xyz, MIRROR_POSITION);
                out.add_curve_to_target(
                    target,
                    AnimatableCurve::new(animated_field!(Transform::translation), curve),
                );
            }),
            BindingKind::Scale => components::<3>(clip, track).map(|xyz| {
                let curve = Vec3Track::new(xyz, [1.0; 3]);
                out.add_curve_to_target(
                    target,
                    AnimatableCurve::new(animated_field!(Transform::scale), curve),
                );
            }),
            BindingKind::Rotation => components::<4>(clip, track).map(|xyzw| {
                let curve = QuatTrack::new(xyzw);
                out.add_curve_to_target(
                    target,
                    AnimatableCurve::new(animated_field!(Transform::rotation), curve),
                );
            }),
            BindingKind::Euler { order } => components::<3>(clip, track).map(|xyz| {
                let curve = EulerTrack { xyz, order };
                out.add_curve_to_target(
                    target,
                    AnimatableCurve::new(animated_field!(Transform::rotation), curve),
                );
            }),
            _ => components::<1>(clip, track).map(|c| {
                let [curve] = Arc::unwrap_or_clone(c);
                let property = FloatProperty::new(property_key(binding.type_id, binding.attribute));
                let curve = ScalarTrack {
                    curve: Arc::new(curve),
                };
                out.add_curve_to_target(target, AnimatableCurve::new(property, curve));
            }),
        };
        if added.is_none() {
            skipped += 1;
        }
    }
    out.set_duration(clip.stop.max(0.0));
    (out, skipped)
}
