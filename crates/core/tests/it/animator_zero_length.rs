//! A text controller whose 1D blend tree plays zero-length text clips (every key at time 0,
//! `m_StopTime: 0`, `m_LoopTime: 1`), as VRChat avatars' toggle layers do. `animator.md` §6.4:
//! a clip of length 0 counts as 1 s in the state's length, the weight-averaged leaf length
//! `L = Σ w·len·|d| / Σ w` (§3.7, `d = 1/m_TimeScale` in text); §6.5: a text state loops iff
//! every leaf clip has Loop Time, which these have.

use std::path::PathBuf;

use crate::common;

use clipscope_core::animator::{json, script};
use clipscope_core::yaml_write::guid::meta_text;
use clipscope_core::{OpenOptions, Workspace};

const FPS: f64 = 60.0;
const OFF_GUID: &str = "0000000000000000000000000000aaaa";
const ON_GUID: &str = "0000000000000000000000000000bbbb";

/// The tree's children: (clip guid, threshold, time scale).
const CHILDREN: [(&str, f32, f32); 2] = [(OFF_GUID, 0.0, 1.0), (ON_GUID, 1.0, 0.5)];

/// DBTP.controller (a real text controller) turned into a 1D tree on `Blend` over the
/// children above; the shared zero-length clip HQ_OFF.anim with Loop Time on, named `name`.
fn project() -> Option<PathBuf> {
    let controller = std::fs::read_to_string(common::data("yaml/modular-avatar/DBTP.controller")?)
        .expect("readable");
    let clip = std::fs::read_to_string(common::data("yaml/modular-avatar/HQ_OFF.anim")?)
        .expect("readable");
    assert!(clip.contains("m_StopTime: 0\n") && clip.contains("m_LoopTime: 0\n"));
    let dir = std::env::temp_dir()
        .join(format!("clipscope-zero-length-{}", std::process::id()))
        .join("Assets");
    std::fs::create_dir_all(&dir).unwrap();
    for (name, guid) in [("Off", OFF_GUID), ("On", ON_GUID)] {
        let text = clip
            .replace("m_Name: HQ_OFF", &format!("m_Name: {name}"))
            .replace("m_LoopTime: 0\n", "m_LoopTime: 1\n");
        std::fs::write(dir.join(format!("{name}.anim")), text).unwrap();
        std::fs::write(
            dir.join(format!("{name}.anim.meta")),
            meta_text(guid, 7400000),
        )
        .unwrap();
    }
    std::fs::write(dir.join("Toggle.controller"), one_d_tree(&controller)).unwrap();
    Some(dir)
}

/// DBTP's Direct tree as a 1D tree on the float `Blend` over [`CHILDREN`].
fn one_d_tree(dbtp: &str) -> String {
    let start = dbtp.find("  m_Childs:\n").expect("children");
    let end = dbtp.find("  m_BlendParameter: Blend").expect("parameter");
    let mut children = String::from("  m_Childs:\n");
    for (guid, threshold, scale) in CHILDREN {
        children += &format!(
            "  - serializedVersion: 2\n    m_Motion: {{fileID: 7400000, guid: {guid}, type: 2}}\n    \
             m_Threshold: {threshold}\n    m_Position: {{x: 0, y: 0}}\n    m_TimeScale: {scale}\n    \
             m_CycleOffset: 0\n    m_DirectBlendParameter: Blend\n    m_Mirror: 0\n"
        );
    }
    let text = format!("{}{children}{}", &dbtp[..start], &dbtp[end..]);
    text.replace("m_BlendType: 4", "m_BlendType: 0")
        .replace("  - m_Name: A\n", "  - m_Name: Blend\n")
}

#[test]
fn zero_length_leaves_loop_and_count_one_second() {
    let Some(dir) = project() else {
        return;
    };
    let ws = Workspace::open(&[dir.join("Toggle.controller")], &OpenOptions::default());
    assert!(ws.errors.is_empty(), "{:?}", ws.errors);
    let c = ws.controllers[0].model.as_ref().expect("decodes");

    // `controller --json`: both leaves resolve to the zero-length clips and loop; so does the state.
    let model = json::controller(c, "Toggle.controller", 9100000);
    let state = &model["layers"][0]["state_machine"]["states"][0];
    assert_eq!(state["loop"], true, "{state}");
    let children = state["motion"]["children"].as_array().expect("a tree");
    assert_eq!(children.len(), 2, "{state}");
    for (child, name) in children.iter().zip(["Off", "On"]) {
        let clip = &child["motion"];
        assert_eq!(clip["clip"], name, "{child}");
        assert_eq!(clip["looping"], true, "{child}");
        assert_eq!(clip["stop"].as_f64(), Some(0.0), "{child}");
    }

    // `animate --json`: at Blend 0.25 the weights are (0.75, 0.25) and
    // L = 0.75·1 s·1 + 0.25·1 s·(1/0.5) = 1.25 s.
    let actions = script::parse("0:Blend=0.25").expect("script");
    let (frames, warnings) = script::run(c, &actions, FPS, &[0.5, 1.0]);
    assert!(warnings.is_empty(), "{warnings:?}");
    let states: Vec<_> = frames.iter().map(|f| &f.layers[0].states[0]).collect();
    for s in &states {
        assert!((s.length - 1.25).abs() < 1e-9, "length {}", s.length);
        let weights: Vec<f64> = s.leaves.iter().map(|l| l.tree_weight).collect();
        assert!(
            (weights[0] - 0.75).abs() < 1e-9 && (weights[1] - 0.25).abs() < 1e-9,
            "{weights:?}"
        );
        assert!(
            s.leaves.iter().all(|l| l.looping && l.clip_time == 0.0),
            "{:?}",
            s.leaves
        );
    }
    let advanced = states[1].normalized_time - states[0].normalized_time;
    assert!(
        (advanced - 0.5 / 1.25).abs() < 1e-9,
        "nt advanced {advanced}"
    );
    std::fs::remove_dir_all(dir.parent().unwrap()).ok();
}
