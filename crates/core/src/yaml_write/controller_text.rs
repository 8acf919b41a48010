//! The `.controller` text of a [`Controller`] model, document by document in Unity's field
//! order (the shared text controllers are the model: `WD_TestSet_true`, `clap_controller`,
//! `SyncedLayers_AC1`, `DBTP`, `Cube`): the `AnimatorController` (91), one
//! `AnimatorStateMachine` (1107) per machine, `AnimatorState` (1102),
//! `AnimatorStateTransition` (1101) for state and Any State transitions, `AnimatorTransition`
//! (1109) for Entry and sub-machine exit transitions, and one `BlendTree` (206) per tree.
//!
//! Documents are written in ascending file id, as Unity writes them. What the model does not
//! hold is written at Unity's defaults: graph positions on a grid, no behaviours,
//! solo and mute off (the model keeps the transitions left after solo and mute).

use std::collections::{BTreeSet, HashMap};

use serde::Serialize;

use super::emit::TextRef;
use super::file_id::{CONTROLLER_FILE_ID, FileIds};
use super::out::Out;
use crate::animator::model::*;

/// Class ids of the documents written.
const CONTROLLER: i32 = 91;
const STATE_MACHINE: i32 = 1107;
const STATE: i32 = 1102;
const STATE_TRANSITION: i32 = 1101;
const TRANSITION: i32 = 1109;
const BLEND_TREE: i32 = 206;
/// Deepest blend tree nesting written (the readers cut deeper trees too).
const MAX_TREE_DEPTH: usize = 64;

/// What the text needs beside the model: references chosen by the caller.
pub struct ControllerRefs<'a> {
    /// The reference each clip motion is written with (`Null` when it names nothing).
    pub clip: &'a dyn Fn(&ClipMotion) -> TextRef,
    /// Each layer's AvatarMask reference, by layer index (`None` or missing: no mask).
    pub masks: &'a [Option<TextRef>],
}

/// How many of each document were written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub layers: usize,
    pub parameters: usize,
    pub state_machines: usize,
    pub states: usize,
    /// `AnimatorStateTransition` documents (state and Any State transitions).
    pub state_transitions: usize,
    /// `AnimatorTransition` documents (Entry and sub-machine exit transitions).
    pub transitions: usize,
    pub blend_trees: usize,
}

/// The text with its counts, the names that stayed hashes, and what could not be written.
#[derive(Clone, Debug, Default)]
pub struct ControllerDocs {
    pub text: String,
    pub counts: Counts,
    /// Names the string table did not hold, written in their hex form (`state 0x1a2b3c4d`).
    pub names_not_found: BTreeSet<String>,
    /// What the model held that the text does not (a transition whose destination is not
    /// in its layer, a default state that is not one of the machine's).
    pub notes: Vec<String>,
}

/// Whether `name` is a hash written as `0x%08x` (what the decoders keep for a hash the
/// string table does not hold).
pub fn is_hash_name(name: &str) -> bool {
    name.len() == 10 && name.starts_with("0x") && name[2..].bytes().all(|b| b.is_ascii_hexdigit())
}

/// The `.controller` text of `model`.
pub fn controller_text(model: &Controller, refs: &ControllerRefs<'_>) -> ControllerDocs {
    let mut w = Writer {
        refs,
        ids: FileIds::new(),
        docs: Vec::new(),
        out: ControllerDocs::default(),
    };
    w.write(model);
    let mut docs = std::mem::take(&mut w.docs);
    docs.sort_by_key(|d| d.0);
    let mut text = String::with_capacity(docs.iter().map(|d| d.1.len()).sum::<usize>() + 64);
    text.push_str("%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n");
    for (_, doc) in docs {
        text.push_str(&doc);
    }
    let mut out = w.out;
    out.text = text;
    out
}

/// The ids of one layer's machines (by path) and states (by full path).
#[derive(Default)]
struct LayerIds {
    machines: HashMap<String, i64>,
    states: HashMap<String, i64>,
}

struct Writer<'r, 'a> {
    refs: &'r ControllerRefs<'a>,
    ids: FileIds,
    /// (file id, document text).
    docs: Vec<(i64, String)>,
    out: ControllerDocs,
}

/// A document's first lines: `--- !u!CLASS &ID`, the class name, and for the editor
/// sub-objects the `serializedVersion` Unity writes before the hide flags.
fn head(class: i32, id: i64, name: &str, version: Option<i64>, hide_flags: i64) -> Out {
    let mut o = Out {
        text: String::with_capacity(1024),
        spellings: Default::default(),
    };
    o.line(0, &format!("--- !u!{class} &{id}"));
    o.line(0, &format!("{name}:"));
    if let Some(v) = version {
        o.int(2, "serializedVersion", v);
    }
    o.int(2, "m_ObjectHideFlags", hide_flags);
    o.line(2, "m_CorrespondingSourceObject: {fileID: 0}");
    o.line(2, "m_PrefabInstance: {fileID: 0}");
    o.line(2, "m_PrefabAsset: {fileID: 0}");
    o
}

fn local(id: i64) -> TextRef {
    TextRef::Local(id)
}

/// `name: []` or `name:` and `- {fileID: N}` lines.
fn ref_list(o: &mut Out, indent: usize, name: &str, ids: &[i64]) {
    if ids.is_empty() {
        o.line(indent, &format!("{name}: []"));
        return;
    }
    o.line(indent, &format!("{name}:"));
    for id in ids {
        o.line(indent, &format!("- {{fileID: {id}}}"));
    }
}

fn flag(b: bool) -> i64 {
    i64::from(b)
}

/// A graph position on a grid (the model keeps none): five columns, 60 units a row.
fn grid(index: usize, top: f32) -> [f32; 3] {
    [
        250.0 + 250.0 * (index % 5) as f32,
        top + 60.0 * (index / 5) as f32,
        0.0,
    ]
}

fn condition_code(m: ConditionMode) -> i64 {
    match m {
        ConditionMode::If => 1,
        ConditionMode::IfNot => 2,
        ConditionMode::Greater => 3,
        ConditionMode::Less => 4,
        ConditionMode::ExitTime => 5,
        ConditionMode::Equals => 6,
        ConditionMode::NotEqual => 7,
    }
}

fn interruption_code(i: Interruption) -> i64 {
    match i {
        Interruption::None => 0,
        Interruption::Source => 1,
        Interruption::Destination => 2,
        Interruption::SourceThenDestination => 3,
        Interruption::DestinationThenSource => 4,
    }
}

fn blend_code(k: BlendKind) -> i64 {
    match k {
        BlendKind::Simple1D => 0,
        BlendKind::SimpleDirectional => 1,
        BlendKind::FreeformDirectional => 2,
        BlendKind::FreeformCartesian => 3,
        BlendKind::Direct => 4,
    }
}

fn parameter_code(k: ParameterKind) -> i64 {
    match k {
        ParameterKind::Float => 1,
        ParameterKind::Int => 3,
        ParameterKind::Bool => 4,
        ParameterKind::Trigger => 9,
    }
}

impl Writer<'_, '_> {
    /// Records `name` when it is a hash kept in hex (each segment of a dotted path).
    fn check_name(&mut self, what: &str, name: &str) {
        for part in name.split('.') {
            if is_hash_name(part) {
                self.out.names_not_found.insert(format!("{what} {part}"));
            }
        }
    }

    fn write(&mut self, model: &Controller) {
        for p in &model.parameters {
            self.check_name("parameter", &p.name);
        }
        // Ids first: a synced layer names its source layer's states.
        let mut layer_ids: Vec<LayerIds> = Vec::with_capacity(model.layers.len());
        for (i, layer) in model.layers.iter().enumerate() {
            let mut ids = LayerIds::default();
            if synced_source(model, i).is_none() {
                for m in layer.state_machine.all_machines() {
                    let id = self.ids.id(&format!("{i}/machine/{}", m.path));
                    ids.machines.insert(m.path.clone(), id);
                    for s in &m.states {
                        let id = self.ids.id(&format!("{i}/state/{}", s.full_path));
                        ids.states.insert(s.full_path.clone(), id);
                    }
                }
            } else {
                let id = self.ids.id(&format!("{i}/machine"));
                ids.machines.insert(String::new(), id);
            }
            layer_ids.push(ids);
        }
        let mut layers = Vec::with_capacity(model.layers.len());
        for (i, layer) in model.layers.iter().enumerate() {
            self.check_name("layer", &layer.name);
            for (path, _) in &layer.mask {
                for part in path.split('/') {
                    if is_hash_name(part) {
                        self.out.names_not_found.insert(format!("mask path {part}"));
                    }
                }
            }
            let entry = match synced_source(model, i) {
                None => {
                    let root = self.machine(i, &layer.state_machine, &layer_ids[i]);
                    LayerEntry {
                        machine: root,
                        motions: Vec::new(),
                    }
                }
                Some(source) => {
                    let machine = layer_ids[i].machines[""];
                    self.empty_machine(machine, &layer.name);
                    let motions = self.synced_motions(i, layer, &layer_ids[source]);
                    LayerEntry { machine, motions }
                }
            };
            layers.push(entry);
        }
        self.controller(model, &layers);
    }

    fn controller(&mut self, model: &Controller, layers: &[LayerEntry]) {
        let mut o = head(
            CONTROLLER,
            CONTROLLER_FILE_ID,
            "AnimatorController",
            None,
            0,
        );
        o.string(2, "m_Name", &model.name);
        o.int(2, "serializedVersion", 5);
        let me = local(CONTROLLER_FILE_ID);
        if model.parameters.is_empty() {
            o.line(2, "m_AnimatorParameters: []");
        } else {
            o.line(2, "m_AnimatorParameters:");
        }
        for p in &model.parameters {
            o.open(2, "- m_Name");
            super::scalar::push_str_scalar(&mut o.text, &p.name);
            o.text.push('\n');
            o.int(4, "m_Type", parameter_code(p.kind));
            let float = if p.kind == ParameterKind::Float {
                p.default as f32
            } else {
                0.0
            };
            o.float(4, "m_DefaultFloat", float);
            let int = if p.kind == ParameterKind::Int {
                p.default as i64
            } else {
                0
            };
            o.int(4, "m_DefaultInt", int);
            let on =
                matches!(p.kind, ParameterKind::Bool | ParameterKind::Trigger) && p.default != 0.0;
            o.int(4, "m_DefaultBool", flag(on));
            o.reference(4, "m_Controller", &me);
        }
        if model.layers.is_empty() {
            o.line(2, "m_AnimatorLayers: []");
        } else {
            o.line(2, "m_AnimatorLayers:");
        }
        for (i, (layer, entry)) in model.layers.iter().zip(layers).enumerate() {
            o.int(2, "- serializedVersion", 5);
            o.string(4, "m_Name", &layer.name);
            o.reference(4, "m_StateMachine", &local(entry.machine));
            let mask = self.refs.masks.get(i).cloned().flatten();
            o.reference(4, "m_Mask", &mask.unwrap_or(TextRef::Null));
            if entry.motions.is_empty() {
                o.line(4, "m_Motions: []");
            } else {
                o.line(4, "m_Motions:");
            }
            for (state, motion) in &entry.motions {
                o.int(4, "- serializedVersion", 2);
                o.reference(6, "m_State", &local(*state));
                o.reference(6, "m_Motion", motion);
            }
            o.line(4, "m_Behaviours: []");
            let blending = match layer.blending {
                Blending::Override => 0,
                Blending::Additive => 1,
            };
            o.int(4, "m_BlendingMode", blending);
            let synced = synced_source(model, i).map_or(-1, |s| s as i64);
            o.int(4, "m_SyncedLayerIndex", synced);
            o.float(4, "m_DefaultWeight", layer.weight);
            o.int(4, "m_IKPass", flag(layer.ik_pass));
            o.int(
                4,
                "m_SyncedLayerAffectsTiming",
                flag(layer.synced_affects_timing),
            );
            o.reference(4, "m_Controller", &me);
        }
        self.out.counts.layers = model.layers.len();
        self.out.counts.parameters = model.parameters.len();
        self.docs.push((CONTROLLER_FILE_ID, o.text));
    }

    /// A synced layer's own machine: empty, as Unity keeps it.
    fn empty_machine(&mut self, id: i64, name: &str) {
        let mut o = head(STATE_MACHINE, id, "AnimatorStateMachine", Some(6), 1);
        o.string(2, "m_Name", name);
        for list in [
            "m_ChildStates",
            "m_ChildStateMachines",
            "m_AnyStateTransitions",
            "m_EntryTransitions",
        ] {
            o.line(2, &format!("{list}: []"));
        }
        o.line(2, "m_StateMachineTransitions: {}");
        machine_tail(&mut o, 0);
        self.out.counts.state_machines += 1;
        self.docs.push((id, o.text));
    }

    /// A synced layer's `m_Motions`: each state of its (copied) machine with its motion in
    /// this layer, the state named by the source layer's document.
    fn synced_motions(
        &mut self,
        layer_index: usize,
        layer: &Layer,
        source: &LayerIds,
    ) -> Vec<(i64, TextRef)> {
        let mut out = Vec::new();
        for state in layer.state_machine.all_states() {
            let Some(&id) = source.states.get(&state.full_path) else {
                self.out.notes.push(format!(
                    "synced layer {}: state {} is not in its source layer; its motion is left out",
                    layer.name, state.full_path
                ));
                continue;
            };
            let motion = match &state.motion {
                Some(m) => self.motion(layer_index, &state.full_path, m, &mut Vec::new()),
                None => TextRef::Null,
            };
            out.push((id, motion));
        }
        out
    }

    /// A machine and everything below it (a sub-machine's exit transitions are written by
    /// its parent, in `m_StateMachineTransitions`). Returns its id.
    fn machine(&mut self, layer: usize, m: &StateMachine, ids: &LayerIds) -> i64 {
        let id = ids.machines[&m.path];
        self.check_name("state machine", &m.name);
        let mut o = head(STATE_MACHINE, id, "AnimatorStateMachine", Some(6), 1);
        o.string(2, "m_Name", &m.name);
        let mut state_ids = Vec::with_capacity(m.states.len());
        for s in &m.states {
            state_ids.push(self.state(layer, s, &m.path, ids));
        }
        if state_ids.is_empty() {
            o.line(2, "m_ChildStates: []");
        } else {
            o.line(2, "m_ChildStates:");
        }
        for (k, sid) in state_ids.iter().enumerate() {
            o.int(2, "- serializedVersion", 1);
            o.reference(4, "m_State", &local(*sid));
            o.vector(4, "m_Position", &grid(k, 100.0));
        }
        let children: Vec<i64> = m
            .state_machines
            .iter()
            .map(|c| self.machine(layer, c, ids))
            .collect();
        if children.is_empty() {
            o.line(2, "m_ChildStateMachines: []");
        } else {
            o.line(2, "m_ChildStateMachines:");
        }
        let below = 100.0 + 60.0 * m.states.len().div_ceil(5) as f32 + 60.0;
        for (k, cid) in children.iter().enumerate() {
            o.int(2, "- serializedVersion", 1);
            o.reference(4, "m_StateMachine", &local(*cid));
            o.vector(4, "m_Position", &grid(k, below));
        }
        let any = self.transitions(layer, &m.any_state_transitions, "any", &m.path, ids, true);
        ref_list(&mut o, 2, "m_AnyStateTransitions", &any);
        let entry = self.transitions(layer, &m.entry_transitions, "entry", &m.path, ids, false);
        ref_list(&mut o, 2, "m_EntryTransitions", &entry);
        let mut exits = Vec::new();
        for (child, cid) in m.state_machines.iter().zip(&children) {
            if child.exit_transitions.is_empty() {
                continue;
            }
            let list = self.transitions(
                layer,
                &child.exit_transitions,
                "exit",
                &child.path,
                ids,
                false,
            );
            exits.push((*cid, list));
        }
        if exits.is_empty() {
            o.line(2, "m_StateMachineTransitions: {}");
        } else {
            o.line(2, "m_StateMachineTransitions:");
            for (cid, list) in &exits {
                o.reference(2, "- first", &local(*cid));
                ref_list(&mut o, 4, "second", list);
            }
        }
        let default = match &m.default_state {
            Some(path) => match ids.states.get(path) {
                Some(&sid) => sid,
                None => {
                    self.out.notes.push(format!(
                        "{}: default state {path} is not in the layer; written as none",
                        m.path
                    ));
                    0
                }
            },
            None => 0,
        };
        machine_tail(&mut o, default);
        self.out.counts.state_machines += 1;
        self.docs.push((id, o.text));
        id
    }

    fn state(&mut self, layer: usize, s: &State, machine: &str, ids: &LayerIds) -> i64 {
        let id = ids.states[&s.full_path];
        self.check_name("state", &s.name);
        self.check_name("tag", &s.tag);
        let mut o = head(STATE, id, "AnimatorState", Some(6), 1);
        o.string(2, "m_Name", &s.name);
        o.float(2, "m_Speed", s.speed);
        o.float(2, "m_CycleOffset", s.cycle_offset);
        let transitions = self.state_transitions(layer, s, machine, ids);
        ref_list(&mut o, 2, "m_Transitions", &transitions);
        o.line(2, "m_StateMachineBehaviours: []");
        o.line(2, "m_Position: {x: 50, y: 50, z: 0}");
        o.int(2, "m_IKOnFeet", flag(s.foot_ik));
        o.int(2, "m_WriteDefaultValues", flag(s.write_defaults));
        o.int(2, "m_Mirror", flag(s.mirror));
        o.int(
            2,
            "m_SpeedParameterActive",
            flag(s.speed_parameter.is_some()),
        );
        o.int(
            2,
            "m_MirrorParameterActive",
            flag(s.mirror_parameter.is_some()),
        );
        o.int(
            2,
            "m_CycleOffsetParameterActive",
            flag(s.cycle_offset_parameter.is_some()),
        );
        o.int(2, "m_TimeParameterActive", flag(s.time_parameter.is_some()));
        let motion = match &s.motion {
            Some(m) => self.motion(layer, &s.full_path, m, &mut Vec::new()),
            None => TextRef::Null,
        };
        o.reference(2, "m_Motion", &motion);
        o.string(2, "m_Tag", &s.tag);
        for (name, p) in [
            ("m_SpeedParameter", &s.speed_parameter),
            ("m_MirrorParameter", &s.mirror_parameter),
            ("m_CycleOffsetParameter", &s.cycle_offset_parameter),
            ("m_TimeParameter", &s.time_parameter),
        ] {
            if let Some(p) = p {
                self.check_name("parameter", p);
            }
            o.string(2, name, p.as_deref().unwrap_or(""));
        }
        self.out.counts.states += 1;
        self.docs.push((id, o.text));
        id
    }

    fn state_transitions(
        &mut self,
        layer: usize,
        s: &State,
        machine: &str,
        ids: &LayerIds,
    ) -> Vec<i64> {
        let owner = format!("{machine}|{}", s.full_path);
        self.transitions(layer, &s.transitions, "state", &owner, ids, true)
    }

    /// Writes `list` as 1101 (`full`) or 1109 documents; their ids, in order. A transition
    /// whose destination is not in the layer is left out (and noted).
    fn transitions(
        &mut self,
        layer: usize,
        list: &[Transition],
        kind: &str,
        owner: &str,
        ids: &LayerIds,
        full: bool,
    ) -> Vec<i64> {
        let mut out = Vec::with_capacity(list.len());
        for (k, t) in list.iter().enumerate() {
            let (state, machine, exit) = match &t.destination {
                Destination::State(p) => (ids.states.get(p).copied(), None, false),
                Destination::Machine(p) => (None, ids.machines.get(p).copied(), false),
                Destination::Exit(_) => (None, None, true),
            };
            if state.is_none() && machine.is_none() && !exit {
                self.out.notes.push(format!(
                    "{owner}: {kind} transition {k} goes to {:?}, which is not in the layer; left out",
                    t.destination
                ));
                continue;
            }
            let id = self.ids.id(&format!("{layer}/{kind}/{owner}/{k}"));
            let (class, name) = if full {
                (STATE_TRANSITION, "AnimatorStateTransition")
            } else {
                (TRANSITION, "AnimatorTransition")
            };
            let mut o = head(class, id, name, None, 1);
            o.line(2, "m_Name: ");
            if t.conditions.is_empty() {
                o.line(2, "m_Conditions: []");
            } else {
                o.line(2, "m_Conditions:");
            }
            for c in &t.conditions {
                self.check_name("parameter", &c.parameter);
                o.int(2, "- m_ConditionMode", condition_code(c.mode));
                o.string(4, "m_ConditionEvent", &c.parameter);
                o.float(4, "m_EventTreshold", c.threshold);
            }
            o.reference(
                2,
                "m_DstStateMachine",
                &machine.map_or(TextRef::Null, local),
            );
            o.reference(2, "m_DstState", &state.map_or(TextRef::Null, local));
            o.int(2, "m_Solo", 0);
            o.int(2, "m_Mute", 0);
            o.int(2, "m_IsExit", flag(exit));
            if full {
                o.int(2, "serializedVersion", 3);
                o.float(2, "m_TransitionDuration", t.duration);
                o.float(2, "m_TransitionOffset", t.offset);
                o.float(2, "m_ExitTime", t.exit_time);
                o.int(2, "m_HasExitTime", flag(t.has_exit_time));
                o.int(2, "m_HasFixedDuration", flag(t.fixed_duration));
                o.int(2, "m_InterruptionSource", interruption_code(t.interruption));
                o.int(2, "m_OrderedInterruption", flag(t.ordered_interruption));
                o.int(2, "m_CanTransitionToSelf", flag(t.can_transition_to_self));
                self.out.counts.state_transitions += 1;
            } else {
                o.int(2, "serializedVersion", 1);
                self.out.counts.transitions += 1;
            }
            self.docs.push((id, o.text));
            out.push(id);
        }
        out
    }

    /// A motion's reference: the clip's, or a blend tree document written here. `path` is
    /// the child indices from the state's motion down to this one.
    fn motion(&mut self, layer: usize, state: &str, m: &Motion, path: &mut Vec<usize>) -> TextRef {
        match m {
            Motion::Clip(c) => (self.refs.clip)(c),
            Motion::BlendTree(tree) => {
                if path.len() >= MAX_TREE_DEPTH {
                    self.out.notes.push(format!(
                        "{state}: blend trees nested deeper than {MAX_TREE_DEPTH}; cut"
                    ));
                    return TextRef::Null;
                }
                let indices: Vec<String> = path.iter().map(usize::to_string).collect();
                let id = self
                    .ids
                    .id(&format!("{layer}/tree/{state}/{}", indices.join(".")));
                self.blend_tree(layer, state, id, tree, path);
                local(id)
            }
        }
    }

    fn blend_tree(
        &mut self,
        layer: usize,
        state: &str,
        id: i64,
        t: &BlendTree,
        path: &mut Vec<usize>,
    ) {
        let mut children = Vec::with_capacity(t.children.len());
        for (k, c) in t.children.iter().enumerate() {
            path.push(k);
            let motion = match &c.motion {
                Some(m) => self.motion(layer, state, m, path),
                None => TextRef::Null,
            };
            path.pop();
            children.push(motion);
        }
        let mut o = head(BLEND_TREE, id, "BlendTree", None, 1);
        o.string(2, "m_Name", &t.name);
        if children.is_empty() {
            o.line(2, "m_Childs: []");
        } else {
            o.line(2, "m_Childs:");
        }
        let direct = t.kind == BlendKind::Direct;
        for (c, motion) in t.children.iter().zip(&children) {
            o.int(2, "- serializedVersion", 2);
            o.reference(4, "m_Motion", motion);
            o.float(4, "m_Threshold", c.threshold);
            o.vector(4, "m_Position", &c.position);
            o.float(4, "m_TimeScale", c.time_scale);
            o.float(4, "m_CycleOffset", c.cycle_offset);
            // Unity keeps "Blend" in the slots of trees that are not Direct.
            let parameter = match (&c.direct_parameter, direct) {
                (Some(p), _) => p.as_str(),
                (None, true) => "",
                (None, false) => "Blend",
            };
            if direct {
                self.check_name("parameter", parameter);
            }
            o.string(4, "m_DirectBlendParameter", parameter);
            o.int(4, "m_Mirror", flag(c.mirror));
        }
        let x = match (&t.parameter, direct) {
            (Some(p), _) => p.as_str(),
            (None, true) => "Blend",
            (None, false) => "",
        };
        let y = match (&t.parameter_y, t.kind.is_2d()) {
            (Some(p), _) => p.as_str(),
            (None, true) => "",
            (None, false) => x,
        };
        if !direct {
            self.check_name("parameter", x);
        }
        if t.kind.is_2d() {
            self.check_name("parameter", y);
        }
        o.string(2, "m_BlendParameter", x);
        o.string(2, "m_BlendParameterY", y);
        let thresholds = t.children.iter().map(|c| c.threshold);
        let (min, max) = if t.children.is_empty() {
            (0.0, 1.0)
        } else {
            (
                thresholds.clone().fold(f32::INFINITY, f32::min),
                thresholds.fold(f32::NEG_INFINITY, f32::max),
            )
        };
        o.float(2, "m_MinThreshold", min);
        o.float(2, "m_MaxThreshold", max);
        // Thresholds as stored, not recomputed by the editor.
        o.int(2, "m_UseAutomaticThresholds", 0);
        o.int(2, "m_NormalizedBlendValues", flag(t.normalized));
        o.int(2, "m_BlendType", blend_code(t.kind));
        self.out.counts.blend_trees += 1;
        self.docs.push((id, o.text));
    }
}

/// A layer's entry in `m_AnimatorLayers`: its machine and, for a synced layer, its motions.
struct LayerEntry {
    machine: i64,
    motions: Vec<(i64, TextRef)>,
}

/// The layer whose machine layer `i` shares, when it is a valid other layer that is not
/// itself synced.
fn synced_source(model: &Controller, i: usize) -> Option<usize> {
    let s = model.layers.get(i)?.synced_layer?;
    (s != i
        && model
            .layers
            .get(s)
            .is_some_and(|l| l.synced_layer.is_none()))
    .then_some(s)
}

/// The machine's fields after its transitions: behaviours, graph positions (Unity's
/// defaults), the default state.
fn machine_tail(o: &mut Out, default_state: i64) {
    o.line(2, "m_StateMachineBehaviours: []");
    o.line(2, "m_AnyStatePosition: {x: 50, y: 20, z: 0}");
    o.line(2, "m_EntryPosition: {x: 50, y: 120, z: 0}");
    o.line(2, "m_ExitPosition: {x: 800, y: 120, z: 0}");
    o.line(2, "m_ParentStateMachinePosition: {x: 800, y: 20, z: 0}");
    o.reference(2, "m_DefaultState", &local(default_state));
}
