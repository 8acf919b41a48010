//! The viewer: preview a clip on its rig, scrub the timeline, see wrap and step behaviour.
//!
//! A Bevy app with clipscope's plugin, gizmos for the skeleton (and a humanoid clip's IK
//! goals and body), an orbit camera and egui panels (files and clips, the rig list and joint
//! tree, unmatched bindings, the timeline, the curve view and the check report; a clip pinned
//! as reference is compared with the shown one). `clipscope` with no arguments opens it on the built-in demo.

mod camera;
mod capture;
mod clip_index;
mod controller;
mod controller_pose;
mod draw;
mod fps;
mod ground;
mod input;
mod library;
mod load;
mod markers;
mod model;
mod onion;
mod onion_mesh;
mod reference;
mod rigs;
mod root_motion;
mod scene;
mod ui;

pub use clip_index::ClipIndex;
pub use library::Library;
pub use root_motion::RootMotionMode;
pub use scene::{initial_clip, initial_reference};

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::window::{PresentMode, WindowResolution};
use bevy_egui::{EguiPlugin, EguiPrimaryContextPass};

use clipscope_bevy::ClipscopePlugin;
use clipscope_core::workspace::{RigEntry, Workspace};

/// What to open and how.
#[derive(Resource, Clone, Debug, Default)]
pub struct ViewerOptions {
    /// Files and folders; empty opens the built-in demo.
    pub paths: Vec<PathBuf>,
    /// Clip to select first.
    pub clip: Option<String>,
    /// Clip to pin as the reference the shown clip is compared with: the first decoded clip
    /// of that name other than the shown one, in any opened file (a `.anim` against its build).
    pub reference: Option<String>,
    /// The rig the clips play on, by name and path id (`--rig`, `--rig-path-id`); the
    /// automatic pick per clip when neither is given.
    pub rig: RigChoice,
    /// The files already opened and their clips weighed (the CLI opens them first when
    /// `--rig` or `--clip` must be checked); `paths` are then not read again.
    pub workspace: Option<(Library, ClipIndex)>,
    /// Clip time to show (paused).
    pub at: Option<f32>,
    /// The play range (in and out clip times) the shown clip plays inside.
    pub range: Option<(f32, f32)>,
    /// Onion skins: poses drawn before and after the playhead (0: none).
    pub onion: u32,
    /// Frames between onion poses.
    pub onion_step: u32,
    /// Draw this joint's motion path (its name).
    pub path: Option<String>,
    /// Render one frame to this PNG and exit.
    pub screenshot: Option<PathBuf>,
    pub unity_version: Option<String>,
    /// Hide the meshes (the rig panel can show them again).
    pub no_mesh: bool,
    /// Draw the joint markers over the meshes too.
    pub joints: bool,
    /// Draw the body's root-motion trajectory.
    pub trajectory: bool,
    /// Draw the end joints' motion paths (head, hands, feet).
    pub end_paths: bool,
    /// How root motion plays over loops (in place, loop and reset, accumulate).
    pub root_motion: root_motion::RootMotionMode,
    /// Measure the frames a second over this many seconds (vsync off), print and exit.
    pub fps: Option<f32>,
}

/// A rig named by its GameObject's name and its component's path id, either or both.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RigChoice {
    pub name: Option<String>,
    pub path_id: Option<i64>,
}

impl RigChoice {
    /// True when a name or a path id is given.
    pub fn given(&self) -> bool {
        self.name.is_some() || self.path_id.is_some()
    }

    /// True when `rig` has the name and path id given.
    pub fn matches(&self, rig: &RigEntry) -> bool {
        self.name.as_ref().is_none_or(|n| rig.name == *n)
            && self.path_id.is_none_or(|id| rig.at.path_id == id)
    }

    /// The index of the first rig of `ws` it names; `None` when none is named (the viewer
    /// then picks a rig per clip, as `check` does).
    pub fn find(&self, ws: &Workspace) -> Option<usize> {
        if !self.given() {
            return None;
        }
        ws.rigs.iter().position(|r| self.matches(r))
    }
}

/// Runs the viewer until its window closes.
pub fn run(options: ViewerOptions) -> AppExit {
    let title = match options.paths.first() {
        Some(p) => format!("clipscope — {}", p.display()),
        None => "clipscope — demo".to_string(),
    };
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title,
            resolution: WindowResolution::new(1280, 800),
            // Measuring: as many frames as the machine draws, not the display's rate.
            present_mode: if options.fps.is_some() {
                PresentMode::AutoNoVsync
            } else {
                PresentMode::AutoVsync
            },
            ..default()
        }),
        ..default()
    }))
    .add_plugins((EguiPlugin::default(), ClipscopePlugin, model::ModelView))
    .insert_resource(ClearColor(Color::srgb(0.11, 0.12, 0.14)))
    .insert_resource(options.clone())
    .init_resource::<scene::Selection>()
    .init_resource::<scene::SceneState>()
    .init_resource::<ClipIndex>()
    .init_resource::<reference::ReferenceDiff>()
    .init_resource::<ui::export::ExportPanel>()
    .init_resource::<controller::ControllerView>()
    .init_resource::<controller_pose::ControllerPose>()
    .init_resource::<camera::OrbitCamera>()
    .init_resource::<onion_mesh::ShownModel>()
    .add_systems(Startup, (camera::spawn_camera, load::start_loading))
    .add_systems(PostStartup, camera::no_msaa_on_software)
    .add_systems(
        Update,
        (
            load::poll_loading,
            load::dropped_files,
            controller::drive_controller,
            controller_pose::blend_controller_pose,
            scene::rebuild_scene,
            reference::update_reference_diff,
            scene::humanoid_root_motion,
            input::shortcuts,
            camera::orbit_controls,
            camera::track_aspect,
            camera::apply_orbit,
        )
            .chain(),
    )
    .add_systems(
        PostUpdate,
        (
            draw::draw_skeleton,
            markers::draw_humanoid_markers,
            onion::draw_ghosts,
            onion::draw_reference_pose,
            ground::draw_ground,
        )
            .after(bevy::transform::TransformSystems::Propagate),
    )
    .add_systems(
        PostUpdate,
        controller_pose::apply_controller_pose
            .after(clipscope_bevy::pose_humanoids)
            .before(scene::hold_root),
    )
    .add_systems(
        PostUpdate,
        (
            scene::hold_root,
            onion_mesh::sync_onion_rigs,
            root_motion::place_rig,
            onion_mesh::pose_onion_rigs,
        )
            .chain()
            .after(bevy::app::AnimationSystems)
            .before(bevy::transform::TransformSystems::Propagate),
    )
    .add_systems(EguiPrimaryContextPass, ui::panels);
    app.add_systems(Startup, (onion::setup, ground::setup, root_motion::setup));
    if options.screenshot.is_some() {
        app.init_resource::<capture::PlayheadTrace>()
            .init_resource::<onion::GhostTrace>()
            .init_resource::<ground::GroundTrace>()
            .add_systems(
                Update,
                (capture::trace_playhead, capture::capture_when_ready).chain(),
            )
            .add_systems(
                PostUpdate,
                onion_mesh::trace_onion_rigs.after(bevy::transform::TransformSystems::Propagate),
            );
    }
    if options.fps.is_some() {
        app.add_systems(Update, fps::measure_fps);
    }
    app.run()
}
