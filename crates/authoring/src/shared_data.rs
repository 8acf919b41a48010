//! Helpers for the tests of every clipscope crate that read the real Unity files in the
//! `shared/data` folder beside the repository (`../shared/data` from its root). They panic on
//! what a test must not meet (a listed file missing, a read error), and return `None` with a
//! printed `SKIP` when the whole folder is absent.

use std::path::PathBuf;

use clipscope_core::workspace::ClipEntry;
use clipscope_core::{ClipData, OpenOptions, Workspace};

/// `../shared/data/<rel>`, or `None` (with a printed reason) when the folder is missing.
pub fn data(rel: &str) -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data");
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

/// The serialized files of a shared data file (a bundle's, a web container's, or the file
/// itself), parsed, or `None` (with a printed reason) when the shared data is missing.
pub fn serialized_files(rel: &str) -> Option<Vec<clipscope_core::serialized::SerializedFile>> {
    let path = data(rel)?;
    let opened = clipscope_core::container::open(std::fs::read(path).expect("readable"))
        .expect("a Unity file");
    Some(
        opened
            .files
            .into_iter()
            .map(|f| {
                clipscope_core::serialized::SerializedFile::parse(
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
pub fn translation_units(skeleton: &clipscope_core::rig::Skeleton) -> Vec<f32> {
    let rest: Vec<clipscope_core::humanoid::JointLocal> = skeleton
        .joints
        .iter()
        .map(clipscope_core::humanoid::JointLocal::rest)
        .collect();
    let world = clipscope_core::pose::world(skeleton, &rest);
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
