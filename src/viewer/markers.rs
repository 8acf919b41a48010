//! A humanoid clip's markers: the IK goals (feet and hands, where the clip says they are;
//! not solved, as Unity applies them only with Foot IK on) and the body (the centre of mass,
//! with its orientation), each toggled in the rig panel.

use bevy::prelude::*;

use super::camera::OrbitCamera;
use super::scene::Selection;
use clipscope_bevy::curves::{position_to_bevy, rotation_to_bevy};
use clipscope_bevy::{HumanoidState, UnityHumanoid};
use clipscope_core::humanoid::Goal;

const FOOT_GOAL: Color = Color::srgb(0.3, 1.0, 0.45);
const HAND_GOAL: Color = Color::srgb(1.0, 0.35, 0.9);
const BODY: Color = Color::srgb(1.0, 1.0, 1.0);

/// A marker's place in the world: a rig-space goal (Unity's space) under the rig root.
fn placed(root: &GlobalTransform, goal: &Goal) -> Isometry3d {
    let t = root.transform_point(position_to_bevy(goal.t));
    let q = root.rotation() * rotation_to_bevy(goal.q);
    Isometry3d::new(t, q)
}

/// Draws the markers of every rig posing a humanoid clip, after transforms propagate.
pub fn draw_humanoid_markers(
    mut gizmos: Gizmos,
    selection: Res<Selection>,
    orbit: Res<OrbitCamera>,
    rigs: Query<(&UnityHumanoid, &HumanoidState, &GlobalTransform)>,
) {
    if !selection.goals && !selection.body {
        return;
    }
    let size = (orbit.framed.1 * 0.02).max(0.004);
    for (humanoid, state, root) in &rigs {
        let (rig, options) = (&humanoid.rig, &humanoid.options);
        if selection.goals {
            for (i, goal) in rig.goals(&state.pose, options).iter().enumerate() {
                let at = placed(root, goal);
                let color = if i < 2 { FOOT_GOAL } else { HAND_GOAL };
                gizmos.cube(
                    Transform::from_isometry(at).with_scale(Vec3::splat(size)),
                    color,
                );
                gizmos.axes(Transform::from_isometry(at), size * 2.0);
            }
        }
        if selection.body {
            let at = placed(root, &rig.body(&state.pose, options));
            gizmos.sphere(at, size * 0.8, BODY);
            gizmos.axes(Transform::from_isometry(at), size * 3.0);
            // A plumb line to the ground grid shows where the body stands.
            let over = Vec3::new(at.translation.x, 0.0, at.translation.z);
            gizmos.line(at.translation.into(), over, BODY.with_alpha(0.5));
        }
    }
}
