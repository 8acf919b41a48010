//! A text `.controller` and the same controller built into a bundle decode to the same
//! model. Each shared text controller is decoded, compiled here into a class 91
//! ControllerConstant the way the spec (§1.2) says Unity builds one (states flattened per
//! layer machine, Entry and Exit selector states, Any State lists merged on the root,
//! blend trees as node arrays, names in `m_TOS`, one placeholder clip per distinct clip
//! reference), written with the authoring module, decoded again, and compared: names,
//! parameters, layers, states, transitions and blend trees, clip references by name.
//!
//! What building changes by design, and the comparison therefore normalises: the root
//! machine's name (built: the layer's), Any State transitions (built: one merged list),
//! sub-machine order (built: order of first appearance), blend tree names (not built),
//! `m_Loop` (built only), the field of a blend child that its tree type does not use,
//! slot time scales of nested trees (built: none), blend trees without children (built:
//! a node without children or clip, which reads back as no motion), clip references
//! (compared by name),
//! masks (a text layer's AvatarMask asset is not read) and warnings.

use crate::common;

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use clipscope_authoring::controller::*;
use clipscope_authoring::{ClipSpec, MecanimClip};
use clipscope_core::animator::model::*;
use clipscope_core::animator::names::name_hash;
use clipscope_core::{OpenOptions, Workspace};
use rabex::objects::PPtr;

const SELECTOR_BASE: u32 = 30000;

/// Compiles a decoded model into the built layout.
#[derive(Default)]
struct Compiler {
    tos: BTreeMap<u32, String>,
    /// Clip names in `m_AnimationClips` order.
    clips: Vec<String>,
}

impl Compiler {
    fn name(&mut self, s: &str) -> u32 {
        let h = name_hash(s);
        self.tos.insert(h, s.to_string());
        h
    }

    fn param(&mut self, p: &Option<String>) -> u32 {
        p.as_ref().map_or(0, |p| self.name(p))
    }

    fn clip(&mut self, c: &ClipMotion) -> u32 {
        let name = clip_name(c);
        match self.clips.iter().position(|n| *n == name) {
            Some(i) => i as u32,
            None => {
                self.clips.push(name);
                (self.clips.len() - 1) as u32
            }
        }
    }

    fn controller(&mut self, c: &Controller) -> AnimatorController {
        let mut values = Vec::new();
        let mut defaults = ValueArray::default();
        for p in &c.parameters {
            let (code, index) = match p.kind {
                ParameterKind::Float => {
                    defaults.m_FloatValues.push(p.default as f32);
                    (1, defaults.m_FloatValues.len() - 1)
                }
                ParameterKind::Int => {
                    defaults.m_IntValues.push(p.default as i32);
                    (3, defaults.m_IntValues.len() - 1)
                }
                ParameterKind::Bool | ParameterKind::Trigger => {
                    defaults.m_BoolValues.push(p.default != 0.0);
                    let code = if p.kind == ParameterKind::Bool { 4 } else { 9 };
                    (code, defaults.m_BoolValues.len() - 1)
                }
            };
            values.push(ValueConstant {
                m_ID: self.name(&p.name),
                m_Type: code,
                m_Index: index as u32,
            });
        }
        let mut machines: Vec<Ptr<StateMachineConstant>> = Vec::new();
        let mut machine_of_layer: HashMap<usize, usize> = HashMap::new();
        let mut layers = Vec::new();
        for (i, layer) in c.layers.iter().enumerate() {
            // Synced layers reuse their source's machine with the next motion set.
            let (index, motion_set) =
                match layer.synced_layer.and_then(|s| machine_of_layer.get(&s)) {
                    Some(&m) => {
                        let set = machines[m].data.m_SynchronizedLayerCount;
                        machines[m].data.m_SynchronizedLayerCount += 1;
                        self.add_motion_set(&mut machines[m].data, &layer.state_machine);
                        (m, set)
                    }
                    None => {
                        machines.push(ptr(self.machine(&layer.name, &layer.state_machine)));
                        machine_of_layer.insert(i, machines.len() - 1);
                        (machines.len() - 1, 0)
                    }
                };
            layers.push(ptr(LayerConstant {
                m_StateMachineIndex: index as u32,
                m_StateMachineSynchronizedLayerIndex: motion_set,
                m_Binding: self.name(&layer.name),
                m_LayerBlendingMode: i32::from(layer.blending == Blending::Additive),
                m_DefaultWeight: layer.weight,
                m_IKPass: layer.ik_pass,
                m_SyncedLayerAffectsTiming: layer.synced_affects_timing,
                ..LayerConstant::default()
            }));
        }
        AnimatorController {
            m_Name: c.name.clone(),
            m_ControllerSize: 0,
            m_Controller: ControllerConstant {
                m_LayerArray: layers,
                m_StateMachineArray: machines,
                m_Values: ptr(ValueArrayConstant {
                    m_ValueArray: values,
                }),
                m_DefaultValues: ptr(defaults),
            },
            m_TOS: std::mem::take(&mut self.tos),
            m_AnimationClips: (1..=self.clips.len() as i64).map(PPtr::local).collect(),
            m_StateMachineBehaviourVectorDescription: BehaviourDescription::default(),
            m_StateMachineBehaviours: Vec::new(),
            m_MultiThreadedStateMachine: true,
        }
    }

    /// A layer's machine: states flattened depth first, then Entry and Exit selectors for
    /// every machine in the same order.
    fn machine(&mut self, layer: &str, root: &StateMachine) -> StateMachineConstant {
        let machines = root.all_machines();
        let states: Vec<&State> = machines.iter().flat_map(|m| m.states.iter()).collect();
        let state_index: HashMap<&str, u32> = states
            .iter()
            .enumerate()
            .map(|(i, s)| (s.full_path.as_str(), i as u32))
            .collect();
        let selector_index: HashMap<&str, u32> = machines
            .iter()
            .enumerate()
            .map(|(i, m)| (m.path.as_str(), i as u32))
            .collect();
        let dest = |d: &Destination| -> u32 {
            match d {
                Destination::State(p) => state_index.get(p.as_str()).copied().unwrap_or(u32::MAX),
                Destination::Machine(p) => selector_index
                    .get(p.as_str())
                    .map_or(u32::MAX, |i| SELECTOR_BASE + 2 * i),
                Destination::Exit(p) => selector_index
                    .get(p.as_str())
                    .map_or(u32::MAX, |i| SELECTOR_BASE + 2 * i + 1),
            }
        };
        let mut out = StateMachineConstant {
            m_DefaultState: root
                .default_state
                .as_ref()
                .and_then(|d| state_index.get(d.as_str()).copied())
                .unwrap_or(0),
            m_SynchronizedLayerCount: 1,
            ..StateMachineConstant::default()
        };
        for m in &machines {
            for s in &m.states {
                let constant = self.state(&m.name, s, &dest);
                out.m_StateConstantArray.push(ptr(constant));
            }
            for t in &m.any_state_transitions {
                let constant = self.transition(t, &dest);
                out.m_AnyStateTransitionConstantArray.push(ptr(constant));
            }
        }
        for m in &machines {
            let hash = self.name(&m.path);
            let mut entry: Vec<_> = m
                .entry_transitions
                .iter()
                .map(|t| self.selector_transition(dest(&t.destination), &t.conditions))
                .collect();
            if let Some(d) = &m.default_state {
                entry.push(self.selector_transition(dest(&Destination::State(d.clone())), &[]));
            }
            out.m_SelectorStateConstantArray
                .push(ptr(SelectorStateConstant {
                    m_TransitionConstantArray: entry,
                    m_FullPathID: hash,
                    m_IsEntry: true,
                }));
            let exit = if m.path == root.path {
                vec![self.selector_transition(SELECTOR_BASE, &[])]
            } else {
                m.exit_transitions
                    .iter()
                    .map(|t| self.selector_transition(dest(&t.destination), &t.conditions))
                    .collect()
            };
            out.m_SelectorStateConstantArray
                .push(ptr(SelectorStateConstant {
                    m_TransitionConstantArray: exit,
                    m_FullPathID: hash,
                    m_IsEntry: false,
                }));
        }
        self.name(layer);
        out
    }

    /// A synced layer's motions, as the next motion set of the source machine's states.
    fn add_motion_set(&mut self, machine: &mut StateMachineConstant, synced: &StateMachine) {
        let motions: HashMap<String, Option<Motion>> = synced
            .all_states()
            .into_iter()
            .map(|s| (s.full_path.clone(), s.motion.clone()))
            .collect();
        for s in &mut machine.m_StateConstantArray {
            let path = self
                .tos
                .get(&s.data.m_FullPathID)
                .cloned()
                .unwrap_or_default();
            let motion = motions.get(&path).cloned().flatten();
            self.push_motion(&mut s.data, motion.as_ref());
        }
    }

    fn push_motion(&mut self, s: &mut StateConstant, motion: Option<&Motion>) {
        match motion {
            None => s.m_BlendTreeConstantIndexArray.push(-1),
            Some(m) => {
                let mut nodes = Vec::new();
                self.node(m, &mut nodes, (1.0, 0.0, false));
                s.m_BlendTreeConstantArray
                    .push(ptr(BlendTreeConstant { m_NodeArray: nodes }));
                s.m_BlendTreeConstantIndexArray
                    .push(s.m_BlendTreeConstantArray.len() as i32 - 1);
            }
        }
    }

    fn state(
        &mut self,
        machine_name: &str,
        s: &State,
        dest: &dyn Fn(&Destination) -> u32,
    ) -> StateConstant {
        let mut out = StateConstant {
            m_NameID: self.name(&s.name),
            m_PathID: self.name(&format!("{machine_name}.{}", s.name)),
            m_FullPathID: self.name(&s.full_path),
            m_TagID: if s.tag.is_empty() {
                0
            } else {
                self.name(&s.tag)
            },
            m_SpeedParamID: self.param(&s.speed_parameter),
            m_MirrorParamID: self.param(&s.mirror_parameter),
            m_CycleOffsetParamID: self.param(&s.cycle_offset_parameter),
            m_TimeParamID: self.param(&s.time_parameter),
            m_Speed: s.speed,
            m_CycleOffset: s.cycle_offset,
            m_IKOnFeet: s.foot_ik,
            m_WriteDefaultValues: s.write_defaults,
            m_Loop: s.stored_loop.unwrap_or(true),
            m_Mirror: s.mirror,
            ..StateConstant::default()
        };
        out.m_TransitionConstantArray = s
            .transitions
            .iter()
            .map(|t| ptr(self.transition(t, dest)))
            .collect();
        self.push_motion(&mut out, s.motion.as_ref());
        out
    }

    fn conditions(&mut self, conditions: &[Condition]) -> Vec<Ptr<ConditionConstant>> {
        conditions
            .iter()
            .map(|c| {
                let mode = match c.mode {
                    ConditionMode::If => 1,
                    ConditionMode::IfNot => 2,
                    ConditionMode::Greater => 3,
                    ConditionMode::Less => 4,
                    ConditionMode::ExitTime => 5,
                    ConditionMode::Equals => 6,
                    ConditionMode::NotEqual => 7,
                };
                ptr(ConditionConstant {
                    m_ConditionMode: mode,
                    m_EventID: self.name(&c.parameter),
                    m_EventThreshold: c.threshold,
                    m_ExitTime: 0.0,
                })
            })
            .collect()
    }

    fn transition(
        &mut self,
        t: &Transition,
        dest: &dyn Fn(&Destination) -> u32,
    ) -> TransitionConstant {
        let interruption = match t.interruption {
            Interruption::None => 0,
            Interruption::Source => 1,
            Interruption::Destination => 2,
            Interruption::SourceThenDestination => 3,
            Interruption::DestinationThenSource => 4,
        };
        TransitionConstant {
            m_ConditionConstantArray: self.conditions(&t.conditions),
            m_DestinationState: dest(&t.destination),
            m_TransitionDuration: t.duration,
            m_TransitionOffset: t.offset,
            m_ExitTime: t.exit_time,
            m_HasExitTime: t.has_exit_time,
            m_HasFixedDuration: t.fixed_duration,
            m_InterruptionSource: interruption,
            m_OrderedInterruption: t.ordered_interruption,
            m_CanTransitionToSelf: t.can_transition_to_self,
            ..TransitionConstant::default()
        }
    }

    fn selector_transition(
        &mut self,
        destination: u32,
        conditions: &[Condition],
    ) -> Ptr<SelectorTransitionConstant> {
        ptr(SelectorTransitionConstant {
            m_Destination: destination,
            m_ConditionConstantArray: self.conditions(conditions),
        })
    }

    /// Appends the node for `m` (with its slot's duration, cycle offset and mirror) and
    /// its children; returns its index.
    fn node(
        &mut self,
        m: &Motion,
        nodes: &mut Vec<Ptr<BlendTreeNodeConstant>>,
        (duration, cycle_offset, mirror): (f32, f32, bool),
    ) -> u32 {
        let index = nodes.len();
        nodes.push(ptr(BlendTreeNodeConstant {
            m_BlendEventID: u32::MAX,
            m_BlendEventYID: u32::MAX,
            m_ClipID: u32::MAX,
            m_Duration: duration,
            m_CycleOffset: cycle_offset,
            m_Mirror: mirror,
            ..BlendTreeNodeConstant::default()
        }));
        match m {
            Motion::Clip(c) => nodes[index].data.m_ClipID = self.clip(c),
            Motion::BlendTree(tree) => {
                let mut node = nodes[index].data.clone();
                node.m_Duration = 0.0;
                node.m_BlendType = match tree.kind {
                    BlendKind::Simple1D => 0,
                    BlendKind::SimpleDirectional => 1,
                    BlendKind::FreeformDirectional => 2,
                    BlendKind::FreeformCartesian => 3,
                    BlendKind::Direct => 4,
                };
                // A Direct tree's node keeps the editor's `m_BlendParameter` too, unused
                // (`animator.md` §1.2: Direct uses `m_ChildBlendEventIDArray`): reading
                // must not take it for the tree's parameter.
                // The text reader leaves a Direct tree's parameter out, so a child's stands
                // in for it.
                let stale = tree
                    .children
                    .iter()
                    .find_map(|c| c.direct_parameter.as_ref());
                node.m_BlendEventID = tree
                    .parameter
                    .as_ref()
                    .or(stale)
                    .map_or(u32::MAX, |p| self.name(p));
                if tree.kind.is_2d() {
                    node.m_BlendEventYID =
                        tree.parameter_y.as_ref().map_or(u32::MAX, |p| self.name(p));
                }
                for child in &tree.children {
                    let slot = (
                        child.duration_factor() as f32,
                        child.cycle_offset,
                        child.mirror,
                    );
                    let child_index = match &child.motion {
                        Some(m) => self.node(m, nodes, slot),
                        None => {
                            nodes.push(ptr(BlendTreeNodeConstant {
                                m_BlendEventID: u32::MAX,
                                m_BlendEventYID: u32::MAX,
                                m_ClipID: u32::MAX,
                                m_Duration: slot.0,
                                m_CycleOffset: slot.1,
                                m_Mirror: slot.2,
                                ..BlendTreeNodeConstant::default()
                            }));
                            nodes.len() as u32 - 1
                        }
                    };
                    node.m_ChildIndices.push(child_index);
                    match tree.kind {
                        BlendKind::Simple1D => node
                            .m_Blend1dData
                            .data
                            .m_ChildThresholdArray
                            .push(child.threshold),
                        BlendKind::Direct => {
                            let id = self.param(&child.direct_parameter);
                            node.m_BlendDirectData
                                .data
                                .m_ChildBlendEventIDArray
                                .push(id);
                        }
                        _ => node.m_Blend2dData.data.m_ChildPositionArray.push(Vector2f {
                            x: child.position[0],
                            y: child.position[1],
                        }),
                    }
                }
                node.m_BlendDirectData.data.m_NormalizedBlendValues = tree.normalized;
                nodes[index].data = node;
            }
        }
        index as u32
    }
}

/// What a clip motion names: the resolved clip's name, else its reference.
fn clip_name(c: &ClipMotion) -> String {
    match &c.resolved {
        Some(r) => r.name.clone(),
        None => c.source.describe(),
    }
}

/// Every blend tree's kind and parameters (X, Y), state by state. `as_played`: the
/// parameters a tree of its kind plays by (`animator.md` §1.2: `m_BlendEventID`/`YID` for
/// 1D and 2D trees, none for Direct), as a built controller must give them.
fn tree_parameters(c: &Controller, as_played: bool) -> Vec<(String, String)> {
    fn walk(m: &Motion, as_played: bool, out: &mut Vec<String>) {
        // A tree without children is built as no motion (`is_empty_tree`).
        let Motion::BlendTree(tree) = m else { return };
        if tree.children.is_empty() {
            return;
        }
        let keep =
            |p: &Option<String>, used: bool| if used || !as_played { p.clone() } else { None };
        out.push(format!(
            "{:?} {:?} {:?}",
            tree.kind,
            keep(&tree.parameter, tree.kind != BlendKind::Direct),
            keep(&tree.parameter_y, tree.kind.is_2d()),
        ));
        for child in &tree.children {
            if let Some(m) = &child.motion {
                walk(m, as_played, out);
            }
        }
    }
    let mut out = Vec::new();
    for layer in &c.layers {
        for state in layer.state_machine.all_states() {
            let mut trees = Vec::new();
            if let Some(m) = &state.motion {
                walk(m, as_played, &mut trees);
            }
            if !trees.is_empty() {
                out.push((state.full_path.clone(), trees.join("; ")));
            }
        }
    }
    out
}

/// The model with what building changes by design normalised away (see the module docs).
fn normalised(c: &Controller) -> Controller {
    let mut c = c.clone();
    c.warnings.clear();
    for layer in &mut c.layers {
        layer.mask.clear();
        layer.body_mask = None;
        layer.mask_asset = None;
        let root = &mut layer.state_machine;
        root.name = root.path.clone();
        let merged: Vec<Transition> = root
            .all_machines()
            .iter()
            .flat_map(|m| m.any_state_transitions.iter().cloned())
            .collect();
        machine(root, &mut |m| m.any_state_transitions.clear());
        root.any_state_transitions = merged;
        machine(root, &mut |m| {
            m.state_machines.sort_by(|a, b| a.path.cmp(&b.path));
            for s in &mut m.states {
                s.stored_loop = None;
                if is_empty_tree(s.motion.as_ref()) {
                    s.motion = None;
                }
                if let Some(motion) = &mut s.motion {
                    normalise_motion(motion);
                }
            }
        });
    }
    c
}

/// Calls `f` on `m` and every machine below it.
fn machine(m: &mut StateMachine, f: &mut dyn FnMut(&mut StateMachine)) {
    f(m);
    for child in &mut m.state_machines {
        machine(child, f);
    }
}

fn normalise_motion(m: &mut Motion) {
    match m {
        Motion::Clip(c) => {
            *c = ClipMotion::new(ClipSource::Missing(clip_name(c)));
        }
        Motion::BlendTree(tree) => {
            tree.name.clear();
            if tree.kind == BlendKind::Direct {
                tree.parameter = None;
            }
            if !tree.kind.is_2d() {
                tree.parameter_y = None;
            }
            if tree.kind != BlendKind::Direct {
                tree.normalized = false;
            }
            for child in &mut tree.children {
                if is_empty_tree(child.motion.as_ref()) {
                    child.motion = None;
                }
                match tree.kind {
                    BlendKind::Simple1D => child.position = [0.0, 0.0],
                    BlendKind::Direct => {
                        child.position = [0.0, 0.0];
                        child.threshold = 0.0;
                    }
                    _ => child.threshold = 0.0,
                }
                if tree.kind != BlendKind::Direct {
                    child.direct_parameter = None;
                }
                let nested = matches!(child.motion, Some(Motion::BlendTree(_)));
                // Time scales as the built duration factor, to f32 rounding.
                child.time_scale = if nested {
                    1.0
                } else {
                    let d = child.duration_factor() as f32;
                    (1.0 / (1.0 / d)).round_to(1e-5)
                };
                if let Some(m) = &mut child.motion {
                    normalise_motion(m);
                }
            }
        }
    }
}

/// A blend tree without children: built, its node has no children and no clip, which
/// reads back as no motion (both play nothing, for 1 s).
fn is_empty_tree(m: Option<&Motion>) -> bool {
    matches!(m, Some(Motion::BlendTree(t)) if t.children.is_empty())
}

trait Round {
    fn round_to(self, step: f32) -> f32;
}

impl Round for f32 {
    fn round_to(self, step: f32) -> f32 {
        (self / step).round() * step
    }
}

/// Decodes the built form of `text` (clips written as placeholders named after each
/// reference).
fn built_from(text: &Controller) -> Controller {
    let mut compiler = Compiler::default();
    let built = compiler.controller(text);
    let clips: Vec<ClipSpec> = compiler
        .clips
        .iter()
        .map(|n| ClipSpec::Mecanim(MecanimClip::new(n.clone())))
        .collect();
    let bytes = write_controller_bundle(&clips, &built).expect("the built controller writes");
    let ws = Workspace::open_bytes(Path::new("built.bundle"), bytes, &OpenOptions::default());
    assert!(ws.errors.is_empty(), "{:?}", ws.errors);
    let model = ws.controllers[0]
        .model
        .clone()
        .expect("the built controller decodes");
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
    model
}

fn text_controllers(rel: &str) -> Option<Vec<Controller>> {
    let path = common::data(rel)?;
    let ws = common::open(&[path]);
    Some(
        ws.controllers
            .iter()
            .filter_map(|c| c.model.clone().ok())
            .collect(),
    )
}

fn same_model(rel: &str) {
    let Some(controllers) = text_controllers(rel) else {
        return;
    };
    assert!(!controllers.is_empty(), "{rel}: no controller");
    for text in &controllers {
        let built = built_from(text);
        assert_eq!(
            tree_parameters(text, true),
            tree_parameters(&built, false),
            "{rel}: each blend tree's kind and parameters"
        );
        let (a, b) = (normalised(text), normalised(&built));
        // Field by field first, for a readable failure.
        assert_eq!(a.name, b.name);
        assert_eq!(a.parameters, b.parameters, "{rel}: parameters");
        assert_eq!(a.layers.len(), b.layers.len());
        for (la, lb) in a.layers.iter().zip(&b.layers) {
            let (sa, sb) = (la.state_machine.all_states(), lb.state_machine.all_states());
            assert_eq!(sa.len(), sb.len(), "{rel}: layer {}", la.name);
            for (x, y) in sa.iter().zip(&sb) {
                assert_eq!(x, y, "{rel}: state {}", x.full_path);
            }
            assert_eq!(la, lb, "{rel}: layer {}", la.name);
        }
        assert_eq!(a, b, "{rel}");
    }
}

#[test]
fn write_defaults_test_set_round_trips() {
    same_model("yaml/modular-avatar/WD_TestSet_true.controller");
}

#[test]
fn direct_tree_controller_round_trips() {
    same_model("yaml/modular-avatar/DBTP.controller");
}

#[test]
fn many_transitions_round_trip() {
    same_model("yaml/modular-avatar/clap_controller.controller");
}

#[test]
fn synced_layer_round_trips() {
    same_model("yaml/modular-avatar/SyncedLayers_AC1.controller");
}

#[test]
fn unitypackage_controller_round_trips() {
    same_model("yaml/unitypackage-js/Cube.controller");
}
