//! The controller's blended pose on the shown rig: every layer's states and leaf clips mixed
//! by the library's pose blender ([`RigPose`]), after each update of the machine, and
//! written to the rig's joints after the shown clip's own sampling (so it wins).

use std::sync::Arc;

use bevy::prelude::*;

use super::controller::ControllerView;
use super::scene::{Library, SceneState, Selection};
use clipscope_bevy::{RigRoot, UnityController, joint_to_bevy};
use clipscope_core::animator::owned::{PoseInputs, RigPose};
use clipscope_core::humanoid::PoseOptions;

/// The blender bound to the shown controller and rig, and its last pose.
#[derive(Resource, Default)]
pub struct ControllerPose {
    pose: Option<RigPose>,
    /// (controller index, rig index, rig from the `--rig` files) it is bound for.
    key: Option<(usize, usize)>,
    /// The blended pose in Bevy's space, per joint of the rig; empty when none is shown.
    transforms: Vec<Transform>,
}

/// Binds the blender when the controller or the rig changed, and blends the machine's
/// output after each update.
pub fn blend_controller_pose(
    library: Option<Res<Library>>,
    scene: Res<SceneState>,
    selection: Res<Selection>,
    mut view: ResMut<ControllerView>,
    mut state: ResMut<ControllerPose>,
) {
    let (Some(library), Some(index), Some(rig), true) =
        (library, view.index, scene.rig_index, view.active)
    else {
        state.transforms.clear();
        return;
    };
    let key = (index, rig);
    if state.key != Some(key) {
        state.key = Some(key);
        state.pose = bind(&library, index, rig);
    }
    if !std::mem::take(&mut view.updated) {
        return;
    }
    let state = &mut *state;
    let (Some(pose), Some(animator)) = (&mut state.pose, &view.animator) else {
        return;
    };
    let options = PoseOptions {
        root_motion: selection.root_motion,
    };
    let locals = pose.blend(animator.output(), options);
    state.transforms.clear();
    state.transforms.extend(locals.iter().map(joint_to_bevy));
}

/// The blender for controller `index` of the opened files on rig `rig` of the rig files.
fn bind(library: &Library, index: usize, rig: usize) -> Option<RigPose> {
    // Its clips decoded from their files when the files were opened as an index.
    let controller =
        UnityController::from_workspace_with(&library.main, index, |at| library.clips(at))?;
    let entry = library.main.rigs.get(rig)?;
    let pose = RigPose::new(PoseInputs {
        controller: controller.controller,
        skeleton: Arc::clone(&entry.skeleton),
        humanoid: entry.humanoid.clone(),
        clips: controller.clips,
    });
    for w in pose.warnings() {
        warn!("{w}");
    }
    Some(pose)
}

/// Writes the blended pose to the shown rig's joints.
pub fn apply_controller_pose(
    state: Res<ControllerPose>,
    scene: Res<SceneState>,
    roots: Query<&RigRoot>,
    mut transforms: Query<&mut Transform>,
) {
    if state.transforms.is_empty() {
        return;
    }
    let Some(rig) = scene.root.and_then(|r| roots.get(r).ok()) else {
        return;
    };
    if rig.joints.len() != state.transforms.len() {
        return;
    }
    for (&joint, pose) in rig.joints.iter().zip(&state.transforms) {
        if let Ok(mut t) = transforms.get_mut(joint) {
            t.set_if_neq(*pose);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use bevy::ecs::system::RunSystemOnce;

    use super::*;
    use clipscope_authoring::demo_controller::locomotion_bytes;
    use clipscope_bevy::spawn_rig;
    use clipscope_core::animator::model::ParameterKind;
    use clipscope_core::workspace::{OpenOptions, Workspace};

    #[test]
    fn controller_mode_writes_the_blended_pose_to_the_shown_rig() {
        let ws = Workspace::open_bytes(
            Path::new("locomotion.bundle"),
            locomotion_bytes().unwrap(),
            &OpenOptions::default(),
        );
        let library = Library::full(Arc::new(ws));
        let mut view = ControllerView::default();
        view.set_controller(&library.main, Some(0));
        view.active = true;
        view.set_parameter("Speed", ParameterKind::Float, 1.5);
        for _ in 0..20 {
            view.step(1.0 / 32.0);
        }
        // Every state writes its defaults and its leaves cover what it animates: the pose
        // is the current output's alone, whatever came before.
        let mut expected = bind(&library, 0, 0).unwrap();
        let output = view.animator.as_ref().unwrap().output().to_vec();
        let want: Vec<Transform> = expected
            .blend(&output, PoseOptions { root_motion: true })
            .iter()
            .map(joint_to_bevy)
            .collect();
        let skeleton = library.main.rigs[0].skeleton.clone();
        let leg = skeleton
            .joints
            .iter()
            .position(|j| j.path == "Hips/LeftUpperLeg")
            .unwrap();
        assert_ne!(
            want[leg].rotation,
            Quat::IDENTITY,
            "Walk and Run swing the legs"
        );

        let mut world = World::new();
        let root = spawn_rig(&mut world.commands(), &skeleton);
        world.flush();
        world.insert_resource(library);
        world.insert_resource(SceneState {
            root: Some(root),
            rig_index: Some(0),
            ..Default::default()
        });
        world.insert_resource(Selection::default());
        world.insert_resource(view);
        world.init_resource::<ControllerPose>();
        world.run_system_once(blend_controller_pose).unwrap();
        world.run_system_once(apply_controller_pose).unwrap();
        let joints = world.get::<RigRoot>(root).unwrap().joints.clone();
        for (j, entity) in joints.into_iter().enumerate() {
            assert_eq!(
                *world.get::<Transform>(entity).unwrap(),
                want[j],
                "joint {j}"
            );
        }
        // Outside controller mode nothing is written.
        world.resource_mut::<ControllerView>().active = false;
        world.run_system_once(blend_controller_pose).unwrap();
        assert!(world.resource::<ControllerPose>().transforms.is_empty());
    }
}
