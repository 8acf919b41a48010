//! Unity version strings as files carry them: a China release (`2020.3.26f1c1`) is read as the
//! 2020.3 it is, not as a stripped version; stripped or malformed versions fall back to the
//! given version, the container header's, or clipscope's default, and say which.

use crate::common;

use std::path::Path;

use clipscope_authoring::unityfs::{ArchiveEntry, ArchiveLayout, write_archive};
use clipscope_authoring::{
    Binding, Bundle, ClipSpec, Dense, Frame, MecanimClip, UnityTarget, write_serialized_as,
};
use clipscope_core::serialized::embedded_tree;
use clipscope_core::version::UnityVersion;
use clipscope_core::{ClipData, OpenOptions, Workspace};

const CHINA: &str = "2020.3.26f1c1";
const ROOT: u32 = 0x1234;
const SPEED: u32 = 0xC50B_CE51;

/// A Mecanim clip with a streamed root position (x = 1 + 2t on [0, 1], y 2, z 3), one dense
/// Animator float (4 then 5 at 30 Hz) and one constant (1.5).
fn clip() -> MecanimClip {
    let key = |index, c3| (index, [0.0, 0.0, 0.0, c3]);
    let mut clip = MecanimClip::new("China");
    clip.stop = 1.0;
    clip.sample_rate = 30.0;
    clip.bindings = vec![
        Binding::transform(ROOT, 1),
        Binding {
            path: 0,
            attribute: SPEED,
            type_id: 95,
            ..Default::default()
        },
        Binding {
            path: 0,
            attribute: 77,
            type_id: 95,
            ..Default::default()
        },
    ];
    clip.streamed_curve_count = 3;
    clip.frames = vec![
        Frame {
            time: -f32::MAX,
            keys: vec![key(0, 1.0), key(1, 2.0), key(2, 3.0)],
        },
        Frame {
            time: 0.0,
            keys: vec![(0, [0.0, 0.0, 2.0, 1.0]), key(1, 2.0), key(2, 3.0)],
        },
        Frame {
            time: 1.0,
            keys: vec![key(0, 3.0), key(1, 2.0), key(2, 3.0)],
        },
        Frame {
            time: f32::INFINITY,
            keys: vec![],
        },
    ];
    clip.dense = Some(Dense {
        frame_count: 2,
        curve_count: 1,
        sample_rate: 30.0,
        begin_time: 0.0,
        samples: vec![4.0, 5.0],
    });
    clip.constants = vec![1.5];
    clip
}

/// A bare serialized file without type trees (so layouts come from the version) headed `version`.
fn fixture(version: &str) -> Vec<u8> {
    let mut bundle = Bundle::new(UnityTarget::Unity2020);
    bundle.type_trees = false;
    bundle.clips.push(ClipSpec::Mecanim(clip()));
    write_serialized_as(&bundle, version).expect("the fixture writes")
}

fn open(name: &str, bytes: Vec<u8>, options: &OpenOptions) -> Workspace {
    let ws = Workspace::open_bytes(Path::new(name), bytes, options);
    assert!(ws.errors.is_empty(), "{:?}", ws.errors);
    ws
}

fn decoded(ws: &Workspace) -> &ClipData {
    ws.clips[0].data.as_ref().expect("the clip decodes")
}

fn value(clip: &ClipData, path: u32, attribute: u32, component: u8, t: f32) -> f32 {
    let i = common::curve_of(
        clip,
        path,
        attribute,
        if path == ROOT { 4 } else { 95 },
        component,
    )
    .unwrap_or_else(|| panic!("curve {path:#x}/{attribute} {component}"));
    clip.curves[i].curve.sample(t)
}

#[test]
fn a_china_release_is_read_with_its_own_2020_3_layouts() {
    let ws = open("china.assets", fixture(CHINA), &OpenOptions::default());
    let summary = ws.files[0].summary.as_ref().unwrap();
    assert_eq!(summary.unity_version(), CHINA);
    assert_eq!(summary.effective_version().to_string(), CHINA);
    assert_eq!(
        summary.effective_version().layouts().version_tuple(),
        (2020, 3, 26)
    );
    assert!(!summary.version_assumed);
    assert!(
        ws.warnings.iter().all(|w| !w.contains("Unity version")),
        "{:?}",
        ws.warnings
    );
    // The layouts matter: 2022.3's AnimationClip (the old fallback) is not 2020.3's.
    let tree = |v: &str| {
        format!(
            "{:?}",
            embedded_tree(74, v.parse::<UnityVersion>().unwrap().layouts())
        )
    };
    assert_ne!(tree(CHINA), tree("2022.3.0f1"));
    let clip = decoded(&ws);
    assert_eq!(clip.curves.len(), 5);
    assert_eq!(value(clip, ROOT, 1, 0, 0.0), 1.0);
    assert_eq!(value(clip, ROOT, 1, 0, 0.5), 2.0);
    assert_eq!(value(clip, ROOT, 1, 1, 0.5), 2.0);
    assert_eq!(value(clip, ROOT, 1, 2, 0.25), 3.0);
    assert_eq!(value(clip, 0, SPEED, 0, 0.0), 4.0);
    assert_eq!(value(clip, 0, SPEED, 0, 1.0 / 30.0), 5.0);
    assert!((value(clip, 0, SPEED, 0, 1.0 / 60.0) - 4.5).abs() < 1e-6);
    assert_eq!(value(clip, 0, 77, 0, 0.7), 1.5);
}

#[test]
fn a_file_with_no_version_takes_the_container_header_s_and_says_so() {
    let data = fixture("not a version");
    let layout = ArchiveLayout {
        revision: CHINA.into(),
        ..ArchiveLayout::new(7)
    };
    let archive = write_archive(
        &[ArchiveEntry {
            path: "CAB-00000000000000000000000000000001",
            data: &data,
            flags: 4,
        }],
        &layout,
    );
    let ws = open("china.bundle", archive.clone(), &OpenOptions::default());
    let summary = ws.files[0].summary.as_ref().unwrap();
    assert_eq!(summary.unity_version(), "not a version");
    assert_eq!(summary.effective_version().to_string(), CHINA);
    assert!(summary.version_assumed);
    let warning = ws
        .warnings
        .iter()
        .find(|w| w.contains("Unity version"))
        .expect("a version warning");
    assert!(
        warning.contains("\"not a version\"")
            && warning.contains(CHINA)
            && warning.contains("container's header"),
        "{warning}"
    );
    assert_eq!(value(decoded(&ws), ROOT, 1, 0, 0.5), 2.0);

    // A given version wins over the header's, and the warning says so.
    let options = OpenOptions {
        unity_version: Some("2020.3.48f1".into()),
        ..OpenOptions::default()
    };
    let ws = open("china.bundle", archive, &options);
    let summary = ws.files[0].summary.as_ref().unwrap();
    assert_eq!(summary.effective_version().to_string(), "2020.3.48f1");
    assert!(ws.warnings.iter().any(|w| w.contains("the version given")));
}

#[test]
fn a_stripped_file_alone_falls_back_to_the_default_named_in_the_warning() {
    let ws = open(
        "bare.assets",
        fixture("0.0.0\n2    xxx"),
        &OpenOptions::default(),
    );
    let summary = ws.files[0].summary.as_ref().unwrap();
    assert_eq!(summary.effective_version().to_string(), "2022.3.0f1");
    assert!(
        ws.warnings.iter().any(|w| w.contains("is stripped")
            && w.contains("2022.3.0f1, clipscope's default")
            && w.contains("--unity-version")),
        "{:?}",
        ws.warnings
    );
}

#[test]
fn list_json_reports_the_written_and_the_used_version() {
    let dir = std::env::temp_dir().join(format!("clipscope-versions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let china = dir.join("china.assets");
    std::fs::write(&china, fixture(CHINA)).unwrap();
    let odd = dir.join("odd.assets");
    std::fs::write(&odd, fixture("not a version")).unwrap();
    let (code, out, err) = common::clipscope(&[
        "list",
        "--json",
        odd.to_str().unwrap(),
        china.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let file = |name: &str| {
        json["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["file"].as_str().unwrap().ends_with(name))
            .unwrap()
            .clone()
    };
    let c = file("china.assets");
    assert_eq!(c["unity_version_written"], CHINA);
    assert_eq!(c["unity_version"], CHINA);
    assert_eq!(c["version_assumed"], false);
    let o = file("odd.assets");
    assert_eq!(o["unity_version_written"], "not a version");
    assert_eq!(o["unity_version"], "2022.3.0f1");
    assert_eq!(o["version_assumed"], true);

    // --unity-version takes the same forms, and refuses what is not a version.
    let (code, out, err) = common::clipscope(&[
        "list",
        "--json",
        "--unity-version",
        CHINA,
        odd.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["files"][0]["unity_version"], CHINA);
    for bad in ["0.0.0", "2020.3", "latest"] {
        let (code, _, err) =
            common::clipscope(&["list", "--unity-version", bad, china.to_str().unwrap()]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("--unity-version"), "{err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_project_s_editor_version_is_read_with_the_same_rule() {
    let dir = std::env::temp_dir().join(format!("clipscope-project-{}", std::process::id()));
    let settings = dir.join("ProjectSettings");
    std::fs::create_dir_all(&settings).unwrap();
    let asset = dir.join("Assets/Clips/Walk.anim");
    for (written, expected) in [
        (CHINA, Some(CHINA)),
        ("2023.1.0a16", Some("2023.1.0a16")),
        ("0.0.0", None),
        ("", None),
        ("2020.3", None),
    ] {
        std::fs::write(
            settings.join("ProjectVersion.txt"),
            format!(
                "m_EditorVersion: {written}\nm_EditorVersionWithRevision: {written} (0123abcd)\n"
            ),
        )
        .unwrap();
        let read = clipscope_core::yaml::project_version(&asset).map(|v| v.to_string());
        assert_eq!(read.as_deref(), expected, "{written:?}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
