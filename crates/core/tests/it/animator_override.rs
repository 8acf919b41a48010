//! Override controllers (`AnimatorOverrideController`, class 221), written byte by byte as
//! Unity 2020.3 builds them next to the demo's `Locomotion` controller: `Faster` replaces
//! `Idle` with `Walk` and `Walk` with `Run`. Its model is the base's state machine playing
//! the overrides (names, lengths, so state lengths too); one without a base says so.

use crate::common;
use clipscope_authoring::controller::{AnimationClipOverride, AnimatorOverrideController};
use clipscope_authoring::demo_controller::with_overrides;
use clipscope_core::animator::{json, script};
use clipscope_core::{Detail, OpenOptions, Workspace};
use rabex::objects::PPtr;

/// The demo bundle with `Faster` over `Locomotion`, and `Orphan`, which names no base.
fn workspace() -> Workspace {
    workspace_with(Detail::Full)
}

/// [`workspace`], keeping `detail` of it.
fn workspace_with(detail: Detail) -> Workspace {
    Workspace::open_bytes(
        std::path::Path::new("override.bundle"),
        fixture(),
        &OpenOptions {
            detail,
            ..OpenOptions::default()
        },
    )
}

/// The bytes of [`workspace`]'s bundle.
fn fixture() -> Vec<u8> {
    with_overrides(|base| {
        let pair = |original: i64, with: i64| AnimationClipOverride {
            m_OriginalClip: PPtr::local(original),
            m_OverrideClip: PPtr::local(with),
        };
        vec![
            AnimatorOverrideController {
                m_Name: "Faster".into(),
                m_Controller: base,
                // Idle → Walk, Walk → Run, Run kept (a null override).
                m_Clips: vec![pair(1, 2), pair(2, 3), pair(3, 0)],
            },
            AnimatorOverrideController {
                m_Name: "Orphan".into(),
                m_Controller: PPtr::local(0),
                m_Clips: vec![pair(1, 3)],
            },
        ]
    })
    .expect("the fixture writes")
}

/// Every leaf's clip name, state by state, in the controller's JSON.
fn leaves(model: &serde_json::Value) -> Vec<(String, Vec<String>)> {
    let states = model["layers"][0]["state_machine"]["states"]
        .as_array()
        .expect("states");
    states
        .iter()
        .map(|s| {
            let motion = &s["motion"];
            let clips = match motion["children"].as_array() {
                Some(children) => children
                    .iter()
                    .map(|c| c["motion"]["clip"].as_str().unwrap_or("?").to_string())
                    .collect(),
                None => vec![motion["clip"].as_str().unwrap_or("?").to_string()],
            };
            (s["name"].as_str().unwrap_or("?").to_string(), clips)
        })
        .collect()
}

#[test]
fn an_override_controller_plays_its_base_with_the_clips_replaced() {
    let ws = workspace();
    assert!(ws.errors.is_empty(), "{:?}", ws.errors);
    let find = |name: &str| {
        ws.controllers
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("controller {name}"))
    };
    let base = find("Locomotion");
    let faster = find("Faster");
    let base_model = base.model.as_ref().expect("the base decodes");
    let model = faster.model.as_ref().expect("the override plays its base");
    assert_eq!(model.name, "Faster");
    let base_json = json::controller(base_model, "override.bundle", base.at.path_id);
    let json = json::controller(model, "override.bundle", faster.at.path_id);
    let want = |pairs: &[(&str, &[&str])]| -> Vec<(String, Vec<String>)> {
        pairs
            .iter()
            .map(|(s, c)| (s.to_string(), c.iter().map(|c| c.to_string()).collect()))
            .collect()
    };
    assert_eq!(
        leaves(&base_json),
        want(&[
            ("Idle", &["Idle"]),
            ("Move", &["Walk", "Run"]),
            ("Wave", &["Walk"])
        ])
    );
    assert_eq!(
        leaves(&json),
        want(&[
            ("Idle", &["Walk"]),
            ("Move", &["Run", "Run"]),
            ("Wave", &["Run"])
        ])
    );
    // Its clips: the base's, through the overrides.
    let names: Vec<&str> = faster
        .clips
        .iter()
        .map(|at| ws.clip(*at).expect("loaded").name.as_str())
        .collect();
    assert_eq!(names, ["Walk", "Run", "Run"]);

    // Playing: the Idle state lasts its clip, 2 s on the base and 1 s (Walk) on the override.
    for (model, length) in [(base_model, 2.0), (model, 1.0)] {
        let (frames, warnings) = script::run(model, &[], 30.0, &[0.5]);
        assert!(warnings.is_empty(), "{warnings:?}");
        let state = &frames[0].layers[0].states[0];
        assert!(
            (state.length - length).abs() < 1e-6,
            "{}: {}",
            model.name,
            state.length
        );
        let leaf = &state.leaves[0];
        assert_eq!(
            leaf.clip.as_deref(),
            Some(if length == 2.0 { "Idle" } else { "Walk" })
        );
        // 0.5 s into a looping clip of that length.
        assert!((leaf.clip_time - 0.5).abs() < 1e-6, "{leaf:?}");
    }
}

#[test]
fn an_override_controller_without_a_base_says_so() {
    let ws = workspace();
    let orphan = ws
        .controllers
        .iter()
        .find(|c| c.name == "Orphan")
        .expect("listed");
    let why = orphan.model.as_ref().expect_err("no model");
    assert!(why.contains("names no base controller"), "{why}");
    assert!(
        ws.warnings
            .iter()
            .any(|w| w.contains("Orphan") && w.contains("names no base controller")),
        "{:?}",
        ws.warnings
    );
}

/// What `list` opens (`Detail::List`) keeps every controller's name, clips and override
/// pairs, and the warnings, as a summary does; a model keeps its name and warnings but no
/// layers or parameters, and one that did not decode keeps its error.
#[test]
fn a_list_keeps_controllers_clips_and_overrides_but_not_their_state_machines() {
    let (summary, list) = (
        workspace_with(Detail::Summary),
        workspace_with(Detail::List),
    );
    assert_eq!(list.warnings, summary.warnings);
    assert_eq!(list.controllers.len(), 3, "{:?}", list.controllers);
    for (l, s) in list.controllers.iter().zip(&summary.controllers) {
        assert_eq!((l.at, &l.name), (s.at, &s.name));
        assert_eq!(l.clips, s.clips, "{}", l.name);
        assert_eq!(l.unresolved_clips, s.unresolved_clips, "{}", l.name);
        assert_eq!(l.overrides, s.overrides, "{}", l.name);
        match (&l.model, &s.model) {
            (Ok(l_model), Ok(s_model)) => {
                assert!(!s_model.layers.is_empty(), "{}: a summary's layers", l.name);
                assert!(l_model.layers.is_empty() && l_model.parameters.is_empty());
                assert_eq!(
                    (&l_model.name, &l_model.warnings),
                    (&s_model.name, &s_model.warnings)
                );
            }
            (l_model, s_model) => assert_eq!(l_model.as_ref().err(), s_model.as_ref().err()),
        }
    }
    let faster = list.controllers.iter().find(|c| c.name == "Faster");
    let overrides = faster.and_then(|c| c.overrides.as_ref()).expect("resolved");
    assert_eq!(overrides.pairs.len(), 2, "{overrides:?}");
}

/// An index over a whole game lets go of each file's clips once its caller has what it needs
/// of them ([`Listed::LetGo`]: `list` its rows, `unity` their names): every reference to
/// them resolves as when they are kept (rigs', controllers' and overrides' clips, and the
/// leaves of the controllers' state machines, which take the clips' names and times), the
/// warnings and errors are the same, the caller saw every clip in order, the workspace
/// keeps only the text files' clips and still names every clip. A list lets go of the
/// binary files' textures and meshes too, and its renderers name the same meshes. For a list
/// ([`Detail::List`]) and an index ([`Detail::Index`]), on the override fixture and every
/// shared file.
#[test]
fn an_index_that_lets_go_of_clips_resolves_as_one_that_keeps_them() {
    let dir = std::env::temp_dir().join(format!("clipscope-let-go-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("override.bundle"), fixture()).unwrap();
    let mut paths = vec![dir.clone()];
    let shared = [common::data("binary"), common::data("yaml")];
    let with_shared = shared.iter().all(Option::is_some);
    paths.extend(shared.into_iter().flatten());
    for detail in [Detail::List, Detail::Index] {
        let_go_resolves_as_kept(&paths, detail, with_shared);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn let_go_resolves_as_kept(paths: &[std::path::PathBuf], detail: Detail, with_shared: bool) {
    use clipscope_core::container::ContainerKind;
    use clipscope_core::workspace::{Listed, ObjectRef};
    let options = OpenOptions {
        detail,
        ..OpenOptions::default()
    };
    let open = |listed: Listed, seen: &mut Vec<(ObjectRef, String)>| {
        Workspace::open_listing(
            paths,
            &options,
            |_, _, _| {},
            |_, _, added| {
                seen.extend(added.clips.iter().map(|c| (c.at, c.name.clone())));
                listed
            },
        )
    };
    let (mut kept_seen, mut seen) = (Vec::new(), Vec::new());
    let kept = open(Listed::Kept, &mut kept_seen);
    let let_go = open(Listed::LetGo, &mut seen);
    let all: Vec<_> = kept.clips.iter().map(|c| (c.at, c.name.clone())).collect();
    assert_eq!(seen, all, "every clip seen, in order");
    let is_text = |at: ObjectRef| kept.files[at.file].kind == ContainerKind::Yaml;
    let text: Vec<ObjectRef> = all.iter().map(|c| c.0).filter(|&at| is_text(at)).collect();
    let left: Vec<ObjectRef> = let_go.clips.iter().map(|c| c.at).collect();
    assert_eq!(left, text, "only the text files' clips are kept");
    assert_eq!(let_go.let_go.len(), all.len() - text.len(), "{detail:?}");
    assert!(all.len() > text.len(), "binary clips let go of");
    assert!(!text.is_empty() || !with_shared, "text clips kept");
    // Every clip is still known by its reference and named, in order.
    assert_eq!(let_go.clip_refs(), kept.clip_refs());
    for (at, name) in &all {
        assert!(let_go.has_clip(*at));
        assert_eq!(let_go.clip_name(*at), Some(name.as_str()));
    }
    let nothing = ObjectRef {
        file: 0,
        path_id: i64::MIN,
    };
    assert!(!let_go.has_clip(nothing) && let_go.clip_name(nothing).is_none());
    assert_eq!(let_go.warnings, kept.warnings);
    let errors = |ws: &Workspace| ws.errors.iter().map(|e| e.to_string()).collect::<Vec<_>>();
    assert_eq!(errors(&let_go), errors(&kept));
    assert_eq!(let_go.rigs.len(), kept.rigs.len());
    for (l, k) in let_go.rigs.iter().zip(&kept.rigs) {
        assert_eq!(
            (l.at, &l.clips, l.unresolved_clips),
            (k.at, &k.clips, k.unresolved_clips)
        );
        assert_eq!(
            (l.controller, l.avatar),
            (k.controller, k.avatar),
            "{}",
            l.name
        );
        // Renderers find their meshes let go of, by name.
        assert_eq!(l.renderers, k.renderers, "{}", l.name);
        for r in &l.renderers {
            if let clipscope_core::workspace::MeshSource::Loaded(at) = r.mesh {
                let name = kept.mesh(at).map(|m| m.name.as_str());
                assert!(name.is_some() && let_go.mesh_name(at) == name);
            }
        }
    }
    // A list lets go of the binary files' textures and keeps their meshes' names; an index
    // (whose materials refer to them) keeps both.
    let binary = |at: ObjectRef| !is_text(at);
    let meshes: Vec<_> = kept.meshes.iter().map(|m| (m.at, &*m.name)).collect();
    fn named(ws: &Workspace) -> Vec<(ObjectRef, &str)> {
        let kept = ws.meshes.iter().map(|m| (m.at, &*m.name));
        let mut all: Vec<_> = kept.chain(ws.let_go_meshes.iter()).collect();
        all.sort();
        all
    }
    let mut sorted = meshes.clone();
    sorted.sort();
    assert_eq!(named(&let_go), sorted, "{detail:?}");
    assert!(meshes.iter().all(|m| let_go.has_mesh(m.0)));
    if detail == Detail::List {
        assert!(let_go.meshes.iter().all(|m| !binary(m.at)));
        assert!(let_go.textures.iter().all(|t| !binary(t.at)));
        assert!(
            kept.textures.iter().any(|t| binary(t.at)),
            "textures let go of"
        );
        assert!(
            !let_go.let_go_meshes.is_empty() || !with_shared,
            "meshes let go of"
        );
    } else {
        assert_eq!(let_go.meshes.len(), kept.meshes.len());
        assert_eq!(let_go.textures.len(), kept.textures.len());
    }
    assert!(let_go.rigs.iter().any(|r| !r.clips.is_empty()));
    assert_eq!(let_go.controllers.len(), kept.controllers.len());
    for (l, k) in let_go.controllers.iter().zip(&kept.controllers) {
        assert_eq!(
            (l.at, &l.clips, l.unresolved_clips),
            (k.at, &k.clips, k.unresolved_clips)
        );
        assert_eq!(l.overrides, k.overrides, "{}", l.name);
        // The state machines' leaves resolve to the same clips, names and times.
        assert_eq!(l.model, k.model, "{}", l.name);
    }
    if detail == Detail::Index {
        let mut leaves = 0;
        for model in let_go
            .controllers
            .iter()
            .filter_map(|c| c.model.as_ref().ok())
        {
            let mut model = model.clone();
            model.visit_clips_mut(&mut |leaf| leaves += usize::from(leaf.resolved.is_some()));
        }
        assert!(leaves >= 3, "{leaves} leaves resolved");
    }
    let faster = let_go.controllers.iter().find(|c| c.name == "Faster");
    let overrides = faster.and_then(|c| c.overrides.as_ref()).expect("resolved");
    assert_eq!(overrides.pairs.len(), 2, "{overrides:?}");
}

/// `Faster` written as Unity's `.overrideController` text beside its base `.controller` and
/// the clips (each with its `.meta`), then opened alone: the base and the clips are found
/// through the guids, and the override plays the same leaves as the built one.
#[test]
fn a_written_override_controller_reads_back_as_the_built_one_plays() {
    use clipscope_core::yaml_write::guid::meta_text;
    use clipscope_core::yaml_write::{
        ANIM_FILE_ID, CONTROLLER_FILE_ID, Measure, NameBook, OVERRIDE_FILE_ID, WriteOptions,
        write_anim, write_controller, write_override,
    };
    let ws = workspace();
    let index = ws
        .controllers
        .iter()
        .position(|c| c.name == "Faster")
        .expect("Faster");
    let dir =
        std::env::temp_dir().join(format!("clipscope-override-{}/Assets", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str, guid: &str, file_id: i64| {
        std::fs::write(dir.join(name), text).unwrap();
        std::fs::write(dir.join(format!("{name}.meta")), meta_text(guid, file_id)).unwrap();
    };
    let o = write_override(&ws, index).expect("writes");
    assert_eq!(
        (o.report.base.as_str(), o.report.overrides),
        ("Locomotion", 2)
    );
    assert!(
        o.text
            .contains("--- !u!221 &22100000\nAnimatorOverrideController:\n")
    );
    assert!(o.text.contains("  m_Name: Faster\n"), "{}", o.text);
    let base = ws
        .controllers
        .iter()
        .position(|c| c.at == o.base)
        .expect("the base");
    let c = write_controller(&ws, base).expect("the base writes");
    let names = NameBook::build(&ws);
    let options = WriteOptions {
        measure: Measure::Skip,
        ..WriteOptions::default()
    };
    let mut clips = c.clips.clone();
    clips.extend(&o.clips);
    clips.sort_unstable_by_key(|at| at.path_id);
    clips.dedup();
    for at in clips {
        let anim = write_anim(&ws, &names, at, &options).expect("clip writes");
        write(
            &format!("{}.anim", anim.name),
            &anim.text,
            &anim.guid,
            ANIM_FILE_ID,
        );
    }
    write(
        "Locomotion.controller",
        &c.text,
        &c.guid,
        CONTROLLER_FILE_ID,
    );
    let path = dir.join("Faster.overrideController");
    write(
        "Faster.overrideController",
        &o.text,
        &o.guid,
        OVERRIDE_FILE_ID,
    );

    let back = Workspace::open(&[path], &OpenOptions::default());
    assert!(back.errors.is_empty(), "{:?}", back.errors);
    let read = back
        .controllers
        .iter()
        .find(|c| c.name == "Faster")
        .expect("read back");
    let model = read.model.as_ref().expect("its base is found and it plays");
    let built = ws.controllers[index].model.as_ref().unwrap();
    assert_eq!(
        leaves(&json::controller(
            model,
            "Faster.overrideController",
            OVERRIDE_FILE_ID
        )),
        leaves(&json::controller(built, "override.bundle", 0))
    );
    let overrides = read.overrides.as_ref().expect("its pairs");
    assert_eq!(overrides.pairs.len(), 2);
    // It plays as the built one: the Idle state lasts Walk's 1 s.
    let (frames, _) = script::run(model, &[], 30.0, &[0.5]);
    assert!((frames[0].layers[0].states[0].length - 1.0).abs() < 1e-6);
    std::fs::remove_dir_all(dir.parent().unwrap()).ok();
}
