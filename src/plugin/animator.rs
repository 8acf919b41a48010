//! An AnimatorController driving a rig in Bevy: put a [`UnityAnimator`] with a controller's
//! handle (`"file#Controller/NAME"`, a [`UnityController`]) on a rig root from
//! [`super::spawn_rig`] (or a model's rig); set its parameters with
//! [`UnityAnimator::set_float`], [`UnityAnimator::set_int`], [`UnityAnimator::set_bool`] and
//! [`UnityAnimator::set_trigger`]. Each frame [`drive_animators`] advances the state machine by
//! the frame's time and writes the blended pose of every layer (Unity's rules: crossfades,
//! blend trees, layers with masks, Write Defaults, humanoid clips in muscle space) to the
//! joints' `Transform`s: the direct route, with the library's own evaluation
//! ([`crate::animator::pose::PoseBlender`]), so the joints get exactly what
//! `clipscope animate --rig` prints.
//!
//! Joints keep their pose once the component is removed; a rig should not also play a clip
//! (the animator's pose is written after clips are sampled, so it wins).

use std::collections::HashMap;
use std::sync::Arc;

use bevy::prelude::*;

use super::humanoid::{UnityHumanoid, joint_to_bevy};
use super::playback::UnityClipEvent;
use super::rig::{RigRoot, RigSkeleton};
use crate::animator::Controller;
use crate::animator::events::{EventTracker, FiredEvent};
use crate::animator::machine::LayerOutput;
use crate::animator::owned::{OwnedAnimator, PoseInputs, RigPose};
use crate::clip::ClipData;
use crate::humanoid::PoseOptions;
use crate::workspace::{ObjectRef, Workspace, model_clips};

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
        let entry = ws.controllers.get(index)?;
        let model = entry.model.as_ref().ok()?;
        let clips = model_clips(model)
            .into_iter()
            .filter_map(|at: ObjectRef| {
                let data = ws.clip(at)?.data.as_ref().ok()?;
                Some(((at.file, at.path_id), Arc::new(data.clone())))
            })
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
    /// Humanoid posing options (root motion on by default).
    pub options: PoseOptions,
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
            pending: Vec::new(),
            running: None,
        }
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
}

impl Running {
    fn new(
        asset: &UnityController,
        handle: AssetId<UnityController>,
        rig: &RigSkeleton,
        humanoid: Option<&UnityHumanoid>,
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
        Running {
            handle,
            animator: OwnedAnimator::new(asset.controller.clone()),
            pose,
            transforms: Vec::new(),
            clips: asset.clips.clone(),
            events: EventTracker::default(),
            fired: Vec::new(),
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

    /// Blends the machine's current output into `transforms`.
    fn blend(&mut self, options: PoseOptions) {
        let locals = self.pose.blend(self.animator.output(), options);
        self.transforms.clear();
        self.transforms.extend(locals.iter().map(joint_to_bevy));
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
        let mut running = Running::new(asset, id, skeleton, humanoid);
        for change in std::mem::take(&mut animator.pending) {
            apply(&mut running.animator, &change);
        }
        running.blend(animator.options);
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
        let options = animator.options;
        let Some(running) = &mut animator.running else {
            return;
        };
        if step <= 0.0 {
            return;
        }
        running.animator.advance(step);
        running.track_events();
        running.blend(options);
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

/// Writes each animator's pose to its rig's joints.
pub fn pose_animated_rigs(
    animators: Query<(&UnityAnimator, &RigRoot)>,
    mut transforms: Query<&mut Transform>,
) {
    for (animator, rig) in &animators {
        let Some(running) = &animator.running else {
            continue;
        };
        for (&joint, pose) in rig.joints.iter().zip(&running.transforms) {
            if let Ok(mut t) = transforms.get_mut(joint) {
                t.set_if_neq(*pose);
            }
        }
    }
}
