//! Built controllers (2020.3 layout) for the animator's edge cases that no shared file
//! holds in isolation: a sub-machine whose Exit has no stored transition, a state whose
//! blend tree has no children, a transition interrupted by another (a crossfade over a
//! crossfade), and an Any State transition to the state that is already current, with and
//! without can-transition-to-self. One layer, "Base Layer"; clips are `m_AnimationClips`
//! 0, 1, … at path ids 1, 2, … (write them with [`write_controller_bundle`]).
//!
//! [`write_controller_bundle`]: super::controller::write_controller_bundle

use std::collections::BTreeMap;

use rabex::objects::PPtr;

use super::controller::*;
use clipscope_core::hash::path_hash as h;

const LAYER: &str = "Base Layer";

/// A state of the root machine (or of `parent`, a sub-machine's short name, with
/// `full` its full path) playing clip `clip` (`None`: no motion).
fn state(full: &str, parent: &str, clip: Option<u32>) -> StateConstant {
    let short = full.rsplit('.').next().unwrap_or(full);
    let (index, trees) = match clip {
        Some(c) => (
            0,
            vec![ptr(BlendTreeConstant {
                m_NodeArray: vec![clip_leaf(c, 1.0)],
            })],
        ),
        None => (-1, Vec::new()),
    };
    StateConstant {
        m_BlendTreeConstantIndexArray: vec![index],
        m_BlendTreeConstantArray: trees,
        m_NameID: h(short),
        m_PathID: h(&format!("{parent}.{short}")),
        m_FullPathID: h(full),
        m_Speed: 1.0,
        m_WriteDefaultValues: true,
        m_Loop: true,
        ..StateConstant::default()
    }
}

/// A trigger condition (If) on `name`.
fn trigger(name: &str) -> Ptr<ConditionConstant> {
    ptr(ConditionConstant {
        m_ConditionMode: 1,
        m_EventID: h(name),
        m_EventThreshold: 0.0,
        m_ExitTime: 0.0,
    })
}

/// A selector (Entry or Exit) of `machine` with unconditional transitions to `to`.
fn selector(machine: &str, entry: bool, to: &[u32]) -> Ptr<SelectorStateConstant> {
    ptr(SelectorStateConstant {
        m_TransitionConstantArray: to
            .iter()
            .map(|&d| {
                ptr(SelectorTransitionConstant {
                    m_Destination: d,
                    m_ConditionConstantArray: Vec::new(),
                })
            })
            .collect(),
        m_FullPathID: h(machine),
        m_IsEntry: entry,
    })
}

/// The controller around one machine: `params` its parameters (name, `m_Type`: 1 float,
/// 9 trigger; defaults 0/false), `names` (with the layer's) its string table, `clips` its
/// `m_AnimationClips` count.
fn controller(
    name: &str,
    machine: StateMachineConstant,
    params: &[(&str, u32)],
    names: &[&str],
    clips: i64,
) -> AnimatorController {
    let mut defaults = ValueArray::default();
    let values = params
        .iter()
        .map(|&(p, kind)| {
            let index = if kind == 1 {
                defaults.m_FloatValues.push(0.0);
                defaults.m_FloatValues.len() - 1
            } else {
                defaults.m_BoolValues.push(false);
                defaults.m_BoolValues.len() - 1
            };
            ValueConstant {
                m_ID: h(p),
                m_Type: kind,
                m_Index: index as u32,
            }
        })
        .collect();
    let tos = names
        .iter()
        .copied()
        .chain(params.iter().map(|&(p, _)| p))
        .chain([LAYER])
        .map(|n| (h(n), n.to_string()))
        .collect::<BTreeMap<_, _>>();
    AnimatorController {
        m_Name: name.into(),
        m_ControllerSize: 0,
        m_Controller: ControllerConstant {
            m_LayerArray: vec![ptr(LayerConstant {
                m_Binding: h(LAYER),
                m_DefaultWeight: 1.0,
                ..LayerConstant::default()
            })],
            m_StateMachineArray: vec![ptr(machine)],
            m_Values: ptr(ValueArrayConstant {
                m_ValueArray: values,
            }),
            m_DefaultValues: ptr(defaults),
        },
        m_TOS: tos,
        m_AnimationClips: (1..=clips).map(PPtr::local).collect(),
        m_StateMachineBehaviourVectorDescription: BehaviourDescription::default(),
        m_StateMachineBehaviours: Vec::new(),
        m_MultiThreadedStateMachine: true,
    }
}

/// "Base Layer.Idle" (clip 0) goes into sub-machine "Base Layer.Sub" on trigger `Go`; its
/// state "Inner" (clip 1) leaves through the Exit at exit time 0.5. The parent stores no
/// transition for the Exit, so the Exit selector holds only what Unity's compiler adds: one
/// unconditional transition to the parent's default state (Idle).
pub fn exit_free_sub_machine() -> AnimatorController {
    let mut idle = state("Base Layer.Idle", LAYER, Some(0));
    idle.m_TransitionConstantArray = vec![fixed_transition(30001, 0.0, vec![trigger("Go")])];
    let mut inner = state("Base Layer.Sub.Inner", "Sub", Some(1));
    let mut leave = fixed_transition(30003, 0.0, Vec::new());
    leave.data.m_HasExitTime = true;
    leave.data.m_ExitTime = 0.5;
    inner.m_TransitionConstantArray = vec![leave];
    let machine = StateMachineConstant {
        m_StateConstantArray: vec![ptr(idle), ptr(inner)],
        m_SelectorStateConstantArray: vec![
            selector(LAYER, true, &[0]),
            selector("Base Layer.Sub", true, &[1]),
            selector(LAYER, false, &[30000]),
            selector("Base Layer.Sub", false, &[0]),
        ],
        m_SynchronizedLayerCount: 1,
        ..StateMachineConstant::default()
    };
    let names = [
        "Idle",
        "Inner",
        "Base Layer.Idle",
        "Base Layer.Sub.Inner",
        "Base Layer.Sub",
        "Sub.Inner",
    ];
    controller("ExitFree", machine, &[("Go", 9)], &names, 2)
}

/// "Base Layer.Empty": a blend tree (1D on `Blend`) with no children; "Base Layer.Nothing":
/// no motion at all.
pub fn empty_blend_tree_state() -> AnimatorController {
    let mut empty = state("Base Layer.Empty", LAYER, None);
    empty.m_BlendTreeConstantIndexArray = vec![0];
    empty.m_BlendTreeConstantArray = vec![ptr(BlendTreeConstant {
        m_NodeArray: vec![ptr(BlendTreeNodeConstant {
            m_BlendType: 0,
            m_BlendEventID: h("Blend"),
            m_BlendEventYID: u32::MAX,
            m_ClipID: u32::MAX,
            ..BlendTreeNodeConstant::default()
        })],
    })];
    let nothing = state("Base Layer.Nothing", LAYER, None);
    let machine = StateMachineConstant {
        m_StateConstantArray: vec![ptr(empty), ptr(nothing)],
        m_SelectorStateConstantArray: vec![
            selector(LAYER, true, &[0]),
            selector(LAYER, false, &[30000]),
        ],
        m_SynchronizedLayerCount: 1,
        ..StateMachineConstant::default()
    };
    let names = ["Empty", "Nothing", "Base Layer.Empty", "Base Layer.Nothing"];
    controller("EmptyTree", machine, &[("Blend", 1)], &names, 0)
}

/// "A" (clip 0, 1 s) → "B" (clip 1, 2 s) on trigger `Go`, 0.5 s, interruptible by the
/// destination's transitions; "B" → "C" (clip 0) on trigger `Again`, 0.5 s: `Again` while
/// A → B runs freezes the A/B blend and crossfades it into C.
pub fn crossfade_over_crossfade() -> AnimatorController {
    let mut a = state("Base Layer.A", LAYER, Some(0));
    let mut go = fixed_transition(1, 0.5, vec![trigger("Go")]);
    go.data.m_InterruptionSource = 2;
    a.m_TransitionConstantArray = vec![go];
    let mut b = state("Base Layer.B", LAYER, Some(1));
    b.m_TransitionConstantArray = vec![fixed_transition(2, 0.5, vec![trigger("Again")])];
    let c = state("Base Layer.C", LAYER, Some(0));
    let machine = StateMachineConstant {
        m_StateConstantArray: vec![ptr(a), ptr(b), ptr(c)],
        m_SelectorStateConstantArray: vec![
            selector(LAYER, true, &[0]),
            selector(LAYER, false, &[30000]),
        ],
        m_SynchronizedLayerCount: 1,
        ..StateMachineConstant::default()
    };
    let names = [
        "A",
        "B",
        "C",
        "Base Layer.A",
        "Base Layer.B",
        "Base Layer.C",
    ];
    controller("Crossfades", machine, &[("Go", 9), ("Again", 9)], &names, 2)
}

/// "A" (clip 0, the default) and "B" (clip 1); an Any State transition to A on trigger
/// `Hit` (0.25 s) with `m_CanTransitionToSelf` = `to_self`: while A is current, `Hit`
/// restarts A only when `to_self` is set.
pub fn any_state_to_current(to_self: bool) -> AnimatorController {
    let a = state("Base Layer.A", LAYER, Some(0));
    let b = state("Base Layer.B", LAYER, Some(1));
    let mut any = fixed_transition(0, 0.25, vec![trigger("Hit")]);
    any.data.m_CanTransitionToSelf = to_self;
    let machine = StateMachineConstant {
        m_StateConstantArray: vec![ptr(a), ptr(b)],
        m_AnyStateTransitionConstantArray: vec![any],
        m_SelectorStateConstantArray: vec![
            selector(LAYER, true, &[0]),
            selector(LAYER, false, &[30000]),
        ],
        m_SynchronizedLayerCount: 1,
        ..StateMachineConstant::default()
    };
    let names = ["A", "B", "Base Layer.A", "Base Layer.B"];
    controller("AnyToSelf", machine, &[("Hit", 9)], &names, 2)
}
