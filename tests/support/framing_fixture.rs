//! A generic character laid out as real game characters are, written as a 2020.3 bundle:
//! a 2 m body under an `Armature` rotated −90° about X and scaled 0.01 (as FBX exports
//! put it), a cube on the chest and the head, and two weapon sockets parked far away as
//! Risk of Rain 2 parks unused weapons: `WeaponParked30km` 30 km away at rest, carrying a
//! weapon cube, and `WeaponHand`, at rest in the right hand, which the clip `Idle`
//! parks 1 km away. The rig (an Animation component, `Idle` looping) faces Unity's +Z.
#![allow(dead_code)]

use clipscope::authoring::{
    Bundle, ClipSpec, Joint, KeySpec, LegacyClip, PathCurve, RendererSpec, RigComponent, RigSpec,
    UnityTarget, write_bundle,
};

/// The rig's name.
pub const ROOT: &str = "Parked";
/// The clip's name.
pub const CLIP: &str = "Idle";

/// The body's joints: name, parent (an index into this list; `None`: the Armature), and world
/// position (Unity's space, metres) in the rest pose. Left is −X; the rig faces +Z.
pub const BODY: [(&str, Option<usize>, [f32; 3]); 17] = [
    ("Hips", None, [0.0, 1.0, 0.0]),
    ("Spine", Some(0), [0.0, 1.25, 0.0]),
    ("Chest", Some(1), [0.0, 1.45, 0.0]),
    ("Neck", Some(2), [0.0, 1.65, 0.0]),
    ("Head", Some(3), [0.0, 1.8, 0.0]),
    ("HeadTop", Some(4), [0.0, 2.0, 0.0]),
    ("LeftArm", Some(2), [-0.2, 1.55, 0.0]),
    ("LeftForeArm", Some(6), [-0.45, 1.3, 0.0]),
    ("LeftHand", Some(7), [-0.6, 1.05, 0.05]),
    ("RightArm", Some(2), [0.2, 1.55, 0.0]),
    ("RightForeArm", Some(9), [0.45, 1.3, 0.0]),
    ("RightHand", Some(10), [0.6, 1.05, 0.05]),
    ("LeftUpLeg", Some(0), [-0.12, 0.95, 0.0]),
    ("LeftLeg", Some(12), [-0.12, 0.5, 0.02]),
    ("LeftFoot", Some(13), [-0.12, 0.05, 0.0]),
    ("RightUpLeg", Some(0), [0.12, 0.95, 0.0]),
    ("RightLeg", Some(15), [0.12, 0.5, 0.02]),
];

/// The sockets: name, parent body joint (`None`: the Armature), world position at rest.
pub const SOCKETS: [(&str, Option<usize>, [f32; 3]); 2] = [
    ("WeaponParked30km", None, [0.0, 1.0, -30_000.0]),
    ("WeaponHand", Some(11), [0.7, 1.05, 0.05]),
];

/// How far `Idle` parks `WeaponHand` from the right hand, in metres (world).
pub const HAND_PARK: f32 = 1000.0;

/// The Armature's local scale.
const SCALE: f32 = 0.01;

/// A world offset (metres) as an offset in the Armature's frame: rotated +90° about X
/// (undoing its −90°) and divided by its scale.
fn in_armature(d: [f32; 3]) -> [f32; 3] {
    [d[0] / SCALE, -d[2] / SCALE, d[1] / SCALE]
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// The joints in file order: root, Armature, the body, the sockets.
fn joints() -> Vec<Joint> {
    let half = std::f32::consts::FRAC_PI_4;
    let mut armature = Joint::new("Armature", Some(0), [0.0; 3]);
    armature.rotation = [-half.sin(), 0.0, 0.0, half.cos()];
    armature.scale = [SCALE; 3];
    let mut out = vec![Joint::new(ROOT, None, [0.0; 3]), armature];
    let place = |parent: Option<usize>, at: [f32; 3]| match parent {
        Some(p) => (p + 2, in_armature(sub(at, BODY[p].2))),
        None => (1, in_armature(at)),
    };
    for &(name, parent, at) in BODY.iter().chain(SOCKETS.iter()) {
        let (p, local) = place(parent, at);
        out.push(Joint::new(name, Some(p), local));
    }
    out
}

/// The path of body joint `i` below the root.
fn path(i: usize) -> String {
    let mut parts = vec![BODY[i].0.to_string()];
    let mut at = i;
    while let Some(p) = BODY[at].1 {
        parts.push(BODY[p].0.to_string());
        at = p;
    }
    parts.push("Armature".into());
    parts.reverse();
    parts.join("/")
}

/// `Idle`: the hand socket parked [`HAND_PARK`] metres out, the head nodding 10° over 2 s.
fn clip() -> LegacyClip {
    let socket = format!("{}/WeaponHand", path(11));
    let parked = in_armature([HAND_PARK, 0.0, 0.0]);
    let position = PathCurve::new(
        socket,
        vec![KeySpec::flat(0.0, parked), KeySpec::flat(2.0, parked)],
    );
    let nod = 5f32.to_radians();
    let rotation = PathCurve::new(
        path(4),
        vec![
            KeySpec::flat(0.0, [0.0, 0.0, 0.0, 1.0]),
            KeySpec::flat(1.0, [nod.sin(), 0.0, 0.0, nod.cos()]),
            KeySpec::flat(2.0, [0.0, 0.0, 0.0, 1.0]),
        ],
    );
    LegacyClip {
        position: vec![position],
        rotation: vec![rotation],
        wrap_mode: 2,
        sample_rate: 30.0,
        ..LegacyClip::new(CLIP)
    }
}

fn cube(joint: usize, size: f32, color: [f32; 4], name: &str) -> RendererSpec {
    RendererSpec {
        joint,
        enabled: true,
        size,
        color,
        name: name.into(),
        floats: Vec::new(),
        colors: Vec::new(),
    }
}

/// A blocky mannequin: a cube on most body joints (sizes in metres), and the weapon's cube
/// on the parked socket `socket`.
fn renderers(socket: usize) -> Vec<RendererSpec> {
    const SKIN: [f32; 4] = [0.85, 0.72, 0.6, 1.0];
    const CLOTH: [f32; 4] = [0.3, 0.45, 0.7, 1.0];
    let sizes: [(usize, f32, [f32; 4]); 15] = [
        (0, 0.3, CLOTH),
        (1, 0.28, CLOTH),
        (2, 0.35, CLOTH),
        (4, 0.25, SKIN),
        (6, 0.13, CLOTH),
        (7, 0.11, SKIN),
        (8, 0.09, SKIN),
        (9, 0.13, CLOTH),
        (10, 0.11, SKIN),
        (11, 0.09, SKIN),
        (12, 0.17, CLOTH),
        (13, 0.14, CLOTH),
        (14, 0.12, SKIN),
        (15, 0.17, CLOTH),
        (16, 0.14, CLOTH),
    ];
    // Sizes in the joints' own units: the Armature scales them by 0.01.
    let mut out: Vec<RendererSpec> = sizes
        .iter()
        .map(|&(j, size, color)| cube(2 + j, size / SCALE, color, BODY[j].0))
        .collect();
    out.push(cube(socket, 0.3 / SCALE, [0.5, 0.5, 0.5, 1.0], "Weapon"));
    out
}

/// The bundle's bytes.
pub fn bytes() -> Vec<u8> {
    let mut bundle = Bundle::new(UnityTarget::Unity2020);
    bundle.clips.push(ClipSpec::Legacy(clip()));
    // File indices: root 0, Armature 1, body 2.., sockets after.
    let socket = 2 + BODY.len();
    bundle.rig = Some(RigSpec {
        joints: joints(),
        component: RigComponent::Animation {
            clips: vec![0],
            wrap_mode: 2,
        },
        renderers: renderers(socket),
    });
    write_bundle(&bundle).expect("the fixture writes")
}

/// The fixture written to a fresh folder.
pub fn write(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("clipscope-parked-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("parked.bundle");
    std::fs::write(&path, bytes()).unwrap();
    path
}
