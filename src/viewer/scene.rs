//! What the viewer shows: the opened files, the selected clip and its rig, spawned as Bevy
//! entities and playing.

use std::sync::Arc;

use bevy::animation::graph::AnimationGraph;
use bevy::prelude::*;

use super::ViewerOptions;
use super::camera::{OrbitCamera, humanoid_forward, outside_view, rig_forward};
use super::clip_index::ClipKind;
use super::rigs::choose_rig;
use clipscope_bevy::{
    DirectClip, LoadedClip, RigRoot, UnityHumanoid, UnityPlayback, Unmatched,
    humanoid_posed_positions, play_clip, rest_transform, spawn_rig, unmatched_bindings,
    world_positions,
};
use clipscope_core::clip::{ClipData, MirrorMode};
use clipscope_core::humanoid::{HumanoidRig, PoseOptions};
use clipscope_core::rig::Skeleton;
use clipscope_core::workspace::{ObjectRef, Workspace};

pub use super::library::Library;

/// What the user picked.
#[derive(Resource, Clone, Debug)]
pub struct Selection {
    pub clip: Option<ObjectRef>,
    /// The clip pinned as reference: the curve view draws its curves as ghost lines and the
    /// track lists show each track's largest difference from it.
    pub reference: Option<ObjectRef>,
    /// Index of the selected joint in the rig's skeleton.
    pub joint: Option<usize>,
    /// Global curve indices plotted in the curve view.
    pub tracks: Vec<usize>,
    /// The clip list's search text.
    pub filter: String,
    /// The clip list shows clips of this kind only.
    pub kind: Option<ClipKind>,
    /// The clip list groups clips by the rig they play on, not by file.
    pub group_by_rig: bool,
    /// The clip list scrolls the shown clip into view once (after loading, a rig change).
    pub scroll_to_clip: bool,
    pub labels: bool,
    /// Play the clip's root motion (off: in place; the root-motion module has the modes).
    pub root_motion: bool,
    /// With root motion: each loop starts where the last ended (off: loop and reset).
    pub accumulate: bool,
    /// The rig the user picked from the rig list (index into the rig workspace's rigs);
    /// `None` picks one per clip, as `clipscope check` does.
    pub rig: Option<usize>,
    /// Show a humanoid clip's IK goals as markers.
    pub goals: bool,
    /// Show a humanoid clip's body position (centre of mass) and orientation.
    pub body: bool,
    /// Draw the rig's meshes.
    pub meshes: bool,
    /// Draw the skeleton over them.
    pub skeleton: bool,
    /// A clip time the playhead should jump to (set by the check panel, applied and cleared
    /// by the panels' system, which holds the playback).
    pub seek: Option<f32>,
    /// Draw inactive GameObjects and disabled renderers too (Unity does not: hitboxes,
    /// helpers).
    pub show_inactive: bool,
    /// Set when the scene must be rebuilt.
    pub dirty: bool,
    /// The next rebuild keeps the camera where it is (controller mode switching clips).
    pub keep_view: bool,
    /// The user's mirror choice for one clip, against its own `m_Mirror`; other clips play
    /// as their flag says.
    pub mirror: Option<(ObjectRef, bool)>,
    /// Draw the joints' markers (the bones stay): the user's choice, else
    /// [`Selection::markers_shown`]'s default (off over a mesh, so the skeleton does not hide it).
    pub joint_markers: Option<bool>,
    /// The markers' size, 1 the default (small: they must not cover a character's body).
    pub marker_size: f32,
    /// Onion skins: this many poses before and after the playhead (0: off).
    pub onion: u32,
    /// Frames between onion poses.
    pub onion_step: u32,
    /// Draw the selected joint's motion path.
    pub motion_path: bool,
    /// Draw the end joints' motion paths too (head, hands, feet).
    pub end_paths: bool,
    /// Frames the step keys and buttons move by (a fraction: a sub-frame step).
    pub step: f32,
    /// Draw the shadow and the foot contact markers on the ground.
    pub ground: bool,
    /// Draw the body's root-motion trajectory on the ground.
    pub trajectory: bool,
}

impl Selection {
    /// Whether joint markers are drawn: as the user chose, else only when no mesh is drawn
    /// (over a character's mesh the thin bones are enough; `s` or the panel brings them back).
    pub fn markers_shown(&self, meshes_drawn: bool) -> bool {
        self.joint_markers.unwrap_or(!meshes_drawn)
    }

    /// How the shown clip is mirrored: the user's choice for it, else its own flag.
    pub fn mirror_mode(&self) -> MirrorMode {
        match self.mirror {
            Some((at, on)) if Some(at) == self.clip => {
                if on {
                    MirrorMode::On
                } else {
                    MirrorMode::Off
                }
            }
            _ => MirrorMode::Clip,
        }
    }
}

impl Default for Selection {
    fn default() -> Self {
        Selection {
            clip: None,
            reference: None,
            joint: None,
            tracks: Vec::new(),
            filter: String::new(),
            kind: None,
            group_by_rig: false,
            scroll_to_clip: false,
            labels: false,
            root_motion: true,
            accumulate: false,
            rig: None,
            goals: true,
            body: true,
            meshes: true,
            show_inactive: false,
            seek: None,
            skeleton: true,
            dirty: false,
            keep_view: false,
            mirror: None,
            joint_markers: None,
            marker_size: 1.0,
            onion: 0,
            onion_step: 2,
            motion_path: false,
            end_paths: false,
            step: 1.0,
            ground: true,
            trajectory: false,
        }
    }
}

/// The spawned rig and the clip it plays.
#[derive(Resource, Default)]
pub struct SceneState {
    pub root: Option<Entity>,
    pub clip: Option<Arc<ClipData>>,
    pub skeleton: Option<Skeleton>,
    /// Where the rig came from, for the panel.
    pub rig_name: String,
    /// The rig's index in the rig workspace's rigs; `None` for a rig built from paths.
    pub rig_index: Option<usize>,
    pub unmatched: Vec<Unmatched>,
    /// The humanoid avatar posing the clip (a humanoid clip on a humanoid rig).
    pub humanoid: Option<Arc<HumanoidRig>>,
    /// Why a humanoid clip is not posed, when it is not.
    pub note: Option<String>,
    /// Frames rendered since the scene was built (for screenshots).
    pub frames: u32,
    /// The check report of the clip on this rig.
    pub report: Option<clipscope_core::check::ClipReport>,
    /// Joints (at rest) far outside the framed view: left out of the framing, still drawn.
    pub far_joints: usize,
    /// The camera was kept when this scene was built (no framing).
    pub keep_view: bool,
    /// The rig's meshes were spawned onto it.
    pub has_meshes: bool,
}

/// The clip to select after loading: the one named, else the first that decodes.
pub fn initial_clip(ws: &Workspace, name: Option<&str>) -> Option<ObjectRef> {
    let decoded = || ws.clips.iter().filter(|c| c.data.is_ok());
    match name {
        Some(n) => decoded().find(|c| c.name == n).map(|c| c.at),
        None => decoded().next().map(|c| c.at),
    }
}

/// The clip to pin as reference: the first decoded clip named `name` that is not `shown`.
pub fn initial_reference(
    ws: &Workspace,
    name: &str,
    shown: Option<ObjectRef>,
) -> Option<ObjectRef> {
    ws.clips
        .iter()
        .filter(|c| c.data.is_ok() && c.name == name)
        .map(|c| c.at)
        .find(|&at| Some(at) != shown)
}

/// Rebuilds the rig and its playback when the selection changed.
#[allow(clippy::too_many_arguments)]
pub fn rebuild_scene(
    mut commands: Commands,
    mut selection: ResMut<Selection>,
    library: Option<Res<Library>>,
    mut scene: ResMut<SceneState>,
    mut clips: ResMut<Assets<AnimationClip>>,
    mut graphs: ResMut<Assets<AnimationGraph>>,
    mut orbit: ResMut<OrbitCamera>,
    options: Res<ViewerOptions>,
) {
    scene.frames = scene.frames.saturating_add(1);
    let Some(library) = library else { return };
    if !selection.dirty {
        return;
    }
    selection.dirty = false;
    if let Some(root) = scene.root.take() {
        commands.entity(root).despawn();
    }
    let Some(at) = selection.clip else { return };
    // Decoded from its file when the files were opened as an index.
    let Some(clip) = library.clip(at) else {
        return;
    };
    let data = &*clip;
    let rig = choose_rig(&library, at, data, selection.rig);
    let root = spawn_rig(&mut commands, &rig.skeleton);
    if let Some(humanoid) = &rig.humanoid {
        commands.entity(root).insert(UnityHumanoid {
            rig: humanoid.clone(),
            options: PoseOptions {
                root_motion: selection.root_motion,
            },
            mirror: selection.mirror_mode(),
        });
    }
    let direct = DirectClip::new(Arc::clone(&clip));
    let handle = clips.add(direct.bevy_clip());
    let loaded = LoadedClip::from_direct(
        data.name.clone(),
        data.name.clone(),
        at.path_id,
        direct,
        handle,
    );
    let mut playback = play_clip(&mut commands, &mut graphs, root, &loaded);
    if options.at.is_some() || options.range.is_some() {
        if let Some(range) = options.range {
            playback.playhead.set_range(Some(range));
        }
        if let Some(t) = options.at {
            playback.playhead.seek(t);
            playback.playhead.paused = true;
        }
        commands.entity(root).insert(playback);
    }
    let keep_view = std::mem::take(&mut selection.keep_view);
    match &rig.humanoid {
        _ if keep_view => {}
        Some(humanoid) => {
            orbit.frame_humanoid_motion(&rig.skeleton, humanoid, data);
            let options = PoseOptions {
                root_motion: selection.root_motion,
            };
            let posed =
                humanoid_posed_positions(humanoid, &rig.skeleton, data, data.start, &options);
            if let Some(forward) = humanoid_forward(&posed, humanoid) {
                orbit.face(forward);
            }
        }
        None => {
            orbit.frame_motion(&rig.skeleton, &loaded.direct);
            if let Some(forward) = rig_forward(&rig.skeleton) {
                orbit.face(forward);
            }
        }
    }
    let far_joints = outside_view(&orbit, &world_positions(&rig.skeleton, rest_transform));
    selection.tracks = data
        .tracks
        .first()
        .map(|t| t.curves.clone())
        .unwrap_or_default();
    let report = clipscope_core::check::check_clip_on(
        data,
        Some(&rig.skeleton),
        rig.humanoid.as_deref(),
        &rig.names,
        &clipscope_core::check::Thresholds::default(),
    );
    *scene = SceneState {
        report: Some(report),
        root: Some(root),
        unmatched: unmatched_bindings(data, &rig.skeleton, &rig.names),
        humanoid: rig.humanoid,
        note: rig.note,
        clip: Some(loaded.data),
        skeleton: Some(rig.skeleton),
        rig_name: rig.name,
        rig_index: rig.index,
        frames: 0,
        far_joints,
        keep_view,
        has_meshes: false,
    };
}

/// The root motion switch also places a humanoid clip's body (off: over the root, facing
/// forward); the mirror switch mirrors it.
pub fn humanoid_root_motion(selection: Res<Selection>, mut rigs: Query<&mut UnityHumanoid>) {
    let mirror = selection.mirror_mode();
    for mut humanoid in &mut rigs {
        if humanoid.options.root_motion != selection.root_motion {
            humanoid.options.root_motion = selection.root_motion;
        }
        if humanoid.mirror != mirror {
            humanoid.mirror = mirror;
        }
    }
}

/// With root motion off, the rig's root keeps its rest position and rotation.
pub fn hold_root(
    selection: Res<Selection>,
    scene: Res<SceneState>,
    mut transforms: Query<&mut Transform>,
    roots: Query<&RigRoot>,
) {
    if selection.root_motion {
        return;
    }
    let (Some(root), Some(skeleton)) = (scene.root, &scene.skeleton) else {
        return;
    };
    if roots.get(root).is_err() {
        return;
    }
    if let (Ok(mut t), Some(joint)) = (transforms.get_mut(root), skeleton.joints.first()) {
        let rest = rest_transform(joint);
        t.translation = rest.translation;
        t.rotation = rest.rotation;
    }
}

/// The playback of the shown rig.
pub fn playback_of<'a>(
    scene: &SceneState,
    query: &'a mut Query<&mut UnityPlayback>,
) -> Option<Mut<'a, UnityPlayback>> {
    query.get_mut(scene.root?).ok()
}
