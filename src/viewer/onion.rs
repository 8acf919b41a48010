//! Onion skins and motion paths: the shown clip's poses at other times, posed as `clipscope
//! pose` poses them ([`ClipPoser`], Unity's space, relative to the rig's root) and placed
//! as the window places the rig: under the root's parent (the origin, or the loops of root
//! motion accumulated so far), the root as the clip moves it at that time.
//!
//! - Onion skins: N poses before and after the playhead, every `step` frames, drawn as
//!   translucent skeletons (the past red, the future blue, fading with distance).
//! - Motion path: the selected joint's world path over the clip (or the play range), a dot
//!   per frame and a white ring at each keyed time (the keys of the joint's own curves, else
//!   of the curves plotted).
//! - With a reference clip pinned: its pose at the same clip time on the same rig, as a
//!   white ghost in lockstep, and the joints whose positions differ most from the shown
//!   pose (the rig panel lists them).

use bevy::prelude::*;

use super::ViewerOptions;
use super::model::SkeletonGizmos;
use super::reference::ReferenceDiff;
use super::scene::{SceneState, Selection};
use clipscope_bevy::curves::{position_to_bevy, rotation_to_bevy};
use clipscope_bevy::{UnityPlayback, joint_to_bevy, rest_transform};
use clipscope_core::clip::ClipData;
use clipscope_core::clip::MirrorMode;
use clipscope_core::curve::WrapMode;
use clipscope_core::humanoid::{JointLocal, PoseOptions};
use clipscope_core::playhead::Playhead;
use clipscope_core::pose::ClipPoser;
use clipscope_core::rig::Skeleton;
use clipscope_core::timeline::key_marks;

const PAST: Color = Color::srgb(1.0, 0.35, 0.35);
const FUTURE: Color = Color::srgb(0.35, 0.6, 1.0);
const PATH: Color = Color::srgb(1.0, 0.85, 0.3);
const END_PATH: Color = Color::srgb(0.75, 0.5, 1.0);
const KEY: Color = Color::srgb(1.0, 1.0, 1.0);
const REFERENCE: Color = Color::srgba(1.0, 1.0, 1.0, 0.7);
/// Joints listed as differing most from the reference.
const WORST: usize = 5;
/// Most frames a motion path samples (a long clip is thinned).
const PATH_FRAMES: usize = 2000;

/// What was drawn on the last frame, for the screenshot sidecar: each onion pose's clip
/// time and joint positions, and the motion path's joint and points (Bevy's space).
#[derive(Resource, Default)]
pub struct GhostTrace {
    pub onion: Vec<(f32, Vec<Vec3>)>,
    pub path: Option<(usize, Vec<(f32, Vec3)>)>,
    /// The keyed times marked on the motion path, with the joint's position at each.
    pub path_keys: Vec<(f32, Vec3)>,
    /// The end joints' paths (head, hands, feet), when drawn.
    pub end_paths: Vec<(usize, Vec<(f32, Vec3)>)>,
    /// The onion poses drawn as translucent meshes: each copy's clip time and joint
    /// positions.
    pub onion_meshes: Vec<(f32, Vec<Vec3>)>,
    /// The reference's clip time and pose.
    pub reference: Option<(f32, Vec<Vec3>)>,
}

/// The clip times `k · step` frames before and after `t` (k = 1..=n), mapped into the span
/// played as the wrap mode maps them (a once clip clamps, so its ghosts stay on the clip):
/// `(k, time)` with negative k for the past.
pub fn onion_times(playhead: &Playhead, n: u32, step: u32) -> Vec<(i32, f32)> {
    let rate = playhead.rate();
    let (a, b) = playhead.span();
    let wrap = match playhead.wrap {
        WrapMode::Once | WrapMode::Default => WrapMode::ClampForever,
        w => w,
    };
    let now = playhead.clip_time();
    let mut out = Vec::new();
    for k in 1..=n as i32 {
        for signed in [-k, k] {
            let t = now + signed as f32 * step as f32 / rate;
            out.push((signed, wrap.map_time(t - a, a, b)));
        }
    }
    out
}

/// The frame times of the span played, thinned to [`PATH_FRAMES`].
pub fn path_times(playhead: &Playhead) -> Vec<f32> {
    let (a, b) = playhead.span();
    let rate = playhead.rate();
    let frames = ((b - a) * rate).floor().clamp(0.0, 1e6) as usize;
    let every = frames / PATH_FRAMES + 1;
    (0..=frames)
        .step_by(every)
        .map(|i| a + i as f32 / rate)
        .collect()
}

/// Every joint's position at clip time `t`, in Bevy's space (see [`placed`]).
pub fn posed(
    poser: &ClipPoser,
    skeleton: &Skeleton,
    place: &GlobalTransform,
    options: &PoseOptions,
    t: f32,
) -> Vec<Vec3> {
    placed(poser, skeleton, place, options, t)
        .into_iter()
        .map(|(p, _)| p)
        .collect()
}

/// Every joint's position and rotation at clip time `t`, in Bevy's space: the root as the
/// window poses it at `t` (the clip's root curves, or its rest where root motion is off,
/// as [`super::scene::hold_root`] holds it) under `place`, the root's parent.
pub fn placed(
    poser: &ClipPoser,
    skeleton: &Skeleton,
    place: &GlobalTransform,
    options: &PoseOptions,
    t: f32,
) -> Vec<(Vec3, Quat)> {
    let locals = poser.locals(t, options);
    let frame = place.mul_transform(root_local(skeleton, &locals, options));
    let (_, turn, _) = frame.to_scale_rotation_translation();
    poser
        .world(&locals)
        .iter()
        .map(|w| {
            (
                frame.transform_point(position_to_bevy(w.t)),
                turn * rotation_to_bevy(w.q),
            )
        })
        .collect()
}

/// The root's local transform in a pose as the window shows it: the clip's root curves
/// (`locals[0]`), or its rest where root motion is off, as [`super::scene::hold_root`]
/// holds it.
pub fn root_local(skeleton: &Skeleton, locals: &[JointLocal], options: &PoseOptions) -> Transform {
    match locals.first() {
        Some(local) if options.root_motion => joint_to_bevy(local),
        _ => skeleton
            .joints
            .first()
            .map(rest_transform)
            .unwrap_or_default(),
    }
}

/// The shown rig's playback and where the window places its root: the root's parent
/// (its global transform less the root's own local one).
pub fn shown_rig<'a>(
    scene: &SceneState,
    rigs: &'a Query<(&UnityPlayback, &GlobalTransform, &Transform)>,
) -> Option<(&'a UnityPlayback, GlobalTransform)> {
    let (playback, global, local) = rigs.get(scene.root?).ok()?;
    let place = global.affine() * local.compute_affine().inverse();
    Some((playback, GlobalTransform::from(place)))
}

/// The poser of the shown clip on the shown rig, as the scene plays it.
pub fn poser<'a>(scene: &'a SceneState, selection: &Selection) -> Option<ClipPoser<'a>> {
    let (clip, skeleton): (&ClipData, &Skeleton) =
        (scene.clip.as_deref()?, scene.skeleton.as_ref()?);
    Some(
        ClipPoser::new(clip, skeleton, scene.humanoid.as_deref()).mirrored(selection.mirror_mode()),
    )
}

/// The onion skins and motion path asked for on the command line.
pub fn setup(options: Res<ViewerOptions>, mut selection: ResMut<Selection>) {
    selection.onion = options.onion;
    selection.onion_step = options.onion_step.max(1);
    selection.motion_path = options.path.is_some();
    selection.end_paths = options.end_paths;
}

/// Draws the pinned reference's pose at the playhead's clip time (mapped by the
/// reference's own wrap mode) beside the shown one, and ranks the joints by how far apart
/// the two poses put them.
pub fn draw_reference_pose(
    mut gizmos: Gizmos<SkeletonGizmos>,
    selection: Res<Selection>,
    scene: Res<SceneState>,
    mut reference: ResMut<ReferenceDiff>,
    rigs: Query<(&UnityPlayback, &GlobalTransform, &Transform)>,
    trace: Option<ResMut<GhostTrace>>,
) {
    let Some((_, other)) = reference.reference.clone() else {
        return;
    };
    let Some((playback, place)) = shown_rig(&scene, &rigs) else {
        return;
    };
    let (Some(shown), Some(skeleton)) = (poser(&scene, &selection), scene.skeleton.as_ref()) else {
        return;
    };
    let options = PoseOptions {
        root_motion: selection.root_motion,
    };
    let t = playback.playhead.clip_time();
    let now = posed(&shown, skeleton, &place, &options, t);
    let theirs = ClipPoser::new(&other, skeleton, scene.humanoid.as_deref());
    let rt = other
        .wrap_mode()
        .map_time(t - other.start, other.start, other.stop);
    let ghost = posed(&theirs, skeleton, &place, &options, rt);
    for (j, joint) in skeleton.joints.iter().enumerate() {
        if let Some(p) = joint.parent.and_then(|p| ghost.get(p)) {
            gizmos.line(*p, ghost[j], REFERENCE);
        }
    }
    let mut worst: Vec<(usize, f32)> = now
        .iter()
        .zip(&ghost)
        .map(|(a, b)| a.distance(*b))
        .enumerate()
        .filter(|(_, d)| d.is_finite())
        .collect();
    worst.sort_by(|a, b| b.1.total_cmp(&a.1));
    worst.truncate(WORST);
    reference.worst_joints = worst;
    if let Some(mut trace) = trace {
        trace.reference = Some((rt, ghost));
    }
}

/// Draws the onion skins and the motion path, after transforms propagate.
pub fn draw_ghosts(
    mut gizmos: Gizmos<SkeletonGizmos>,
    mut selection: ResMut<Selection>,
    scene: Res<SceneState>,
    options: Res<ViewerOptions>,
    rigs: Query<(&UnityPlayback, &GlobalTransform, &Transform)>,
    trace: Option<ResMut<GhostTrace>>,
    mut state: Local<GhostState>,
) {
    let state = &mut *state;
    if selection.onion == 0 && !selection.motion_path && !selection.end_paths {
        return;
    }
    // `--path JOINT` selects its joint once the rig is there; a name that names no joint
    // says which there are, once.
    if selection.joint.is_none()
        && !state.named
        && let (Some(name), Some(skeleton)) = (&options.path, &scene.skeleton)
    {
        state.named = true;
        selection.joint = skeleton.joints.iter().position(|j| &j.name == name);
        if selection.joint.is_none() {
            let there: Vec<&str> = skeleton.joints.iter().map(|j| j.name.as_str()).collect();
            error!(
                "--path {name:?}: rig {} has no joint of that name; its joints: {}",
                scene.rig_name,
                there.join(", ")
            );
        }
    }
    let Some((playback, place)) = shown_rig(&scene, &rigs) else {
        return;
    };
    let Some(poser) = poser(&scene, &selection) else {
        return;
    };
    let Some(skeleton) = scene.skeleton.as_ref() else {
        return;
    };
    let options = PoseOptions {
        root_motion: selection.root_motion,
    };
    let playhead = &playback.playhead;
    let mut onion = Vec::new();
    for (k, t) in onion_times(playhead, selection.onion, selection.onion_step.max(1)) {
        let joints = posed(&poser, skeleton, &place, &options, t);
        let base = if k < 0 { PAST } else { FUTURE };
        let color = base.with_alpha(0.55 / k.unsigned_abs() as f32);
        for (j, joint) in skeleton.joints.iter().enumerate() {
            if let Some(p) = joint.parent.and_then(|p| joints.get(p)) {
                gizmos.line(*p, joints[j], color);
            }
        }
        onion.push((t, joints));
    }
    let selected = selection.joint.filter(|_| selection.motion_path);
    let ends = if selection.end_paths {
        end_joints(skeleton, scene.humanoid.as_deref())
    } else {
        Vec::new()
    };
    let wanted: Vec<usize> = selected
        .into_iter()
        .chain(ends.into_iter().filter(|&j| Some(j) != selected))
        .collect();
    let mut paths = joint_paths(&poser, skeleton, &place, &options, playhead, &wanted);
    for (joint, points) in &paths {
        let color = if Some(*joint) == selected {
            PATH
        } else {
            END_PATH
        };
        let size = scene_scale(points);
        for w in points.windows(2) {
            gizmos.line(w[0].1, w[1].1, color.with_alpha(0.8));
        }
        for (_, p) in points {
            gizmos.sphere(Isometry3d::from_translation(*p), size, color);
        }
    }
    let path = selected
        .and_then(|j| paths.iter().position(|(p, _)| *p == j))
        .map(|i| paths.remove(i));
    let mut keyed = Vec::new();
    if let (Some((joint, points)), Some(clip)) = (&path, scene.clip.as_deref()) {
        let key = PathKeysFor {
            clip: clip as *const ClipData as usize,
            joint: *joint,
            span: playhead.span(),
            root_motion: options.root_motion,
            mirror: selection.mirror_mode(),
            plotted: selection.tracks.clone(),
        };
        let keys = state.keys.get(key, || {
            let hash = skeleton.joints[*joint].path_hash;
            joint_keys(clip, hash, &selection.tracks, playhead.span())
                .into_iter()
                .filter_map(|t| {
                    let at = posed(&poser, skeleton, &GlobalTransform::IDENTITY, &options, t);
                    Some((t, *at.get(*joint)?))
                })
                .collect()
        });
        let size = scene_scale(points) * 2.5;
        for &(t, p) in keys {
            let p = place.transform_point(p);
            gizmos.sphere(Isometry3d::from_translation(p), size, KEY);
            keyed.push((t, p));
        }
    }
    if let Some(mut trace) = trace {
        trace.onion = onion;
        trace.path = path;
        trace.path_keys = keyed;
        trace.end_paths = paths;
    }
}

/// What [`draw_ghosts`] keeps between frames.
#[derive(Default)]
pub struct GhostState {
    /// `--path JOINT` has been looked up.
    named: bool,
    keys: PathKeys,
}

/// What the motion path's key marks were found for.
#[derive(Clone, PartialEq)]
struct PathKeysFor {
    /// The clip's address.
    clip: usize,
    joint: usize,
    span: (f32, f32),
    root_motion: bool,
    mirror: MirrorMode,
    plotted: Vec<usize>,
}

/// The motion path's keyed times and where the joint is at each, in the rig's own frame
/// (the place left out): posed once for a path, not every frame.
#[derive(Default)]
struct PathKeys {
    made_for: Option<PathKeysFor>,
    keys: Vec<(f32, Vec3)>,
}

impl PathKeys {
    /// The keys for `key`, found by `find` when they were found for something else.
    fn get(&mut self, key: PathKeysFor, find: impl FnOnce() -> Vec<(f32, Vec3)>) -> &[(f32, Vec3)] {
        if self.made_for.as_ref() != Some(&key) {
            self.keys = find();
            self.made_for = Some(key);
        }
        &self.keys
    }
}

/// The keyed times a joint's path marks, inside `span`: the keys of the clip's Transform
/// curves on the joint's path; for a joint none moves (a humanoid bone, moved by muscles),
/// the keys of the curves plotted, as the timeline marks them. At most [`PATH_FRAMES`].
pub fn joint_keys(clip: &ClipData, path: u32, plotted: &[usize], span: (f32, f32)) -> Vec<f32> {
    let own: Vec<usize> = clip
        .tracks
        .iter()
        .filter(|t| {
            clip.bindings
                .get(t.binding)
                .is_some_and(|b| b.path == path && b.is_transform())
        })
        .flat_map(|t| t.curves.iter().copied())
        .collect();
    let curves = if own.is_empty() { plotted } else { &own };
    let mut times: Vec<f32> = key_marks(clip, curves)
        .into_iter()
        .filter(|t| (span.0..=span.1).contains(t))
        .collect();
    let every = times.len() / PATH_FRAMES + 1;
    if every > 1 {
        times = times.into_iter().step_by(every).collect();
    }
    times
}

/// The end joints whose paths show a clip's reach: a humanoid's head, hands and feet; on a
/// generic rig the joints named like a head, hand or foot (IK helpers aside).
pub fn end_joints(
    skeleton: &Skeleton,
    humanoid: Option<&clipscope_core::humanoid::HumanoidRig>,
) -> Vec<usize> {
    use clipscope_core::avatar::HumanBone;
    if let Some(rig) = humanoid {
        return [
            HumanBone::Head,
            HumanBone::LeftHand,
            HumanBone::RightHand,
            HumanBone::LeftFoot,
            HumanBone::RightFoot,
        ]
        .into_iter()
        .filter_map(|b| rig.bone_joint(b))
        .collect();
    }
    named_like(skeleton, &["head", "hand", "foot"])
}

/// The joints whose names hold one of `words` (any case), IK targets, poles and `_end`
/// leaves aside: a generic rig's stand-ins for a humanoid's bones.
pub fn named_like(skeleton: &Skeleton, words: &[&str]) -> Vec<usize> {
    skeleton
        .joints
        .iter()
        .enumerate()
        .filter(|(_, j)| {
            let n = j.name.to_lowercase();
            words.iter().any(|w| n.contains(w))
                && !n.contains("ik")
                && !n.contains("pole")
                && !n.ends_with("_end")
        })
        .map(|(i, _)| i)
        .collect()
}

/// The paths of `joints` over the frames of the span played (each frame posed once).
fn joint_paths(
    poser: &ClipPoser,
    skeleton: &Skeleton,
    place: &GlobalTransform,
    options: &PoseOptions,
    playhead: &Playhead,
    joints: &[usize],
) -> Vec<(usize, Vec<(f32, Vec3)>)> {
    let mut paths: Vec<(usize, Vec<(f32, Vec3)>)> =
        joints.iter().map(|&j| (j, Vec::new())).collect();
    if joints.is_empty() {
        return paths;
    }
    for t in path_times(playhead) {
        let posed = posed(poser, skeleton, place, options, t);
        for (j, points) in &mut paths {
            if let Some(p) = posed.get(*j) {
                points.push((t, *p));
            }
        }
    }
    paths
}

/// A dot's radius: a small share of the path's extent (at least a millimetre).
fn scene_scale(points: &[(f32, Vec3)]) -> f32 {
    let (lo, hi) = points.iter().fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), (_, p)| (lo.min(*p), hi.max(*p)),
    );
    let extent = (hi - lo).max_element();
    if extent.is_finite() {
        (extent * 0.006).max(0.001)
    } else {
        0.001
    }
}
