//! A written legacy clip on quinn's real rig and mesh (`copy.bundle`): a Hermite position
//! curve, stepped scale keys and a curve on the mesh's first blend shape that stays within
//! the shape's full weight (Blender's importer ranges shape keys over 0..1).

use std::path::Path;

use clipscope::Workspace;
use clipscope::authoring::{
    Bundle, ClipSpec, Compression, FloatCurve, KeySpec, LegacyClip, PathCurve, UnityTarget,
    write_bundle,
};
use clipscope::workspace::MeshSource;

/// The written clip's name.
pub const CLIP: &str = "Morph";

/// The bundle holding the clip, the blend shape's name and its full weight.
fn bundle(ws: &Workspace, rig: usize) -> (Vec<u8>, String, f32) {
    let entry = &ws.rigs[rig];
    let renderer = &entry.renderers[0];
    let MeshSource::Loaded(at) = &renderer.mesh else {
        panic!("quinn's mesh is loaded")
    };
    let mesh = ws.mesh(*at).and_then(|m| m.data.clone()).expect("decoded");
    let shape = mesh.blend_shapes[0].name.clone();
    let full = mesh.blend_shapes[0].frames.last().unwrap().weight;
    let body = entry.skeleton.joints[renderer.joint].path.clone();
    let joint = entry
        .skeleton
        .joints
        .iter()
        .find(|j| !j.path.is_empty() && j.path != body)
        .unwrap();
    let mut clip = LegacyClip::new(CLIP);
    clip.sample_rate = 30.0;
    let p = joint.position;
    clip.position = vec![PathCurve::new(
        joint.path.clone(),
        vec![
            KeySpec::new(0.0, p, [0.0, 0.5, 0.0], [0.0, 0.5, 0.0]),
            KeySpec::new(0.8, [p[0] + 0.1, p[1] + 0.2, p[2]], [0.3; 3], [0.3; 3]),
            KeySpec::flat(1.5, p),
        ],
    )];
    let step = |t: f32, v: f32| KeySpec::new(t, [v; 3], [f32::INFINITY; 3], [f32::INFINITY; 3]);
    clip.scale = vec![PathCurve::new(
        joint.path.clone(),
        vec![
            step(0.0, 1.0),
            step(0.5, 1.25),
            step(1.0, 0.8),
            KeySpec::flat(1.5, [0.8; 3]),
        ],
    )];
    clip.floats = vec![FloatCurve {
        path: body,
        attribute: format!("blendShape.{shape}"),
        class_id: 137,
        keys: vec![
            KeySpec::new(0.0, 0.0, 0.0, 0.0),
            KeySpec::new(0.7, full, 0.0, 0.0),
            KeySpec::new(1.5, 0.25 * full, -full, -full),
        ],
        pre_infinity: 2,
        post_infinity: 2,
    }];
    let mut b = Bundle::new(UnityTarget::Unity2020);
    b.clips.push(ClipSpec::Legacy(clip));
    b.compression = Compression::Lz4;
    (write_bundle(&b).unwrap(), shape, full)
}

/// quinn's bundle opened with the fixture's bundle beside it (written into `dir`, which is
/// removed after): the workspace, quinn's rig index, the blend shape's name and its full
/// weight.
pub fn open_with_quinn(quinn: &Path, dir: &Path) -> (Workspace, usize, String, f32) {
    let base = crate::common::open(&[quinn.to_path_buf()]);
    let (bytes, shape, full) = bundle(&base, quinn_rig(&base));
    let fixture = dir.join("morph.bundle");
    std::fs::write(&fixture, bytes).unwrap();
    let ws = crate::common::open(&[quinn.to_path_buf(), fixture]);
    let _ = std::fs::remove_dir_all(dir);
    let rig = quinn_rig(&ws);
    (ws, rig, shape, full)
}

fn quinn_rig(ws: &Workspace) -> usize {
    ws.rigs
        .iter()
        .position(|r| r.name == "quinn")
        .expect("quinn's rig")
}
