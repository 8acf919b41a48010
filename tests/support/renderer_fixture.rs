//! A rig whose renderers Unity draws or not, written as a real 2020.3 bundle: four cubes of
//! four colours, each on its own GameObject under the root `Cubes`:
//! - `Drawn` (green): active and enabled, the only one Unity draws;
//! - `Hidden` (red): its GameObject is inactive;
//! - `Disabled` (magenta): active, but its MeshRenderer is disabled;
//! - `Parent/Under` (blue): active and enabled, under an inactive GameObject.
//!
//! With `with_clip`, the bundle also holds `ShowHidden`, a legacy clip whose `m_IsActive`
//! curve turns `Hidden` on at 0.5 s (a step from 0 to 1).
#![allow(dead_code)]

use clipscope::authoring::{
    Bundle, FloatCurve, Joint, KeySpec, LegacyClip, RendererSpec, RigComponent, RigSpec,
    UnityTarget, write_bundle,
};

/// The root GameObject's name (the rig's name).
pub const ROOT: &str = "Cubes";
/// When `ShowHidden` turns `Hidden` on.
pub const SHOW_AT: f32 = 0.5;
/// The clip's name.
pub const CLIP: &str = "ShowHidden";

/// One cube: its path under the root, its world position (Unity's space), its colour, and
/// what `list` should say of it.
pub struct Cube {
    pub path: &'static str,
    pub world: [f32; 3],
    pub color: [f32; 4],
    pub active: bool,
    pub enabled: bool,
    pub drawn: bool,
}

/// The four cubes in renderer order.
pub const CUBES: [Cube; 4] = [
    Cube {
        path: "Drawn",
        world: [-0.6, 1.4, 0.0],
        color: [0.1, 0.9, 0.1, 1.0],
        active: true,
        enabled: true,
        drawn: true,
    },
    Cube {
        path: "Hidden",
        world: [0.6, 1.4, 0.0],
        color: [0.9, 0.1, 0.1, 1.0],
        active: false,
        enabled: true,
        drawn: false,
    },
    Cube {
        path: "Disabled",
        world: [-0.6, 0.4, 0.0],
        color: [0.9, 0.1, 0.9, 1.0],
        active: true,
        enabled: false,
        drawn: false,
    },
    Cube {
        path: "Parent/Under",
        world: [0.6, 0.4, 0.0],
        color: [0.1, 0.1, 0.9, 1.0],
        active: true,
        enabled: true,
        drawn: false,
    },
];

/// The cubes' edge length.
pub const SIZE: f32 = 0.5;

/// The rig: root, the three cubes' joints, the inactive `Parent` and its `Under`.
fn rig(component: RigComponent) -> RigSpec {
    let mut joints = vec![Joint::new(ROOT, None, [0.0; 3])];
    for cube in &CUBES[..3] {
        let mut joint = Joint::new(cube.path, Some(0), cube.world);
        joint.active = cube.active;
        joints.push(joint);
    }
    let mut parent = Joint::new("Parent", Some(0), CUBES[3].world);
    parent.active = false;
    joints.push(parent);
    joints.push(Joint::new("Under", Some(4), [0.0; 3]));
    let renderers = [1, 2, 3, 5]
        .into_iter()
        .zip(&CUBES)
        .map(|(joint, cube)| RendererSpec {
            joint,
            enabled: cube.enabled,
            size: SIZE,
            color: cube.color,
            name: cube.path.rsplit('/').next().unwrap().to_owned(),
            floats: Vec::new(),
            colors: Vec::new(),
        })
        .collect();
    RigSpec {
        joints,
        component,
        renderers,
    }
}

/// `ShowHidden`: `Hidden`'s `m_IsActive` is 0 until [`SHOW_AT`], then 1 (stepped keys).
fn show_hidden() -> LegacyClip {
    let mut clip = LegacyClip::new(CLIP);
    clip.floats.push(FloatCurve {
        path: "Hidden".into(),
        attribute: "m_IsActive".into(),
        class_id: 1,
        keys: vec![
            KeySpec::new(0.0, 0.0, 0.0, f32::INFINITY),
            KeySpec::new(SHOW_AT, 1.0, f32::INFINITY, 0.0),
            KeySpec::flat(1.0, 1.0),
        ],
        pre_infinity: 2,
        post_infinity: 2,
    });
    clip
}

/// The bundle's bytes, with `ShowHidden` (and an Animation component listing it) or without
/// a clip (and an Animator).
pub fn bundle(with_clip: bool) -> Vec<u8> {
    let mut bundle = Bundle::new(UnityTarget::Unity2020);
    if with_clip {
        bundle
            .clips
            .push(clipscope::authoring::ClipSpec::Legacy(show_hidden()));
        bundle.rig = Some(rig(RigComponent::Animation {
            clips: vec![0],
            wrap_mode: 0,
        }));
    } else {
        bundle.rig = Some(rig(RigComponent::Animator));
    }
    write_bundle(&bundle).expect("the renderer fixture writes")
}

/// Writes [`bundle`] to a fresh temporary file named `name` and returns its path.
pub fn write(name: &str, with_clip: bool) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("clipscope-cubes-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("cubes.bundle");
    std::fs::write(&path, bundle(with_clip)).unwrap();
    path
}
