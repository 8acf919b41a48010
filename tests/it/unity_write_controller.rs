//! `.controller` and `.mask` writing (`yaml_write::write_controller`, `clipscope unity`):
//! every shared controller (built and text) written with the clips it plays, then read back
//! through clipscope's own text reader: the same model, motions resolved to the written clips
//! through their `.meta` guids, and the same JSON as the independent reference's models; a
//! fixture with what no shared controller holds (sub-machines, Entry and exit transitions,
//! every blend tree type, masks, a synced layer, hashes without names); the field order of
//! every written document against the shared text controllers.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use clipscope_authoring::controller::{
    AnimatorController, BehaviourDescription, ControllerConstant, LayerConstant, Ptr,
    StateConstant, StateMachineConstant, ptr, write_controller_bundle,
};
use clipscope_core::OpenOptions;
use clipscope_core::animator::mask::body_words;
use clipscope_core::animator::model::*;
use clipscope_core::animator::names::name_hash;
use clipscope_core::animator::text::read_controllers;
use clipscope_core::workspace::Workspace;
use clipscope_core::yaml::{GuidIndex, meta_guid};
use clipscope_core::yaml_write::controller_text::{ControllerRefs, controller_text};
use clipscope_core::yaml_write::guid::meta_text;
use clipscope_core::yaml_write::mask::mask_text;
use clipscope_core::yaml_write::{
    ANIM_FILE_ID, CONTROLLER_FILE_ID, MASK_FILE_ID, Measure, NameBook, TextRef, WriteOptions,
    object_guid, write_anim, write_controller,
};
use serde_json::Value;

/// Keys not compared with the reference models: those the reference test skips, and where
/// the written file lies and what it is numbered (a written clip is fileID 7400000 of its
/// `.anim`, the controller 9100000 of its `.controller`; a text file has no Unity version).
const NOT_COMPARED: &[&str] = &[
    "file",
    "warnings",
    "missing",
    "solo",
    "mute",
    "path_id",
    "unity_version",
];

/// A fresh temporary folder with an `Assets` folder inside (so `.meta` guids are looked up
/// through the whole of it, as in a project).
fn temp_assets(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("clipscope-ctrl-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let assets = dir.join("Assets");
    std::fs::create_dir_all(&assets).expect("temp folder");
    assets
}

fn remove(assets: &Path) {
    if let Some(dir) = assets.parent() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// The index's controllers: (label, path, name, expected model), the `setup` entry's
/// folder made as its text says.
fn reference_controllers(tag: &str) -> Option<Vec<(String, PathBuf, String, Value)>> {
    let dir = common::data("animator-reference")?;
    let data = dir.parent().expect("shared data").to_path_buf();
    let read = |p: &Path| -> Value {
        serde_json::from_str(&std::fs::read_to_string(p).expect("reads")).expect("JSON")
    };
    let index = read(&dir.join("index.json"));
    let mut out = Vec::new();
    for (i, entry) in index["controllers"]
        .as_array()
        .expect("controllers")
        .iter()
        .enumerate()
    {
        let mut path = data.join(entry["path"].as_str().expect("path"));
        if entry.get("setup").is_some() {
            path = meta_setup(&path, &format!("{tag}{i}"));
        }
        out.push((
            entry["label"].as_str().unwrap_or_default().to_string(),
            path,
            entry["name"].as_str().expect("name").to_string(),
            read(&dir.join(entry["expected"].as_str().expect("expected"))),
        ));
    }
    Some(out)
}

/// The README's setup: Cube.controller with its two clips and their `.meta` files, in a
/// folder named by `tag` alone, made afresh each run (so runs leave one behind, not one
/// each).
fn meta_setup(controller: &Path, tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("clipscope-ctrl-setup-{tag}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp folder");
    let from = controller.parent().expect("a folder");
    for name in ["Cube.controller", "Hop.anim", "TextureMove.anim"] {
        std::fs::copy(from.join(name), dir.join(name)).expect("copies");
    }
    for (name, guid) in [
        ("Hop.anim", "e217e1bf86a15d54a80b39e05ba74d82"),
        ("TextureMove.anim", "46b95b416612e44439fad1a12ed84155"),
    ] {
        let meta = format!(
            "fileFormatVersion: 2\nguid: {guid}\nNativeFormatImporter:\n  mainObjectFileID: 7400000\n"
        );
        write(&dir.join(format!("{name}.meta")), &meta);
    }
    dir.join("Cube.controller")
}

/// The model with what a text file cannot hold made comparable: no warnings, no stored
/// `m_Loop` (text files derive it from the clips), every clip motion replaced by what it
/// plays (the clip's name and timing when loaded, else the reference kept).
fn canonical(model: &Controller) -> Controller {
    let mut m = model.clone();
    m.warnings.clear();
    for layer in &mut m.layers {
        layer.mask_asset = None;
        layer
            .state_machine
            .visit_states_mut(&mut |s| s.stored_loop = None);
    }
    m.visit_clips_mut(&mut |c| {
        let key = match (&c.resolved, &c.source) {
            (Some(r), _) => format!(
                "clip {} start {} length {} looping {} offset {}",
                r.name, r.start, r.length, r.looping, r.cycle_offset
            ),
            (None, ClipSource::Text { guid, file_id, .. }) => {
                format!("missing {guid:?} {file_id}")
            }
            (None, other) => format!("missing {other:?}"),
        };
        *c = ClipMotion::new(ClipSource::Missing(key));
    });
    m
}

fn controller_index(ws: &Workspace, name: &str) -> usize {
    ws.controllers
        .iter()
        .position(|c| c.name == name)
        .unwrap_or_else(|| panic!("no controller {name}"))
}

/// Writes controller `index` of `ws` with its masks and clips into `dir`; the
/// `.controller` path and the report.
fn write_all(
    ws: &Workspace,
    index: usize,
    dir: &Path,
) -> (PathBuf, clipscope_core::yaml_write::ControllerText) {
    let c = write_controller(ws, index).expect("writes");
    for m in &c.masks {
        write(&dir.join(format!("{}.mask", m.name)), &m.text);
        write(
            &dir.join(format!("{}.mask.meta", m.name)),
            &meta_text(&m.guid, MASK_FILE_ID),
        );
    }
    let names = NameBook::build(ws);
    let options = WriteOptions {
        measure: Measure::Skip,
        ..WriteOptions::default()
    };
    for (k, &at) in c.clips.iter().enumerate() {
        let anim = write_anim(ws, &names, at, &options).expect("clip writes");
        let stem = format!("{} {k}", anim.name);
        write(&dir.join(format!("{stem}.anim")), &anim.text);
        write(
            &dir.join(format!("{stem}.anim.meta")),
            &meta_text(&anim.guid, ANIM_FILE_ID),
        );
    }
    let path = dir.join(format!("{}.controller", c.name));
    write(&path, &c.text);
    write(
        &dir.join(format!("{}.controller.meta", c.name)),
        &meta_text(&c.guid, CONTROLLER_FILE_ID),
    );
    (path, c)
}

#[test]
fn every_shared_controller_reads_back_to_the_same_model() {
    let Some(entries) = reference_controllers("model") else {
        return;
    };
    let mut checked = 0;
    for (label, path, name, _) in &entries {
        let ws = Workspace::open(std::slice::from_ref(path), &Default::default());
        let index = controller_index(&ws, name);
        let source = ws.controllers[index].model.as_ref().expect("decodes");
        let assets = temp_assets(&format!("model{checked}"));
        let (written, c) = write_all(&ws, index, &assets);
        // The text reader alone: the same model, the clips referenced by their written
        // guids.
        let text = std::fs::read_to_string(&written).expect("reads");
        let back = read_controllers(&written, &text, &GuidIndex::build(&assets));
        assert_eq!(back.len(), 1, "{label}");
        let back_model = back[0].1.as_ref().expect("the written controller reads");
        assert_eq!(back[0].0, CONTROLLER_FILE_ID);
        // Opened as a folder: the motions resolve to the written clips through their .meta.
        let ws2 = Workspace::open(std::slice::from_ref(&written), &Default::default());
        let opened = ws2.controllers[0].model.as_ref().expect("decodes");
        assert_eq!(
            canonical(opened),
            canonical(source),
            "{label}: the written controller, opened, differs from the source"
        );
        let mut loaded = BTreeSet::new();
        opened.layers.iter().for_each(|l| {
            for s in l.state_machine.all_states() {
                if let Some(m) = &s.motion {
                    m.visit_clips(&mut |c| {
                        if let Some(r) = &c.resolved {
                            let file = &ws2.files[r.file].source;
                            loaded.insert(meta_guid(file).expect("a .meta beside the clip"));
                        }
                    });
                }
            }
        });
        let expected: BTreeSet<String> = c.clips.iter().map(|&at| object_guid(&ws, at)).collect();
        assert_eq!(
            loaded, expected,
            "{label}: clips resolved through their guids"
        );
        // The reader alone gives the same model less the clips' resolution.
        let mut plain = canonical(back_model);
        let mut opened_plain = canonical(opened);
        for m in [&mut plain, &mut opened_plain] {
            m.visit_clips_mut(&mut |c| *c = ClipMotion::new(ClipSource::Missing(String::new())));
        }
        assert_eq!(plain, opened_plain, "{label}");
        let r = &c.report;
        eprintln!(
            "{label}: {} states, {} + {} transitions, {} trees, {} clips, names not found {:?}, missing {:?}",
            r.counts.states,
            r.counts.state_transitions,
            r.counts.transitions,
            r.counts.blend_trees,
            r.clips,
            r.names_not_found,
            r.missing_clips
        );
        assert_eq!(
            r.counts.states,
            source
                .layers
                .iter()
                .filter(|l| l.synced_layer.is_none())
                .map(|l| l.state_machine.all_states().len())
                .sum::<usize>(),
            "{label}"
        );
        remove(&assets);
        checked += 1;
    }
    if let Some((_, p, _, _)) = entries.last()
        && p.starts_with(std::env::temp_dir())
    {
        let _ = std::fs::remove_dir_all(p.parent().unwrap());
    }
    assert_eq!(checked, 10, "every controller of the reference index");
}

#[test]
fn written_controllers_agree_with_the_reference_models() {
    let Some(entries) = reference_controllers("cli") else {
        return;
    };
    let mut agree = 0;
    for (i, (label, path, name, expected)) in entries.iter().enumerate() {
        let assets = temp_assets(&format!("cli{i}"));
        let report = assets.parent().unwrap().join("report.json");
        let (code, _, err) = common::clipscope(&[
            "unity",
            path.to_str().unwrap(),
            "-o",
            assets.to_str().unwrap(),
            "--controller",
            name.as_str(),
            "--no-measure",
            "--report",
            report.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{label}: {err}");
        let report: Value =
            serde_json::from_str(&std::fs::read_to_string(&report).expect("report")).unwrap();
        let controllers = report["controllers"].as_array().expect("controllers");
        assert_eq!(controllers.len(), 1, "{label}: {report}");
        let written = controllers[0]["written"]
            .as_str()
            .expect("written")
            .to_string();
        assert_eq!(
            controllers[0]["clips"].as_u64().unwrap() as usize,
            report["clips"].as_array().unwrap().len(),
            "{label}: the controller brings the clips it plays"
        );
        let (code, out, err) = common::clipscope(&[
            "controller",
            written.as_str(),
            "--name",
            name.as_str(),
            "--json",
        ]);
        assert_eq!(code, 0, "{label}: {err}");
        let ours: Value = serde_json::from_str(&out).expect("JSON");
        let mut found = Vec::new();
        common::reference::compare("", "", expected, &ours[0], NOT_COMPARED, &mut found);
        if found.is_empty() {
            agree += 1;
        } else {
            eprintln!("{label}: {} mismatches", found.len());
            for m in &found {
                eprintln!("  {m}");
            }
        }
        remove(&assets);
    }
    assert_eq!(
        agree,
        entries.len(),
        "written models that agree (mismatches above)"
    );
}

fn clip(guid: &str) -> Option<Motion> {
    Some(Motion::Clip(ClipMotion::new(ClipSource::Text {
        guid: Some(guid.to_string()),
        file_id: ANIM_FILE_ID,
        resolved_path: None,
    })))
}

fn child(motion: Option<Motion>, threshold: f32, position: [f32; 2]) -> BlendChild {
    BlendChild {
        motion,
        threshold,
        position,
        time_scale: 1.0,
        cycle_offset: 0.0,
        direct_parameter: None,
        mirror: false,
    }
}

fn state(machine: &str, name: &str, motion: Option<Motion>) -> State {
    State {
        name: name.into(),
        full_path: format!("{machine}.{name}"),
        motion,
        ..State::default()
    }
}

fn cond(mode: ConditionMode, parameter: &str, threshold: f32) -> Condition {
    Condition {
        mode,
        parameter: parameter.into(),
        threshold,
    }
}

/// A controller with what no shared one holds, following the text reader's conventions
/// (paths by machine, Entry and exit transitions unconditional in timing).
fn fixture() -> Controller {
    let walk = "11111111111111111111111111111111";
    let run = "22222222222222222222222222222222";
    let nested = BlendTree {
        name: "Speeds".into(),
        kind: BlendKind::Simple1D,
        parameter: Some("Speed".into()),
        parameter_y: None,
        normalized: false,
        children: vec![child(clip(walk), 0.5, [0.0, 0.0]), {
            let mut c = child(clip(run), 2.0, [0.0, 0.0]);
            c.time_scale = 0.75;
            c.cycle_offset = 0.25;
            c.mirror = true;
            c
        }],
    };
    let direct = BlendTree {
        name: "Faces".into(),
        kind: BlendKind::Direct,
        parameter: None,
        parameter_y: None,
        normalized: true,
        children: vec![
            BlendChild {
                direct_parameter: Some("Speed".into()),
                ..child(clip(walk), 0.0, [0.0, 0.0])
            },
            BlendChild {
                direct_parameter: Some("0x00c0ffee".into()),
                ..child(None, 0.0, [0.0, 0.0])
            },
        ],
    };
    let mut trees = Vec::new();
    for kind in [
        BlendKind::SimpleDirectional,
        BlendKind::FreeformDirectional,
        BlendKind::FreeformCartesian,
    ] {
        trees.push(BlendTree {
            name: format!("Move {}", kind.name()),
            kind,
            parameter: Some("X".into()),
            parameter_y: Some("Y".into()),
            normalized: false,
            children: vec![
                child(Some(Motion::BlendTree(nested.clone())), 0.0, [0.0, 1.0]),
                child(clip(run), 0.0, [-1.0, 0.0]),
                child(
                    Some(Motion::BlendTree(direct.clone())),
                    0.0,
                    [0.3333333, -0.1],
                ),
            ],
        });
    }
    let root = "Base Layer";
    let air = "Base Layer.Air";
    let mut idle = state(root, "Idle", clip(walk));
    idle.speed = 1.5;
    idle.speed_parameter = Some("Speed".into());
    idle.cycle_offset = 0.125;
    idle.mirror_parameter = Some("On".into());
    idle.tag = "Ground".into();
    idle.write_defaults = false;
    idle.foot_ik = true;
    idle.transitions = vec![
        Transition {
            destination: Destination::State(format!("{root}.Move 0")),
            conditions: vec![
                cond(ConditionMode::Greater, "Speed", 0.1),
                cond(ConditionMode::NotEqual, "Count", 3.0),
            ],
            has_exit_time: true,
            exit_time: 0.9,
            duration: 0.25,
            fixed_duration: false,
            offset: 0.1,
            interruption: Interruption::DestinationThenSource,
            ordered_interruption: false,
            can_transition_to_self: false,
        },
        Transition {
            destination: Destination::Machine(air.into()),
            ..Transition::to(
                Destination::Exit(String::new()),
                vec![cond(ConditionMode::If, "Go", 0.0)],
            )
        },
    ];
    let mut states = vec![idle];
    for (i, t) in trees.into_iter().enumerate() {
        let mut s = state(root, &format!("Move {i}"), Some(Motion::BlendTree(t)));
        s.time_parameter = Some("X".into());
        s.cycle_offset_parameter = Some("Y".into());
        states.push(s);
    }
    states.push(state(root, "0x0badf00d", None));
    let mut jump = state(air, "Jump", clip(run));
    jump.transitions = vec![Transition {
        destination: Destination::Exit(air.into()),
        ..Transition::to(Destination::Exit(air.into()), vec![])
    }];
    let fall = state(air, "Fall", None);
    let sub = StateMachine {
        name: "Air".into(),
        path: air.into(),
        default_state: Some(format!("{air}.Jump")),
        states: vec![jump, fall],
        any_state_transitions: vec![],
        entry_transitions: vec![Transition::to(
            Destination::State(format!("{air}.Fall")),
            vec![cond(ConditionMode::IfNot, "On", 0.0)],
        )],
        exit_transitions: vec![
            Transition::to(
                Destination::State(format!("{root}.Idle")),
                vec![cond(ConditionMode::Less, "Speed", 0.5)],
            ),
            Transition::to(Destination::State(format!("{root}.Move 1")), vec![]),
        ],
        state_machines: vec![],
    };
    let machine = StateMachine {
        name: root.into(),
        path: root.into(),
        default_state: Some(format!("{root}.Idle")),
        states,
        any_state_transitions: vec![Transition {
            duration: 0.5,
            ..Transition::to(
                Destination::State(format!("{air}.Fall")),
                vec![cond(ConditionMode::Equals, "Count", 2.0)],
            )
        }],
        entry_transitions: vec![Transition::to(
            Destination::State(format!("{root}.Move 2")),
            vec![cond(ConditionMode::If, "On", 0.0)],
        )],
        exit_transitions: vec![],
        state_machines: vec![sub],
    };
    // The synced layer: the same machine, its own motions.
    let mut synced = machine.clone();
    synced.visit_states_mut(&mut |s| {
        s.motion = if s.name == "Idle" { clip(run) } else { None };
    });
    let mut upper_parts = [0u32; 13];
    for p in [1, 2, 5, 6, 7, 8] {
        upper_parts[p] = 1;
    }
    let mut leg_parts = [0u32; 13];
    leg_parts[3] = 1;
    leg_parts[4] = 1;
    Controller {
        name: "Fixture".into(),
        parameters: vec![
            Parameter {
                name: "Speed".into(),
                kind: ParameterKind::Float,
                default: 0.5,
            },
            Parameter {
                name: "Count".into(),
                kind: ParameterKind::Int,
                default: 3.0,
            },
            Parameter {
                name: "On".into(),
                kind: ParameterKind::Bool,
                default: 1.0,
            },
            Parameter {
                name: "Go".into(),
                kind: ParameterKind::Trigger,
                default: 0.0,
            },
            Parameter {
                name: "X".into(),
                kind: ParameterKind::Float,
                default: -0.25,
            },
            Parameter {
                name: "Y".into(),
                kind: ParameterKind::Float,
                default: 0.0,
            },
        ],
        layers: vec![
            Layer {
                name: root.into(),
                weight: 1.0,
                mask: vec![
                    (String::new(), 1.0),
                    ("Hips".into(), 1.0),
                    ("Hips/Spine".into(), 0.0),
                    ("Hips/0x1234abcd".into(), 0.5),
                ],
                body_mask: Some(body_words(&upper_parts)),
                ik_pass: true,
                state_machine: machine,
                ..Layer::default()
            },
            Layer {
                name: "Legs".into(),
                blending: Blending::Additive,
                weight: 0.5,
                synced_layer: Some(0),
                synced_affects_timing: true,
                body_mask: Some(body_words(&leg_parts)),
                state_machine: synced,
                ..Layer::default()
            },
            Layer {
                name: "Empty".into(),
                weight: 0.0,
                state_machine: StateMachine {
                    name: "Empty".into(),
                    path: "Empty".into(),
                    ..StateMachine::default()
                },
                ..Layer::default()
            },
        ],
        warnings: vec![],
    }
}

#[test]
fn the_fixture_and_its_masks_read_back_equal() {
    let model = fixture();
    let assets = temp_assets("fixture");
    let mut mask_refs = Vec::new();
    for (i, layer) in model.layers.iter().enumerate() {
        if layer.mask.is_empty() && layer.body_mask.is_none() {
            mask_refs.push(None);
            continue;
        }
        let (text, report) = mask_text(
            &layer.name,
            &layer.name,
            &layer.mask,
            layer.body_mask.as_deref(),
        );
        assert_eq!(report.inexact, None, "{}", layer.name);
        let guid = format!("{i:032x}");
        write(&assets.join(format!("{i}.mask")), &text);
        write(
            &assets.join(format!("{i}.mask.meta")),
            &meta_text(&guid, MASK_FILE_ID),
        );
        mask_refs.push(Some(TextRef::Asset {
            file_id: MASK_FILE_ID,
            guid,
            kind: 2,
        }));
        if i == 0 {
            assert_eq!(report.unresolved_paths, ["0x1234abcd"]);
            assert_eq!(report.elements, 4);
        }
    }
    let clip_ref = |c: &ClipMotion| match &c.source {
        ClipSource::Text {
            guid: Some(g),
            file_id,
            ..
        } => TextRef::Asset {
            file_id: *file_id,
            guid: g.clone(),
            kind: 2,
        },
        _ => TextRef::Null,
    };
    let docs = controller_text(
        &model,
        &ControllerRefs {
            clip: &clip_ref,
            masks: &mask_refs,
        },
    );
    assert!(docs.notes.is_empty(), "{:?}", docs.notes);
    let path = assets.join("Fixture.controller");
    write(&path, &docs.text);
    let back = read_controllers(&path, &docs.text, &GuidIndex::build(&assets));
    remove(&assets);
    let back = back[0].1.as_ref().expect("reads");
    assert!(back.warnings.is_empty(), "{:?}", back.warnings);
    assert_eq!(*back, model, "{}", docs.text);
    // Counted as written: 7 + 0 states (the synced layer names the first layer's), 2 + 1 +
    // 1 state transitions, 2 Entry and 2 exit transitions, 3 trees each with a nested 1D
    // and a Direct tree.
    let c = &docs.counts;
    assert_eq!(
        (c.states, c.state_transitions, c.transitions, c.blend_trees),
        (7, 4, 4, 9)
    );
    assert_eq!((c.layers, c.parameters, c.state_machines), (3, 6, 4));
    let names: Vec<&str> = docs.names_not_found.iter().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "mask path 0x1234abcd",
            "parameter 0x00c0ffee",
            "state 0x0badf00d"
        ]
    );
}

/// A built controller's state with no motion, named by hash in `m_TOS`.
fn built_state(tos: &mut BTreeMap<u32, String>, full: &str, foot_ik: bool) -> Ptr<StateConstant> {
    let mut h = |s: &str| {
        tos.insert(name_hash(s), s.to_string());
        name_hash(s)
    };
    let short = full.rsplit('.').next().unwrap_or(full);
    ptr(StateConstant {
        m_BlendTreeConstantIndexArray: vec![-1],
        m_NameID: h(short),
        m_PathID: h(full),
        m_FullPathID: h(full),
        m_Speed: 1.0,
        m_IKOnFeet: foot_ik,
        m_WriteDefaultValues: true,
        m_Loop: true,
        ..StateConstant::default()
    })
}

/// Names with their flag: `(layer, IK Pass)` or `(state, Foot IK)`.
type Flags<N> = Vec<(N, bool)>;

/// A built controller (class 91, 2020.3): layer "Base Layer" without IK Pass, states Idle
/// (Foot IK) and Walk; layer "Arms" with IK Pass, state Wave.
fn ik_controller() -> AnimatorController {
    let mut tos = BTreeMap::new();
    let mut machines = Vec::new();
    let mut layers = Vec::new();
    let plan: [(&str, bool, Flags<&str>); 2] = [
        ("Base Layer", false, vec![("Idle", true), ("Walk", false)]),
        ("Arms", true, vec![("Wave", false)]),
    ];
    for (index, (layer, ik_pass, states)) in plan.into_iter().enumerate() {
        tos.insert(name_hash(layer), layer.to_string());
        machines.push(ptr(StateMachineConstant {
            m_StateConstantArray: states
                .iter()
                .map(|&(s, foot)| built_state(&mut tos, &format!("{layer}.{s}"), foot))
                .collect(),
            m_SynchronizedLayerCount: 1,
            ..StateMachineConstant::default()
        }));
        layers.push(ptr(LayerConstant {
            m_StateMachineIndex: index as u32,
            m_Binding: name_hash(layer),
            m_DefaultWeight: 1.0,
            m_IKPass: ik_pass,
            ..LayerConstant::default()
        }));
    }
    AnimatorController {
        m_Name: "IkFixture".into(),
        m_ControllerSize: 0,
        m_Controller: ControllerConstant {
            m_LayerArray: layers,
            m_StateMachineArray: machines,
            ..ControllerConstant::default()
        },
        m_TOS: tos,
        m_AnimationClips: Vec::new(),
        m_StateMachineBehaviourVectorDescription: BehaviourDescription::default(),
        m_StateMachineBehaviours: Vec::new(),
        m_MultiThreadedStateMachine: true,
    }
}

/// `(layer, IK Pass)` and `(state, Foot IK)` of a model.
fn ik_flags(c: &Controller) -> (Flags<String>, Flags<String>) {
    let layers = c
        .layers
        .iter()
        .map(|l| (l.name.clone(), l.ik_pass))
        .collect();
    let states = c
        .layers
        .iter()
        .flat_map(|l| l.state_machine.all_states())
        .map(|s| (s.full_path.clone(), s.foot_ik))
        .collect();
    (layers, states)
}

#[test]
fn ik_pass_and_foot_ik_are_decoded_and_written() {
    let bytes = write_controller_bundle(&[], &ik_controller()).expect("the fixture writes");
    let ws = Workspace::open_bytes(Path::new("ik.bundle"), bytes, &OpenOptions::default());
    assert!(ws.errors.is_empty(), "{:?}", ws.errors);
    let index = controller_index(&ws, "IkFixture");
    let built = ws.controllers[index].model.as_ref().expect("decodes");
    let expected = (
        vec![
            ("Base Layer".to_string(), false),
            ("Arms".to_string(), true),
        ],
        vec![
            ("Base Layer.Idle".to_string(), true),
            ("Base Layer.Walk".to_string(), false),
            ("Arms.Wave".to_string(), false),
        ],
    );
    assert_eq!(
        ik_flags(built),
        expected,
        "decoded from the built controller"
    );
    let json = clipscope_core::animator::json::controller(built, "ik.bundle", 0);
    assert_eq!(json["layers"][1]["ik_pass"], Value::Bool(true));
    assert_eq!(json["layers"][0]["ik_pass"], Value::Bool(false));
    let idle = &json["layers"][0]["state_machine"]["states"][0];
    assert_eq!(
        (&idle["name"], &idle["foot_ik"]),
        (&Value::from("Idle"), &Value::Bool(true))
    );

    let assets = temp_assets("ik");
    let (written, c) = write_all(&ws, index, &assets);
    assert!(
        c.report.dropped.iter().all(|d| !d.contains("IK")),
        "{:?}",
        c.report.dropped
    );
    // One layer with IK Pass and one state with Foot IK, in Unity's own 0/1.
    assert_eq!(c.text.matches("m_IKPass: 1\n").count(), 1, "{}", c.text);
    assert_eq!(c.text.matches("m_IKPass: 0\n").count(), 1, "{}", c.text);
    assert_eq!(c.text.matches("m_IKOnFeet: 1\n").count(), 1, "{}", c.text);
    assert_eq!(c.text.matches("m_IKOnFeet: 0\n").count(), 2, "{}", c.text);
    let back = read_controllers(&written, &c.text, &GuidIndex::build(&assets));
    remove(&assets);
    let back = back[0].1.as_ref().expect("the written controller reads");
    assert!(back.warnings.is_empty(), "{:?}", back.warnings);
    assert_eq!(ik_flags(back), expected, "read back from the written text");
}

/// Per document class, every distinct key sequence (keys in order of first appearance,
/// with their indent) among `text`'s documents.
fn key_orders(text: &str) -> BTreeMap<String, BTreeSet<Vec<String>>> {
    let mut out: BTreeMap<String, BTreeSet<Vec<String>>> = BTreeMap::new();
    for doc in text.split("\n--- ").skip(1) {
        let mut lines = doc.lines();
        let class = lines
            .next()
            .and_then(|l| l.split_whitespace().next())
            .unwrap_or_default()
            .to_string();
        let mut keys: Vec<String> = Vec::new();
        for line in lines.skip(1) {
            let indent = line.len() - line.trim_start_matches([' ', '-']).len();
            let body = line.trim_start_matches([' ', '-']);
            let Some((key, _)) = body.split_once(':') else {
                continue;
            };
            if key.starts_with('{') {
                continue;
            }
            let k = format!("{indent} {key}");
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
        out.entry(class).or_default().insert(keys);
    }
    out
}

/// How many documents of `class` `text` holds that are the main object (91) or referenced
/// by a `fileID` somewhere in it.
fn count(text: &str, class: &str) -> usize {
    let referenced: BTreeSet<&str> = text
        .split("fileID: ")
        .skip(1)
        .filter_map(|rest| rest.split([',', '}']).next())
        .collect();
    text.lines()
        .filter_map(|l| l.strip_prefix(&format!("--- !u!{class} &")))
        .filter(|id| class == "91" || referenced.contains(id.trim()))
        .count()
}

/// Whether `written` has `shared`'s document fields (indent 2) all and in order, and its
/// nested keys in `shared`'s order (a subsequence: the shared documents hold lists the
/// writer leaves empty, such as state machine behaviours).
fn same_order(written: &[String], shared: &[String]) -> bool {
    let top = |keys: &[String]| -> Vec<String> {
        keys.iter()
            .filter(|k| k.starts_with("2 "))
            .cloned()
            .collect()
    };
    if top(written) != top(shared) {
        return false;
    }
    let mut rest = shared.iter();
    written.iter().all(|w| rest.any(|s| s == w))
}

#[test]
fn every_written_document_has_unity_s_field_order() {
    let Some(dir) = common::data("yaml/modular-avatar") else {
        return;
    };
    let mut shared: BTreeMap<String, BTreeSet<Vec<String>>> = BTreeMap::new();
    let files = [
        "WD_TestSet_true.controller",
        "clap_controller.controller",
        "SyncedLayers_AC1.controller",
        "DBTP.controller",
    ];
    let mut written: BTreeMap<String, BTreeSet<Vec<String>>> = BTreeMap::new();
    for f in files {
        let path = dir.join(f);
        let text = std::fs::read_to_string(&path).expect("reads");
        for (class, orders) in key_orders(&text) {
            shared.entry(class).or_default().extend(orders);
        }
        let ws = Workspace::open(std::slice::from_ref(&path), &Default::default());
        let c = write_controller(&ws, 0).expect("writes");
        assert!(
            c.text
                .starts_with("%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!")
        );
        // Documents in ascending file id, as Unity writes them.
        let ids: Vec<i64> = c
            .text
            .lines()
            .filter_map(|l| l.strip_prefix("--- !u!"))
            .map(|l| l.split('&').nth(1).unwrap().parse().unwrap())
            .collect();
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "{f}: {ids:?}");
        // The same documents as the source, class by class (those some document refers to:
        // Unity leaves deleted transitions in the file, unreferenced; `clap_controller` has
        // six).
        for class in ["91", "1101", "1102", "206"] {
            assert_eq!(
                count(&c.text, class),
                count(&text, class),
                "{f}: class {class}"
            );
        }
        for (class, orders) in key_orders(&c.text) {
            written.entry(class).or_default().extend(orders);
        }
    }
    for (class, orders) in &written {
        let known = shared.get(class).cloned().unwrap_or_default();
        for order in orders {
            assert!(
                known.iter().any(|k| same_order(order, k)),
                "{class}: written with fields {order:?}, in an order no shared document has; shared: {known:#?}"
            );
        }
    }
    assert_eq!(
        written.keys().collect::<Vec<_>>(),
        ["!u!1101", "!u!1102", "!u!1107", "!u!206", "!u!91"]
    );
}

#[test]
fn unknown_controller_names_exit_1_and_the_rest_is_written() {
    let Some(path) = common::data("yaml/modular-avatar/DBTP.controller") else {
        return;
    };
    let assets = temp_assets("exit");
    let (code, out, err) = common::clipscope(&[
        "unity",
        path.to_str().unwrap(),
        "-o",
        assets.to_str().unwrap(),
        "--controller",
        "DBTP",
        "--controller",
        "Nope",
    ]);
    let written = assets.join("DBTP.controller").join("DBTP.controller");
    let exists = written.exists() && assets.join("DBTP.controller/DBTP.controller.meta").exists();
    remove(&assets);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("no controller named \"Nope\"; controllers there: DBTP"),
        "{err}"
    );
    assert!(exists, "the found controller is still written: {out}");
    assert!(
        out.contains("1 layers, 1 states, 0 transitions, 1 blend trees, 0 masks, 0 clips"),
        "{out}"
    );
    assert!(out.contains("1 clips not loaded"), "{out}");
}

/// `clipscope unity --controller Faster` on a built override controller (the demo's
/// `Locomotion` with `Idle` → `Walk` and `Walk` → `Run`): it writes `Faster.overrideController`,
/// its base `Locomotion.controller` (not asked for by name) and the clips, and the written
/// override, opened alone, plays the built one's leaves; `controller --json` on the built
/// file gives the override the base's states with the replaced clips.
#[test]
fn an_override_controller_is_written_with_its_base_and_plays_back() {
    use clipscope_authoring::controller::{AnimationClipOverride, AnimatorOverrideController};
    use clipscope_authoring::demo_controller::with_overrides;
    use rabex::objects::PPtr;
    let bytes = with_overrides(|base| {
        let pair = |original: i64, with: i64| AnimationClipOverride {
            m_OriginalClip: PPtr::local(original),
            m_OverrideClip: PPtr::local(with),
        };
        vec![AnimatorOverrideController {
            m_Name: "Faster".into(),
            m_Controller: base,
            m_Clips: vec![pair(1, 2), pair(2, 3), pair(3, 0)],
        }]
    })
    .expect("the fixture writes");
    let assets = temp_assets("override");
    let bundle = assets.parent().unwrap().join("override.bundle");
    std::fs::write(&bundle, bytes).unwrap();
    let report = assets.parent().unwrap().join("report.json");
    let (code, out, err) = common::clipscope(&[
        "unity",
        bundle.to_str().unwrap(),
        "-o",
        assets.to_str().unwrap(),
        "--controller",
        "Faster",
        "--report",
        report.to_str().unwrap(),
        "--no-measure",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("Faster.overrideController: overrides \"Locomotion\", 2 clips replaced"),
        "{out}"
    );
    let dir = assets.join("override.bundle");
    let written = dir.join("Faster.overrideController");
    for name in [
        "Faster.overrideController.meta",
        "Locomotion.controller",
        "Idle.anim",
        "Walk.anim",
        "Run.anim",
    ] {
        assert!(dir.join(name).exists(), "{name}: {out}");
    }
    let text = std::fs::read_to_string(&written).unwrap();
    assert!(text.starts_with("%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!221 &22100000\n"));
    assert_eq!(
        text.matches("m_OriginalClip: {fileID: 7400000, guid: ")
            .count(),
        2
    );
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let reports = json["controllers"].as_array().unwrap();
    assert!(
        reports.iter().any(|r| r["controller"] == "Faster"
            && r["base"] == "Locomotion"
            && r["overrides"] == 2),
        "{json}"
    );

    let back = Workspace::open(std::slice::from_ref(&written), &OpenOptions::default());
    let read = back
        .controllers
        .iter()
        .find(|c| c.name == "Faster")
        .expect("read back");
    let model = read
        .model
        .as_ref()
        .expect("the base is found through its guid");
    let states: Vec<(String, Vec<String>)> = model.layers[0]
        .state_machine
        .all_states()
        .iter()
        .map(|s| {
            let mut clips = Vec::new();
            if let Some(m) = &s.motion {
                m.visit_clips(&mut |c| {
                    clips.push(c.resolved.as_ref().map_or("?".into(), |r| r.name.clone()))
                });
            }
            (s.name.clone(), clips)
        })
        .collect();
    let want = |s: &str, c: &[&str]| {
        (
            s.to_string(),
            c.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
        )
    };
    assert!(states.contains(&want("Idle", &["Walk"])), "{states:?}");
    assert!(
        states.contains(&want("Move", &["Run", "Run"])),
        "{states:?}"
    );
    assert!(states.contains(&want("Wave", &["Run"])), "{states:?}");

    // `controller --json` on the built file: the override's states play the overrides.
    let (code, out, err) = common::clipscope(&[
        "controller",
        bundle.to_str().unwrap(),
        "--name",
        "Faster",
        "--json",
    ]);
    remove(&assets);
    std::fs::remove_file(&bundle).ok();
    assert_eq!(code, 0, "{out}{err}");
    let json: Value = serde_json::from_str(&out).expect("JSON");
    let faster = json
        .as_array()
        .and_then(|a| a.iter().find(|c| c["name"] == "Faster"))
        .unwrap_or_else(|| panic!("{out}"));
    let idle = faster["layers"][0]["state_machine"]["states"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["name"] == "Idle"))
        .unwrap_or_else(|| panic!("{faster}"));
    assert_eq!(idle["motion"]["clip"], "Walk", "{idle}");
}
