//! Every AnimatorController of the shared data decodes into the model with the names,
//! counts, thresholds and clips the files hold (built class 91 of Unity 4.6, 2018.1 without
//! type trees, 2020.3 and 2022.3; text `.controller` files), and the Unity 4 editor
//! controller is refused with a clear message.

use crate::common;

use clipscope_core::animator::model::*;
use clipscope_core::workspace::ControllerEntry;
use clipscope_core::{OpenOptions, Workspace};

fn open(rel: &str) -> Option<Workspace> {
    let path = common::data(rel)?;
    Some(Workspace::open(&[path], &OpenOptions::default()))
}

fn controller<'a>(ws: &'a Workspace, name: &str) -> (&'a ControllerEntry, &'a Controller) {
    let found: Vec<_> = ws.controllers.iter().filter(|c| c.name == name).collect();
    assert_eq!(found.len(), 1, "one controller named {name}");
    let model = found[0].model.as_ref().expect("controller decodes");
    (found[0], model)
}

fn clip_name(m: &Option<Motion>) -> Option<&str> {
    match m {
        Some(Motion::Clip(c)) => c.resolved.as_ref().map(|r| r.name.as_str()),
        _ => None,
    }
}

fn blend_tree(m: &Option<Motion>) -> &BlendTree {
    match m {
        Some(Motion::BlendTree(t)) => t,
        other => panic!("expected a blend tree, got {other:?}"),
    }
}

#[test]
fn morbman_dancecontroller_states_clips_and_exit_times() {
    let Some(ws) = open("binary/wetboys_plateupemotesapi") else {
        return;
    };
    let (_, c) = controller(&ws, "dancecontroller");
    assert!(c.parameters.is_empty());
    assert_eq!(c.layers.len(), 1);
    let layer = &c.layers[0];
    assert_eq!(layer.name, "Base Layer");
    assert_eq!(layer.blending, Blending::Override);
    assert!(
        layer.mask.is_empty() && layer.body_mask.is_none(),
        "no mask"
    );
    let m = &layer.state_machine;
    assert_eq!(m.default_state.as_deref(), Some("Base Layer.none"));
    let names: Vec<&str> = m.states.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        ["none", "Loop", "Poop", "PoopToLoop", "LoopFromPoop"]
    );
    let clips: Vec<Option<&str>> = m.states.iter().map(|s| clip_name(&s.motion)).collect();
    assert_eq!(
        clips,
        [
            None,
            Some("Floss"),
            Some("Default Dance"),
            Some("Dab"),
            Some("nobones")
        ]
    );
    assert!(m.states[0].motion.is_none());
    assert_eq!(m.states[0].speed, 0.0);
    // m_Loop follows the clips' Loop Time: Dab is the only clip without it.
    let loops: Vec<Option<bool>> = m.states.iter().map(|s| s.stored_loop).collect();
    assert_eq!(
        loops,
        [Some(true), Some(true), Some(true), Some(false), Some(true)]
    );
    let poop = &m.states[2].transitions;
    assert_eq!(poop.len(), 1);
    assert_eq!(
        poop[0].destination,
        Destination::State("Base Layer.none".into())
    );
    assert!(poop[0].has_exit_time);
    assert_eq!(poop[0].exit_time, 1.0);
    let p2l = &m.states[3].transitions[0];
    assert_eq!(
        p2l.destination,
        Destination::State("Base Layer.LoopFromPoop".into())
    );
    assert_eq!((p2l.exit_time, p2l.duration), (0.918_478_25, 0.25));
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
}

#[test]
fn copy_bundle_cool_controller() {
    let Some(ws) = open("binary/lessscarymannequins/copy.bundle") else {
        return;
    };
    let (_, c) = controller(&ws, "CoolController");
    let m = &c.layers[0].state_machine;
    assert_eq!(m.states.len(), 1);
    assert_eq!(m.states[0].full_path, "Base Layer.TestClip");
    assert_eq!(clip_name(&m.states[0].motion), Some("TestClip"));
    assert_eq!(m.default_state.as_deref(), Some("Base Layer.TestClip"));
}

#[test]
fn platformer_player_without_type_trees() {
    let Some(ws) = open("binary/day65platformer2d") else {
        return;
    };
    let (_, c) = controller(&ws, "Player");
    let params: Vec<(&str, ParameterKind)> = c
        .parameters
        .iter()
        .map(|p| (p.name.as_str(), p.kind))
        .collect();
    assert_eq!(
        params,
        [
            ("Speed", ParameterKind::Float),
            ("DoJump", ParameterKind::Trigger),
            ("IsJumping", ParameterKind::Bool)
        ]
    );
    let m = &c.layers[0].state_machine;
    let names: Vec<&str> = m.states.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Idle", "Walk", "Jump"]);
    assert_eq!(clip_name(&m.states[1].motion), Some("Walk"));
    let any = &m.any_state_transitions;
    assert_eq!(any.len(), 1);
    assert_eq!(
        any[0].destination,
        Destination::State("Base Layer.Jump".into())
    );
    let modes: Vec<(ConditionMode, &str)> = any[0]
        .conditions
        .iter()
        .map(|c| (c.mode, c.parameter.as_str()))
        .collect();
    assert_eq!(
        modes,
        [
            (ConditionMode::If, "DoJump"),
            (ConditionMode::If, "IsJumping")
        ]
    );
    let idle_walk = &m.states[0].transitions[0].conditions[0];
    assert_eq!(
        (
            idle_walk.mode,
            idle_walk.parameter.as_str(),
            idle_walk.threshold
        ),
        (ConditionMode::Greater, "Speed", 0.0)
    );
    let walk_idle = &m.states[1].transitions[0].conditions[0];
    assert_eq!(
        (walk_idle.mode, walk_idle.threshold),
        (ConditionMode::Less, 1.0)
    );
}

#[test]
fn unity4_built_controller_and_refused_editor_controller() {
    let Some(ws) = open("binary/resetanimator") else {
        return;
    };
    let built: Vec<_> = ws
        .controllers
        .iter()
        .filter(|c| c.name == "Cube" && c.model.is_ok())
        .collect();
    assert_eq!(built.len(), 1, "the 4.6 web player's controller decodes");
    let c = built[0].model.as_ref().unwrap();
    assert_eq!(c.parameters[0].name, "Play");
    assert_eq!(c.parameters[0].kind, ParameterKind::Trigger);
    let m = &c.layers[0].state_machine;
    assert_eq!(m.states[0].full_path, "Base Layer.TestClip");
    assert_eq!(clip_name(&m.states[0].motion), Some("TestClip"));
    let any = &m.any_state_transitions[0];
    assert_eq!(
        any.destination,
        Destination::State("Base Layer.TestClip".into())
    );
    assert_eq!(any.duration, 0.1);
    let editor: Vec<_> = ws.controllers.iter().filter(|c| c.model.is_err()).collect();
    assert_eq!(editor.len(), 1);
    let message = editor[0].model.as_ref().unwrap_err();
    assert!(message.contains("editor controller"), "{message}");
}

#[test]
fn text_direct_tree_and_synced_layer() {
    let Some(ws) = open("yaml/modular-avatar") else {
        return;
    };
    let (_, dbtp) = controller(&ws, "DBTP");
    let tree = blend_tree(&dbtp.layers[0].state_machine.states[0].motion);
    assert_eq!(tree.kind, BlendKind::Direct);
    let direct: Vec<Option<&str>> = tree
        .children
        .iter()
        .map(|c| c.direct_parameter.as_deref())
        .collect();
    assert_eq!(direct, [Some("A"), Some("B")]);

    let (_, ac1) = controller(&ws, "AC1");
    assert_eq!(ac1.layers.len(), 3);
    let sync = &ac1.layers[2];
    assert_eq!(sync.synced_layer, Some(1));
    let main_states = ac1.layers[1].state_machine.all_states();
    let sync_states = sync.state_machine.all_states();
    let paths = |s: &[&State]| s.iter().map(|s| s.full_path.clone()).collect::<Vec<_>>();
    assert_eq!(paths(&main_states), paths(&sync_states));
    assert_eq!(paths(&main_states), ["main.m1", "main.m2"]);
    let guid = |s: &State| match &s.motion {
        Some(Motion::Clip(ClipMotion {
            source: ClipSource::Text { guid, .. },
            ..
        })) => guid.clone(),
        _ => None,
    };
    assert_eq!(
        guid(sync_states[1]).as_deref(),
        Some("b4473bdae48543347999d599bcef9efc")
    );
    assert_eq!(
        guid(main_states[1]).as_deref(),
        Some("7104638764aea2b4682734684ce18d68")
    );
}

#[test]
fn text_test_set_states_trees_and_sub_machine() {
    let Some(ws) = open("yaml/modular-avatar") else {
        return;
    };
    let (_, c) = controller(&ws, "TestSet_true");
    assert_eq!(c.layers.len(), 13);
    assert_eq!(c.layers[1].blending, Blending::Additive);
    let states: usize = c
        .layers
        .iter()
        .map(|l| l.state_machine.all_states().len())
        .sum();
    assert_eq!(states, 16);
    let sub = &c.layers[6].state_machine;
    assert_eq!(
        sub.default_state.as_deref(),
        Some("M_SubStateMachine.New StateMachine.New State")
    );
    assert_eq!(
        sub.state_machines[0].path,
        "M_SubStateMachine.New StateMachine"
    );
    // 1D tree holding a Direct tree.
    let outer = blend_tree(&c.layers[11].state_machine.states[0].motion);
    assert_eq!(outer.kind, BlendKind::Simple1D);
    assert_eq!(outer.parameter.as_deref(), Some("Blend"));
    assert_eq!(
        blend_tree(&outer.children[0].motion).kind,
        BlendKind::Direct
    );
    let two_d = blend_tree(&c.layers[10].state_machine.states[0].motion);
    assert_eq!(two_d.kind, BlendKind::SimpleDirectional);
    // The Any State transition of layer 7 goes back to its one state.
    let any = &c.layers[7].state_machine.any_state_transitions;
    assert_eq!(
        any[0].destination,
        Destination::State("M_Single_AnyTransition.New State".into())
    );
}

#[test]
fn text_clap_controller_transitions() {
    let Some(ws) = open("yaml/modular-avatar") else {
        return;
    };
    let (_, c) = controller(&ws, "clap_controller");
    assert_eq!(c.parameters.len(), 4);
    assert!(c.parameters.iter().all(|p| p.kind == ParameterKind::Bool));
    let m = &c.layers[0].state_machine;
    assert_eq!(m.states.len(), 4);
    // 19 transition documents, 13 reachable from the controller (6 are orphans).
    let reachable: usize =
        m.any_state_transitions.len() + m.states.iter().map(|s| s.transitions.len()).sum::<usize>();
    assert_eq!(reachable, 13);
    let t = &m.states[0].transitions[0];
    assert!(t.has_exit_time);
    assert_eq!(t.exit_time, 0.1);
    assert!(
        t.conditions
            .iter()
            .all(|c| matches!(c.mode, ConditionMode::If | ConditionMode::IfNot))
    );
}

#[test]
fn unitypackage_cube_two_layers() {
    let Some(ws) = open("yaml/unitypackage-js") else {
        return;
    };
    let (_, c) = controller(&ws, "Cube");
    let names: Vec<&str> = c.layers.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["Hop", "Texture"]);
    assert_eq!(c.layers[1].weight, 1.0);
    let states: Vec<&str> = c
        .layers
        .iter()
        .map(|l| l.state_machine.states[0].name.as_str())
        .collect();
    assert_eq!(states, ["Hop", "TextureMove"]);
}

#[test]
fn controller_command_prints_the_issue_json_shape() {
    let Some(path) = common::data("binary/wetboys_plateupemotesapi") else {
        return;
    };
    let (code, out, err) = common::clipscope(&[
        "controller",
        path.to_str().unwrap(),
        "--name",
        "dancecontroller",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let c = &v[0];
    assert_eq!(c["name"], "dancecontroller");
    let machine = &c["layers"][0]["state_machine"];
    assert_eq!(machine["default_state"], "Base Layer.none");
    let poop = &machine["states"][2];
    assert_eq!(poop["full_path"], "Base Layer.Poop");
    assert_eq!(poop["motion"]["clip"], "Default Dance");
    assert_eq!(
        poop["transitions"][0]["destination"],
        serde_json::json!({"kind": "state", "path": "Base Layer.none"})
    );
    assert_eq!(machine["states"][0]["motion"], serde_json::Value::Null);
    let (code, _, err) =
        common::clipscope(&["controller", path.to_str().unwrap(), "--name", "nope"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn animate_plays_dancecontroller_from_a_script() {
    let Some(path) = common::data("binary/wetboys_plateupemotesapi") else {
        return;
    };
    // The default state has no motion and speed 0; the script plays Poop (Default Dance,
    // 6.8 s, loop), whose exit time 1 leads back to the motionless "none".
    let (code, out, err) = common::clipscope(&[
        "animate",
        path.to_str().unwrap(),
        "--controller",
        "dancecontroller",
        "--script",
        "0:play Base Layer.Poop",
        "--times",
        "0,1.7,7",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let state = |i: usize| &v[i]["layers"][0]["states"][0];
    assert_eq!(state(0)["path"], "Base Layer.Poop");
    let leaf = &state(1)["leaves"][0];
    assert_eq!(leaf["clip"], "Default Dance");
    let length = state(1)["length"].as_f64().unwrap();
    assert!((length - 6.8).abs() < 1e-5, "{length}");
    assert!((state(1)["normalized_time"].as_f64().unwrap() - 1.7 / length).abs() < 1e-6);
    assert!((leaf["clip_time"].as_f64().unwrap() - 1.7).abs() < 1e-4);
    assert_eq!(state(2)["path"], "Base Layer.none");
    assert_eq!(state(2)["leaves"], serde_json::json!([]));
    let (code, _, _) = common::clipscope(&[
        "animate",
        path.to_str().unwrap(),
        "--controller",
        "dancecontroller",
        "--script",
        "oops",
        "--json",
    ]);
    assert_eq!(code, 2, "a bad script is a usage error");
}

#[test]
fn controller_problems_of_dancecontroller() {
    let Some(ws) = open("binary/wetboys_plateupemotesapi") else {
        return;
    };
    let (_, c) = controller(&ws, "dancecontroller");
    let problems = clipscope_core::animator::check::problems(c);
    // Script-driven: only "none" (the entry) and what it leads to are reachable.
    assert_eq!(
        problems,
        [
            "state Base Layer.none: no motion",
            "state Base Layer.Loop: unreachable (no transition or entry leads to it)",
            "state Base Layer.Poop: unreachable (no transition or entry leads to it)",
            "state Base Layer.PoopToLoop: unreachable (no transition or entry leads to it)",
            "state Base Layer.LoopFromPoop: unreachable (no transition or entry leads to it)",
        ]
    );
}

#[test]
fn controller_json_of_a_text_direct_tree() {
    let Some(path) = common::data("yaml/modular-avatar/DBTP.controller") else {
        return;
    };
    let (code, out, err) = common::clipscope(&["controller", path.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let c = &v[0];
    assert_eq!(
        c["parameters"][0],
        serde_json::json!({"name": "A", "type": "float", "default": 0.0})
    );
    let motion = &c["layers"][0]["state_machine"]["states"][0]["motion"];
    assert_eq!(motion["blend_tree"], "direct");
    assert_eq!(motion["parameter"], serde_json::Value::Null);
    let child = &motion["children"][1];
    assert_eq!(child["direct_parameter"], "B");
    // Its clips are not in the shared data: the reference says what was not found.
    assert_eq!(child["motion"]["clip"], serde_json::Value::Null);
    let reference = child["motion"]["reference"].as_str().unwrap();
    assert!(
        reference.contains("822fa250a223d354b8f2c1e5e4a71beb"),
        "{reference}"
    );
}
