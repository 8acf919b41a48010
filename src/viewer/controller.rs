//! The controller shown in the viewer's controller panel: which one (the rig's own, the only
//! one whose clips play on the rig, or the one the user picked), its running state machine,
//! and, in controller mode, the machine advanced with the viewer's clock and its output
//! played on the rig.
//!
//! Until poses blend, the rig plays the heaviest leaf clip of layer 0 at its clip time (the
//! clip the user would see most of); the panel shows every state and leaf with its weight.

use std::sync::Arc;

use bevy::prelude::*;

use super::scene::{Library, SceneState, Selection};
use clipscope_bevy::UnityPlayback;
use clipscope_core::animator::machine::{LayerOutput, LeafOutput};
use clipscope_core::animator::model::ParameterKind;
use clipscope_core::animator::owned::OwnedAnimator;
use clipscope_core::animator::{Controller, model};
use clipscope_core::workspace::{ObjectRef, Workspace};

/// The controller panel's state.
#[derive(Resource)]
pub struct ControllerView {
    /// Controller mode: the machine runs and the rig plays its output.
    pub active: bool,
    /// The controller shown, an index into the main workspace's controllers.
    pub index: Option<usize>,
    /// The user picked the controller (no automatic choice per rig).
    pub pinned: bool,
    pub animator: Option<OwnedAnimator>,
    pub paused: bool,
    /// Seconds of controller time per second.
    pub speed: f32,
    /// The rig the automatic choice was made for (rig index, rig from `--rig` files).
    chosen_for: Option<Option<usize>>,
    /// The clip controller mode last put on the rig.
    pub shown: Option<ObjectRef>,
    /// The machine changed since its pose was last blended.
    pub updated: bool,
}

impl Default for ControllerView {
    fn default() -> Self {
        ControllerView {
            active: false,
            index: None,
            pinned: false,
            animator: None,
            paused: false,
            speed: 1.0,
            chosen_for: None,
            shown: None,
            updated: false,
        }
    }
}

impl ControllerView {
    /// Shows controller `index` of `ws` (none for `None` or one that did not decode),
    /// started afresh from its entry states.
    pub fn set_controller(&mut self, ws: &Workspace, index: Option<usize>) {
        let model = index
            .and_then(|i| ws.controllers.get(i))
            .and_then(|c| c.model.as_ref().ok());
        self.index = index.filter(|_| model.is_some());
        self.animator = model.map(|m| OwnedAnimator::new(Arc::new(m.clone())));
        self.shown = None;
        self.updated = true;
        if self.animator.is_none() {
            self.active = false;
        }
    }

    /// Starts the shown controller again from its entry states with its default parameters.
    pub fn restart(&mut self) {
        if let Some(a) = &self.animator {
            self.animator = Some(OwnedAnimator::new(a.controller_arc().clone()));
            self.updated = true;
        }
    }

    /// Picks the controller that goes with the shown rig, unless the user picked one or the
    /// rig is the one it was picked for.
    pub fn choose_for_rig(&mut self, library: &Library, rig_index: Option<usize>) {
        let key = rig_index;
        if self.pinned || self.chosen_for == Some(key) {
            return;
        }
        self.chosen_for = Some(key);
        let rig = rig_index.and_then(|i| library.main.rigs.get(i));
        let found = rig.and_then(|r| library.main.controller_for_rig(r, true));
        if found != self.index {
            self.set_controller(&library.main, found);
        }
    }

    /// One update of `dt` seconds of viewer time (scaled by the speed; none while paused).
    pub fn step(&mut self, dt: f64) {
        if self.paused {
            return;
        }
        if let Some(a) = &mut self.animator {
            a.advance(dt * self.speed as f64);
            self.updated = true;
        }
    }

    /// Jumps into a state (the panel's pick, the timeline's scrub).
    pub fn play(&mut self, path: &str, nt: f64) {
        let Some(a) = &mut self.animator else { return };
        match a.play(path, nt) {
            Ok(()) => self.updated = true,
            Err(e) => warn!("{e}"),
        }
    }

    /// Sets a parameter from the panel (a float, int or bool value; a trigger when > 0).
    pub fn set_parameter(&mut self, name: &str, kind: ParameterKind, value: f64) {
        let Some(a) = &mut self.animator else { return };
        let result = match kind {
            ParameterKind::Float => a.set_float(name, value as f32),
            ParameterKind::Int => a.set_int(name, value as i32),
            ParameterKind::Bool => a.set_bool(name, value != 0.0),
            ParameterKind::Trigger if value != 0.0 => a.set_trigger(name),
            ParameterKind::Trigger => a.reset_trigger(name),
        };
        if let Err(e) = result {
            warn!("{e}");
        }
    }

    /// The heaviest leaf clip of layer 0 with its clip time: what the rig shows.
    pub fn heaviest_leaf(&self) -> Option<(ObjectRef, f64)> {
        heaviest(self.animator.as_ref()?.output().first()?)
    }
}

/// The loaded clip a leaf of the output plays.
pub fn clip_of(leaf: &LeafOutput) -> Option<ObjectRef> {
    Some(ObjectRef {
        file: leaf.file?,
        path_id: leaf.path_id?,
    })
}

/// The loaded leaf clip of `layer` with the largest weight (first of equals), with its clip
/// time.
pub fn heaviest(layer: &LayerOutput) -> Option<(ObjectRef, f64)> {
    let mut best: Option<(&LeafOutput, ObjectRef)> = None;
    for leaf in layer.states.iter().flat_map(|s| s.leaves.iter()) {
        let Some(at) = clip_of(leaf) else { continue };
        if best.is_none_or(|(b, _)| leaf.weight > b.weight) {
            best = Some((leaf, at));
        }
    }
    best.map(|(leaf, at)| (at, leaf.clip_time))
}

/// The range a float parameter's slider covers: 0 to 1 and every threshold, blend position
/// and condition value the controller compares it with, a quarter wider.
pub fn parameter_range(c: &Controller, name: &str) -> (f32, f32) {
    let (mut lo, mut hi) = (0.0f32, 1.0f32);
    let mut see = |v: f32| {
        if v.is_finite() {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    };
    for layer in &c.layers {
        for state in layer.state_machine.all_states() {
            for t in &state.transitions {
                t.conditions
                    .iter()
                    .filter(|k| k.parameter == name)
                    .for_each(|k| see(k.threshold));
            }
            if let Some(m) = &state.motion {
                tree_values(m, name, &mut see, 0);
            }
        }
    }
    let margin = (hi - lo) * 0.125;
    (lo - margin, hi + margin)
}

/// Calls `see` on every threshold or position coordinate of a tree driven by `name`.
fn tree_values(m: &model::Motion, name: &str, see: &mut dyn FnMut(f32), depth: usize) {
    let model::Motion::BlendTree(tree) = m else {
        return;
    };
    if depth > 64 {
        return;
    }
    let x = tree.parameter.as_deref() == Some(name);
    let y = tree.parameter_y.as_deref() == Some(name);
    for child in &tree.children {
        if x && tree.kind == model::BlendKind::Simple1D {
            see(child.threshold);
        }
        if x && tree.kind.is_2d() {
            see(child.position[0]);
        }
        if y && tree.kind.is_2d() {
            see(child.position[1]);
        }
        if let Some(m) = &child.motion {
            tree_values(m, name, see, depth + 1);
        }
    }
}

/// Picks the controller for the shown rig and, in controller mode, advances the machine.
/// The rig shows the blended pose ([`super::controller_pose`]); a rig that is not one of the
/// files' (a placeholder) plays the heaviest leaf clip of layer 0 instead, switching clips as
/// the weights move. A clip the user picks from the list leaves controller mode.
pub fn drive_controller(
    time: Res<Time>,
    library: Option<Res<Library>>,
    scene: Res<SceneState>,
    mut view: ResMut<ControllerView>,
    mut selection: ResMut<Selection>,
    mut playbacks: Query<&mut UnityPlayback>,
) {
    let Some(library) = library else { return };
    if scene.root.is_some() {
        view.choose_for_rig(&library, scene.rig_index);
    }
    if !view.active {
        view.shown = None;
        return;
    }
    if view.shown.is_some() && selection.clip != view.shown {
        view.active = false;
        view.shown = None;
        return;
    }
    view.step(time.delta_secs_f64());
    let playback = scene.root.and_then(|r| playbacks.get_mut(r).ok());
    if let (Some(_), Some(mut playback)) = (scene.rig_index, playback) {
        // The blended pose covers the rig: the clip shown stays (timeline, curves), still.
        playback.playhead.paused = true;
        view.shown = selection.clip;
        return;
    }
    let Some((at, t)) = view.heaviest_leaf() else {
        return;
    };
    if selection.clip != Some(at) {
        // The rig stays the one the controller runs on.
        selection.rig = selection.rig.or(scene.rig_index);
        selection.clip = Some(at);
        selection.keep_view = scene.root.is_some();
        selection.dirty = true;
    } else if let Some(mut playback) = scene.root.and_then(|r| playbacks.get_mut(r).ok()) {
        playback.playhead.seek(t as f32);
        playback.playhead.paused = true;
    }
    view.shown = Some(at);
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use clipscope_authoring::demo_controller::locomotion_bytes;
    use clipscope_core::workspace::OpenOptions;

    /// The locomotion controller's files: its clips, the demo rig and the controller.
    fn library() -> Library {
        let ws = Workspace::open_bytes(
            Path::new("locomotion.bundle"),
            locomotion_bytes().unwrap(),
            &OpenOptions::default(),
        );
        Library::full(Arc::new(ws))
    }

    fn clip(library: &Library, name: &str) -> ObjectRef {
        library
            .main
            .clips
            .iter()
            .find(|c| c.name == name)
            .unwrap()
            .at
    }

    #[test]
    fn the_rigs_controller_is_picked_until_the_user_picks_another() {
        let library = library();
        let mut view = ControllerView::default();
        view.choose_for_rig(&library, Some(0));
        assert_eq!(
            view.index,
            Some(0),
            "the only controller whose clips play on it"
        );
        assert!(view.animator.is_some());
        view.choose_for_rig(&library, None);
        assert_eq!(view.index, None, "no rig, no controller");
        view.pinned = true;
        view.set_controller(&library.main, Some(0));
        view.choose_for_rig(&library, Some(5));
        assert_eq!(view.index, Some(0), "a picked controller stays");
        view.set_controller(&library.main, Some(3));
        assert!(view.index.is_none() && view.animator.is_none() && !view.active);
    }

    #[test]
    fn parameters_set_in_the_panel_drive_the_machine_and_the_rigs_clip() {
        let library = library();
        let mut view = ControllerView::default();
        view.set_controller(&library.main, Some(0));
        let dt = 1.0 / 32.0;
        view.step(dt);
        assert_eq!(
            view.heaviest_leaf(),
            Some((clip(&library, "Idle"), dt as f32 as f64))
        );
        view.set_parameter("Speed", ParameterKind::Float, 1.75);
        for _ in 0..9 {
            view.step(dt);
        }
        // Move alone (the 0.25 s crossfade took 8 updates): Walk 0.25, Run 0.75.
        let a = view.animator.as_ref().unwrap();
        assert!(a.output()[0].transition.is_none());
        let (at, t) = view.heaviest_leaf().unwrap();
        assert_eq!(at, clip(&library, "Run"));
        let state = &a.output()[0].states[0];
        let expected = state.leaves[1].clip_time;
        assert_eq!((state.path.as_str(), t), ("Base Layer.Move", expected));
        // Paused, the machine stands; at speed 2 it runs twice as fast.
        let before = a.time;
        view.paused = true;
        view.step(dt);
        assert_eq!(view.animator.as_ref().unwrap().time, before);
        (view.paused, view.speed) = (false, 2.0);
        view.step(dt);
        assert_eq!(view.animator.as_ref().unwrap().time, before + 2.0 * dt);
        // A trigger from its button: Any State → Wave, consumed.
        view.set_parameter("Wave", ParameterKind::Trigger, 1.0);
        view.step(dt);
        let a = view.animator.as_ref().unwrap();
        assert_eq!(
            a.output()[0].transition.as_ref().unwrap().to,
            "Base Layer.Wave"
        );
        assert_eq!(a.parameter("Wave"), Some(0.0));
        view.restart();
        assert_eq!(view.animator.as_ref().unwrap().time, 0.0);
        assert_eq!(
            view.animator.as_ref().unwrap().output()[0].states[0].path,
            "Base Layer.Idle"
        );
    }

    #[test]
    fn a_float_slider_covers_every_value_the_controller_compares_it_with() {
        let library = library();
        let c = library.main.controllers[0].model.as_ref().unwrap();
        // Conditions at 0.1, thresholds 1 and 2: 0 to 2, an eighth wider each side.
        assert_eq!(parameter_range(c, "Speed"), (-0.25, 2.25));
        assert_eq!(parameter_range(c, "Other"), (-0.125, 1.125));
    }
}
