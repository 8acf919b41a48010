//! Two clips compared curve by curve: what a build's compression or a game's update changed.
//!
//! Curves are matched by binding (path hash, class, attribute, component), the way built and
//! text clips both name them (a text clip's humanoid curve by its Mecanim muscle index, as
//! the decoder binds it). Both clips are evaluated with their own rules and wrap modes (as
//! [`crate::sample`] does) on one grid of times ([`comparison_times`]), and each matched pair
//! gets its largest absolute difference, where it occurs, and the RMS difference; rotations
//! also the largest angle between the two quaternions. Curves only one side has, and the clip
//! facts that differ, are listed.

mod facts;
mod grid;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, VecDeque};

use serde::{Serialize, Serializer};

use crate::clip::{BindingKind, ClipData, GenericBinding, Storage};
use crate::sample::wrapped_time;
pub use facts::{FactDiff, FactValue, fact_differences};
pub use grid::{MAX_FRAMES, comparison_times};

/// What a curve is matched by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct CurveKey {
    /// Path hash (0 for the animated root).
    pub path: u32,
    /// Class id of the driven component.
    pub type_id: i32,
    /// Transform attribute, property hash or muscle index.
    pub attribute: u32,
    /// The curve's place within its binding (x, y, z, w).
    pub component: u8,
}

impl CurveKey {
    /// The key of curve `index` of `clip` (zeros for a curve without binding).
    pub fn of(clip: &ClipData, index: usize) -> CurveKey {
        let binding = clip.binding_of(index);
        CurveKey {
            path: binding.map_or(0, |b| b.path),
            type_id: binding.map_or(0, |b| b.type_id),
            attribute: binding.map_or(0, |b| b.attribute),
            component: clip.curves.get(index).map_or(0, |c| c.component),
        }
    }
}

/// One matched pair of curves.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CurveDiff {
    #[serde(flatten)]
    pub key: CurveKey,
    /// Largest `|a - b|` over the grid (infinite when one side is not finite where the other
    /// is; printed as null).
    #[serde(serialize_with = "finite_or_null")]
    pub max_abs: f64,
    /// The first grid time where `max_abs` occurs.
    pub at: f64,
    /// Root mean square of `a - b` over the grid.
    #[serde(serialize_with = "finite_or_null")]
    pub rms: f64,
    /// For the components of a Transform rotation matched on both sides: the largest angle
    /// between the two quaternions (all four components together), in degrees.
    pub angle_deg: Option<f64>,
    /// `streamed`, `dense`, `constant` or `keyframe`.
    pub a_storage: &'static str,
    pub b_storage: &'static str,
    /// Stored keys (samples for dense curves, 1 for a constant).
    pub a_keys: usize,
    pub b_keys: usize,
    /// Curve index in `a`.
    #[serde(skip)]
    pub a_index: usize,
    /// Curve index in `b`.
    #[serde(skip)]
    pub b_index: usize,
    /// The joint or property, as far as either clip names it.
    #[serde(skip)]
    pub name: String,
}

/// Two clips compared.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClipDiff {
    /// Number of grid times compared.
    pub times: usize,
    pub facts: Vec<FactDiff>,
    /// Matched curves, in `a`'s curve order.
    pub curves: Vec<CurveDiff>,
    /// Curves of `a` that `b` lacks.
    pub only_in_a: Vec<CurveKey>,
    /// Curves of `b` that `a` lacks.
    pub only_in_b: Vec<CurveKey>,
    /// The largest `max_abs` of any matched curve (0 when none).
    #[serde(serialize_with = "finite_or_null")]
    pub max_abs: f64,
}

impl ClipDiff {
    /// True when every matched curve differs by at most `tolerance` and no curve is missing
    /// on either side.
    pub fn within(&self, tolerance: f64) -> bool {
        self.only_in_a.is_empty()
            && self.only_in_b.is_empty()
            && self.curves.iter().all(|c| c.max_abs <= tolerance)
    }

    /// The matched curves, largest `max_abs` first.
    pub fn by_difference(&self) -> Vec<&CurveDiff> {
        let mut sorted: Vec<&CurveDiff> = self.curves.iter().collect();
        sorted.sort_by(|x, y| y.max_abs.total_cmp(&x.max_abs));
        sorted
    }
}

/// Compares `a` and `b` on [`comparison_times`].
pub fn diff_clips(a: &ClipData, b: &ClipData) -> ClipDiff {
    diff_clips_at(a, b, &comparison_times(a, b))
}

/// Compares `a` and `b` at `times` (seconds on the clips' own time axis; each clip maps them
/// through its own wrap mode).
pub fn diff_clips_at(a: &ClipData, b: &ClipData, times: &[f64]) -> ClipDiff {
    let (pairs, only_in_a, only_in_b) = match_curves(a, b);
    let a_values = Sampler::new(a, times);
    let b_values = Sampler::new(b, times);
    let mut curves: Vec<CurveDiff> = pairs
        .iter()
        .map(|&(i, j)| compare(a, b, i, j, &a_values, &b_values, times))
        .collect();
    add_angles(a, &pairs, &mut curves, &a_values, &b_values);
    let max_abs = curves.iter().map(|c| c.max_abs).fold(0.0, f64::max);
    ClipDiff {
        times: times.len(),
        facts: fact_differences(a, b),
        curves,
        only_in_a,
        only_in_b,
        max_abs,
    }
}

/// Pairs curves with equal keys (in curve order when a key repeats); the rest are listed per
/// side.
fn match_curves(a: &ClipData, b: &ClipData) -> (Vec<(usize, usize)>, Vec<CurveKey>, Vec<CurveKey>) {
    let mut in_b: BTreeMap<CurveKey, VecDeque<usize>> = BTreeMap::new();
    for j in 0..b.curves.len() {
        in_b.entry(CurveKey::of(b, j)).or_default().push_back(j);
    }
    let mut pairs = Vec::new();
    let mut only_in_a = Vec::new();
    for i in 0..a.curves.len() {
        let key = CurveKey::of(a, i);
        match in_b.get_mut(&key).and_then(VecDeque::pop_front) {
            Some(j) => pairs.push((i, j)),
            None => only_in_a.push(key),
        }
    }
    let mut only_in_b: Vec<(usize, CurveKey)> = in_b
        .into_iter()
        .flat_map(|(key, left)| left.into_iter().map(move |j| (j, key)))
        .collect();
    only_in_b.sort_by_key(|&(j, _)| j);
    (
        pairs,
        only_in_a,
        only_in_b.into_iter().map(|(_, k)| k).collect(),
    )
}

/// One clip's curves evaluated lazily at the grid times, mapped through its wrap mode.
struct Sampler<'a> {
    clip: &'a ClipData,
    mapped: Vec<f32>,
}

impl<'a> Sampler<'a> {
    fn new(clip: &'a ClipData, times: &[f64]) -> Self {
        let wrap = clip.wrap_mode();
        Sampler {
            clip,
            mapped: times.iter().map(|&t| wrapped_time(clip, wrap, t)).collect(),
        }
    }

    /// Curve `index` at every grid time.
    fn values(&self, index: usize) -> Vec<f64> {
        let curve = &self.clip.curves[index].curve;
        self.mapped
            .iter()
            .map(|&t| curve.sample(t) as f64)
            .collect()
    }
}

/// The statistics of one matched pair.
fn compare(
    a: &ClipData,
    b: &ClipData,
    i: usize,
    j: usize,
    a_values: &Sampler,
    b_values: &Sampler,
    times: &[f64],
) -> CurveDiff {
    let (va, vb) = (a_values.values(i), b_values.values(j));
    let (mut max_abs, mut at, mut squares) = (0.0f64, times.first().copied().unwrap_or(0.0), 0.0);
    for ((&x, &y), &t) in va.iter().zip(&vb).zip(times) {
        let d = difference(x, y);
        squares += d * d;
        if d > max_abs {
            (max_abs, at) = (d, t);
        }
    }
    let rms = if times.is_empty() {
        0.0
    } else {
        (squares / times.len() as f64).sqrt()
    };
    CurveDiff {
        key: CurveKey::of(a, i),
        max_abs,
        at,
        rms,
        angle_deg: None,
        a_storage: storage_name(a.curves[i].storage),
        b_storage: storage_name(b.curves[j].storage),
        a_keys: a.curves[i].curve.len(),
        b_keys: b.curves[j].curve.len(),
        a_index: i,
        b_index: j,
        name: name_of(a.binding_of(i), b.binding_of(j)),
    }
}

/// `|x - y|`, 0 for equal values (infinities included) and for two NaNs, infinite when only
/// one side is finite.
fn difference(x: f64, y: f64) -> f64 {
    if x == y || (x.is_nan() && y.is_nan()) {
        return 0.0;
    }
    let d = (x - y).abs();
    if d.is_nan() { f64::INFINITY } else { d }
}

/// Sets `angle_deg` on the four components of every Transform rotation matched on both sides.
fn add_angles(
    a: &ClipData,
    pairs: &[(usize, usize)],
    curves: &mut [CurveDiff],
    a_values: &Sampler,
    b_values: &Sampler,
) {
    let mut rotations: BTreeMap<(u32, i32, u32), [Option<usize>; 4]> = BTreeMap::new();
    for (n, &(i, _)) in pairs.iter().enumerate() {
        let Some(binding) = a.binding_of(i) else {
            continue;
        };
        let component = a.curves[i].component as usize;
        if binding.kind() == BindingKind::Rotation && component < 4 {
            let slots = rotations
                .entry((binding.path, binding.type_id, binding.attribute))
                .or_default();
            slots[component] = Some(n);
        }
    }
    for slots in rotations.values() {
        let [Some(x), Some(y), Some(z), Some(w)] = *slots else {
            continue;
        };
        let series = |n: usize| (a_values.values(pairs[n].0), b_values.values(pairs[n].1));
        let parts = [series(x), series(y), series(z), series(w)];
        let angle = (0..parts[0].0.len())
            .filter_map(|t| {
                let qa = parts.each_ref().map(|p| p.0[t]);
                let qb = parts.each_ref().map(|p| p.1[t]);
                quaternion_angle_deg(qa, qb)
            })
            .fold(0.0, f64::max);
        for n in [x, y, z, w] {
            curves[n].angle_deg = Some(angle);
        }
    }
}

/// The angle between the rotations two (not necessarily unit) quaternions stand for, in
/// degrees; `None` when either is zero or not finite.
pub fn quaternion_angle_deg(a: [f64; 4], b: [f64; 4]) -> Option<f64> {
    let norm = |q: [f64; 4]| q.iter().map(|c| c * c).sum::<f64>().sqrt();
    let (na, nb) = (norm(a), norm(b));
    if !(na > 1e-12 && nb > 1e-12 && na.is_finite() && nb.is_finite()) {
        return None;
    }
    let (ua, ub) = (a.map(|c| c / na), b.map(|c| c / nb));
    // q and -q are one rotation: compare with b on a's side.
    let sign = if ua.iter().zip(&ub).map(|(x, y)| x * y).sum::<f64>() < 0.0 {
        -1.0
    } else {
        1.0
    };
    let apart = norm(std::array::from_fn(|k| ua[k] - sign * ub[k]));
    let along = norm(std::array::from_fn(|k| ua[k] + sign * ub[k]));
    // 2·atan2(|a − b|, |a + b|) is exact near 0 where 2·acos(a·b) loses half its digits.
    Some(4.0 * apart.atan2(along).to_degrees())
}

/// A curve's storage as `diff` names it (`keyframe` for legacy and editor curves).
pub fn storage_name(storage: Storage) -> &'static str {
    match storage {
        Storage::Legacy(_) => "keyframe",
        other => other.name(),
    }
}

/// The binding described by whichever side names its path (text clips do, built clips only
/// through a rig).
fn name_of(a: Option<&GenericBinding>, b: Option<&GenericBinding>) -> String {
    let named = |x: Option<&GenericBinding>| x.is_some_and(|b| b.path_name.is_some());
    let pick = if named(a) || !named(b) { a.or(b) } else { b };
    match pick {
        Some(binding) => binding.describe(),
        None => "(no binding)".to_string(),
    }
}

/// Serializes a non-finite number as null (JSON has no infinity).
fn finite_or_null<S: Serializer>(value: &f64, s: S) -> Result<S::Ok, S::Error> {
    if value.is_finite() {
        s.serialize_f64(*value)
    } else {
        s.serialize_none()
    }
}
