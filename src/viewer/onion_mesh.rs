//! Onion skins as meshes: where the shown rig has meshes (and they are shown), each onion
//! pose is also a translucent copy of the character, tinted as its skeleton (the past red,
//! the future blue, fading with distance), posed at that pose's clip time.
//!
//! Each copy is a second rig ([`spawn_rig`]) with the shown model's renderers, their
//! materials replaced by flat, unlit, translucent ones, and its joints set every frame from
//! the clip's pose at the copy's time, as [`super::onion`] places its skeletons. Its joints
//! carry [`OnionJoint`], so the skeleton drawing and the screenshot's joints leave them out.
//! At most [`MESH_ONIONS`] copies each side (a character's meshes are costly to draw twice).

use bevy::prelude::*;

use super::controller::ControllerView;
use super::onion::{GhostTrace, onion_times, poser, root_local};
use super::scene::{SceneState, Selection};
use clipscope_bevy::model::{BuiltModel, spawn_renderers};
use clipscope_bevy::{RigRoot, UnityPlayback, joint_to_bevy, spawn_rig};
use clipscope_core::humanoid::PoseOptions;

/// Most mesh copies drawn on each side of the playhead.
pub const MESH_ONIONS: u32 = 3;
const PAST: Color = Color::srgb(1.0, 0.35, 0.35);
const FUTURE: Color = Color::srgb(0.35, 0.6, 1.0);

/// The shown rig's built model (its meshes and materials), kept to copy for the onions.
#[derive(Resource, Default)]
pub struct ShownModel {
    /// The rig root the model was spawned onto.
    pub root: Option<Entity>,
    pub built: Option<BuiltModel>,
}

/// On an onion copy's root: which pose it shows (`k` poses from the playhead, negative in
/// the past) and the clip time it was last posed at.
#[derive(Component, Debug)]
pub struct OnionRig {
    pub k: i32,
    pub time: f32,
}

/// On every joint of an onion copy.
#[derive(Component, Debug)]
pub struct OnionJoint;

/// What the copies were made for: the shown rig and the number each side.
#[derive(Default)]
pub struct Made {
    root: Option<Entity>,
    n: u32,
}

/// `built` with every material replaced by `color`, flat and translucent.
fn tinted(
    built: &BuiltModel,
    color: Color,
    materials: &mut Assets<StandardMaterial>,
) -> BuiltModel {
    let material = materials.add(StandardMaterial {
        base_color: color,
        alpha_mode: AlphaMode::Blend,
        unlit: true,
        double_sided: true,
        cull_mode: None,
        ..default()
    });
    let mut out = built.clone();
    for renderer in &mut out.renderers {
        for part in &mut renderer.parts {
            part.material = material.clone();
        }
        // A sprite copy shows the sprite it was spawned with.
        renderer.sprites = None;
    }
    out
}

/// The copies the selection asks for: as many each side as onion skins (at most
/// [`MESH_ONIONS`]) where the shown rig's meshes are drawn and a clip plays (not a
/// controller, whose blended pose is no one clip's), else none.
pub fn wanted(selection: &Selection, scene: &SceneState, controller: &ControllerView) -> u32 {
    if selection.meshes && scene.has_meshes && !controller.active {
        selection.onion.min(MESH_ONIONS)
    } else {
        0
    }
}

/// Makes the onion copies anew when the shown rig or their number changes.
#[allow(clippy::too_many_arguments)]
pub fn sync_onion_rigs(
    mut commands: Commands,
    selection: Res<Selection>,
    scene: Res<SceneState>,
    shown: Res<ShownModel>,
    controller: Res<ControllerView>,
    copies: Query<Entity, With<OnionRig>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut made: Local<Made>,
) {
    let n = wanted(&selection, &scene, &controller);
    let ready = shown.root.is_some() && shown.root == scene.root;
    let root = if ready { scene.root } else { None };
    if made.root == root && made.n == n {
        return;
    }
    for copy in &copies {
        commands.entity(copy).despawn();
    }
    *made = Made { root, n };
    let (Some(built), Some(skeleton), true) = (&shown.built, &scene.skeleton, ready) else {
        return;
    };
    for k in (1..=n as i32).flat_map(|k| [-k, k]) {
        let base = if k < 0 { PAST } else { FUTURE };
        let color = base.with_alpha(0.3 / k.unsigned_abs() as f32);
        let copy = spawn_rig(&mut commands, skeleton);
        commands.entity(copy).insert(OnionRig { k, time: 0.0 });
        commands.queue(move |world: &mut World| {
            let joints = world
                .get::<RigRoot>(copy)
                .map(|r| r.joints.clone())
                .unwrap_or_default();
            for joint in joints {
                world.entity_mut(joint).insert(OnionJoint);
            }
        });
        spawn_renderers(&mut commands, &tinted(built, color, &mut materials), copy);
    }
}

/// Poses each onion copy at its clip time: every joint from the clip's pose, the root as
/// the shown rig's (its curves, or its rest with root motion off). Runs after the
/// animation, before transforms propagate.
pub fn pose_onion_rigs(
    selection: Res<Selection>,
    scene: Res<SceneState>,
    playbacks: Query<&UnityPlayback>,
    mut copies: Query<(&mut OnionRig, &RigRoot)>,
    mut transforms: Query<&mut Transform, With<OnionJoint>>,
) {
    if copies.is_empty() {
        return;
    }
    let Some(playback) = scene.root.and_then(|r| playbacks.get(r).ok()) else {
        return;
    };
    let (Some(poser), Some(skeleton)) = (poser(&scene, &selection), scene.skeleton.as_ref()) else {
        return;
    };
    let options = PoseOptions {
        root_motion: selection.root_motion,
    };
    let times = onion_times(
        &playback.playhead,
        selection.onion,
        selection.onion_step.max(1),
    );
    for (mut copy, rig) in &mut copies {
        let Some(&(_, t)) = times.iter().find(|(k, _)| *k == copy.k) else {
            continue;
        };
        copy.time = t;
        let locals = poser.locals(t, &options);
        for (j, (&entity, local)) in rig.joints.iter().zip(&locals).enumerate() {
            let posed = if j == 0 {
                root_local(skeleton, &locals, &options)
            } else {
                joint_to_bevy(local)
            };
            if let Ok(mut transform) = transforms.get_mut(entity) {
                transform.set_if_neq(posed);
            }
        }
    }
}

/// Records each copy's clip time and joint positions for the screenshot's sidecar.
pub fn trace_onion_rigs(
    copies: Query<(&OnionRig, &RigRoot)>,
    globals: Query<&GlobalTransform, With<OnionJoint>>,
    trace: Option<ResMut<GhostTrace>>,
) {
    let Some(mut trace) = trace else {
        return;
    };
    let mut rigs: Vec<(i32, f32, Vec<Vec3>)> = copies
        .iter()
        .map(|(copy, rig)| {
            let joints = rig
                .joints
                .iter()
                .map(|&j| globals.get(j).map_or(Vec3::NAN, |g| g.translation()))
                .collect();
            (copy.k, copy.time, joints)
        })
        .collect();
    rigs.sort_by_key(|(k, _, _)| *k);
    trace.onion_meshes = rigs.into_iter().map(|(_, t, j)| (t, j)).collect();
}
