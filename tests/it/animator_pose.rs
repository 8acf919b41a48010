//! Pose blending of a controller's layers on a rig, against closed forms: a bundle written
//! with the authoring module holds a three-joint rig, four clips and a built controller with
//! three layers: a 1D blend of two constant clips (positions and rotations), an Override layer
//! at weight 0.5 whose skeleton mask leaves a joint out, and an Additive layer.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use clipscope_authoring::controller::*;
use clipscope_authoring::{
    Binding, Bundle, ClipSpec, Dense, Joint, MecanimClip, RigComponent, RigSpec, UnityTarget,
};
use clipscope_core::animator::pose::PoseBlender;
use clipscope_core::animator::script;
use clipscope_core::workspace::ObjectRef;
use clipscope_core::{OpenOptions, Workspace, path_hash as h};
use rabex::objects::PPtr;
use serde_json::Value;

const S: f32 = std::f32::consts::FRAC_1_SQRT_2;

/// A looping clip of constant values for `bindings` (3 curves per position, 4 per rotation).
fn constant(name: &str, bindings: Vec<Binding>, values: Vec<f32>) -> ClipSpec {
    ClipSpec::Mecanim(MecanimClip {
        name: name.into(),
        stop: 1.0,
        loop_time: true,
        bindings,
        constants: values,
        ..MecanimClip::default()
    })
}

/// "Add": A's position y rising 2 per second over 2 s (dense, 1 Hz), x and z 0.
fn rising() -> ClipSpec {
    ClipSpec::Mecanim(MecanimClip {
        name: "Add".into(),
        stop: 2.0,
        loop_time: true,
        bindings: vec![Binding::transform(h("A"), 1)],
        dense: Some(Dense {
            frame_count: 3,
            curve_count: 3,
            sample_rate: 1.0,
            begin_time: 0.0,
            samples: vec![0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 4.0, 0.0],
        }),
        ..MecanimClip::default()
    })
}

/// A machine of one state playing `nodes` (node 0 the root).
fn machine(
    layer: &str,
    state: &str,
    nodes: Vec<Ptr<BlendTreeNodeConstant>>,
) -> StateMachineConstant {
    let path = format!("{layer}.{state}");
    let selector = |entry: bool, to: u32| {
        ptr(SelectorStateConstant {
            m_TransitionConstantArray: vec![ptr(SelectorTransitionConstant {
                m_Destination: to,
                m_ConditionConstantArray: Vec::new(),
            })],
            m_FullPathID: h(layer),
            m_IsEntry: entry,
        })
    };
    StateMachineConstant {
        m_StateConstantArray: vec![ptr(StateConstant {
            m_BlendTreeConstantIndexArray: vec![0],
            m_BlendTreeConstantArray: vec![ptr(BlendTreeConstant { m_NodeArray: nodes })],
            m_NameID: h(state),
            m_PathID: h(&path),
            m_FullPathID: h(&path),
            m_Speed: 1.0,
            m_WriteDefaultValues: true,
            m_Loop: true,
            ..StateConstant::default()
        })],
        m_SelectorStateConstantArray: vec![selector(true, 0), selector(false, 30000)],
        m_DefaultState: 0,
        m_SynchronizedLayerCount: 1,
        ..StateMachineConstant::default()
    }
}

fn controller() -> AnimatorController {
    let blend = ptr(BlendTreeNodeConstant {
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
    let layer = |name: &str, index: u32, mode: i32, weight: f32, mask: Vec<(&str, f32)>| {
        ptr(LayerConstant {
            m_StateMachineIndex: index,
            m_Binding: h(name),
            m_LayerBlendingMode: mode,
            m_DefaultWeight: weight,
            m_SkeletonMask: ptr(SkeletonMask {
                m_Data: mask
                    .into_iter()
                    .map(|(p, w)| SkeletonMaskElement {
                        m_PathHash: h(p),
                        m_Weight: w,
                    })
                    .collect(),
            }),
            ..LayerConstant::default()
        })
    };
    let names = [
        "Base Layer",
        "Upper",
        "Breath",
        "Move",
        "Hold",
        "Breathe",
        "Base Layer.Move",
        "Upper.Hold",
        "Breath.Breathe",
        "Speed",
        "",
        "A",
        "B",
    ];
    AnimatorController {
        m_Name: "Layers".into(),
        m_ControllerSize: 0,
        m_Controller: ControllerConstant {
            m_LayerArray: vec![
                layer("Base Layer", 0, 0, 1.0, Vec::new()),
                layer("Upper", 1, 0, 0.5, vec![("", 1.0), ("A", 1.0), ("B", 0.0)]),
                layer("Breath", 2, 1, 1.0, Vec::new()),
            ],
            m_StateMachineArray: vec![
                ptr(machine(
                    "Base Layer",
                    "Move",
                    vec![blend, clip_leaf(0, 1.0), clip_leaf(1, 1.0)],
                )),
                ptr(machine("Upper", "Hold", vec![clip_leaf(2, 1.0)])),
                ptr(machine("Breath", "Breathe", vec![clip_leaf(3, 1.0)])),
            ],
            m_Values: ptr(ValueArrayConstant {
                m_ValueArray: vec![ValueConstant {
                    m_ID: h("Speed"),
                    m_Type: 1,
                    m_Index: 0,
                }],
            }),
            m_DefaultValues: ptr(ValueArray {
                m_FloatValues: vec![0.0],
                ..ValueArray::default()
            }),
        },
        m_TOS: names
            .iter()
            .map(|n| (h(n), n.to_string()))
            .collect::<BTreeMap<_, _>>(),
        m_AnimationClips: (1..=4).map(PPtr::local).collect(),
        m_StateMachineBehaviourVectorDescription: BehaviourDescription::default(),
        m_StateMachineBehaviours: Vec::new(),
        m_MultiThreadedStateMachine: true,
    }
}

fn bundle_bytes() -> Vec<u8> {
    let pos_a = Binding::transform(h("A"), 1);
    let rot_a = Binding::transform(h("A"), 2);
    let mut bundle = Bundle::new(UnityTarget::Unity2020);
    bundle.clips = vec![
        constant("P0", vec![pos_a, rot_a], vec![0., 0., 0., 0., 0., 0., 1.]),
        constant("P1", vec![pos_a, rot_a], vec![4., 8., 0., 0., S, 0., S]),
        constant(
            "Over",
            vec![pos_a, Binding::transform(h("B"), 1)],
            vec![10., 0., 0., 0., 10., 0.],
        ),
        rising(),
    ];
    bundle.rig = Some(RigSpec {
        joints: vec![
            Joint::new("Root", None, [0.0; 3]),
            Joint::new("A", Some(0), [0.0, 0.0, 5.0]),
            Joint::new("B", Some(0), [0.0, 0.0, 1.0]),
        ],
        component: RigComponent::Animator,
        renderers: Vec::new(),
    });
    write_rig_controller_bundle(&bundle, &controller()).expect("writes")
}

fn open() -> Workspace {
    let ws = Workspace::open_bytes(
        Path::new("layers.bundle"),
        bundle_bytes(),
        &OpenOptions::default(),
    );
    assert!(ws.errors.is_empty(), "{:?}", ws.errors);
    ws
}

/// A's rotation: the 1D blend at 0.25 of identity and 90° about y, normalised.
fn blended_rotation() -> [f32; 4] {
    let (y, w) = (0.25 * S, 0.75 + 0.25 * S);
    let n = (y * y + w * w).sqrt();
    [0.0, y / n, 0.0, w / n]
}

fn close(a: &[f32], b: &[f32], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}");
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() < 1e-5, "{what}: {a:?} != {b:?}");
    }
}

/// Runs the controller (Speed 0.25) to `time` and blends every update on the rig.
fn pose_at(
    ws: &Workspace,
    edit: impl FnOnce(&mut clipscope_core::animator::Controller),
    time: f64,
) -> Vec<clipscope_core::humanoid::JointLocal> {
    let mut model = ws.controllers[0].model.clone().expect("decodes");
    edit(&mut model);
    let rig = &ws.rigs[0];
    let clip = |r: &clipscope_core::animator::model::ResolvedClip| {
        ws.clip(ObjectRef {
            file: r.file,
            path_id: r.path_id,
        })
        .and_then(|e| e.data.as_ref().ok())
    };
    let mut blender = PoseBlender::new(&model, &rig.skeleton, None, &clip);
    assert!(blender.warnings().is_empty(), "{:?}", blender.warnings());
    let actions = script::parse("0:Speed=0.25").unwrap();
    let mut latest = Vec::new();
    let mut observe = |step: script::Step<'_>| {
        if let script::Step::Update(layers) = step {
            latest = blender.blend(layers).to_vec();
        }
    };
    let (_, warnings) = script::run_observed(&model, &actions, 60.0, &[time], Some(&mut observe));
    assert!(warnings.is_empty(), "{warnings:?}");
    latest
}

#[test]
fn layers_blend_with_masks_and_additive_as_the_closed_forms_say() {
    let ws = open();
    let pose = pose_at(&ws, |_| {}, 0.5);
    // Root: untouched.
    close(&pose[0].t, &[0.0; 3], "root");
    // A: base 1D at 0.25 = (1, 2, 0); Override 0.5 toward (10, 0, 0) = (5.5, 1, 0); the
    // additive clip at 0.5 s adds 1 to y over its start value 0.
    close(&pose[1].t, &[5.5, 2.0, 0.0], "A position");
    close(&pose[1].q, &blended_rotation(), "A rotation");
    close(&pose[1].s, &[1.0; 3], "A scale");
    // B: only the Override layer animates it, and its mask gives B weight 0: rest.
    close(&pose[2].t, &[0.0, 0.0, 1.0], "B position");
}

#[test]
fn a_mask_that_lets_the_joint_in_blends_it_and_no_mask_is_every_joint() {
    let ws = open();
    let pose = pose_at(
        &ws,
        |c| {
            c.layers[1].mask[2].1 = 1.0;
        },
        0.5,
    );
    close(&pose[2].t, &[0.0, 5.0, 0.5], "B at half weight");
    let pose = pose_at(
        &ws,
        |c| {
            c.layers[1].mask.clear();
            c.layers[1].weight = 1.0;
            c.layers[2].weight = 0.5;
        },
        0.5,
    );
    close(&pose[2].t, &[0.0, 10.0, 0.0], "B at full weight");
    // A: the Override layer alone, then half the additive rise.
    close(&pose[1].t, &[10.0, 0.5, 0.0], "A");
}

/// Layer "Upper" at weight 1, unmasked, playing "Over" through a Direct tree on Speed
/// (raw weight 0.25, so 0.75 is left to the fallback); the additive layer off.
fn direct_quarter(c: &mut clipscope_core::animator::Controller, write_defaults: bool) {
    use clipscope_core::animator::model::{BlendChild, BlendKind, BlendTree, Motion};
    c.layers[1].mask.clear();
    c.layers[1].weight = 1.0;
    c.layers[2].weight = 0.0;
    let s = &mut c.layers[1].state_machine.states[0];
    s.write_defaults = write_defaults;
    let clip = s.motion.take();
    s.motion = Some(Motion::BlendTree(BlendTree {
        name: "Direct".into(),
        kind: BlendKind::Direct,
        parameter: None,
        parameter_y: None,
        normalized: false,
        children: vec![BlendChild {
            motion: clip,
            threshold: 0.0,
            position: [0.0, 0.0],
            time_scale: 1.0,
            cycle_offset: 0.0,
            direct_parameter: Some("Speed".into()),
            mirror: false,
        }],
    }));
}

#[test]
fn the_weight_left_over_goes_to_rest_or_to_the_pose_below() {
    let ws = open();
    // Write Defaults: 0.25 of (10, 0, 0) and 0.75 of A's rest (0, 0, 5).
    let pose = pose_at(&ws, |c| direct_quarter(c, true), 0.5);
    close(&pose[1].t, &[2.5, 0.0, 3.75], "A toward rest");
    close(&pose[2].t, &[0.0, 2.5, 0.75], "B toward rest");
    // Without: 0.75 of the base layer's (1, 2, 0); B, which no layer below moves, its rest.
    let pose = pose_at(&ws, |c| direct_quarter(c, false), 0.5);
    close(&pose[1].t, &[3.25, 1.5, 0.0], "A toward the base layer");
    close(&pose[2].t, &[0.0, 2.5, 0.75], "B toward its rest below");
    // The base layer's own rotation shows through where the layer does not animate it.
    close(&pose[1].q, &blended_rotation(), "A rotation");
}

fn temp_bundle(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("clipscope-animpose-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("layers.bundle");
    std::fs::write(&path, bundle_bytes()).unwrap();
    path
}

#[test]
fn animate_with_a_rig_prints_every_joint_per_time() {
    let path = temp_bundle("cli");
    let file = path.to_str().unwrap();
    let (code, out, err) = common::clipscope(&[
        "animate",
        file,
        "--controller",
        "Layers",
        "--rig",
        "Root",
        "--script",
        "0:Speed=0.25",
        "--times",
        "0,0.5",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let frames: Value = serde_json::from_str(&out).expect("JSON");
    let frame = &frames[1];
    assert_eq!(frame["time"], 0.5);
    let joints = frame["joints"].as_array().expect("joints");
    let paths: Vec<&str> = joints.iter().map(|j| j["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["", "A", "B"]);
    let row = |j: usize, key: &str| -> Vec<f32> {
        joints[j][key]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap() as f32)
            .collect()
    };
    let q = blended_rotation();
    close(
        &row(1, "local"),
        &[5.5, 2.0, 0.0, q[0], q[1], q[2], q[3], 1.0, 1.0, 1.0],
        "A local",
    );
    // The root is the identity, so A's rig-space transform is its local one.
    close(&row(1, "world"), &row(1, "local"), "A world");
    close(&row(2, "local")[..3], &[0.0, 0.0, 1.0], "B local");
    // At 0 s (no update yet) the additive clip sits at its start: A.y is 1.
    let a0: Vec<f64> = frames[0]["joints"][1]["local"].as_array().unwrap()[..3]
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert!(
        (a0[0] - 5.5).abs() < 1e-5 && (a0[1] - 1.0).abs() < 1e-5,
        "{a0:?}"
    );
    // An unknown rig is a usage error that lists the rigs.
    let (code, _, err) = common::clipscope(&[
        "animate",
        file,
        "--controller",
        "Layers",
        "--rig",
        "Nope",
        "--json",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("Root (path id"), "{err}");
    std::fs::remove_dir_all(path.parent().unwrap()).ok();
}
