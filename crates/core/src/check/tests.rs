use std::collections::BTreeMap;

use super::*;
use crate::clip::{BlockCounts, ClipCurve, LegacyKind, build_tracks};
use crate::clip::{ClipData, GenericBinding, Storage};
use crate::curve::{Curve, Key, WEIGHTED_IN};
use crate::hash::path_hash;
use crate::rig::{RigComponent, Skeleton};
use crate::workspace::ClipEntry;
use crate::workspace::{ObjectRef, RigEntry};

const INF: f32 = f32::INFINITY;

fn binding(path: u32, attribute: u32) -> GenericBinding {
    GenericBinding {
        path,
        attribute,
        type_id: 114,
        custom_type: 0,
        is_pptr: false,
        is_int: false,
        script: (0, 0),
        path_name: None,
        attribute_name: None,
    }
}

/// A legacy one-second clip at `rate` Hz with wrap code `wrap` and one float binding per
/// curve (path 7, attribute = curve index).
fn clip_at(wrap: i32, rate: f32, curves: Vec<Curve>) -> ClipData {
    let bindings: Vec<GenericBinding> = (0..curves.len()).map(|i| binding(7, i as u32)).collect();
    let curves: Vec<ClipCurve> = curves
        .into_iter()
        .enumerate()
        .map(|(i, curve)| ClipCurve {
            curve,
            storage: Storage::Legacy(LegacyKind::Float),
            binding: Some(i),
            component: 0,
        })
        .collect();
    ClipData {
        name: "Clip".into(),
        legacy: true,
        keyframed: true,
        start: 0.0,
        stop: 1.0,
        sample_rate: rate,
        wrap_mode_code: wrap,
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

const LOOP: i32 = 2;
const PING_PONG: i32 = 4;
const ONCE: i32 = 1;

fn clip(wrap: i32, curves: Vec<Curve>) -> ClipData {
    clip_at(wrap, 60.0, curves)
}

fn keys(keys: &[(f32, f32, f32, f32)]) -> Curve {
    Curve::from_keys(
        keys.iter()
            .map(|&(t, v, i, o)| Key::new(t, v, i, o))
            .collect(),
    )
}

fn check(clip: &ClipData) -> ClipReport {
    check_clip(clip, None, &BTreeMap::new())
}

fn seams(clip: &ClipData) -> Vec<(usize, Seam, f32, f32)> {
    check(clip)
        .seams
        .iter()
        .map(|s| (s.curve, s.seam, s.value_jump, s.slope_jump))
        .collect()
}

#[test]
fn a_loop_from_0_to_1_jumps_by_1_and_matching_end_slopes_do_not_jump() {
    let c = clip(
        LOOP,
        vec![keys(&[(0.0, 0.0, 2.0, 2.0), (1.0, 1.0, 2.0, 2.0)])],
    );
    let names = BTreeMap::from([(7, "Body".to_string())]);
    let r = check_clip(&c, None, &names);
    assert_eq!(r.wrap, "loop");
    assert_eq!((r.length, r.sample_rate), (1.0, 60.0));
    let inner = r.seams[0].inner_slope_jump;
    assert!((inner - 0.1).abs() < 0.005, "{inner}");
    assert_eq!(
        r.seams,
        [SeamJump {
            curve: 0,
            binding: "Body: attribute 0x00000000".into(),
            component: 0,
            seam: Seam::Loop,
            value_jump: 1.0,
            joint: "Body: attribute 0x00000000".into(),
            measure: Measure::Float,
            // The curve covers 0..1, so the jump is its whole range.
            jump: 1.0,
            slope_jump: 0.0,
            // 2t³ - 3t² + 2t: its slope changes by up to |p''| = 6/s² · 1/60 s per frame.
            inner_slope_jump: inner,
            severity: Severity::Problem,
        }]
    );
    assert_eq!((r.problems, r.notes), (1, 0));
}

#[test]
fn a_loop_whose_end_slopes_differ_has_a_slope_jump_only() {
    // 0 at both ends; leaves with slope 1, arrives with slope -1.
    let c = clip(
        LOOP,
        vec![keys(&[(0.0, 0.0, 0.0, 1.0), (1.0, 0.0, -1.0, 0.0)])],
    );
    // The curve rises to 0.25 at 0.5 s and back: its range is 0.25, so the slope jump of
    // 2/s is 8 ranges a second.
    assert_eq!(seams(&c), [(0, Seam::Loop, 0.0, 8.0)]);
}

#[test]
fn a_seamless_loop_and_clips_that_do_not_loop_report_no_seam() {
    let seamless = keys(&[
        (0.0, 0.0, 1.0, 1.0),
        (0.5, 1.0, 0.0, 0.0),
        (1.0, 0.0, 1.0, 1.0),
    ]);
    assert!(seams(&clip(LOOP, vec![seamless])).is_empty());
    let ramp = || keys(&[(0.0, 0.0, 2.0, 2.0), (1.0, 1.0, 2.0, 2.0)]);
    for wrap in [0, ONCE, 8] {
        assert!(seams(&clip(wrap, vec![ramp()])).is_empty(), "wrap {wrap}");
    }
    // Mecanim: Loop Time makes it a loop; without it the Animator holds the last frame.
    let mut mecanim = clip(0, vec![ramp()]);
    mecanim.legacy = false;
    assert_eq!(check(&mecanim).wrap, "clamp");
    assert!(seams(&mecanim).is_empty());
    mecanim.loop_time = true;
    assert_eq!(check(&mecanim).wrap, "loop");
    assert_eq!(seams(&mecanim), [(0, Seam::Loop, 1.0, 0.0)]);
}

#[test]
fn the_seam_uses_the_segment_arriving_at_stop_not_the_key_applying_from_it() {
    // A jump to 0 exactly at stop: Curve::sample(stop) is 0, but a loop shows 5 there.
    let jump = keys(&[
        (0.0, 0.0, 0.0, 0.0),
        (1.0, 5.0, 0.0, 0.0),
        (1.0, 0.0, 0.0, 0.0),
    ]);
    assert_eq!(jump.sample(1.0), 0.0);
    assert_eq!(seams(&clip(LOOP, vec![jump])), [(0, Seam::Loop, 5.0, 0.0)]);
    // A step held into stop: the loop shows 3 until the seam and 3 after it.
    let held = Curve::from_keys(vec![Key::step(0.0, 3.0), Key::new(1.0, 0.0, 0.0, 0.0)]);
    assert_eq!(held.sample(1.0), 0.0);
    assert!(seams(&clip(LOOP, vec![held])).is_empty());
}

#[test]
fn a_last_key_an_ulp_before_stop_still_counts_as_at_stop() {
    // Without snapping, the 0.06 µs clamped stretch would give slope 0 at stop.
    let before_stop = 1.0f32.next_down();
    let c = clip(
        LOOP,
        vec![keys(&[(0.0, 0.0, 1.0, 1.0), (before_stop, 1.0, 1.0, 1.0)])],
    );
    assert_eq!(c.curves[0].curve.slope(1.0), 0.0);
    assert_eq!(seams(&c), [(0, Seam::Loop, 1.0, 0.0)]);
}

#[test]
fn a_ping_pong_clip_turns_its_slopes_at_both_ends() {
    let c = clip(
        PING_PONG,
        vec![keys(&[(0.0, 0.0, 1.0, 1.0), (1.0, 1.0, 3.0, 3.0)])],
    );
    let r = check(&c);
    assert_eq!(r.wrap, "pingpong");
    assert_eq!(
        seams(&c),
        [
            // 2t³ - 2t² + t rises monotonically over 0..1: range 1, so the turns from 3 to
            // -3 and from -1 to 1 are 6 and 2 ranges a second.
            (0, Seam::PingPongStop, 0.0, 6.0),
            (0, Seam::PingPongStart, 0.0, 2.0)
        ]
    );
    // Flat ends turn smoothly.
    let flat = keys(&[(0.0, 0.0, 0.0, 0.0), (1.0, 1.0, 0.0, 0.0)]);
    assert!(seams(&clip(PING_PONG, vec![flat])).is_empty());
}

#[test]
fn jumps_within_the_tolerance_are_not_reported() {
    let step_to = |a: f32, b: f32| keys(&[(0.0, a, 0.0, 0.0), (1.0, b, 0.0, 0.0)]);
    // 5e-6 on 1; 0.05 on 10000 (5e-6 relative): below 1e-5.
    assert!(seams(&clip(LOOP, vec![step_to(1.0, 1.000005)])).is_empty());
    assert!(seams(&clip(LOOP, vec![step_to(10000.0, 10000.05)])).is_empty());
    // 0.002 on 100 is 2e-5 relative: reported.
    let r = seams(&clip(LOOP, vec![step_to(100.0, 100.002)]));
    assert_eq!(r.len(), 1);
    assert!((r[0].2 - 0.002).abs() < 1e-4, "{r:?}");
    // A slope jump of 0.001/s moves the value 1.7e-5 in a 60 Hz frame: not reported; in a
    // 1 Hz frame it moves it 1e-3: reported, relative to the curve's range (0.001 t(1-t)²
    // peaks at 4/27 · 0.001).
    let slow = || keys(&[(0.0, 0.0, 0.001, 0.001), (1.0, 0.0, 0.0, 0.0)]);
    assert!(seams(&clip_at(LOOP, 60.0, vec![slow()])).is_empty());
    let r = seams(&clip_at(LOOP, 1.0, vec![slow()]));
    assert_eq!((r.len(), r[0].2), (1, 0.0));
    assert!((r[0].3 - 27.0 / 4.0).abs() < 0.07, "{r:?}");
}

#[test]
fn dense_seams_count_only_when_sharper_than_every_corner_inside() {
    // Frames every 0.25 s. A triangle: the seam corner (-8/s) is as sharp as the peak's.
    let triangle = Curve::sampled(0.0, 4.0, vec![0.0, 1.0, 2.0, 1.0, 0.0]);
    assert!(seams(&clip(LOOP, vec![triangle])).is_empty());
    // A plateau: corners of 4/s inside, -8/s at the seam.
    let plateau = Curve::sampled(0.0, 4.0, vec![0.0, 1.0, 1.0, 1.0, 0.0]);
    // (range 1: the slope jump of 8/s is 8 ranges a second)
    assert_eq!(
        seams(&clip(LOOP, vec![plateau])),
        [(0, Seam::Loop, 0.0, 8.0)]
    );
    // A dense value jump counts whatever the corners.
    let ramp = Curve::sampled(0.0, 4.0, vec![0.0, 1.0, 2.0, 3.0, 4.0]);
    assert_eq!(seams(&clip(LOOP, vec![ramp])), [(0, Seam::Loop, 4.0, 0.0)]);
}

#[test]
fn one_sided_limits_of_dense_curves() {
    let c = Curve::sampled(0.0, 4.0, vec![0.0, 1.0, 3.0]);
    assert_eq!(left_limit(&c, 0.5), (3.0, 8.0));
    assert_eq!(right_limit(&c, 0.0), (0.0, 4.0));
    assert_eq!(left_limit(&c, 0.25), (1.0, 4.0));
    assert_eq!(right_limit(&c, 0.25), (1.0, 8.0));
    // Curve::slope holds at both ends.
    assert_eq!((c.slope(0.0), c.slope(0.5)), (0.0, 0.0));
    // Past the frames the curve holds.
    assert_eq!(left_limit(&c, 2.0), (3.0, 0.0));
    assert_eq!(right_limit(&c, -1.0), (0.0, 0.0));
    assert_eq!(left_limit(&Curve::constant(2.0), 1.0), (2.0, 0.0));
}

#[test]
fn steps_list_the_keys_that_start_held_segments() {
    let stepped = Curve::from_keys(vec![
        Key::new(0.0, 0.0, 0.0, 0.0),
        Key::step(0.25, 1.0),
        Key::new(0.5, 2.0, 0.0, 0.0),
        Key::new(0.75, 3.0, INF, 0.0),
        Key::new(1.0, 4.0, 0.0, 0.0),
    ]);
    let smooth = keys(&[(0.0, 0.0, 0.0, 0.0), (1.0, 1.0, 0.0, 0.0)]);
    let mut c = clip(ONCE, vec![stepped, smooth]);
    let r = check(&c);
    assert_eq!(
        r.steps,
        [StepInfo {
            curve: 0,
            binding: "path 0x00000007: attribute 0x00000000".into(),
            component: 0,
            times: vec![0.25, 0.5],
            joint: "path 0x00000007: attribute 0x00000000".into(),
            measure: Measure::Float,
            // Held at 1 until 0.5 then 2, held at 2 until 0.75 then 3: jumps of 1 on a
            // curve covering 0..4, first at 0.5.
            jump: 0.25,
            slope_jump: 0.0,
            at: 0.5,
            severity: Severity::Problem,
        }]
    );
    assert_eq!(
        (r.problems, r.notes),
        (1, 0),
        "a quarter of the range is visible"
    );
    // A PPtr curve holds every key by nature: not listed.
    c.bindings[0].is_pptr = true;
    assert!(check(&c).steps.is_empty());
}

#[test]
fn the_initial_key_of_a_streamed_curve_is_not_a_step() {
    let keys = [
        Key::step(-f32::MAX, 0.0),
        Key::new(0.5, 1.0, 0.0, 0.0),
        Key::new(1.0, 1.0, 0.0, 0.0),
    ];
    assert!(step_times(&keys).is_empty());
    assert_eq!(
        step_times(&[Key::step(0.0, 1.0), Key::step(0.5, 2.0)]),
        [0.0]
    );
}

#[test]
fn non_finite_values_are_grouped_per_curve_and_kind() {
    let mut weighted = Key::new(0.5, 1.0, f32::NAN, INF);
    weighted.weighted_mode = WEIGHTED_IN;
    weighted.in_weight = f32::NAN;
    weighted.out_weight = f32::NAN; // not weighted out: unused, not reported
    let bad_keys = Curve::from_keys(vec![
        Key::new(0.0, f32::NAN, 0.0, 0.0),
        weighted,
        Key::new(1.0, INF, 0.0, 0.0),
    ]);
    let dense = Curve::sampled(0.0, 4.0, vec![0.0, f32::NAN, INF, 1.0]);
    let constant = Curve::constant(f32::NEG_INFINITY);
    let fine = keys(&[(0.0, 0.0, INF, INF), (1.0, 1.0, -INF, 0.0)]);
    let r = check(&clip(ONCE, vec![bad_keys, dense, constant, fine]));
    let got: Vec<(usize, NonFiniteWhat, usize, usize, &str)> = r
        .non_finite
        .iter()
        .map(|n| (n.curve, n.what, n.first_index, n.count, n.value.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (0, NonFiniteWhat::KeyValue, 0, 2, "NaN"),
            (0, NonFiniteWhat::InSlope, 1, 1, "NaN"),
            (0, NonFiniteWhat::InWeight, 1, 1, "NaN"),
            (1, NonFiniteWhat::Sample, 1, 2, "NaN"),
            (2, NonFiniteWhat::Constant, 0, 1, "-inf"),
        ]
    );
    // Five non-finite entries, and the `fine` curve's step from 0 to 1 (its whole range);
    // the step of `bad_keys` into an infinite value is left to the non-finite entry.
    assert_eq!(r.steps.len(), 2);
    assert_eq!(r.steps[1].severity, Severity::Problem);
    assert_eq!(r.steps[0].jump, 0.0);
    assert_eq!((r.problems, r.notes), (6, 1));
    let json = serde_json::to_value(&r.non_finite[3]).unwrap();
    assert_eq!(json["what"], "sample");
    assert_eq!(json["value"], "NaN");
}

#[test]
fn keys_past_the_curve_count_are_read_from_the_decoder_warning() {
    let warnings = vec![
        "3 streamed keys index curves past the 5 streamed curves; they were left out".to_string(),
        "streamed block does not end with the +inf frame".to_string(),
        "some streamed keys index curves past the end".to_string(),
    ];
    assert_eq!(keys_past_curve_count(&warnings), 3);
    assert_eq!(keys_past_curve_count(&[]), 0);
    let mut c = clip(ONCE, vec![Curve::constant(0.0)]);
    c.warnings = warnings;
    let r = check(&c);
    assert_eq!((r.keys_past_curve_count, r.problems), (3, 1));
}

#[test]
fn unmatched_binding_paths_are_named_and_counted_when_a_skeleton_is_given() {
    let skeleton = Skeleton::from_paths(["Hips", "Hips/Spine"]);
    let arm = path_hash("Hips/Arm");
    let mut c = clip(ONCE, vec![Curve::constant(0.0); 6]);
    let mut gun = binding(path_hash("Gun"), 0);
    gun.path_name = Some("Gun".into());
    c.bindings = vec![
        binding(path_hash("Hips"), 1),
        binding(arm, 1),
        binding(arm, 2),
        binding(0xdead_beef, 1),
        binding(0, 1),
        gun,
    ];
    let names = BTreeMap::from([(arm, "Hips/Arm".to_string())]);
    let r = check_clip(&c, Some(&skeleton), &names);
    assert_eq!(
        r.unmatched_bindings,
        [
            Unmatched {
                path: arm,
                name: Some("Hips/Arm".into()),
                bindings: 2
            },
            Unmatched {
                path: 0xdead_beef,
                name: None,
                bindings: 1
            },
            Unmatched {
                path: path_hash("Gun"),
                name: Some("Gun".into()),
                bindings: 1
            },
        ]
    );
    assert_eq!(r.problems, 3);
    // Without a skeleton nothing is checked, and the report says so.
    let unchecked = check_clip(&c, None, &names);
    assert!(unchecked.unmatched_bindings.is_empty());
    assert_eq!(unchecked.rig, None);
    assert!(unchecked.rig_note.contains("not checked"));
}

#[test]
fn equal_bindings_are_duplicates_and_near_ones_are_not() {
    let mut c = clip(ONCE, vec![Curve::constant(0.0); 5]);
    let a = binding(5, 9);
    let mut same_target = a.clone();
    same_target.attribute_name = Some("m_Weight".into());
    let mut other_custom = a.clone();
    other_custom.custom_type = 20;
    let mut other_script = a.clone();
    other_script.script = (0, 42);
    c.bindings = vec![a.clone(), other_custom, same_target, other_script, a];
    let r = check(&c);
    assert_eq!(
        r.duplicate_bindings,
        [Duplicate {
            binding: "path 0x00000005: attribute 0x00000009".into(),
            indices: vec![0, 2, 4],
            count: 3,
        }]
    );
    assert_eq!(r.problems, 1);
}

#[test]
fn problems_count_every_listed_problem_but_not_notes() {
    let seam = keys(&[(0.0, 0.0, 0.0, 0.0), (1.0, 1.0, 0.0, 0.0)]);
    let stepped = Curve::from_keys(vec![Key::step(0.0, 0.0), Key::new(1.0, 0.0, 0.0, 0.0)]);
    let mut c = clip(LOOP, vec![seam, stepped, Curve::constant(f32::NAN)]);
    c.bindings[2] = c.bindings[1].clone();
    c.warnings
        .push("2 streamed keys index curves past the 3 streamed curves".into());
    let skeleton = Skeleton::from_paths(["Other"]);
    let r = check_clip(&c, Some(&skeleton), &BTreeMap::new());
    assert_eq!(r.seams.len(), 1);
    assert_eq!(r.steps.len(), 1);
    assert_eq!(r.non_finite.len(), 1);
    assert_eq!(r.keys_past_curve_count, 2);
    assert_eq!(r.unmatched_bindings.len(), 1);
    assert_eq!(r.duplicate_bindings.len(), 1);
    // The step holds 0 into 0: a note.
    assert_eq!(r.steps[0].severity, Severity::Note);
    assert_eq!((r.problems, r.notes), (5, 1));
}

fn rig(name: &str, paths: &[&str], clips: Vec<ObjectRef>) -> RigEntry {
    RigEntry {
        at: ObjectRef {
            file: 0,
            path_id: 100,
        },
        name: name.into(),
        component: RigComponent::Animator,
        skeleton: Skeleton::from_paths(paths.iter().copied()).into(),
        tos: Default::default(),
        avatar: None,
        humanoid: None,
        humanoid_error: None,
        clips,
        unresolved_clips: 0,
        controller: None,
        renderers: Vec::new(),
        apply_root_motion: false,
    }
}

fn entry(path_id: i64, name: &str, paths: &[&str]) -> ClipEntry {
    let mut c = clip(ONCE, vec![Curve::constant(0.0); paths.len()]);
    c.name = name.into();
    c.bindings = paths.iter().map(|p| binding(path_hash(p), 1)).collect();
    ClipEntry {
        at: ObjectRef { file: 0, path_id },
        name: name.into(),
        data: Ok(c),
    }
}

#[test]
fn each_clip_is_checked_against_the_rig_that_reaches_it_or_matches_most() {
    let reached = ObjectRef {
        file: 0,
        path_id: 1,
    };
    let ws = Workspace {
        rigs: vec![
            rig("A", &["Arm"], vec![reached]),
            rig("B", &["Leg", "Leg/Foot"], Vec::new()),
        ],
        clips: vec![
            entry(1, "Reached", &["Leg", "Tail"]),
            entry(2, "Walk", &["Leg", "Leg/Foot", "Tail"]),
            entry(3, "Lost", &["Nowhere"]),
            ClipEntry {
                at: ObjectRef {
                    file: 0,
                    path_id: 4,
                },
                name: "Broken".into(),
                data: Err(crate::error::Error::Object {
                    location: "f".into(),
                    path_id: 4,
                    class: "AnimationClip".into(),
                    detail: "bad".into(),
                }),
            },
        ],
        ..Default::default()
    };
    let reports = check_workspace(&ws, None);
    let summary: Vec<(&str, Option<&str>, usize, usize)> = reports
        .iter()
        .map(|r| {
            (
                r.clip.as_str(),
                r.rig.as_deref(),
                r.unmatched_bindings.len(),
                r.problems,
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("Reached", Some("A"), 2, 2),
            ("Walk", Some("B"), 1, 1),
            ("Lost", None, 0, 0),
            ("Broken", None, 0, 1),
        ]
    );
    assert_eq!(
        reports[0].rig_note,
        "its Animator's controller lists the clip"
    );
    assert_eq!(reports[1].rig_note, "matches 2 of 3 paths");
    assert_eq!(
        reports[2].rig_note,
        "no rig matches its paths: bindings not checked"
    );
    assert_eq!(
        reports[3].error.as_deref(),
        Some("f: object 4 (AnimationClip): bad")
    );
    assert_eq!(reports[1].path_id, 2);
    // Unmatched paths are named from the other rigs' joints where they have them.
    assert_eq!(
        reports[0].unmatched_bindings[0].name.as_deref(),
        Some("Leg")
    );
    // Only the named clip.
    let walk = check_workspace(&ws, Some("Walk"));
    assert_eq!(walk.len(), 1);
    assert!(check_workspace(&ws, Some("Nope")).is_empty());
}

#[test]
fn a_report_serializes_to_the_documented_fields() {
    let r = check(&clip(
        LOOP,
        vec![keys(&[(0.0, 0.0, 0.0, 0.0), (1.0, 1.0, 0.0, 0.0)])],
    ));
    let v = serde_json::to_value(&r).unwrap();
    let mut fields: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    fields.sort_unstable();
    assert_eq!(
        fields,
        [
            "clip",
            "duplicate_bindings",
            "error",
            "file",
            "humanoid",
            "keys_past_curve_count",
            "legacy",
            "length",
            "non_finite",
            "notes",
            "path_id",
            "problems",
            "rig",
            "rig_note",
            "rig_size",
            "sample_rate",
            "seams",
            "steps",
            "unmatched_bindings",
            "wrap",
        ]
    );
    assert_eq!(v["seams"][0]["seam"], "loop");
    assert_eq!(v["seams"][0]["value_jump"], 1.0);
    assert_eq!(v["seams"][0]["measure"], "float");
    assert_eq!(v["seams"][0]["jump"], 1.0);
    assert_eq!(v["seams"][0]["severity"], "problem");
    assert_eq!(
        v["seams"][0]["joint"],
        "path 0x00000007: attribute 0x00000000"
    );
    assert_eq!(v["rig_size"], 1.0);
}

/// A legacy looping clip with one Transform track (`attribute`: 1 position, 2 rotation) on
/// joint "Body", each component flat from `start` at 0 s to `end` at 1 s.
fn transform_clip(attribute: u32, start: &[f32], end: &[f32]) -> ClipData {
    let curves = start
        .iter()
        .zip(end)
        .map(|(&a, &b)| keys(&[(0.0, a, 0.0, 0.0), (1.0, b, 0.0, 0.0)]))
        .collect();
    let mut c = clip(LOOP, curves);
    c.bindings = vec![GenericBinding {
        type_id: 4,
        path_name: Some("Body".into()),
        ..binding(path_hash("Body"), attribute)
    }];
    for (i, curve) in c.curves.iter_mut().enumerate() {
        (curve.binding, curve.component) = (Some(0), i as u8);
    }
    c.tracks = build_tracks(1, &c.curves);
    c
}

/// A rig 1.8 units tall: a root and a head above it.
fn tall_rig() -> Skeleton {
    let mut s = Skeleton::from_paths(["Body", "Body/Head"]);
    s.joints[2].position = [0.0, 1.8, 0.0];
    s
}

fn only_seam(r: &ClipReport) -> &SeamJump {
    assert_eq!(r.seams.len(), 1, "{:?}", r.seams);
    &r.seams[0]
}

#[test]
fn position_seams_are_measured_against_the_rig_size() {
    let rig = tall_rig();
    assert!((measure::rig_size(Some(&rig), None) - 1.8).abs() < 1e-6);
    // 0.1 mm on a 1.8 m rig: a note.
    let r = check_clip(
        &transform_clip(1, &[0.0, 1.0, 0.0], &[0.0001, 1.0, 0.0]),
        Some(&rig),
        &BTreeMap::new(),
    );
    let s = only_seam(&r);
    assert_eq!((s.measure, s.severity), (Measure::Position, Severity::Note));
    assert_eq!(s.joint, "Body");
    assert!((s.jump - 0.0001 / 1.8).abs() < 1e-7, "{}", s.jump);
    assert_eq!((r.problems, r.notes), (0, 1));
    // 2 cm in x and z (2.83 cm): a problem.
    let r = check_clip(
        &transform_clip(1, &[0.0, 1.0, 0.0], &[0.02, 1.0, 0.02]),
        Some(&rig),
        &BTreeMap::new(),
    );
    let s = only_seam(&r);
    assert_eq!(s.severity, Severity::Problem);
    assert!((s.jump - 0.02f32.hypot(0.02) / 1.8).abs() < 1e-6);
    // Without a rig the size is 1 unit.
    let r = check(&transform_clip(1, &[0.0; 3], &[0.004, 0.0, 0.0]));
    assert_eq!(r.rig_size, 1.0);
    assert_eq!(only_seam(&r).severity, Severity::Note);
}

#[test]
fn a_socket_parked_kilometres_away_leaves_the_rig_size_the_bodys() {
    // A 1.8 m body of five joints, and a weapon socket parked 30 km away.
    let mut rig = Skeleton::from_paths([
        "Body",
        "Body/Head",
        "Body/LeftHand",
        "Body/RightHand",
        "Body/Foot",
        "Weapon",
    ]);
    let at = |rig: &Skeleton, path: &str| rig.joints.iter().position(|j| j.path == path).unwrap();
    for (path, p) in [
        ("Body", [0.0, 1.0, 0.0]),
        ("Body/Head", [0.0, 0.8, 0.0]),
        ("Body/LeftHand", [-0.7, 0.3, 0.0]),
        ("Body/RightHand", [0.7, 0.3, 0.0]),
        ("Body/Foot", [0.0, -1.0, 0.0]),
        ("Weapon", [0.0, 0.0, -30_000.0]),
    ] {
        let j = at(&rig, path);
        rig.joints[j].position = p;
    }
    assert!((measure::rig_size(Some(&rig), None) - 1.8).abs() < 1e-6);
    // 2 cm in x and z (2.83 cm) is a problem on the body, as on a rig without the socket.
    let r = check_clip(
        &transform_clip(1, &[0.0, 1.0, 0.0], &[0.02, 1.0, 0.02]),
        Some(&rig),
        &BTreeMap::new(),
    );
    assert_eq!(r.rig_size, measure::rig_size(Some(&rig), None));
    assert_eq!(only_seam(&r).severity, Severity::Problem);
}

/// (x, y, z, w) of a turn about Y.
fn about_y(degrees: f32) -> [f32; 4] {
    let (s, c) = (degrees.to_radians() / 2.0).sin_cos();
    [0.0, s, 0.0, c]
}

#[test]
fn rotation_seams_are_the_angle_between_the_two_rotations() {
    let q = about_y(30.0);
    // q and -q are one rotation: although every component jumps, nothing is listed.
    let minus: Vec<f32> = q.iter().map(|c| -c).collect();
    assert!(check(&transform_clip(2, &q, &minus)).seams.is_empty());
    // 0.5 degree: a note; 5 degrees: a problem.
    let r = check(&transform_clip(2, &q, &about_y(30.5)));
    let s = only_seam(&r);
    assert_eq!((s.measure, s.severity), (Measure::Rotation, Severity::Note));
    assert!((s.jump - 0.5).abs() < 1e-3, "{}", s.jump);
    let r = check(&transform_clip(2, &q, &about_y(35.0)));
    assert_eq!(only_seam(&r).severity, Severity::Problem);
    assert!((only_seam(&r).jump - 5.0).abs() < 1e-3);
    // 5 degrees a second other way round (-q at the end): still 5 degrees.
    let far: Vec<f32> = about_y(35.0).iter().map(|c| -c).collect();
    let r = check(&transform_clip(2, &q, &far));
    assert!((only_seam(&r).jump - 5.0).abs() < 1e-3);
}

#[test]
fn the_thresholds_come_from_the_options() {
    let c = transform_clip(2, &about_y(0.0), &about_y(0.5));
    let strict = Thresholds::new(0.005, 0.25, 0.02);
    let r = check_clip_on(&c, None, None, &BTreeMap::new(), &strict);
    assert_eq!(only_seam(&r).severity, Severity::Problem);
    assert_eq!((r.problems, r.notes), (1, 0));
    let loose = Thresholds::new(0.005, 10.0, 0.02);
    let c = transform_clip(2, &about_y(0.0), &about_y(5.0));
    let r = check_clip_on(&c, None, None, &BTreeMap::new(), &loose);
    assert_eq!(only_seam(&r).severity, Severity::Note);
    // A float jump of 1.5% of its range: a note by default, a problem above 1%.
    let f = clip(
        LOOP,
        vec![keys(&[
            (0.0, 0.0, 0.0, 0.0),
            (0.5, 1.0, 0.0, 0.0),
            (1.0, 0.015, 0.0, 0.0),
        ])],
    );
    assert_eq!(only_seam(&check(&f)).severity, Severity::Note);
    let tight = Thresholds::new(0.005, 1.0, 0.01);
    let r = check_clip_on(&f, None, None, &BTreeMap::new(), &tight);
    assert_eq!(only_seam(&r).severity, Severity::Problem);
}

#[test]
fn toggles_are_not_measured() {
    // m_IsActive on a GameObject (class 1) switches on and off: no seam, no step.
    let mut c = clip(
        LOOP,
        vec![keys(&[
            (0.0, 0.0, INF, INF),
            (0.5, 1.0, INF, INF),
            (1.0, 1.0, 0.0, 0.0),
        ])],
    );
    c.bindings[0].type_id = 1;
    c.bindings[0].attribute = path_hash("m_IsActive");
    let r = check(&c);
    assert!(r.seams.is_empty() && r.steps.is_empty(), "{r:?}");
}
