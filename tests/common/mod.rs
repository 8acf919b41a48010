//! Shared helpers for tests that read the real Unity files in `../shared/data`.
#![allow(dead_code)]

pub mod reference;

use std::path::PathBuf;
use std::process::Command;

use clipscope::workspace::ClipEntry;
use clipscope::{ClipData, OpenOptions, Workspace};

/// `../shared/data/<rel>`, or `None` (with a printed reason) when the folder is missing.
pub fn data(rel: &str) -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    if !root.is_dir() {
        eprintln!(
            "SKIP: {} is missing; this test needs the shared Unity files",
            root.display()
        );
        return None;
    }
    let path = root.join(rel);
    assert!(
        path.exists(),
        "{} is missing from the shared data",
        path.display()
    );
    Some(path)
}

/// Opens paths and asserts nothing failed to read.
pub fn open(paths: &[PathBuf]) -> Workspace {
    let ws = Workspace::open(paths, &OpenOptions::default());
    assert!(ws.errors.is_empty(), "errors: {:?}", ws.errors);
    ws
}

/// The one decoded clip named `name`.
pub fn clip<'a>(ws: &'a Workspace, name: &str) -> &'a ClipData {
    let found: Vec<&ClipEntry> = ws.clips.iter().filter(|c| c.name == name).collect();
    assert_eq!(found.len(), 1, "expected one clip named {name}");
    found[0].data.as_ref().expect("clip decodes")
}

/// The curve of `clip` bound to (path hash, attribute, class id, component).
pub fn curve_of(
    clip: &ClipData,
    path: u32,
    attribute: u32,
    type_id: i32,
    component: u8,
) -> Option<usize> {
    (0..clip.curves.len()).find(|&i| {
        clip.binding_of(i)
            .is_some_and(|b| b.path == path && b.attribute == attribute && b.type_id == type_id)
            && clip.curves[i].component == component
    })
}

/// Runs the `clipscope` binary: (exit code, stdout, stderr).
pub fn clipscope(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The serialized files of a shared data file (a bundle's, a web container's, or the file
/// itself), parsed, or `None` (with a printed reason) when the shared data is missing.
pub fn serialized_files(rel: &str) -> Option<Vec<clipscope::serialized::SerializedFile>> {
    let path = data(rel)?;
    let opened =
        clipscope::container::open(std::fs::read(path).expect("readable")).expect("a Unity file");
    Some(
        opened
            .files
            .into_iter()
            .map(|f| {
                clipscope::serialized::SerializedFile::parse(
                    f.bytes,
                    opened.unity_revision.as_deref(),
                )
                .expect("the serialized file parses")
            })
            .collect(),
    )
}

/// Rig units per unit of each joint's local translation (its parent's rest scale, largest
/// component), as the report counts translation errors.
pub fn translation_units(skeleton: &clipscope::rig::Skeleton) -> Vec<f32> {
    let rest: Vec<clipscope::humanoid::JointLocal> = skeleton
        .joints
        .iter()
        .map(clipscope::humanoid::JointLocal::rest)
        .collect();
    let world = clipscope::pose::world(skeleton, &rest);
    skeleton
        .joints
        .iter()
        .map(|j| {
            j.parent.map_or(1.0, |p| {
                world[p].s.iter().map(|c| c.abs()).fold(0.0, f32::max)
            })
        })
        .collect()
}
