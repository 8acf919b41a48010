//! Humanoid clips on humanoid rigs. A humanoid clip's muscle, body (`RootT`/`RootQ`) and IK
//! goal curves are evaluated per track like every other curve, by either route (Bevy's
//! `AnimationPlayer` or direct playback), into the root joint's [`UnityProperties`] (Mecanim
//! binds them to the Animator's GameObject, path hash 0). Then one system,
//! [`pose_humanoids`], after the animation systems and before transforms propagate, reads
//! them into a [`HumanPose`], poses the rig with [`HumanoidRig::pose`] (in Unity's space) and
//! writes the joints' `Transform`s, mirrored once into Bevy's space.
//!
//! A rig poses humanoid clips when its root has a [`UnityHumanoid`] (the avatar bound to its
//! skeleton): insert one on a root from [`super::spawn_rig`], or spawn a loaded
//! [`super::UnityRig`] with [`spawn_unity_rig`], which adds it where the rig's Avatar is
//! humanoid. Any humanoid clip plays on any humanoid rig (retargeting): the muscles are
//! rig-independent.
//!
//! The rig root itself is never written: it is where the rig stands, and the body (with root
//! motion, its travel and turning) moves the Hips below it, as in Unity.

use std::sync::Arc;

use bevy::prelude::*;

use super::curves::{position_to_bevy, rotation_to_bevy};
use super::properties::{UnityProperties, property_key};
use super::rig::{RigJoint, RigRoot, UnityRig, rest_transform, spawn_rig, world_positions};
use clipscope_core::clip::{ClipData, MirrorMode};
use clipscope_core::humanoid::{HumanPose, HumanoidRig, JointLocal, PoseOptions, humanoid_slot};
use clipscope_core::rig::Skeleton;

/// On a rig root: the humanoid avatar bound to the rig's skeleton, and how it is placed.
/// While the rig plays a humanoid clip, [`pose_humanoids`] poses its joints from the clip's
/// muscles. Set `options.root_motion` to false to keep the body over the root, facing
/// forward; `mirror` mirrors the clip as its own `m_Mirror` says (the default) or forced.
#[derive(Component, Clone, Debug)]
pub struct UnityHumanoid {
    /// Built for the same skeleton the rig was spawned from (a workspace's
    /// `RigEntry::humanoid`, or [`UnityRig::humanoid`]).
    pub rig: Arc<HumanoidRig>,
    pub options: PoseOptions,
    pub mirror: MirrorMode,
}

impl UnityHumanoid {
    /// The avatar with root motion on.
    pub fn new(rig: Arc<HumanoidRig>) -> Self {
        UnityHumanoid {
            rig,
            options: PoseOptions::default(),
            mirror: MirrorMode::Clip,
        }
    }
}

/// A clip's humanoid curves as the plugin reads them, found once per clip (by
/// [`super::DirectClip::new`]); on a rig root, the humanoid curves of the clip it plays
/// ([`super::play_clip`] and [`super::play_clip_direct`] insert or remove it).
#[derive(Component, Clone, Debug, Default)]
pub struct HumanoidCurves {
    /// (property key, humanoid slot) of each humanoid binding, sorted by key, one per key.
    pub slots: Arc<[(u64, usize)]>,
    /// Path hashes the clip animates with Transform tracks, sorted: joints outside the human
    /// skeleton keep those tracks.
    pub transform_paths: Arc<[u32]>,
    /// The clip's own `m_Mirror`.
    pub mirror: bool,
}

impl HumanoidCurves {
    /// The humanoid curves of `clip` (none for a generic clip).
    pub fn of(clip: &ClipData) -> Self {
        let mut slots: Vec<(u64, usize)> = clip
            .bindings
            .iter()
            .filter_map(|b| Some((property_key(b.type_id, b.attribute), humanoid_slot(b)?)))
            .collect();
        slots.sort_unstable();
        slots.dedup_by_key(|(key, _)| *key);
        let mut transform_paths: Vec<u32> = clip
            .bindings
            .iter()
            .filter(|b| b.is_transform())
            .map(|b| b.path)
            .collect();
        transform_paths.sort_unstable();
        transform_paths.dedup();
        HumanoidCurves {
            slots: slots.into(),
            transform_paths: transform_paths.into(),
            mirror: clip.settings.mirror,
        }
    }

    /// True when the clip has humanoid curves.
    pub fn is_humanoid(&self) -> bool {
        !self.slots.is_empty()
    }

    /// Sets `pose` from the values the clip's humanoid tracks left in `properties` (a merge
    /// of the two key-sorted sequences: no lookup per curve). Slots without a value keep
    /// theirs.
    pub fn read(&self, properties: &UnityProperties, pose: &mut HumanPose) {
        let Some(&(first, _)) = self.slots.first() else {
            return;
        };
        let mut values = properties.values.range(first..);
        let mut current = values.next();
        for &(key, slot) in self.slots.iter() {
            while let Some((&k, _)) = current
                && k < key
            {
                current = values.next();
            }
            match current {
                Some((&k, &v)) if k == key => {
                    pose.set(slot, v);
                }
                Some(_) => {}
                None => return,
            }
        }
    }
}

/// On a rig root posing a humanoid clip: the pose of the current frame (Unity's space, for
/// markers and UIs) and the buffers posing reuses every frame.
#[derive(Component, Clone, Debug)]
pub struct HumanoidState {
    /// The humanoid values this frame, as posed (mirrored where the clip plays mirrored).
    pub pose: HumanPose,
    /// The clip's own values this frame (what its tracks left).
    read: HumanPose,
    slots: HumanoidCurves,
    /// The skeleton joints of the human bones: the joints posing moves.
    bones: Vec<usize>,
    locals: Vec<JointLocal>,
    /// The posed local transforms, in Bevy's space, by skeleton index.
    transforms: Vec<Transform>,
}

impl HumanoidState {
    /// The posed local transform of skeleton joint `index`, in Bevy's space.
    pub fn transform(&self, index: usize) -> Option<Transform> {
        self.transforms.get(index).copied()
    }
}

/// On a joint of a rig posing a humanoid clip: the posed transform it takes.
#[derive(Component, Clone, Copy, Debug)]
pub struct HumanoidJoint {
    /// The rig root, whose [`HumanoidState`] holds the pose.
    pub rig: Entity,
    /// Index in the skeleton.
    pub index: usize,
}

/// A joint's local transform from Unity's space to Bevy's.
pub fn joint_to_bevy(local: &JointLocal) -> Transform {
    Transform {
        translation: position_to_bevy(local.t),
        rotation: rotation_to_bevy(local.q),
        scale: Vec3::from_array(local.s),
    }
}

/// Spawns a loaded rig ([`spawn_rig`] of its skeleton) and, where its Avatar is humanoid,
/// adds its [`UnityHumanoid`] (root motion on). Returns the root entity.
pub fn spawn_unity_rig(commands: &mut Commands, rig: &UnityRig) -> Entity {
    let root = spawn_rig(commands, &rig.skeleton);
    if let Some(humanoid) = &rig.humanoid {
        commands
            .entity(root)
            .insert(UnityHumanoid::new(humanoid.clone()));
    }
    root
}

/// Rig roots whose avatar or humanoid curves were inserted or changed.
type RebindFilter = (
    With<RigRoot>,
    Or<(Changed<UnityHumanoid>, Changed<HumanoidCurves>)>,
);

/// What a rig root has for humanoid posing.
type RigParts = (
    &'static RigRoot,
    Option<&'static UnityHumanoid>,
    Option<&'static HumanoidCurves>,
);

/// (Re)binds rigs whose [`UnityHumanoid`] or [`HumanoidCurves`] was inserted, changed or
/// removed: a rig with both (and matching joint counts) gets a fresh [`HumanoidState`] and a
/// [`HumanoidJoint`] on each human bone's joint; its other joints but the root take their
/// fixed transform (the avatar's T-pose, or their rest pose) once, except those the clip
/// animates with Transform tracks. Any other rig loses both components.
pub fn bind_humanoids(
    mut commands: Commands,
    changed: Query<Entity, RebindFilter>,
    mut removed_rigs: RemovedComponents<UnityHumanoid>,
    mut removed_curves: RemovedComponents<HumanoidCurves>,
    rigs: Query<RigParts>,
    joints: Query<&RigJoint>,
) {
    let roots = changed
        .iter()
        .chain(removed_rigs.read())
        .chain(removed_curves.read());
    for root in roots {
        let Ok((rig_root, humanoid, curves)) = rigs.get(root) else {
            continue;
        };
        match (humanoid, curves.filter(|c| c.is_humanoid())) {
            (Some(humanoid), Some(curves))
                if humanoid.rig.joint_count() == rig_root.joints.len() =>
            {
                bind(&mut commands, root, rig_root, humanoid, curves, &joints)
            }
            (Some(_), Some(_)) => {
                warn!(
                    "rig {root}: its humanoid avatar was bound to another skeleton; the clip is not posed"
                );
                unbind(&mut commands, root, rig_root);
            }
            _ => unbind(&mut commands, root, rig_root),
        }
    }
}

fn bind(
    commands: &mut Commands,
    root: Entity,
    rig_root: &RigRoot,
    humanoid: &UnityHumanoid,
    curves: &HumanoidCurves,
    joints: &Query<&RigJoint>,
) {
    let rig = &humanoid.rig;
    let n = rig_root.joints.len();
    // Only the human bones move with the pose (`HumanoidRig::pose`): every other joint
    // takes the avatar's T-pose or its rest transform, set here once.
    let pose = HumanPose::default();
    let mut locals = vec![JointLocal::IDENTITY; n];
    rig.pose(&pose, &humanoid.options, &mut locals);
    let transforms: Vec<Transform> = locals.iter().map(joint_to_bevy).collect();
    let bones: Vec<usize> = (1..n).filter(|&j| rig.joint_bone(j).is_some()).collect();
    for (index, &joint) in rig_root.joints.iter().enumerate().skip(1) {
        let generic = joints
            .get(joint)
            .is_ok_and(|j| curves.transform_paths.binary_search(&j.path_hash).is_ok());
        let mut entity = commands.entity(joint);
        if bones.binary_search(&index).is_ok() {
            entity.try_insert(HumanoidJoint { rig: root, index });
        } else {
            entity.try_remove::<HumanoidJoint>();
            if !generic && let Some(&fixed) = transforms.get(index) {
                entity.try_insert(fixed);
            }
        }
    }
    commands.entity(root).try_insert(HumanoidState {
        read: pose.clone(),
        pose,
        slots: curves.clone(),
        bones,
        locals,
        transforms,
    });
}

fn unbind(commands: &mut Commands, root: Entity, rig_root: &RigRoot) {
    commands.entity(root).try_remove::<HumanoidState>();
    for &joint in rig_root.joints.iter().skip(1) {
        commands.entity(joint).try_remove::<HumanoidJoint>();
    }
}

/// Poses every humanoid rig from its clip's humanoid values (in parallel over rigs), then
/// sets its joints' `Transform`s (in parallel over joints). Runs after the animation systems
/// (both routes have evaluated the tracks) and before transforms propagate.
pub fn pose_humanoids(
    mut rigs: Query<(&UnityHumanoid, &UnityProperties, &mut HumanoidState)>,
    mut joints: Query<(&HumanoidJoint, &mut Transform)>,
) {
    rigs.par_iter_mut()
        .for_each(|(humanoid, properties, mut state)| {
            let state = &mut *state;
            state.slots.read(properties, &mut state.read);
            state.pose = if humanoid.mirror.applies(state.slots.mirror) {
                state.read.mirrored()
            } else {
                state.read.clone()
            };
            humanoid
                .rig
                .pose(&state.pose, &humanoid.options, &mut state.locals);
            for &j in &state.bones {
                if let (Some(out), Some(local)) = (state.transforms.get_mut(j), state.locals.get(j))
                {
                    *out = joint_to_bevy(local);
                }
            }
        });
    joints.par_iter_mut().for_each(|(joint, mut transform)| {
        let posed = rigs
            .get(joint.rig)
            .ok()
            .and_then(|(_, _, state)| state.transform(joint.index));
        if let Some(posed) = posed {
            transform.set_if_neq(posed);
        }
    });
}

/// The world positions of `skeleton`'s joints posed by the humanoid clip `clip` on `rig` at
/// clip time `t` (the root at its rest pose), in Bevy's space: the humanoid counterpart of
/// [`super::DirectClip::posed_positions`], for framing a camera over the clip's motion.
/// Joints the rig does not pose take their rest pose; a clip whose `m_Mirror` is set is
/// posed mirrored, as it plays.
pub fn humanoid_posed_positions(
    rig: &HumanoidRig,
    skeleton: &Skeleton,
    clip: &ClipData,
    t: f32,
    options: &PoseOptions,
) -> Vec<Vec3> {
    let mut pose = HumanPose::sample(clip, t);
    if clip.settings.mirror {
        pose = pose.mirrored();
    }
    let mut locals = vec![JointLocal::IDENTITY; rig.joint_count()];
    rig.pose(&pose, options, &mut locals);
    let mut index = 0;
    world_positions(skeleton, |joint| {
        let i = index;
        index += 1;
        match locals.get(i).filter(|_| i > 0) {
            Some(local) => joint_to_bevy(local),
            None => rest_transform(joint),
        }
    })
}
