//! A controller played by whoever owns it: the state machine ([`Animator`]) together with the
//! shared controller it borrows, so a viewer panel or a game component can keep it from one
//! frame to the next. Parameters are set by name and kind, as Unity's `Animator.SetFloat`,
//! `SetInteger`, `SetBool` and `SetTrigger` do; each [`OwnedAnimator::advance`] is one update
//! (§4.8) followed by the §4.10 output. [`RigPose`] keeps a pose blender with the rig and
//! clips it binds, for the same owners.

use std::collections::HashMap;
use std::sync::Arc;

use super::machine::{Animator, LayerOutput, PlayError};
use super::model::{Controller, ParameterKind, ResolvedClip};
use super::params::ParamError;
use super::pose::PoseBlender;
use crate::clip::ClipData;
use crate::humanoid::{HumanoidRig, JointLocal, PoseOptions};
use crate::rig::Skeleton;

self_cell::self_cell!(
    /// The controller and the machine that borrows it.
    struct Cell {
        owner: Arc<Controller>,
        #[covariant]
        dependent: Animator,
    }
);

/// A controller and its running state machine, with the last update's output.
pub struct OwnedAnimator {
    cell: Cell,
    /// The output of the last [`OwnedAnimator::advance`] (empty before the first).
    output: Vec<LayerOutput>,
    /// Seconds of updates made since the start.
    pub time: f64,
}

impl std::fmt::Debug for OwnedAnimator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OwnedAnimator")
            .field("controller", &self.controller().name)
            .field("time", &self.time)
            .finish()
    }
}

impl OwnedAnimator {
    /// Enters every layer's root Entry with the controller's default parameters.
    pub fn new(controller: Arc<Controller>) -> OwnedAnimator {
        let cell = Cell::new(controller, |c| Animator::new(c));
        let mut owned = OwnedAnimator {
            cell,
            output: Vec::new(),
            time: 0.0,
        };
        owned.output = owned.cell.with_dependent_mut(|_, a| a.output());
        owned
    }

    /// The controller it runs.
    pub fn controller(&self) -> &Controller {
        self.cell.borrow_owner()
    }

    /// The shared controller.
    pub fn controller_arc(&self) -> &Arc<Controller> {
        self.cell.borrow_owner()
    }

    /// One update of `dt` seconds (negative counts as 0), then the output is taken.
    pub fn advance(&mut self, dt: f64) -> &[LayerOutput] {
        let dt = if dt.is_finite() { dt.max(0.0) } else { 0.0 };
        self.output = self.cell.with_dependent_mut(|_, a| {
            a.update(dt);
            a.output()
        });
        self.time += dt;
        &self.output
    }

    /// The last output (every layer's states, transition and leaves).
    pub fn output(&self) -> &[LayerOutput] {
        &self.output
    }

    /// A parameter's current value (bools and triggers 0/1); `None` for an unknown name.
    pub fn parameter(&self, name: &str) -> Option<f64> {
        self.parameters()
            .into_iter()
            .find(|(n, _, _)| *n == name)
            .map(|(_, _, v)| v)
    }

    /// Every parameter of the controller, in its order, with its kind and current value.
    pub fn parameters(&self) -> Vec<(&str, ParameterKind, f64)> {
        let a = self.cell.borrow_dependent();
        // `Params::get` notes unknown names, so it needs a copy to read from; these are known.
        let mut params = a.params.clone();
        self.controller()
            .parameters
            .iter()
            .map(|p| (p.name.as_str(), p.kind, params.get(&p.name)))
            .collect()
    }

    /// The weights of a blend tree's children under the current parameters (nested trees
    /// count as one child each).
    pub fn tree_weights(&self, tree: &super::model::BlendTree) -> Vec<f64> {
        let mut params = self.cell.borrow_dependent().params.clone();
        super::tree::weights(tree, &mut params)
    }

    /// Sets a float parameter.
    pub fn set_float(&mut self, name: &str, value: f32) -> Result<(), ParamError> {
        self.set_kind(name, ParameterKind::Float, value as f64)
    }

    /// Sets an int parameter.
    pub fn set_int(&mut self, name: &str, value: i32) -> Result<(), ParamError> {
        self.set_kind(name, ParameterKind::Int, value as f64)
    }

    /// Sets a bool parameter.
    pub fn set_bool(&mut self, name: &str, value: bool) -> Result<(), ParamError> {
        self.set_kind(name, ParameterKind::Bool, f64::from(u8::from(value)))
    }

    /// Sets a trigger: it stays set until a transition that names it fires.
    pub fn set_trigger(&mut self, name: &str) -> Result<(), ParamError> {
        self.cell
            .with_dependent_mut(|_, a| a.params.set_trigger(name))
    }

    /// Clears a trigger that no transition has consumed yet.
    pub fn reset_trigger(&mut self, name: &str) -> Result<(), ParamError> {
        self.set_kind(name, ParameterKind::Trigger, 0.0)
    }

    fn set_kind(&mut self, name: &str, kind: ParameterKind, value: f64) -> Result<(), ParamError> {
        self.cell
            .with_dependent_mut(|_, a| match a.params.kind(name) {
                Some(k) if k == kind => a.params.set(name, value),
                Some(k) => Err(ParamError::Kind {
                    name: name.to_string(),
                    kind: k.name(),
                    wanted: kind.name(),
                }),
                None => Err(ParamError::Unknown(name.to_string())),
            })
    }

    /// Jumps into a state (`LAYER.STATE`, the state's full path) at normalised time `nt`, at
    /// once (§6.25); the output is taken again.
    pub fn play(&mut self, path: &str, nt: f64) -> Result<(), PlayError> {
        let (result, output) = self.cell.with_dependent_mut(|_, a| {
            let r = a.play(path, nt);
            (r, a.output())
        });
        self.output = output;
        result
    }

    /// Crossfades to a state over `seconds` (§6.25).
    pub fn crossfade(&mut self, path: &str, seconds: f64) -> Result<(), PlayError> {
        self.cell
            .with_dependent_mut(|_, a| a.crossfade(path, seconds.max(0.0)))
    }

    /// What the machine noted while playing (Entry loops, parameters it lacks).
    pub fn warnings(&self) -> Vec<String> {
        let a = self.cell.borrow_dependent();
        let mut out = a.warnings.clone();
        out.extend(a.params.missing.iter().map(|name| {
            format!("the controller reads parameter {name:?}, which it does not have (read as 0)")
        }));
        out
    }

    /// A layer's weight (layer 0 always plays at 1).
    pub fn layer_weight(&self, layer: usize) -> Option<f64> {
        self.cell.borrow_dependent().weights.get(layer).copied()
    }

    /// Sets a layer's weight (0 to 1; layer 0 stays at 1).
    pub fn set_layer_weight(&mut self, layer: usize, weight: f64) {
        if layer == 0 || !weight.is_finite() {
            return;
        }
        self.cell.with_dependent_mut(|_, a| {
            if let Some(w) = a.weights.get_mut(layer) {
                *w = weight.clamp(0.0, 1.0);
            }
        });
    }
}

/// What a [`RigPose`] blends with: the controller, the rig and the leaf clips' data by
/// (file, path id) as the controller's [`super::model::ResolvedClip`]s name them.
pub struct PoseInputs {
    pub controller: Arc<Controller>,
    pub skeleton: Arc<Skeleton>,
    pub humanoid: Option<Arc<HumanoidRig>>,
    pub clips: Arc<HashMap<(usize, i64), Arc<ClipData>>>,
}

self_cell::self_cell!(
    /// The inputs and the blender bound to them.
    struct BlenderCell {
        owner: PoseInputs,
        #[not_covariant]
        dependent: PoseBlender,
    }
);

/// A controller's pose blender ([`PoseBlender`]) kept with the rig and clips it binds: feed
/// it every update's output ([`OwnedAnimator::output`]) and it gives every joint's local
/// transform (Unity space, skeleton order).
pub struct RigPose {
    cell: BlenderCell,
    locals: Vec<JointLocal>,
}

impl RigPose {
    /// Binds the blender to the rig and clips of `inputs`.
    pub fn new(inputs: PoseInputs) -> RigPose {
        let cell = BlenderCell::new(inputs, |i| {
            let clip = |r: &ResolvedClip| i.clips.get(&(r.file, r.path_id)).map(|c| &**c);
            PoseBlender::new(&i.controller, &i.skeleton, i.humanoid.as_deref(), &clip)
        });
        let locals = cell
            .borrow_owner()
            .skeleton
            .joints
            .iter()
            .map(JointLocal::rest)
            .collect();
        RigPose { cell, locals }
    }

    /// What binding found odd (clips not loaded, humanoid clips on a generic rig).
    pub fn warnings(&self) -> Vec<String> {
        self.cell.with_dependent(|_, b| b.warnings().to_vec())
    }

    /// Blends one update's output (humanoid posing by `options`) into [`RigPose::locals`].
    pub fn blend(&mut self, layers: &[LayerOutput], options: PoseOptions) -> &[JointLocal] {
        let locals = &mut self.locals;
        self.cell.with_dependent_mut(|_, b| {
            b.set_options(options);
            locals.clear();
            locals.extend_from_slice(b.blend(layers));
        });
        &self.locals
    }

    /// The last blended pose (the rest pose before the first blend).
    pub fn locals(&self) -> &[JointLocal] {
        &self.locals
    }

    /// The rig it poses.
    pub fn skeleton(&self) -> &Skeleton {
        &self.cell.borrow_owner().skeleton
    }
}

#[cfg(test)]
#[path = "owned_tests.rs"]
mod tests;
