//! A built AnimatorController (class 91) turned into the [`Controller`] model: state machines
//! rebuilt from the states' full paths, selector states turned back into Entry and Exit
//! transitions, blend tree node arrays into nested trees, hashes named through `m_TOS`.

use super::machines::MachineTree;
use super::model::*;
use super::names::{Names, hex};
use super::raw;

/// `m_DestinationState` at or above this indexes the selector states.
const SELECTOR_BASE: u32 = 30000;
/// Deepest blend tree nesting accepted.
const MAX_TREE_DEPTH: usize = 64;

/// Converts a decoded class-91 object into the model.
pub fn from_raw(raw: &raw::AnimatorController) -> Controller {
    let names = Names { tos: &raw.m_TOS };
    let constant = &raw.m_Controller;
    let mut out = Controller {
        name: raw.m_Name.clone(),
        ..Controller::default()
    };
    out.parameters = parameters(constant, &names, &mut out.warnings);
    let layers = &constant.m_LayerArray;
    for (index, layer) in layers.iter().enumerate() {
        let layer = &layer.data;
        let machine_index = layer.m_StateMachineIndex.0 as u32 as usize;
        let motion_set = layer.m_StateMachineSynchronizedLayerIndex.0 as u32 as usize;
        let name = names.name(layer.m_Binding.0 as u32);
        let synced_layer = (motion_set > 0)
            .then(|| {
                layers.iter().position(|l| {
                    l.data.m_StateMachineIndex.0 == layer.m_StateMachineIndex.0
                        && l.data.m_StateMachineSynchronizedLayerIndex.0 == 0
                })
            })
            .flatten();
        let machine = match constant.m_StateMachineArray.get(machine_index) {
            Some(m) => {
                let root_name = synced_layer
                    .and_then(|i| layers.get(i))
                    .map_or(name.clone(), |l| names.name(l.data.m_Binding.0 as u32));
                let mut b = MachineBuilder {
                    raw,
                    machine: &m.data,
                    names: &names,
                    motion_set,
                    warnings: &mut out.warnings,
                };
                let mut machine = b.build(&root_name);
                drop_compiled_exits(&mut machine);
                machine
            }
            None => {
                out.warnings.push(format!(
                    "layer {index} ({name}): state machine index {machine_index} is outside the {} machines",
                    constant.m_StateMachineArray.len()
                ));
                StateMachine::default()
            }
        };
        out.layers.push(Layer {
            name,
            blending: if layer.m_LayerBlendingMode.0 == 1 {
                Blending::Additive
            } else {
                Blending::Override
            },
            weight: layer.m_DefaultWeight.map_or(1.0, |w| w.0),
            synced_layer,
            synced_affects_timing: layer.m_SyncedLayerAffectsTiming.is_some_and(|v| v.0 != 0),
            ik_pass: layer.m_IKPass.is_some_and(|v| v.0 != 0),
            mask: layer
                .m_SkeletonMask
                .data
                .m_Data
                .iter()
                .map(|e| (names.name(e.m_PathHash.0 as u32), e.m_Weight.0))
                .collect(),
            body_mask: body_mask(&layer.m_BodyMask),
            mask_asset: None,
            state_machine: machine,
        });
    }
    out.layers.shrink_to_fit();
    out
}

/// The body mask words, `None` when every part is on: (0xFFFFFFFF, 0xFFFFFFFF, 0x7FFFF)
/// from 5.2 on, and (0xFFFFFFFF, 0x7FFFFFF), 59 bits, in the two words before (the
/// unmasked layer of the 4.x `resetanimator` WebPlayer build).
fn body_mask(m: &raw::BodyMask) -> Option<Vec<u32>> {
    let mut words = vec![m.word0.0 as u32, m.word1.0 as u32];
    words.extend(m.word2.map(|w| w.0 as u32));
    let all: &[u32] = if words.len() == 2 {
        &[u32::MAX, 0x7FF_FFFF]
    } else {
        &[u32::MAX, u32::MAX, 0x7FFFF]
    };
    let full = words.iter().zip(all).all(|(w, a)| w & a == *a);
    (!full).then_some(words)
}

/// Parameters from `m_Values` with their defaults.
fn parameters(
    c: &raw::ControllerConstant,
    names: &Names,
    warnings: &mut Vec<String>,
) -> Vec<Parameter> {
    let defaults = &c.m_DefaultValues.data;
    let mut out = Vec::new();
    for v in &c.m_Values.data.m_ValueArray {
        let name = names.name(v.m_ID.0 as u32);
        let index = v.m_Index.0 as u32 as usize;
        let Some(kind) = ParameterKind::from_code(v.m_Type.0) else {
            warnings.push(format!(
                "parameter {name}: unknown type {}; left out",
                v.m_Type.0
            ));
            continue;
        };
        let default = match kind {
            ParameterKind::Float => defaults.m_FloatValues.get(index).map(|f| f.0 as f64),
            ParameterKind::Int => defaults.m_IntValues.get(index).map(|i| i.0 as f64),
            ParameterKind::Bool | ParameterKind::Trigger => defaults
                .m_BoolValues
                .get(index)
                .map(|b| f64::from(u8::from(b.0 != 0))),
        };
        if default.is_none() {
            warnings.push(format!(
                "parameter {name}: default value index {index} is outside its array; 0 used"
            ));
        }
        out.push(Parameter {
            name,
            kind,
            default: default.unwrap_or(0.0),
        });
    }
    out
}

/// Builds one layer's machine tree from a `StateMachineConstant`.
struct MachineBuilder<'a, 'w> {
    raw: &'a raw::AnimatorController,
    machine: &'a raw::StateMachineConstant,
    names: &'a Names<'a>,
    motion_set: usize,
    warnings: &'w mut Vec<String>,
}

impl MachineBuilder<'_, '_> {
    fn build(&mut self, root: &str) -> StateMachine {
        let states: Vec<(String, String)> = self
            .machine
            .m_StateConstantArray
            .iter()
            .map(|s| self.state_names(&s.data))
            .collect();
        let mut tree = MachineTree::new(root);
        for (full, short) in &states {
            tree.add_state_path(full, short);
        }
        // Selector states name their machine by hash.
        let mut selector_paths = Vec::new();
        for s in &self.machine.m_SelectorStateConstantArray {
            let hash = s.data.m_FullPathID.0 as u32;
            let path = tree.path_for_hash(hash).unwrap_or_else(|| {
                let path = format!("{root}.sm_{hash:08x}");
                tree.add_machine(&path);
                path
            });
            selector_paths.push(path);
        }
        let dest = Destinations {
            states: &states,
            selectors: &self.machine.m_SelectorStateConstantArray,
            selector_paths: &selector_paths,
        };
        for (index, s) in self.machine.m_StateConstantArray.iter().enumerate() {
            let state = self.state(&s.data, &states[index], &dest);
            tree.push_state(state);
        }
        let any: Vec<Transition> = self
            .machine
            .m_AnyStateTransitionConstantArray
            .iter()
            .filter_map(|t| self.transition(&t.data, &dest, "Any State"))
            .collect();
        tree.machine_mut(root).any_state_transitions = any;
        for (i, s) in self.machine.m_SelectorStateConstantArray.iter().enumerate() {
            self.selector(&s.data, &selector_paths[i], root, &dest, &mut tree);
        }
        let default = self.machine.m_DefaultState.0 as u32 as usize;
        match states.get(default) {
            Some((full, _)) => tree.machine_mut(root).default_state = Some(full.clone()),
            None if !states.is_empty() => self.warnings.push(format!(
                "{root}: default state index {default} is outside the {} states",
                states.len()
            )),
            None => {}
        }
        tree.finish()
    }

    /// A state's full path and short name.
    fn state_names(&self, s: &raw::StateConstant) -> (String, String) {
        let full_hash = s
            .m_FullPathID
            .or(s.m_PathID)
            .or(s.m_ID)
            .map_or(0, |h| h.0 as u32);
        let short = self.names.known(s.m_NameID.0 as u32);
        match self.names.known(full_hash) {
            Some(full) => {
                let short =
                    short.unwrap_or_else(|| full.rsplit('.').next().unwrap_or(&full).to_string());
                (full, short)
            }
            None => {
                let short = short.unwrap_or_else(|| hex(s.m_NameID.0 as u32));
                (hex(full_hash), short)
            }
        }
    }

    fn state(
        &mut self,
        s: &raw::StateConstant,
        (full, short): &(String, String),
        dest: &Destinations,
    ) -> State {
        let param =
            |id: Option<crate::unity::Int>| id.and_then(|h| self.names.parameter(h.0 as u32));
        let motion = self.state_motion(s, full);
        let transitions = s
            .m_TransitionConstantArray
            .iter()
            .filter_map(|t| self.transition(&t.data, dest, full))
            .collect();
        State {
            name: short.clone(),
            full_path: full.clone(),
            speed: s.m_Speed.0,
            speed_parameter: param(s.m_SpeedParamID),
            cycle_offset: s.m_CycleOffset.0,
            cycle_offset_parameter: param(s.m_CycleOffsetParamID),
            mirror: s.m_Mirror.0 != 0,
            mirror_parameter: param(s.m_MirrorParamID),
            time_parameter: param(s.m_TimeParamID),
            write_defaults: s.m_WriteDefaultValues.is_none_or(|v| v.0 != 0),
            foot_ik: s.m_IKOnFeet.is_some_and(|v| v.0 != 0),
            tag: match s.m_TagID.0 as u32 {
                0 => String::new(),
                h => self.names.name(h),
            },
            stored_loop: Some(s.m_Loop.0 != 0),
            motion,
            transitions,
        }
    }

    /// The motion this layer's motion set gives the state.
    fn state_motion(&mut self, s: &raw::StateConstant, full: &str) -> Option<Motion> {
        let Some(index) = s.m_BlendTreeConstantIndexArray.get(self.motion_set) else {
            if !s.m_BlendTreeConstantIndexArray.is_empty() {
                self.warnings.push(format!(
                    "state {full}: no motion for motion set {}",
                    self.motion_set
                ));
            }
            return None;
        };
        let index = index.0 as i32;
        if index < 0 {
            return None;
        }
        let Some(tree) = s.m_BlendTreeConstantArray.get(index as usize) else {
            self.warnings.push(format!(
                "state {full}: blend tree index {index} is outside its {} trees",
                s.m_BlendTreeConstantArray.len()
            ));
            return None;
        };
        let nodes = &tree.data.m_NodeArray;
        if nodes.is_empty() {
            // The state's blend tree constant exists: an empty tree, not "no motion".
            return Some(Motion::BlendTree(empty_tree(BlendKind::Simple1D)));
        }
        let mut path = Vec::new();
        self.node(s, nodes, 0, &mut path, full)
    }

    /// One node of a blend tree: a nested tree or a leaf clip.
    fn node(
        &mut self,
        s: &raw::StateConstant,
        nodes: &[raw::Ptr<raw::BlendTreeNodeConstant>],
        index: usize,
        path: &mut Vec<usize>,
        full: &str,
    ) -> Option<Motion> {
        let node = &nodes.get(index)?.data;
        let no_clip = node.m_ClipID.0 as u32 == u32::MAX;
        // A root node without children or clip is a blend tree with no children (a leaf
        // always stores its clip).
        if node.m_ChildIndices.is_empty() && !(path.is_empty() && no_clip) {
            return self.leaf(s, node, full);
        }
        if path.contains(&index) || path.len() >= MAX_TREE_DEPTH {
            self.warnings.push(format!(
                "state {full}: blend tree node {index} contains itself; left out"
            ));
            return None;
        }
        path.push(index);
        let kind_code = node.m_BlendType.map_or(0, |t| t.0);
        let kind = BlendKind::from_code(kind_code).unwrap_or_else(|| {
            self.warnings.push(format!(
                "state {full}: unknown blend type {kind_code}; read as 1D"
            ));
            BlendKind::Simple1D
        });
        let thresholds: Vec<f32> = match (&node.m_Blend1dData, &node.m_ChildThresholdArray) {
            (Some(d), _) => d.data.m_ChildThresholdArray.iter().map(|f| f.0).collect(),
            (None, Some(t)) => t.iter().map(|f| f.0).collect(),
            (None, None) => Vec::new(),
        };
        let positions: Vec<[f32; 2]> = node.m_Blend2dData.as_ref().map_or(Vec::new(), |d| {
            d.data
                .m_ChildPositionArray
                .iter()
                .map(|p| [p.x.0, p.y.0])
                .collect()
        });
        let direct = node.m_BlendDirectData.as_ref();
        let direct_ids: Vec<u32> = direct.map_or(Vec::new(), |d| {
            d.data
                .m_ChildBlendEventIDArray
                .iter()
                .map(|i| i.0 as u32)
                .collect()
        });
        let mut children = Vec::new();
        for (i, child) in node.m_ChildIndices.iter().enumerate() {
            let child_index = child.0 as u32 as usize;
            let Some(c) = nodes.get(child_index) else {
                self.warnings.push(format!(
                    "state {full}: blend tree child {child_index} is outside its {} nodes",
                    nodes.len()
                ));
                continue;
            };
            let c = &c.data;
            let duration = c.m_Duration.0;
            children.push(BlendChild {
                motion: self.node(s, nodes, child_index, path, full),
                threshold: thresholds.get(i).copied().unwrap_or(0.0),
                position: positions.get(i).copied().unwrap_or([0.0, 0.0]),
                time_scale: if duration == 0.0 { 1.0 } else { 1.0 / duration },
                cycle_offset: c.m_CycleOffset.map_or(0.0, |f| f.0),
                direct_parameter: direct_ids.get(i).and_then(|h| self.names.parameter(*h)),
                mirror: c.m_Mirror.is_some_and(|m| m.0 != 0),
            });
        }
        path.pop();
        let parameter = |h: u32| (h != u32::MAX).then(|| self.names.name(h));
        Some(Motion::BlendTree(BlendTree {
            name: String::new(),
            kind,
            parameter: (kind != BlendKind::Direct)
                .then(|| parameter(node.m_BlendEventID.0 as u32))
                .flatten(),
            parameter_y: kind
                .is_2d()
                .then(|| node.m_BlendEventYID.and_then(|h| parameter(h.0 as u32)))
                .flatten(),
            normalized: direct.is_some_and(|d| d.data.m_NormalizedBlendValues.0 != 0),
            children,
        }))
    }

    /// A leaf: its clip through `m_AnimationClips` (5.2+: by index; before: through
    /// `m_LeafInfoArray`).
    fn leaf(
        &mut self,
        s: &raw::StateConstant,
        node: &raw::BlendTreeNodeConstant,
        full: &str,
    ) -> Option<Motion> {
        let id = node.m_ClipID.0 as u32;
        if id == u32::MAX {
            return None;
        }
        let clips = &self.raw.m_AnimationClips;
        let index = if s.m_LeafInfoArray.is_empty() {
            Some(id as usize)
        } else {
            s.m_LeafInfoArray.iter().find_map(|l| {
                let p = l.m_IDArray.iter().position(|x| x.0 as u32 == id)?;
                Some(l.m_IndexOffset.0 as u32 as usize + p)
            })
        };
        let source = match index.map(|i| (i, clips.get(i))) {
            Some((_, Some(p))) if !p.is_null() => ClipSource::Binary {
                file_id: i64::from(p.file_id()),
                path_id: p.path_id(),
            },
            Some((i, Some(_))) => {
                ClipSource::Missing(format!("clip {i} of the controller is a null reference"))
            }
            Some((i, None)) => {
                self.warnings.push(format!(
                    "state {full}: clip index {i} is outside the {} clips",
                    clips.len()
                ));
                ClipSource::Missing(format!("clip index {i} outside m_AnimationClips"))
            }
            None => ClipSource::Missing(format!("clip id {id} not in m_LeafInfoArray")),
        };
        Some(Motion::Clip(ClipMotion::new(source)))
    }

    fn conditions(
        &self,
        raw: &[raw::Ptr<raw::ConditionConstant>],
        exit_time: &mut Option<f32>,
    ) -> Vec<Condition> {
        let mut out = Vec::new();
        for c in raw {
            let c = &c.data;
            match ConditionMode::from_code(c.m_ConditionMode.0) {
                Some(ConditionMode::ExitTime) => *exit_time = Some(c.m_ExitTime.0),
                Some(mode) => out.push(Condition {
                    mode,
                    parameter: self.names.name(c.m_EventID.0 as u32),
                    threshold: c.m_EventThreshold.0,
                }),
                None => {}
            }
        }
        out
    }

    fn transition(
        &mut self,
        t: &raw::TransitionConstant,
        dest: &Destinations,
        from: &str,
    ) -> Option<Transition> {
        let Some(destination) = dest.of(t.m_DestinationState.0 as u32) else {
            self.warnings.push(format!(
                "{from}: transition {} has no valid destination ({}); left out",
                self.names.name(t.m_ID.0 as u32),
                t.m_DestinationState.0
            ));
            return None;
        };
        let mut exit = None;
        let conditions = self.conditions(&t.m_ConditionConstantArray, &mut exit);
        let unity4 = t.m_HasExitTime.is_none();
        let interruption = match (t.m_InterruptionSource, t.m_Atomic) {
            (Some(code), _) => Interruption::from_code(code.0).unwrap_or_default(),
            (None, Some(atomic)) if atomic.0 != 0 => Interruption::None,
            (None, _) => Interruption::Destination,
        };
        Some(Transition {
            destination,
            conditions,
            has_exit_time: if unity4 {
                exit.is_some()
            } else {
                t.m_HasExitTime.is_some_and(|v| v.0 != 0)
            },
            exit_time: t.m_ExitTime.map(|f| f.0).or(exit).unwrap_or(0.0),
            duration: t.m_TransitionDuration.0,
            fixed_duration: t.m_HasFixedDuration.is_none_or(|v| v.0 != 0),
            offset: t.m_TransitionOffset.0,
            interruption,
            ordered_interruption: t.m_OrderedInterruption.is_none_or(|v| v.0 != 0),
            can_transition_to_self: t.m_CanTransitionToSelf.is_none_or(|v| v.0 != 0),
        })
    }

    /// An Entry selector gives its machine's entry transitions and default state; a
    /// sub-machine's Exit selector gives that machine's exit transitions.
    fn selector(
        &mut self,
        s: &raw::SelectorStateConstant,
        path: &str,
        root: &str,
        dest: &Destinations,
        tree: &mut MachineTree,
    ) {
        let mut list = Vec::new();
        for t in &s.m_TransitionConstantArray {
            let t = &t.data;
            let Some(d) = dest.of(t.m_Destination.0 as u32) else {
                self.warnings.push(format!(
                    "{path}: selector transition to {} has no valid destination; left out",
                    t.m_Destination.0
                ));
                continue;
            };
            let conditions = self.conditions(&t.m_ConditionConstantArray, &mut None);
            list.push(Transition::to(d, conditions));
        }
        let machine = tree.machine_mut(path);
        if s.m_IsEntry.0 != 0 {
            if list.last().is_some_and(|t| t.conditions.is_empty())
                && let Some(last) = list.pop()
                && let Destination::State(state) = last.destination
                && path != root
            {
                machine.default_state = Some(state);
            }
            machine.entry_transitions = list;
        } else if path != root {
            machine.exit_transitions = list;
        }
    }
}

/// A blend tree with no children.
fn empty_tree(kind: BlendKind) -> BlendTree {
    BlendTree {
        name: String::new(),
        kind,
        parameter: None,
        parameter_y: None,
        normalized: false,
        children: Vec::new(),
    }
}

/// Drops the transition Unity's compiler gives a sub-machine's Exit selector when the
/// parent stores none for it (its only transition, unconditional, to the parent's default
/// state, §1.2): the model lists only what the editor stored, and §4.6 resolves an Exit without
/// a matching transition to that same state at run time.
fn drop_compiled_exits(m: &mut StateMachine) {
    let fallback = m.default_state.clone().map(Destination::State);
    for child in &mut m.state_machines {
        if let [only] = child.exit_transitions.as_slice()
            && only.conditions.is_empty()
            && Some(&only.destination) == fallback.as_ref()
        {
            child.exit_transitions.clear();
        }
        drop_compiled_exits(child);
    }
}

/// Decodes `m_DestinationState` / `m_Destination` values.
struct Destinations<'a> {
    states: &'a [(String, String)],
    selectors: &'a [raw::Ptr<raw::SelectorStateConstant>],
    selector_paths: &'a [String],
}

impl Destinations<'_> {
    fn of(&self, value: u32) -> Option<Destination> {
        if value < SELECTOR_BASE {
            return self
                .states
                .get(value as usize)
                .map(|(full, _)| Destination::State(full.clone()));
        }
        let i = value.checked_sub(SELECTOR_BASE)? as usize;
        let path = self.selector_paths.get(i)?.clone();
        Some(if self.selectors.get(i)?.data.m_IsEntry.0 != 0 {
            Destination::Machine(path)
        } else {
            Destination::Exit(path)
        })
    }
}
