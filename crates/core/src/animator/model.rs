//! The plain data model of an AnimatorController, the same for a built controller (class 91)
//! and a text `.controller` file: parameters, layers, state machines with their sub-machines,
//! states, transitions and blend trees. Names are full names (`"Base Layer.Locomotion.Walk"`);
//! a hash without a name is kept as its hex value (`0x1a2b3c4d`).

use std::path::PathBuf;

/// A whole controller.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Controller {
    pub name: String,
    pub parameters: Vec<Parameter>,
    pub layers: Vec<Layer>,
    /// What was odd but did not stop decoding (missing names, dangling references).
    pub warnings: Vec<String>,
}

/// The type of an Animator parameter (Unity's `AnimatorControllerParameterType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParameterKind {
    Float,
    Int,
    Bool,
    Trigger,
}

impl ParameterKind {
    /// From Unity's code: Float 1, Int 3, Bool 4, Trigger 9.
    pub fn from_code(code: i64) -> Option<ParameterKind> {
        Some(match code {
            1 => ParameterKind::Float,
            3 => ParameterKind::Int,
            4 => ParameterKind::Bool,
            9 => ParameterKind::Trigger,
            _ => return None,
        })
    }

    /// The name used in JSON: `float`, `int`, `bool`, `trigger`.
    pub fn name(self) -> &'static str {
        match self {
            ParameterKind::Float => "float",
            ParameterKind::Int => "int",
            ParameterKind::Bool => "bool",
            ParameterKind::Trigger => "trigger",
        }
    }
}

/// A parameter and its default value (bools and triggers 0/1, ints as whole numbers).
#[derive(Clone, Debug, PartialEq)]
pub struct Parameter {
    pub name: String,
    pub kind: ParameterKind,
    pub default: f64,
}

/// How a layer combines with the layers below it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Blending {
    #[default]
    Override,
    Additive,
}

impl Blending {
    /// The name in JSON output: `override` or `additive`.
    pub fn name(self) -> &'static str {
        match self {
            Blending::Override => "override",
            Blending::Additive => "additive",
        }
    }
}

/// A layer. A synced layer carries a copy of its source layer's state machine with its own
/// motions in the states.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layer {
    pub name: String,
    pub blending: Blending,
    /// Default weight (layer 0 always plays at weight 1).
    pub weight: f32,
    /// The layer whose state machine this one shares, by index.
    pub synced_layer: Option<usize>,
    /// Synced layer: its motions' lengths enter the shared timing.
    pub synced_affects_timing: bool,
    /// IK Pass: the layer calls `OnAnimatorIK` (Unity's `m_IKPass`).
    pub ik_pass: bool,
    /// The mask: transform paths or path hashes (hex when unnamed) with their weights;
    /// empty = no mask.
    pub mask: Vec<(String, f32)>,
    /// Humanoid body mask words as stored (binary; text masks converted to the same
    /// bits), `None` for "every part".
    pub body_mask: Option<Vec<u32>>,
    /// A text layer's AvatarMask reference that could not be read (`mask` and `body_mask`
    /// are then empty: the layer plays unmasked, with a warning when posed).
    pub mask_asset: Option<String>,
    pub state_machine: StateMachine,
}

/// A state machine (a layer's root machine or a sub-machine).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StateMachine {
    pub name: String,
    /// `"Layer.Sub"`: the layer name for a root machine.
    pub path: String,
    /// Full path of the state its Entry falls back to (may lie in a sub-machine).
    pub default_state: Option<String>,
    pub states: Vec<State>,
    /// The Any State transitions stored on this machine.
    pub any_state_transitions: Vec<Transition>,
    /// The Entry's conditional transitions, in order (the default state is the fallback).
    pub entry_transitions: Vec<Transition>,
    /// The parent's transitions taken when this machine is left through its Exit.
    pub exit_transitions: Vec<Transition>,
    pub state_machines: Vec<StateMachine>,
}

/// A state.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub name: String,
    /// `"Layer.Sub.State"`.
    pub full_path: String,
    pub speed: f32,
    pub speed_parameter: Option<String>,
    pub cycle_offset: f32,
    pub cycle_offset_parameter: Option<String>,
    pub mirror: bool,
    pub mirror_parameter: Option<String>,
    /// Motion Time: the float parameter that sets the normalised time.
    pub time_parameter: Option<String>,
    pub write_defaults: bool,
    /// Foot IK: humanoid feet pinned to the clip's IK goals (Unity's `m_IKOnFeet`).
    pub foot_ik: bool,
    pub tag: String,
    /// The stored `m_Loop` (built controllers); `None` in text files (derived from clips).
    pub stored_loop: Option<bool>,
    pub motion: Option<Motion>,
    /// In priority order, solo/mute applied.
    pub transitions: Vec<Transition>,
}

impl Default for State {
    fn default() -> Self {
        State {
            name: String::new(),
            full_path: String::new(),
            speed: 1.0,
            speed_parameter: None,
            cycle_offset: 0.0,
            cycle_offset_parameter: None,
            mirror: false,
            mirror_parameter: None,
            time_parameter: None,
            write_defaults: true,
            foot_ik: false,
            tag: String::new(),
            stored_loop: None,
            motion: None,
            transitions: Vec::new(),
        }
    }
}

/// Where a transition goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    /// A state, by full path.
    State(String),
    /// A state machine's Entry, by the machine's path.
    Machine(String),
    /// The Exit of the machine that holds the transition's source, by that machine's path.
    Exit(String),
}

impl Destination {
    /// The name in JSON output: `state`, `machine` or `exit`.
    pub fn kind(&self) -> &'static str {
        match self {
            Destination::State(_) => "state",
            Destination::Machine(_) => "machine",
            Destination::Exit(_) => "exit",
        }
    }
}

/// A condition's test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConditionMode {
    If,
    IfNot,
    Greater,
    Less,
    /// Unity 4's exit-time condition (built Unity 4 controllers only).
    ExitTime,
    Equals,
    NotEqual,
}

impl ConditionMode {
    /// From Unity's `AnimatorConditionMode`: 1 If, 2 IfNot, 3 Greater, 4 Less, 5 ExitTime,
    /// 6 Equals, 7 NotEqual.
    pub fn from_code(code: i64) -> Option<ConditionMode> {
        Some(match code {
            1 => ConditionMode::If,
            2 => ConditionMode::IfNot,
            3 => ConditionMode::Greater,
            4 => ConditionMode::Less,
            5 => ConditionMode::ExitTime,
            6 => ConditionMode::Equals,
            7 => ConditionMode::NotEqual,
            _ => return None,
        })
    }

    /// The name in JSON output (`if`, `ifnot`, `greater`, …).
    pub fn name(self) -> &'static str {
        match self {
            ConditionMode::If => "if",
            ConditionMode::IfNot => "ifnot",
            ConditionMode::Greater => "greater",
            ConditionMode::Less => "less",
            ConditionMode::ExitTime => "exittime",
            ConditionMode::Equals => "equals",
            ConditionMode::NotEqual => "notequal",
        }
    }
}

/// A transition's condition: the parameter tested, how, and the threshold it is compared with.
#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    pub mode: ConditionMode,
    pub parameter: String,
    pub threshold: f32,
}

/// Which transition lists may interrupt a running transition.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Interruption {
    #[default]
    None,
    Source,
    Destination,
    SourceThenDestination,
    DestinationThenSource,
}

impl Interruption {
    /// From Unity's `TransitionInterruptionSource` code (0 to 4).
    pub fn from_code(code: i64) -> Option<Interruption> {
        Some(match code {
            0 => Interruption::None,
            1 => Interruption::Source,
            2 => Interruption::Destination,
            3 => Interruption::SourceThenDestination,
            4 => Interruption::DestinationThenSource,
            _ => return None,
        })
    }

    /// The name in JSON output (`none`, `source`, `destination`, …).
    pub fn name(self) -> &'static str {
        match self {
            Interruption::None => "none",
            Interruption::Source => "source",
            Interruption::Destination => "destination",
            Interruption::SourceThenDestination => "source_then_destination",
            Interruption::DestinationThenSource => "destination_then_source",
        }
    }
}

/// A transition (state, Any State, Entry or sub-machine exit).
#[derive(Clone, Debug, PartialEq)]
pub struct Transition {
    pub destination: Destination,
    pub conditions: Vec<Condition>,
    pub has_exit_time: bool,
    pub exit_time: f32,
    pub duration: f32,
    pub fixed_duration: bool,
    pub offset: f32,
    pub interruption: Interruption,
    pub ordered_interruption: bool,
    pub can_transition_to_self: bool,
}

impl Transition {
    /// An unconditional, instantaneous transition (Entry and machine transitions).
    pub fn to(destination: Destination, conditions: Vec<Condition>) -> Transition {
        Transition {
            destination,
            conditions,
            has_exit_time: false,
            exit_time: 0.0,
            duration: 0.0,
            fixed_duration: true,
            offset: 0.0,
            interruption: Interruption::None,
            ordered_interruption: true,
            can_transition_to_self: true,
        }
    }
}

/// What a state (or a blend tree slot) plays.
#[derive(Clone, Debug, PartialEq)]
pub enum Motion {
    Clip(ClipMotion),
    BlendTree(BlendTree),
}

/// Where a clip motion points, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClipSource {
    /// A built controller's `m_AnimationClips` entry: a PPtr read in the controller's file.
    Binary { file_id: i64, path_id: i64 },
    /// A text file's reference: this file (`guid` none) or the asset with that guid.
    Text {
        guid: Option<String>,
        file_id: i64,
        /// The asset's path, from the project's `.meta` files.
        resolved_path: Option<PathBuf>,
    },
    /// Nothing usable was stored (a null PPtr, a bad index); the text says what.
    Missing(String),
}

impl ClipSource {
    /// What the reference names, for messages and JSON.
    pub fn describe(&self) -> String {
        match self {
            ClipSource::Binary { file_id, path_id } => {
                format!("file {file_id}, path id {path_id}")
            }
            ClipSource::Text {
                guid,
                file_id,
                resolved_path,
            } => match (guid, resolved_path) {
                (None, _) => format!("fileID {file_id} in this file"),
                (Some(g), Some(p)) => format!("fileID {file_id} in {} (guid {g})", p.display()),
                (Some(g), None) => format!("fileID {file_id} of guid {g} (asset not found)"),
            },
            ClipSource::Missing(why) => why.clone(),
        }
    }
}

/// A clip found in the workspace for a clip motion.
#[derive(Clone, Debug, PartialEq)]
pub struct ResolvedClip {
    pub name: String,
    /// Index of the file in the workspace.
    pub file: usize,
    pub path_id: i64,
    /// Clip start time in seconds.
    pub start: f32,
    /// Clip length in seconds (stop − start).
    pub length: f32,
    /// Loop Time.
    pub looping: bool,
    /// The clip's own cycle offset (applied to looping clips).
    pub cycle_offset: f32,
}

/// A leaf clip of a state or blend tree: where it is, and the clip once it is loaded.
#[derive(Clone, Debug, PartialEq)]
pub struct ClipMotion {
    pub source: ClipSource,
    /// Filled when the clip is loaded.
    pub resolved: Option<ResolvedClip>,
}

impl ClipMotion {
    /// A clip not resolved yet.
    pub fn new(source: ClipSource) -> ClipMotion {
        ClipMotion {
            source,
            resolved: None,
        }
    }
}

/// The blend tree types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlendKind {
    Simple1D,
    SimpleDirectional,
    FreeformDirectional,
    FreeformCartesian,
    Direct,
}

impl BlendKind {
    /// From `m_BlendType` / `m_BlendType` (YAML): 0 to 4.
    pub fn from_code(code: i64) -> Option<BlendKind> {
        Some(match code {
            0 => BlendKind::Simple1D,
            1 => BlendKind::SimpleDirectional,
            2 => BlendKind::FreeformDirectional,
            3 => BlendKind::FreeformCartesian,
            4 => BlendKind::Direct,
            _ => return None,
        })
    }

    /// The name in JSON output (`1d`, `simple_directional`, …).
    pub fn name(self) -> &'static str {
        match self {
            BlendKind::Simple1D => "1d",
            BlendKind::SimpleDirectional => "simple_directional",
            BlendKind::FreeformDirectional => "freeform_directional",
            BlendKind::FreeformCartesian => "freeform_cartesian",
            BlendKind::Direct => "direct",
        }
    }

    /// Whether the tree blends on two parameters (the three 2D types).
    pub fn is_2d(self) -> bool {
        matches!(
            self,
            BlendKind::SimpleDirectional
                | BlendKind::FreeformDirectional
                | BlendKind::FreeformCartesian
        )
    }
}

/// A blend tree: its type, parameters and children.
#[derive(Clone, Debug, PartialEq)]
pub struct BlendTree {
    pub name: String,
    pub kind: BlendKind,
    /// The x (or 1D) parameter; `None` when unused.
    pub parameter: Option<String>,
    pub parameter_y: Option<String>,
    /// Direct: weights divided by their sum.
    pub normalized: bool,
    pub children: Vec<BlendChild>,
}

/// One slot of a blend tree.
#[derive(Clone, Debug, PartialEq)]
pub struct BlendChild {
    pub motion: Option<Motion>,
    pub threshold: f32,
    pub position: [f32; 2],
    /// Playback speed of this slot (`1 / m_Duration` in built data).
    pub time_scale: f32,
    pub cycle_offset: f32,
    pub direct_parameter: Option<String>,
    pub mirror: bool,
}

impl BlendChild {
    /// The duration factor `d` of §3.7: `1/time_scale`, 100 when the scale is 0.
    pub fn duration_factor(&self) -> f64 {
        if self.time_scale == 0.0 {
            100.0
        } else {
            1.0 / self.time_scale as f64
        }
    }
}

impl Motion {
    /// Calls `f` on every clip motion in this motion, depth first.
    pub fn visit_clips_mut(&mut self, f: &mut dyn FnMut(&mut ClipMotion)) {
        match self {
            Motion::Clip(c) => f(c),
            Motion::BlendTree(tree) => {
                for child in &mut tree.children {
                    if let Some(m) = &mut child.motion {
                        m.visit_clips_mut(f);
                    }
                }
            }
        }
    }

    /// Calls `f` on every clip motion in this motion, depth first.
    pub fn visit_clips(&self, f: &mut dyn FnMut(&ClipMotion)) {
        match self {
            Motion::Clip(c) => f(c),
            Motion::BlendTree(tree) => {
                for m in tree.children.iter().filter_map(|c| c.motion.as_ref()) {
                    m.visit_clips(f);
                }
            }
        }
    }
}

impl StateMachine {
    /// Drops the spare room of this machine's lists and its sub-machines': a whole game's
    /// index holds thousands of machines, whose lists grew by doubling as they were built.
    pub fn shrink_to_fit(&mut self) {
        self.states.shrink_to_fit();
        self.any_state_transitions.shrink_to_fit();
        self.entry_transitions.shrink_to_fit();
        self.exit_transitions.shrink_to_fit();
        self.state_machines.shrink_to_fit();
        for m in &mut self.state_machines {
            m.shrink_to_fit();
        }
    }

    /// Every state of this machine and its sub-machines, depth first.
    pub fn all_states(&self) -> Vec<&State> {
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(m) = stack.pop() {
            out.extend(m.states.iter());
            stack.extend(m.state_machines.iter().rev());
        }
        out
    }

    /// Every state, mutably.
    pub fn visit_states_mut(&mut self, f: &mut dyn FnMut(&mut State)) {
        let mut stack = vec![self];
        while let Some(m) = stack.pop() {
            m.states.iter_mut().for_each(&mut *f);
            stack.extend(m.state_machines.iter_mut());
        }
    }

    /// This machine and every sub-machine, depth first in child order.
    pub fn all_machines(&self) -> Vec<&StateMachine> {
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(m) = stack.pop() {
            out.push(m);
            stack.extend(m.state_machines.iter().rev());
        }
        out
    }
}

impl Controller {
    /// Its name and warnings, without its parameters and layers: what a workspace opened
    /// for a list keeps ([`Detail::List`](crate::workspace::Detail::List)).
    pub fn summary(&self) -> Controller {
        Controller {
            name: self.name.clone(),
            parameters: Vec::new(),
            layers: Vec::new(),
            warnings: self.warnings.clone(),
        }
    }

    /// Its name, parameters and warnings, without its layers: what a workspace opened with
    /// [`OpenOptions::outline_controllers`](crate::OpenOptions::outline_controllers) keeps
    /// of a binary file's controller (the parameters name the curves that drive them).
    pub fn outline(self) -> Controller {
        Controller {
            layers: Vec::new(),
            ..self
        }
    }

    /// Calls `f` on every clip motion of every layer.
    pub fn visit_clips_mut(&mut self, f: &mut dyn FnMut(&mut ClipMotion)) {
        for layer in &mut self.layers {
            layer.state_machine.visit_states_mut(&mut |s| {
                if let Some(m) = &mut s.motion {
                    m.visit_clips_mut(f);
                }
            });
        }
    }
}
