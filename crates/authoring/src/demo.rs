//! The code that writes the demo bundle (`clipscope_core::demo::DEMO`): the rig and the seven
//! clips described with this crate's specs, written with `rabex`'s writer.
//! `cargo run --release --example make_demo` writes it to `crates/core/assets/demo.unity3d`.
//!
//! Coordinates are Unity's: metres, +Y up, +Z forward; the character faces +Z, so its left is
//! -X. Every rest rotation is the identity (arms hanging, legs straight). A positive turn about
//! X swings a hanging limb backwards and tips the head forwards; a positive turn about Z tilts a
//! joint's up axis towards the character's left; a positive turn about Y turns it to its right.

use crate::{
    Bundle, ClipSpec, Compression, Joint, KeySpec, KeyValue, LegacyClip, PathCurve, RigComponent,
    RigSpec, UnityTarget,
};

/// Every clip's sample rate; all key times fall on its frames.
const SAMPLE_RATE: f32 = 30.0;

/// Unity's `m_WrapMode` codes.
const ONCE: i32 = 1;
const LOOP: i32 = 2;
const PING_PONG: i32 = 4;
const CLAMP_FOREVER: i32 = 8;

/// `m_RotationOrder` X, then Y, then Z (the Euler clip's head; the other Euler curves keep
/// [`PathCurve::new`]'s ZXY, Unity's default).
const ORDER_XYZ: i32 = 0;

/// The GameObject holding the Animation component; clip paths are relative to it.
const ROOT_NAME: &str = "Demo";

const HIPS: &str = "Hips";
const SPINE: &str = "Hips/Spine";
const CHEST: &str = "Hips/Spine/Chest";
const NECK: &str = "Hips/Spine/Chest/Neck";
const HEAD: &str = "Hips/Spine/Chest/Neck/Head";
const LEFT_UPPER_ARM: &str = "Hips/Spine/Chest/LeftUpperArm";
const LEFT_LOWER_ARM: &str = "Hips/Spine/Chest/LeftUpperArm/LeftLowerArm";
const LEFT_HAND: &str = "Hips/Spine/Chest/LeftUpperArm/LeftLowerArm/LeftHand";
const RIGHT_UPPER_ARM: &str = "Hips/Spine/Chest/RightUpperArm";
const RIGHT_LOWER_ARM: &str = "Hips/Spine/Chest/RightUpperArm/RightLowerArm";
const RIGHT_HAND: &str = "Hips/Spine/Chest/RightUpperArm/RightLowerArm/RightHand";
const LEFT_UPPER_LEG: &str = "Hips/LeftUpperLeg";
const LEFT_LOWER_LEG: &str = "Hips/LeftUpperLeg/LeftLowerLeg";
const LEFT_FOOT: &str = "Hips/LeftUpperLeg/LeftLowerLeg/LeftFoot";
const RIGHT_UPPER_LEG: &str = "Hips/RightUpperLeg";
const RIGHT_LOWER_LEG: &str = "Hips/RightUpperLeg/RightLowerLeg";
const RIGHT_FOOT: &str = "Hips/RightUpperLeg/RightLowerLeg/RightFoot";

/// The joints below the root: path and rest position (metres, relative to the parent), parents
/// before children. Hips 0.95 m up, shoulders at 1.40 m, head at 1.55 m, feet 5 cm above the
/// ground; arms 0.53 m and legs 0.85 m long.
const JOINTS: [(&str, [f32; 3]); 17] = [
    (HIPS, [0.0, 0.95, 0.0]),
    (SPINE, [0.0, 0.1, 0.0]),
    (CHEST, [0.0, 0.2, 0.0]),
    (NECK, [0.0, 0.2, 0.0]),
    (HEAD, [0.0, 0.1, 0.0]),
    (LEFT_UPPER_ARM, [-0.18, 0.15, 0.0]),
    (LEFT_LOWER_ARM, [0.0, -0.28, 0.0]),
    (LEFT_HAND, [0.0, -0.25, 0.0]),
    (RIGHT_UPPER_ARM, [0.18, 0.15, 0.0]),
    (RIGHT_LOWER_ARM, [0.0, -0.28, 0.0]),
    (RIGHT_HAND, [0.0, -0.25, 0.0]),
    (LEFT_UPPER_LEG, [-0.1, -0.05, 0.0]),
    (LEFT_LOWER_LEG, [0.0, -0.43, 0.0]),
    (LEFT_FOOT, [0.0, -0.42, 0.0]),
    (RIGHT_UPPER_LEG, [0.1, -0.05, 0.0]),
    (RIGHT_LOWER_LEG, [0.0, -0.43, 0.0]),
    (RIGHT_FOOT, [0.0, -0.42, 0.0]),
];

/// The demo's description: the seven clips (path ids 1 to 7) and the rig whose Animation
/// component lists them all, "Walk" first (it plays automatically).
pub fn demo_bundle() -> Bundle {
    let clips = vec![
        walk(),
        swing(),
        reach(),
        nod(),
        steps(),
        weighted(),
        euler(),
    ];
    let mut bundle = Bundle::new(UnityTarget::Unity2020);
    bundle.rig = Some(rig(clips.len()));
    bundle.clips = clips.into_iter().map(ClipSpec::Legacy).collect();
    bundle.compression = Compression::Lz4;
    bundle
}

/// The bytes of the demo bundle. Deterministic: the same on every run and every platform.
pub fn demo_bytes() -> Vec<u8> {
    crate::write_bundle(&demo_bundle()).expect("the demo description is a valid bundle")
}

/// The root joint, then [`JOINTS`], with an Animation component listing `clip_count` clips
/// (wrap mode 0: each clip's own `m_WrapMode` applies).
fn rig(clip_count: usize) -> RigSpec {
    RigSpec {
        joints: rig_joints(),
        component: RigComponent::Animation {
            clips: (0..clip_count).collect(),
            wrap_mode: 0,
        },
        renderers: Vec::new(),
    }
}

/// The demo rig's joints: the root `Demo`, then the humanoid-shaped hierarchy below it
/// (`Hips`, `Hips/Spine`, …), parents first.
pub fn rig_joints() -> Vec<Joint> {
    let mut joints = vec![Joint::new(ROOT_NAME, None, [0.0; 3])];
    joints.extend(JOINTS.iter().map(|&(path, position)| joint(path, position)));
    joints
}

/// The joint at `path`: named by its last segment, child of the joint at the rest of the path
/// (of the root for a single segment).
fn joint(path: &str, position: [f32; 3]) -> Joint {
    let (parent, name) = match path.rsplit_once('/') {
        Some((parent, name)) => (joint_index(parent), name),
        None => (0, path),
    };
    Joint::new(name, Some(parent), position)
}

/// The rig index of the joint at `path` (0 is the root, then [`JOINTS`] in order).
fn joint_index(path: &str) -> usize {
    let position = JOINTS.iter().position(|&(joint, _)| joint == path);
    1 + position.expect("every parent path is listed before its children")
}

/// A rotation axis in the joint's local space.
type Axis = [f32; 3];

/// Pitch: swings limbs forwards (negative) and backwards (positive), nods the head.
const X: Axis = [1.0, 0.0, 0.0];
/// Roll: tilts sideways (positive towards the character's left).
const Z: Axis = [0.0, 0.0, 1.0];

/// How the end keys of a smooth curve get their slopes.
#[derive(Clone, Copy)]
enum Ends {
    /// Zero: the motion eases in and out.
    Flat,
    /// Through the neighbours across the seam (the last key repeats the first), so a looping
    /// clip has no kink where it wraps.
    Loop,
}

/// A legacy clip at [`SAMPLE_RATE`] with `m_WrapMode` `wrap`.
fn clip(name: &str, wrap: i32) -> LegacyClip {
    LegacyClip {
        sample_rate: SAMPLE_RATE,
        wrap_mode: wrap,
        ..LegacyClip::new(name)
    }
}

/// Key times of the walk: passing and contact poses every 9 frames, 1.2 s a stride pair.
const WALK_TIMES: [f32; 5] = [0.0, 0.3, 0.6, 0.9, 1.2];

/// "Walk" (loop): the thighs swing ±30° in opposition, the knees bend most while their leg
/// swings forwards, the arms swing ±20° against the legs and the hips bob 4 cm, lowest at
/// each heel contact. Smooth quaternion keys whose first and last keys are equal.
fn walk() -> LegacyClip {
    let stride = |path, degrees: [f32; 5]| turn(path, X, &WALK_TIMES, &degrees, Ends::Loop);
    let mut clip = clip("Walk", LOOP);
    clip.rotation = vec![
        stride(LEFT_UPPER_LEG, [0.0, -30.0, 0.0, 30.0, 0.0]),
        stride(RIGHT_UPPER_LEG, [0.0, 30.0, 0.0, -30.0, 0.0]),
        stride(LEFT_LOWER_LEG, [35.0, 5.0, 10.0, 20.0, 35.0]),
        stride(RIGHT_LOWER_LEG, [10.0, 20.0, 35.0, 5.0, 10.0]),
        stride(LEFT_UPPER_ARM, [0.0, 20.0, 0.0, -20.0, 0.0]),
        stride(RIGHT_UPPER_ARM, [0.0, -20.0, 0.0, 20.0, 0.0]),
    ];
    let bob = [0.97, 0.93, 0.97, 0.93, 0.97].map(|y| [0.0, y, 0.0]);
    clip.position = vec![smooth(HIPS, &WALK_TIMES, &bob, Ends::Loop)];
    clip
}

/// "Swing" (ping-pong): the right arm eases from 60° forwards to 40° backwards in 1 s, the
/// elbow straightening on the way; the wrap mode plays it back and forth like a pendulum.
fn swing() -> LegacyClip {
    let times = [0.0, 1.0];
    let mut clip = clip("Swing", PING_PONG);
    clip.rotation = vec![
        turn(RIGHT_UPPER_ARM, X, &times, &[-60.0, 40.0], Ends::Flat),
        turn(RIGHT_LOWER_ARM, X, &times, &[-30.0, 0.0], Ends::Flat),
    ];
    clip
}

/// "Reach" (clamp forever): the left arm rises forwards to 160° in 1 s, bending the elbow on
/// the way, while the chest leans 6° to the right; the wrap mode then holds the raised pose.
fn reach() -> LegacyClip {
    let times = [0.0, 0.5, 1.0];
    let mut clip = clip("Reach", CLAMP_FOREVER);
    clip.rotation = vec![
        turn(LEFT_UPPER_ARM, X, &times, &[0.0, -90.0, -160.0], Ends::Flat),
        turn(LEFT_LOWER_ARM, X, &times, &[0.0, -45.0, -10.0], Ends::Flat),
        turn(CHEST, Z, &times, &[0.0, -3.0, -6.0], Ends::Flat),
    ];
    clip
}

/// "Nod" (once): the head (and a little the neck) dips 25° forwards, comes back a bit past
/// upright and settles, in 0.8 s; played once, the clip then rests on its first frame.
fn nod() -> LegacyClip {
    let times = [0.0, 0.2, 0.5, 0.8];
    let mut clip = clip("Nod", ONCE);
    clip.rotation = vec![
        turn(HEAD, X, &times, &[0.0, 25.0, -5.0, 0.0], Ends::Flat),
        turn(NECK, X, &times, &[0.0, 10.0, -2.0, 0.0], Ends::Flat),
    ];
    clip
}

/// Key times of the stepped clip: a new pose every 15 frames.
const STEP_TIMES: [f32; 5] = [0.0, 0.5, 1.0, 1.5, 2.0];

/// "Steps" (loop): a robot jerking between held poses every half second: the hips drop 5 cm
/// and back (position), the head snaps 45° right and left (an Euler curve), the right arm
/// rises forwards in 45° steps and comes down (a quaternion curve). Every key has infinite
/// slopes, Unity's "Constant" tangents.
fn steps() -> LegacyClip {
    let mut clip = clip("Steps", LOOP);
    let hips = [0.95, 0.9, 0.95, 0.9, 0.95].map(|y| [0.0, y, 0.0]);
    clip.position = vec![held_curve(HIPS, hips)];
    let head = [0.0, 45.0, 0.0, -45.0, 0.0].map(|y| [0.0, y, 0.0]);
    clip.euler = vec![held_curve(HEAD, head)];
    let arm = [0.0, -45.0, -90.0, -45.0, 0.0].map(|degrees| quaternion(X, degrees));
    clip.rotation = vec![held_curve(RIGHT_UPPER_ARM, arm)];
    clip
}

/// "Weighted" (loop): a squat and spring up in 1.2 s: the hips drop 20 cm while the thighs
/// turn 40° forwards, the knees bend 80° (the feet stay put) and the arms rise 70° for
/// balance. Every curve has the same weighted keys (see [`squat_keys`]): a quick drop that
/// settles slowly, a slow rise that snaps upright; plain Hermite keys with these flat slopes
/// would ease symmetrically.
fn weighted() -> LegacyClip {
    let mut clip = clip("Weighted", LOOP);
    clip.position = vec![PathCurve::new(
        HIPS,
        squat_keys([0.0, 0.95, 0.0], [0.0, 0.75, 0.0]),
    )];
    let bend = |path, degrees| {
        PathCurve::new(path, squat_keys(quaternion(X, 0.0), quaternion(X, degrees)))
    };
    clip.rotation = vec![
        bend(LEFT_UPPER_LEG, -40.0),
        bend(RIGHT_UPPER_LEG, -40.0),
        bend(LEFT_LOWER_LEG, 80.0),
        bend(RIGHT_LOWER_LEG, 80.0),
        bend(LEFT_UPPER_ARM, -70.0),
        bend(RIGHT_UPPER_ARM, -70.0),
    ];
    clip
}

/// Key times of the Euler clip: every 15 frames, 2 s a loop.
const EULER_TIMES: [f32; 5] = [0.0, 0.5, 1.0, 1.5, 2.0];

/// "Euler" (loop): Euler curves in degrees. The chest twists ±30° with a slight forward lean
/// (rotation order ZXY, Unity's default); the head looks up and to either side with a tilt
/// (order XYZ, so the same angles would give another pose in ZXY); the right arm windmills a
/// full turn per loop (see [`windmill`]).
fn euler() -> LegacyClip {
    let mut clip = clip("Euler", LOOP);
    let chest = [
        [0.0, 0.0, 0.0],
        [5.0, 30.0, 0.0],
        [0.0, 0.0, 0.0],
        [5.0, -30.0, 0.0],
        [0.0, 0.0, 0.0],
    ];
    let head = [
        [0.0, 0.0, 0.0],
        [-15.0, -30.0, 10.0],
        [0.0, 0.0, 0.0],
        [-15.0, 30.0, -10.0],
        [0.0, 0.0, 0.0],
    ];
    let mut head = smooth(HEAD, &EULER_TIMES, &head, Ends::Loop);
    head.rotation_order = ORDER_XYZ;
    clip.euler = vec![
        smooth(CHEST, &EULER_TIMES, &chest, Ends::Loop),
        head,
        windmill(),
    ];
    clip
}

/// The right arm turning forwards at a steady 180°/s, from 0 to -360° over the loop: an Euler
/// curve can run past ±180°, which a quaternion curve cannot express, and 0° and -360° are the
/// same pose, so the loop is seamless although the first and last values differ.
fn windmill() -> PathCurve<[f32; 3]> {
    let speed = [-180.0, 0.0, 0.0];
    let keys = EULER_TIMES
        .iter()
        .map(|&t| KeySpec::new(t, [-180.0 * t, 0.0, 0.0], speed, speed))
        .collect();
    PathCurve::new(RIGHT_UPPER_ARM, keys)
}

/// A smooth rotation curve about `axis` through `degrees` at `times`, with Catmull-Rom speeds.
fn turn(path: &str, axis: Axis, times: &[f32], degrees: &[f32], ends: Ends) -> PathCurve<[f32; 4]> {
    let speeds = slopes(times, degrees, ends);
    let keys = times
        .iter()
        .zip(degrees)
        .zip(speeds)
        .map(|((&time, &angle), speed)| turn_key(time, axis, angle, speed))
        .collect();
    PathCurve::new(path, keys)
}

/// A quaternion key at `time`: `degrees` about `axis`, turning at `speed` degrees per second.
/// Both slopes are the quaternion's time derivative, so the motion is smooth through the key.
fn turn_key(time: f32, axis: Axis, degrees: f32, speed: f32) -> KeySpec<[f32; 4]> {
    let slope = quaternion_rate(axis, degrees, speed);
    KeySpec::new(time, quaternion(axis, degrees), slope, slope)
}

/// The rotation by `degrees` about the unit `axis`, as Unity's (x, y, z, w).
fn quaternion(axis: Axis, degrees: f32) -> [f32; 4] {
    let (sin, cos) = sin_cos_degrees(degrees / 2.0);
    let [x, y, z] = axis;
    [x * sin, y * sin, z * sin, cos]
}

/// The time derivative of [`quaternion`] when the angle changes at `speed` degrees per second.
fn quaternion_rate(axis: Axis, degrees: f32, speed: f32) -> [f32; 4] {
    let (sin, cos) = sin_cos_degrees(degrees / 2.0);
    let half_rate = (speed / 2.0).to_radians();
    let [x, y, z] = axis;
    let along = cos * half_rate;
    [x * along, y * along, z * along, -sin * half_rate]
}

/// The sine and cosine of an angle in degrees, summed from their Taylor series in `f64`.
///
/// std's `sin` and `cos` call the platform's maths library, whose last bit differs between
/// systems; the demo must come out byte for byte the same wherever it is generated, so this
/// uses only IEEE arithmetic, which rounds identically everywhere. Exact to `f32` for the
/// half angles used here (at most 90°).
fn sin_cos_degrees(degrees: f32) -> (f32, f32) {
    let x = f64::from(degrees).to_radians();
    let (mut sin, mut cos) = (0.0_f64, 0.0_f64);
    // term = x^n / n!, added to cos (n even) or sin (n odd) with the series' alternating sign.
    let mut term = 1.0_f64;
    for n in 0..32_u32 {
        match n % 4 {
            0 => cos += term,
            1 => sin += term,
            2 => cos -= term,
            _ => sin -= term,
        }
        term *= x / f64::from(n + 1);
    }
    (sin as f32, cos as f32)
}

/// A smooth Vector3 curve (position, or Euler degrees) through `values` at `times`, with
/// Catmull-Rom slopes per component.
fn smooth(path: &str, times: &[f32], values: &[[f32; 3]], ends: Ends) -> PathCurve<[f32; 3]> {
    let per_component: [Vec<f32>; 3] = std::array::from_fn(|c| {
        let component: Vec<f32> = values.iter().map(|v| v[c]).collect();
        slopes(times, &component, ends)
    });
    let keys = times
        .iter()
        .zip(values)
        .enumerate()
        .map(|(i, (&time, &value))| {
            let slope = per_component.each_ref().map(|s| s[i]);
            KeySpec::new(time, value, slope, slope)
        })
        .collect();
    PathCurve::new(path, keys)
}

/// Catmull-Rom slopes of `values` at `times` (at least two keys; three for [`Ends::Loop`]):
/// each inner key's slope is the secant through its neighbours; the ends follow `ends`.
fn slopes(times: &[f32], values: &[f32], ends: Ends) -> Vec<f32> {
    let last = times.len() - 1;
    (0..=last)
        .map(|i| match (i, ends) {
            (0, Ends::Flat) => 0.0,
            (i, Ends::Flat) if i == last => 0.0,
            (0, Ends::Loop) => seam_slope(times, values),
            (i, Ends::Loop) if i == last => seam_slope(times, values),
            (i, _) => (values[i + 1] - values[i - 1]) / (times[i + 1] - times[i - 1]),
        })
        .collect()
}

/// The slope where a loop wraps: the secant from the second-to-last key to the second, across
/// the last key (which is the first one again).
fn seam_slope(times: &[f32], values: &[f32]) -> f32 {
    let last = times.len() - 1;
    let span = (times[last] - times[last - 1]) + (times[1] - times[0]);
    (values[1] - values[last - 1]) / span
}

/// A curve holding each of `values` from its time in [`STEP_TIMES`] to the next.
fn held_curve<T: KeyValue>(path: &str, values: [T; 5]) -> PathCurve<T> {
    let keys = STEP_TIMES
        .iter()
        .zip(values)
        .map(|(&time, value)| held(time, value))
        .collect();
    PathCurve::new(path, keys)
}

/// A key with Unity's "Constant" tangents: both slopes infinite, so the segments on either
/// side hold their left key's value.
fn held<T: KeyValue>(time: f32, value: T) -> KeySpec<T> {
    KeySpec::new(
        time,
        value,
        T::splat(f32::INFINITY),
        T::splat(f32::INFINITY),
    )
}

/// The squat's keys: `standing` at 0 s, `down` at 0.6 s, `standing` again at 1.2 s, all with
/// flat slopes. The handle leaving each stand is short (0.1) and the one arriving at the squat
/// long (0.8): a quick drop that settles slowly. Leaving the squat the handle is long (0.8)
/// and arriving at the stand short (0.1): a slow rise that snaps upright. The loop's outer
/// sides stay unweighted, as Unity marks only the sides a user weighted.
fn squat_keys<T: KeyValue>(standing: T, down: T) -> Vec<KeySpec<T>> {
    vec![
        weigh_out(KeySpec::flat(0.0, standing), 0.1),
        weigh_out(weigh_in(KeySpec::flat(0.6, down), 0.8), 0.8),
        weigh_in(KeySpec::flat(1.2, standing), 0.1),
    ]
}

/// `key` with its incoming side weighted (`weightedMode` bit 1) by `weight`.
fn weigh_in<T: KeyValue>(key: KeySpec<T>, weight: f32) -> KeySpec<T> {
    KeySpec {
        weighted_mode: key.weighted_mode | 1,
        in_weight: T::splat(weight),
        ..key
    }
}

/// `key` with its outgoing side weighted (`weightedMode` bit 2) by `weight`.
fn weigh_out<T: KeyValue>(key: KeySpec<T>, weight: f32) -> KeySpec<T> {
    KeySpec {
        weighted_mode: key.weighted_mode | 2,
        out_weight: T::splat(weight),
        ..key
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use clipscope_core::clip::ClipData;
    use clipscope_core::clip::{BindingKind, attribute};
    use clipscope_core::curve::WrapMode;
    use clipscope_core::demo::{DEMO, DEMO_FILE_NAME};
    use clipscope_core::hash::path_hash;
    use clipscope_core::rig::RigComponent as Component;
    use clipscope_core::workspace::{OpenOptions, Workspace};

    /// The clips in the order the Animation component lists them, with their wrap modes.
    const CLIPS: [(&str, WrapMode); 7] = [
        ("Walk", WrapMode::Loop),
        ("Swing", WrapMode::PingPong),
        ("Reach", WrapMode::ClampForever),
        ("Nod", WrapMode::Once),
        ("Steps", WrapMode::Loop),
        ("Weighted", WrapMode::Loop),
        ("Euler", WrapMode::Loop),
    ];

    /// A time just before a key, to see what the segment before it holds.
    const JUST_BEFORE: f32 = 1e-3;

    /// The embedded demo, opened the way the viewer opens it.
    fn open_demo() -> Workspace {
        Workspace::open_bytes(
            Path::new(DEMO_FILE_NAME),
            DEMO.to_vec(),
            &OpenOptions::default(),
        )
    }

    /// The decoded clip named `name`.
    fn clip<'a>(ws: &'a Workspace, name: &str) -> &'a ClipData {
        ws.clips
            .iter()
            .filter_map(|entry| entry.data.as_ref().ok())
            .find(|clip| clip.name == name)
            .unwrap_or_else(|| panic!("no decoded clip {name:?}"))
    }

    /// The curves of `clip`'s `attr` track on the joint at `path`, in component order.
    fn track<'a>(clip: &'a ClipData, path: &str, attr: u32) -> &'a [usize] {
        let found = clip.tracks.iter().find(|track| {
            let binding = &clip.bindings[track.binding];
            binding.path == path_hash(path) && binding.attribute == attr
        });
        let found = found.unwrap_or_else(|| panic!("{}: no track {attr} on {path}", clip.name));
        &found.curves
    }

    /// The `N` components of `clip`'s `attr` track on `path` at clip time `t`.
    fn value<const N: usize>(clip: &ClipData, path: &str, attr: u32, t: f32) -> [f32; N] {
        let curves = track(clip, path, attr);
        assert_eq!(curves.len(), N, "{}: {path} track {attr}", clip.name);
        std::array::from_fn(|c| clip.curves[curves[c]].curve.sample(t))
    }

    /// The rotation of the joint at `path` at clip time `t`.
    fn rotation(clip: &ClipData, path: &str, t: f32) -> [f32; 4] {
        value(clip, path, attribute::ROTATION, t)
    }

    /// The quaternion of a turn by `degrees` about X, from std's trigonometry (an independent
    /// check of the series the demo is built with).
    fn pitch(degrees: f32) -> [f32; 4] {
        let half = (degrees / 2.0).to_radians();
        [half.sin(), 0.0, 0.0, half.cos()]
    }

    fn assert_close<const N: usize>(actual: [f32; N], expected: [f32; N], what: &str) {
        let close = actual
            .iter()
            .zip(expected)
            .all(|(a, e)| (a - e).abs() < 1e-5);
        assert!(close, "{what}: {actual:?}, expected {expected:?}");
    }

    #[test]
    fn committed_demo_is_what_the_code_generates() {
        assert!(
            DEMO == demo_bytes().as_slice(),
            "crates/core/assets/demo.unity3d differs from what crates/authoring/src/demo.rs generates: \
             run `cargo run --release --example make_demo` and commit the file"
        );
        assert!(DEMO.len() < 32 * 1024, "the demo is {} bytes", DEMO.len());
    }

    #[test]
    fn demo_opens_with_seven_clips_and_their_wrap_modes() {
        let ws = open_demo();
        assert!(ws.errors.is_empty(), "{:?}", ws.errors);
        assert!(ws.warnings.is_empty(), "{:?}", ws.warnings);
        let found: Vec<(&str, WrapMode)> = ws
            .clips
            .iter()
            .map(|entry| {
                let clip = entry.data.as_ref().expect("every demo clip decodes");
                assert!(clip.legacy, "{} is legacy", clip.name);
                assert!(
                    clip.warnings.is_empty(),
                    "{}: {:?}",
                    clip.name,
                    clip.warnings
                );
                assert_eq!(clip.sample_rate, SAMPLE_RATE);
                (clip.name.as_str(), clip.wrap_mode())
            })
            .collect();
        assert_eq!(found, CLIPS);
    }

    #[test]
    fn rig_has_every_joint_and_reaches_every_clip() {
        let ws = open_demo();
        assert_eq!(ws.rigs.len(), 1);
        let rig = &ws.rigs[0];
        assert_eq!(rig.component, Component::Animation);
        assert_eq!(rig.name, ROOT_NAME);
        let skeleton = &rig.skeleton;
        assert_eq!(skeleton.joints.len(), JOINTS.len() + 1);
        for (path, position) in JOINTS {
            let index = skeleton.joint_by_hash(path_hash(path));
            let joint = &skeleton.joints[index.unwrap_or_else(|| panic!("no joint {path}"))];
            assert_eq!(joint.path, path);
            assert_eq!(joint.position, position, "{path}");
            assert_eq!(joint.rotation, [0.0, 0.0, 0.0, 1.0], "{path}");
        }
        assert_eq!(rig.unresolved_clips, 0);
        let names: Vec<&str> = rig
            .clips
            .iter()
            .map(|&at| {
                ws.clip(at)
                    .expect("the rig's clips are loaded")
                    .name
                    .as_str()
            })
            .collect();
        assert_eq!(names, CLIPS.map(|(name, _)| name));
    }

    #[test]
    fn every_binding_names_a_joint() {
        let ws = open_demo();
        let skeleton = &ws.rigs[0].skeleton;
        for clip in ws.clips.iter().filter_map(|entry| entry.data.as_ref().ok()) {
            assert!(
                !clip.bindings.is_empty(),
                "{} animates something",
                clip.name
            );
            for binding in &clip.bindings {
                let joint = skeleton.joint_by_hash(binding.path);
                assert!(joint.is_some(), "{}: {}", clip.name, binding.describe());
            }
        }
    }

    #[test]
    fn key_times_fall_on_frames() {
        let ws = open_demo();
        for clip in ws.clips.iter().filter_map(|entry| entry.data.as_ref().ok()) {
            for key in clip.curves.iter().flat_map(|c| c.curve.keys()) {
                let frame = key.time * SAMPLE_RATE;
                assert!(
                    (frame - frame.round()).abs() < 1e-3,
                    "{}: {}",
                    clip.name,
                    key.time
                );
            }
        }
    }

    #[test]
    fn walk_passes_through_its_poses_and_loops_seamlessly() {
        let ws = open_demo();
        let walk = clip(&ws, "Walk");
        assert_eq!((walk.start, walk.stop), (0.0, 1.2));
        assert_close(
            rotation(walk, LEFT_UPPER_LEG, 0.3),
            pitch(-30.0),
            "left thigh forward",
        );
        assert_close(
            rotation(walk, RIGHT_UPPER_LEG, 0.3),
            pitch(30.0),
            "right thigh back",
        );
        assert_close(
            rotation(walk, RIGHT_LOWER_LEG, 0.6),
            pitch(35.0),
            "right knee",
        );
        assert_close(
            rotation(walk, LEFT_UPPER_ARM, 0.9),
            pitch(-20.0),
            "left arm",
        );
        let hips: [f32; 3] = value(walk, HIPS, attribute::POSITION, 0.3);
        assert_close(hips, [0.0, 0.93, 0.0], "hips at contact");
        for curve in walk.curves.iter().map(|c| c.curve.keys()) {
            let (first, last) = (curve[0], curve[curve.len() - 1]);
            assert_eq!(first.value, last.value);
            assert_eq!(
                (first.in_slope, first.out_slope),
                (last.in_slope, last.out_slope)
            );
        }
    }

    #[test]
    fn swing_reach_and_nod_play_by_their_wrap_modes() {
        let ws = open_demo();
        let swing = clip(&ws, "Swing");
        assert_close(
            rotation(swing, RIGHT_UPPER_ARM, 0.0),
            pitch(-60.0),
            "swing start",
        );
        assert_close(
            rotation(swing, RIGHT_UPPER_ARM, 1.0),
            pitch(40.0),
            "swing end",
        );
        let back = swing.wrap_mode().map_time(1.75, swing.start, swing.stop);
        assert_close([back], [0.25], "ping-pong comes back");

        let reach = clip(&ws, "Reach");
        let held = reach.wrap_mode().map_time(5.0, reach.start, reach.stop);
        assert_eq!(held, 1.0);
        assert_close(
            rotation(reach, LEFT_UPPER_ARM, held),
            pitch(-160.0),
            "arm up",
        );
        let lean = value(reach, CHEST, attribute::ROTATION, held);
        let half = (-3.0_f32).to_radians();
        assert_close(lean, [0.0, 0.0, half.sin(), half.cos()], "chest lean");

        let nod = clip(&ws, "Nod");
        assert_close(rotation(nod, HEAD, 0.2), pitch(25.0), "head down");
        assert_close(rotation(nod, HEAD, 0.5), pitch(-5.0), "head back");
        let after = nod.wrap_mode().map_time(2.0, nod.start, nod.stop);
        assert_close(rotation(nod, HEAD, after), pitch(0.0), "once ends upright");
    }

    #[test]
    fn steps_hold_each_key_until_the_next() {
        let ws = open_demo();
        let steps = clip(&ws, "Steps");
        for curve in steps.curves.iter().map(|c| c.curve.keys()) {
            assert!(curve.iter().all(|key| key.is_step_out()), "{curve:?}");
        }
        let hips = |t| value::<3>(steps, HIPS, attribute::POSITION, t)[1];
        assert_eq!(hips(0.5 - JUST_BEFORE), 0.95);
        assert_eq!(hips(0.5), 0.9);
        let head = |t| value::<3>(steps, HEAD, attribute::EULER, t)[1];
        assert_eq!(head(1.0 - JUST_BEFORE), 45.0);
        assert_eq!(head(1.0), 0.0);
        let arm = |t| rotation(steps, RIGHT_UPPER_ARM, t);
        assert_close(arm(1.5 - JUST_BEFORE), pitch(-90.0), "arm held up");
        assert_close(arm(1.5), pitch(-45.0), "arm stepped down");
    }

    #[test]
    fn weighted_keys_change_the_squat_timing() {
        let ws = open_demo();
        let squat = clip(&ws, "Weighted");
        for curve in squat.curves.iter().map(|c| c.curve.keys()) {
            assert!(curve.iter().all(|key| key.weighted_mode != 0), "{curve:?}");
        }
        let hips = |t| value::<3>(squat, HIPS, attribute::POSITION, t)[1];
        assert_close(
            [hips(0.0), hips(0.6), hips(1.2)],
            [0.95, 0.75, 0.95],
            "hips keys",
        );
        assert_close(
            rotation(squat, LEFT_LOWER_LEG, 0.6),
            pitch(80.0),
            "knee bent",
        );
        // Plain Hermite keys with flat slopes pass the middle of the drop at 0.85; the short
        // handle leaving the stand drops the hips much sooner.
        assert!(hips(0.3) < 0.8, "hips at 0.3 s: {}", hips(0.3));
    }

    #[test]
    fn euler_curves_keep_their_rotation_orders_and_degrees() {
        let ws = open_demo();
        let euler = clip(&ws, "Euler");
        let order = |path: &str| {
            let index = euler
                .bindings
                .iter()
                .position(|b| b.path == path_hash(path));
            euler.bindings[index.expect("bound")].kind()
        };
        assert_eq!(order(CHEST), BindingKind::Euler { order: 4 });
        assert_eq!(order(HEAD), BindingKind::Euler { order: 0 });
        let angles = |path, t| value::<3>(euler, path, attribute::EULER, t);
        assert_close(angles(CHEST, 1.5), [5.0, -30.0, 0.0], "chest twist");
        assert_close(angles(HEAD, 0.5), [-15.0, -30.0, 10.0], "head look");
        assert_close(
            angles(RIGHT_UPPER_ARM, 1.0),
            [-180.0, 0.0, 0.0],
            "windmill half",
        );
        assert_close(
            angles(RIGHT_UPPER_ARM, 2.0),
            [-360.0, 0.0, 0.0],
            "windmill full",
        );
        // Constant speed: a Hermite segment whose slopes equal its secant is a straight line.
        assert_close(
            angles(RIGHT_UPPER_ARM, 0.25),
            [-45.0, 0.0, 0.0],
            "windmill steady",
        );
    }
}
