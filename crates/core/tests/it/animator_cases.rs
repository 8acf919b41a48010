//! The animator's edge cases on built controllers written by the authoring module
//! (`authoring::controller_cases`): a sub-machine whose Exit stores no transition, a state
//! whose blend tree has no children, a transition interrupted by another (stored and
//! scripted crossfades), and an Any State transition to the current state with and without
//! can-transition-to-self. Expected values follow the animator spec's rules by hand.

use std::path::Path;

use clipscope_authoring::controller::{AnimatorController, write_controller_bundle};
use clipscope_authoring::controller_cases::*;
use clipscope_authoring::{ClipSpec, MecanimClip};
use clipscope_core::animator::json;
use clipscope_core::animator::machine::{Animator, LayerOutput, StateOutput};
use clipscope_core::animator::model::*;
use clipscope_core::animator::script;
use clipscope_core::{OpenOptions, Workspace};

const FPS: f64 = 60.0;

fn clip(name: &str, stop: f32) -> ClipSpec {
    ClipSpec::Mecanim(MecanimClip {
        name: name.into(),
        stop,
        loop_time: true,
        ..MecanimClip::default()
    })
}

/// The controller written with clips "One" (1 s) and "Two" (2 s), opened and decoded.
fn model(c: &AnimatorController) -> Controller {
    let clips = [clip("One", 1.0), clip("Two", 2.0)];
    let bytes = write_controller_bundle(&clips, c).expect("writes");
    let ws = Workspace::open_bytes(Path::new("case.bundle"), bytes, &OpenOptions::default());
    assert!(ws.errors.is_empty(), "{:?}", ws.errors);
    assert_eq!(ws.controllers.len(), 1);
    ws.controllers[0].model.clone().expect("decodes")
}

/// The base layer at each of `times` under `script`.
fn run(model: &Controller, script_text: &str, times: &[f64]) -> Vec<LayerOutput> {
    let actions = script::parse(script_text).expect("script");
    let (frames, warnings) = script::run(model, &actions, FPS, times);
    assert!(warnings.is_empty(), "{warnings:?}");
    frames.into_iter().map(|f| f.layers[0].clone()).collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

fn assert_state(s: &StateOutput, path: &str, nt: f64, weight: f64, frozen: bool) {
    assert_eq!(s.path, path, "{s:?}");
    assert!(
        close(s.normalized_time, nt),
        "{path}: nt {} not {nt}",
        s.normalized_time
    );
    assert!(
        close(s.weight, weight),
        "{path}: weight {} not {weight}",
        s.weight
    );
    assert_eq!(s.frozen, frozen, "{s:?}");
}

#[test]
fn a_sub_machine_exit_without_stored_transitions_lists_none_and_returns_to_the_default() {
    let m = model(&exit_free_sub_machine());
    let root = &m.layers[0].state_machine;
    let sub = &root.state_machines[0];
    assert_eq!(sub.path, "Base Layer.Sub");
    assert!(
        sub.exit_transitions.is_empty(),
        "the compiled fallback is not listed: {:?}",
        sub.exit_transitions
    );
    let v = json::controller(&m, "case.bundle", 1);
    let exits = &v["layers"][0]["state_machine"]["state_machines"][0]["exit_transitions"];
    assert_eq!(exits, &serde_json::json!([]));
    // Go! enters Inner (clip Two, 2 s) through the sub-machine's Entry; at nt 0.5, 1 s
    // later, it leaves through the Exit, which falls back to the parent's default state
    // (§4.6).
    let out = run(&m, "0.1:Go!", &[0.3, 1.5]);
    assert_eq!(out[0].states[0].path, "Base Layer.Sub.Inner");
    assert_eq!(out[1].states.len(), 1);
    assert_eq!(out[1].states[0].path, "Base Layer.Idle");
}

#[test]
fn a_blend_tree_without_children_is_a_tree_not_a_missing_motion() {
    let m = model(&empty_blend_tree_state());
    let states = &m.layers[0].state_machine.states;
    match &states[0].motion {
        Some(Motion::BlendTree(t)) => {
            assert!(t.children.is_empty());
            assert_eq!(t.kind, BlendKind::Simple1D);
            assert_eq!(t.parameter.as_deref(), Some("Blend"));
        }
        other => panic!("Empty: expected an empty blend tree, got {other:?}"),
    }
    assert_eq!(states[1].motion, None, "Nothing has no motion");
    let v = json::controller(&m, "case.bundle", 1);
    let s = &v["layers"][0]["state_machine"]["states"];
    assert_eq!(s[0]["motion"]["children"], serde_json::json!([]));
    assert_eq!(s[0]["motion"]["blend_tree"], "1d");
    assert_eq!(s[1]["motion"], serde_json::Value::Null);
    // It plays as a state without leaves of length 1 s.
    let out = run(&m, "", &[0.5]);
    assert!(out[0].states[0].leaves.is_empty());
    assert!(close(out[0].states[0].length, 1.0));
    assert!(close(out[0].states[0].normalized_time, 0.5));
}

#[test]
fn a_transition_interrupted_by_its_destination_freezes_the_source_clock() {
    let m = model(&crossfade_over_crossfade());
    // Go! before update 30 starts A -> B (0.5 s); Again! before update 45 is tested at
    // update 45, after A advanced to 45/60 and p to 15/30: B -> C interrupts.
    let out = run(&m, "0.5:Go!;0.75:Again!", &[0.75, 1.0]);
    let t = out[0].transition.as_ref().expect("a transition");
    assert_eq!(
        (t.from.as_str(), t.to.as_str()),
        ("Base Layer.A", "Base Layer.C")
    );
    assert!(close(t.progress, 0.0));
    assert_state(&out[0].states[0], "Base Layer.A", 0.75, 1.0, true);
    let frozen = &out[0].states[0];
    assert!(close(frozen.length, 1.0), "A's length, {}", frozen.length);
    let weights: Vec<f64> = frozen.leaves.iter().map(|l| l.weight).collect();
    assert!(
        close(weights[0], 0.5) && close(weights[1], 0.5),
        "{weights:?}"
    );
    assert_state(&out[0].states[1], "Base Layer.C", 0.0, 0.0, false);
    // Fifteen updates later: the frozen clock has not moved, C has played 0.25 s.
    assert_state(&out[1].states[0], "Base Layer.A", 0.75, 0.5, true);
    assert_state(&out[1].states[1], "Base Layer.C", 0.25, 0.5, false);
}

#[test]
fn a_crossfade_over_a_crossfade_freezes_at_the_moment_of_the_call() {
    let m = model(&crossfade_over_crossfade());
    // Both crossfades apply before the updates that reach 0.5 and 0.75: the first one has
    // advanced through updates 30 to 44 (p = 15/30) and A through 44 updates when the
    // second one freezes them.
    let out = run(
        &m,
        "0.5:crossfade Base Layer.B 0.5;0.75:crossfade Base Layer.C 0.5",
        &[0.75, 1.0],
    );
    let a_nt = 44.0 / 60.0;
    assert_state(&out[0].states[0], "Base Layer.A", a_nt, 29.0 / 30.0, true);
    assert_state(
        &out[0].states[1],
        "Base Layer.C",
        1.0 / 60.0,
        1.0 / 30.0,
        false,
    );
    let leaves: Vec<f64> = out[0].states[0]
        .leaves
        .iter()
        .map(|l| l.tree_weight)
        .collect();
    assert!(close(leaves[0], 0.5) && close(leaves[1], 0.5), "{leaves:?}");
    assert_state(&out[1].states[0], "Base Layer.A", a_nt, 14.0 / 30.0, true);
}

#[test]
fn an_any_state_transition_to_the_current_state_needs_can_transition_to_self() {
    // With it: Hit! restarts A; the old instance fades out over 0.25 s (§6.16).
    let m = model(&any_state_to_current(true));
    let out = run(&m, "0.5:Hit!", &[0.6, 1.0]);
    let t = out[0].transition.as_ref().expect("A -> A runs");
    assert_eq!(
        (t.from.as_str(), t.to.as_str()),
        ("Base Layer.A", "Base Layer.A")
    );
    assert!(close(t.progress, 6.0 / 15.0), "{}", t.progress);
    assert_state(&out[0].states[0], "Base Layer.A", 0.6, 9.0 / 15.0, false);
    assert_state(&out[0].states[1], "Base Layer.A", 0.1, 6.0 / 15.0, false);
    // The trigger was consumed: one restart only.
    assert!(out[1].transition.is_none());
    assert_state(&out[1].states[0], "Base Layer.A", 0.5, 1.0, false);

    // Without it: nothing starts, and the trigger stays set.
    let m = model(&any_state_to_current(false));
    let out = run(&m, "0.5:Hit!", &[0.6, 1.0]);
    assert!(out[0].transition.is_none() && out[1].transition.is_none());
    assert_state(&out[1].states[0], "Base Layer.A", 1.0, 1.0, false);
    let mut a = Animator::new(&m);
    a.params.set_trigger("Hit").expect("a trigger");
    for _ in 0..10 {
        a.update(1.0 / FPS);
    }
    assert_eq!(a.params.get("Hit"), 1.0, "not consumed");
}

#[test]
fn leaves_above_weight_zero_fire_their_clip_events_with_their_weight() {
    use clipscope_authoring::Event;
    use clipscope_core::animator::events::EventTracker;
    use clipscope_core::workspace::ObjectRef;
    let event = |time: f32, function: &str| Event {
        time,
        function: function.into(),
        data: String::new(),
        float: 0.0,
        int: 0,
        ..Event::default()
    };
    let mut one = clip("One", 1.0);
    let mut two = clip("Two", 2.0);
    if let (ClipSpec::Mecanim(a), ClipSpec::Mecanim(b)) = (&mut one, &mut two) {
        a.events = vec![event(0.31, "Step")];
        b.events = vec![event(0.125, "Mid")];
    }
    let bytes = write_controller_bundle(&[one, two], &crossfade_over_crossfade()).expect("writes");
    let ws = Workspace::open_bytes(Path::new("events.bundle"), bytes, &OpenOptions::default());
    let m = ws.controllers[0].model.clone().expect("decodes");
    let data = |file: usize, path_id: i64| {
        ws.clip(ObjectRef { file, path_id })
            .and_then(|c| c.data.as_ref().ok())
    };
    let mut a = Animator::new(&m);
    let mut tracker = EventTracker::default();
    let mut fired = Vec::new();
    tracker.update(&a.output(), &data);
    for update in 1..=150 {
        if update == 120 {
            a.params.set_trigger("Go").expect("a trigger");
        }
        a.update(1.0 / FPS);
        for f in tracker.update(&a.output(), &data) {
            fired.push((update, f.event.function, f.state, f.weight));
        }
    }
    // A (One, looping 1 s) passes 0.31 s at updates 19 and 79 alone, and at 139 while
    // A -> B (0.5 s, from update 120) is at p = 19/30; B (Two, 2 s) passes 0.125 s at update
    // 128, at p = 8/30.
    let expected = [
        (19, "Step", "Base Layer.A", 1.0),
        (79, "Step", "Base Layer.A", 1.0),
        (128, "Mid", "Base Layer.B", 8.0 / 30.0),
        (139, "Step", "Base Layer.A", 11.0 / 30.0),
    ];
    assert_eq!(fired.len(), expected.len(), "{fired:?}");
    for ((u, f, s, w), (eu, ef, es, ew)) in fired.iter().zip(expected) {
        assert_eq!((*u, f.as_str(), s.as_str()), (eu, ef, es), "{fired:?}");
        assert!((w - ew).abs() < 1e-9, "{fired:?}");
    }
}
