//! `OwnedAnimator` on the demo's locomotion controller, opened as the viewer opens it (a
//! file of its own: the workspace sits above the animator, and only these tests need it).

use std::path::Path;

use super::*;
use crate::animator::params::ParamError;
use crate::workspace::{OpenOptions, Workspace};
use clipscope_authoring::demo_controller::locomotion_bytes;

fn locomotion() -> OwnedAnimator {
    let bytes = locomotion_bytes().expect("writes");
    let ws = Workspace::open_bytes(
        Path::new("locomotion.bundle"),
        bytes,
        &OpenOptions::default(),
    );
    let model = ws.controllers[0].model.clone().expect("decodes");
    OwnedAnimator::new(Arc::new(model))
}

/// The single state of layer 0 with its leaves' clip names and weights.
fn only_state(a: &OwnedAnimator) -> (String, Vec<(String, f64)>) {
    let layer = &a.output()[0];
    assert!(layer.transition.is_none(), "{:?}", layer.transition);
    let [state] = layer.states.as_slice() else {
        panic!("{:?}", layer.states)
    };
    let leaves = state
        .leaves
        .iter()
        .map(|l| (l.clip.clone().unwrap_or_default(), l.weight))
        .collect();
    (state.path.clone(), leaves)
}

#[test]
fn a_speed_set_between_updates_crossfades_into_the_blend_tree() {
    // Updates of 1/32 s: the 0.25 s crossfade takes 8 of them, exactly.
    let dt = 1.0 / 32.0;
    let mut a = locomotion();
    assert_eq!(only_state(&a).0, "Base Layer.Idle");
    a.advance(dt);
    a.set_float("Speed", 1.5).unwrap();
    a.advance(dt);
    let t = a.output()[0]
        .transition
        .clone()
        .expect("Idle → Move starts");
    assert_eq!(
        (t.from.as_str(), t.to.as_str()),
        ("Base Layer.Idle", "Base Layer.Move")
    );
    assert_eq!((t.progress, t.duration), (0.0, 0.25));
    for _ in 0..3 {
        a.advance(dt);
    }
    let layer = &a.output()[0];
    assert_eq!(layer.transition.as_ref().map(|t| t.progress), Some(0.375));
    let weights: Vec<f64> = layer.states.iter().map(|s| s.weight).collect();
    assert_eq!(weights, [0.625, 0.375]);
    for _ in 0..5 {
        a.advance(dt);
    }
    let (path, leaves) = only_state(&a);
    assert_eq!(path, "Base Layer.Move");
    assert_eq!(leaves, [("Walk".into(), 0.5), ("Run".into(), 0.5)]);
    a.set_float("Speed", 1.75).unwrap();
    a.advance(dt);
    let weights: Vec<f64> = only_state(&a).1.iter().map(|l| l.1).collect();
    assert_eq!(weights, [0.25, 0.75]);
    assert_eq!(a.time, 11.0 * dt);
}

#[test]
fn parameters_are_set_by_kind_and_triggers_fire_once() {
    let mut a = locomotion();
    assert_eq!(
        a.set_int("Speed", 1),
        Err(ParamError::Kind {
            name: "Speed".into(),
            kind: "float",
            wanted: "int"
        })
    );
    assert!(matches!(
        a.set_bool("Grounded", true),
        Err(ParamError::Unknown(_))
    ));
    assert!(a.set_trigger("Speed").is_err());
    a.set_trigger("Wave").unwrap();
    assert_eq!(a.parameter("Wave"), Some(1.0));
    a.advance(0.1);
    assert_eq!(
        a.parameter("Wave"),
        Some(0.0),
        "consumed by Any State → Wave"
    );
    let t = a.output()[0].transition.clone().unwrap();
    assert_eq!(t.to, "Base Layer.Wave");
    a.set_trigger("Wave").unwrap();
    a.reset_trigger("Wave").unwrap();
    assert_eq!(a.parameter("Wave"), Some(0.0));
    let kinds: Vec<_> = a.parameters().iter().map(|p| (p.0, p.1)).collect();
    assert_eq!(
        kinds,
        [
            ("Speed", ParameterKind::Float),
            ("Wave", ParameterKind::Trigger)
        ]
    );
}

#[test]
fn play_jumps_into_a_state_at_once() {
    let mut a = locomotion();
    a.set_float("Speed", 2.0).unwrap();
    a.play("Base Layer.Move", 0.5).unwrap();
    let state = &a.output()[0].states[0];
    assert_eq!(state.path, "Base Layer.Move");
    assert_eq!(state.normalized_time, 0.5);
    // Run alone: 0.6 s, so half way is 0.3 s.
    let run = &state.leaves[1];
    assert_eq!((run.weight, run.clip_time as f32), (1.0, 0.3));
    assert!(a.play("Base Layer.Fly", 0.0).is_err());
    a.advance(0.06);
    let state = &a.output()[0].states[0];
    // The clip length is an f32.
    assert!((state.normalized_time - 0.6).abs() < 1e-7, "{state:?}");
}
