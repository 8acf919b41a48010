//! A clip's glTF channels: which joints and meshes it animates, and their keys.
//!
//! Linear mode samples the exact pose at the clip's rate (or `--fps`, a minimum), at every
//! source key and just before it (so a value Unity holds up to a key jumps within [`HOLD`]
//! seconds), refines the samples where the path between them leaves the tolerance
//! ([`super::adaptive`]), then drops keys while the path stays within it. A channel whose curves
//! all hold between keys is written as STEP at the key times. Exact mode writes Transform
//! and blend shape tracks whose curves are all unweighted Hermite as CUBICSPLINE with
//! Unity's own slopes, which reproduces them (a cubic split at another curve's key time is
//! still the same cubic).

use super::adaptive::{MARGIN, Part, Sampled, refine};
use super::bindings::{JointTrack, is_stepped, key_times};
use super::evaluate::{Interpolation, Keys, Path};
use super::reduce::reduce;
use super::source::{Frame, Source};
use crate::curve::{Curve, CurveShape};

/// How far before a key a held value is repeated, in seconds.
pub const HOLD: f32 = 1e-4;

/// Most distinct times one clip's first sampling may take (a clip with a broken length
/// would otherwise never finish).
pub const MAX_SAMPLES: usize = 100_000;

/// Linear or exact (cubic where Unity's curves allow).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Linear,
    Exact,
}

/// One written channel: a node (joint) and what it animates, with keys on glTF's time axis
/// (0 = the clip's start).
#[derive(Clone, Debug)]
pub struct Channel {
    /// The joint, or for weights the joint of the mesh's node.
    pub node: usize,
    pub path: Path,
    pub keys: Keys,
}

/// The tolerances of the written path, in the rig's units, and each joint's translation
/// unit and reach.
#[derive(Clone, Debug)]
pub struct Tolerance {
    /// Radians: the most any rotation channel may be off.
    pub rotation: f32,
    /// Rig units (a fraction of the body's size): the most a joint near the body may be
    /// off in the world.
    pub translation: f32,
    /// Scales and weights.
    pub other: f32,
    /// Per joint: rig units per unit of its local translation (its parent's rest scale,
    /// largest component); 1 where unknown.
    pub unit: Vec<f32>,
    /// Per joint: how far (rig units, at rest) it is from itself or the farthest joint
    /// below it near the body ([`crate::body::Body::reach`]); 0 where none is.
    pub reach: Vec<f32>,
    /// Per joint: true for the body's ([`crate::body::Body::joints`]), whose world
    /// positions are measured in every frame; other joints are measured where they lie
    /// within `body_radius` of the body's centre.
    pub body: Vec<bool>,
    pub body_radius: f64,
    /// The share of `translation` each channel is sampled to (0.4 at first; smaller when
    /// the joints' world positions, where the channels' errors add up, were still off).
    pub share: f32,
}

impl Tolerance {
    /// The tolerance of joint `node`'s channel of `path`, in the rig's units. A rotation
    /// may turn the joint's farthest point in the body by the translation's share, and at
    /// most [`Tolerance::rotation`].
    pub fn of(&self, node: usize, path: Path) -> f32 {
        match path {
            Path::Rotation => {
                let reach = self.reach.get(node).copied().unwrap_or(0.0);
                let by_reach = self.share * self.translation / reach;
                if reach > 0.0 && by_reach.is_finite() {
                    self.rotation.min(by_reach)
                } else {
                    self.rotation
                }
            }
            Path::Translation => self.share * self.translation,
            Path::Scale | Path::Weights => self.other,
        }
    }

    /// What a measured error of `path` must be within for the clip to be within its
    /// tolerance (rotations: [`Tolerance::rotation`]; a joint's own, smaller share is what
    /// its channel is sampled to, and the world positions show whether it was enough).
    pub fn limit(&self, path: Path) -> f32 {
        match path {
            Path::Rotation => self.rotation,
            Path::Translation => self.translation,
            Path::Scale | Path::Weights => self.other,
        }
    }

    /// Rig units per unit of joint `node`'s local translation.
    pub fn unit(&self, node: usize) -> f32 {
        self.unit
            .get(node)
            .copied()
            .filter(|u| *u > 0.0 && u.is_finite())
            .unwrap_or(1.0)
    }

    /// The tolerance of node `node`'s channel of `path` in the channel's own units.
    pub fn local(&self, node: usize, path: Path) -> f32 {
        match path {
            Path::Translation => self.of(node, path) / self.unit(node),
            _ => self.of(node, path),
        }
    }
}

/// Why a clip could not be exported.
#[derive(Debug, thiserror::Error)]
pub enum ChannelError {
    #[error("the clip would need {0} samples (its length or rate is out of range)")]
    TooLong(usize),
}

/// The sorted, distinct clip times to sample in linear mode.
fn sample_times(source: &Source<'_>, rate: f32) -> Result<Vec<f32>, ChannelError> {
    let clip = source.clip;
    let (start, stop) = (clip.start, clip.stop.max(clip.start));
    let length = f64::from(stop - start);
    let frames = (length * f64::from(rate)).ceil();
    if !frames.is_finite() || frames > MAX_SAMPLES as f64 {
        return Err(ChannelError::TooLong(frames.min(1e18) as usize));
    }
    let mut times: Vec<f32> = (0..=frames as usize)
        .map(|i| start + (i as f64 / f64::from(rate)) as f32)
        .collect();
    // Dense frames are sampled; keyed curves also just before each key (a held value or
    // a step jumps there; where nothing jumps, reduction drops the extra sample). Curves
    // share their frames and key times: the limit counts distinct times (a long clip's
    // dense block repeats each frame time once per curve).
    let frames = distinct(key_times(clip, &source.bound.used_curves, true));
    let keys = distinct(key_times(clip, &source.bound.used_curves, false));
    if times.len() + frames.len() + keys.len() > MAX_SAMPLES {
        return Err(ChannelError::TooLong(
            times.len() + frames.len() + keys.len(),
        ));
    }
    times.extend(frames);
    times.extend(keys.iter().map(|k| k - HOLD));
    times.push(stop);
    Ok(clean(times, start, stop))
}

/// The bits of the hold samples' times ([`HOLD`] before each source key): the intervals
/// where a value Unity holds up to a key jumps by design.
pub fn holds(source: &Source<'_>) -> std::collections::HashSet<u32> {
    key_times(source.clip, &source.bound.used_curves, false)
        .iter()
        .map(|k| (k - HOLD).to_bits())
        .collect()
}

/// Sorted, each time once.
fn distinct(mut times: Vec<f32>) -> Vec<f32> {
    times.sort_by(f32::total_cmp);
    times.dedup();
    times
}

/// Sorted, within `[start, stop]`, strictly increasing once shifted to glTF's time axis.
fn clean(mut times: Vec<f32>, start: f32, stop: f32) -> Vec<f32> {
    times.retain(|t| t.is_finite() && *t >= start && *t <= stop);
    times.sort_by(f32::total_cmp);
    let mut out: Vec<f32> = Vec::with_capacity(times.len());
    for t in times {
        if out.last().is_none_or(|&p| t - start > p - start) {
            out.push(t);
        }
    }
    out
}

/// A plan for one channel before its keys are made.
#[derive(Clone, Debug)]
struct Plan {
    node: usize,
    path: Path,
    /// The Transform track, when exactly one feeds the channel.
    track: Option<JointTrack>,
    /// A morph node's index, for weights.
    morph: Option<usize>,
}

fn plans(source: &Source<'_>) -> Vec<Plan> {
    let mut out: Vec<Plan> = Vec::new();
    for track in &source.bound.tracks {
        match out
            .iter_mut()
            .find(|p| p.node == track.joint && p.path == track.path)
        {
            Some(p) => p.track = None,
            None => out.push(Plan {
                node: track.joint,
                path: track.path,
                track: Some(track.clone()),
                morph: None,
            }),
        }
    }
    let mut morphs: Vec<usize> = source.bound.weights.iter().map(|w| w.morph).collect();
    morphs.sort_unstable();
    morphs.dedup();
    for m in morphs {
        if let Some(node) = source.morphs.get(m) {
            out.push(Plan {
                node: node.joint,
                path: Path::Weights,
                track: None,
                morph: Some(m),
            });
        }
    }
    out
}

/// The value a plan's channel takes in a frame.
fn value_of(plan: &Plan, frame: &Frame) -> Vec<f32> {
    match plan.morph {
        Some(m) => frame.weights.get(m).cloned().unwrap_or_default(),
        None => frame
            .joints
            .get(plan.node)
            .map(|j| j.part(plan.path).to_vec())
            .unwrap_or_default(),
    }
}

/// Humanoid clips also write every joint the pose moves: each human bone's rotation and
/// any joint part that leaves its rest value.
fn humanoid_plans(source: &Source<'_>, frames: &[Frame], out: &mut Vec<Plan>) {
    let rest = source.rest();
    for (j, rest) in rest.iter().enumerate() {
        for path in [Path::Translation, Path::Rotation, Path::Scale] {
            if out
                .iter()
                .any(|p| p.node == j && p.path == path && p.morph.is_none())
            {
                continue;
            }
            let r = rest.part(path);
            let moves = frames.iter().any(|f| {
                f.joints.get(j).is_some_and(|x| {
                    let v = x.part(path);
                    match path {
                        Path::Rotation => super::evaluate::angle_between(v, r) > 1e-6,
                        _ => super::evaluate::max_abs_diff(v, r) > 1e-7,
                    }
                })
            });
            if moves {
                out.push(Plan {
                    node: j,
                    path,
                    track: None,
                    morph: None,
                });
            }
        }
    }
}

/// A clip's written channels, and the samples they were made from.
pub struct Built {
    pub channels: Vec<Channel>,
    /// Clip times of the samples linear channels were reduced from (empty when no channel
    /// is linear).
    pub sampled: Vec<f32>,
    /// The hold samples' times, as bits ([`holds`]): the measure skips them too.
    pub holds: std::collections::HashSet<u32>,
    /// Some interval at the floor still left the tolerance.
    pub unreached: bool,
}

/// Every channel of the clip. Linear channels are sampled at `rate` (a minimum) and every
/// source key, refined adaptively ([`super::adaptive`]) and reduced.
pub fn build(
    source: &Source<'_>,
    mode: Mode,
    rate: f32,
    tolerance: &Tolerance,
) -> Result<Built, ChannelError> {
    let times = sample_times(source, rate)?;
    let frames: Vec<Frame> = times.iter().map(|&t| source.frame(t)).collect();
    let mut plans = plans(source);
    if source.is_humanoid() {
        humanoid_plans(source, &frames, &mut plans);
    }
    let start = source.clip.start;
    let fixed: Vec<Option<Keys>> = plans
        .iter()
        .map(|plan| {
            let cubic = (mode == Mode::Exact).then(|| cubic(source, plan)).flatten();
            cubic.or_else(|| stepped(source, plan))
        })
        .collect();
    let linear_plans: Vec<&Plan> = plans
        .iter()
        .zip(&fixed)
        .filter(|(_, f)| f.is_none())
        .map(|(p, _)| p)
        .collect();
    let parts = layout(&linear_plans, frames.first(), tolerance);
    let row = |frame: &Frame| row_of(&linear_plans, &parts, frame);
    let rows: Vec<Vec<f32>> = frames.iter().map(&row).collect();
    drop(frames);
    let holds = holds(source);
    let sampled = if parts.is_empty() {
        Sampled::default()
    } else {
        refine(&|t| row(&source.frame(t)), &parts, times, rows, &holds)
    };
    let mut out = Vec::with_capacity(plans.len());
    let mut linear_parts = linear_plans.iter().zip(&parts);
    for (plan, keys) in plans.iter().zip(fixed) {
        let keys = match keys {
            Some(k) => k,
            None => match linear_parts.next() {
                Some((_, part)) => linear(part, &sampled, start),
                None => continue,
            },
        };
        out.push(Channel {
            node: plan.node,
            path: plan.path,
            keys,
        });
    }
    Ok(Built {
        channels: out,
        sampled: sampled.times,
        holds,
        unreached: sampled.unreached,
    })
}

/// Where each linear plan's values sit in a sampled row, and its tolerance there (its
/// width from the first frame).
fn layout(plans: &[&Plan], first: Option<&Frame>, tolerance: &Tolerance) -> Vec<Part> {
    let mut offset = 0;
    plans
        .iter()
        .map(|plan| {
            let width = match plan.path {
                Path::Weights => first.map_or(0, |f| value_of(plan, f).len()),
                _ => plan.path_width(),
            };
            let part = Part {
                path: plan.path,
                offset,
                width,
                tolerance: MARGIN * tolerance.local(plan.node, plan.path),
            };
            offset += width;
            part
        })
        .collect()
}

/// Every linear plan's value in a frame, side by side (missing values read 0).
fn row_of(plans: &[&Plan], parts: &[Part], frame: &Frame) -> Vec<f32> {
    let mut row = Vec::with_capacity(parts.last().map_or(0, |p| p.offset + p.width));
    for (plan, part) in plans.iter().zip(parts) {
        let v = value_of(plan, frame);
        row.extend((0..part.width).map(|i| v.get(i).copied().unwrap_or(0.0)));
    }
    row
}

/// Sampled and reduced: rotations kept on one hemisphere from sample to sample.
fn linear(part: &Part, sampled: &Sampled, start: f32) -> Keys {
    let width = part.width;
    let mut values = sampled.column(part);
    if part.path == Path::Rotation && width == 4 {
        for k in 1..values.len() / 4 {
            let (before, now) = values.split_at_mut(k * 4);
            let previous = &before[(k - 1) * 4..];
            if previous
                .iter()
                .zip(&now[..4])
                .map(|(a, b)| a * b)
                .sum::<f32>()
                < 0.0
            {
                now[..4].iter_mut().for_each(|c| *c = -*c);
            }
        }
    }
    let shifted: Vec<f32> = sampled.times.iter().map(|t| t - start).collect();
    if width == 0 || shifted.is_empty() {
        return Keys {
            interpolation: Interpolation::Linear,
            times: Vec::new(),
            values: Vec::new(),
            width: 0,
        };
    }
    let kept = reduce(part.path, &shifted, &values, width, part.tolerance);
    Keys {
        interpolation: Interpolation::Linear,
        times: kept.iter().map(|&k| shifted[k]).collect(),
        values: kept
            .iter()
            .flat_map(|&k| values[k * width..(k + 1) * width].iter().copied())
            .collect(),
        width,
    }
}

fn curves_of<'c>(source: &'c Source<'_>, track: &JointTrack) -> Vec<&'c Curve> {
    track
        .curves
        .iter()
        .filter_map(|&c| source.clip.curves.get(c).map(|c| &c.curve))
        .collect()
}

/// STEP keys at the key times, when every curve of the channel's one track holds between
/// its keys (constant curves allowed).
fn stepped(source: &Source<'_>, plan: &Plan) -> Option<Keys> {
    let track = plan.track.as_ref()?;
    let curves = curves_of(source, track);
    let mut any = false;
    for c in &curves {
        match &c.shape {
            CurveShape::Keys(keys) if is_stepped(keys) => any = true,
            CurveShape::Constant(_) => {}
            _ => return None,
        }
    }
    if !any {
        return None;
    }
    let (start, stop) = (source.clip.start, source.clip.stop.max(source.clip.start));
    let mut times = key_times(source.clip, &track.curves, true);
    times.extend([start, stop]);
    let times = clean(times, start, stop);
    let mut values = Vec::new();
    for &t in &times {
        values.extend(value_of(plan, &source.frame(t)));
    }
    Some(Keys {
        interpolation: Interpolation::Step,
        times: times.iter().map(|t| t - start).collect(),
        values,
        width: plan.path_width(),
    })
}

impl Plan {
    fn path_width(&self) -> usize {
        match self.path {
            Path::Rotation => 4,
            _ => 3,
        }
    }
}

/// True when a curve is made of plain Hermite segments (or is constant).
fn is_hermite(curve: &Curve) -> bool {
    match &curve.shape {
        CurveShape::Constant(v) => v.is_finite(),
        CurveShape::Keys(keys) => {
            !keys.is_empty()
                && keys.iter().all(|k| {
                    k.weighted_mode == 0
                        && k.in_slope.is_finite()
                        && k.out_slope.is_finite()
                        && k.value.is_finite()
                })
                && keys.windows(2).all(|w| w[1].time > w[0].time)
        }
        CurveShape::Sampled { .. } => false,
    }
}

/// A curve's value and its slopes into and out of time `t`.
fn hermite_at(curve: &Curve, t: f32) -> [f32; 3] {
    if let CurveShape::Keys(keys) = &curve.shape
        && let Some(k) = keys.iter().find(|k| k.time == t)
    {
        let first = keys.first().is_some_and(|f| f.time == t);
        let last = keys.last().is_some_and(|l| l.time == t);
        // Outside the keys the curve holds (clamped): no slope there.
        let into = if first { 0.0 } else { k.in_slope };
        let out = if last { 0.0 } else { k.out_slope };
        return [into, k.value, out];
    }
    let slope = curve.slope(t);
    [slope, curve.sample(t), slope]
}

/// CUBICSPLINE keys reproducing the channel's one track, when its curves are all Hermite
/// and clamp outside their keys.
fn cubic(source: &Source<'_>, plan: &Plan) -> Option<Keys> {
    let track = plan.track.as_ref().filter(|t| !t.euler)?;
    let curves = curves_of(source, track);
    let width = plan.path_width();
    if curves.len() != width || !curves.iter().all(|c| is_hermite(c)) {
        return None;
    }
    let clamped = |c: &&Curve| {
        c.pre_infinity == crate::curve::Infinity::Clamp
            && c.post_infinity == crate::curve::Infinity::Clamp
    };
    if !curves.iter().all(clamped) {
        return None;
    }
    let (start, stop) = (source.clip.start, source.clip.stop.max(source.clip.start));
    let mut times = key_times(source.clip, &track.curves, true);
    times.extend([start, stop]);
    let times = clean(times, start, stop);
    let sign: Vec<f32> = match plan.path {
        Path::Translation => vec![-1.0, 1.0, 1.0],
        Path::Rotation => vec![1.0, -1.0, -1.0, 1.0],
        _ => vec![1.0; width],
    };
    let mut values = Vec::with_capacity(times.len() * 3 * width);
    for &t in &times {
        let at: Vec<[f32; 3]> = curves.iter().map(|c| hermite_at(c, t)).collect();
        if plan.path == Path::Rotation {
            let len = at.iter().map(|a| a[1] * a[1]).sum::<f32>().sqrt();
            if (len - 1.0).abs() > 5e-4 {
                return None;
            }
        }
        for part in 0..3 {
            values.extend(at.iter().zip(&sign).map(|(a, s)| a[part] * s));
        }
    }
    Some(Keys {
        interpolation: Interpolation::CubicSpline,
        times: times.iter().map(|t| t - start).collect(),
        values,
        width,
    })
}
