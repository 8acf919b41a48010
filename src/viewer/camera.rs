//! The orbit camera: left drag orbits, right or middle drag pans, the wheel zooms; `f` and
//! loading a clip frames the character's body over the clip's motion, decided per posed
//! frame ([`clipscope_core::framing`]): a humanoid rig's human bones, else the joints carrying
//! skinned vertices, else the joints without the far outliers, with the drawn meshes and
//! other joints that lie near it. The camera starts at the rig's front, in a three-quarter
//! view, at the distance where those points, seen in perspective from there, fill 90% of the
//! view's height or width (the view's own shape: fitted again when the panels resize it).
//! Joints left out stay drawn (faded) and are reached by zooming out.

use bevy::camera::CameraOutputMode;
use bevy::camera::visibility::RenderLayers;
use bevy::core_pipeline::tonemapping::Tonemapping;
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy::render::render_resource::BlendState;
use bevy::render::renderer::RenderAdapterInfo;
use bevy_egui::input::EguiWantsInput;
use bevy_egui::{EguiGlobalSettings, PrimaryEguiContext};

use clipscope_bevy::{DirectClip, humanoid_posed_positions, rest_transform, world_positions};
use clipscope_core::avatar::HumanBone;
use clipscope_core::clip::ClipData;
use clipscope_core::framing::frame_points;
use clipscope_core::humanoid::{HumanoidRig, PoseOptions};
use clipscope_core::rig::Skeleton;

/// Where the camera looks from.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct OrbitCamera {
    pub focus: Vec3,
    pub radius: f32,
    /// Radians about +Y.
    pub yaw: f32,
    /// Radians above the horizon.
    pub pitch: f32,
    /// The framed focus and radius, restored by `f`.
    pub framed: (Vec3, f32),
    /// The framed points (Bevy space, thinned), fitted again when the view turns to face a
    /// rig or its shape changes.
    pub points: Vec<Vec3>,
    /// The 3D view's width over its height.
    pub aspect: f32,
    /// How far along the ground the rig's place has moved (root motion accumulated over
    /// loops): the camera is carried as far, so a walking character stays in view.
    pub carried: Vec3,
}

/// How far the camera turns from the rig's front (radians): a three-quarter view, as
/// Unity's Animation preview shows a character.
pub const THREE_QUARTER: f32 = 0.6;

/// The share of the view's height (or width) the framed box fills, seen from the camera:
/// most of it, with a little room around the character.
const FILL: f32 = 0.9;

/// Most points framing fits the view to (more are thinned evenly).
const FIT_POINTS: usize = 8192;

/// Half the vertical field of view (Bevy's default perspective, 45°).
const HALF_FOV: f32 = std::f32::consts::FRAC_PI_8;

/// The camera's height above the horizon when it faces a rig (radians).
const FACING_PITCH: f32 = 0.3;

impl Default for OrbitCamera {
    fn default() -> Self {
        OrbitCamera {
            focus: Vec3::Y,
            radius: 4.0,
            yaw: 0.6,
            pitch: 0.3,
            framed: (Vec3::Y, 4.0),
            points: Vec::new(),
            aspect: 1.0,
            carried: Vec3::ZERO,
        }
    }
}

impl OrbitCamera {
    /// Frames a skeleton over its rest pose and the poses `clip` gives it across its length,
    /// so a clip that carries its rig away (root motion) stays in view; joints far from
    /// the rest of the rig (weapon sockets, camera targets) do not count.
    pub fn frame_motion(&mut self, skeleton: &Skeleton, clip: &DirectClip) {
        self.frame_points(&motion_points(skeleton, clip));
    }

    /// Frames a humanoid rig over its rest pose and the poses the humanoid clip `clip` gives
    /// it across its length, with and without root motion (so the view holds when root
    /// motion is switched).
    pub fn frame_humanoid_motion(
        &mut self,
        skeleton: &Skeleton,
        rig: &HumanoidRig,
        clip: &ClipData,
    ) {
        self.frame_points(&humanoid_motion_points(skeleton, rig, clip));
    }

    /// Frames the finite `points`.
    pub fn frame_points(&mut self, points: &[Vec3]) {
        let (min, max) = points.iter().filter(|p| p.is_finite()).fold(
            (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
            |(lo, hi), p| (lo.min(*p), hi.max(*p)),
        );
        if points.is_empty() || !min.is_finite() || !max.is_finite() || min.x > max.x {
            return;
        }
        let every = points.len().div_ceil(FIT_POINTS).max(1);
        self.framed.0 = (min + max) / 2.0;
        // A thinned cloud keeps its extreme points along each axis: real points, not the
        // box's corners (a corner no body part reaches, seen in three-quarter view, would
        // push the camera far back).
        let finite = || points.iter().filter(|p| p.is_finite());
        let extremes = (0..3).flat_map(|axis| {
            let key = move |a: &&Vec3, b: &&Vec3| a[axis].total_cmp(&b[axis]);
            [finite().min_by(key), finite().max_by(key)]
        });
        self.points = finite()
            .step_by(every)
            .chain(extremes.flatten())
            .copied()
            .collect();
        self.fit();
    }

    /// Places the camera on its current bearing, looking at the framed box's centre, at the
    /// distance where the framed points, seen in perspective, fill [`FILL`] of the view's
    /// height or width (whichever binds first), and makes that the framed view.
    fn fit(&mut self) {
        if self.points.is_empty() {
            return;
        }
        let focus = self.framed.0;
        let turn = Quat::from_euler(EulerRot::YXZ, self.yaw, -self.pitch, 0.0).inverse();
        let tan = HALF_FOV.tan() * FILL;
        let aspect = if self.aspect.is_finite() {
            self.aspect.clamp(0.2, 5.0)
        } else {
            1.0
        };
        let mut distance: f32 = 0.0;
        for p in &self.points {
            // The point in the camera's axes: x right, y up, z towards the camera.
            let v = turn * (*p - focus);
            distance = distance
                .max(v.z + v.y.abs() / tan)
                .max(v.z + v.x.abs() / (tan * aspect))
                .max(v.z * 1.1);
        }
        // A single point (a one-joint rig with nothing drawn near it): a view of a few metres.
        let extent = self
            .points
            .iter()
            .map(|p| p.distance(focus))
            .fold(0.0, f32::max);
        let radius = if extent < 1e-3 {
            2.0
        } else {
            distance.clamp(0.05, 1e5)
        };
        self.focus = focus;
        self.radius = radius;
        self.framed = (focus, radius);
    }

    /// The view's shape changed (panels resized): a view still as framed is fitted again.
    pub fn set_aspect(&mut self, aspect: f32) {
        let framed = (self.focus, self.radius) == self.framed;
        self.aspect = aspect;
        if framed {
            self.fit();
        }
    }

    /// Turns the camera to the front of a rig facing `forward` (Bevy space), in a
    /// three-quarter view; a vertical or unusable direction leaves the view as it is.
    pub fn face(&mut self, forward: Vec3) {
        let flat = Vec3::new(forward.x, 0.0, forward.z);
        if !flat.is_finite() || flat.length() < 1e-4 {
            return;
        }
        self.yaw = flat.x.atan2(flat.z) + THREE_QUARTER;
        self.pitch = FACING_PITCH;
        self.fit();
    }

    /// Looks straight at the front of a 2D scene (Unity's sprites face its -Z, where its 2D
    /// camera stands), level, and fits the framed points again.
    pub fn face_front(&mut self) {
        self.yaw = 0.0;
        self.pitch = 0.0;
        self.fit();
    }

    /// Back to the framed view.
    pub fn reframe(&mut self) {
        (self.focus, self.radius) = self.framed;
    }

    /// The camera transform for this orbit, carried along with the rig.
    pub fn transform(&self) -> Transform {
        let rotation = Quat::from_euler(EulerRot::YXZ, self.yaw, -self.pitch, 0.0);
        let focus = self.focus + self.carried;
        let position = focus + rotation * Vec3::new(0.0, 0.0, self.radius);
        Transform::from_translation(position).looking_at(focus, Vec3::Y)
    }
}

/// What one posed frame gives framing ([`frame_points`]) in Bevy space: the body's joints
/// (the `marked` ones where any is, else all, less their far outliers) and the `extra`
/// points near them.
pub fn frame_of(joints: &[Vec3], marked: &[bool], extra: &[Vec3]) -> Vec<Vec3> {
    let arrays = |v: &[Vec3]| -> Vec<[f32; 3]> { v.iter().map(|p| p.to_array()).collect() };
    frame_points(&arrays(joints), marked, &arrays(extra))
        .into_iter()
        .map(Vec3::from)
        .collect()
}

/// The joints of a generic rig to frame over `clip`: each frame's joints but that frame's
/// far outliers, at rest and posed across the clip.
pub fn motion_points(skeleton: &Skeleton, clip: &DirectClip) -> Vec<Vec3> {
    let mut frames = vec![world_positions(skeleton, rest_transform)];
    frames.extend(
        sample_times(clip.clip.start, clip.clip.stop).map(|t| clip.posed_positions(skeleton, t)),
    );
    frames.iter().flat_map(|j| frame_of(j, &[], &[])).collect()
}

/// Per joint of `skeleton`: true for the human bones of `rig`.
pub fn human_joints(skeleton: &Skeleton, rig: &HumanoidRig) -> Vec<bool> {
    (0..skeleton.joints.len())
        .map(|j| rig.joint_bone(j).is_some())
        .collect()
}

/// The human bones posed by the humanoid clip `clip` on `rig` across its length, with and
/// without root motion (so the view holds when root motion is switched), less each frame's
/// far outliers. Other joints do not count (IK poles, sockets: a weapon socket 10 km away,
/// wherever the clip puts it), nor does the rest pose, which a humanoid clip never shows (an
/// FBX rest pose may lie or stand elsewhere).
pub fn humanoid_motion_points(
    skeleton: &Skeleton,
    rig: &HumanoidRig,
    clip: &ClipData,
) -> Vec<Vec3> {
    let marked = human_joints(skeleton, rig);
    let mut frames = Vec::new();
    for root_motion in [true, false] {
        let options = PoseOptions { root_motion };
        frames.extend(
            sample_times(clip.start, clip.stop)
                .map(|t| humanoid_posed_positions(rig, skeleton, clip, t, &options)),
        );
    }
    frames
        .iter()
        .flat_map(|j| frame_of(j, &marked, &[]))
        .collect()
}

/// The way a humanoid rig faces in a posed frame (Bevy space, horizontal): up crossed with
/// its left-to-right hips and shoulders; `None` when those bones are missing.
pub fn humanoid_forward(joints: &[Vec3], rig: &HumanoidRig) -> Option<Vec3> {
    let at = |b: HumanBone| rig.bone_joint(b).and_then(|j| joints.get(j)).copied();
    let pairs = [
        (HumanBone::LeftUpperLeg, HumanBone::RightUpperLeg),
        (HumanBone::LeftUpperArm, HumanBone::RightUpperArm),
    ];
    let right: Vec3 = pairs
        .iter()
        .filter_map(|&(l, r)| Some(at(r)? - at(l)?))
        .sum();
    // Bevy's space is Unity's mirrored: Unity's forward, right × up there, is up × right here.
    let forward = Vec3::Y.cross(right);
    (forward.is_finite() && forward.length() > 1e-6).then(|| forward.normalize())
}

/// The way a generic rig faces: its root's forward axis (Unity's +Z), in Bevy space.
pub fn rig_forward(skeleton: &Skeleton) -> Option<Vec3> {
    let root = skeleton.joints.first()?;
    Some(rest_transform(root).rotation * clipscope_bevy::curves::position_to_bevy([0.0, 0.0, 1.0]))
}

/// How many of `points` lie outside the framed view (more than its radius from its
/// focus): what the status line reports.
pub fn outside_view(orbit: &OrbitCamera, points: &[Vec3]) -> usize {
    let (focus, radius) = orbit.framed;
    points
        .iter()
        .filter(|p| !p.is_finite() || p.distance(focus) > radius)
        .count()
}

/// The clip times framing samples: 25 from `start` to `stop`, none for a bad range.
fn sample_times(start: f32, stop: f32) -> impl Iterator<Item = f32> {
    const SAMPLES: usize = 24;
    let valid = start.is_finite() && stop.is_finite() && stop >= start;
    (0..=SAMPLES)
        .filter(move |_| valid)
        .map(move |i| start + (stop - start) * i as f32 / SAMPLES as f32)
}

/// Spawns the 3D camera (rendering into the space between the panels) and a camera that
/// draws only the egui panels over the whole window.
pub fn spawn_camera(
    mut commands: Commands,
    orbit: Res<OrbitCamera>,
    mut egui: ResMut<EguiGlobalSettings>,
) {
    egui.auto_create_primary_context = false;
    commands.spawn((Camera3d::default(), Tonemapping::None, orbit.transform()));
    commands.spawn((
        PrimaryEguiContext,
        Camera2d,
        RenderLayers::none(),
        Camera {
            order: 1,
            output_mode: CameraOutputMode::Write {
                blend_state: Some(BlendState::ALPHA_BLENDING),
                clear_color: ClearColorConfig::None,
            },
            clear_color: ClearColorConfig::Custom(Color::NONE),
            ..default()
        },
    ));
}

/// On a software renderer (llvmpipe and the like), turns multisampling off: it nearly halves
/// the frame rate there (8.5 against 14.9 frames a second with one character, measured with
/// `--fps`), and smooth edges matter less than a viewer that keeps up.
pub fn no_msaa_on_software(
    adapter: Option<Res<RenderAdapterInfo>>,
    mut cameras: Query<&mut Msaa>,
    mut done: Local<bool>,
) {
    let Some(adapter) = adapter.filter(|_| !*done) else {
        return;
    };
    *done = true;
    // Bevy does not re-export wgpu's `DeviceType`; its variant's name says the same.
    if format!("{:?}", adapter.device_type) != "Cpu" {
        return;
    }
    info!("software renderer ({}): multisampling off", adapter.name);
    for mut msaa in &mut cameras {
        *msaa = Msaa::Off;
    }
}

/// Mouse orbit, pan and zoom, unless egui is using the pointer.
pub fn orbit_controls(
    mut orbit: ResMut<OrbitCamera>,
    buttons: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    egui: Option<Res<EguiWantsInput>>,
) {
    if egui.is_some_and(|e| e.wants_pointer_input() || e.is_pointer_over_area()) {
        return;
    }
    let delta = motion.delta;
    if buttons.pressed(MouseButton::Left) {
        orbit.yaw -= delta.x * 0.008;
        orbit.pitch = (orbit.pitch + delta.y * 0.008).clamp(-1.5, 1.5);
    } else if buttons.pressed(MouseButton::Right) || buttons.pressed(MouseButton::Middle) {
        let t = orbit.transform();
        let scale = orbit.radius * 0.0015;
        orbit.focus += (t.left() * delta.x + t.up() * delta.y) * scale;
    }
    let lines = match scroll.unit {
        MouseScrollUnit::Line => scroll.delta.y,
        MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
    };
    if lines != 0.0 {
        orbit.radius = (orbit.radius * 0.9f32.powf(lines)).clamp(0.05, 1e5);
    }
}

/// Keeps the orbit's aspect that of the 3D view (the space the panels leave).
pub fn track_aspect(
    cameras: Query<&Camera, (With<Camera3d>, Changed<Camera>)>,
    mut orbit: ResMut<OrbitCamera>,
) {
    let Some(size) = cameras
        .iter()
        .find_map(|c| c.viewport.as_ref().map(|v| v.physical_size))
    else {
        return;
    };
    let aspect = size.x as f32 / size.y.max(1) as f32;
    if (aspect - orbit.aspect).abs() > 1e-3 {
        orbit.set_aspect(aspect);
    }
}

/// Moves the camera to the orbit.
pub fn apply_orbit(orbit: Res<OrbitCamera>, mut cameras: Query<&mut Transform, With<Camera3d>>) {
    if !orbit.is_changed() {
        return;
    }
    for mut t in &mut cameras {
        *t = orbit.transform();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `p` projects inside the framed view (vertical field of view 45°, the
    /// orbit's aspect), in front of the camera.
    fn in_view(orbit: &OrbitCamera, p: Vec3) -> bool {
        let camera = orbit.transform();
        let v = camera.rotation.inverse() * (p - camera.translation);
        let depth = -v.z;
        let tan = HALF_FOV.tan();
        depth > 0.0
            && v.y.abs() <= depth * tan * 1.0001
            && v.x.abs() <= depth * tan * orbit.aspect * 1.0001
    }

    #[test]
    fn framing_covers_every_finite_point() {
        let points = [
            Vec3::ZERO,
            Vec3::new(3.0, 1.0, -2.0),
            Vec3::new(-1.0, 0.5, 4.0),
            Vec3::NAN,
            Vec3::INFINITY,
        ];
        let mut orbit = OrbitCamera::default();
        orbit.frame_points(&points);
        assert!(orbit.focus.is_finite() && orbit.radius.is_finite());
        for aspect in [0.5, 1.0, 1.4, 3.0] {
            orbit.set_aspect(aspect);
            for p in points.iter().filter(|p| p.is_finite()) {
                assert!(in_view(&orbit, *p), "{p} at aspect {aspect}");
            }
        }
        assert_eq!(orbit.framed, (orbit.focus, orbit.radius));
        // Nothing finite to frame: the view stays.
        let before = orbit.clone();
        orbit.frame_points(&[Vec3::NAN]);
        assert_eq!(orbit, before);
    }

    /// A standing body (1.8 m tall, arms out) seen from its front in three-quarter view
    /// fills most of a landscape view's height (0.67: the bounding sphere framing gave
    /// 0.62), and every corner of its box stays in view.
    #[test]
    fn a_standing_body_fills_most_of_the_view() {
        let (min, max) = (Vec3::new(-0.8, 0.0, -0.2), Vec3::new(0.8, 1.8, 0.2));
        let mut orbit = OrbitCamera {
            aspect: 1.36,
            ..OrbitCamera::default()
        };
        let corners: Vec<Vec3> = (0..8)
            .map(|i| {
                Vec3::new(
                    if i & 1 == 0 { min.x } else { max.x },
                    if i & 2 == 0 { min.y } else { max.y },
                    if i & 4 == 0 { min.z } else { max.z },
                )
            })
            .collect();
        orbit.frame_points(&corners);
        orbit.face(Vec3::Z);
        let camera = orbit.transform();
        let project = |p: Vec3| {
            let v = camera.rotation.inverse() * (p - camera.translation);
            v.y / (-v.z * HALF_FOV.tan())
        };
        let (head, feet) = (project(Vec3::new(0.0, 1.8, 0.0)), project(Vec3::ZERO));
        let fill = (head - feet) / 2.0;
        assert!(fill > 0.65, "the body fills {fill} of the view's height");
        for c in corners {
            assert!(in_view(&orbit, c), "corner {c}");
        }
    }
}
