//! The skeleton as gizmos: bones from parent to child, joints as small spheres, the selected
//! joint highlighted with its axes, optional name labels, and a ground grid.

use bevy::prelude::*;

use super::camera::OrbitCamera;
use super::model::SkeletonGizmos;
use super::scene::Selection;
use crate::plugin::{RigJoint, UnityProperties};

const BONE: Color = Color::srgb(0.35, 0.8, 1.0);
const JOINT: Color = Color::srgb(1.0, 0.78, 0.15);
const SELECTED: Color = Color::srgb(1.0, 0.25, 0.35);
const GRID: Color = Color::srgba(0.6, 0.6, 0.65, 0.35);

/// What the skeleton drawing reads of a joint.
type JointView = (
    &'static GlobalTransform,
    &'static RigJoint,
    &'static Name,
    Option<&'static ChildOf>,
    Option<&'static UnityProperties>,
);

/// Draws the rig every frame, after transforms propagate.
pub fn draw_skeleton(
    mut grid: Gizmos,
    mut gizmos: Gizmos<SkeletonGizmos>,
    selection: Res<Selection>,
    orbit: Res<OrbitCamera>,
    joints: Query<JointView>,
    parents: Query<&GlobalTransform, With<RigJoint>>,
) {
    let scale = (orbit.framed.1 * 0.012).max(0.002);
    grid.grid(
        Isometry3d::from_rotation(Quat::from_rotation_x(std::f32::consts::FRAC_PI_2)),
        UVec2::splat(20),
        Vec2::splat((orbit.framed.1 / 10.0).max(0.05)),
        GRID,
    );
    if !selection.skeleton {
        return;
    }
    for (global, joint, name, child_of, props) in &joints {
        if props.and_then(UnityProperties::active) == Some(false) {
            continue;
        }
        let p = global.translation();
        let selected = selection.joint == Some(joint.index);
        let color = if selected { SELECTED } else { JOINT };
        gizmos.sphere(
            Isometry3d::from_translation(p),
            if selected { scale * 1.6 } else { scale },
            color,
        );
        if let Some(parent) = child_of.and_then(|c| parents.get(c.parent()).ok()) {
            gizmos.line(parent.translation(), p, BONE);
        }
        if selected {
            gizmos.axes(*global, scale * 8.0);
        }
        if selection.labels || selected {
            let at = Isometry3d::new(p + Vec3::Y * scale * 2.0, orbit.transform().rotation);
            gizmos.text(at, name.as_str(), scale * 3.0, Vec2::new(-0.5, 0.0), color);
        }
    }
}
