//! `.anim` writing (`yaml_write`, what `clipscope unity` writes): every clip of every shared
//! binary file written and read back by the YAML reader; the built Floss against Unity's own
//! `Floss.anim`; fixtures for the cases no shared file has. The command itself is tested in
//! the root package's `unity_write`.

use crate::common;

use std::collections::HashMap;
use std::path::Path;

use clipscope_authoring::{
    BehaviourSpec, Binding, Bundle, ClipSpec, Event, FieldSpec, FloatCurve, Frame, Joint, KeySpec,
    LegacyClip, MecanimClip, RendererSpec, RigComponent, RigSpec, UnityTarget, write_bundle,
};
use clipscope_core::OpenOptions;
use clipscope_core::clip::{BindingKind, ClipData, decode_clip};
use clipscope_core::hash::{attribute_hash, path_hash};
use clipscope_core::unity::clip::AnimationClip;
use clipscope_core::workspace::{ObjectRef, Workspace};
use clipscope_core::yaml::{GuidIndex, YamlContents, read_yaml_with_index};
use clipscope_core::yaml_write::{AnimText, NameBook, WriteOptions, write_anim};
use common::data;

/// The shared binary files that hold clips.
const BINARIES: &[&str] = &[
    "binary/wetboys_plateupemotesapi/customemotespackage",
    "binary/wetboys_plateupemotesapi/moisture_animationreplacements",
    "binary/lessscarymannequins/copy.bundle",
    "binary/resetanimator/WebPlayer.unity3d",
    "binary/duckhunted/WebPlayer.unity3d",
    "binary/day65platformer2d",
];

fn read_back(anim: &AnimText) -> (YamlContents, AnimationClip, ClipData) {
    let mut contents =
        read_yaml_with_index(Path::new("written.anim"), &anim.text, &GuidIndex::default())
            .unwrap_or_else(|e| panic!("{}: {e}\n{}", anim.name, head(&anim.text)));
    let raw = contents
        .clips
        .remove(0)
        .clip
        .expect("the written clip reads");
    let back = decode_clip(&raw, &contents.unity_version).expect("the written clip decodes");
    (contents, raw, back)
}

fn head(text: &str) -> String {
    text.lines().take(60).collect::<Vec<_>>().join("\n")
}

/// Unity's per-kind list a binding goes to, in the order text clips hold the lists.
fn list_rank(kind: BindingKind) -> u8 {
    match kind {
        BindingKind::Rotation => 0,
        BindingKind::Euler { .. } => 1,
        BindingKind::Position => 2,
        BindingKind::Scale => 3,
        BindingKind::PPtr => 5,
        _ => 4,
    }
}

/// The built curves in the order the text holds them (list by list, bindings in clip order,
/// components in order).
fn text_order(clip: &ClipData) -> Vec<usize> {
    let mut tracks: Vec<_> = clip.tracks.iter().collect();
    tracks.sort_by_key(|t| list_rank(clip.bindings[t.binding].kind()));
    tracks
        .iter()
        .flat_map(|t| {
            let mut c = t.curves.clone();
            c.sort_by_key(|&i| clip.curves[i].component);
            c
        })
        .collect()
}

/// Frame times, the midpoints between them, and times before and after the clip.
fn check_times(clip: &ClipData) -> Vec<f32> {
    let frames = (clip.length() * clip.sample_rate).ceil() as usize;
    let mut times: Vec<f32> = (0..=frames)
        .map(|f| clip.start + f as f32 / clip.sample_rate)
        .collect();
    let mids: Vec<f32> = times.windows(2).map(|w| 0.5 * (w[0] + w[1])).collect();
    times.extend(mids);
    times.extend([clip.start - 0.75, clip.stop + 0.75, clip.stop + 10.0]);
    times
}

/// Worst relative difference between the built clip and the written one read back, curve
/// by curve, with object curves compared as a consistent renaming of their targets; and the
/// worst ratio of a difference to what f32 rounding allows there (1e-6 relative, plus the
/// rounding of the sample time, `4·ε·max(1, |t|)` seconds, times the curve's slope: dense
/// curves are linear in frame position `(t - begin)·rate`, which f32 rounds to `ε·t·rate`).
fn readback_errors(built: &ClipData, back: &ClipData) -> (f32, f32) {
    let order = text_order(built);
    assert_eq!(
        back.curves.len(),
        order.len(),
        "{}: curve count",
        built.name
    );
    let mut worst = 0.0f32;
    let mut ratio = 0.0f32;
    for (j, &i) in order.iter().enumerate() {
        let b = built.binding_of(i).unwrap();
        let r = back.binding_of(j).unwrap();
        assert_eq!(
            list_rank(b.kind()),
            list_rank(r.kind()),
            "{}: curve {i} {} read back as {}",
            built.name,
            b.describe(),
            r.describe()
        );
        if b.kind() == BindingKind::Muscle {
            assert_eq!(r.attribute, b.attribute, "{}: muscle index", built.name);
        }
        let (bc, rc) = (&built.curves[i].curve, &back.curves[j].curve);
        let mut renaming: HashMap<u32, u32> = HashMap::new();
        for t in check_times(built) {
            let (v, w) = (bc.sample(t), rc.sample(t));
            if b.is_pptr {
                let seen = *renaming.entry(v.to_bits()).or_insert(w.to_bits());
                assert_eq!(seen, w.to_bits(), "{}: object curve at {t}", built.name);
                continue;
            }
            if v.is_nan() && w.is_nan() {
                continue;
            }
            let d = (v - w).abs();
            worst = worst.max(d / v.abs().max(1.0));
            let allowed =
                1e-6 * v.abs().max(1.0) + 4.0 * f32::EPSILON * t.abs().max(1.0) * steepest(bc, t);
            ratio = ratio.max(d / allowed);
        }
    }
    (worst, ratio)
}

/// The largest slope magnitude at `t` and a millisecond either side.
fn steepest(curve: &clipscope_core::Curve, t: f32) -> f32 {
    [t - 1e-3, t, t + 1e-3]
        .iter()
        .map(|&u| curve.slope(u).abs())
        .fold(0.0, f32::max)
}

/// [`readback_errors`], asserting it is within float rounding; the worst relative error.
fn readback_error(built: &ClipData, back: &ClipData) -> f32 {
    let (worst, ratio) = readback_errors(built, back);
    assert!(
        ratio <= 1.0,
        "{}: {worst} is {ratio} times float rounding",
        built.name
    );
    worst
}

fn every_clip(ws: &Workspace) -> Vec<ObjectRef> {
    ws.clips.iter().map(|c| c.at).collect()
}

#[test]
fn every_shared_clip_reads_back_within_float_rounding() {
    let mut written = 0;
    for rel in BINARIES {
        let Some(path) = data(rel) else { return };
        let ws = common::open(&[path]);
        let names = NameBook::build(&ws);
        for at in every_clip(&ws) {
            let anim = write_anim(&ws, &names, at, &WriteOptions::default())
                .unwrap_or_else(|e| panic!("{rel}: {e}"));
            let built = ws.clip(at).unwrap().data.as_ref().unwrap();
            let (_, _, back) = read_back(&anim);
            let worst = readback_error(built, &back);
            let r = &anim.report;
            eprintln!(
                "{rel} {}: {} curves, keys {} -> {}, max_error {:?}, independent {worst:e}, unresolved paths {}",
                anim.name,
                r.curves,
                r.keys_in,
                r.keys_out,
                r.max_error,
                r.unresolved_paths.len()
            );
            // Measured up to 8.7e-6 (Default Dance, 6.8 s of dense curves at 30 Hz): the f32
            // rounding of frame positions late in a long clip; the rest is below 1e-6.
            assert!(worst <= 2e-5, "{rel} {}: worst {worst}", anim.name);
            assert_eq!(r.measure_error, None, "{rel} {}", anim.name);
            assert!(r.max_error.unwrap() <= 2e-5, "{rel} {}: {r:?}", anim.name);
            assert!(
                r.max_error_beyond_time_rounding.unwrap() <= 1e-6,
                "{rel} {}: {r:?}",
                anim.name
            );
            assert_eq!(r.curves, built.curves.len());
            written += 1;
        }
    }
    // 1 + 3 + 1 + 1 + 4 + 2 clips in the table of the shared data's README.
    assert_eq!(written, 12);
}

#[test]
fn built_floss_matches_unitys_own_floss_anim() {
    let (Some(bundle), Some(unity_path)) = (
        data("binary/wetboys_plateupemotesapi/moisture_animationreplacements"),
        data("yaml/plateupemotesapi/Floss.anim"),
    ) else {
        return;
    };
    let ws = common::open(&[bundle]);
    let at = ws.clips.iter().find(|c| c.name == "Floss").unwrap().at;
    let anim = write_anim(&ws, &NameBook::build(&ws), at, &WriteOptions::default()).unwrap();
    let (_, mine, mine_clip) = read_back(&anim);
    let unity_text = std::fs::read_to_string(&unity_path).unwrap();
    let mut unity = read_yaml_with_index(&unity_path, &unity_text, &GuidIndex::default()).unwrap();
    let unity_raw = unity.clips.remove(0).clip.unwrap();
    let unity_clip = decode_clip(&unity_raw, &unity.unity_version).unwrap();
    let names = |c: &AnimationClip| {
        let mut v: Vec<(String, String, i32)> = c
            .m_FloatCurves
            .iter()
            .map(|f| (f.attribute.clone(), f.path.clone(), f.classID.i32()))
            .collect();
        v.sort();
        v
    };
    assert_eq!(names(&mine).len(), 130);
    assert_eq!(names(&mine), names(&unity_raw));
    let bindings = |c: &AnimationClip| {
        let mut v: Vec<(u32, u32, i32, i32, i32)> = c
            .m_ClipBindingConstant
            .as_ref()
            .unwrap()
            .genericBindings
            .iter()
            .map(|b| {
                let type_id = b.typeID.or(b.classID).map_or(0, |t| t.i32());
                (
                    b.path.u32(),
                    b.attribute.u32(),
                    type_id,
                    b.customType.i32(),
                    b.isPPtrCurve.i32(),
                )
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(bindings(&mine), bindings(&unity_raw));
    assert!(mine.m_EditorCurves.is_empty() && unity_raw.m_EditorCurves.is_empty());
    let built = ws.clip(at).unwrap().data.as_ref().unwrap();
    let frames = (built.length() * built.sample_rate).round() as usize;
    let mut worst = 0.0f32;
    for (j, c) in mine_clip.curves.iter().enumerate() {
        let b = mine_clip.binding_of(j).unwrap();
        let k = (0..unity_clip.curves.len())
            .find(|&k| unity_clip.binding_of(k).unwrap().attribute == b.attribute)
            .unwrap_or_else(|| panic!("Unity's Floss lacks {}", b.describe()));
        for f in 0..=frames {
            let t = f as f32 / built.sample_rate;
            let (u, m) = (unity_clip.curves[k].curve.sample(t), c.curve.sample(t));
            worst = worst.max((u - m).abs() / u.abs().max(1.0));
        }
    }
    eprintln!("Floss: written vs Unity's text at the built frames: {worst:e}");
    // The built samples are Unity's f32 bake of its own keys (2.1e-7 measured in
    // yaml_files.rs); the written keys hold the built samples.
    assert!(worst < 1e-6, "{worst}");
    assert_eq!(mine_clip.stop, unity_clip.stop);
    // Unity copies the importer's settings into the muscle clip unchanged: Floss's height
    // offset 0.02 and its root baked into the pose (rotation, Y, XZ) are in the build as in
    // Unity's text, and the written file carries them.
    let unity_settings = unity_clip.settings;
    assert_eq!(unity_settings.level, 0.02);
    assert!(unity_settings.bake_orientation && unity_settings.bake_position_y);
    assert!(unity_settings.bake_position_xz && unity_settings.original_position_y);
    assert!(!unity_settings.loop_pose && !unity_settings.mirror);
    assert_eq!(built.settings, unity_settings);
    assert_eq!(mine_clip.settings, unity_settings);
    assert_eq!(
        (mine_clip.start, mine_clip.loop_time, mine_clip.cycle_offset),
        (
            unity_clip.start,
            unity_clip.loop_time,
            unity_clip.cycle_offset
        )
    );
    assert!(anim.text.contains("\n    m_Level: 0.02\n"));
    assert_eq!(
        anim.report.defaulted_settings,
        vec!["m_AdditiveReferencePoseClip", "m_Bounds"]
    );
}

/// The Unity 4.6 pair: the streamed `TestClip` of the web player and its editor file carry
/// the same play settings (a new clip's: "Based Upon Original" Y only), and so does the
/// written file.
#[test]
fn built_testclip_settings_match_its_editor_file() {
    let (Some(web), Some(editor_path)) = (
        data("binary/resetanimator/WebPlayer.unity3d"),
        data("binary/resetanimator/TestClip.anim"),
    ) else {
        return;
    };
    let ws = common::open(&[web]);
    let editor_ws = common::open(&[editor_path]);
    let editor = common::clip(&editor_ws, "TestClip");
    assert!(editor.settings.original_position_y && !editor.settings.bake_position_y);
    let anim = write_only(&ws, "TestClip");
    let (_, _, back) = read_back(&anim);
    assert_eq!(common::clip(&ws, "TestClip").settings, editor.settings);
    assert_eq!(back.settings, editor.settings);
    assert_eq!(
        (back.loop_time, back.cycle_offset),
        (editor.loop_time, editor.cycle_offset)
    );
}

/// A Mecanim clip whose every play setting is away from a new clip's: the written
/// `m_AnimationClipSettings` reads back to the built values.
#[test]
fn fixture_play_settings_are_written_as_built() {
    let mut clip = MecanimClip::new("Settings");
    clip.bindings = vec![Binding::transform(path_hash("Hips"), 1)];
    clip.constants = vec![0.0, 1.0, 0.0];
    clip.loop_time = true;
    clip.cycle_offset = 0.25;
    clip.settings = clipscope_core::clip::PlaySettings {
        mirror: true,
        loop_pose: true,
        bake_orientation: true,
        bake_position_y: false,
        bake_position_xz: true,
        original_orientation: true,
        original_position_y: false,
        original_position_xz: true,
        height_from_feet: true,
        level: -0.125,
        orientation_offset_y: 37.5,
    };
    let expected = clip.settings;
    let mut b = Bundle::new(UnityTarget::Unity2020);
    b.clips.push(ClipSpec::Mecanim(clip));
    let ws = Workspace::open_bytes(
        Path::new("settings.bundle"),
        write_bundle(&b).unwrap(),
        &OpenOptions::default(),
    );
    let built = ws.clips[0].data.as_ref().unwrap().settings;
    assert_eq!(built, expected);
    let anim = write_only(&ws, "Settings");
    let (_, _, back) = read_back(&anim);
    assert_eq!(back.settings, expected);
    assert_eq!((back.loop_time, back.cycle_offset), (true, 0.25));
    for line in [
        "m_OrientationOffsetY: 37.5",
        "m_Level: -0.125",
        "m_KeepOriginalPositionY: 0",
        "m_HeightFromFeet: 1",
        "m_Mirror: 1",
    ] {
        assert!(anim.text.contains(&format!("\n    {line}\n")), "{line}");
    }
}

/// Streamed segment coefficients `[c0, c1, c2, c3]`.
type Seg = [f32; 4];

fn frame(time: f32, keys: &[(i32, Seg)]) -> Frame {
    Frame {
        time,
        keys: keys.to_vec(),
    }
}

/// A rig Root/Hips, and a clip with: a position whose components have keys at different
/// times (x at 0, 0.5, 1; y at 0, 0.3, 1; z at 0, 1), stepped `m_IsActive`, a sprite swap,
/// a float on a path no rig has with a non-finite segment, and two events (the second passes
/// the second sprite as its object and does not require a receiver).
fn fixture_bundle() -> Vec<u8> {
    let mut clip = MecanimClip::new("Fixture");
    clip.sample_rate = 30.0;
    let hips = path_hash("Hips");
    clip.bindings = vec![
        Binding::transform(hips, 1),
        Binding {
            path: hips,
            attribute: attribute_hash("m_IsActive"),
            type_id: 1,
            ..Default::default()
        },
        Binding {
            path: 0,
            attribute: 0,
            type_id: 212,
            custom_type: 23,
            is_pptr: true,
            is_int: false,
            script: (0, 0),
        },
        Binding {
            path: 0xdead_beef,
            attribute: attribute_hash("m_Intensity"),
            type_id: 108,
            ..Default::default()
        },
    ];
    clip.streamed_curve_count = 6;
    let y1 = 1.0f32 + 0.027;
    clip.frames = vec![
        frame(
            -f32::MAX,
            &[
                (0, [0.0, 0.0, 0.0, 0.0]),
                (1, [0.0, 0.0, 0.0, 1.0]),
                (2, [0.0, 0.0, 0.0, 0.25]),
                (3, [0.0, 0.0, 0.0, 1.0]),
                (4, [0.0, 0.0, 0.0, 0.0]),
                (5, [0.0, 0.0, 0.0, 0.0]),
            ],
        ),
        frame(
            0.0,
            &[
                (0, [2.0, -1.0, 0.5, 0.0]),
                (1, [1.0, 0.0, 0.0, 1.0]),
                (2, [0.0, 0.0, 0.0, 0.25]),
                (3, [0.0, 0.0, 0.0, 1.0]),
                (4, [0.0, 0.0, 0.0, 0.0]),
                (5, [0.0, 0.0, 1.0, 0.0]),
            ],
        ),
        frame(
            0.3,
            &[(1, [0.0, 0.0, -2.054, y1]), (3, [0.0, 0.0, 0.0, 0.0])],
        ),
        frame(
            0.5,
            &[
                (0, [0.0, 1.0, -1.0, 0.25]),
                (3, [0.0, 0.0, 0.0, 1.0]),
                (4, [0.0, 0.0, 0.0, 1.0]),
                (5, [f32::INFINITY, 0.0, 0.0, 0.5]),
            ],
        ),
        frame(
            1.0,
            &[
                (0, [0.0, 0.0, 0.0, 0.0]),
                (1, [0.0, 0.0, 0.0, y1 - 2.054 * 0.7]),
                (2, [0.0, 0.0, 0.0, 0.25]),
                (3, [0.0, 0.0, 0.0, 1.0]),
                (4, [0.0, 0.0, 0.0, 0.0]),
                (5, [0.0, 0.0, 0.0, 1.0]),
            ],
        ),
        frame(f32::INFINITY, &[]),
    ];
    clip.pptr_mapping = vec![(0, 90_001), (0, 90_002)];
    clip.events = vec![
        Event {
            time: 0.25,
            function: "Footstep".into(),
            data: "left: heel".into(),
            float: 0.5,
            int: 3,
            ..Event::default()
        },
        Event {
            time: 0.75,
            function: "Footstep".into(),
            data: String::new(),
            float: 0.0,
            int: -1,
            object: (0, 90_002),
            message_options: 1,
        },
    ];
    hips_bundle(clip, Vec::new())
}

fn write_only(ws: &Workspace, name: &str) -> AnimText {
    let at = ws.clips.iter().find(|c| c.name == name).unwrap().at;
    write_anim(ws, &NameBook::build(ws), at, &WriteOptions::default()).unwrap()
}

#[test]
fn fixture_components_share_key_times_by_exact_splits() {
    let ws = Workspace::open_bytes(
        Path::new("fixture.bundle"),
        fixture_bundle(),
        &OpenOptions::default(),
    );
    let anim = write_only(&ws, "Fixture");
    let (_, raw, back) = read_back(&anim);
    let position = &raw.m_PositionCurves[0];
    assert_eq!(position.path, "Hips");
    let times: Vec<f32> = position.curve.m_Curve.iter().map(|k| k.time).collect();
    assert_eq!(times, vec![0.0, 0.3, 0.5, 1.0]);
    let built = ws.clips[0].data.as_ref().unwrap();
    let worst = readback_error(built, &back);
    assert!(worst <= 1e-6, "{worst}");
    // Between the split keys the written curve is the built cubic, not a straight line.
    let x = built.curves[0].curve.sample(0.4);
    assert!((back.curves[0].curve.sample(0.4) - x).abs() <= 1e-6);
    assert!(anim.report.max_error.unwrap() <= 1e-6, "{:?}", anim.report);
}

#[test]
fn fixture_steps_sprites_events_and_unresolved_paths() {
    let ws = Workspace::open_bytes(
        Path::new("fixture.bundle"),
        fixture_bundle(),
        &OpenOptions::default(),
    );
    let anim = write_only(&ws, "Fixture");
    let (contents, raw, back) = read_back(&anim);
    // m_IsActive holds each value until the next key.
    let active = raw
        .m_FloatCurves
        .iter()
        .find(|f| f.attribute == "m_IsActive")
        .expect("m_IsActive named from Unity's properties");
    assert_eq!(active.path, "Hips");
    let steps: Vec<bool> = active
        .curve
        .m_Curve
        .iter()
        .map(|k| k.outSlope.is_infinite())
        .collect();
    // Keys at 0, 0.3, 0.5, 1: the first two jump, the others hold the same value.
    assert_eq!(&steps[..2], &[true, true]);
    let j = (0..back.curves.len())
        .find(|&j| back.binding_of(j).unwrap().attribute == attribute_hash("m_IsActive"))
        .unwrap();
    assert_eq!(back.curves[j].curve.sample(0.29), 1.0);
    assert_eq!(back.curves[j].curve.sample(0.31), 0.0);
    // The non-finite segment became a step; the unknown path is kept as its hash.
    let unknown = raw
        .m_FloatCurves
        .iter()
        .find(|f| f.attribute == "m_Intensity")
        .unwrap();
    assert_eq!(unknown.path, "unresolved/0xdeadbeef");
    assert_eq!(anim.report.unresolved_paths, vec!["0xdeadbeef".to_string()]);
    let k = unknown
        .curve
        .m_Curve
        .iter()
        .find(|k| k.time == 0.5)
        .unwrap();
    assert_eq!((k.value, k.outSlope), (0.5, f32::INFINITY));
    // The sprite swap: two targets, swapped at 0.5 and back at 1.
    let sprite = &raw.m_PPtrCurves[0];
    assert_eq!(
        (sprite.attribute.as_str(), sprite.classID.i32()),
        ("m_Sprite", 212)
    );
    let targets: Vec<(usize, i64)> = sprite
        .curve
        .iter()
        .map(|k| (k.value.file_id() as usize, k.value.path_id()))
        .collect();
    assert_eq!(targets.len(), 3);
    assert_eq!(targets[0], targets[2]);
    assert_ne!(targets[0], targets[1]);
    assert_eq!((targets[0].1, targets[1].1), (90_001, 90_002));
    assert!(contents.externals.iter().all(|e| e.guid.len() == 32));
    // Events with every parameter.
    assert_eq!(back.events.len(), 2);
    let e = &back.events[0];
    assert_eq!(
        (e.time, e.function.as_str(), e.data.as_str(), e.float, e.int),
        (0.25, "Footstep", "left: heel", 0.5, 3)
    );
    assert_eq!(back.events[1].int, -1);
    assert_eq!((e.object.1, e.message_options), (0, 0));
    assert!(
        anim.text
            .contains("    objectReferenceParameter: {fileID: 0}\n")
    );
    // The second event's object is the second sprite: the same fileID and guid as the
    // sprite key, so it reads back to the same reference; messageOptions as stored.
    let built = ws.clips[0].data.as_ref().unwrap();
    assert_eq!(
        (built.events[1].object, built.events[1].message_options),
        ((0, 90_002), 1)
    );
    let object = back.events[1].object;
    assert_eq!((object.0 as usize, object.1), targets[1]);
    assert_eq!(back.events[1].message_options, 1);
    assert!(anim.text.contains("\n    messageOptions: 1\n"));
    let guid = &contents.externals[object.0 as usize - 1].guid;
    assert!(anim.text.contains(&format!(
        "    objectReferenceParameter: {{fileID: 90002, guid: {guid}, type: 3}}\n"
    )));
    assert!(anim.report.max_error.unwrap() <= 1e-6, "{:?}", anim.report);
}

/// A rig Root/Hips and a Mecanim clip holding `material._Dissolve` at 0.25 and
/// `material._RimColor.g` at 0.5 on Hips' MeshRenderer (constant curves: the bindings store
/// only the hashes); `with_material`: Hips has the renderer, its Material saves float
/// `_Dissolve` and colour `_RimColor`.
fn material_curve_bundle(with_material: bool) -> Vec<u8> {
    let mut clip = MecanimClip::new("Dissolve");
    let hips = path_hash("Hips");
    let on_renderer = |name: &str| Binding {
        path: hips,
        attribute: attribute_hash(name),
        type_id: 23,
        ..Default::default()
    };
    clip.bindings = vec![
        on_renderer("material._Dissolve"),
        on_renderer("material._RimColor.g"),
    ];
    clip.constants = vec![0.25, 0.5];
    let renderers = if with_material {
        vec![RendererSpec {
            joint: 1,
            enabled: true,
            size: 0.5,
            color: [1.0; 4],
            name: "Body".into(),
            floats: vec![("_Dissolve".into(), 0.0)],
            colors: vec![("_RimColor".into(), [0.0, 0.0, 1.0, 1.0])],
        }]
    } else {
        Vec::new()
    };
    hips_bundle(clip, renderers)
}

/// Each written float curve's (path, attribute, classID).
fn float_bindings(raw: &AnimationClip) -> Vec<(&str, &str, i32)> {
    raw.m_FloatCurves
        .iter()
        .map(|f| (f.path.as_str(), f.attribute.as_str(), f.classID.i32()))
        .collect()
}

/// A fixture's bytes opened as a workspace named `name`.
fn open_fixture(name: &str, bytes: Vec<u8>) -> Workspace {
    Workspace::open_bytes(Path::new(name), bytes, &OpenOptions::default())
}

/// Each named property's curve read back holds its constant.
fn assert_constants_read_back(back: &ClipData, expected: &[(&str, f32)]) {
    for &(name, value) in expected {
        let j = (0..back.curves.len())
            .find(|&j| back.binding_of(j).unwrap().attribute == attribute_hash(name))
            .unwrap_or_else(|| panic!("{name} read back"));
        assert_eq!(back.curves[j].curve.sample(0.5), value, "{name}");
    }
}

#[test]
fn material_curves_are_named_from_the_materials_shader_properties() {
    let open =
        |with_material| open_fixture("material.bundle", material_curve_bundle(with_material));
    let ws = open(true);
    assert!(ws.errors.is_empty(), "{:?}", ws.errors);
    let props = &ws.materials[0].data.properties;
    assert_eq!(props.floats, ["_Dissolve"]);
    assert_eq!(props.colors, ["_Color", "_RimColor"]);
    let anim = write_only(&ws, "Dissolve");
    assert!(
        anim.report.unresolved_attributes.is_empty(),
        "{:?}",
        anim.report
    );
    let (_, raw, back) = read_back(&anim);
    let written = float_bindings(&raw);
    assert_eq!(
        written,
        [
            ("Hips", "material._Dissolve", 23),
            ("Hips", "material._RimColor.g", 23)
        ]
    );
    // Read back, the names hash to what the build stored, with the same values.
    assert_constants_read_back(
        &back,
        &[("material._Dissolve", 0.25), ("material._RimColor.g", 0.5)],
    );
    // Without the material nothing names them: kept as hashes and listed.
    let anim = write_only(&open(false), "Dissolve");
    let mut expected = vec![
        format!("0x{:08x}", attribute_hash("material._Dissolve")),
        format!("0x{:08x}", attribute_hash("material._RimColor.g")),
    ];
    expected.sort();
    assert_eq!(anim.report.unresolved_attributes, expected);
}

#[test]
fn fixture_int_curve_in_the_unity_6_layout() {
    let mut clip = MecanimClip::new("Sorting");
    clip.bindings = vec![Binding {
        path: 0,
        attribute: attribute_hash("m_SortingOrder"),
        type_id: 212,
        is_int: true,
        ..Default::default()
    }];
    clip.discrete_curve_count = 1;
    let bits = |i: i32| f32::from_bits(i as u32);
    clip.frames = vec![
        frame(-f32::MAX, &[(0, [0.0, 0.0, 0.0, bits(7)])]),
        frame(0.0, &[(0, [0.0, 0.0, 0.0, bits(7)])]),
        frame(0.5, &[(0, [0.0, 0.0, 0.0, bits(-2)])]),
        frame(f32::INFINITY, &[]),
    ];
    let mut b = Bundle::new(UnityTarget::Unity6);
    b.clips.push(ClipSpec::Mecanim(clip));
    let ws = Workspace::open_bytes(
        Path::new("six.bundle"),
        write_bundle(&b).unwrap(),
        &OpenOptions::default(),
    );
    let anim = write_only(&ws, "Sorting");
    assert!(anim.text.contains("  serializedVersion: 7\n"));
    assert!(anim.text.contains("      isIntCurve: 1\n"));
    assert!(anim.text.contains("    flags: 0\n"));
    assert!(anim.text.contains("    attribute: m_SortingOrder\n"));
    let (_, _, back) = read_back(&anim);
    assert_eq!(back.curves[0].curve.sample(0.25), 7.0);
    assert_eq!(back.curves[0].curve.sample(0.75), -2.0);
    assert_eq!(anim.report.max_error, Some(0.0));
}

#[test]
fn legacy_weighted_keys_are_kept_as_stored() {
    let mut clip = LegacyClip::new("Weighted");
    let mut k0 = KeySpec::new(0.0, 0.0, 0.0, 3.0);
    k0.weighted_mode = 2;
    k0.out_weight = 0.8;
    let k1 = KeySpec::new(1.0, 1.0, 0.0, 0.0);
    clip.floats.push(FloatCurve {
        path: "Body".into(),
        attribute: "m_Weight".into(),
        class_id: 114,
        keys: vec![k0, k1],
        pre_infinity: 2,
        post_infinity: 2,
    });
    let mut b = Bundle::new(UnityTarget::Unity2020);
    b.clips.push(ClipSpec::Legacy(clip));
    let ws = Workspace::open_bytes(
        Path::new("legacy.bundle"),
        write_bundle(&b).unwrap(),
        &OpenOptions::default(),
    );
    let anim = write_only(&ws, "Weighted");
    let (_, raw, back) = read_back(&anim);
    assert!(anim.text.contains("  m_Legacy: 1\n"));
    let key = &raw.m_FloatCurves[0].curve.m_Curve[0];
    assert_eq!((key.weightedMode.unwrap().0, key.outWeight), (2, Some(0.8)));
    let built = ws.clips[0].data.as_ref().unwrap();
    assert!(readback_error(built, &back) <= 1e-6);
}

/// A 2020.3 bundle with `clip` and a Root/Hips rig on an Animator with `renderers`.
fn hips_bundle(clip: MecanimClip, renderers: Vec<RendererSpec>) -> Vec<u8> {
    write_bundle(&hips_spec(clip, renderers)).unwrap()
}

/// What [`hips_bundle`] writes.
fn hips_spec(clip: MecanimClip, renderers: Vec<RendererSpec>) -> Bundle {
    let mut b = Bundle::new(UnityTarget::Unity2020);
    b.clips.push(ClipSpec::Mecanim(clip));
    b.rig = Some(RigSpec {
        joints: vec![
            Joint::new("Root", None, [0.0, 0.0, 0.0]),
            Joint::new("Hips", Some(0), [0.0, 1.0, 0.0]),
        ],
        component: RigComponent::Animator,
        renderers,
    });
    b
}

/// The script fields a fixture clip animates on Hips' `Game.Mover`, with their constants.
const SCRIPT_CURVES: [(&str, f32); 3] = [("speed", 2.5), ("offset.y", -0.75), ("tuning.gain", 4.0)];

/// A Root/Hips bundle whose clip animates [`SCRIPT_CURVES`] on a MonoBehaviour of Hips;
/// `with_behaviour`: the bundle holds the behaviour and its MonoScript (type tree included).
fn script_curve_bundle(with_behaviour: bool) -> Vec<u8> {
    let (script, _) = clipscope_authoring::behaviour_path_ids(0);
    let mut clip = MecanimClip::new("Mover");
    clip.bindings = SCRIPT_CURVES
        .iter()
        .map(|(name, _)| Binding {
            path: path_hash("Hips"),
            attribute: attribute_hash(name),
            type_id: 114,
            custom_type: 24,
            script: (0, script),
            ..Default::default()
        })
        .collect();
    clip.constants = SCRIPT_CURVES.iter().map(|&(_, v)| v).collect();
    let mut b = hips_spec(clip, Vec::new());
    if with_behaviour {
        b.behaviours.push(BehaviourSpec {
            joint: Some(1),
            class: "Mover".into(),
            namespace: "Game".into(),
            fields: vec![
                FieldSpec::Float("speed".into(), 1.0),
                FieldSpec::Text("label".into(), "walker".into()),
                FieldSpec::Bool("armed".into(), true),
                FieldSpec::Vector3("offset".into(), [0.0, 0.5, 0.0]),
                FieldSpec::FloatList("weights".into(), vec![0.25, 0.75]),
                FieldSpec::Object("target".into(), "Transform".into(), 0),
                FieldSpec::Struct(
                    "Tuning".into(),
                    "tuning".into(),
                    vec![
                        FieldSpec::Float("gain".into(), 1.0),
                        FieldSpec::Color("tint".into(), [1.0, 0.5, 0.25, 1.0]),
                    ],
                ),
            ],
        });
    }
    write_bundle(&b).unwrap()
}

#[test]
fn script_curves_are_named_from_the_behaviours_type_tree() {
    let open = |with_behaviour| open_fixture("mover.bundle", script_curve_bundle(with_behaviour));
    let ws = open(true);
    assert!(ws.errors.is_empty(), "{:?}", ws.errors);
    assert!(ws.warnings.is_empty(), "{:?}", ws.warnings);
    assert_eq!(ws.behaviours.len(), 1);
    assert_eq!(
        ws.behaviours[0].data.fields.as_slice(),
        [
            "speed",
            "armed",
            "offset.x",
            "offset.y",
            "offset.z",
            "target",
            "tuning.gain",
            "tuning.tint.r",
            "tuning.tint.g",
            "tuning.tint.b",
            "tuning.tint.a",
        ]
    );
    let script = ws.script(ws.resolve(0, ws.behaviours[0].data.script).unwrap());
    assert_eq!(script.unwrap().data.full_name(), "Game.Mover");

    let anim = write_only(&ws, "Mover");
    let r = &anim.report;
    assert!(r.unresolved_attributes.is_empty(), "{r:?}");
    assert_eq!(r.unresolved_objects, 0, "{r:?}");
    assert_eq!(r.scripts.len(), 1, "{r:?}");
    assert_eq!(r.scripts[0].class, "Game.Mover");
    assert_eq!(r.scripts[0].assembly, "Assembly-CSharp.dll");
    let script_ref = format!(
        "script: {{fileID: 11500000, guid: {}, type: 3}}",
        r.scripts[0].guid
    );
    // Each float curve and its editor curve reference the script.
    assert!(
        anim.text.matches(&script_ref).count() >= SCRIPT_CURVES.len(),
        "{}",
        anim.text
    );
    let (_, raw, back) = read_back(&anim);
    let written = float_bindings(&raw);
    let expected: Vec<(&str, &str, i32)> = SCRIPT_CURVES
        .iter()
        .map(|(n, _)| ("Hips", *n, 114))
        .collect();
    assert_eq!(written, expected);
    assert_constants_read_back(&back, &SCRIPT_CURVES);

    // Without the behaviour: the fields stay hashes and the script an unloaded reference.
    let anim = write_only(&open(false), "Mover");
    let mut expected: Vec<String> = SCRIPT_CURVES
        .iter()
        .map(|(n, _)| format!("0x{:08x}", attribute_hash(n)))
        .collect();
    expected.sort();
    assert_eq!(anim.report.unresolved_attributes, expected);
    assert!(anim.report.scripts.is_empty());
    assert_eq!(anim.report.unresolved_objects, 1);
}

#[test]
fn shared_behaviours_list_their_script_fields() {
    let Some(web) = data("binary/duckhunted/WebPlayer.unity3d") else {
        return;
    };
    let ws = Workspace::open(&[web], &OpenOptions::default());
    let script_of = |b: &clipscope_core::workspace::BehaviourEntry| {
        ws.resolve(b.at.file, b.data.script)
            .and_then(|at| ws.script(at))
            .map(|s| s.data.full_name())
    };
    let bullet = ws
        .behaviours
        .iter()
        .find(|b| script_of(b).as_deref() == Some("GUIBullet"))
        .expect("the GUIBullet behaviour");
    assert_eq!(
        bullet.data.fields.as_slice(),
        ["bulletNumber", "playerTransform"]
    );

    // A player build without type trees: the behaviours are read, their fields unknown.
    if let Some(player) = data("binary/day65platformer2d") {
        let ws = Workspace::open(&[player], &OpenOptions::default());
        assert!(!ws.behaviours.is_empty());
        assert!(ws.behaviours.iter().all(|b| b.data.fields.is_empty()));
    }

    // An editor scene: the editor's own base fields are not script fields.
    let Some(scene) = data("binary/resetanimator/Test.unity") else {
        return;
    };
    // Its one behaviour (ResetAnimator, whose script serializes no fields) has a 4.6 editor
    // tree of nine base fields and refers to its script by the `.cs` asset's file id.
    let ws = Workspace::open(&[scene], &OpenOptions::default());
    assert_eq!(ws.behaviours.len(), 1);
    let reset = &ws.behaviours[0].data;
    assert!(reset.fields.is_empty(), "{:?}", reset.fields);
    assert_eq!(
        (reset.script.file_id(), reset.script.path_id()),
        (5, 11_500_000)
    );
}
