//! Unity's text-serialized project files (`../shared/data/yaml`) through the public
//! `clipscope_core::yaml` API: every file reads, every clip decodes, sampled values match closed
//! forms, a YAML clip agrees with the same clip built into a bundle, a clip's bindings land
//! on its prefab's joints, controllers' clips resolve through `.meta` files.

use crate::common;

use std::path::{Path, PathBuf};

use clipscope_core::clip::BindingKind;
use clipscope_core::unity::clip::AnimationClip;
use clipscope_core::version::UnityVersion;
use clipscope_core::yaml::{self, YamlContents, is_yaml, meta_guid, read_yaml};
use clipscope_core::{ClipData, OpenOptions, Workspace, decode_clip, path_hash};
use common::data;

/// Reads a YAML file, asserting it reads with no warning.
fn read(path: &Path) -> YamlContents {
    let text = std::fs::read_to_string(path).expect("readable");
    let contents = read_yaml(path, &text).unwrap_or_else(|e| panic!("{e}"));
    assert!(contents.warnings.is_empty(), "{:?}", contents.warnings);
    contents
}

/// The one clip of a `.anim` file as stored, with the version to decode it with.
fn raw_clip(rel: &str) -> Option<(AnimationClip, UnityVersion)> {
    let mut contents = read(&data(rel)?);
    assert_eq!(contents.clips.len(), 1, "{rel}");
    let raw = contents.clips.remove(0).clip.expect("clip reads");
    Some((raw, contents.unity_version))
}

/// The one clip of a `.anim` file, decoded.
fn decoded(rel: &str) -> Option<ClipData> {
    let (raw, version) = raw_clip(rel)?;
    Some(decode_clip(&raw, &version).expect("clip decodes"))
}

/// The curve of a binding named by path and attribute name (float curves) or kind.
fn curve_named(clip: &ClipData, path: &str, attribute: &str, component: u8) -> usize {
    (0..clip.curves.len())
        .find(|&i| {
            let b = clip.binding_of(i).expect("bound");
            b.path_name.as_deref() == Some(path)
                && b.attribute_name.as_deref().unwrap_or("") == attribute
                && clip.curves[i].component == component
        })
        .unwrap_or_else(|| panic!("no curve {path}:{attribute}[{component}]"))
}

/// Every `.anim`, `.prefab`, `.controller` and `.unity` file of the shared YAML data.
fn yaml_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in std::fs::read_dir(root).unwrap().flatten() {
        for f in std::fs::read_dir(dir.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let p = f.path();
            let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
            if ["anim", "prefab", "controller", "unity"].contains(&ext) {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_yaml_file_reads_and_every_clip_decodes() {
    let Some(root) = data("yaml") else {
        return;
    };
    let files = yaml_files(&root);
    assert!(files.len() >= 29, "only {} files", files.len());
    let (mut clips, mut rigs, mut controllers) = (0, 0, 0);
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        assert!(is_yaml(&bytes), "{}", path.display());
        let contents = read(path);
        for c in &contents.clips {
            let raw = c.clip.as_ref().unwrap_or_else(|e| panic!("{e}"));
            let d = decode_clip(raw, &contents.unity_version)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(d.keyframed, "{}: a YAML clip is keyframed", path.display());
            assert!(!d.curves.is_empty(), "{}: no curves", path.display());
            assert!(
                d.warnings.is_empty(),
                "{}: {:?}",
                path.display(),
                d.warnings
            );
            clips += 1;
        }
        let ext = path.extension().unwrap().to_str().unwrap();
        match ext {
            "anim" => assert_eq!(contents.clips.len(), 1, "{}", path.display()),
            "prefab" => assert!(!contents.rigs.is_empty(), "{}", path.display()),
            "controller" => assert_eq!(contents.controllers.len(), 1),
            _ => {}
        }
        for r in &contents.rigs {
            assert_eq!(r.skeleton.joints[0].path, "");
            assert_eq!(r.skeleton.joints[0].path_hash, 0);
        }
        rigs += contents.rigs.len();
        controllers += contents.controllers.len();
    }
    // Every `.anim` holds one clip and every `.controller` one controller (checked per file
    // above); no other file kind holds either.
    let count = |ext: &str| {
        files
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .count()
    };
    assert_eq!((clips, controllers), (count("anim"), count("controller")));
    assert!(
        clips >= 20 && controllers >= 5,
        "{clips} clips, {controllers} controllers"
    );
    assert!(rigs >= 8, "{rigs} rigs");
}

#[test]
fn step_clips_hold_each_value_until_the_next_key() {
    let Some(clap) = decoded("yaml/modular-avatar/clap_on.anim") else {
        return;
    };
    // m_IsActive of ClapEffect: 1 at t = 0, 0 at t = 1, both sides of both keys Infinity.
    let active = &clap.curves[curve_named(&clap, "ClapEffect", "m_IsActive", 0)].curve;
    for t in [0.0, 0.01, 0.25, 0.5, 0.999] {
        assert_eq!(active.sample(t), 1.0, "t = {t}");
    }
    for t in [1.0, 1.5] {
        assert_eq!(active.sample(t), 0.0, "t = {t}");
    }
    // EmissionModule.enabled: 1 at t = 0, 0 at t = 1/60.
    let emission = curve_named(&clap, "ClapEffect", "EmissionModule.enabled", 0);
    let emission = &clap.curves[emission].curve;
    assert_eq!(emission.sample(0.016), 1.0);
    assert_eq!(emission.sample(0.016_666_668), 0.0);

    let Some(constant) = decoded("yaml/modular-avatar/ConstantTangents.anim") else {
        return;
    };
    // Position of the root: keys 0 at t = 0 and 1/3, both constant: every component holds 0.
    assert_eq!(constant.curves.len(), 3);
    for c in &constant.curves {
        assert!(c.curve.keys().iter().all(|k| k.out_slope == f32::INFINITY));
        for t in [0.0, 0.1, 0.2, 0.333, 0.5] {
            assert_eq!(c.curve.sample(t), 0.0);
        }
    }
}

/// One side of a weighted segment: (time, value, slope on that side, weight on that side).
type Side = (f64, f64, f64, f64);

/// Cubic Bernstein polynomial with control points `p` at `u`.
fn bezier(u: f64, p: [f64; 4]) -> f64 {
    let m = 1.0 - u;
    m * m * m * p[0] + 3.0 * m * m * u * p[1] + 3.0 * m * u * u * p[2] + u * u * u * p[3]
}

/// Unity's weighted segment in f64, independently of the crate: the Bezier in (time, value)
/// with time handles `w1`, `1 - w2` and value handles along the slopes, solved for the
/// parameter u by bisection (x(u) rises on [0, 1] for weights in [0, 1]). Returns the value
/// and dy/du there.
fn weighted_f64(t: f64, (t0, v0, out0, w1): Side, (t1, v1, in1, w2): Side) -> (f64, f64) {
    let dx = t1 - t0;
    let s = (t - t0) / dx;
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if bezier(mid, [0.0, w1, 1.0 - w2, 1.0]) < s {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let u = 0.5 * (lo + hi);
    let p = [v0, v0 + w1 * out0 * dx, v1 - w2 * in1 * dx, v1];
    let m = 1.0 - u;
    let slope = 3.0 * (m * m * (p[1] - p[0]) + 2.0 * m * u * (p[2] - p[1]) + u * u * (p[3] - p[2]));
    (bezier(u, p), slope)
}

#[test]
fn weighted_clip_matches_an_independent_bezier_solve() {
    let Some(clip) = decoded("yaml/modular-avatar/BlendshapeSyncRemapCurveTestCurveClip.anim")
    else {
        return;
    };
    let curve = &clip.curves[curve_named(&clip, "Anon_Body", "blendShape.Breast_flat", 0)].curve;
    // Keys as written in the file: key 10 has weightedMode 2 (out), key 12 mode 1 (in);
    // key 20 mode 2, key 22 mode 1.
    let segments: [(Side, Side); 2] = [
        (
            (10.0, 99.82327, 51.60066, 0.97374153),
            (12.0, 0.0, 0.14951825, 1.0),
        ),
        ((20.0, 100.0, 0.0, 1.0), (22.0, 0.0, 0.0, 1.0)),
    ];
    let mut worst_u = 0.0f64;
    for (a, b) in segments {
        // Away from s = 1/2 of the (1, 1) segment, where x'(u) = 0 makes u ill-conditioned.
        for s in [0.05, 0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.9, 0.95] {
            let t = (a.0 + s * (b.0 - a.0)) as f32;
            let (expected, slope) = weighted_f64(t as f64, a, b);
            let got = curve.sample(t) as f64;
            // The value error seen as an error in the curve parameter u.
            let du = (got - expected).abs() / slope.abs().max(1.0);
            worst_u = worst_u.max(du);
        }
    }
    eprintln!("weighted: worst error in u {worst_u:e}");
    // Unity solves x(u) = s with Cardano's formula in f32, as the crate does. Emulating that
    // formula in f32 (outside this test) gives u off by 5.6e-5 at s = 0.1 of the first
    // segment, while the same formula in f64 agrees with this bisection to 1e-10: the
    // difference is f32 cancellation between the two cube roots, which Unity has too. The
    // value error is that times dy/du (about 190 there: 9.4e-3 on a value of 110). Measured
    // here: 5.1e-5 in u; the bound leaves 2x.
    assert!(worst_u < 1e-4, "worst error in u {worst_u:e}");
    // The keys themselves are hit exactly.
    assert_eq!(curve.sample(10.0), 99.82327);
    assert_eq!(curve.sample(22.0), 0.0);
    // The weights matter: with flat tangents the plain Hermite would give 84.375 at s = 1/4.
    assert!((curve.sample(20.5) - 84.375).abs() > 1.0);
}

#[test]
fn euler_clip_hits_its_key_values() {
    let Some((raw, version)) = raw_clip("yaml/modular-avatar/TMTSO_Rotate.anim") else {
        return;
    };
    // The editor's per-component copies read too (a decoder may fall back on them).
    let editor: Vec<(&str, f32)> = raw
        .m_EditorCurves
        .iter()
        .map(|c| {
            (
                c.attribute.as_str(),
                c.curve.m_Curve.last().map_or(f32::NAN, |k| k.value),
            )
        })
        .collect();
    assert_eq!(
        editor,
        [
            ("localEulerAnglesRaw.x", 360.0),
            ("localEulerAnglesRaw.y", 0.0),
            ("localEulerAnglesRaw.z", 0.0)
        ]
    );
    assert_eq!(raw.m_EulerEditorCurves.len(), 3);
    let clip = decode_clip(&raw, &version).unwrap();
    let euler: Vec<_> = clip
        .tracks
        .iter()
        .filter(|t| clip.bindings[t.binding].kind() == BindingKind::Euler { order: 4 })
        .collect();
    assert_eq!(euler.len(), 1, "one Euler binding");
    let b = &clip.bindings[euler[0].binding];
    assert_eq!(b.path, path_hash("Armature/Hips"));
    assert_eq!(b.path, 3_561_920_168, "the hash in m_ClipBindingConstant");
    let x = &clip.curves[euler[0].curves[0]].curve;
    assert_eq!(x.sample(0.0), 0.0);
    assert_eq!(x.sample(1.0), 360.0);
    // Flat tangents at both keys: the Hermite midpoint is exactly halfway.
    assert_eq!(x.sample(0.5), 180.0);
    for &c in &euler[0].curves[1..] {
        assert_eq!(clip.curves[c].curve.sample(0.5), 0.0);
    }
    assert_eq!((clip.start, clip.stop), (0.0, 1.0));
}

#[test]
fn sprite_clip_keeps_each_sprite_reference() {
    let Some(path) = data("yaml/2d-techdemos/Witch_Run_SE.anim") else {
        return;
    };
    let contents = read(&path);
    let raw = contents.clips[0].clip.as_ref().unwrap();
    let clip = decode_clip(raw, &contents.unity_version).unwrap();
    let track = clip
        .tracks
        .iter()
        .find(|t| clip.bindings[t.binding].is_pptr)
        .expect("a PPtr track");
    let keys = clip.curves[track.curves[0]].curve.keys().to_vec();
    assert_eq!(keys.len(), 6);
    // Six different sprites: the same file id 21300000 in six textures.
    assert_eq!(clip.pptr_mapping.len(), 6);
    for (file, path_id) in &clip.pptr_mapping {
        assert_eq!(*path_id, 21_300_000);
        let asset = &contents.externals[*file as usize - 1];
        assert_eq!(asset.guid.len(), 32);
        assert_eq!(asset.kind, 3);
    }
    let first_guid = "42be11bdcac154ba6a01fa28816b01be";
    assert_eq!(contents.externals[0].guid, first_guid);
}

#[test]
fn transform_and_plain_float_bindings_agree_with_the_stored_binding_constant() {
    let Some(root) = data("yaml") else {
        return;
    };
    let mut checked = 0;
    for path in yaml_files(&root) {
        // Exported by a tool that could not resolve its path: the path is `path_3854387014`.
        if path.ends_with("plateupemotesapi/Normal_Held_Item.anim") {
            continue;
        }
        let contents = read(&path);
        for c in &contents.clips {
            let raw = c.clip.as_ref().unwrap();
            let clip = decode_clip(raw, &contents.unity_version).unwrap();
            let Some(constant) = &raw.m_ClipBindingConstant else {
                continue;
            };
            // customType 0, and Euler bindings whose customType is the rotation order. Other
            // custom types (muscles 8, blend shapes 20, materials 22, sprites 23, …) hash
            // their attribute differently from the keyframe names.
            let plain = constant.genericBindings.iter().filter(|g| {
                g.customType.0 == 0 || (g.attribute.0 == 4 && g.typeID.is_some_and(|t| t.0 == 4))
            });
            for g in plain {
                let found = clip.bindings.iter().any(|b| {
                    i64::from(b.path) == g.path.0
                        && i64::from(b.attribute) == g.attribute.0
                        && Some(i64::from(b.type_id)) == g.typeID.map(|t| t.0)
                        && i64::from(b.custom_type) == g.customType.0
                });
                assert!(found, "{}: binding {g:?} not decoded", path.display());
                checked += 1;
            }
        }
    }
    assert!(checked >= 15, "only {checked} bindings checked");
}

/// What Unity's own `m_ClipBindingConstant` says a clip binds, and what the decoder makes of
/// the keyframe names, as (path, attribute, type id, custom type) sets.
#[test]
#[ignore = "known differences for keyframed clips: blend shapes (Unity: CRC of the shape name \
            alone) and sprites (Unity: attribute 0) keep the CRC-32 of the full property name, as \
            legacy float curves do; material properties (customType 22) are not packed"]
fn decoded_bindings_are_exactly_the_stored_binding_constant() {
    let Some(root) = data("yaml") else {
        return;
    };
    let mut problems = Vec::new();
    for path in yaml_files(&root) {
        if path.ends_with("plateupemotesapi/Normal_Held_Item.anim") {
            continue;
        }
        let contents = read(&path);
        for c in &contents.clips {
            let raw = c.clip.as_ref().unwrap();
            let Some(constant) = &raw.m_ClipBindingConstant else {
                continue;
            };
            let clip = decode_clip(raw, &contents.unity_version).unwrap();
            let mut stored: Vec<(i64, i64, i64, i64)> = constant
                .genericBindings
                .iter()
                .map(|g| {
                    (
                        g.path.0,
                        g.attribute.0,
                        g.typeID.map_or(-1, |t| t.0),
                        g.customType.0,
                    )
                })
                .collect();
            let mut decoded: Vec<(i64, i64, i64, i64)> = clip
                .bindings
                .iter()
                .map(|b| {
                    let key = (b.path, b.attribute, b.type_id, b.custom_type);
                    (
                        i64::from(key.0),
                        i64::from(key.1),
                        i64::from(key.2),
                        i64::from(key.3),
                    )
                })
                .collect();
            stored.sort_unstable();
            decoded.sort_unstable();
            if stored != decoded {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                problems.push(format!("{name}: stored {stored:?}, decoded {decoded:?}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The muscle attribute of a binary binding, in YAML's spelling where they differ.
fn yaml_spelling(table: &str) -> String {
    for side in ["Left", "Right"] {
        for finger in ["Thumb", "Index", "Middle", "Ring", "Little"] {
            let prefix = format!("{side} {finger} ");
            if let Some(dof) = table.strip_prefix(&prefix) {
                return format!("{side}Hand.{finger}.{dof}");
            }
        }
    }
    table.to_string()
}

#[test]
fn floss_matches_the_binary_clip_at_every_frame() {
    let (Some(yaml_path), Some(bundle)) = (
        data("yaml/plateupemotesapi/Floss.anim"),
        data("binary/wetboys_plateupemotesapi/moisture_animationreplacements"),
    ) else {
        return;
    };
    let ws = Workspace::open(&[bundle], &OpenOptions::default());
    assert!(ws.errors.is_empty(), "{:?}", ws.errors);
    let binary = ws
        .clips
        .iter()
        .find(|c| c.name == "Floss")
        .and_then(|c| c.data.as_ref().ok())
        .expect("binary Floss");
    let contents = read(&yaml_path);
    let text = decode_clip(
        contents.clips[0].clip.as_ref().unwrap(),
        &contents.unity_version,
    )
    .unwrap();
    assert_eq!(text.curves.len(), binary.curves.len());
    assert_eq!(text.stop, binary.stop);
    let frames = (binary.length() * binary.sample_rate).round() as usize;
    let mut worst = 0.0f32;
    for (i, c) in binary.curves.iter().enumerate() {
        let b = binary.binding_of(i).expect("bound");
        assert_eq!(b.kind(), BindingKind::Muscle);
        let name = b.attribute_name.as_deref().expect("muscle named");
        // Unity's YAML spells finger muscles differently from the table.
        assert_eq!(yaml::muscles::table_name(&yaml_spelling(name)), name);
        assert_eq!(
            yaml::muscles::muscle_index(&yaml_spelling(name)),
            Some(b.attribute)
        );
        // The decoder binds named text muscles the way Mecanim does: by index.
        let j = (0..text.curves.len())
            .find(|&j| {
                let t = text.binding_of(j).unwrap();
                (t.path, t.attribute, t.type_id, t.kind())
                    == (b.path, b.attribute, 95, BindingKind::Muscle)
            })
            .unwrap_or_else(|| panic!("text clip lacks muscle {name}"));
        assert_eq!(
            text.binding_of(j).unwrap().attribute_name.as_deref(),
            Some(name)
        );
        for f in 0..=frames {
            let t = f as f32 / binary.sample_rate;
            let (y, v) = (text.curves[j].curve.sample(t), c.curve.sample(t));
            worst = worst.max((y - v).abs() / v.abs().max(1.0));
        }
    }
    eprintln!("Floss: worst relative difference at frame times {worst:e}");
    // Unity baked the binary dense and constant samples from these same keys, in f32: at
    // frame times they agree to about one f32 ulp (measured 2.1e-7 relative); the bound
    // leaves 5x.
    assert!(worst < 1e-6, "worst {worst}");
}

#[test]
fn vha_clip_binds_only_joints_of_its_prefab() {
    let (Some(anim), Some(prefab)) = (
        data("yaml/modular-avatar/VHA_anim.anim"),
        data("yaml/modular-avatar/VHA_shapell.prefab"),
    ) else {
        return;
    };
    let clip = read(&anim);
    let raw = clip.clips[0].clip.as_ref().unwrap();
    let clip = decode_clip(raw, &clip.unity_version).unwrap();
    let prefab = read(&prefab);
    let rig = prefab
        .rigs
        .iter()
        .find(|r| r.has_animator)
        .expect("the Animator's rig");
    // The Animator sits on a stripped GameObject of the nested prefab; its Transform (also
    // stripped) is the root, and the objects added in this prefab hang below it.
    let paths: Vec<&str> = rig
        .skeleton
        .joints
        .iter()
        .map(|j| j.path.as_str())
        .collect();
    assert_eq!(paths, ["", "O1", "O1/O2", "O1/O2/Cube"]);
    assert!(!rig.unresolved.is_empty());
    assert!(rig.controller.as_ref().is_some_and(|c| c.guid.is_some()));
    // The three bindings Unity stored are decoded (by path hash and attribute).
    let stored = &raw.m_ClipBindingConstant.as_ref().unwrap().genericBindings;
    assert_eq!(stored.len(), 3);
    for g in stored {
        let decoded = clip
            .bindings
            .iter()
            .any(|b| i64::from(b.path) == g.path.0 && i64::from(b.attribute) == g.attribute.0);
        assert!(decoded, "stored binding {g:?} not decoded");
    }
    for b in &clip.bindings {
        assert!(
            rig.skeleton.joint_by_hash(b.path).is_some(),
            "unmatched binding {}",
            b.describe()
        );
    }
    let o1 = &rig.skeleton.joints[1];
    assert_eq!(o1.position, [0.0, 0.0, 0.257]);
    assert_eq!(o1.scale, [0.5050202, 0.50501996, 0.5050202]);
}

#[test]
fn stripped_roots_take_their_pose_from_the_instance_modifications() {
    let Some(prefab) = data("yaml/modular-avatar/WithAnimatedObject.prefab") else {
        return;
    };
    let contents = read(&prefab);
    assert_eq!(contents.rigs.len(), 1);
    let rig = &contents.rigs[0];
    let paths: Vec<&str> = rig
        .skeleton
        .joints
        .iter()
        .map(|j| j.path.as_str())
        .collect();
    assert_eq!(paths, ["", "x"]);
    assert!(
        rig.unresolved
            .iter()
            .any(|u| u.contains("f81e8172c337a714894d6fdbd0900d8d"))
    );
}

/// A text Animator's Apply Root Motion reaches the workspace's rig (where the Bevy plugin's
/// `UnityAnimator::for_rig` reads it): off as morbman's prefab stores it, on in the same
/// text with `m_ApplyRootMotion: 1`.
#[test]
fn a_text_animators_apply_root_motion_reaches_its_rig() {
    let Some(prefab) = data("yaml/plateupemotesapi/morbman.prefab") else {
        return;
    };
    let text = std::fs::read_to_string(&prefab).unwrap();
    assert_eq!(text.matches("m_ApplyRootMotion: 0").count(), 1);
    for apply in [false, true] {
        let flag = format!("m_ApplyRootMotion: {}", u8::from(apply));
        let bytes = text.replace("m_ApplyRootMotion: 0", &flag).into_bytes();
        let ws = Workspace::open_bytes(Path::new("morbman.prefab"), bytes, &OpenOptions::default());
        let rig = ws
            .rigs
            .iter()
            .find(|r| r.name == "morbman")
            .expect("morbman");
        assert_eq!(rig.apply_root_motion, apply, "{flag}");
    }
}

#[test]
fn morbman_prefab_has_every_joint_with_its_rest_pose() {
    let Some(prefab) = data("yaml/plateupemotesapi/morbman.prefab") else {
        return;
    };
    let contents = read(&prefab);
    assert_eq!(contents.rigs.len(), 1);
    let rig = &contents.rigs[0];
    assert!(rig.has_animator && !rig.has_animation);
    assert_eq!(rig.name, "morbman");
    assert_eq!(rig.skeleton.joints.len(), 38);
    assert!(rig.unresolved.is_empty(), "{:?}", rig.unresolved);
    for (i, j) in rig.skeleton.joints.iter().enumerate().skip(1) {
        let parent = &rig.skeleton.joints[j.parent.expect("parent")];
        assert!(j.parent.unwrap() < i);
        let expected = if parent.path.is_empty() {
            j.name.clone()
        } else {
            format!("{}/{}", parent.path, j.name)
        };
        assert_eq!(j.path, expected);
        assert_eq!(j.path_hash, path_hash(&j.path));
    }
}

/// A folder under the system's temp folder, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!(
            "clipscope-yaml-{tag}-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn controller_clips_resolve_through_meta_files() {
    let Some(source) = data("yaml/unitypackage-js") else {
        return;
    };
    // The shared data has no .meta files: lay out a project in a temp folder, with the
    // controller in one folder and its clips (with their .meta files) in another.
    let project = TempDir::new("controller");
    let controllers = project.0.join("Assets/Controllers");
    let clips = project.0.join("Assets/Clips/Sub");
    std::fs::create_dir_all(&controllers).unwrap();
    std::fs::create_dir_all(&clips).unwrap();
    let controller = controllers.join("Cube.controller");
    std::fs::copy(source.join("Cube.controller"), &controller).unwrap();
    for (name, guid) in [
        ("Hop.anim", "e217e1bf86a15d54a80b39e05ba74d82"),
        ("TextureMove.anim", "46B95B416612E44439FAD1A12ED84155"),
    ] {
        std::fs::copy(source.join(name), clips.join(name)).unwrap();
        let meta = format!("fileFormatVersion: 2\nguid: {guid}\nNativeFormatImporter:\n");
        std::fs::write(clips.join(format!("{name}.meta")), meta).unwrap();
    }
    std::fs::create_dir_all(project.0.join("ProjectSettings")).unwrap();
    std::fs::write(
        project.0.join("ProjectSettings/ProjectVersion.txt"),
        "m_EditorVersion: 2021.3.5f1\nm_EditorVersionWithRevision: 2021.3.5f1 (40eb3a945986)\n",
    )
    .unwrap();

    assert_eq!(
        meta_guid(&clips.join("Hop.anim")).as_deref(),
        Some("e217e1bf86a15d54a80b39e05ba74d82")
    );
    assert_eq!(
        meta_guid(&clips.join("TextureMove.anim")).as_deref(),
        Some("46b95b416612e44439fad1a12ed84155"),
        "guids are compared lowercase"
    );
    assert_eq!(meta_guid(&controller), None, "no .meta beside it");

    let contents = read(&controller);
    assert!(!contents.version_assumed);
    assert_eq!(contents.unity_version.to_string(), "2021.3.5f1");
    let c = &contents.controllers[0];
    assert_eq!(
        (c.name.as_str(), c.file_id, c.class_id),
        ("Cube", 9_100_000, 91)
    );
    let resolved: Vec<(Option<&str>, i64, Option<PathBuf>)> = c
        .clips
        .iter()
        .map(|l| (l.guid.as_deref(), l.file_id, l.resolved_path.clone()))
        .collect();
    assert_eq!(
        resolved,
        [
            (
                Some("e217e1bf86a15d54a80b39e05ba74d82"),
                7_400_000,
                Some(clips.join("Hop.anim"))
            ),
            (
                Some("46b95b416612e44439fad1a12ed84155"),
                7_400_000,
                Some(clips.join("TextureMove.anim"))
            ),
        ]
    );
    // Outside a project nothing resolves, and the version is assumed.
    let bare = read(&source.join("Cube.controller"));
    assert!(bare.version_assumed);
    assert!(
        bare.controllers[0]
            .clips
            .iter()
            .all(|l| l.resolved_path.is_none())
    );
    // An index built once resolves the links of a file read from anywhere.
    let index = yaml::GuidIndex::build(&project.0);
    assert_eq!(index.len(), 2);
    let bare_path = source.join("Cube.controller");
    let text = std::fs::read_to_string(&bare_path).unwrap();
    let via = yaml::read_yaml_with_index(&bare_path, &text, &index).unwrap();
    let first = &via.controllers[0].clips[0];
    assert_eq!(
        first.resolved_path.as_deref(),
        Some(clips.join("Hop.anim").as_path())
    );
}

#[test]
fn text_that_is_not_unity_yaml_is_refused() {
    let path = Path::new("x.anim");
    assert!(!is_yaml(b"UnityFS\0"));
    assert!(is_yaml(b"\xef\xbb\xbf \n%YAML 1.1\n"));
    assert!(read_yaml(path, "{\"json\": true}").is_err());
    let e = read_yaml(path, "plain text").unwrap_err();
    assert!(e.to_string().contains("x.anim"), "{e}");
}

#[test]
fn a_bad_document_names_its_class_file_id_and_field() {
    let text = "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!74 &7400000\nAnimationClip:\n  m_Name: broken\n  m_FloatCurves:\n  - curve:\n      m_Curve:\n      - time: soon\n        value: 1\n    path: a\n--- !u!74 &7400002\nAnimationClip:\n  m_Name: fine\n";
    let contents = read_yaml(Path::new("two.anim"), text).unwrap();
    assert_eq!(contents.clips.len(), 2);
    let e = contents.clips[0].clip.as_ref().unwrap_err().to_string();
    for part in [
        "two.anim",
        "!u!74 &7400000",
        "AnimationClip",
        "m_FloatCurves[0].curve.m_Curve[0].time",
        "line 9",
    ] {
        assert!(e.contains(part), "{part:?} missing from {e}");
    }
    assert_eq!(contents.clips[1].clip.as_ref().unwrap().m_Name, "fine");
}

/// A Transform document and its GameObject (file id + 100000, named `n{id}`).
fn transform_doc(id: i64, father: i64, children: &[i64]) -> String {
    let list: String = children
        .iter()
        .map(|c| format!("\n  - {{fileID: {c}}}"))
        .collect();
    let list = if list.is_empty() {
        " []".to_string()
    } else {
        list
    };
    let go = id + 100_000;
    format!(
        "--- !u!4 &{id}\nTransform:\n  m_GameObject: {{fileID: {go}}}\n  m_Children:{list}\n  m_Father: {{fileID: {father}}}\n--- !u!1 &{go}\nGameObject:\n  m_Name: n{id}\n"
    )
}

#[test]
fn hostile_hierarchies_are_cut_not_followed() {
    let mut text = String::from("%YAML 1.1\n");
    // Root 1 with a child that does not exist (99) and a cycle below it (2 -> 3 -> 2).
    text += &transform_doc(1, 0, &[2, 99]);
    text += &transform_doc(2, 1, &[3]);
    text += &transform_doc(3, 2, &[2]);
    // A cycle with no root at all.
    text += &transform_doc(4, 5, &[5]);
    text += &transform_doc(5, 4, &[4]);
    // A chain 400 deep.
    for i in 0..400 {
        let id = 1000 + i;
        let child = if i + 1 < 400 { vec![id + 1] } else { vec![] };
        text += &transform_doc(id, if i == 0 { 0 } else { id - 1 }, &child);
    }
    let contents = read_yaml(Path::new("hostile.prefab"), &text).unwrap();
    assert_eq!(contents.rigs.len(), 2);
    let cyclic = &contents.rigs[0];
    let paths: Vec<&str> = cyclic
        .skeleton
        .joints
        .iter()
        .map(|j| j.path.as_str())
        .collect();
    assert_eq!(paths, ["", "n2", "n2/n3"]);
    assert!(cyclic.unresolved.iter().any(|u| u.contains("&99")));
    assert!(cyclic.unresolved.iter().any(|u| u.contains("twice")));
    let chain = &contents.rigs[1];
    assert_eq!(chain.skeleton.joints.len(), 257);
    assert!(chain.unresolved.iter().any(|u| u.contains("deeper")));
    let lost = contents.warnings.iter().find(|w| w.contains("in no rig"));
    let lost = lost.expect("the rootless cycle is reported");
    assert!(lost.contains("&4") && lost.contains("&5"), "{lost}");
}
