//! Root motion in Bevy: each frame, the travel and turn that a [`UnityAnimator`] with
//! [`UnityAnimator::apply_root_motion`] gathered (in Unity's space, in the root's own frame;
//! see [`clipscope_core::animator::root_motion`]) moves its entity's `Transform`, as Unity's Animator
//! moves its GameObject by `deltaPosition` and `deltaRotation`.

use bevy::prelude::*;

use super::animator::UnityAnimator;
use super::curves::{position_to_bevy, rotation_to_bevy};
use clipscope_core::animator::root_motion::RootDelta;

/// A root move in Bevy's space, in the root's own frame: its translation (on the ground)
/// and rotation (about +Y). Unity's travel (x, z) mirrors to (x, −z), its turn about +Y to
/// the opposite turn, as every other value crossing into Bevy.
pub fn root_delta_to_bevy(d: RootDelta) -> (Vec3, Quat) {
    let (s, c) = (0.5 * d.turn).sin_cos();
    (
        position_to_bevy([d.x as f32, 0.0, d.z as f32]),
        rotation_to_bevy([0.0, s as f32, 0.0, c as f32]),
    )
}

/// Moves every root-motion [`UnityAnimator`]'s entity by the root motion of its last
/// update: the translation under the entity's rotation and scale, then the turn.
pub fn apply_root_motion(mut animators: Query<(&mut UnityAnimator, &mut Transform)>) {
    for (mut animator, mut transform) in &mut animators {
        if !animator.apply_root_motion {
            continue;
        }
        let Some(d) = animator.take_root_delta() else {
            continue;
        };
        let (t, q) = root_delta_to_bevy(d);
        let step = transform.rotation * (transform.scale * t);
        transform.translation += step;
        transform.rotation = (transform.rotation * q).normalize();
    }
}
