//! The state machine against the animator spec: the §5.7 worked timeline (states, progress,
//! weights, normalised and clip times at each listed update), triggers consumed once, exit
//! times below and above 1, interruption by source and destination, the §5.6 nested tree.

use super::machine::{Animator, LayerOutput};
use super::model::*;
use super::script::{self, Frame};

fn clip(name: &str, length: f32, looping: bool) -> Option<Motion> {
    Some(Motion::Clip(ClipMotion {
        source: ClipSource::Missing(String::new()),
        resolved: Some(ResolvedClip {
            name: name.into(),
            file: 0,
            path_id: length.to_bits() as i64,
            start: 0.0,
            length,
            looping,
            cycle_offset: 0.0,
        }),
    }))
}

fn state(name: &str, motion: Option<Motion>, transitions: Vec<Transition>) -> State {
    State {
        name: name.into(),
        full_path: format!("Base Layer.{name}"),
        motion,
        transitions,
        ..State::default()
    }
}

fn to(dst: &str) -> Transition {
    Transition::to(Destination::State(format!("Base Layer.{dst}")), Vec::new())
}

fn cond(mode: ConditionMode, p: &str, t: f32) -> Condition {
    Condition {
        mode,
        parameter: p.into(),
        threshold: t,
    }
}

fn controller(params: &[(&str, ParameterKind)], states: Vec<State>) -> Controller {
    Controller {
        name: "test".into(),
        parameters: params
            .iter()
            .map(|(n, k)| Parameter {
                name: (*n).into(),
                kind: *k,
                default: 0.0,
            })
            .collect(),
        layers: vec![Layer {
            name: "Base Layer".into(),
            weight: 1.0,
            state_machine: StateMachine {
                name: "Base Layer".into(),
                path: "Base Layer".into(),
                default_state: Some(states[0].full_path.clone()),
                states,
                ..StateMachine::default()
            },
            ..Layer::default()
        }],
        warnings: Vec::new(),
    }
}

/// The §5.7 controller: Idle (2 s, loop) → Walk (1 s, loop) → Wave (1 s, no loop) → Idle.
fn timeline_controller() -> Controller {
    let mut idle_walk = to("Walk");
    idle_walk.has_exit_time = true;
    idle_walk.exit_time = 0.75;
    idle_walk.duration = 0.25;
    let mut walk_wave = to("Wave");
    walk_wave.conditions = vec![cond(ConditionMode::If, "Wave", 0.0)];
    walk_wave.duration = 0.25;
    walk_wave.offset = 0.2;
    let mut wave_idle = to("Idle");
    wave_idle.has_exit_time = true;
    wave_idle.exit_time = 0.9;
    wave_idle.duration = 0.2;
    wave_idle.fixed_duration = false;
    controller(
        &[("Wave", ParameterKind::Trigger)],
        vec![
            state("Idle", clip("Idle", 2.0, true), vec![idle_walk]),
            state("Walk", clip("Walk", 1.0, true), vec![walk_wave]),
            state("Wave", clip("Wave", 1.0, false), vec![wave_idle]),
        ],
    )
}

/// (state name, weight, nt, clip time) of a layer output.
fn states(l: &LayerOutput) -> Vec<(String, f64, f64, f64)> {
    l.states
        .iter()
        .map(|s| {
            let name = s.path.rsplit('.').next().unwrap().to_string();
            (name, s.weight, s.normalized_time, s.leaves[0].clip_time)
        })
        .collect()
}

fn check(frame: &Frame, progress: Option<f64>, want: &[(&str, f64, f64, f64)]) {
    let l = &frame.layers[0];
    match (progress, &l.transition) {
        (None, None) => {}
        (Some(p), Some(t)) => assert!((t.progress - p).abs() < 1e-6, "t={} {t:?}", frame.time),
        (p, t) => panic!("t={}: progress {p:?}, transition {t:?}", frame.time),
    }
    let got = states(l);
    assert_eq!(got.len(), want.len(), "t={}: {got:?}", frame.time);
    for (g, w) in got.iter().zip(want) {
        assert_eq!(g.0, w.0, "t={}", frame.time);
        for (a, b) in [(g.1, w.1), (g.2, w.2), (g.3, w.3)] {
            assert!(
                (a - b).abs() < 1e-6,
                "t={}: {got:?} vs {want:?}",
                frame.time
            );
        }
    }
}

#[test]
fn worked_timeline_of_the_spec() {
    let c = timeline_controller();
    let actions = script::parse("2:Wave!").unwrap();
    let (frames, warnings) = script::run(&c, &actions, 8.0, &[]);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(frames.len(), 25);
    check(&frames[0], None, &[("Idle", 1.0, 0.0, 0.0)]);
    check(&frames[11], None, &[("Idle", 1.0, 0.6875, 1.375)]);
    check(
        &frames[12],
        Some(0.0),
        &[("Idle", 1.0, 0.75, 1.5), ("Walk", 0.0, 0.0, 0.0)],
    );
    check(
        &frames[13],
        Some(0.5),
        &[("Idle", 0.5, 0.8125, 1.625), ("Walk", 0.5, 0.125, 0.125)],
    );
    check(&frames[14], None, &[("Walk", 1.0, 0.25, 0.25)]);
    check(
        &frames[16],
        Some(0.0),
        &[("Walk", 1.0, 0.5, 0.5), ("Wave", 0.0, 0.2, 0.2)],
    );
    check(
        &frames[17],
        Some(0.5),
        &[("Walk", 0.5, 0.625, 0.625), ("Wave", 0.5, 0.325, 0.325)],
    );
    check(&frames[18], None, &[("Wave", 1.0, 0.45, 0.45)]);
    check(
        &frames[22],
        Some(0.0),
        &[("Wave", 1.0, 0.95, 0.95), ("Idle", 0.0, 0.0, 0.0)],
    );
    assert!((frames[22].layers[0].transition.as_ref().unwrap().duration - 0.2).abs() < 1e-7);
    check(
        &frames[23],
        Some(0.625),
        &[("Wave", 0.375, 1.075, 1.0), ("Idle", 0.625, 0.0625, 0.125)],
    );
    check(&frames[24], None, &[("Idle", 1.0, 0.125, 0.25)]);
}

#[test]
fn requested_times_off_the_update_grid() {
    let c = timeline_controller();
    let (frames, _) = script::run(&c, &[], 8.0, &[0.5, 1.3]);
    check(&frames[0], None, &[("Idle", 1.0, 0.25, 0.5)]);
    check(&frames[1], None, &[("Idle", 1.0, 0.65, 1.3)]);
}

#[test]
fn triggers_are_consumed_once() {
    // A -> B and B -> A on the same trigger: one firing moves once.
    let mut ab = to("B");
    ab.conditions = vec![cond(ConditionMode::If, "Go", 0.0)];
    let mut ba = to("A");
    ba.conditions = ab.conditions.clone();
    let c = controller(
        &[("Go", ParameterKind::Trigger)],
        vec![
            state("A", clip("A", 1.0, true), vec![ab]),
            state("B", clip("B", 1.0, true), vec![ba]),
        ],
    );
    let mut a = Animator::new(&c);
    a.params.set_trigger("Go").unwrap();
    a.update(0.1);
    assert_eq!(a.params.get("Go"), 0.0, "consumed by A -> B");
    for _ in 0..5 {
        a.update(0.1);
    }
    let out = a.output();
    assert_eq!(out[0].states.len(), 1);
    assert_eq!(out[0].states[0].path, "Base Layer.B");
    // A trigger whose transition's other conditions fail stays set.
    let mut guarded = to("B");
    guarded.conditions = vec![
        cond(ConditionMode::If, "Go", 0.0),
        cond(ConditionMode::Greater, "Speed", 1.0),
    ];
    let c = controller(
        &[
            ("Go", ParameterKind::Trigger),
            ("Speed", ParameterKind::Float),
        ],
        vec![
            state("A", clip("A", 1.0, true), vec![guarded]),
            state("B", clip("B", 1.0, true), vec![]),
        ],
    );
    let mut a = Animator::new(&c);
    a.params.set_trigger("Go").unwrap();
    a.update(0.1);
    assert_eq!(a.params.get("Go"), 1.0);
    a.params.set("Speed", 2.0).unwrap();
    a.update(0.1);
    assert_eq!(a.params.get("Go"), 0.0);
    assert_eq!(a.output()[0].states[0].path, "Base Layer.B");
}

/// The update (index, 1-based) at which A -> B starts, at 8 updates per second on a 1 s
/// state, with the transition's gate opened before update `open`.
fn first_fire(exit_time: f32, looping: bool, open: usize) -> Option<usize> {
    let mut ab = to("B");
    ab.has_exit_time = true;
    ab.exit_time = exit_time;
    ab.duration = 0.5;
    ab.conditions = vec![cond(ConditionMode::If, "Open", 0.0)];
    let c = controller(
        &[("Open", ParameterKind::Bool)],
        vec![
            state("A", clip("A", 1.0, looping), vec![ab]),
            state("B", clip("B", 1.0, true), vec![]),
        ],
    );
    let mut a = Animator::new(&c);
    for k in 1..=40 {
        if k == open {
            a.params.set("Open", 1.0).unwrap();
        }
        a.update(0.125);
        if a.output()[0].transition.is_some() {
            return Some(k);
        }
    }
    None
}

#[test]
fn exit_times_below_and_above_one() {
    // Below 1 on a looping state: every loop (0.5, then 1.5 once the gate opens at 0.75).
    assert_eq!(first_fire(0.5, true, 1), Some(4));
    assert_eq!(first_fire(0.5, true, 6), Some(12));
    // Below 1 on a non-looping state: once only.
    assert_eq!(first_fire(0.5, false, 6), None);
    // Above 1: once, after that many loops.
    assert_eq!(first_fire(1.5, true, 1), Some(12));
    assert_eq!(first_fire(1.5, true, 13), None);
    // Exit time 0 fires on the first update after entering, never before.
    assert_eq!(first_fire(0.0, false, 1), Some(1));
}

/// A -> B (1 s, interruption `source`), B -> C on trigger "ToC", A -> C (after A -> B in
/// A's list) on trigger "AtoC".
fn interruption_controller(source: Interruption, ordered: bool) -> Controller {
    let mut ab = to("B");
    ab.conditions = vec![cond(ConditionMode::If, "Go", 0.0)];
    ab.duration = 1.0;
    ab.interruption = source;
    ab.ordered_interruption = ordered;
    let mut ac = to("C");
    ac.conditions = vec![cond(ConditionMode::If, "AtoC", 0.0)];
    ac.duration = 0.5;
    let mut bc = to("C");
    bc.conditions = vec![cond(ConditionMode::If, "ToC", 0.0)];
    bc.duration = 0.5;
    controller(
        &[
            ("Go", ParameterKind::Trigger),
            ("ToC", ParameterKind::Trigger),
            ("AtoC", ParameterKind::Trigger),
        ],
        vec![
            state("A", clip("A", 1.0, true), vec![ab, ac]),
            state("B", clip("B", 1.0, true), vec![bc]),
            state("C", clip("C", 1.0, true), vec![]),
        ],
    )
}

/// Runs A -> B for 0.4 s, sets `trigger`, updates once; the transition then running.
fn interrupt(c: &Controller, trigger: &str) -> LayerOutput {
    let mut a = Animator::new(c);
    a.params.set_trigger("Go").unwrap();
    a.update(0.1);
    for _ in 0..4 {
        a.update(0.1);
    }
    a.params.set_trigger(trigger).unwrap();
    a.update(0.1);
    a.output().remove(0)
}

#[test]
fn interruption_by_destination_freezes_the_pose() {
    let c = interruption_controller(Interruption::Destination, false);
    let out = interrupt(&c, "ToC");
    let t = out.transition.as_ref().expect("a transition runs");
    assert_eq!(
        (t.from.as_str(), t.to.as_str()),
        ("Base Layer.A", "Base Layer.C")
    );
    assert_eq!(t.progress, 0.0);
    let frozen = &out.states[0];
    assert!(frozen.frozen);
    assert_eq!(frozen.weight, 1.0);
    // The frozen pose: A at 1 − 0.5 and B at 0.5 (p was 0.5 after 5 updates of 0.1 s).
    let w: Vec<f64> = frozen.leaves.iter().map(|l| l.tree_weight).collect();
    assert!(
        (w[0] - 0.5).abs() < 1e-9 && (w[1] - 0.5).abs() < 1e-9,
        "{w:?}"
    );
    // Source-only interruption ignores B's list.
    let c = interruption_controller(Interruption::Source, false);
    let out = interrupt(&c, "ToC");
    assert_eq!(out.transition.unwrap().to, "Base Layer.B");
    // None: nothing interrupts.
    let c = interruption_controller(Interruption::None, false);
    let out = interrupt(&c, "ToC");
    assert_eq!(out.transition.unwrap().to, "Base Layer.B");
}

#[test]
fn interruption_by_source_and_ordered_interruption() {
    let c = interruption_controller(Interruption::Source, false);
    let out = interrupt(&c, "AtoC");
    assert_eq!(out.transition.unwrap().to, "Base Layer.C");
    // Ordered: A -> C comes after A -> B in A's list, so it cannot interrupt.
    let c = interruption_controller(Interruption::Source, true);
    let out = interrupt(&c, "AtoC");
    assert_eq!(out.transition.unwrap().to, "Base Layer.B");
    // Destination then source: B's list first.
    let c = interruption_controller(Interruption::DestinationThenSource, false);
    let out = interrupt(&c, "AtoC");
    assert_eq!(out.transition.unwrap().to, "Base Layer.C");
}

/// §5.6: a 1D root on Speed holding a 1D subtree on Lean; leaf weights, state length and
/// phases at nt 0.3.
#[test]
fn nested_tree_weights_length_and_phases() {
    let child = |motion, threshold: f32, time_scale: f32, cycle_offset: f32| BlendChild {
        motion,
        threshold,
        position: [0.0, 0.0],
        time_scale,
        cycle_offset,
        direct_parameter: None,
        mirror: false,
    };
    let sub = BlendTree {
        name: "Run".into(),
        kind: BlendKind::Simple1D,
        parameter: Some("Lean".into()),
        parameter_y: None,
        normalized: false,
        children: vec![
            child(clip("RunL", 0.8, true), -1.0, 1.0, 0.0),
            child(clip("Run", 0.8, true), 0.0, 1.25, 0.0),
            child(clip("RunR", 0.8, true), 1.0, 1.0, 0.5),
        ],
    };
    let root = BlendTree {
        name: "Locomotion".into(),
        kind: BlendKind::Simple1D,
        parameter: Some("Speed".into()),
        parameter_y: None,
        normalized: false,
        children: vec![
            child(clip("Idle", 2.0, true), 0.0, 1.0, 0.0),
            child(clip("Walk", 1.0, true), 1.0, 1.0, 0.0),
            child(Some(Motion::BlendTree(sub)), 2.0, 1.0, 0.0),
        ],
    };
    let c = controller(
        &[
            ("Speed", ParameterKind::Float),
            ("Lean", ParameterKind::Float),
        ],
        vec![state("Locomotion", Some(Motion::BlendTree(root)), vec![])],
    );
    let actions = script::parse("0:Speed=1.4;0:Lean=0.5;0:play Base Layer.Locomotion@0.3").unwrap();
    let (frames, warnings) = script::run(&c, &actions, 60.0, &[0.0, 1.0 / 60.0]);
    assert!(warnings.is_empty(), "{warnings:?}");
    let s = &frames[0].layers[0].states[0];
    assert!((s.length - 0.888).abs() < 1e-5, "{}", s.length);
    let leaves: Vec<(&str, f64, f64, f64)> = s
        .leaves
        .iter()
        .map(|l| (l.clip.as_deref().unwrap(), l.weight, l.phase, l.clip_time))
        .collect();
    let want = [
        ("Idle", 0.0, 0.3, 0.6),
        ("Walk", 0.6, 0.3, 0.3),
        ("RunL", 0.0, 0.3, 0.24),
        ("Run", 0.2, 0.3, 0.24),
        ("RunR", 0.2, 0.8, 0.64),
    ];
    for (g, w) in leaves.iter().zip(want) {
        assert_eq!(g.0, w.0);
        assert!((g.1 - w.1).abs() < 1e-5, "{leaves:?}");
        assert!((g.2 - w.2).abs() < 1e-5, "{leaves:?}");
        assert!((g.3 - w.3).abs() < 1e-5, "{leaves:?}");
    }
    let next = &frames[1].layers[0].states[0];
    assert!((next.normalized_time - 0.3 - 0.018_769).abs() < 1e-6);
}

#[test]
fn synced_layer_affects_timing_blends_the_length() {
    let mut c = controller(&[], vec![state("A", clip("A", 1.0, true), vec![])]);
    let mut synced = c.layers[0].clone();
    synced.name = "Synced".into();
    synced.synced_layer = Some(0);
    synced.weight = 0.5;
    synced.state_machine.states[0].motion = clip("B", 3.0, true);
    c.layers.push(synced.clone());
    let mut a = Animator::new(&c);
    a.update(1.0);
    let out = a.output();
    // Without Affects Timing the source's 1 s length rules.
    assert!((out[0].states[0].normalized_time - 1.0).abs() < 1e-9);
    assert_eq!(out[1].states[0].leaves[0].clip.as_deref(), Some("B"));
    c.layers[1].synced_affects_timing = true;
    let mut a = Animator::new(&c);
    a.update(1.0);
    let out = a.output();
    // L = 0.5·1 + 0.5·3 = 2 s.
    assert!((out[0].states[0].length - 2.0).abs() < 1e-9);
    assert!((out[0].states[0].normalized_time - 0.5).abs() < 1e-9);
    assert!((out[1].states[0].normalized_time - 0.5).abs() < 1e-9);
}
