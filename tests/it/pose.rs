//! `clipscope pose`: every joint of a rig posed by a clip, for humanoid clips (muscles on the
//! rig's avatar) and generic ones (tracks over the rest pose), in Unity space.

use crate::common;
use clipscope_authoring::fixtures::skew as skew_fixture;

use std::path::PathBuf;

use clipscope_core::path_hash;
use common::{clipscope, data};
use serde_json::Value;

fn pose(paths: &[PathBuf], extra: &[&str]) -> (i32, Value, String) {
    let mut args = vec!["pose".to_string()];
    args.extend(paths.iter().map(|p| p.to_str().unwrap().to_string()));
    args.extend(extra.iter().map(|s| s.to_string()));
    args.push("--json".into());
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = clipscope(&refs);
    let v = serde_json::from_str(&out).unwrap_or(Value::Null);
    (code, v, err)
}

fn rows(joint: &Value, key: &str) -> Vec<Vec<f64>> {
    joint[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect()
        })
        .collect()
}

type Q = [f64; 4];

fn qmul(a: Q, b: Q) -> Q {
    [
        a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
        a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
        a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
        a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
    ]
}

fn rotate(q: Q, v: [f64; 3]) -> [f64; 3] {
    let p = qmul(
        qmul(q, [v[0], v[1], v[2], 0.0]),
        [-q[0], -q[1], -q[2], q[3]],
    );
    [p[0], p[1], p[2]]
}

#[test]
fn a_humanoid_clip_poses_every_joint_with_human_bone_names() {
    let (Some(rig), Some(emotes)) = (
        data("binary/wetboys_plateupemotesapi/morbman"),
        data("binary/wetboys_plateupemotesapi/moisture_animationreplacements"),
    ) else {
        return;
    };
    let (code, v, err) = pose(&[rig, emotes], &["--clip", "Dab", "--times", "0,0.5,1.25"]);
    assert_eq!(code, 0, "{err}");
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "clip", "goals", "humanoid", "joints", "mirrored", "rig", "times", "warnings"
        ]
    );
    assert_eq!(v["mirrored"], false, "Dab's m_Mirror is off");
    // One goals object per time, each foot with its sole's distance to its goal.
    let goals = v["goals"].as_array().expect("goals per time");
    assert_eq!(goals.len(), 3);
    for g in goals {
        for foot in ["LeftFoot", "RightFoot"] {
            let d = g[foot]["sole_distance"].as_f64().expect("a distance");
            assert!((0.0..0.5).contains(&d), "{foot}: {d}");
            assert_eq!(g[foot]["position"].as_array().map(Vec::len), Some(3));
        }
    }
    assert_eq!(
        (
            v["clip"].as_str(),
            v["rig"].as_str(),
            v["humanoid"].as_bool()
        ),
        (Some("Dab"), Some("morbman"), Some(true))
    );
    let joints = v["joints"].as_array().unwrap();
    assert_eq!(joints.len(), 38);
    assert_eq!(joints[0]["path"], "");
    let humans: Vec<&str> = joints.iter().filter_map(|j| j["human"].as_str()).collect();
    for bone in ["Hips", "Spine", "Head", "LeftUpperLeg", "RightHand"] {
        assert!(humans.contains(&bone), "{humans:?}");
    }
    for j in joints {
        let mut keys: Vec<&str> = j.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["human", "local", "path", "path_hash", "world"]);
        assert_eq!(
            j["path_hash"].as_u64(),
            Some(u64::from(path_hash(j["path"].as_str().unwrap())))
        );
        for key in ["local", "world"] {
            let rows = rows(j, key);
            assert_eq!(rows.len(), 3);
            for r in rows {
                assert_eq!(r.len(), 10);
                let len: f64 = r[3..7].iter().map(|c| c * c).sum::<f64>().sqrt();
                assert!(
                    (len - 1.0).abs() < 1e-5 && r[6] >= 0.0,
                    "{}: {r:?}",
                    j["path"]
                );
            }
        }
    }
    // The hand moves between the frames: the clip really poses the rig.
    let hand = joints.iter().find(|j| j["human"] == "RightHand").unwrap();
    let w = rows(hand, "world");
    assert!(
        (w[0][0] - w[2][0]).abs() + (w[0][1] - w[2][1]).abs() > 0.01,
        "{w:?}"
    );
}

#[test]
fn world_transforms_compose_parent_and_local() {
    let (Some(rig), Some(emotes)) = (
        data("binary/wetboys_plateupemotesapi/morbman"),
        data("binary/wetboys_plateupemotesapi/customemotespackage"),
    ) else {
        return;
    };
    let (_, v, err) = pose(
        &[rig, emotes],
        &["--clip", "Default Dance", "--times", "2.2"],
    );
    let joints = v["joints"].as_array().unwrap_or_else(|| panic!("{err}"));
    let by_path = |p: &str| joints.iter().find(|j| j["path"] == p);
    let mut checked = 0;
    for j in joints {
        let path = j["path"].as_str().unwrap();
        let Some((parent_path, _)) = path.rsplit_once('/') else {
            continue;
        };
        let (parent, local, world) = (
            rows(by_path(parent_path).unwrap(), "world")[0].clone(),
            rows(j, "local")[0].clone(),
            rows(j, "world")[0].clone(),
        );
        let pq = [parent[3], parent[4], parent[5], parent[6]];
        let scaled = [
            local[0] * parent[7],
            local[1] * parent[8],
            local[2] * parent[9],
        ];
        let t = rotate(pq, scaled);
        for k in 0..3 {
            assert!(
                (parent[k] + t[k] - world[k]).abs() < 1e-4,
                "{path}: {parent:?} {local:?} {world:?}"
            );
        }
        let q = qmul(pq, [local[3], local[4], local[5], local[6]]);
        let sign = if q[3] < 0.0 { -1.0 } else { 1.0 };
        for k in 0..4 {
            assert!((sign * q[k] - world[3 + k]).abs() < 1e-4, "{path}");
        }
        checked += 1;
    }
    assert!(checked > 30);
}

#[test]
fn the_text_clip_and_its_built_clip_pose_the_rig_alike() {
    let (Some(rig), Some(built), Some(text)) = (
        data("binary/wetboys_plateupemotesapi/morbman"),
        data("binary/wetboys_plateupemotesapi/moisture_animationreplacements"),
        data("yaml/plateupemotesapi/Floss.anim"),
    ) else {
        return;
    };
    let times = ["--times", "0,0.4,0.9,1.3"];
    let (_, a, err) = pose(
        &[rig.clone(), built],
        &[&["--clip", "Floss"][..], &times].concat(),
    );
    let (_, b, err2) = pose(&[rig, text], &[&["--clip", "Floss"][..], &times].concat());
    assert_eq!(a["humanoid"], true, "{err}");
    assert_eq!(b["humanoid"], true, "{err2}");
    let mut worst = 0.0f64;
    for (ja, jb) in a["joints"]
        .as_array()
        .unwrap()
        .iter()
        .zip(b["joints"].as_array().unwrap())
    {
        for (ra, rb) in rows(ja, "world").iter().zip(rows(jb, "world")) {
            for (x, y) in ra.iter().zip(rb) {
                worst = worst.max((x - y).abs());
            }
        }
    }
    assert!(worst < 1e-4, "text and built Floss differ by {worst}");
}

#[test]
fn a_generic_clip_sets_its_joints_to_the_sampled_curves() {
    let Some(path) = data("binary/duckhunted/WebPlayer.unity3d") else {
        return;
    };
    let (code, v, err) = pose(
        std::slice::from_ref(&path),
        &["--clip", "Run", "--times", "0.1,0.35"],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        (v["rig"].as_str(), v["humanoid"].as_bool()),
        (Some("Model"), Some(false))
    );
    let (_, out, _) = clipscope(&[
        "sample",
        path.to_str().unwrap(),
        "--clip",
        "Run",
        "--times",
        "0.1,0.35",
    ]);
    let sampled: Value = serde_json::from_str(&out).unwrap();
    let mut checked = 0;
    for j in v["joints"].as_array().unwrap() {
        let hash = u64::from(path_hash(j["path"].as_str().unwrap()));
        let local = rows(j, "local");
        for c in sampled["curves"].as_array().unwrap() {
            if c["path"].as_u64() != Some(hash) || c["type_id"] != 4 {
                continue;
            }
            let k = c["component"].as_u64().unwrap() as usize;
            let column = match c["attribute"].as_u64() {
                Some(1) => k,
                Some(3) => 7 + k,
                _ => continue,
            };
            for (row, value) in local.iter().zip(c["values"].as_array().unwrap()) {
                assert!(
                    (row[column] - value.as_f64().unwrap()).abs() < 1e-5,
                    "{}",
                    j["path"]
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 6, "{checked}");
}

#[test]
fn rigs_are_chosen_by_name_and_a_rig_without_an_avatar_says_so() {
    let (Some(copy), Some(emotes)) = (
        data("binary/lessscarymannequins/copy.bundle"),
        data("binary/wetboys_plateupemotesapi/moisture_animationreplacements"),
    ) else {
        return;
    };
    let (code, v, err) = pose(
        &[copy.clone(), emotes.clone()],
        &["--clip", "Dab", "--rig", "quinn", "--times", "0"],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        (v["rig"].as_str(), v["humanoid"].as_bool()),
        (Some("quinn"), Some(false))
    );
    assert!(
        v["warnings"][0]
            .as_str()
            .unwrap()
            .contains("no humanoid avatar"),
        "{v}"
    );
    let (code, _, err) = pose(&[copy, emotes], &["--clip", "Dab", "--rig", "nobody"]);
    assert_eq!(code, 2);
    assert!(err.contains("rigs there: quinn"), "{err}");
}

/// `pose --json` on the squash-and-stretch sword: world positions are the products of the
/// full TRS matrices (a stretched parent skews its turned child), world scales Unity's
/// `lossyScale`, world rotations the product of the local ones.
#[test]
fn world_positions_are_unitys_matrix_products_under_a_stretched_parent() {
    let dir = std::env::temp_dir().join(format!("clipscope-pose-skew-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("sword.bundle");
    std::fs::write(&file, skew_fixture::bundle()).unwrap();
    let (code, v, err) = pose(
        &[file],
        &[
            "--clip",
            skew_fixture::CLIP,
            "--times",
            "0,0.5,1",
            "--wrap",
            "clamp",
        ],
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["rig"], skew_fixture::RIG);
    let joints = v["joints"].as_array().unwrap();
    let joint = |path: &str| joints.iter().find(|j| j["path"] == path).unwrap();
    let (tip, blade) = (
        rows(joint(skew_fixture::TIP), "world"),
        rows(joint(skew_fixture::BLADE), "world"),
    );
    let close = |a: &[f64], b: [f64; 3]| a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 1e-5);
    for (i, t) in [0.0, 0.5, 1.0].into_iter().enumerate() {
        let k = skew_fixture::stretch(t);
        assert!(
            close(&tip[i][0..3], skew_fixture::tip(k)),
            "tip at {t}: {:?}",
            tip[i]
        );
        assert!(
            close(&blade[i][0..3], skew_fixture::blade(k)),
            "blade at {t}: {:?}",
            blade[i]
        );
        assert!(
            close(&blade[i][7..10], skew_fixture::blade_lossy_scale(k)),
            "blade scale at {t}: {:?}",
            blade[i]
        );
        // Rotation: Arm's 90° about Y, then the Blade's 45° about Z.
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let (s8, c8) = (
            std::f64::consts::FRAC_PI_8.sin(),
            std::f64::consts::FRAC_PI_8.cos(),
        );
        let q = qmul([0.0, h, 0.0, h], [0.0, 0.0, s8, c8]);
        let dot: f64 = (0..4).map(|c| q[c] * blade[i][3 + c]).sum();
        assert!(
            (dot.abs() - 1.0).abs() < 1e-6,
            "blade rotation at {t}: {:?}",
            blade[i]
        );
    }
    // Stretched, the Tip is off where triples would put it (y = 1 + k·√½).
    assert!((tip[2][1] - (1.0 + 3.0 * std::f64::consts::FRAC_1_SQRT_2)).abs() > 1.0);
}

/// Joints standing in for a clip's paths (no rig in the files) carry their path hash, and
/// those whose path is unknown are listed as `export` names them: `#xxxxxxxx`.
#[test]
fn stand_in_joints_carry_their_path_hash_and_exports_names() {
    let Some(emotes) = data("binary/wetboys_plateupemotesapi/moisture_animationreplacements")
    else {
        return;
    };
    // Dab's blend shape bindings name meshes at paths no file here spells out.
    let (code, v, err) = pose(&[emotes], &["--clip", "Dab", "--times", "0"]);
    assert_eq!(code, 0, "{err}");
    let joints = v["joints"].as_array().unwrap();
    assert!(joints.len() > 1, "{v}");
    let mut hashes = std::collections::HashSet::new();
    let mut unknown = 0;
    for (j, joint) in joints.iter().enumerate() {
        let path = joint["path"].as_str().unwrap();
        let hash = joint["path_hash"].as_u64().unwrap() as u32;
        assert!(hashes.insert(hash), "hash {hash:08x} twice");
        if j > 0 && path.starts_with('#') {
            assert_eq!(path, format!("#{hash:08x}"));
            unknown += 1;
        } else {
            assert_eq!(hash, path_hash(path), "{path}");
        }
    }
    assert!(unknown > 0, "{v}");
}
