//! A built controller written byte by byte (2020.3 layout, with a nested 1D/Freeform
//! Cartesian blend tree, a sub-machine with its Entry and Exit selector states and an Any
//! State transition) decodes into the model, and plays.

use std::collections::BTreeMap;
use std::path::Path;

use clipscope_authoring::controller::*;
use clipscope_authoring::{ClipSpec, MecanimClip};
use clipscope_core::animator::model::*;
use clipscope_core::animator::script;
use clipscope_core::{OpenOptions, Workspace, path_hash as h};
use rabex::objects::PPtr;

fn clip(name: &str, stop: f32) -> ClipSpec {
    ClipSpec::Mecanim(MecanimClip {
        name: name.into(),
        stop,
        loop_time: true,
        ..MecanimClip::default()
    })
}

fn cond(mode: u32, name: &str, threshold: f32) -> Ptr<ConditionConstant> {
    ptr(ConditionConstant {
        m_ConditionMode: mode,
        m_EventID: h(name),
        m_EventThreshold: threshold,
        m_ExitTime: 0.0,
    })
}

fn state(path: &str, short: &str, parent: &str) -> StateConstant {
    StateConstant {
        m_BlendTreeConstantIndexArray: vec![-1],
        m_NameID: h(short),
        m_PathID: h(&format!("{parent}.{short}")),
        m_FullPathID: h(path),
        m_Speed: 1.0,
        m_WriteDefaultValues: true,
        m_Loop: true,
        ..StateConstant::default()
    }
}

fn selector(
    machine: &str,
    entry: bool,
    to: Vec<(u32, Vec<Ptr<ConditionConstant>>)>,
) -> Ptr<SelectorStateConstant> {
    ptr(SelectorStateConstant {
        m_TransitionConstantArray: to
            .into_iter()
            .map(|(d, c)| {
                ptr(SelectorTransitionConstant {
                    m_Destination: d,
                    m_ConditionConstantArray: c,
                })
            })
            .collect(),
        m_FullPathID: h(machine),
        m_IsEntry: entry,
    })
}

fn fixture() -> AnimatorController {
    let mut idle = state("Base Layer.Idle", "Idle", "Base Layer");
    idle.m_BlendTreeConstantIndexArray = vec![0, -1];
    idle.m_BlendTreeConstantArray = vec![ptr(BlendTreeConstant {
        m_NodeArray: vec![clip_leaf(0, 1.0)],
    })];
    let mut to_move = fixed_transition(1, 0.25, vec![cond(3, "Speed", 0.1)]);
    to_move.data.m_HasFixedDuration = false;
    to_move.data.m_InterruptionSource = 2;
    idle.m_TransitionConstantArray = vec![to_move];

    let mut moving = state("Base Layer.Move", "Move", "Base Layer");
    moving.m_BlendTreeConstantIndexArray = vec![0, 0];
    let root = ptr(BlendTreeNodeConstant {
        m_BlendType: 0,
        m_BlendEventID: h("Speed"),
        m_BlendEventYID: u32::MAX,
        m_ChildIndices: vec![1, 2],
        m_Blend1dData: ptr(Blend1dDataConstant {
            m_ChildThresholdArray: vec![0.0, 1.0],
        }),
        m_ClipID: u32::MAX,
        ..BlendTreeNodeConstant::default()
    });
    let cartesian = ptr(BlendTreeNodeConstant {
        m_BlendType: 3,
        m_BlendEventID: h("Speed"),
        m_BlendEventYID: h("Dir"),
        m_ChildIndices: vec![3, 4],
        m_Blend2dData: ptr(Blend2dDataConstant {
            m_ChildPositionArray: vec![Vector2f { x: 0.0, y: 0.0 }, Vector2f { x: 1.0, y: 0.0 }],
            ..Blend2dDataConstant::default()
        }),
        m_ClipID: u32::MAX,
        ..BlendTreeNodeConstant::default()
    });
    let mut run = clip_leaf(2, 0.8);
    run.data.m_CycleOffset = 0.5;
    run.data.m_Mirror = true;
    moving.m_BlendTreeConstantArray = vec![ptr(BlendTreeConstant {
        m_NodeArray: vec![root, clip_leaf(1, 1.0), cartesian, run, clip_leaf(1, 1.0)],
    })];
    moving.m_TransitionConstantArray =
        vec![fixed_transition(30001, 0.25, vec![cond(1, "Jump", 0.0)])];

    let mut jump = state("Base Layer.Air.Jump", "Jump", "Air");
    jump.m_BlendTreeConstantIndexArray = vec![-1, -1];
    let mut leave = fixed_transition(30003, 0.25, Vec::new());
    leave.data.m_HasExitTime = true;
    leave.data.m_ExitTime = 0.9;
    jump.m_TransitionConstantArray = vec![leave];

    let mut any = fixed_transition(0, 0.25, vec![cond(4, "Speed", 0.01)]);
    any.data.m_CanTransitionToSelf = false;

    let machine = StateMachineConstant {
        m_StateConstantArray: vec![ptr(idle), ptr(moving), ptr(jump)],
        m_AnyStateTransitionConstantArray: vec![any],
        m_SelectorStateConstantArray: vec![
            selector("Base Layer", true, vec![(0, Vec::new())]),
            selector("Base Layer.Air", true, vec![(2, Vec::new())]),
            selector("Base Layer", false, vec![(30000, Vec::new())]),
            selector(
                "Base Layer.Air",
                false,
                vec![(1, vec![cond(3, "Speed", 0.5)]), (0, Vec::new())],
            ),
        ],
        m_DefaultState: 0,
        m_SynchronizedLayerCount: 2,
    };
    let names = [
        "Base Layer",
        "Upper",
        "Idle",
        "Move",
        "Jump",
        "Base Layer.Idle",
        "Base Layer.Move",
        "Base Layer.Air.Jump",
        "Air.Jump",
        "Base Layer.Air",
        "Speed",
        "Dir",
        "Jump",
    ];
    AnimatorController {
        m_Name: "Fixture".into(),
        m_ControllerSize: 0,
        m_Controller: ControllerConstant {
            m_LayerArray: vec![
                ptr(LayerConstant {
                    m_Binding: h("Base Layer"),
                    m_DefaultWeight: 1.0,
                    ..LayerConstant::default()
                }),
                ptr(LayerConstant {
                    m_StateMachineSynchronizedLayerIndex: 1,
                    m_Binding: h("Upper"),
                    m_LayerBlendingMode: 1,
                    m_DefaultWeight: 0.5,
                    ..LayerConstant::default()
                }),
            ],
            m_StateMachineArray: vec![ptr(machine)],
            m_Values: ptr(ValueArrayConstant {
                m_ValueArray: vec![
                    ValueConstant {
                        m_ID: h("Speed"),
                        m_Type: 1,
                        m_Index: 0,
                    },
                    ValueConstant {
                        m_ID: h("Dir"),
                        m_Type: 1,
                        m_Index: 1,
                    },
                    ValueConstant {
                        m_ID: h("Jump"),
                        m_Type: 9,
                        m_Index: 0,
                    },
                ],
            }),
            m_DefaultValues: ptr(ValueArray {
                m_FloatValues: vec![0.5, 0.0],
                m_BoolValues: vec![false],
                ..ValueArray::default()
            }),
        },
        m_TOS: names
            .iter()
            .map(|n| (h(n), n.to_string()))
            .collect::<BTreeMap<_, _>>(),
        m_AnimationClips: (1..=3).map(PPtr::local).collect(),
        m_StateMachineBehaviourVectorDescription: BehaviourDescription::default(),
        m_StateMachineBehaviours: Vec::new(),
        m_MultiThreadedStateMachine: true,
    }
}

fn open() -> Workspace {
    let clips = [clip("Idle", 2.0), clip("Walk", 1.0), clip("Run", 0.8)];
    let bytes = write_controller_bundle(&clips, &fixture()).expect("writes");
    let ws = Workspace::open_bytes(Path::new("fixture.bundle"), bytes, &OpenOptions::default());
    assert!(ws.errors.is_empty(), "{:?}", ws.errors);
    ws
}

#[test]
fn built_fixture_decodes_machines_selectors_and_nested_trees() {
    let ws = open();
    let c = ws.controllers[0].model.as_ref().expect("decodes");
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    let params: Vec<(&str, ParameterKind, f64)> = c
        .parameters
        .iter()
        .map(|p| (p.name.as_str(), p.kind, p.default))
        .collect();
    assert_eq!(
        params,
        [
            ("Speed", ParameterKind::Float, 0.5),
            ("Dir", ParameterKind::Float, 0.0),
            ("Jump", ParameterKind::Trigger, 0.0)
        ]
    );
    let root = &c.layers[0].state_machine;
    assert_eq!(root.default_state.as_deref(), Some("Base Layer.Idle"));
    let names: Vec<&str> = root.states.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Idle", "Move"]);
    let air = &root.state_machines[0];
    assert_eq!(
        (air.name.as_str(), air.path.as_str()),
        ("Air", "Base Layer.Air")
    );
    assert_eq!(air.default_state.as_deref(), Some("Base Layer.Air.Jump"));
    assert!(air.entry_transitions.is_empty());
    let exits: Vec<&Destination> = air
        .exit_transitions
        .iter()
        .map(|t| &t.destination)
        .collect();
    assert_eq!(
        exits,
        [
            &Destination::State("Base Layer.Move".into()),
            &Destination::State("Base Layer.Idle".into())
        ]
    );
    assert_eq!(
        air.states[0].transitions[0].destination,
        Destination::Exit("Base Layer.Air".into())
    );
    assert_eq!(
        root.states[1].transitions[0].destination,
        Destination::Machine("Base Layer.Air".into())
    );
    let any = &root.any_state_transitions[0];
    assert!(!any.can_transition_to_self);
    assert_eq!(any.conditions[0].mode, ConditionMode::Less);
    let idle_move = &root.states[0].transitions[0];
    assert!(!idle_move.fixed_duration);
    assert_eq!(idle_move.interruption, Interruption::Destination);
    let Some(Motion::BlendTree(tree)) = &root.states[1].motion else {
        panic!("Move plays a blend tree")
    };
    assert_eq!(
        (tree.kind, tree.parameter.as_deref()),
        (BlendKind::Simple1D, Some("Speed"))
    );
    let thresholds: Vec<f32> = tree.children.iter().map(|c| c.threshold).collect();
    assert_eq!(thresholds, [0.0, 1.0]);
    let Some(Motion::BlendTree(inner)) = &tree.children[1].motion else {
        panic!("a nested tree")
    };
    assert_eq!(inner.kind, BlendKind::FreeformCartesian);
    assert_eq!(inner.parameter_y.as_deref(), Some("Dir"));
    assert_eq!(inner.children[1].position, [1.0, 0.0]);
    let run = &inner.children[0];
    assert_eq!(
        (run.time_scale, run.cycle_offset, run.mirror),
        (1.25, 0.5, true)
    );
    let Some(Motion::Clip(run_clip)) = &run.motion else {
        panic!("a clip")
    };
    assert_eq!(run_clip.resolved.as_ref().unwrap().name, "Run");
    assert!(root.states[0].motion.is_some() && air.states[0].motion.is_none());
    // The synced, additive layer: the same machine with motion set 1.
    let upper = &c.layers[1];
    assert_eq!(
        (upper.name.as_str(), upper.blending, upper.weight),
        ("Upper", Blending::Additive, 0.5)
    );
    assert_eq!(upper.synced_layer, Some(0));
    let states = upper.state_machine.all_states();
    let paths: Vec<&str> = states.iter().map(|s| s.full_path.as_str()).collect();
    assert_eq!(
        paths,
        ["Base Layer.Idle", "Base Layer.Move", "Base Layer.Air.Jump"]
    );
    assert!(states[0].motion.is_none() && states[1].motion.is_some());
    assert_eq!(c.layers[0].blending, Blending::Override);
}

#[test]
fn built_fixture_plays_through_the_sub_machine() {
    let ws = open();
    let c = ws.controllers[0].model.as_ref().unwrap();
    let actions = script::parse("1:Jump!").unwrap();
    let (frames, warnings) = script::run(c, &actions, 60.0, &[1.0 / 60.0, 0.75, 1.0, 2.5]);
    assert!(warnings.is_empty(), "{warnings:?}");
    // Speed 0.5 > 0.1: Idle -> Move at once, normalised 0.25 of Idle's 2 s = 0.5 s.
    let t = frames[0].layers[0].transition.as_ref().unwrap();
    assert_eq!(
        (t.from.as_str(), t.to.as_str()),
        ("Base Layer.Idle", "Base Layer.Move")
    );
    assert!((t.duration - 0.5).abs() < 1e-6);
    // In Move: 1D (0.5, 0.5), the Cartesian subtree at (0.5, 0) halves its half.
    let s = &frames[1].layers[0].states[0];
    assert_eq!(s.path, "Base Layer.Move");
    let w: Vec<(Option<&str>, f64, bool)> = s
        .leaves
        .iter()
        .map(|l| (l.clip.as_deref(), l.weight, l.mirror))
        .collect();
    assert_eq!(
        w,
        [
            (Some("Walk"), 0.5, false),
            (Some("Run"), 0.25, true),
            (Some("Walk"), 0.25, false)
        ]
    );
    let length = 0.5 * 1.0 + 0.25 * 0.8 / 1.25 + 0.25 * 1.0;
    assert!((s.length - length).abs() < 1e-6, "{}", s.length);
    // Jump! at 1 s: Move -> Air's Entry -> Jump (0.25 s crossfade).
    let t = frames[2].layers[0].transition.as_ref().unwrap();
    assert_eq!(t.to, "Base Layer.Air.Jump");
    // Jump (no motion, 1 s) leaves at exit time 0.9 through Air's Exit: Speed 0.5 is not
    // > 0.5, so the parent's default state, Idle, then Idle -> Move again.
    let last = frames[3].layers[0]
        .transition
        .as_ref()
        .expect("a transition at 2.5 s");
    assert_eq!(
        (last.from.as_str(), last.to.as_str()),
        ("Base Layer.Idle", "Base Layer.Move")
    );
}

#[test]
fn hashes_without_names_print_as_hex() {
    let mut c = fixture();
    c.m_TOS.remove(&h("Dir"));
    c.m_TOS.remove(&h("Base Layer.Air.Jump"));
    let clips = [clip("Idle", 2.0), clip("Walk", 1.0), clip("Run", 0.8)];
    let bytes = write_controller_bundle(&clips, &c).expect("writes");
    let ws = Workspace::open_bytes(Path::new("fixture.bundle"), bytes, &OpenOptions::default());
    let c = ws.controllers[0].model.as_ref().expect("decodes");
    let dir = format!("0x{:08x}", h("Dir"));
    assert_eq!(c.parameters[1].name, dir);
    let root = &c.layers[0].state_machine;
    let Some(Motion::BlendTree(tree)) = &root.states[1].motion else {
        panic!("Move plays a blend tree")
    };
    let Some(Motion::BlendTree(inner)) = &tree.children[1].motion else {
        panic!("a nested tree")
    };
    assert_eq!(inner.parameter_y.as_deref(), Some(dir.as_str()));
    // The unnamed state keeps its short name and its hash as its path.
    let jump = format!("0x{:08x}", h("Base Layer.Air.Jump"));
    let all = root.all_states();
    let unnamed = all.iter().find(|s| s.name == "Jump").expect("still listed");
    assert_eq!(unnamed.full_path, jump);
}

#[test]
fn a_synced_layer_freezes_the_same_states_with_its_own_motions() {
    let ws = open();
    let c = ws.controllers[0].model.as_ref().unwrap();
    // Speed 0 keeps Idle; the second crossfade freezes the Idle/Move blend at p = 15/30.
    let actions = script::parse(
        "0:Speed=0;0.5:crossfade Base Layer.Move 0.5;0.75:crossfade Base Layer.Air.Jump 0.5",
    )
    .unwrap();
    let (frames, warnings) = script::run(c, &actions, 60.0, &[0.75]);
    assert!(warnings.is_empty(), "{warnings:?}");
    let clips = |layer: usize| -> Vec<(Option<String>, f64)> {
        let s = &frames[0].layers[layer].states[0];
        assert!(s.frozen, "{s:?}");
        assert_eq!(s.path, "Base Layer.Idle");
        assert!(
            (s.normalized_time - 44.0 / 120.0).abs() < 1e-9,
            "{}",
            s.normalized_time
        );
        s.leaves
            .iter()
            .map(|l| (l.clip.clone(), l.tree_weight))
            .collect()
    };
    // The base layer's frozen pose holds Idle's clip at 1 - p and Move's tree at p.
    let base = clips(0);
    assert_eq!(base[0].0.as_deref(), Some("Idle"));
    assert!((base[0].1 - 0.5).abs() < 1e-9, "{base:?}");
    // Upper (motion set 1) plays nothing in Idle and Move's tree: its frozen pose is
    // Move's leaves alone, each at the same weight as in the base layer.
    let upper = clips(1);
    assert_eq!(upper.len(), base.len() - 1, "{upper:?}");
    for (u, b) in upper.iter().zip(&base[1..]) {
        assert_eq!(u.0, b.0);
        assert!((u.1 - b.1).abs() < 1e-9, "{upper:?} {base:?}");
    }
}
