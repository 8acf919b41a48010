//! The skeleton as gizmos: thin bones from parent to child over the mesh, joints as small
//! spheres (sized by the rig panel's slider; off by default over a mesh), the selected joint highlighted with its axes, optional name
//! labels, and a ground grid. Joints outside the framed view (a weapon socket parked far
//! away) get no marker and faded lines, so the character reads first.

use bevy::prelude::*;

use super::camera::OrbitCamera;
use super::model::SkeletonGizmos;
use super::onion_mesh::OnionJoint;
use super::scene::{SceneState, Selection};
use clipscope_bevy::{RigJoint, UnityProperties};

const BONE: Color = Color::srgb(0.35, 0.8, 1.0);
/// A bone to or from a joint outside the framed view.
const FAR_BONE: Color = Color::srgba(0.35, 0.8, 1.0, 0.06);
/// A joint marker's radius at size 1, as a fraction of the framed view's radius.
const MARKER: f32 = 0.008;
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
    scene: Res<SceneState>,
    orbit: Res<OrbitCamera>,
    joints: Query<JointView, Without<OnionJoint>>,
    parents: Query<&GlobalTransform, With<RigJoint>>,
) {
    let (focus, radius) = orbit.framed;
    let scale = (radius * MARKER * selection.marker_size).max(0.001);
    let far = |p: Vec3| !p.is_finite() || p.distance(focus) > radius;
    grid.grid(
        Isometry3d::from_rotation(Quat::from_rotation_x(std::f32::consts::FRAC_PI_2)),
        UVec2::splat(20),
        Vec2::splat((orbit.framed.1 / 10.0).max(0.05)),
        GRID,
    );
    if !selection.skeleton {
        return;
    }
    let markers = selection.markers_shown(selection.meshes && scene.has_meshes);
    for (global, joint, name, child_of, props) in &joints {
        if props.and_then(UnityProperties::active) == Some(false) {
            continue;
        }
        let p = global.translation();
        let selected = selection.joint == Some(joint.index);
        let color = if selected { SELECTED } else { JOINT };
        let outside = far(p);
        if selected || (markers && !outside) {
            gizmos.sphere(
                Isometry3d::from_translation(p),
                if selected { scale * 1.6 } else { scale },
                color,
            );
        }
        if let Some(parent) = child_of.and_then(|c| parents.get(c.parent()).ok()) {
            let q = parent.translation();
            let bone = if outside || far(q) { FAR_BONE } else { BONE };
            gizmos.line(q, p, bone);
        }
        if selected {
            gizmos.axes(*global, scale * 8.0);
        }
        if (selection.labels && !outside) || selected {
            let at = Isometry3d::new(p + Vec3::Y * scale * 2.0, orbit.transform().rotation);
            gizmos.text(at, name.as_str(), scale * 3.0, Vec2::new(-0.5, 0.0), color);
        }
    }
}
