//! On the ground plane (Bevy's y = 0, where the grid lies), what shows how a clip moves
//! over it:
//! - a soft shadow under the body, and a contact marker under each foot, bright while the
//!   foot is down: within 2% of the body's height of the lowest that foot goes in the clip
//!   (an ankle never reaches the ground itself), so foot sliding shows as a bright marker
//!   that moves;
//! - with "trajectory" on, the body's root-motion path over the clip (or the play range): a
//!   humanoid's Hips, else the rig's root when the clip moves it (path ""), else the joint
//!   under it, on the ground with a dot per frame and an arrow every quarter second for the
//!   way the body faces (a humanoid's hips and shoulders, a generic joint's +Z).

use bevy::prelude::*;

use super::ViewerOptions;
use super::camera::humanoid_forward;
use super::model::SkeletonGizmos;
use super::onion::{named_like, path_times, placed, poser, shown_rig};
use super::scene::{SceneState, Selection};
use clipscope_bevy::UnityPlayback;
use clipscope_core::avatar::HumanBone;
use clipscope_core::clip::{BindingKind, ClipData};
use clipscope_core::humanoid::{HumanoidRig, PoseOptions};
use clipscope_core::rig::Skeleton;

const SHADOW: Color = Color::srgba(0.0, 0.0, 0.0, 0.18);
const CONTACT: Color = Color::srgb(0.3, 1.0, 0.45);
const LIFTED: Color = Color::srgba(0.3, 1.0, 0.45, 0.25);
const TRAJECTORY: Color = Color::srgb(1.0, 0.55, 0.15);
/// A foot within this share of the body's height of its lowest touches the ground.
const TOUCH: f32 = 0.02;

/// What the ground drawing showed on its last frame (for the screenshot's sidecar): each
/// foot's joint, the point under it and whether it touches; the trajectory's joint and
/// each frame's time, ground point and facing (Bevy's space).
#[derive(Resource, Default)]
pub struct GroundTrace {
    pub feet: Vec<(usize, Vec3, bool)>,
    pub trajectory: Option<(usize, Vec<TrajectoryPoint>)>,
}

/// A trajectory point: clip time, the ground point, the way the body faces.
pub type TrajectoryPoint = (f32, Vec3, Vec3);

/// The foot joints: a humanoid's feet and toes, else the joints named like a foot or toe
/// (not IK helpers, poles or `_end` leaves).
pub fn feet(skeleton: &Skeleton, humanoid: Option<&HumanoidRig>) -> Vec<usize> {
    if let Some(rig) = humanoid {
        return [
            HumanBone::LeftFoot,
            HumanBone::RightFoot,
            HumanBone::LeftToes,
            HumanBone::RightToes,
        ]
        .into_iter()
        .filter_map(|b| rig.bone_joint(b))
        .collect();
    }
    named_like(skeleton, &["foot", "toe"])
}

/// The joint whose ground path is the clip's root motion: a humanoid's Hips; else the rig's
/// root when the clip moves it (a Transform binding on path ""), else the first joint under
/// the root.
pub fn body_joint(
    skeleton: &Skeleton,
    humanoid: Option<&HumanoidRig>,
    clip: &ClipData,
) -> Option<usize> {
    if let Some(rig) = humanoid {
        return rig.bone_joint(HumanBone::Hips);
    }
    let moves_root = clip
        .bindings
        .iter()
        .any(|b| b.path == 0 && matches!(b.kind(), BindingKind::Position | BindingKind::Rotation));
    if moves_root || skeleton.joints.len() < 2 {
        return (!skeleton.joints.is_empty()).then_some(0);
    }
    skeleton.joints.iter().position(|j| j.parent == Some(0))
}

/// The way a posed body faces on the ground (Bevy's space, unit length; zero when it cannot
/// be told): a humanoid's from its hips and shoulders, a generic body joint's +Z.
pub fn body_facing(posed: &[(Vec3, Quat)], body: usize, humanoid: Option<&HumanoidRig>) -> Vec3 {
    match humanoid {
        Some(rig) => {
            let at: Vec<Vec3> = posed.iter().map(|(p, _)| *p).collect();
            humanoid_forward(&at, rig)
        }
        // Unity's +Z is Bevy's -Z: the mirror at the boundary flips Z.
        None => posed
            .get(body)
            .map(|(_, r)| *r * Vec3::NEG_Z)
            .map(|f| Vec3::new(f.x, 0.0, f.z).normalize_or_zero()),
    }
    .unwrap_or(Vec3::ZERO)
}

/// The body's height: the posed joints' vertical extent (at least a centimetre).
fn body_height(joints: &[Vec3]) -> f32 {
    let (lo, hi) = joints
        .iter()
        .filter(|p| p.is_finite())
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(p.y), hi.max(p.y))
        });
    if hi > lo { (hi - lo).max(0.01) } else { 0.01 }
}

/// The ground point under `p`.
fn under(p: Vec3) -> Vec3 {
    Vec3::new(p.x, 0.0, p.z)
}

/// Each foot's lowest height over the clip, for the clip (its address) and root-motion
/// setting it was found for.
#[derive(Default)]
pub struct Lowest {
    key: Option<(usize, bool)>,
    heights: Vec<f32>,
}

/// Draws the shadow, the foot contacts and the trajectory after transforms propagate.
#[allow(clippy::too_many_arguments)]
pub fn draw_ground(
    mut gizmos: Gizmos<SkeletonGizmos>,
    mut ground: Gizmos,
    selection: Res<Selection>,
    scene: Res<SceneState>,
    rigs: Query<(&UnityPlayback, &GlobalTransform, &Transform)>,
    trace: Option<ResMut<GroundTrace>>,
    mut lowest: Local<Lowest>,
) {
    let Some((playback, place)) = shown_rig(&scene, &rigs) else {
        return;
    };
    let (Some(poser), Some(skeleton), Some(clip)) = (
        poser(&scene, &selection),
        scene.skeleton.as_ref(),
        scene.clip.as_deref(),
    ) else {
        return;
    };
    let options = PoseOptions {
        root_motion: selection.root_motion,
    };
    let humanoid = scene.humanoid.as_deref();
    let t = playback.playhead.clip_time();
    // Each joint's position and rotation as the window places the rig, in Bevy's space.
    let world = |t: f32| placed(&poser, skeleton, &place, &options, t);
    let now = world(t);
    let positions: Vec<Vec3> = now.iter().map(|(p, _)| *p).collect();
    let height = body_height(&positions);
    let mut contacts = Vec::new();
    if selection.ground {
        let feet = feet(skeleton, humanoid);
        let key = Some((clip as *const ClipData as usize, selection.root_motion));
        if lowest.key != key {
            let mut heights = vec![f32::INFINITY; feet.len()];
            for t in path_times(&playback.playhead) {
                let posed = world(t);
                for (h, &j) in heights.iter_mut().zip(&feet) {
                    if let Some((p, _)) = posed.get(j).filter(|(p, _)| p.y.is_finite()) {
                        *h = h.min(p.y);
                    }
                }
            }
            *lowest = Lowest { key, heights };
        }
        let centre = body_joint(skeleton, humanoid, clip)
            .and_then(|j| positions.get(j))
            .copied()
            .unwrap_or(Vec3::ZERO);
        // Rings of the same faint grey overlap most in the middle: a soft disc.
        for k in 1..=8 {
            let r = height * 0.035 * k as f32;
            ground.circle(
                Isometry3d::new(
                    under(centre),
                    Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2),
                ),
                r,
                SHADOW,
            );
        }
        for (&j, &low) in feet.iter().zip(&lowest.heights) {
            let Some(p) = positions.get(j).copied().filter(|p| p.is_finite()) else {
                continue;
            };
            let touching = p.y - low <= height * TOUCH;
            let flat = Isometry3d::new(
                under(p),
                Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2),
            );
            let color = if touching { CONTACT } else { LIFTED };
            ground.circle(flat, height * 0.06, color);
            if touching {
                ground.circle(flat, height * 0.04, color);
                ground.circle(flat, height * 0.02, color);
            }
            contacts.push((j, under(p), touching));
        }
    }
    let mut trajectory = None;
    if selection.trajectory
        && let Some(body) = body_joint(skeleton, humanoid, clip)
    {
        let mut points = Vec::new();
        for t in path_times(&playback.playhead) {
            let posed = world(t);
            let Some(&(p, _)) = posed.get(body) else {
                continue;
            };
            points.push((t, under(p), body_facing(&posed, body, humanoid)));
        }
        for w in points.windows(2) {
            gizmos.line(w[0].1, w[1].1, TRAJECTORY);
        }
        let rate = playback.playhead.sample_rate.max(1.0);
        let every = ((rate / 4.0).round() as usize).max(1);
        for (i, (_, p, f)) in points.iter().enumerate() {
            gizmos.sphere(Isometry3d::from_translation(*p), height * 0.004, TRAJECTORY);
            if i % every == 0 && *f != Vec3::ZERO {
                gizmos.arrow(*p, *p + *f * height * 0.12, TRAJECTORY);
            }
        }
        trajectory = Some((body, points));
    }
    if let Some(mut trace) = trace {
        trace.feet = contacts;
        trace.trajectory = trajectory;
    }
}

/// The ground drawing asked for on the command line.
pub fn setup(options: Res<ViewerOptions>, mut selection: ResMut<Selection>) {
    selection.trajectory = options.trajectory;
}
