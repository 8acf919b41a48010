//! The character in the viewer: the shown rig's meshes, skinned and textured under a simple
//! light, with the skeleton drawn over them; `--no-mesh` or the rig panel's checkbox hides
//! the meshes; the camera frames the meshes over the clip.

use std::sync::Arc;

use bevy::math::Affine3A;
use bevy::prelude::*;

use super::ViewerOptions;
use super::camera::{OrbitCamera, frame_of, human_joints, humanoid_motion_points, outside_view};
use super::onion_mesh::ShownModel;
use super::scene::{Library, SceneState, Selection, rebuild_scene};
use clipscope_bevy::model::{
    InactiveObject, ModelAssets, ModelMesh, UnityModel, clip_objects, model_points,
    model_points_over, posed_joints, spawn_renderers,
};
use clipscope_bevy::{DirectClip, RigRoot, joint_to_bevy, rest_transform};
use clipscope_core::clip::ClipData;
use clipscope_core::humanoid::{HumanPose, HumanoidRig, JointLocal, PoseOptions};
use clipscope_core::rig::Skeleton;
use clipscope_core::workspace::RendererKind;

/// Poses sampled over a clip to frame it.
const FRAMING_SAMPLES: usize = 24;

/// The skeleton's gizmos: drawn over the meshes.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct SkeletonGizmos;

/// Meshes, light and the skeleton overlay.
pub struct ModelView;

impl Plugin for ModelView {
    fn build(&self, app: &mut App) {
        app.insert_gizmo_config(
            SkeletonGizmos,
            GizmoConfig {
                depth_bias: -1.0,
                ..default()
            },
        )
        .insert_resource(GlobalAmbientLight {
            brightness: 300.0,
            ..default()
        })
        .add_systems(Startup, setup)
        .add_systems(
            Update,
            (attach_model.after(rebuild_scene), show_meshes).chain(),
        );
    }
}

/// A light from above the camera's side, and the mesh toggle from the command line.
fn setup(mut commands: Commands, options: Res<ViewerOptions>, mut selection: ResMut<Selection>) {
    selection.meshes = !options.no_mesh;
    if options.joints {
        selection.joint_markers = Some(true);
    }
    commands.spawn((
        DirectionalLight {
            illuminance: 2000.0,
            shadow_maps_enabled: false,
            ..default()
        },
        Transform::from_xyz(2.0, 4.0, 3.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

/// When a rig is spawned for a clip, spawns its meshes onto it, lets its sprite curves find
/// their sprites, and frames the meshes over the clip.
#[allow(clippy::too_many_arguments)]
fn attach_model(
    mut commands: Commands,
    new_rigs: Query<(), Added<RigRoot>>,
    mut scene: ResMut<SceneState>,
    selection: Res<Selection>,
    library: Option<Res<Library>>,
    mut assets: ModelAssets,
    mut orbit: ResMut<OrbitCamera>,
    mut shown: ResMut<ShownModel>,
) {
    let (Some(library), Some(root), Some(at), Some(clip), Some(index)) = (
        library,
        scene.root,
        selection.clip,
        scene.clip.as_ref(),
        scene.rig_index,
    ) else {
        return;
    };
    if !new_rigs.contains(root) {
        return;
    }
    if library
        .main
        .rigs
        .get(index)
        .is_none_or(|r| r.renderers.is_empty())
    {
        return;
    }
    // The rig's meshes, materials and textures in full, with the clip's file and the files
    // of what its PPtr curves swap in (their targets resolve from the clip's file).
    let (swaps, swapping) = if clip.pptr_mapping.is_empty() {
        (Vec::new(), None)
    } else {
        (vec![at], Some((at, &**clip)))
    };
    let Some(full) = library.in_full(index, &swaps, swapping) else {
        warn!("the rig's files could not be opened again: its meshes are not shown");
        return;
    };
    let ws = &*full.ws;
    let rig = &ws.rigs[full.rig];
    let model = UnityModel::from_workspace(ws, rig, |_| None);
    for w in &model.warnings {
        warn!("{w}");
    }
    let built = assets.build(&model);
    spawn_renderers(&mut commands, &built, root);
    *shown = ShownModel {
        root: Some(root),
        built: Some(built),
    };
    // PPtr targets resolve in the clip's own file (none where it swaps nothing).
    let objects = match full.clips.first() {
        Some(&at) => clip_objects(ws, at, &clip.pptr_mapping),
        None => clip_objects(ws, at, &[]),
    };
    commands.entity(root).insert(objects);
    // A 2D rig (sprites only) is framed by its sprites over the clip, from the front.
    let flat = model
        .renderers
        .iter()
        .all(|r| matches!(r.kind, RendererKind::Sprite { .. }));
    let points = match &scene.humanoid {
        _ if flat => model_points_over(&model, &DirectClip::new(clip.clone()), FRAMING_SAMPLES),
        // Humanoid poses come from the muscles: the human bones, and the meshes near them
        // over the clip.
        Some(humanoid) => {
            let marked = human_joints(&model.skeleton, humanoid);
            let mut points = humanoid_motion_points(&model.skeleton, humanoid, clip);
            for t in sample_times(clip.start, clip.stop) {
                let world = humanoid_joints(&model.skeleton, humanoid, clip, t);
                points.extend(frame_with_meshes(&model, &world, &marked));
            }
            points
        }
        None => framing_points(&model, clip),
    };
    if !scene.keep_view {
        orbit.frame_points(&points);
        if flat {
            orbit.face_front();
        }
    }
    let rest = posed_joints(&model.skeleton, None, 0.0);
    let rest: Vec<Vec3> = rest.iter().map(|a| Vec3::from(a.translation)).collect();
    scene.far_joints = outside_view(&orbit, &rest);
    scene.has_meshes = true;
}

/// The joints' world transforms (Bevy space, skeleton order) posed by the humanoid clip
/// `clip` on `rig` at `t` (the root at rest), for the meshes' posed bounds.
fn humanoid_joints(
    skeleton: &Skeleton,
    rig: &HumanoidRig,
    clip: &ClipData,
    t: f32,
) -> Vec<Affine3A> {
    let mut pose = HumanPose::sample(clip, t);
    if clip.settings.mirror {
        pose = pose.mirrored();
    }
    let mut locals = vec![JointLocal::IDENTITY; rig.joint_count()];
    rig.pose(&pose, &PoseOptions::default(), &mut locals);
    let mut world: Vec<GlobalTransform> = Vec::with_capacity(skeleton.joints.len());
    for (j, joint) in skeleton.joints.iter().enumerate() {
        let local = match locals.get(j).filter(|_| j > 0) {
            Some(local) => joint_to_bevy(local),
            None => rest_transform(joint),
        };
        let global = match joint.parent.and_then(|p| world.get(p)) {
            Some(parent) => parent.mul_transform(local),
            None => GlobalTransform::from(local),
        };
        world.push(global);
    }
    world.into_iter().map(|g| g.affine()).collect()
}

/// The clip times framing samples: `FRAMING_SAMPLES + 1` from `start` to `stop`, none for a
/// bad range.
fn sample_times(start: f32, stop: f32) -> impl Iterator<Item = f32> {
    let valid = start.is_finite() && stop.is_finite() && stop >= start;
    (0..=FRAMING_SAMPLES)
        .filter(move |_| valid)
        .map(move |i| start + (stop - start) * i as f32 / FRAMING_SAMPLES as f32)
}

/// One posed frame's framing points: the body's joints (the `marked` ones, else all, less
/// their far outliers) and the meshes' bounds near them.
fn frame_with_meshes(model: &UnityModel, world: &[Affine3A], marked: &[bool]) -> Vec<Vec3> {
    let joints: Vec<Vec3> = world.iter().map(|a| Vec3::from(a.translation)).collect();
    frame_of(&joints, marked, &model_points(model, world))
}

/// Per joint: true where a skinned mesh has vertices weighted to it (the body of a generic
/// rig; a weapon parked far away carries its own, and falls out as an outlier).
fn skinned_joints(model: &UnityModel) -> Vec<bool> {
    let mut out = vec![false; model.skeleton.joints.len()];
    for r in &model.renderers {
        let (RendererKind::Skinned { bones, .. }, Some(mesh)) = (&r.kind, &r.mesh) else {
            continue;
        };
        for v in &mesh.skin {
            for (&bone, &weight) in v.bones.iter().zip(&v.weights) {
                let joint = bones.get(bone as usize).copied().flatten();
                if let Some(slot) = joint.filter(|_| weight > 0.0).and_then(|j| out.get_mut(j)) {
                    *slot = true;
                }
            }
        }
    }
    out
}

/// The body of a generic rig over the clip's length and at rest (the joints carrying skinned
/// vertices, else every joint, less each frame's far outliers), with the meshes near it.
fn framing_points(model: &UnityModel, clip: &Arc<ClipData>) -> Vec<Vec3> {
    let direct = DirectClip::new(clip.clone());
    let (start, stop) = (clip.start, clip.stop);
    let mut poses = vec![posed_joints(&model.skeleton, None, 0.0)];
    if start.is_finite() && stop.is_finite() && stop >= start {
        poses.extend((0..=FRAMING_SAMPLES).map(|i| {
            let t = start + (stop - start) * i as f32 / FRAMING_SAMPLES as f32;
            posed_joints(&model.skeleton, Some(&direct), t)
        }));
    }
    let marked = skinned_joints(model);
    poses
        .iter()
        .flat_map(|world| frame_with_meshes(model, world, &marked))
        .collect()
}

/// Shows or hides the meshes as the rig panel says: renderers disabled in the file and
/// GameObjects inactive in it stay hidden unless "show inactive objects" is on.
fn show_meshes(
    selection: Res<Selection>,
    mut meshes: Query<(Ref<ModelMesh>, &mut Visibility), Without<InactiveObject>>,
    mut inactive: Query<(Ref<InactiveObject>, &mut Visibility), Without<ModelMesh>>,
) {
    for (mesh, mut visibility) in &mut meshes {
        if !selection.is_changed() && !mesh.is_added() {
            continue;
        }
        visibility.set_if_neq(
            if selection.meshes && (mesh.enabled || selection.show_inactive) {
                Visibility::Inherited
            } else {
                Visibility::Hidden
            },
        );
    }
    for (object, mut visibility) in &mut inactive {
        if !selection.is_changed() && !object.is_added() {
            continue;
        }
        visibility.set_if_neq(if selection.show_inactive {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        });
    }
}
