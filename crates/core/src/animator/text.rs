//! Text `.controller` files (editor YAML) turned into the [`Controller`] model.
//!
//! The controller document (class 91) names its layers' state machines (1107); machines name
//! their states (1102), sub-machines and transitions (1101 state transitions, 1109 entry and
//! machine transitions); states name their motion: a blend tree (206) in the same file, or a
//! clip by guid. The walk starts at the controller document and follows references, so
//! orphaned documents are ignored; each machine and blend tree is visited at most once per
//! path, and depth is bounded.
#![allow(non_snake_case)]

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, SeqAccess, Visitor};

use super::avatar_mask::LayerMask;
use super::model::*;
use crate::unity::{Float, Int};
use crate::yaml::{
    Document, GuidIndex, YamlRef, from_body, restore, split_documents, unity_floats,
};

const CONTROLLER: i32 = 91;
const STATE_MACHINE: i32 = 1107;
const STATE: i32 = 1102;
const STATE_TRANSITION: i32 = 1101;
const TRANSITION: i32 = 1109;
const BLEND_TREE: i32 = 206;
/// Deepest nesting of machines or blend trees followed.
const MAX_DEPTH: usize = 64;

/// Why a text controller could not be read as a whole.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TextError {
    #[error(
        "a Unity 4 editor controller (StateMachine/State/Transition objects of the Unity 4 editor): not supported; open the built controller, or re-save the project in Unity 5 or later"
    )]
    Unity4,
    #[error("{0}")]
    Document(String),
}

/// Every AnimatorController of a text file, by file id. `index` resolves clip guids.
pub fn read_controllers(
    path: &Path,
    text: &str,
    index: &GuidIndex,
) -> Vec<(i64, Result<Controller, TextError>)> {
    let split = split_documents(text);
    let docs = Docs::new(&split.documents);
    split
        .documents
        .iter()
        .filter(|d| d.class_id == CONTROLLER)
        .map(|d| (d.file_id, docs.controller(d, path, index)))
        .collect()
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RawController {
    m_Name: String,
    m_AnimatorParameters: Vec<RawParameter>,
    m_AnimatorLayers: Option<Vec<RawLayer>>,
    /// Unity 4's layer list (`m_Layers`).
    m_Layers: Option<IgnoredAny>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RawParameter {
    m_Name: String,
    m_Type: Int,
    m_DefaultFloat: Float,
    m_DefaultInt: Int,
    m_DefaultBool: Int,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RawLayer {
    m_Name: String,
    m_StateMachine: YamlRef,
    m_Mask: YamlRef,
    m_Motions: Vec<RawLayerMotion>,
    m_BlendingMode: Int,
    m_SyncedLayerIndex: Option<Int>,
    m_DefaultWeight: Float,
    m_IKPass: Int,
    m_SyncedLayerAffectsTiming: Int,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RawLayerMotion {
    m_State: YamlRef,
    m_Motion: YamlRef,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RawMachine {
    m_Name: String,
    m_ChildStates: Vec<RawChildState>,
    m_ChildStateMachines: Vec<RawChildMachine>,
    m_AnyStateTransitions: Vec<YamlRef>,
    m_EntryTransitions: Vec<YamlRef>,
    #[serde(deserialize_with = "machine_transitions")]
    m_StateMachineTransitions: Vec<RawMachineTransitions>,
    m_DefaultState: YamlRef,
    /// Unity 4's state list.
    m_States: Option<IgnoredAny>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RawChildState {
    m_State: YamlRef,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RawChildMachine {
    m_StateMachine: YamlRef,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RawMachineTransitions {
    first: YamlRef,
    second: Vec<YamlRef>,
}

/// `m_StateMachineTransitions`: `{}` when empty, else a list of `first`/`second` pairs.
fn machine_transitions<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Vec<RawMachineTransitions>, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Vec<RawMachineTransitions>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a list of machine transitions or an empty map")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(x) = seq.next_element()? {
                out.push(x);
            }
            Ok(out)
        }
        fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok(Vec::new())
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
    }
    d.deserialize_any(V)
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RawState {
    m_Name: String,
    m_Speed: Option<Float>,
    m_CycleOffset: Float,
    m_Transitions: Vec<YamlRef>,
    m_WriteDefaultValues: Option<Int>,
    m_IKOnFeet: Int,
    m_Mirror: Int,
    m_SpeedParameterActive: Int,
    m_MirrorParameterActive: Int,
    m_CycleOffsetParameterActive: Int,
    m_TimeParameterActive: Int,
    m_Motion: YamlRef,
    m_Tag: String,
    m_SpeedParameter: String,
    m_MirrorParameter: String,
    m_CycleOffsetParameter: String,
    m_TimeParameter: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RawTransition {
    m_Conditions: Vec<RawCondition>,
    m_DstStateMachine: YamlRef,
    m_DstState: YamlRef,
    m_Solo: Int,
    m_Mute: Int,
    m_IsExit: Int,
    m_TransitionDuration: Float,
    m_TransitionOffset: Float,
    m_ExitTime: Float,
    m_HasExitTime: Int,
    m_HasFixedDuration: Option<Int>,
    m_InterruptionSource: Int,
    m_OrderedInterruption: Option<Int>,
    m_CanTransitionToSelf: Option<Int>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RawCondition {
    m_ConditionMode: Int,
    m_ConditionEvent: String,
    m_EventTreshold: Float,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RawBlendTree {
    m_Name: String,
    m_Childs: Vec<RawChild>,
    m_BlendParameter: String,
    m_BlendParameterY: String,
    m_NormalizedBlendValues: Int,
    m_BlendType: Int,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RawChild {
    m_Motion: YamlRef,
    m_Threshold: Float,
    m_Position: RawVec2,
    m_TimeScale: Option<Float>,
    m_CycleOffset: Float,
    m_DirectBlendParameter: String,
    m_Mirror: Int,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RawVec2 {
    x: Float,
    y: Float,
}

/// The documents of a file by file id.
struct Docs<'a> {
    by_id: HashMap<i64, &'a Document<'a>>,
}

fn read<T: serde::de::DeserializeOwned>(doc: &Document) -> Result<T, String> {
    from_body(doc, &unity_floats(doc.body)).map_err(|e| {
        format!(
            "!u!{} &{} (line {}): {e}",
            doc.class_id, doc.file_id, doc.line
        )
    })
}

fn fix(mut s: String) -> String {
    restore(&mut s);
    s
}

fn non_empty(s: &str) -> Option<String> {
    (!s.is_empty()).then(|| s.to_string())
}

impl<'a> Docs<'a> {
    fn new(documents: &'a [Document<'a>]) -> Docs<'a> {
        Docs {
            by_id: documents.iter().map(|d| (d.file_id, d)).collect(),
        }
    }

    fn doc(&self, r: &YamlRef, class_id: i32) -> Option<&'a Document<'a>> {
        self.by_id
            .get(&r.local()?)
            .copied()
            .filter(|d| d.class_id == class_id)
    }

    fn controller(
        &self,
        doc: &Document,
        path: &Path,
        index: &GuidIndex,
    ) -> Result<Controller, TextError> {
        let raw: RawController = read(doc).map_err(TextError::Document)?;
        if raw.m_AnimatorLayers.is_none() && raw.m_Layers.is_some() {
            return Err(TextError::Unity4);
        }
        let mut b = Builder {
            docs: self,
            index,
            path,
            warnings: Vec::new(),
            machine_paths: HashMap::new(),
            state_paths: HashMap::new(),
        };
        let parameters = raw
            .m_AnimatorParameters
            .iter()
            .filter_map(|p| b.parameter(p))
            .collect();
        let raw_layers = raw.m_AnimatorLayers.unwrap_or_default();
        let mut layers: Vec<Layer> = Vec::new();
        for (i, l) in raw_layers.iter().enumerate() {
            let name = fix(l.m_Name.clone());
            let synced = l
                .m_SyncedLayerIndex
                .map(|s| s.0)
                .filter(|&s| s >= 0 && (s as usize) < raw_layers.len() && s as usize != i)
                .map(|s| s as usize);
            let state_machine = match synced {
                Some(source) => b.synced_machine(&raw_layers[source], l)?,
                None => b.root_machine(&l.m_StateMachine, &name)?,
            };
            let ((mask, body_mask), mask_asset) = b.layer_mask(&l.m_Mask);
            layers.push(Layer {
                name,
                blending: if l.m_BlendingMode.0 == 1 {
                    Blending::Additive
                } else {
                    Blending::Override
                },
                weight: l.m_DefaultWeight.0,
                synced_layer: synced,
                synced_affects_timing: l.m_SyncedLayerAffectsTiming.0 != 0,
                ik_pass: l.m_IKPass.0 != 0,
                mask,
                body_mask,
                mask_asset,
                state_machine,
            });
        }
        if raw_layers.is_empty() && raw.m_Layers.is_some() {
            return Err(TextError::Unity4);
        }
        Ok(Controller {
            name: fix(raw.m_Name),
            parameters,
            layers,
            warnings: b.warnings,
        })
    }
}

fn describe_ref(r: &YamlRef) -> String {
    match &r.guid {
        Some(g) => format!("fileID {} guid {g}", r.file_id.0),
        None => format!("fileID {}", r.file_id.0),
    }
}

/// One controller being built.
struct Builder<'d, 'a> {
    docs: &'d Docs<'a>,
    index: &'d GuidIndex,
    path: &'d Path,
    warnings: Vec<String>,
    /// Machine file id → path, for the layer being built.
    machine_paths: HashMap<i64, String>,
    /// State file id → full path, for the layer being built.
    state_paths: HashMap<i64, String>,
}

impl Builder<'_, '_> {
    fn parameter(&mut self, p: &RawParameter) -> Option<Parameter> {
        let name = fix(p.m_Name.clone());
        let Some(kind) = ParameterKind::from_code(p.m_Type.0) else {
            self.warnings.push(format!(
                "parameter {name}: unknown type {}; left out",
                p.m_Type.0
            ));
            return None;
        };
        let default = match kind {
            ParameterKind::Float => p.m_DefaultFloat.0 as f64,
            ParameterKind::Int => p.m_DefaultInt.0 as f64,
            ParameterKind::Bool | ParameterKind::Trigger => {
                f64::from(u8::from(p.m_DefaultBool.0 != 0))
            }
        };
        Some(Parameter {
            name,
            kind,
            default,
        })
    }

    /// A layer's root machine, named (in paths) by the layer.
    fn root_machine(&mut self, r: &YamlRef, layer: &str) -> Result<StateMachine, TextError> {
        self.machine_paths.clear();
        self.state_paths.clear();
        let mut seen = HashSet::new();
        self.assign_paths(r, layer, &mut seen, 0)?;
        let mut seen = HashSet::new();
        Ok(self
            .machine(r, None, &mut seen, 0)?
            .unwrap_or_else(|| StateMachine {
                name: layer.to_string(),
                path: layer.to_string(),
                ..StateMachine::default()
            }))
    }

    /// A synced layer: the source layer's machine with this layer's motions in its states.
    /// A layer's AvatarMask, read from this file or the asset its guid names; when it
    /// cannot be read, no mask and the reason (`mask_asset`).
    fn layer_mask(&mut self, r: &YamlRef) -> (LayerMask, Option<String>) {
        if r.is_null() {
            return ((Vec::new(), None), None);
        }
        let found = match &r.guid {
            None => {
                let split: Vec<Document> = self.docs.by_id.values().map(|d| **d).collect();
                super::avatar_mask::from_documents(&split, r.file_id.0)
            }
            Some(g) => match self.index.get(g) {
                Some(path) => super::avatar_mask::from_file(path, r.file_id.0),
                None => Err("its asset is not found (no .meta file with that guid)".into()),
            },
        };
        match found {
            Ok(mask) => (mask, None),
            Err(why) => (
                (Vec::new(), None),
                Some(format!("AvatarMask {}: {why}", describe_ref(r))),
            ),
        }
    }

    fn synced_machine(
        &mut self,
        source: &RawLayer,
        layer: &RawLayer,
    ) -> Result<StateMachine, TextError> {
        let mut machine = self.root_machine(&source.m_StateMachine, &fix(source.m_Name.clone()))?;
        let mut motions: HashMap<String, Option<Motion>> = HashMap::new();
        for m in &layer.m_Motions {
            let Some(path) = m.m_State.local().and_then(|id| self.state_paths.get(&id)) else {
                self.warnings.push(format!(
                    "synced layer {}: a motion names a state ({}) the source layer does not hold",
                    fix(layer.m_Name.clone()),
                    describe_ref(&m.m_State)
                ));
                continue;
            };
            let path = path.clone();
            let motion = self.motion(&m.m_Motion, &mut Vec::new());
            motions.insert(path, motion);
        }
        machine.visit_states_mut(&mut |s| {
            s.motion = motions.remove(&s.full_path).flatten();
        });
        Ok(machine)
    }

    /// First pass: the path of every machine and state below `r`.
    fn assign_paths(
        &mut self,
        r: &YamlRef,
        path: &str,
        seen: &mut HashSet<i64>,
        depth: usize,
    ) -> Result<(), TextError> {
        let Some(doc) = self.docs.doc(r, STATE_MACHINE) else {
            return Ok(());
        };
        if depth > MAX_DEPTH || !seen.insert(doc.file_id) {
            return Ok(());
        }
        let m: RawMachine = read(doc).map_err(TextError::Document)?;
        if m.m_States.is_some() {
            return Err(TextError::Unity4);
        }
        self.machine_paths.insert(doc.file_id, path.to_string());
        for s in &m.m_ChildStates {
            if let Some(d) = self.docs.doc(&s.m_State, STATE) {
                let st: RawState = read(d).map_err(TextError::Document)?;
                self.state_paths
                    .insert(d.file_id, format!("{path}.{}", fix(st.m_Name)));
            }
        }
        for c in &m.m_ChildStateMachines {
            let Some(d) = self.docs.doc(&c.m_StateMachine, STATE_MACHINE) else {
                continue;
            };
            let child: RawMachine = read(d).map_err(TextError::Document)?;
            let child_path = format!("{path}.{}", fix(child.m_Name));
            self.assign_paths(&c.m_StateMachine, &child_path, seen, depth + 1)?;
        }
        Ok(())
    }

    /// Second pass: the machine with its states, transitions and sub-machines. `exits` are
    /// the parent's transitions for this machine.
    fn machine(
        &mut self,
        r: &YamlRef,
        exits: Option<(&[YamlRef], &str)>,
        seen: &mut HashSet<i64>,
        depth: usize,
    ) -> Result<Option<StateMachine>, TextError> {
        let Some(doc) = self.docs.doc(r, STATE_MACHINE) else {
            if !r.is_null() {
                self.warnings.push(format!(
                    "state machine {} is not in this file; left out",
                    describe_ref(r)
                ));
            }
            return Ok(None);
        };
        if depth > MAX_DEPTH || !seen.insert(doc.file_id) {
            return Ok(None);
        }
        let m: RawMachine = read(doc).map_err(TextError::Document)?;
        let Some(path) = self.machine_paths.get(&doc.file_id).cloned() else {
            return Ok(None);
        };
        let mut out = StateMachine {
            name: fix(m.m_Name.clone()),
            path: path.clone(),
            default_state: m
                .m_DefaultState
                .local()
                .and_then(|id| self.state_paths.get(&id).cloned()),
            ..StateMachine::default()
        };
        for s in &m.m_ChildStates {
            if let Some(d) = self.docs.doc(&s.m_State, STATE) {
                out.states.push(self.state(d, &path)?);
            }
        }
        out.any_state_transitions = self.transitions(&m.m_AnyStateTransitions, &path, "Any State");
        out.entry_transitions = self.transitions(&m.m_EntryTransitions, &path, "Entry");
        if let Some((exits, parent)) = exits {
            out.exit_transitions = self.transitions(exits, parent, "Exit");
        }
        for c in &m.m_ChildStateMachines {
            let exits = m
                .m_StateMachineTransitions
                .iter()
                .find(|t| t.first.local().is_some() && t.first.local() == c.m_StateMachine.local())
                .map(|t| t.second.as_slice())
                .unwrap_or(&[]);
            let exits = Some((exits, path.as_str()));
            if let Some(child) = self.machine(&c.m_StateMachine, exits, seen, depth + 1)? {
                out.state_machines.push(child);
            }
        }
        Ok(Some(out))
    }

    fn state(&mut self, doc: &Document, machine: &str) -> Result<State, TextError> {
        let s: RawState = read(doc).map_err(TextError::Document)?;
        let name = fix(s.m_Name.clone());
        let full_path = format!("{machine}.{name}");
        let active = |flag: Int, name: &str| (flag.0 != 0).then(|| fix(name.to_string()));
        let motion = self.motion(&s.m_Motion, &mut Vec::new());
        let transitions = self.transitions(&s.m_Transitions, machine, &full_path);
        Ok(State {
            name,
            full_path,
            speed: s.m_Speed.map_or(1.0, |f| f.0),
            speed_parameter: active(s.m_SpeedParameterActive, &s.m_SpeedParameter),
            cycle_offset: s.m_CycleOffset.0,
            cycle_offset_parameter: active(
                s.m_CycleOffsetParameterActive,
                &s.m_CycleOffsetParameter,
            ),
            mirror: s.m_Mirror.0 != 0,
            mirror_parameter: active(s.m_MirrorParameterActive, &s.m_MirrorParameter),
            time_parameter: active(s.m_TimeParameterActive, &s.m_TimeParameter),
            write_defaults: s.m_WriteDefaultValues.is_none_or(|v| v.0 != 0),
            foot_ik: s.m_IKOnFeet.0 != 0,
            tag: fix(s.m_Tag),
            stored_loop: None,
            motion,
            transitions,
        })
    }

    /// A list of transition references, muted ones dropped and solo ones kept alone.
    fn transitions(&mut self, refs: &[YamlRef], machine: &str, from: &str) -> Vec<Transition> {
        let mut read_list = Vec::new();
        for r in refs {
            let doc = self
                .docs
                .doc(r, STATE_TRANSITION)
                .or_else(|| self.docs.doc(r, TRANSITION));
            let Some(doc) = doc else {
                self.warnings.push(format!(
                    "{from}: transition {} is not in this file; left out",
                    describe_ref(r)
                ));
                continue;
            };
            match read::<RawTransition>(doc) {
                Ok(t) => read_list.push((doc.class_id, doc.file_id, t)),
                Err(e) => self.warnings.push(format!("{from}: {e}; left out")),
            }
        }
        read_list.retain(|(_, _, t)| t.m_Mute.0 == 0);
        if read_list.iter().any(|(_, _, t)| t.m_Solo.0 != 0) {
            read_list.retain(|(_, _, t)| t.m_Solo.0 != 0);
        }
        read_list
            .into_iter()
            .filter_map(|(class_id, id, t)| self.transition(class_id, id, &t, machine, from))
            .collect()
    }

    fn transition(
        &mut self,
        class_id: i32,
        id: i64,
        t: &RawTransition,
        machine: &str,
        from: &str,
    ) -> Option<Transition> {
        let destination = if let Some(dst) = t.m_DstState.local() {
            self.state_paths.get(&dst).cloned().map(Destination::State)
        } else if let Some(dst) = t.m_DstStateMachine.local() {
            self.machine_paths
                .get(&dst)
                .cloned()
                .map(Destination::Machine)
        } else if t.m_IsExit.0 != 0 {
            Some(Destination::Exit(machine.to_string()))
        } else {
            None
        };
        let Some(destination) = destination else {
            self.warnings.push(format!(
                "{from}: transition &{id} has no destination in this controller; left out"
            ));
            return None;
        };
        let conditions = t
            .m_Conditions
            .iter()
            .filter_map(|c| {
                let mode = ConditionMode::from_code(c.m_ConditionMode.0)?;
                Some(Condition {
                    mode,
                    parameter: fix(c.m_ConditionEvent.clone()),
                    threshold: c.m_EventTreshold.0,
                })
            })
            .collect();
        if class_id == TRANSITION {
            return Some(Transition::to(destination, conditions));
        }
        Some(Transition {
            destination,
            conditions,
            has_exit_time: t.m_HasExitTime.0 != 0,
            exit_time: t.m_ExitTime.0,
            duration: t.m_TransitionDuration.0,
            fixed_duration: t.m_HasFixedDuration.is_none_or(|v| v.0 != 0),
            offset: t.m_TransitionOffset.0,
            interruption: Interruption::from_code(t.m_InterruptionSource.0).unwrap_or_default(),
            ordered_interruption: t.m_OrderedInterruption.is_none_or(|v| v.0 != 0),
            can_transition_to_self: t.m_CanTransitionToSelf.is_none_or(|v| v.0 != 0),
        })
    }

    /// A motion reference: nothing, a blend tree of this file, or a clip. `path` holds the
    /// blend trees being expanded (a tree that contains itself is cut there).
    fn motion(&mut self, r: &YamlRef, path: &mut Vec<i64>) -> Option<Motion> {
        if r.is_null() {
            return None;
        }
        if let Some(doc) = self.docs.doc(r, BLEND_TREE) {
            if path.contains(&doc.file_id) || path.len() >= MAX_DEPTH {
                self.warnings
                    .push(format!("blend tree &{} contains itself; cut", doc.file_id));
                return None;
            }
            let tree: RawBlendTree = match read(doc) {
                Ok(t) => t,
                Err(e) => {
                    self.warnings.push(format!("{e}; blend tree left out"));
                    return None;
                }
            };
            path.push(doc.file_id);
            let motion = self.blend_tree(tree, path);
            path.pop();
            return Some(motion);
        }
        let resolved_path = r
            .guid
            .as_deref()
            .and_then(|g| self.index.get(g))
            .map(Path::to_path_buf)
            .or_else(|| r.guid.is_none().then(|| self.path.to_path_buf()));
        Some(Motion::Clip(ClipMotion::new(ClipSource::Text {
            guid: r.guid.clone(),
            file_id: r.file_id.0,
            resolved_path,
        })))
    }

    fn blend_tree(&mut self, t: RawBlendTree, path: &mut Vec<i64>) -> Motion {
        let kind = BlendKind::from_code(t.m_BlendType.0).unwrap_or_else(|| {
            self.warnings.push(format!(
                "blend tree {}: unknown type {}; read as 1D",
                t.m_Name, t.m_BlendType.0
            ));
            BlendKind::Simple1D
        });
        let children = t
            .m_Childs
            .iter()
            .map(|c| BlendChild {
                motion: self.motion(&c.m_Motion, path),
                threshold: c.m_Threshold.0,
                position: [c.m_Position.x.0, c.m_Position.y.0],
                time_scale: c.m_TimeScale.map_or(1.0, |f| f.0),
                cycle_offset: c.m_CycleOffset.0,
                direct_parameter: (kind == BlendKind::Direct)
                    .then(|| non_empty(&fix(c.m_DirectBlendParameter.clone())))
                    .flatten(),
                mirror: c.m_Mirror.0 != 0,
            })
            .collect();
        Motion::BlendTree(BlendTree {
            name: fix(t.m_Name),
            kind,
            parameter: (kind != BlendKind::Direct)
                .then(|| non_empty(&fix(t.m_BlendParameter.clone())))
                .flatten(),
            parameter_y: kind
                .is_2d()
                .then(|| non_empty(&fix(t.m_BlendParameterY.clone())))
                .flatten(),
            normalized: t.m_NormalizedBlendValues.0 != 0,
            children,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A controller whose machine lists itself as a child, whose blend tree contains itself,
    /// with a transition that has no destination and a muted and a solo transition.
    const HOSTILE: &str = "%YAML 1.1
--- !u!91 &9100000
AnimatorController:
  m_Name: Bad
  m_AnimatorParameters:
  - m_Name: Go
    m_Type: 9
    m_DefaultFloat: 0
    m_DefaultInt: 0
    m_DefaultBool: 0
  m_AnimatorLayers:
  - serializedVersion: 5
    m_Name: Base
    m_StateMachine: {fileID: 1}
    m_BlendingMode: 1
    m_SyncedLayerIndex: -1
    m_DefaultWeight: 0.5
--- !u!1107 &1
AnimatorStateMachine:
  m_Name: Base
  m_ChildStates:
  - m_State: {fileID: 2}
  - m_State: {fileID: 3}
  m_ChildStateMachines:
  - m_StateMachine: {fileID: 1}
  m_StateMachineTransitions: {}
  m_DefaultState: {fileID: 2}
--- !u!1102 &2
AnimatorState:
  m_Name: A
  m_Speed: 2
  m_Motion: {fileID: 4}
  m_Transitions:
  - {fileID: 10}
  - {fileID: 11}
  - {fileID: 12}
  - {fileID: 13}
--- !u!1102 &3
AnimatorState:
  m_Name: B
  m_Motion: {fileID: 0}
--- !u!206 &4
BlendTree:
  m_Name: Loop
  m_BlendType: 0
  m_BlendParameter: Go
  m_Childs:
  - m_Motion: {fileID: 4}
    m_Threshold: 0
  - m_Motion: {fileID: 7400000, guid: 0123456789abcdef0123456789abcdef, type: 2}
    m_Threshold: 1
    m_TimeScale: 2
--- !u!1101 &10
AnimatorStateTransition:
  m_DstState: {fileID: 0}
  m_Mute: 0
--- !u!1101 &11
AnimatorStateTransition:
  m_DstState: {fileID: 3}
  m_Mute: 1
--- !u!1101 &12
AnimatorStateTransition:
  m_DstState: {fileID: 3}
  m_Solo: 1
  m_Conditions:
  - m_ConditionMode: 1
    m_ConditionEvent: Go
    m_EventTreshold: 0
--- !u!1101 &13
AnimatorStateTransition:
  m_DstState: {fileID: 2}
";

    #[test]
    fn cycles_dangling_and_solo_mute() {
        let read = read_controllers(Path::new("bad.controller"), HOSTILE, &GuidIndex::default());
        assert_eq!(read.len(), 1);
        let c = read[0].1.as_ref().expect("reads");
        assert_eq!(c.parameters[0].kind, ParameterKind::Trigger);
        let layer = &c.layers[0];
        assert_eq!((layer.blending, layer.weight), (Blending::Additive, 0.5));
        let m = &layer.state_machine;
        assert!(
            m.state_machines.is_empty(),
            "the machine listing itself is cut"
        );
        let a = &m.states[0];
        assert_eq!((a.full_path.as_str(), a.speed), ("Base.A", 2.0));
        // Solo keeps only the solo transition (the muted and the dangling one go).
        assert_eq!(a.transitions.len(), 1);
        assert_eq!(
            a.transitions[0].destination,
            Destination::State("Base.B".into())
        );
        let Some(Motion::BlendTree(tree)) = &a.motion else {
            panic!("a blend tree")
        };
        assert!(
            tree.children[0].motion.is_none(),
            "the tree containing itself is cut"
        );
        assert_eq!(tree.children[1].time_scale, 2.0);
        assert!(
            c.warnings.iter().any(|w| w.contains("contains itself")),
            "{:?}",
            c.warnings
        );
        // A Unity 4 controller is refused.
        let old = "--- !u!91 &9100000\nAnimatorController:\n  m_Name: Old\n  m_Layers:\n  - m_Name: Base\n";
        let read = read_controllers(Path::new("old.controller"), old, &GuidIndex::default());
        assert_eq!(read[0].1, Err(TextError::Unity4));
    }
}
