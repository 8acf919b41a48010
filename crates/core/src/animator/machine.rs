//! The state machine of every layer played update by update (§4.8): state timing, exit
//! times, transition choice and order, Entry/Exit hops through sub-machines, crossfades and
//! interruption with a frozen pose. Produces the §4.10 output.

use std::collections::HashMap;
use std::sync::Arc;

use super::model::*;
use super::params::Params;
use super::tree::{self, Leaf};

/// Most Entry/Exit hops followed to resolve one destination.
const MAX_HOPS: usize = 32;

/// One layer's states, flattened, with lookups by path.
struct Graph<'c> {
    layer: &'c Layer,
    states: Vec<&'c State>,
    by_path: HashMap<&'c str, usize>,
    machines: HashMap<&'c str, &'c StateMachine>,
    /// Parent machine path of each machine path.
    parents: HashMap<&'c str, &'c str>,
    /// Any State transitions: root first, then sub-machines depth first.
    any_state: Vec<Transition>,
    /// Synced layers whose motions enter this layer's timing (Affects Timing), by index.
    timing: Vec<(usize, Graph<'c>)>,
}

impl<'c> Graph<'c> {
    fn new(layer: &'c Layer) -> Graph<'c> {
        let root = &layer.state_machine;
        let states = root.all_states();
        let by_path = states
            .iter()
            .enumerate()
            .map(|(i, s)| (s.full_path.as_str(), i))
            .collect();
        let mut machines = HashMap::new();
        let mut parents = HashMap::new();
        let mut any_state = Vec::new();
        for m in root.all_machines() {
            machines.insert(m.path.as_str(), m);
            for child in &m.state_machines {
                parents.insert(child.path.as_str(), m.path.as_str());
            }
            any_state.extend(m.any_state_transitions.iter().cloned());
        }
        Graph {
            layer,
            states,
            by_path,
            machines,
            parents,
            any_state,
            timing: Vec::new(),
        }
    }
}

/// A playing instance of a state.
#[derive(Clone, Debug)]
struct Instance {
    state: usize,
    nt: f64,
    prev: f64,
    /// Not yet advanced and evaluated since it was entered (§4.3 first-update rule).
    fresh: bool,
    /// Computed at step 1 of each update.
    leaves: Vec<Leaf>,
    length: f64,
    speed: f64,
}

/// A blended pose frozen when its transition was interrupted. It is reported as the state
/// that was current (the interrupted transition's source), whose clock stops where it was
/// (§4.7, §6.20): its normalised time and length are that state's at the interruption.
#[derive(Clone, Debug)]
struct Frozen {
    path: String,
    /// Leaves with their weight in the frozen pose and fixed clip times.
    leaves: Vec<FrozenLeaf>,
    /// The frozen state's normalised time and length.
    nt: f64,
    length: f64,
    /// The same pose in each layer synced to this one (by layer index): the same states
    /// and times, with that layer's motions.
    synced: Vec<(usize, Vec<FrozenLeaf>)>,
}

/// A frozen leaf: the leaf, its weight in the frozen pose, its phase and clip time.
type FrozenLeaf = (Leaf, f64, f64, f64);

#[derive(Clone, Debug)]
enum Source {
    Live(Instance),
    Frozen(Frozen),
}

/// Which list a running transition came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum List {
    AnyState,
    State(usize),
    /// Script crossfades: no list, cannot be interrupted.
    Script,
}

#[derive(Clone, Debug)]
struct Running {
    transition: Transition,
    list: List,
    index: usize,
    source: Source,
    destination: Instance,
    p: f64,
    duration: f64,
}

/// One layer's playback state.
struct LayerState {
    current: Instance,
    running: Option<Running>,
}

/// A controller being played.
pub struct Animator<'c> {
    controller: &'c Controller,
    /// Shared so that an update can read every layer's graph while it changes the state.
    graphs: Arc<Vec<Graph<'c>>>,
    /// One per layer that is not synced (synced layers share their source's).
    layers: Vec<Option<LayerState>>,
    pub params: Params,
    pub weights: Vec<f64>,
    pub warnings: Vec<String>,
}

/// The §4.10 output of one layer.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerOutput {
    pub name: String,
    pub weight: f64,
    pub mode: Blending,
    pub transition: Option<TransitionOutput>,
    pub states: Vec<StateOutput>,
}

/// A layer's running transition: source and destination state paths, progress (0 to 1) and duration in seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct TransitionOutput {
    pub from: String,
    pub to: String,
    pub progress: f64,
    pub duration: f64,
}

/// One playing state of a layer: its path, normalised time, weight in the layer, speed and length,
/// whether an interruption froze its pose, and the clips its leaves play.
#[derive(Clone, Debug, PartialEq)]
pub struct StateOutput {
    pub path: String,
    pub normalized_time: f64,
    pub weight: f64,
    pub speed: f64,
    pub length: f64,
    pub frozen: bool,
    pub leaves: Vec<LeafOutput>,
}

/// One leaf clip of a playing state: its weight in the tree and in the layer, its phase and clip
/// time, whether it loops and whether it is mirrored.
#[derive(Clone, Debug, PartialEq)]
pub struct LeafOutput {
    pub clip: Option<String>,
    /// The clip's file (index in the workspace) and path id, when it is loaded.
    pub file: Option<usize>,
    pub path_id: Option<i64>,
    pub tree_weight: f64,
    pub weight: f64,
    pub phase: f64,
    pub clip_time: f64,
    pub looping: bool,
    pub mirror: bool,
}

/// Why a script action could not be applied.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("no state {0:?} in any layer (give LAYER.STATE, the state's full path)")]
    NoState(String),
}

impl<'c> Animator<'c> {
    /// Enters every layer's root Entry with the controller's default parameters (§4.8
    /// initialisation; nothing is evaluated).
    pub fn new(controller: &'c Controller) -> Animator<'c> {
        Self::with_params(controller, Params::new(controller))
    }

    /// Initialises with parameters already set (script actions at time 0).
    pub fn with_params(controller: &'c Controller, params: Params) -> Animator<'c> {
        let mut graphs: Vec<Graph> = controller.layers.iter().map(Graph::new).collect();
        for (k, layer) in controller.layers.iter().enumerate() {
            if let Some(source) = layer.synced_layer.filter(|_| layer.synced_affects_timing)
                && let Some(g) = graphs.get_mut(source)
            {
                g.timing.push((k, Graph::new(layer)));
            }
        }
        let mut a = Animator {
            controller,
            layers: Vec::new(),
            params,
            weights: controller
                .layers
                .iter()
                .enumerate()
                .map(|(i, l)| if i == 0 { 1.0 } else { l.weight as f64 })
                .collect(),
            warnings: Vec::new(),
            graphs: Arc::new(Vec::new()),
        };
        for (i, g) in graphs.iter().enumerate() {
            let state = if controller.layers[i].synced_layer.is_some() {
                None
            } else {
                let root = Destination::Machine(g.layer.state_machine.path.clone());
                match a.resolve(g, &root) {
                    Some((s, _)) => {
                        let mut current = new_instance(s, 0.0);
                        a.measure(g, &mut current);
                        Some(LayerState {
                            current,
                            running: None,
                        })
                    }
                    None => {
                        a.warnings.push(format!(
                            "layer {}: its Entry leads to no state; the layer plays nothing",
                            g.layer.name
                        ));
                        None
                    }
                }
            };
            a.layers.push(state);
        }
        a.graphs = Arc::new(graphs);
        a
    }

    /// Follows Entry and Exit hops to a state; the triggers of the hops taken.
    fn resolve(&mut self, g: &Graph, target: &Destination) -> Option<(usize, Vec<Condition>)> {
        let mut used = Vec::new();
        let mut target = target.clone();
        for _ in 0..MAX_HOPS {
            match &target {
                Destination::State(p) => return g.by_path.get(p.as_str()).map(|&i| (i, used)),
                Destination::Machine(p) => {
                    let m = g.machines.get(p.as_str())?;
                    let hop = m
                        .entry_transitions
                        .iter()
                        .find(|t| self.params.all_hold(&t.conditions));
                    match hop {
                        Some(t) => {
                            used.extend(t.conditions.iter().cloned());
                            target = t.destination.clone();
                        }
                        None => target = Destination::State(m.default_state.clone()?),
                    }
                }
                Destination::Exit(p) => {
                    if *p == g.layer.state_machine.path || !g.machines.contains_key(p.as_str()) {
                        target = Destination::Machine(g.layer.state_machine.path.clone());
                        continue;
                    }
                    let m = g.machines[p.as_str()];
                    let hop = m
                        .exit_transitions
                        .iter()
                        .find(|t| self.params.all_hold(&t.conditions));
                    match hop {
                        Some(t) => {
                            used.extend(t.conditions.iter().cloned());
                            target = t.destination.clone();
                        }
                        None => {
                            let parent = g.parents.get(p.as_str())?;
                            target = Destination::State(g.machines[parent].default_state.clone()?);
                        }
                    }
                }
            }
        }
        self.warnings.push(format!(
            "layer {}: more than {MAX_HOPS} Entry/Exit hops; the transition is not taken",
            g.layer.name
        ));
        None
    }

    /// The layer that plays the state machine of layer `i` (its source for a synced layer).
    fn driver(&self, i: usize) -> usize {
        self.controller.layers[i].synced_layer.unwrap_or(i)
    }

    /// Advances every layer by `dt` seconds (§4.8).
    pub fn update(&mut self, dt: f64) {
        let dt = dt.max(0.0);
        for i in 0..self.layers.len() {
            let Some(mut state) = self.layers[i].take() else {
                continue;
            };
            let graphs = Arc::clone(&self.graphs);
            self.update_layer(&graphs[i], &mut state, dt);
            self.layers[i] = Some(state);
        }
    }

    fn measure(&mut self, g: &Graph, inst: &mut Instance) {
        let s = g.states[inst.state];
        inst.leaves = tree::leaves(s.motion.as_ref(), &mut self.params);
        inst.length = tree::length(&inst.leaves);
        // Synced layers with Affects Timing: L = (1 − w)·L_source + w·L_synced (§4.9).
        let path = s.full_path.as_str();
        for (k, synced) in &g.timing {
            if let Some(&i) = synced.by_path.get(path) {
                let leaves = tree::leaves(synced.states[i].motion.as_ref(), &mut self.params);
                let w = self.weights[*k];
                inst.length = (1.0 - w) * inst.length + w * tree::length(&leaves);
            }
        }
        let mut speed = s.speed as f64;
        if let Some(p) = &s.speed_parameter {
            speed *= self.params.get(p);
        }
        inst.speed = speed;
    }

    fn advance(&mut self, g: &Graph, inst: &mut Instance, dt: f64) {
        inst.prev = inst.nt;
        match &g.states[inst.state].time_parameter {
            Some(p) => inst.nt = self.params.get(p),
            None => inst.nt += dt * inst.speed / inst.length,
        }
    }

    fn update_layer(&mut self, g: &Graph, st: &mut LayerState, dt: f64) {
        // 1–2: measure and advance the live instances.
        let mut current = st.current.clone();
        self.measure(g, &mut current);
        self.advance(g, &mut current, dt);
        st.current = current;
        if let Some(r) = &mut st.running {
            let mut dest = r.destination.clone();
            self.measure(g, &mut dest);
            self.advance(g, &mut dest, dt);
            r.destination = dest;
            if let Source::Live(src) = &mut r.source {
                *src = st.current.clone();
            }
            // 3: progress.
            r.p += if r.duration > 0.0 {
                dt / r.duration
            } else {
                1.0
            };
        }
        if st.running.as_ref().is_some_and(|r| r.p >= 1.0) {
            let r = st.running.take().expect("checked");
            st.current = r.destination;
        }
        // 4: candidates.
        let fired = match &st.running {
            None => self.idle_candidate(g, st),
            Some(r) => self.interrupting_candidate(g, st, r),
        };
        st.current.fresh = false;
        if let Some(r) = &mut st.running {
            r.destination.fresh = false;
        }
        if let Some((t, list, index)) = fired {
            self.start(g, st, t, list, index);
        }
    }

    /// Exit-time test of a transition on a state's `(prev, nt)` (§4.3).
    fn exit_time_passed(&self, g: &Graph, t: &Transition, inst: &Instance) -> bool {
        if !t.has_exit_time {
            return true;
        }
        let (prev, nt, e) = (inst.prev, inst.nt, t.exit_time as f64);
        if nt < prev {
            return false;
        }
        let looping = self.state_loops(g, inst);
        if looping && e < 1.0 {
            let k = (nt - e).floor();
            let edge = k + e;
            k >= 0.0
                && if inst.fresh {
                    edge >= prev
                } else {
                    edge > prev
                }
        } else {
            let after = if inst.fresh { prev <= e } else { prev < e };
            after && e <= nt
        }
    }

    /// `m_Loop`: stored (built), else every leaf clip loops.
    fn state_loops(&self, g: &Graph, inst: &Instance) -> bool {
        let s = g.states[inst.state];
        s.stored_loop
            .unwrap_or_else(|| inst.leaves.iter().all(Leaf::looping))
    }

    /// Whether a transition of `list` can fire now from `source` (`None`: a frozen source,
    /// whose exit times never pass).
    fn can_fire(
        &mut self,
        g: &Graph,
        t: &Transition,
        source: Option<&Instance>,
        any_state_current: Option<usize>,
    ) -> bool {
        let exit_ok = match source {
            Some(inst) => self.exit_time_passed(g, t, inst),
            None => !t.has_exit_time,
        };
        if !exit_ok || !self.params.all_hold(&t.conditions) {
            return false;
        }
        if let Some(current) = any_state_current
            && !t.can_transition_to_self
            && self.resolve(g, &t.destination).map(|(s, _)| s) == Some(current)
        {
            return false;
        }
        true
    }

    fn idle_candidate(&mut self, g: &Graph, st: &LayerState) -> Option<(Transition, List, usize)> {
        let current = st.current.clone();
        for (i, t) in g.any_state.iter().enumerate() {
            if self.can_fire(g, t, Some(&current), Some(current.state)) {
                return Some((t.clone(), List::AnyState, i));
            }
        }
        let list = &g.states[current.state].transitions;
        for (i, t) in list.iter().enumerate() {
            if self.can_fire(g, t, Some(&current), None) {
                return Some((t.clone(), List::State(current.state), i));
            }
        }
        None
    }

    fn interrupting_candidate(
        &mut self,
        g: &Graph,
        st: &LayerState,
        r: &Running,
    ) -> Option<(Transition, List, usize)> {
        let source_setting = r.transition.interruption;
        if source_setting == Interruption::None || r.list == List::Script {
            return None;
        }
        let dest = r.destination.clone();
        for (i, t) in g.any_state.iter().enumerate() {
            if r.list == List::AnyState
                && (i == r.index || (r.transition.ordered_interruption && i > r.index))
            {
                continue;
            }
            if self.can_fire(g, t, Some(&dest), Some(dest.state)) {
                return Some((t.clone(), List::AnyState, i));
            }
        }
        let source_list = match r.list {
            List::State(s) => Some(s),
            _ => None,
        };
        let source_inst = match &r.source {
            Source::Live(inst) => Some(inst.clone()),
            Source::Frozen(_) => None,
        };
        let order: &[bool] = match source_setting {
            Interruption::Source => &[true],
            Interruption::Destination => &[false],
            Interruption::SourceThenDestination => &[true, false],
            Interruption::DestinationThenSource => &[false, true],
            Interruption::None => &[],
        };
        let _ = st;
        for &from_source in order {
            let (state, inst, list) = if from_source {
                let Some(s) = source_list else { continue };
                (s, source_inst.as_ref(), List::State(s))
            } else {
                (dest.state, Some(&dest), List::State(dest.state))
            };
            let transitions = &g.states[state].transitions;
            for (i, t) in transitions.iter().enumerate() {
                if list == r.list
                    && (i == r.index || (r.transition.ordered_interruption && i > r.index))
                {
                    continue;
                }
                if self.can_fire(g, t, inst, None) {
                    return Some((t.clone(), list, i));
                }
            }
        }
        None
    }

    /// Starts a transition that fired: triggers consumed, destination resolved, duration
    /// fixed now (§4.8 step 4).
    fn start(&mut self, g: &Graph, st: &mut LayerState, t: Transition, list: List, index: usize) {
        let Some((target, hops)) = self.resolve(g, &t.destination) else {
            self.warnings.push(format!(
                "layer {}: a transition to {:?} leads to no state; not taken",
                g.layer.name, t.destination
            ));
            return;
        };
        self.params.consume(&t.conditions);
        self.params.consume(&hops);
        let (source, src_length, src_speed) = match st.running.take() {
            None => {
                let c = st.current.clone();
                let (l, s) = (c.length, c.speed);
                (Source::Live(c), l, s)
            }
            Some(r) => {
                let frozen = self.freeze(g, &r);
                let l = frozen.length;
                (Source::Frozen(frozen), l, 0.0)
            }
        };
        let duration = if t.fixed_duration {
            t.duration as f64
        } else if src_speed == 0.0 {
            t.duration as f64 * src_length
        } else {
            t.duration as f64 * src_length / src_speed.abs()
        };
        let mut destination = new_instance(target, t.offset as f64);
        self.measure(g, &mut destination);
        if duration <= 0.0 {
            st.current = destination;
            st.current.fresh = true;
            return;
        }
        if let Source::Live(c) = &source {
            st.current = c.clone();
        }
        st.running = Some(Running {
            transition: t,
            list,
            index,
            source,
            destination,
            p: 0.0,
            duration,
        });
    }

    /// The blended pose of a running transition, frozen: every leaf with its weight in the
    /// blend and its clip time now; labelled with the source state's path, time and length.
    /// Layers synced to this one freeze the same states with their own motions.
    fn freeze(&mut self, g: &Graph, r: &Running) -> Frozen {
        let earlier = match &r.source {
            Source::Frozen(f) => Some(f),
            Source::Live(_) => None,
        };
        let mut parts: Vec<(&Instance, f64)> = vec![(&r.destination, r.p)];
        if let Source::Live(i) = &r.source {
            parts.insert(0, (i, 1.0 - r.p));
        }
        let leaves = self.frozen_leaves(g, &parts, earlier.map(|f| f.leaves.as_slice()), 1.0 - r.p);
        let graphs = Arc::clone(&self.graphs);
        let driver = graphs.iter().position(|x| std::ptr::eq(x.layer, g.layer));
        let mut synced = Vec::new();
        for (k, sg) in graphs.iter().enumerate() {
            if driver.is_none() || self.controller.layers[k].synced_layer != driver {
                continue;
            }
            let mapped: Vec<(Instance, f64)> = parts
                .iter()
                .map(|(inst, w)| (self.mapped(g, sg, inst, true), *w))
                .collect();
            let refs: Vec<(&Instance, f64)> = mapped.iter().map(|(i, w)| (i, *w)).collect();
            let before = earlier.and_then(|f| f.synced.iter().find(|(j, _)| *j == k));
            let own = self.frozen_leaves(sg, &refs, before.map(|(_, l)| l.as_slice()), 1.0 - r.p);
            synced.push((k, own));
        }
        let (path, nt, length) = match &r.source {
            Source::Live(i) => (g.states[i.state].full_path.clone(), i.nt, i.length),
            Source::Frozen(f) => (f.path.clone(), f.nt, f.length),
        };
        Frozen {
            path,
            leaves,
            nt,
            length,
            synced,
        }
    }

    /// The leaves of `parts` (instances with their weights) at their phases now, after the
    /// leaves of an `earlier` frozen pose scaled by `earlier_weight`.
    fn frozen_leaves(
        &self,
        g: &Graph,
        parts: &[(&Instance, f64)],
        earlier: Option<&[FrozenLeaf]>,
        earlier_weight: f64,
    ) -> Vec<FrozenLeaf> {
        let mut leaves: Vec<FrozenLeaf> = earlier
            .into_iter()
            .flatten()
            .map(|(leaf, w, phase, time)| (leaf.clone(), w * earlier_weight, *phase, *time))
            .collect();
        for &(inst, w) in parts {
            let offset = self.state_offset(g, inst);
            for leaf in &inst.leaves {
                let phase = leaf.phase(inst.nt, offset);
                leaves.push((
                    leaf.clone(),
                    w * leaf.tree_weight,
                    phase,
                    leaf.clip_time(phase),
                ));
            }
        }
        leaves
    }

    fn state_offset(&self, g: &Graph, inst: &Instance) -> f64 {
        let s = g.states[inst.state];
        match &s.cycle_offset_parameter {
            Some(p) => self.params_peek(p),
            None => s.cycle_offset as f64,
        }
    }

    fn state_mirror(&self, g: &Graph, inst: &Instance) -> bool {
        let s = g.states[inst.state];
        match &s.mirror_parameter {
            Some(p) => self.params_peek(p) != 0.0,
            None => s.mirror,
        }
    }

    fn params_peek(&self, name: &str) -> f64 {
        self.params.clone().get(name)
    }

    /// Output entries of a running transition, scaled by `scale`.
    fn transition_states(&self, g: &Graph, r: &Running, scale: f64) -> Vec<StateOutput> {
        let mut out = Vec::new();
        match &r.source {
            Source::Live(i) => out.push(self.state_output(g, i, (1.0 - r.p) * scale)),
            Source::Frozen(f) => out.push(frozen_output(f, (1.0 - r.p) * scale)),
        }
        out.push(self.state_output(g, &r.destination, r.p * scale));
        out
    }

    fn state_output(&self, g: &Graph, inst: &Instance, weight: f64) -> StateOutput {
        let offset = self.state_offset(g, inst);
        let mirror = self.state_mirror(g, inst);
        StateOutput {
            path: g.states[inst.state].full_path.clone(),
            normalized_time: inst.nt,
            weight,
            speed: inst.speed,
            length: inst.length,
            frozen: false,
            leaves: inst
                .leaves
                .iter()
                .map(|l| {
                    let phase = l.phase(inst.nt, offset);
                    leaf_output(l, l.tree_weight, weight, phase, l.clip_time(phase), mirror)
                })
                .collect(),
        }
    }

    /// The §4.10 output of every layer at this moment. Synced layers show their source
    /// layer's states with their own motions.
    pub fn output(&mut self) -> Vec<LayerOutput> {
        let controller = self.controller;
        let graphs = Arc::clone(&self.graphs);
        let mut out = Vec::new();
        for (i, layer) in controller.layers.iter().enumerate() {
            let driver = self.driver(i);
            let weight = self.weights[i];
            let mode = if i == 0 {
                Blending::Override
            } else {
                layer.blending
            };
            let st = self.layers.get(driver).and_then(Option::as_ref);
            let (current, running) = match st {
                Some(st) => (st.current.clone(), st.running.clone()),
                None => {
                    out.push(LayerOutput {
                        name: layer.name.clone(),
                        weight,
                        mode,
                        transition: None,
                        states: Vec::new(),
                    });
                    continue;
                }
            };
            let g = &graphs[i];
            let d = &graphs[driver];
            let current = self.mapped(d, g, &current, driver != i);
            let (transition, states) = match running {
                None => (None, vec![self.state_output(g, &current, 1.0)]),
                Some(mut r) => {
                    r.destination = self.mapped(d, g, &r.destination, driver != i);
                    match &mut r.source {
                        Source::Live(s) => *s = self.mapped(d, g, s, driver != i),
                        Source::Frozen(f) => {
                            if let Some((_, own)) = f.synced.iter().find(|(k, _)| *k == i) {
                                f.leaves = own.clone();
                            }
                        }
                    }
                    let from = match &r.source {
                        Source::Live(s) => g.states[s.state].full_path.clone(),
                        Source::Frozen(f) => f.path.clone(),
                    };
                    let t = TransitionOutput {
                        from,
                        to: g.states[r.destination.state].full_path.clone(),
                        progress: r.p,
                        duration: r.duration,
                    };
                    (Some(t), self.transition_states(g, &r, 1.0))
                }
            };
            out.push(LayerOutput {
                name: layer.name.clone(),
                weight,
                mode,
                transition,
                states,
            });
        }
        out
    }

    /// An instance of the driving layer seen in layer graph `g` (a synced layer: the state
    /// of the same path, measured with this layer's motions).
    fn mapped(&mut self, driver: &Graph, g: &Graph, inst: &Instance, remeasure: bool) -> Instance {
        let mut m = inst.clone();
        if remeasure {
            let path = driver.states[inst.state].full_path.as_str();
            if let Some(&s) = g.by_path.get(path) {
                m.state = s;
                self.measure(g, &mut m);
            }
        }
        m
    }

    /// `play(layer, state, nt)` (§6.25): switches at once, dropping a running transition;
    /// pending triggers are kept.
    pub fn play(&mut self, path: &str, nt: f64) -> Result<(), PlayError> {
        let (layer, state) = self.find_state(path)?;
        let mut inst = new_instance(state, nt);
        self.measure_in(layer, &mut inst);
        if let Some(st) = self.layers[layer].as_mut() {
            st.current = inst;
            st.running = None;
        } else {
            self.layers[layer] = Some(LayerState {
                current: inst,
                running: None,
            });
        }
        Ok(())
    }

    /// `crossfade(layer, state, seconds)` (§6.25): a fixed-duration transition from the
    /// current pose that nothing interrupts.
    pub fn crossfade(&mut self, path: &str, seconds: f64) -> Result<(), PlayError> {
        let (layer, state) = self.find_state(path)?;
        let Some(mut st) = self.layers[layer].take() else {
            return self.play(path, 0.0);
        };
        let graphs = Arc::clone(&self.graphs);
        let g = &graphs[layer];
        let mut t = Transition::to(
            Destination::State(g.states[state].full_path.clone()),
            Vec::new(),
        );
        t.duration = seconds as f32;
        self.start(g, &mut st, t, List::Script, 0);
        self.layers[layer] = Some(st);
        Ok(())
    }

    fn measure_in(&mut self, layer: usize, inst: &mut Instance) {
        let graphs = Arc::clone(&self.graphs);
        self.measure(&graphs[layer], inst);
    }

    /// The playing layer and state index of a full path.
    fn find_state(&self, path: &str) -> Result<(usize, usize), PlayError> {
        for (i, g) in self.graphs.iter().enumerate() {
            if self.controller.layers[i].synced_layer.is_some() {
                continue;
            }
            if let Some(&s) = g.by_path.get(path) {
                return Ok((i, s));
            }
        }
        // `LAYER.STATE` where the layer name differs from the machine path root.
        for (i, g) in self.graphs.iter().enumerate() {
            let layer = &self.controller.layers[i];
            if layer.synced_layer.is_some() {
                continue;
            }
            if let Some(rest) = path.strip_prefix(&format!("{}.", layer.name)) {
                let full = format!("{}.{rest}", g.layer.state_machine.path);
                if let Some(&s) = g.by_path.get(full.as_str()) {
                    return Ok((i, s));
                }
            }
        }
        Err(PlayError::NoState(path.to_string()))
    }
}

fn new_instance(state: usize, nt: f64) -> Instance {
    Instance {
        state,
        nt,
        prev: nt,
        fresh: true,
        leaves: Vec::new(),
        length: 1.0,
        speed: 0.0,
    }
}

fn frozen_output(f: &Frozen, weight: f64) -> StateOutput {
    StateOutput {
        path: f.path.clone(),
        normalized_time: f.nt,
        weight,
        speed: 0.0,
        length: f.length,
        frozen: true,
        leaves: f
            .leaves
            .iter()
            .map(|(l, w, phase, time)| leaf_output(l, *w, weight, *phase, *time, l.mirror))
            .collect(),
    }
}

fn leaf_output(
    l: &Leaf,
    tree_weight: f64,
    state_weight: f64,
    phase: f64,
    time: f64,
    state_mirror: bool,
) -> LeafOutput {
    let resolved = l.clip.as_ref().and_then(|c| c.resolved.as_ref());
    LeafOutput {
        clip: resolved.map(|r| r.name.clone()),
        file: resolved.map(|r| r.file),
        path_id: resolved.map(|r| r.path_id),
        tree_weight,
        weight: state_weight * tree_weight,
        phase,
        clip_time: time,
        looping: l.looping(),
        mirror: state_mirror ^ l.mirror,
    }
}
