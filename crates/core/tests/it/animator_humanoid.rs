//! Pose blending with humanoid clips on a real humanoid rig (morbman, its `dancecontroller`
//! and its clips in the sibling bundles): one clip at weight 1 poses the rig exactly as
//! `pose` does at the same clip time, and an Override layer with a body mask that keeps only
//! the head replaces the head's muscles and nothing else (blending in muscle space).

use crate::common;

use clipscope_core::animator::machine::LayerOutput;
use clipscope_core::animator::mask::body_words;
use clipscope_core::animator::model::Controller;
use clipscope_core::animator::pose::PoseBlender;
use clipscope_core::animator::script::{self, Step};
use clipscope_core::humanoid::{ClipMuscles, HumanPose, JointLocal, PoseOptions};
use clipscope_core::pose::ClipPoser;
use clipscope_core::workspace::ObjectRef;
use clipscope_core::{ClipData, Workspace};

fn open() -> Option<Workspace> {
    let dir = "binary/wetboys_plateupemotesapi";
    let paths = [
        "morbman",
        "moisture_animationreplacements",
        "customemotespackage",
    ]
    .iter()
    .map(|f| common::data(&format!("{dir}/{f}")))
    .collect::<Option<Vec<_>>>()?;
    Some(common::open(&paths))
}

/// Runs `model` under `script` to `time`, blending every update on the humanoid rig: the
/// last update's output and the pose.
fn run(
    ws: &Workspace,
    model: &Controller,
    script: &str,
    time: f64,
) -> (Vec<LayerOutput>, Vec<JointLocal>) {
    let (_, rig) = ws.humanoid_rigs().next().expect("morbman is humanoid");
    let clip = |r: &clipscope_core::animator::model::ResolvedClip| {
        ws.clip(ObjectRef {
            file: r.file,
            path_id: r.path_id,
        })
        .and_then(|e| e.data.as_ref().ok())
    };
    let mut blender = PoseBlender::new(model, &rig.skeleton, rig.humanoid.as_deref(), &clip);
    assert!(blender.warnings().is_empty(), "{:?}", blender.warnings());
    let actions = script::parse(script).unwrap();
    let mut last = (Vec::new(), Vec::new());
    let mut observe = |step: Step<'_>| {
        if let Step::Update(layers) = step {
            last = (layers.to_vec(), blender.blend(layers).to_vec());
        }
    };
    let (_, warnings) = script::run_observed(model, &actions, 60.0, &[time], Some(&mut observe));
    assert!(warnings.is_empty(), "{warnings:?}");
    last
}

fn clip_named<'a>(ws: &'a Workspace, name: &str) -> &'a ClipData {
    common::clip(ws, name)
}

fn close(a: &JointLocal, b: &JointLocal, what: &str) {
    let (x, y) = (
        clipscope_core::pose::to_row(a),
        clipscope_core::pose::to_row(b),
    );
    for (p, q) in x.iter().zip(&y) {
        assert!((p - q).abs() < 1e-4, "{what}: {x:?} != {y:?}");
    }
}

#[test]
fn one_humanoid_clip_at_weight_one_poses_as_pose_does() {
    let Some(ws) = open() else {
        return;
    };
    let model = ws.controllers[0].model.clone().expect("decodes");
    let (layers, pose) = run(&ws, &model, "0:play Base Layer.Loop", 0.5);
    let leaf = &layers[0].states[0].leaves[0];
    assert_eq!(leaf.clip.as_deref(), Some("Floss"));
    assert!(leaf.tree_weight == 1.0 && leaf.clip_time > 0.0);
    let (_, rig) = ws.humanoid_rigs().next().unwrap();
    let floss = clip_named(&ws, "Floss");
    let poser = ClipPoser::new(floss, &rig.skeleton, rig.humanoid.as_deref());
    assert!(poser.is_humanoid());
    let expected = poser.locals(leaf.clip_time as f32, &PoseOptions::default());
    assert_eq!(pose.len(), expected.len());
    for (j, (a, b)) in pose.iter().zip(&expected).enumerate() {
        close(a, b, &rig.skeleton.joints[j].path);
    }
}

#[test]
fn a_head_only_body_mask_replaces_the_head_muscles_alone() {
    let Some(ws) = open() else {
        return;
    };
    let mut model = ws.controllers[0].model.clone().expect("decodes");
    // Layer 1: the same machine starting in Poop (Default Dance), Override at weight 1,
    // masked to the head (AvatarMask part 2).
    let mut upper = model.layers[0].clone();
    upper.name = "Head".into();
    upper.weight = 1.0;
    upper.state_machine.default_state = Some("Base Layer.Poop".into());
    let mut parts = [0u32; 13];
    parts[2] = 1;
    upper.body_mask = Some(body_words(&parts));
    model.layers.push(upper);
    let (layers, pose) = run(&ws, &model, "0:play Base Layer.Loop", 0.5);
    let base = &layers[0].states[0].leaves[0];
    let head = &layers[1].states[0].leaves[0];
    assert_eq!(
        (base.clip.as_deref(), head.clip.as_deref()),
        (Some("Floss"), Some("Default Dance"))
    );
    let sample = |name: &str, t: f64| {
        let clip = clip_named(&ws, name);
        let mut p = HumanPose::default();
        ClipMuscles::new(clip).sample(clip, t as f32, &mut p);
        p
    };
    let mut expected = sample("Floss", base.clip_time);
    let dance = sample("Default Dance", head.clip_time);
    // Head muscles: Neck, Head, eyes, jaw (9..21); everything else stays Floss's.
    expected.muscles[9..21].copy_from_slice(&dance.muscles[9..21]);
    assert!(
        (9..21)
            .any(|m| (dance.muscles[m] - sample("Floss", base.clip_time).muscles[m]).abs() > 1e-3),
        "the two clips differ in the head"
    );
    let (_, rig) = ws.humanoid_rigs().next().unwrap();
    let human = rig.humanoid.as_deref().unwrap();
    let mut locals: Vec<JointLocal> = rig.skeleton.joints.iter().map(JointLocal::rest).collect();
    human.pose(&expected, &PoseOptions::default(), &mut locals);
    for j in human.posed_joints() {
        close(&pose[j], &locals[j], &rig.skeleton.joints[j].path);
    }
}
