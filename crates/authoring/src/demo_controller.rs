//! A small locomotion AnimatorController for the demo rig, written as a genuine built bundle
//! (Unity 2020.3: three Mecanim clips, the demo's hierarchy with an Animator, and class 91):
//! what the `bevy_animator` example plays and what the Animator tests run.
//!
//! Clips (generic, looping, dense curves at 30 Hz on the demo's joint paths): `Idle` (2 s,
//! breathing), `Walk` (1 s) and `Run` (0.6 s) swing legs and arms. Controller `Locomotion`:
//! a float `Speed` (default 0) and a trigger `Wave`; layer `Base Layer` with state `Idle`
//! and state `Move`, a 1D blend tree on `Speed` (`Walk` at 1, `Run` at 2). `Idle → Move`
//! when `Speed > 0.1`, `Move → Idle` when `Speed < 0.1`, each a 0.25 s crossfade; Any State
//! goes to `Wave` (the `Walk` clip at half speed) on the trigger, and `Wave` returns to `Idle`
//! at exit time 0.9 over 10 % of its length.

use std::collections::BTreeMap;
use std::f32::consts::TAU;

use rabex::objects::PPtr;

use crate::controller::*;
use crate::{
    AuthoringError, Binding, Bundle, ClipSpec, Dense, MecanimClip, RigComponent, RigSpec,
    UnityTarget,
};
use clipscope_core::hash::path_hash as h;

/// Sample rate of the clips.
const RATE: f32 = 30.0;

/// The animated joints (the demo rig's paths) with each one's Transform attribute
/// (1 position, 2 rotation).
const CHANNELS: [(&str, u32); 6] = [
    ("Hips", 1),
    ("Hips/Spine", 2),
    ("Hips/LeftUpperLeg", 2),
    ("Hips/RightUpperLeg", 2),
    ("Hips/Spine/Chest/LeftUpperArm", 2),
    ("Hips/Spine/Chest/RightUpperArm", 2),
];

/// How one clip moves: length, leg and arm swing (degrees about X), hips bob (metres),
/// spine lean (degrees about X).
struct Gait {
    name: &'static str,
    length: f32,
    legs: f32,
    arms: f32,
    bob: f32,
    lean: f32,
}

const GAITS: [Gait; 3] = [
    Gait {
        name: "Idle",
        length: 2.0,
        legs: 0.0,
        arms: 3.0,
        bob: 0.01,
        lean: 2.0,
    },
    Gait {
        name: "Walk",
        length: 1.0,
        legs: 25.0,
        arms: 20.0,
        bob: 0.02,
        lean: 4.0,
    },
    Gait {
        name: "Run",
        length: 0.6,
        legs: 45.0,
        arms: 40.0,
        bob: 0.05,
        lean: 12.0,
    },
];

/// The bytes of the bundle: clips `Idle`, `Walk`, `Run` (path ids 1 to 3), the demo rig
/// `Demo` with an Animator (its Animator does not name the controller: the controller is
/// the one whose clips play on it), and the controller `Locomotion` (the last path id).
pub fn locomotion_bytes() -> Result<Vec<u8>, AuthoringError> {
    write_rig_controller_bundle(&bundle(), &controller())
}

/// The clips and the demo rig, with an Animator.
fn bundle() -> Bundle {
    let mut bundle = Bundle::new(UnityTarget::Unity2020);
    bundle.clips = GAITS.iter().map(clip).collect();
    bundle.rig = Some(RigSpec {
        joints: crate::demo::rig_joints(),
        component: RigComponent::Animator,
        renderers: Vec::new(),
    });
    bundle
}

/// [`locomotion_bytes`] with override controllers after the controller: `overrides` is
/// given the controller's PPtr and returns them. The clips are `PPtr::local(1)` (`Idle`),
/// 2 (`Walk`) and 3 (`Run`).
pub fn with_overrides(
    overrides: impl Fn(PPtr) -> Vec<AnimatorOverrideController>,
) -> Result<Vec<u8>, AuthoringError> {
    let bundle = bundle();
    let base = PPtr::local(crate::next_free_path_id(&bundle));
    write_rig_controllers_bundle(&bundle, &controller(), &overrides(base))
}

/// A rotation of `degrees` about X as Unity's (x, y, z, w).
fn pitch(degrees: f32) -> [f32; 4] {
    let half = degrees.to_radians() / 2.0;
    [half.sin(), 0.0, 0.0, half.cos()]
}

/// One gait as a looping Mecanim clip with dense curves in [`CHANNELS`] order.
fn clip(g: &Gait) -> ClipSpec {
    let frames = (g.length * RATE).round() as usize + 1;
    let mut samples = Vec::new();
    for f in 0..frames {
        let phase = TAU * f as f32 / (frames - 1) as f32;
        let (s, c) = (phase.sin(), (2.0 * phase).cos());
        samples.extend([0.0, 0.95 - g.bob * c, 0.0]);
        samples.extend(pitch(-g.lean + g.arms * 0.1 * s));
        samples.extend(pitch(g.legs * s));
        samples.extend(pitch(-g.legs * s));
        samples.extend(pitch(-g.arms * s));
        samples.extend(pitch(g.arms * s));
    }
    let bindings: Vec<Binding> = CHANNELS
        .iter()
        .map(|&(path, attribute)| Binding::transform(h(path), attribute))
        .collect();
    let curve_count = CHANNELS
        .iter()
        .map(|&(_, a)| if a == 2 { 4 } else { 3 })
        .sum();
    ClipSpec::Mecanim(MecanimClip {
        name: g.name.into(),
        stop: g.length,
        sample_rate: RATE,
        loop_time: true,
        bindings,
        dense: Some(Dense {
            frame_count: frames as i32,
            curve_count,
            sample_rate: RATE,
            begin_time: 0.0,
            samples,
        }),
        ..MecanimClip::default()
    })
}

fn condition(mode: u32, parameter: &str, threshold: f32) -> Ptr<ConditionConstant> {
    ptr(ConditionConstant {
        m_ConditionMode: mode,
        m_EventID: h(parameter),
        m_EventThreshold: threshold,
        m_ExitTime: 0.0,
    })
}

/// A state of the base layer playing `nodes`.
fn state(name: &str, nodes: Vec<Ptr<BlendTreeNodeConstant>>) -> StateConstant {
    let full = format!("Base Layer.{name}");
    StateConstant {
        m_BlendTreeConstantIndexArray: vec![0],
        m_BlendTreeConstantArray: vec![ptr(BlendTreeConstant { m_NodeArray: nodes })],
        m_NameID: h(name),
        m_PathID: h(&full),
        m_FullPathID: h(&full),
        m_Speed: 1.0,
        m_WriteDefaultValues: true,
        m_Loop: true,
        ..StateConstant::default()
    }
}

/// The `Locomotion` controller over clips 0 `Idle`, 1 `Walk`, 2 `Run`.
fn controller() -> AnimatorController {
    let mut idle = state("Idle", vec![clip_leaf(0, 1.0)]);
    idle.m_TransitionConstantArray =
        vec![fixed_transition(1, 0.25, vec![condition(3, "Speed", 0.1)])];
    let blend = ptr(BlendTreeNodeConstant {
        m_BlendType: 0,
        m_BlendEventID: h("Speed"),
        m_BlendEventYID: u32::MAX,
        m_ChildIndices: vec![1, 2],
        m_Blend1dData: ptr(Blend1dDataConstant {
            m_ChildThresholdArray: vec![1.0, 2.0],
        }),
        m_ClipID: u32::MAX,
        ..BlendTreeNodeConstant::default()
    });
    let mut moving = state("Move", vec![blend, clip_leaf(1, 1.0), clip_leaf(2, 1.0)]);
    moving.m_TransitionConstantArray =
        vec![fixed_transition(0, 0.25, vec![condition(4, "Speed", 0.1)])];
    let mut wave = state("Wave", vec![clip_leaf(1, 1.0)]);
    wave.m_Speed = 0.5;
    let mut back = fixed_transition(0, 0.25, Vec::new());
    back.data.m_HasExitTime = true;
    back.data.m_ExitTime = 0.9;
    back.data.m_HasFixedDuration = false;
    back.data.m_TransitionDuration = 0.1;
    wave.m_TransitionConstantArray = vec![back];
    let mut to_wave = fixed_transition(2, 0.25, vec![condition(1, "Wave", 0.0)]);
    to_wave.data.m_CanTransitionToSelf = false;
    let entry = ptr(SelectorStateConstant {
        m_TransitionConstantArray: vec![ptr(SelectorTransitionConstant {
            m_Destination: 0,
            m_ConditionConstantArray: Vec::new(),
        })],
        m_FullPathID: h("Base Layer"),
        m_IsEntry: true,
    });
    let machine = StateMachineConstant {
        m_StateConstantArray: vec![ptr(idle), ptr(moving), ptr(wave)],
        m_AnyStateTransitionConstantArray: vec![to_wave],
        m_SelectorStateConstantArray: vec![entry],
        m_DefaultState: 0,
        m_SynchronizedLayerCount: 1,
    };
    let names = [
        "Base Layer",
        "Idle",
        "Move",
        "Wave",
        "Base Layer.Idle",
        "Base Layer.Move",
        "Base Layer.Wave",
        "Speed",
    ];
    AnimatorController {
        m_Name: "Locomotion".into(),
        m_ControllerSize: 0,
        m_Controller: ControllerConstant {
            m_LayerArray: vec![ptr(LayerConstant {
                m_Binding: h("Base Layer"),
                m_DefaultWeight: 1.0,
                ..LayerConstant::default()
            })],
            m_StateMachineArray: vec![ptr(machine)],
            m_Values: ptr(ValueArrayConstant {
                m_ValueArray: vec![
                    ValueConstant {
                        m_ID: h("Speed"),
                        m_Type: 1,
                        m_Index: 0,
                    },
                    ValueConstant {
                        m_ID: h("Wave"),
                        m_Type: 9,
                        m_Index: 0,
                    },
                ],
            }),
            m_DefaultValues: ptr(ValueArray {
                m_FloatValues: vec![0.0],
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
