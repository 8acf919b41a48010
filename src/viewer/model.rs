//! The character in the viewer: the shown rig's meshes, skinned and textured under a simple
//! light, with the skeleton drawn over them; `--no-mesh` or the rig panel's checkbox hides
//! the meshes; the camera frames the meshes over the clip.

use std::sync::Arc;

use bevy::prelude::*;

use super::ViewerOptions;
use super::camera::{OrbitCamera, humanoid_motion_points};
use super::rigs::rig_workspace;
use super::scene::{Library, SceneState, Selection, rebuild_scene};
use crate::clip::ClipData;
use crate::plugin::model::{
    InactiveObject, ModelAssets, ModelMesh, UnityModel, clip_objects, model_points, posed_joints,
    spawn_renderers,
};
use crate::plugin::{DirectClip, RigRoot};

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
fn attach_model(
    mut commands: Commands,
    new_rigs: Query<(), Added<RigRoot>>,
    scene: Res<SceneState>,
    selection: Res<Selection>,
    library: Option<Res<Library>>,
    mut assets: ModelAssets,
    mut orbit: ResMut<OrbitCamera>,
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
    let ws = rig_workspace(&library);
    let Some(rig) = ws.rigs.get(index) else {
        return;
    };
    if rig.renderers.is_empty() {
        return;
    }
    let model = UnityModel::from_workspace(ws, rig, |_| None);
    for w in &model.warnings {
        warn!("{w}");
    }
    spawn_renderers(&mut commands, &assets.build(&model), root);
    // PPtr targets resolve in the clip's own workspace.
    if library.rig.is_none() {
        commands
            .entity(root)
            .insert(clip_objects(ws, at, &clip.pptr_mapping));
    }
    let points = match &scene.humanoid {
        // Humanoid poses come from the muscles: the joints over the clip, the meshes at rest.
        Some(humanoid) => {
            let mut points = humanoid_motion_points(&model.skeleton, humanoid, clip);
            points.extend(model_points(
                &model,
                &posed_joints(&model.skeleton, None, 0.0),
            ));
            points
        }
        None => framing_points(&model, clip),
    };
    orbit.frame_points(&points);
}

/// The joints and the meshes over the clip's length, and at rest.
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
    poses
        .iter()
        .flat_map(|world| {
            let mut points = model_points(model, world);
            points.extend(world.iter().map(|a| Vec3::from(a.translation)));
            points
        })
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
