//! Clips whose root moves at a constant speed and turns at a constant rate, for root
//! motion's closed forms: a humanoid clip whose body (`RootT`) goes straight along +Z while
//! its heading (`RootQ`) turns about +Y, and a generic clip whose bone `Mover` does the
//! same. Written as dense clips sampled at [`RATE`], so frames at multiples of 1/[`RATE`]
//! read the keys exactly. Both loop over [`LENGTH`] seconds.
#![allow(dead_code)]

use clipscope::authoring::{Binding, ClipSpec, Dense, Event, MecanimClip};

/// Keys per second, and the frame rate the tests run at.
pub const RATE: f32 = 32.0;
/// The clips' length in seconds.
pub const LENGTH: f32 = 1.0;
/// Travel along +Z: human-scale units per second (humanoid), metres per second (generic).
pub const SPEED: f64 = 1.5;
/// Turn about +Y, radians per second.
pub const TURN: f64 = 0.8;
/// The generic bone's height over the root.
pub const HEIGHT: f32 = 0.5;
/// The path of the generic clip's root-motion bone.
pub const BONE: &str = "Mover";

/// A dense looping clip named `name` of `bindings` (covering `n` curves) whose curve `c`
/// reads `value(c, t)`.
fn dense_clip(
    name: &str,
    bindings: Vec<Binding>,
    n: usize,
    value: impl Fn(usize, f64) -> f32,
) -> ClipSpec {
    let frames = (LENGTH * RATE).round() as usize + 1;
    let mut samples = Vec::with_capacity(frames * n);
    for f in 0..frames {
        let t = f as f64 / RATE as f64;
        samples.extend((0..n).map(|c| value(c, t)));
    }
    let mut clip = MecanimClip::new(name);
    clip.stop = LENGTH;
    clip.sample_rate = RATE;
    clip.loop_time = true;
    clip.bindings = bindings;
    clip.dense = Some(Dense {
        frame_count: frames as i32,
        curve_count: n as u32,
        sample_rate: RATE,
        begin_time: 0.0,
        samples,
    });
    ClipSpec::Mecanim(clip)
}

/// Position and rotation along the path at `t`: `[x, y, z, qx, qy, qz, qw]` with the
/// height `y`.
fn walk(t: f64, y: f64) -> [f64; 7] {
    let h = 0.5 * TURN * t;
    [0.0, y, SPEED * t, 0.0, h.sin(), 0.0, h.cos()]
}

/// The humanoid clip: RootT = (0, 1, SPEED·t), RootQ = the turn TURN·t about +Y.
pub fn humanoid_walk(name: &str) -> ClipSpec {
    let bindings = (7..14)
        .map(|slot| Binding {
            path: 0,
            attribute: slot,
            type_id: 95,
            custom_type: 8,
            ..Default::default()
        })
        .collect();
    dense_clip(name, bindings, 7, |c, t| walk(t, 1.0)[c] as f32)
}

/// The generic clip: bone [`BONE`] at (0, HEIGHT, SPEED·t) turned TURN·t about +Y.
pub fn generic_walk(name: &str) -> ClipSpec {
    let hash = clipscope::path_hash(BONE);
    // One binding per Transform track: position (3 curves), rotation (4).
    let bindings = vec![Binding::transform(hash, 1), Binding::transform(hash, 2)];
    dense_clip(name, bindings, 7, |c, t| walk(t, HEIGHT as f64)[c] as f32)
}

/// A looping clip that moves nothing, `stop` seconds long, with `events` (time, function).
pub fn still_clip(name: &str, stop: f32, events: &[(f32, &str)]) -> ClipSpec {
    ClipSpec::Mecanim(MecanimClip {
        name: name.into(),
        stop,
        loop_time: true,
        events: events
            .iter()
            .map(|&(time, function)| Event {
                time,
                function: function.into(),
                ..Event::default()
            })
            .collect(),
        ..MecanimClip::default()
    })
}

/// Where a root that follows the clip from time 0 for `t` seconds ends, in Unity's space:
/// (x, z, heading). In each loop the root travels straight along the heading it had when
/// the loop began (the clip's travel is along +Z while it turns), so loop `k` goes
/// SPEED·(its time) along the heading TURN·LENGTH·k; the heading is TURN·t throughout.
pub fn closed_form(t: f64, scale: f64) -> (f64, f64, f64) {
    let length = LENGTH as f64;
    let (mut x, mut z) = (0.0, 0.0);
    let mut k = 0.0;
    let mut left = t;
    while left > 1e-12 {
        let part = left.min(length);
        let heading = TURN * length * k;
        x += SPEED * scale * part * heading.sin();
        z += SPEED * scale * part * heading.cos();
        left -= part;
        k += 1.0;
    }
    (x, z, TURN * t)
}
