//! An AnimatorController driving a rig in Bevy: put a [`UnityAnimator`] with a controller's
//! handle (`"file#Controller/NAME"`, a [`UnityController`]) on a rig root from
//! [`super::spawn_rig`] (or a model's rig); set its parameters with
//! [`UnityAnimator::set_float`], [`UnityAnimator::set_int`], [`UnityAnimator::set_bool`] and
//! [`UnityAnimator::set_trigger`]. Each frame [`drive_animators`] advances the state machine by
//! the frame's time and writes the blended pose of every layer (Unity's rules: crossfades,
//! blend trees, layers with masks, Write Defaults, humanoid clips in muscle space) to the
//! joints' `Transform`s: the direct route, with the library's own evaluation
//! ([`clipscope_core::animator::pose::PoseBlender`]), so the joints get exactly what
//! `clipscope animate --rig` prints.
//!
//! With [`UnityAnimator::apply_root_motion`] (the Animator's "Apply Root Motion"; set from
//! the file by [`UnityAnimator::for_rig`]) the clips' root motion moves the rig root's own
//! `Transform` instead of the body: humanoid clips' body travel on the ground and turn
//! about the vertical, generic clips' root-motion bone's
//! ([`UnityAnimator::root_motion_bone`]); the body (or bone) is then posed in place over
//! the root. See [`clipscope_core::animator::root_motion`] for the rules and
//! [`super::root_motion::apply_root_motion`] for the system.
//!
//! Joints keep their pose once the component is removed; a rig should not also play a clip
//! (the animator's pose is written after clips are sampled, so it wins).

use std::collections::HashMap;
use std::sync::Arc;

use bevy::prelude::*;

use super::humanoid::{UnityHumanoid, joint_to_bevy};
use super::playback::UnityClipEvent;
use super::rig::{RigRoot, RigSkeleton};
use clipscope_core::animator::Controller;
use clipscope_core::animator::events::{EventTracker, FiredEvent};
use clipscope_core::animator::machine::LayerOutput;
use clipscope_core::animator::owned::{OwnedAnimator, PoseInputs, RigPose};
use clipscope_core::animator::root_motion::{
    RootDelta, RootMotion, RootRig, keep_bone_in_place, root_motion_joint,
};
use clipscope_core::clip::ClipData;
use clipscope_core::humanoid::PoseOptions;
use clipscope_core::rig::Skeleton;
use clipscope_core::workspace::{ObjectRef, RigEntry, Workspace, model_clips};

/// A controller of a loaded Unity file with the data of the clips its leaves play (those in
/// the same file; others add no pose).
#[derive(Asset, TypePath, Clone, Debug)]
pub struct UnityController {
    pub name: String,
    pub controller: Arc<Controller>,
    /// The leaf clips' data by (file index in the opened files, path id): the keys of the
    /// controller's resolved clips.
    pub clips: Arc<HashMap<(usize, i64), Arc<ClipData>>>,
}

impl UnityController {
    /// Controller `index` of `ws` with its leaf clips, or `None` when it did not decode.
    pub fn from_workspace(ws: &Workspace, index: usize) -> Option<UnityController> {
        UnityController::from_workspace_with(ws, index, |wanted| {
            wanted
                .iter()
                .map(|&at| {
                    let data = ws.clip(at)?.data.as_ref().ok()?;
                    Some(Arc::new(data.clone()))
                })
                .collect()
        })
    }

    /// [`UnityController::from_workspace`], its leaf clips given by `clips` (the clips at
    /// the references asked for, in order; `None` for one that is not there): for a
    /// workspace that keeps only its clips' facts and decodes them when asked.
    pub fn from_workspace_with(
        ws: &Workspace,
        index: usize,
        clips: impl FnOnce(&[ObjectRef]) -> Vec<Option<Arc<ClipData>>>,
    ) -> Option<UnityController> {
        let entry = ws.controllers.get(index)?;
        let model = entry.model.as_ref().ok()?;
        let wanted: Vec<ObjectRef> = model_clips(model).into_iter().collect();
        let found = clips(&wanted);
        let clips = wanted
            .iter()
            .zip(found)
            .filter_map(|(at, data)| Some(((at.file, at.path_id), data?)))
            .collect();
        Some(UnityController {
            name: entry.name.clone(),
            controller: Arc::new(model.clone()),
            clips: Arc::new(clips),
        })
    }
}

/// A parameter change made before the controller is running.
#[derive(Clone, Debug)]
enum Change {
    Float(String, f32),
    Int(String, i32),
    Bool(String, bool),
    Trigger(String),
}

/// On a rig root: runs a [`UnityController`] on the rig. Starts once the controller is loaded
/// (parameters set before then apply at the start); changing the handle starts the new one.
#[derive(Component)]
pub struct UnityAnimator {
    pub controller: Handle<UnityController>,
    /// Seconds of controller time per second of frame time.
    pub speed: f32,
    /// Humanoid posing options (root motion on by default: the body travels and turns
    /// under a root that stays put). Ignored for the body's travel and turn while
    /// [`UnityAnimator::apply_root_motion`] is on.
    pub options: PoseOptions,
    /// Unity's "Apply Root Motion": each frame the clips' root motion (on the ground: travel
    /// and turn) moves this entity's `Transform`, and the body (or the generic root-motion
    /// bone) is posed in place over it. Off: the root keeps its rest pose. May change at
    /// any time.
    pub apply_root_motion: bool,
    /// The generic root-motion bone (a joint index of the rig's skeleton, as the Avatar's
    /// `m_RootMotionBoneIndex` names it): whose travel and turn generic clips apply. Read
    /// when the controller starts.
    pub root_motion_bone: Option<usize>,
    pending: Vec<Change>,
    running: Option<Running>,
}

impl UnityAnimator {
    /// An animator for the controller behind `controller`: speed 1, root motion on; it starts once
    /// the controller is loaded.
    pub fn new(controller: Handle<UnityController>) -> Self {
        UnityAnimator {
            controller,
            speed: 1.0,
            options: PoseOptions::default(),
            apply_root_motion: false,
            root_motion_bone: None,
            pending: Vec::new(),
            running: None,
        }
    }

    /// An animator for `rig` of `ws` as its file sets it up: Apply Root Motion as its
    /// Animator stores it, and the root-motion bone its Avatar names (where it has one).
    pub fn for_rig(controller: Handle<UnityController>, ws: &Workspace, rig: &RigEntry) -> Self {
        let bone = rig
            .avatar
            .and_then(|at| ws.avatar(at))
            .and_then(|a| a.data.as_deref())
            .and_then(|a| root_motion_joint(a, &rig.skeleton));
        UnityAnimator {
            apply_root_motion: rig.apply_root_motion,
            root_motion_bone: bone,
            ..UnityAnimator::new(controller)
        }
    }

    /// This animator with Apply Root Motion on or off.
    pub fn with_root_motion(mut self, apply: bool) -> Self {
        self.apply_root_motion = apply;
        self
    }

    /// Takes the root motion gathered since the last call (Unity's space, in the root's
    /// frame at the last call); `None` when there is none.
    pub(super) fn take_root_delta(&mut self) -> Option<RootDelta> {
        let r = self.running.as_mut()?;
        let d = std::mem::take(&mut r.root_delta);
        (d != RootDelta::ZERO).then_some(d)
    }

    /// Whether the controller runs (it is loaded and the rig is bound).
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Sets a float parameter (like `Animator.SetFloat`); a wrong name or kind is logged.
    pub fn set_float(&mut self, name: &str, value: f32) {
        self.change(Change::Float(name.into(), value));
    }

    /// Sets an int parameter (like `Animator.SetInteger`).
    pub fn set_int(&mut self, name: &str, value: i32) {
        self.change(Change::Int(name.into(), value));
    }

    /// Sets a bool parameter (like `Animator.SetBool`).
    pub fn set_bool(&mut self, name: &str, value: bool) {
        self.change(Change::Bool(name.into(), value));
    }

    /// Sets a trigger (like `Animator.SetTrigger`): it stays set until a transition that
    /// uses it fires.
    pub fn set_trigger(&mut self, name: &str) {
        self.change(Change::Trigger(name.into()));
    }

    /// A parameter's value (bools and triggers 0/1); `None` before the start or for an
    /// unknown name.
    pub fn parameter(&self, name: &str) -> Option<f64> {
        self.running.as_ref()?.animator.parameter(name)
    }

    /// The last update's output: every layer's states, transition and leaf clips.
    pub fn output(&self) -> &[LayerOutput] {
        self.running.as_ref().map_or(&[], |r| r.animator.output())
    }

    /// Jumps into a state (`"Base Layer.Walk"`) at normalised time `nt`, like
    /// `Animator.Play`.
    pub fn play(&mut self, state: &str, nt: f32) {
        if let Some(r) = &mut self.running
            && let Err(e) = r.animator.play(state, nt as f64)
        {
            warn!("{e}");
        }
    }

    /// Crossfades into a state over `seconds`, like `Animator.CrossFadeInFixedTime`.
    pub fn crossfade(&mut self, state: &str, seconds: f32) {
        if let Some(r) = &mut self.running
            && let Err(e) = r.animator.crossfade(state, seconds as f64)
        {
            warn!("{e}");
        }
    }

    fn change(&mut self, change: Change) {
        match &mut self.running {
            Some(r) => apply(&mut r.animator, &change),
            None => self.pending.push(change),
        }
    }
}

fn apply(a: &mut OwnedAnimator, change: &Change) {
    let result = match change {
        Change::Float(n, v) => a.set_float(n, *v),
        Change::Int(n, v) => a.set_int(n, *v),
        Change::Bool(n, v) => a.set_bool(n, *v),
        Change::Trigger(n) => a.set_trigger(n),
    };
    if let Err(e) = result {
        warn!("UnityAnimator: {e}");
    }
}

/// A started controller on one rig.
struct Running {
    handle: AssetId<UnityController>,
    animator: OwnedAnimator,
    pose: RigPose,
    /// The blended pose, in Bevy's space, per joint.
    transforms: Vec<Transform>,
    clips: Arc<HashMap<(usize, i64), Arc<ClipData>>>,
    events: EventTracker,
    /// Events fired by the last update, until [`drive_animators`] sends them.
    fired: Vec<FiredEvent>,
    root: RootMotion,
    /// The generic root-motion bone, posed in place while root motion applies.
    bone: Option<usize>,
    skeleton: Arc<Skeleton>,
    /// Root motion not yet applied to the `Transform`.
    root_delta: RootDelta,
}

impl Running {
    fn new(
        asset: &UnityController,
        handle: AssetId<UnityController>,
        rig: &RigSkeleton,
        humanoid: Option<&UnityHumanoid>,
        bone: Option<usize>,
    ) -> Self {
        let pose = RigPose::new(PoseInputs {
            controller: asset.controller.clone(),
            skeleton: rig.0.clone(),
            humanoid: humanoid.map(|h| h.rig.clone()),
            clips: asset.clips.clone(),
        });
        for w in pose.warnings() {
            warn!("UnityAnimator {:?}: {w}", asset.name);
        }
        let bone = bone.filter(|&b| b > 0 && b < rig.0.joints.len());
        let root = RootMotion::new(
            &asset.controller,
            RootRig {
                skeleton: Some(&rig.0),
                human_scale: humanoid.map(|h| h.rig.human_scale() as f64),
                bone,
            },
            &asset.clips,
        );
        Running {
            handle,
            animator: OwnedAnimator::new(asset.controller.clone()),
            pose,
            transforms: Vec::new(),
            clips: asset.clips.clone(),
            events: EventTracker::default(),
            fired: Vec::new(),
            root,
            bone,
            skeleton: rig.0.clone(),
            root_delta: RootDelta::ZERO,
        }
    }

    /// Notes the root motion of the last update: gathered while it applies, else only
    /// followed (so that turning it on later starts from here).
    fn track_root(&mut self, apply: bool) {
        if apply {
            let d = self.root.update(self.animator.output());
            self.root_delta = self.root_delta.then(d);
        } else {
            self.root.observe(self.animator.output());
            self.root_delta = RootDelta::ZERO;
        }
    }

    /// Notes the clip events the last update's leaves passed.
    fn track_events(&mut self) {
        let clips = &self.clips;
        let fired = self
            .events
            .update(self.animator.output(), &|file, path_id| {
                clips.get(&(file, path_id)).map(Arc::as_ref)
            });
        self.fired.extend(fired);
    }

    /// Blends the machine's current output into `transforms`; while root motion applies,
    /// the body (or root-motion bone) in place.
    fn blend(&mut self, options: PoseOptions, apply_root_motion: bool) {
        let options = if apply_root_motion {
            PoseOptions { root_motion: false }
        } else {
            options
        };
        let locals = self.pose.blend(self.animator.output(), options);
        self.transforms.clear();
        match self.bone.filter(|_| apply_root_motion) {
            Some(bone) => {
                let mut locals = locals.to_vec();
                keep_bone_in_place(&mut locals, &self.skeleton, bone);
                self.transforms.extend(locals.iter().map(joint_to_bevy));
            }
            None => self.transforms.extend(locals.iter().map(joint_to_bevy)),
        }
    }
}

/// Starts each [`UnityAnimator`] whose controller is loaded (again when the handle changed),
/// applying the parameters set before, and blends its entry pose.
pub fn start_animators(
    controllers: Res<Assets<UnityController>>,
    mut animators: Query<(&mut UnityAnimator, &RigSkeleton, Option<&UnityHumanoid>)>,
) {
    for (mut animator, skeleton, humanoid) in &mut animators {
        let id = animator.controller.id();
        if animator.running.as_ref().is_some_and(|r| r.handle == id) {
            continue;
        }
        let Some(asset) = controllers.get(id) else {
            continue;
        };
        let mut running = Running::new(asset, id, skeleton, humanoid, animator.root_motion_bone);
        for change in std::mem::take(&mut animator.pending) {
            apply(&mut running.animator, &change);
        }
        // The entry pose: its events at the start fire with the first frame.
        running.track_events();
        running.root.observe(running.animator.output());
        running.blend(animator.options, animator.apply_root_motion);
        animator.running = Some(running);
    }
}

/// Advances every running [`UnityAnimator`] by the frame's time (none for a frame of zero
/// length), blends the pose, and sends the clip events its leaves passed as
/// [`UnityClipEvent`]s (every leaf whose weight is above 0, with that weight).
pub fn drive_animators(
    time: Res<Time>,
    mut animators: Query<(Entity, &mut UnityAnimator)>,
    mut messages: MessageWriter<UnityClipEvent>,
) {
    let dt = time.delta_secs_f64();
    animators.par_iter_mut().for_each(|(_, mut animator)| {
        let step = dt * animator.speed as f64;
        let (options, root_motion) = (animator.options, animator.apply_root_motion);
        let Some(running) = &mut animator.running else {
            return;
        };
        if step <= 0.0 {
            return;
        }
        running.animator.advance(step);
        running.track_events();
        running.track_root(root_motion);
        running.blend(options, root_motion);
    });
    for (entity, mut animator) in &mut animators {
        if animator.running.as_ref().is_none_or(|r| r.fired.is_empty()) {
            continue;
        }
        let Some(running) = animator.running.as_mut() else {
            continue;
        };
        for f in running.fired.drain(..) {
            messages.write(UnityClipEvent {
                entity,
                function: f.event.function,
                data: f.event.data,
                float: f.event.float,
                int: f.event.int,
                time: f.event.time,
                weight: f.weight as f32,
            });
        }
    }
}

/// Writes each animator's pose to its rig's joints (the root too, unless root motion moves
/// it).
pub fn pose_animated_rigs(
    animators: Query<(&UnityAnimator, &RigRoot)>,
    mut transforms: Query<&mut Transform>,
) {
    for (animator, rig) in &animators {
        let Some(running) = &animator.running else {
            continue;
        };
        let skip = usize::from(animator.apply_root_motion);
        for (&joint, pose) in rig.joints.iter().zip(&running.transforms).skip(skip) {
            if let Ok(mut t) = transforms.get_mut(joint) {
                t.set_if_neq(*pose);
            }
        }
    }
}
