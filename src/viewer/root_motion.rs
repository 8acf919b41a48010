//! Root motion over loops, the three ways animators' previews offer it:
//! - **in place**: the root keeps its rest pose (a humanoid body stays over it);
//! - **loop and reset**: every loop plays the clip's own root motion from its start, so a
//!   walk jumps back at each loop (the clip as it is stored);
//! - **accumulate**: each loop starts where the last one ended, as a game moves a character
//!   that plays the clip on repeat. The rig is placed by the clip's move over one loop (the
//!   body's ground point and heading at the span's start taken to those at its end), once per
//!   loop played; the camera follows it.
//!
//! Every rig's root hangs under the [`RigPlace`] entity, whose transform is that accumulated
//! move (the identity in the other modes), so everything posed under the root (meshes,
//! onion skins, paths, the trajectory) moves with it; the camera is carried along the
//! ground as far.

use bevy::math::Affine3A;
use bevy::prelude::*;

use super::ViewerOptions;
use super::camera::OrbitCamera;
use super::ground::{body_facing, body_joint};
use super::onion::{placed, poser};
use super::scene::{SceneState, Selection};
use clipscope_bevy::{RigRoot, UnityPlayback};
use clipscope_core::clip::MirrorMode;
use clipscope_core::humanoid::PoseOptions;

/// How root motion plays over loops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum RootMotionMode {
    /// The root holds its rest pose.
    InPlace,
    /// Each loop plays the clip's root motion from its start.
    #[default]
    Reset,
    /// Each loop starts where the last ended.
    Accumulate,
}

impl RootMotionMode {
    pub const ALL: [RootMotionMode; 3] = [
        RootMotionMode::InPlace,
        RootMotionMode::Reset,
        RootMotionMode::Accumulate,
    ];

    /// The name the panel shows.
    pub fn label(self) -> &'static str {
        match self {
            RootMotionMode::InPlace => "in place",
            RootMotionMode::Reset => "loop and reset",
            RootMotionMode::Accumulate => "accumulate loops",
        }
    }

    /// The mode the selection's switches make.
    pub fn of(selection: &Selection) -> RootMotionMode {
        match (selection.root_motion, selection.accumulate) {
            (false, _) => RootMotionMode::InPlace,
            (true, false) => RootMotionMode::Reset,
            (true, true) => RootMotionMode::Accumulate,
        }
    }

    /// Sets the selection's switches to this mode.
    pub fn set(self, selection: &mut Selection) {
        selection.root_motion = self != RootMotionMode::InPlace;
        selection.accumulate = self == RootMotionMode::Accumulate;
    }
}

/// The parent of the shown rig's root: where the window places the rig.
#[derive(Component, Default)]
pub struct RigPlace;

/// A body's frame on the ground: at `point`'s X and Z, turned about +Y so that +Z faces the
/// flat part of `facing` (no turn when it has none).
pub fn ground_frame(point: Vec3, facing: Vec3) -> Affine3A {
    let heading = if facing.x.abs() + facing.z.abs() > 1e-6 {
        facing.x.atan2(facing.z)
    } else {
        0.0
    };
    Affine3A::from_rotation_translation(
        Quat::from_rotation_y(heading),
        Vec3::new(point.x, 0.0, point.z),
    )
}

/// The move of one loop: what takes the body's ground frame at the span's start to its
/// frame at the end.
pub fn loop_move(start: Affine3A, end: Affine3A) -> Affine3A {
    end * start.inverse()
}

/// `step` done `n` times (its inverse `-n` times for a negative `n`), by squaring.
pub fn repeated(step: Affine3A, n: i64) -> Affine3A {
    let (mut base, mut n) = if n < 0 {
        (step.inverse(), n.unsigned_abs())
    } else {
        (step, n as u64)
    };
    let mut out = Affine3A::IDENTITY;
    while n > 0 {
        if n & 1 == 1 {
            out = base * out;
        }
        base = base * base;
        n >>= 1;
    }
    out
}

/// The move of one loop of the shown clip, for the clip, span and mirroring it was found
/// for.
#[derive(Default)]
pub struct LoopMove {
    key: Option<(usize, (f32, f32), MirrorMode)>,
    step: Affine3A,
}

/// The shown clip's move over one loop of its span (the identity when its body cannot be
/// found or the move is not finite).
fn one_loop(scene: &SceneState, selection: &Selection, span: (f32, f32)) -> Affine3A {
    let (Some(poser), Some(skeleton), Some(clip)) = (
        poser(scene, selection),
        scene.skeleton.as_ref(),
        scene.clip.as_deref(),
    ) else {
        return Affine3A::IDENTITY;
    };
    let humanoid = scene.humanoid.as_deref();
    let Some(body) = body_joint(skeleton, humanoid, clip) else {
        return Affine3A::IDENTITY;
    };
    let options = PoseOptions { root_motion: true };
    let frame = |t: f32| {
        let posed = placed(&poser, skeleton, &GlobalTransform::IDENTITY, &options, t);
        let point = posed.get(body).map(|(p, _)| *p).unwrap_or(Vec3::ZERO);
        ground_frame(point, body_facing(&posed, body, humanoid))
    };
    let step = loop_move(frame(span.0), frame(span.1));
    if step.is_finite() {
        step
    } else {
        Affine3A::IDENTITY
    }
}

/// Places the shown rig: the shown clip's loop move once per loop played when root motion
/// accumulates, else at the origin; hangs new rigs under the place, and carries the camera
/// as far along the ground. Runs after the animation, before transforms propagate.
#[allow(clippy::too_many_arguments)]
pub fn place_rig(
    mut commands: Commands,
    selection: Res<Selection>,
    scene: Res<SceneState>,
    playbacks: Query<&UnityPlayback>,
    new_rigs: Query<Entity, Added<RigRoot>>,
    mut places: Query<(Entity, &mut Transform), With<RigPlace>>,
    mut orbit: ResMut<OrbitCamera>,
    mut cache: Local<LoopMove>,
) {
    let Some((entity, mut place)) = places.iter_mut().next() else {
        return;
    };
    for rig in &new_rigs {
        commands.entity(entity).add_child(rig);
    }
    let playback = scene.root.and_then(|r| playbacks.get(r).ok());
    let moved = match playback {
        Some(playback) if RootMotionMode::of(&selection) == RootMotionMode::Accumulate => {
            let playhead = &playback.playhead;
            let span = playhead.span();
            let clip = scene.clip.as_deref().map_or(0, |c| c as *const _ as usize);
            let key = Some((clip, span, selection.mirror_mode()));
            if cache.key != key {
                *cache = LoopMove {
                    key,
                    step: one_loop(&scene, &selection, span),
                };
            }
            // Absurdly many loops of a long stride could overflow: the origin then.
            Some(repeated(cache.step, playhead.loops()))
                .filter(|m| m.is_finite())
                .unwrap_or(Affine3A::IDENTITY)
        }
        _ => Affine3A::IDENTITY,
    };
    let moved = Transform::from_matrix(Mat4::from(moved));
    if *place != moved {
        *place = moved;
    }
    let carried = Vec3::new(moved.translation.x, 0.0, moved.translation.z);
    if orbit.carried != carried {
        orbit.carried = carried;
    }
}

/// The root-motion mode asked for on the command line, and the place the rigs hang under.
pub fn setup(
    mut commands: Commands,
    options: Res<ViewerOptions>,
    mut selection: ResMut<Selection>,
) {
    options.root_motion.set(&mut selection);
    commands.spawn((
        RigPlace,
        Name::new("rig place"),
        Transform::default(),
        Visibility::default(),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Affine3A, b: Affine3A) -> bool {
        a.abs_diff_eq(b, 1e-4)
    }

    /// A walk of 1 m forward turning a quarter right each loop goes round a square: four
    /// loops come back to the start, two stand 1 m ahead and 1 m aside, facing back.
    #[test]
    fn loops_of_a_turning_walk_go_round_a_square() {
        let start = ground_frame(Vec3::new(0.0, 0.9, 0.0), Vec3::Z);
        let end = ground_frame(Vec3::new(0.0, 0.9, 1.0), Vec3::X);
        let step = loop_move(start, end);
        assert!(close(repeated(step, 4), Affine3A::IDENTITY));
        assert!(close(repeated(step, 3), step.inverse()));
        assert!(close(repeated(step, -2), repeated(step, 2).inverse()));
        let two = repeated(step, 2);
        assert!(
            two.translation
                .abs_diff_eq(Vec3::new(1.0, 0.0, 1.0).into(), 1e-4),
            "{}",
            two.translation
        );
        assert!(two.transform_vector3(Vec3::Z).abs_diff_eq(-Vec3::Z, 1e-4));
        assert!(close(repeated(step, 0), Affine3A::IDENTITY));
    }

    /// A straight walk moves by its length every loop, heading unchanged; the height of the
    /// body (and a facing straight up) leave the ground frame level.
    #[test]
    fn a_straight_walk_moves_its_length_per_loop() {
        let start = ground_frame(Vec3::new(0.2, 1.0, 0.0), Vec3::new(1.0, 0.3, 0.0));
        let end = ground_frame(Vec3::new(1.7, 0.8, 0.0), Vec3::new(1.0, -0.3, 0.0));
        let ten = repeated(loop_move(start, end), 10);
        assert!(
            ten.translation
                .abs_diff_eq(Vec3::new(15.0, 0.0, 0.0).into(), 1e-3)
        );
        assert!(ten.transform_vector3(Vec3::X).abs_diff_eq(Vec3::X, 1e-5));
        assert_eq!(
            ground_frame(Vec3::ONE, Vec3::Y).matrix3,
            Affine3A::IDENTITY.matrix3
        );
    }

    /// The playhead counts the loops its unbounded time has passed: a looping clip's, from
    /// its span's start (negative played backwards); never a clip that does not loop.
    #[test]
    fn the_playhead_counts_whole_loops() {
        use clipscope_core::curve::WrapMode;
        let mut playhead = clipscope_core::playhead::Playhead {
            time: 0.0,
            speed: 1.0,
            paused: false,
            stopped: false,
            wrap: WrapMode::Loop,
            start: 0.0,
            stop: 2.0,
            sample_rate: 30.0,
            cycle_offset: 0.0,
            events: Default::default(),
            range: None,
        };
        for (t, loops) in [(0.0, 0), (1.99, 0), (2.0, 1), (5.0, 2), (-0.5, -1)] {
            playhead.time = t;
            assert_eq!(playhead.loops(), loops, "at {t}");
        }
        playhead.set_range(Some((0.5, 1.0)));
        playhead.time = 1.2;
        assert_eq!(playhead.loops(), 2);
        playhead.wrap = WrapMode::PingPong;
        assert_eq!(playhead.loops(), 0);
    }
}
