//! Humanoid clips on morbman, the shared data's humanoid rig, by both routes: every frame,
//! every joint's `Transform` is the rig posed directly (`HumanoidRig::pose`) from the clip
//! sampled at the playhead's clip time, mirrored into Bevy's space. No file holds Unity's own
//! pose; `tests/humanoid.rs` checks the pose itself.

use std::path::PathBuf;

use clipscope_core::clip::{ClipCurve, GenericBinding, LegacyKind, Storage, Track, attribute};
use clipscope_core::curve::{Curve, Key};
use clipscope_core::humanoid::{ClipMuscles, HumanPose, JointLocal, PoseOptions};

use super::*;

/// morbman's skeleton and its avatar bound to it.
fn morbman() -> Option<(Skeleton, Arc<HumanoidRig>)> {
    let path = common::data("binary/wetboys_plateupemotesapi/morbman")?;
    let ws = common::open(&[path]);
    let rig = ws.rigs.iter().find(|r| r.name == "morbman").expect("rig");
    let humanoid = rig.humanoid.clone().expect("morbman's Avatar is humanoid");
    Some((
        clipscope_core::rig::Skeleton::clone(&rig.skeleton),
        humanoid,
    ))
}

/// The humanoid clips named, from the emote bundles and the text `Floss.anim`.
fn emotes(names: &[&str]) -> Option<Vec<ClipData>> {
    let paths: Option<Vec<PathBuf>> = [
        "binary/wetboys_plateupemotesapi/moisture_animationreplacements",
        "binary/wetboys_plateupemotesapi/customemotespackage",
        "yaml/plateupemotesapi/Floss.anim",
    ]
    .iter()
    .map(|p| common::data(p))
    .collect();
    let ws = common::open(&paths?);
    let clips = ws
        .clips
        .iter()
        .filter_map(|c| c.data.as_ref().ok())
        .filter(|c| names.contains(&c.name.as_str()));
    Some(clips.cloned().collect())
}

/// The local transforms of every joint of `rig` posed by `clip` at clip time `t`, mirrored.
fn posed(rig: &HumanoidRig, clip: &ClipData, t: f32, root_motion: bool) -> Vec<Transform> {
    let mut locals = vec![JointLocal::IDENTITY; rig.joint_count()];
    rig.pose(
        &HumanPose::sample(clip, t),
        &PoseOptions { root_motion },
        &mut locals,
    );
    locals
        .iter()
        .map(|l| Transform {
            translation: position_to_bevy(l.t),
            rotation: rotation_to_bevy(l.q),
            scale: Vec3::from_array(l.s),
        })
        .collect()
}

fn clip_time(app: &App, root: Entity) -> f32 {
    app.world()
        .get::<UnityPlayback>(root)
        .unwrap()
        .playhead
        .clip_time()
}

fn transforms(app: &App, root: Entity) -> Vec<Transform> {
    let joints = &app.world().get::<RigRoot>(root).unwrap().joints;
    joints
        .iter()
        .map(|&e| *app.world().get::<Transform>(e).unwrap())
        .collect()
}

/// Plays `frames` frames; every frame every joint but the root (which stays at rest) must be
/// the rig posed directly. Returns the clip times seen and the largest rotation (radians)
/// of any joint away from its rest pose.
fn check_posed_frames(
    app: &mut App,
    root: Entity,
    skeleton: &Skeleton,
    rig: &HumanoidRig,
    clip: &ClipData,
    frames: usize,
) -> (Vec<f32>, f32) {
    let rest: Vec<Transform> = skeleton.joints.iter().map(rest_transform).collect();
    let (mut seen, mut moved) = (Vec::new(), 0.0f32);
    for frame in 0..frames {
        app.update();
        let t = clip_time(app, root);
        seen.push(t);
        let want = posed(rig, clip, t, true);
        let actual = transforms(app, root);
        assert_close(&actual[0], &rest[0], "the root stays where it stands");
        for j in 1..actual.len() {
            let what = format!(
                "{} frame {frame} t={t} {}",
                clip.name, skeleton.joints[j].path
            );
            assert_close(&actual[j], &want[j], &what);
            moved = moved.max(want[j].rotation.angle_between(rest[j].rotation));
        }
    }
    (seen, moved)
}

#[test]
fn humanoid_clips_pose_morbman_as_the_rig_poses_them_by_both_routes() {
    let Some((skeleton, rig)) = morbman() else {
        return;
    };
    let clips = emotes(&["Dab", "Floss", "Default Dance"]).unwrap();
    // Dab, Floss and Default Dance from the bundles, and the text Floss.
    assert_eq!(clips.len(), 4);
    for clip in &clips {
        assert!(ClipMuscles::new(clip).is_humanoid(), "{}", clip.name);
        for (route, wrap) in [
            (Route::Direct, WrapMode::Loop),
            (Route::Graph, WrapMode::PingPong),
        ] {
            let mut app = app();
            let root = setup_with(&mut app, &skeleton, clip, route, Some(rig.clone()));
            play(&mut app, root, wrap);
            // Start just before the end so the playhead wraps (or turns) within the frames.
            let start = clip.stop - 10.0 * DT;
            app.world_mut()
                .get_mut::<UnityPlayback>(root)
                .unwrap()
                .playhead
                .seek(start);
            let (seen, moved) = check_posed_frames(&mut app, root, &skeleton, &rig, clip, 30);
            let what = format!("{} {route:?}", clip.name);
            assert!(
                moved > 0.5,
                "{what}: the pose moves the joints ({moved} rad)"
            );
            assert!(
                seen.windows(2).any(|w| w[1] < w[0]),
                "{what}: the playhead wraps or turns: {seen:?}"
            );
            // The muscle values are there for a UI, labelled.
            let props = app.world().get::<UnityProperties>(root).unwrap();
            assert!(props.labels.values().filter(|l| l.kind == "muscle").count() > 90);
            assert!(props.values.len() > 90, "{what}");
        }
    }
}

/// Where the body's centre of mass is on the posed Bevy joints, in Unity's space relative to
/// the rig root.
fn centre_of_mass(app: &App, root: Entity, rig: &HumanoidRig) -> Vec3 {
    let joints = &app.world().get::<RigRoot>(root).unwrap().joints;
    let global = |e: Entity| app.world().get::<GlobalTransform>(e).unwrap().affine();
    let to_root = global(root).inverse();
    let world: Vec<JointLocal> = joints
        .iter()
        .map(|&e| {
            let p = to_root.transform_point3(global(e).translation.into());
            JointLocal {
                t: [p.x, p.y, -p.z],
                ..JointLocal::IDENTITY
            }
        })
        .collect();
    Vec3::from_array(rig.centre_of_mass(&world).expect("every part is mapped"))
}

#[test]
fn humanoid_root_motion_off_keeps_the_body_over_the_origin() {
    let Some((skeleton, rig)) = morbman() else {
        return;
    };
    let clip = &emotes(&["Default Dance"]).unwrap()[0];
    let mut app = app();
    let root = setup_with(&mut app, &skeleton, clip, Route::Direct, Some(rig.clone()));
    play(&mut app, root, WrapMode::Loop);
    let (mut on_far, mut off_far) = (0.0f32, 0.0f32);
    for frame in 0..120 {
        let root_motion = frame % 2 == 0;
        app.world_mut()
            .get_mut::<UnityHumanoid>(root)
            .unwrap()
            .options
            .root_motion = root_motion;
        app.update();
        let t = clip_time(&app, root);
        let com = centre_of_mass(&app, root, &rig);
        let options = PoseOptions { root_motion };
        let body = Vec3::from_array(rig.body(&HumanPose::sample(clip, t), &options).t);
        assert!(
            com.abs_diff_eq(body, 1e-4),
            "t={t} root motion {root_motion}: centre of mass {com} vs the body {body}"
        );
        let horizontal = Vec2::new(com.x, com.z).length();
        if root_motion {
            on_far = on_far.max(horizontal);
        } else {
            off_far = off_far.max(horizontal);
        }
    }
    assert!(
        off_far < 1e-4,
        "root motion off: {off_far} m from the origin"
    );
    assert!(
        on_far > 0.05,
        "root motion on: the body travels ({on_far} m)"
    );
}

/// A legacy clip turning and moving each of `paths` (rotation and position tracks).
fn generic_clip(paths: &[String]) -> ClipData {
    let (mut bindings, mut curves, mut tracks) = (Vec::new(), Vec::new(), Vec::new());
    for (j, path) in paths.iter().enumerate() {
        for (attribute, count, kind) in [
            (attribute::POSITION, 3, LegacyKind::Position),
            (attribute::ROTATION, 4, LegacyKind::Rotation),
        ] {
            let first = curves.len();
            for c in 0..count {
                let keys = (0..7)
                    .map(|k| {
                        let t = k as f32 / 6.0;
                        let phase = t * 4.0 + (j * 4 + c) as f32;
                        Key::new(t, phase.sin() * 0.4, phase.cos(), phase.cos())
                    })
                    .collect();
                curves.push(ClipCurve {
                    curve: Curve::from_keys(keys),
                    storage: Storage::Legacy(kind),
                    binding: Some(bindings.len()),
                    component: c as u8,
                });
            }
            tracks.push(Track {
                binding: bindings.len(),
                curves: (first..curves.len()).collect(),
            });
            bindings.push(GenericBinding {
                path: clipscope_core::path_hash(path),
                attribute,
                type_id: 4,
                custom_type: 0,
                is_pptr: false,
                is_int: false,
                script: (0, 0),
                path_name: Some(path.clone()),
                attribute_name: None,
            });
        }
    }
    ClipData {
        name: "generic".into(),
        legacy: true,
        keyframed: true,
        start: 0.0,
        stop: 1.0,
        sample_rate: 30.0,
        wrap_mode_code: 2,
        loop_time: false,
        cycle_offset: 0.0,
        settings: Default::default(),
        counts: Default::default(),
        bindings,
        curves,
        tracks,
        pptr_mapping: Vec::new(),
        events: Vec::new(),
        warnings: Vec::new(),
        summary_only: None,
    }
}

#[test]
fn generic_clips_still_play_on_a_humanoid_rig() {
    let Some((skeleton, rig)) = morbman() else {
        return;
    };
    let floss = &emotes(&["Floss"]).unwrap()[0];
    let paths: Vec<String> = ["Armature/LowerSpine", "Armature/LowerSpine/UpperLeg.L"]
        .iter()
        .map(|p| p.to_string())
        .collect();
    let generic = generic_clip(&paths);
    for route in ROUTES {
        let mut app = app();
        let root = setup_with(&mut app, &skeleton, floss, route, Some(rig.clone()));
        play(&mut app, root, WrapMode::Loop);
        check_posed_frames(&mut app, root, &skeleton, &rig, floss, 5);
        // Switch the same rig to the generic clip: its tracks drive the joints again.
        let loaded = LoadedClip::new(
            "generic".into(),
            "generic".into(),
            0,
            Arc::new(generic.clone()),
            app.world_mut()
                .resource_mut::<Assets<AnimationClip>>()
                .add(bevy_clip(&generic).0),
        );
        let world = app.world_mut();
        world.resource_scope(|world, mut graphs: Mut<Assets<AnimationGraph>>| {
            let mut commands = world.commands();
            match route {
                Route::Graph => play_clip(&mut commands, &mut graphs, root, &loaded),
                Route::Direct => play_clip_direct(&mut commands, root, &loaded),
            };
        });
        world.flush();
        app.update();
        play(&mut app, root, WrapMode::Loop);
        check_frames(&mut app, root, &skeleton, &generic, 40);
        assert!(app.world().get::<HumanoidState>(root).is_none());
    }
}

#[test]
fn humanoid_clip_transform_tracks_still_drive_joints_outside_the_human_skeleton() {
    let Some((skeleton, rig)) = morbman() else {
        return;
    };
    let mut clip = emotes(&["Floss"]).unwrap().remove(0);
    let target = skeleton
        .joints
        .iter()
        .position(|j| j.name == "IKLegTarget.L")
        .expect("the IK target joint");
    assert_eq!(rig.joint_bone(target), None, "not a human bone");
    // Add a generic clip's tracks for the IK target to the humanoid clip.
    let extra = generic_clip(&[skeleton.joints[target].path.clone()]);
    let (bindings, curves) = (clip.bindings.len(), clip.curves.len());
    clip.bindings.extend(extra.bindings.iter().cloned());
    clip.curves.extend(extra.curves.iter().map(|c| ClipCurve {
        binding: c.binding.map(|b| b + bindings),
        ..c.clone()
    }));
    clip.tracks.extend(extra.tracks.iter().map(|t| Track {
        binding: t.binding + bindings,
        curves: t.curves.iter().map(|c| c + curves).collect(),
    }));
    for route in ROUTES {
        let mut app = app();
        let root = setup_with(&mut app, &skeleton, &clip, route, Some(rig.clone()));
        play(&mut app, root, WrapMode::Loop);
        let rest = rest_transform(&skeleton.joints[target]);
        for _ in 0..20 {
            app.update();
            let t = clip_time(&app, root);
            let actual = transforms(&app, root);
            let want = posed(&rig, &clip, t, true);
            for j in 1..actual.len() {
                let want = if j == target {
                    expected(&clip, rest, skeleton.joints[j].path_hash, t)
                } else {
                    want[j]
                };
                assert_close(&actual[j], &want, &format!("{route:?} t={t} joint {j}"));
            }
        }
    }
}

#[test]
fn the_asset_loader_gives_humanoid_rigs_their_avatar() {
    let Some(path) = common::data("binary/wetboys_plateupemotesapi/morbman") else {
        return;
    };
    let (mut app, handle) = load_from_memory(&path, "morbman.bundle");
    let file = app.world().resource::<Assets<UnityFile>>().get(&handle);
    let (_, rig) = file.expect("loaded").rigs[0].clone();
    let rig = app
        .world()
        .resource::<Assets<UnityRig>>()
        .get(&rig)
        .unwrap()
        .clone();
    let humanoid = rig.humanoid.clone().expect("morbman's Avatar is humanoid");
    assert_eq!(humanoid.joint_count(), rig.skeleton.joints.len());
    let world = app.world_mut();
    let root = spawn_unity_rig(&mut world.commands(), &rig);
    world.flush();
    let added = world
        .get::<UnityHumanoid>(root)
        .expect("spawned with its avatar");
    assert!(Arc::ptr_eq(&added.rig, &humanoid) && added.options.root_motion);
}

#[test]
fn humanoid_posed_positions_are_where_the_played_joints_are() {
    let Some((skeleton, rig)) = morbman() else {
        return;
    };
    let clip = &emotes(&["Dab"]).unwrap()[0];
    let mut app = app();
    let root = setup_with(&mut app, &skeleton, clip, Route::Direct, Some(rig.clone()));
    play(&mut app, root, WrapMode::Loop);
    let joints = app.world().get::<RigRoot>(root).unwrap().joints.clone();
    for _ in 0..30 {
        app.update();
        let t = clip_time(&app, root);
        let options = PoseOptions::default();
        let want = humanoid_posed_positions(&rig, &skeleton, clip, t, &options);
        assert_eq!(want.len(), joints.len());
        for (&e, want) in joints.iter().zip(want) {
            let at = app.world().get::<GlobalTransform>(e).unwrap().translation();
            assert!(at.abs_diff_eq(want, 1e-4), "t={t}: {at} vs {want}");
        }
    }
}
