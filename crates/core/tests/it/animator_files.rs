//! Every AnimatorController of the shared data decodes into the model with the names,
//! counts, thresholds and clips the files hold (built class 91 of Unity 4.6, 2018.1 without
//! type trees, 2020.3 and 2022.3; text `.controller` files), and the Unity 4 editor
//! controller is refused with a clear message. The `controller` and `animate` commands on them
//! are tested in the root package's `animator_files`.

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
