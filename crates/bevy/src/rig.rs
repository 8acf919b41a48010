//! Rigs as Bevy assets and entities: a loaded rig ([`UnityRig`]), a skeleton spawned as
//! entities, and clips matched to it by path hash.

use std::collections::BTreeMap;
use std::sync::Arc;

use bevy::animation::{AnimatedBy, AnimationPlayer};
use bevy::prelude::*;

use super::clip::target_id;
use super::curves::{position_to_bevy, rotation_to_bevy};
use super::properties::UnityProperties;
use clipscope_core::clip::ClipData;
use clipscope_core::humanoid::HumanoidRig;
use clipscope_core::rig::{RigComponent, Skeleton};

/// A rig of a loaded file (an Animator or Animation component's hierarchy).
#[derive(Asset, TypePath, Clone, Debug)]
pub struct UnityRig {
    pub name: String,
    pub component: RigComponent,
    pub skeleton: Skeleton,
    /// Path hash to path from the Avatar (`m_TOS`).
    pub names: BTreeMap<u32, String>,
    /// Labels of the clips the rig's controller or Animation component lists.
    pub clips: Vec<String>,
    /// The Animator's Avatar bound to the skeleton, when it is humanoid: what poses humanoid
    /// clips on the rig (see [`super::spawn_unity_rig`]).
    pub humanoid: Option<Arc<HumanoidRig>>,
}

/// A joint of a spawned rig.
#[derive(Component, Clone, Debug, Reflect)]
pub struct RigJoint {
    /// Path below the rig's root.
    pub path: String,
    /// CRC-32 of the path: what clips bind to.
    pub path_hash: u32,
    /// Index in the skeleton.
    pub index: usize,
}

/// The root of a spawned rig: it holds the `AnimationPlayer` every joint is animated by.
#[derive(Component, Clone, Debug, Default)]
pub struct RigRoot {
    /// Joint entities in skeleton order (joint 0 is this entity).
    pub joints: Vec<Entity>,
}

/// On a rig root from [`spawn_rig`]: the skeleton it was spawned from (joint `i` is
/// `RigRoot::joints[i]`), for what poses the whole rig at once (a
/// [`super::UnityAnimator`]).
#[derive(Component, Clone, Debug)]
pub struct RigSkeleton(pub Arc<Skeleton>);

/// A binding of a clip that no joint of the rig carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unmatched {
    pub path_hash: u32,
    /// The path where the Avatar's name table (or the clip) knows it.
    pub name: Option<String>,
}

/// The rest pose of a joint in Bevy's space.
pub fn rest_transform(joint: &clipscope_core::rig::Joint) -> Transform {
    Transform {
        translation: position_to_bevy(joint.position),
        rotation: rotation_to_bevy(joint.rotation),
        scale: Vec3::from_array(joint.scale),
    }
}

/// World positions of a skeleton's joints, in Bevy's space, from each joint's local
/// transform as `local` gives it (the rest pose is [`rest_transform`]).
pub fn world_positions(
    skeleton: &Skeleton,
    mut local: impl FnMut(&clipscope_core::rig::Joint) -> Transform,
) -> Vec<Vec3> {
    let mut world: Vec<Transform> = Vec::with_capacity(skeleton.joints.len());
    for joint in &skeleton.joints {
        let local = local(joint);
        let global = match joint.parent.and_then(|p| world.get(p)) {
            Some(parent) => parent.mul_transform(local),
            None => local,
        };
        world.push(global);
    }
    world.into_iter().map(|t| t.translation).collect()
}

/// Spawns one entity per joint (name, rest transform, animation target id from its path
/// hash, parented as in the skeleton; with the `scene` feature also a `Visibility`); the root
/// also gets the `AnimationPlayer`. Returns the root entity.
pub fn spawn_rig(commands: &mut Commands, skeleton: &Skeleton) -> Entity {
    let root = commands.spawn_empty().id();
    let mut joints = Vec::with_capacity(skeleton.joints.len());
    for (index, joint) in skeleton.joints.iter().enumerate() {
        let entity = if index == 0 {
            root
        } else {
            commands.spawn_empty().id()
        };
        let name = if joint.name.is_empty() {
            format!("#{:08x}", joint.path_hash)
        } else {
            joint.name.clone()
        };
        commands.entity(entity).insert((
            Name::new(name),
            rest_transform(joint),
            target_id(joint.path_hash),
            AnimatedBy(root),
            UnityProperties::default(),
            RigJoint {
                path: joint.path.clone(),
                path_hash: joint.path_hash,
                index,
            },
        ));
        // Meshes parented to joints inherit visibility only through parents that have it.
        #[cfg(feature = "scene")]
        commands
            .entity(entity)
            .insert(bevy::camera::visibility::Visibility::default());
        if let Some(parent) = joint.parent.and_then(|p| joints.get(p).copied()) {
            commands.entity(entity).insert(ChildOf(parent));
        }
        joints.push(entity);
    }
    commands.entity(root).insert((
        AnimationPlayer::default(),
        RigRoot { joints },
        RigSkeleton(Arc::new(skeleton.clone())),
    ));
    root
}

/// The bindings of `clip` whose path hash no joint of `skeleton` carries, each once, named
/// from `names` (hash → path) or the clip's own path text.
pub fn unmatched_bindings(
    clip: &ClipData,
    skeleton: &Skeleton,
    names: &BTreeMap<u32, String>,
) -> Vec<Unmatched> {
    let mut out: Vec<Unmatched> = Vec::new();
    for b in &clip.bindings {
        if skeleton.joint_by_hash(b.path).is_some() || out.iter().any(|u| u.path_hash == b.path) {
            continue;
        }
        let name = names.get(&b.path).cloned().or_else(|| b.path_name.clone());
        out.push(Unmatched {
            path_hash: b.path,
            name,
        });
    }
    out
}
