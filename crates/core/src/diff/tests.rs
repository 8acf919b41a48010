//! The comparison on small clips built in memory.

use super::*;
use crate::clip::{BlockCounts, ClipCurve, ClipEvent, build_tracks};
use crate::curve::{Curve, Key};

fn binding(path: u32, attribute: u32) -> GenericBinding {
    GenericBinding {
        path,
        attribute,
        type_id: 4,
        custom_type: 0,
        is_pptr: false,
        is_int: false,
        script: (0, 0),
        path_name: None,
        attribute_name: None,
    }
}

/// A keyframed clip from `[start, stop]` at `rate` whose bindings take the given curves in
/// component order.
fn clip(start: f32, stop: f32, rate: f32, tracks: Vec<(GenericBinding, Vec<Curve>)>) -> ClipData {
    let mut bindings = Vec::new();
    let mut curves = Vec::new();
    for (b, list) in tracks {
        for (component, curve) in list.into_iter().enumerate() {
            curves.push(ClipCurve {
                curve,
                storage: Storage::Streamed,
                binding: Some(bindings.len()),
                component: component as u8,
            });
        }
        bindings.push(b);
    }
    ClipData {
        name: "c".into(),
        legacy: false,
        keyframed: false,
        start,
        stop,
        sample_rate: rate,
        wrap_mode_code: 0,
        loop_time: false,
        cycle_offset: 0.0,
        settings: Default::default(),
        counts: BlockCounts::default(),
        tracks: build_tracks(bindings.len(), &curves),
        bindings,
        curves,
        pptr_mapping: Vec::new(),
        events: Vec::new(),
        warnings: Vec::new(),
        summary_only: None,
    }
}

fn line(v0: f32, v1: f32) -> Curve {
    Curve::from_keys(vec![
        Key::new(0.0, v0, v1 - v0, v1 - v0),
        Key::new(1.0, v1, v1 - v0, v1 - v0),
    ])
}

#[test]
fn the_grid_joins_both_rates_their_midpoints_and_key_times() {
    let mut a = clip(0.0, 1.0, 2.0, vec![(binding(1, 1), vec![line(0.0, 1.0)])]);
    let b = clip(0.0, 1.5, 4.0, vec![]);
    a.curves[0].curve = Curve::from_keys(vec![
        Key::new(0.0, 0.0, 0.0, 0.0),
        Key::new(0.3, 1.0, 0.0, 0.0),
    ]);
    // Frames: a at 0, .5, 1, 1.5 (over the union [0, 1.5]); b at every .25. Midpoints every
    // .125; key time .3.
    let mut expected: Vec<f64> = (0..=12).map(|i| i as f64 * 0.125).collect();
    expected.push(0.3);
    expected.sort_by(f64::total_cmp);
    let got = comparison_times(&a, &b);
    assert_eq!(got.len(), expected.len(), "{got:?}");
    for (g, e) in got.iter().zip(&expected) {
        // The key time is an f32.
        assert!((g - e).abs() < 1e-7, "{got:?}");
    }
}

#[test]
fn a_clip_against_itself_differs_nowhere() {
    let a = clip(
        0.0,
        1.0,
        30.0,
        vec![
            (
                binding(1, 1),
                vec![line(0.0, 1.0), line(2.0, 3.0), line(0.0, 0.0)],
            ),
            (
                binding(1, 2),
                vec![
                    line(0.0, 0.5),
                    line(0.0, 0.0),
                    line(0.0, 0.0),
                    line(1.0, 0.8),
                ],
            ),
        ],
    );
    let d = diff_clips(&a, &a);
    assert_eq!(d.curves.len(), 7);
    assert!(d.only_in_a.is_empty() && d.only_in_b.is_empty() && d.facts.is_empty());
    assert_eq!(d.max_abs, 0.0);
    for c in &d.curves {
        assert_eq!((c.max_abs, c.rms), (0.0, 0.0));
        let rotation = c.key.attribute == 2;
        assert_eq!(c.angle_deg, rotation.then_some(0.0), "{:?}", c.key);
    }
    assert!(d.within(0.0));
}

#[test]
fn an_offset_curve_differs_by_the_offset_and_rotations_by_their_angle() {
    let yaw = |deg: f64| {
        let h = (deg.to_radians() / 2.0) as f32;
        vec![
            Curve::constant(0.0),
            Curve::constant(h.sin()),
            Curve::constant(0.0),
            Curve::constant(h.cos()),
        ]
    };
    let a = clip(
        0.0,
        1.0,
        10.0,
        vec![
            (binding(1, 1), vec![line(0.0, 1.0)]),
            (binding(2, 2), yaw(10.0)),
        ],
    );
    let b = clip(
        0.0,
        1.0,
        10.0,
        vec![
            (binding(1, 1), vec![line(0.5, 1.5)]),
            (binding(2, 2), yaw(40.0)),
        ],
    );
    let d = diff_clips(&a, &b);
    assert!((d.curves[0].max_abs - 0.5).abs() < 1e-6);
    assert!((d.curves[0].rms - 0.5).abs() < 1e-6);
    assert_eq!(d.curves[0].angle_deg, None);
    for c in &d.curves[1..] {
        let angle = c.angle_deg.expect("a rotation");
        assert!((angle - 30.0).abs() < 1e-3, "{angle}");
    }
    assert!(!d.within(0.4) && d.within(0.6));
}

#[test]
fn unmatched_curves_are_listed_per_side_and_repeats_pair_in_order() {
    let a = clip(
        0.0,
        1.0,
        30.0,
        vec![
            (binding(1, 7), vec![line(0.0, 1.0)]),
            (binding(1, 7), vec![line(0.0, 2.0)]),
            (binding(3, 7), vec![line(0.0, 1.0)]),
        ],
    );
    let b = clip(
        0.0,
        1.0,
        30.0,
        vec![
            (binding(1, 7), vec![line(0.0, 1.0)]),
            (binding(4, 7), vec![line(0.0, 1.0)]),
        ],
    );
    let d = diff_clips(&a, &b);
    assert_eq!(d.curves.len(), 1);
    assert_eq!((d.curves[0].a_index, d.curves[0].b_index), (0, 0));
    assert_eq!(d.curves[0].max_abs, 0.0);
    let key = |path| CurveKey {
        path,
        type_id: 4,
        attribute: 7,
        component: 0,
    };
    assert_eq!(d.only_in_a, [key(1), key(3)]);
    assert_eq!(d.only_in_b, [key(4)]);
    assert!(!d.within(1.0));
}

#[test]
fn differing_facts_are_listed() {
    let a = clip(0.0, 1.0, 30.0, vec![]);
    let mut b = clip(0.0, 2.0, 60.0, vec![]);
    b.loop_time = true;
    b.events.push(ClipEvent {
        time: 0.5,
        function: "Step".into(),
        data: String::new(),
        float: 0.0,
        int: 1,
        ..ClipEvent::default()
    });
    let d = diff_clips(&a, &b);
    let what: Vec<&str> = d.facts.iter().map(|f| f.what).collect();
    assert_eq!(what, ["length", "sample_rate", "loop", "wrap", "events"]);
    assert_eq!(d.facts[0].b, FactValue::Number(2.0));
    assert_eq!(d.facts[3].a, FactValue::Text("clamp".into()));
    assert_eq!(d.facts[3].b, FactValue::Text("loop".into()));
    assert_eq!(d.facts[4].b, FactValue::Text("0.5 Step(\"\", 0, 1)".into()));
}

#[test]
fn quaternion_angles_follow_the_closed_form() {
    let q = |deg: f64| {
        let h = deg.to_radians() / 2.0;
        [h.sin(), 0.0, 0.0, h.cos()]
    };
    assert!((quaternion_angle_deg(q(0.0), q(90.0)).unwrap() - 90.0).abs() < 1e-9);
    // q and -q are one rotation; scale does not matter.
    let neg = q(30.0).map(|c| -2.0 * c);
    assert!(quaternion_angle_deg(q(30.0), neg).unwrap().abs() < 1e-6);
    assert_eq!(quaternion_angle_deg([0.0; 4], q(10.0)), None);
}

#[test]
fn non_finite_values_differ_infinitely_and_serialize_as_null() {
    let a = clip(
        0.0,
        1.0,
        1.0,
        vec![(binding(1, 9), vec![Curve::constant(f32::NAN)])],
    );
    let b = clip(
        0.0,
        1.0,
        1.0,
        vec![(binding(1, 9), vec![Curve::constant(1.0)])],
    );
    let d = diff_clips(&a, &b);
    assert_eq!(d.curves[0].max_abs, f64::INFINITY);
    assert!(!d.within(1e9));
    let json = serde_json::to_value(&d).unwrap();
    assert!(json["max_abs"].is_null() && json["curves"][0]["max_abs"].is_null());
    assert_eq!(diff_clips(&a, &a).max_abs, 0.0);
}
