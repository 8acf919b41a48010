//! The fidelity of written channels, measured: each channel evaluated by glTF's rules (and
//! linear rotations also as Blender plays them) on a dense grid (the midpoints between the
//! samples, every source key time and the stop) against
//! clipscope's exact evaluation of the same joint or mesh. Joints the clip moves but no
//! channel carries count too (a loader leaves them at rest). The channels' errors add up
//! down the chain, so every joint near the body is also measured where it ends up in the
//! world, as each player composes the written channels.

use super::bindings::key_times;
use super::channels::{Built, Channel, Tolerance};
use super::evaluate::{Path, RotationCursor, angle_between, distance, max_abs_diff};
use super::source::{Frame, Source, Transform};
use crate::world::World;

/// The largest errors of one clip, by kind, and where the worst (relative to its
/// tolerance) was.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Errors {
    pub rotation: f32,
    pub translation: f32,
    pub scale: f32,
    pub weight: f32,
    /// The largest distance of a joint near the body from where clipscope puts it in the
    /// world (rig units).
    pub position: f32,
    /// (joint or mesh node, clip time, what), at the largest error relative to tolerance.
    pub worst: Option<(usize, f32, Quantity)>,
    /// The largest error relative to its tolerance (over 1: not within it).
    pub worst_ratio: f32,
}

/// What an error measures: a channel of a path, or a joint's world position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantity {
    Channel(Path),
    Position,
}

impl Errors {
    fn add(&mut self, node: usize, t: f32, what: Quantity, error: f32, tolerance: f32) {
        let slot = match what {
            Quantity::Channel(Path::Rotation) => &mut self.rotation,
            Quantity::Channel(Path::Translation) => &mut self.translation,
            Quantity::Channel(Path::Scale) => &mut self.scale,
            Quantity::Channel(Path::Weights) => &mut self.weight,
            Quantity::Position => &mut self.position,
        };
        let error = if error.is_nan() { f32::INFINITY } else { error };
        *slot = slot.max(error);
        let ratio = error / tolerance.max(f32::MIN_POSITIVE);
        if ratio > self.worst_ratio {
            self.worst_ratio = ratio;
            self.worst = Some((node, t, what));
        }
    }
}

/// Grid samples per frame of the source (or of the export rate, when higher), when no
/// channel was sampled.
pub const PER_FRAME: f64 = 4.0;

/// The grid: the midpoints between neighbouring samples of the linear channels (where
/// their error peaks, and where nothing was checked; not within a hold before a key), else [`PER_FRAME`] samples per frame
/// of the clip's rate or `rate` (the higher); and every key time of the used curves, the
/// stop.
pub fn grid(
    source: &Source<'_>,
    rate: f32,
    sampled: &[f32],
    holds: &std::collections::HashSet<u32>,
) -> Vec<f32> {
    let clip = source.clip;
    let (start, stop) = (clip.start, clip.stop.max(clip.start));
    let mut times: Vec<f32> = if sampled.len() >= 2 {
        // Not inside the hold before a key, where the value jumps by design.
        sampled
            .windows(2)
            .filter(|w| !holds.contains(&w[0].to_bits()))
            .map(|w| w[0] + (w[1] - w[0]) / 2.0)
            .collect()
    } else {
        let own = if clip.sample_rate > 0.0 && clip.sample_rate.is_finite() {
            clip.sample_rate
        } else {
            30.0
        };
        let rate = f64::from(own.max(rate).min(1000.0)) * PER_FRAME;
        let n = (f64::from(stop - start) * rate)
            .ceil()
            .min(super::channels::MAX_SAMPLES as f64) as usize;
        (0..=n).map(|i| start + (i as f64 / rate) as f32).collect()
    };
    times.extend(key_times(clip, &source.bound.used_curves, true));
    times.push(stop);
    times.retain(|t| t.is_finite() && *t >= start && *t <= stop);
    times.sort_by(f32::total_cmp);
    times.dedup();
    times
}

/// The error of the `built` channels (written for `source`) on the grid, in the rig's
/// units (translations scaled by their joint's [`Tolerance::unit`]; rotations the larger
/// of glTF's slerp and Blender's nlerp). The tolerances rank the worst.
pub fn measure(source: &Source<'_>, built: &Built, rate: f32, tolerance: &Tolerance) -> Errors {
    let channels: &[Channel] = &built.channels;
    let rest = source.rest();
    let mut errors = Errors::default();
    let start = source.clip.start;
    // Per joint: which of translation, rotation, scale a channel carries.
    let mut carried = vec![[false; 3]; rest.len()];
    for c in channels {
        let slot = match c.path {
            Path::Translation => 0,
            Path::Rotation => 1,
            Path::Scale => 2,
            Path::Weights => continue,
        };
        if let Some(joint) = carried.get_mut(c.node) {
            joint[slot] = true;
        }
    }
    let scaled = |node: usize, path: Path, e: f32| match path {
        Path::Translation => e * tolerance.unit(node),
        _ => e,
    };
    // Linear rotations: both players, each key pair's arc computed once on the sorted grid.
    let mut cursors: Vec<Option<RotationCursor>> = channels
        .iter()
        .map(|c| {
            (c.path == Path::Rotation)
                .then(|| RotationCursor::new(&c.keys))
                .flatten()
        })
        .collect();
    let mut world = Positions::new(source, tolerance);
    for t in grid(source, rate, &built.sampled, &built.holds) {
        let frame: Frame = source.frame(t);
        world.start(&rest);
        for (c, cursor) in channels.iter().zip(&mut cursors) {
            let exact: &[f32] = match c.path {
                Path::Weights => {
                    let m = source.morphs.iter().position(|m| m.joint == c.node);
                    m.and_then(|m| frame.weights.get(m))
                        .map_or(&[], Vec::as_slice)
                }
                path => frame.joints.get(c.node).map_or(&[], |j| j.part(path)),
            };
            let e = match cursor.as_mut().map(|r| r.at(t - start)) {
                Some((gltf, blender)) => {
                    world.set(c.node, c.path, &gltf, &blender);
                    error(c.path, &gltf, exact).max(error(c.path, &blender, exact))
                }
                None => {
                    let v = c.keys.evaluate(c.path, t - start);
                    world.set(c.node, c.path, &v, &v);
                    error(c.path, &v, exact)
                }
            };
            let e = scaled(c.node, c.path, e);
            let tol = tolerance.limit(c.path);
            errors.add(c.node, t, Quantity::Channel(c.path), e, tol);
        }
        world.measure(&frame, t, tolerance.translation, &mut errors);
        for (j, (now, at_rest)) in frame.joints.iter().zip(&rest).enumerate() {
            let carries = carried.get(j).copied().unwrap_or_default();
            for (path, carried) in [Path::Translation, Path::Rotation, Path::Scale]
                .into_iter()
                .zip(carries)
            {
                if !carried {
                    let e = scaled(j, path, error(path, at_rest.part(path), now.part(path)));
                    errors.add(j, t, Quantity::Channel(path), e, tolerance.limit(path));
                }
            }
        }
    }
    errors
}

/// True when every error is within its tolerance.
pub fn within(errors: &Errors) -> bool {
    errors.worst_ratio <= 1.0
}

/// The world positions of the joints as glTF players (slerp) and Blender (nlerp) compose
/// the written channels, against clipscope's own.
struct Positions<'a> {
    parents: Vec<Option<usize>>,
    /// How far from the body's centre (in each frame) a joint counts, and which joints
    /// are the body.
    radius: f64,
    body: &'a [bool],
    gltf: Vec<Transform>,
    blender: Vec<Transform>,
    worlds: [Vec<World>; 3],
}

impl<'a> Positions<'a> {
    fn new(source: &Source<'_>, tolerance: &'a Tolerance) -> Positions<'a> {
        Positions {
            parents: source.skeleton.joints.iter().map(|j| j.parent).collect(),
            radius: tolerance.body_radius,
            body: &tolerance.body,
            gltf: Vec::new(),
            blender: Vec::new(),
            worlds: Default::default(),
        }
    }

    /// Every joint at rest, as a loader leaves the joints no channel moves.
    fn start(&mut self, rest: &[Transform]) {
        self.gltf.clear();
        self.gltf.extend_from_slice(rest);
        self.blender.clear();
        self.blender.extend_from_slice(rest);
    }

    /// A channel's value at this time, as each player has it.
    fn set(&mut self, node: usize, path: Path, gltf: &[f32], blender: &[f32]) {
        for (locals, v) in [(&mut self.gltf, gltf), (&mut self.blender, blender)] {
            let Some(l) = locals.get_mut(node) else {
                continue;
            };
            let slot: &mut [f32] = match path {
                Path::Translation => &mut l.t,
                Path::Rotation => &mut l.q,
                Path::Scale => &mut l.s,
                Path::Weights => continue,
            };
            if v.len() == slot.len() {
                slot.copy_from_slice(v);
            }
        }
    }

    /// Adds each joint's world distance from `frame`'s, for the body's joints and those
    /// near the body's centre in that frame (a socket parked far away is not the
    /// character). The root node is placed by its own transform, as players place the
    /// file's root node (a legacy clip may move it).
    fn measure(&mut self, frame: &Frame, t: f32, tolerance: f32, errors: &mut Errors) {
        let parents = &self.parents;
        let compose = |locals: &[Transform], out: &mut Vec<World>| {
            crate::world::compose(
                parents.iter().copied(),
                locals.iter().map(|l| (l.t, l.q, l.s)),
                out,
            );
        };
        let [exact, gltf, blender] = &mut self.worlds;
        compose(&frame.joints, exact);
        compose(&self.gltf, gltf);
        compose(&self.blender, blender);
        let placed = |locals: &[Transform], worlds: &[World]| -> Vec<[f64; 3]> {
            let root = locals
                .first()
                .map_or(World::IDENTITY, |l| World::IDENTITY.then(l.t, l.q, l.s));
            worlds
                .iter()
                .map(|w| root.transform_point(w.position()))
                .collect()
        };
        let points = placed(&frame.joints, exact);
        let played = [placed(&self.gltf, gltf), placed(&self.blender, blender)];
        let near = crate::body::near_body(self.body, self.radius, &points);
        for (j, (want, near)) in points.into_iter().zip(near).enumerate() {
            if !near {
                continue;
            }
            let off = played
                .iter()
                .filter_map(|p| p.get(j))
                .map(|p| distance64(*p, want))
                .fold(0.0f64, f64::max);
            errors.add(j, t, Quantity::Position, off as f32, tolerance);
        }
    }
}

fn distance64(a: [f64; 3], b: [f64; 3]) -> f64 {
    (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f64>().sqrt()
}

fn error(path: Path, written: &[f32], exact: &[f32]) -> f32 {
    if written.len() != exact.len() {
        return f32::INFINITY;
    }
    // Equal values are at 0 by every measure (a joint at rest, a key's own time): the
    // common case, and cheaper than the f64 angle.
    if written == exact {
        return 0.0;
    }
    match path {
        Path::Rotation => angle_between(written, exact),
        Path::Translation => distance(written, exact),
        Path::Scale | Path::Weights => max_abs_diff(written, exact),
    }
}
