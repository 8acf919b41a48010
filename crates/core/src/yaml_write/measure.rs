//! How exact a written clip is, measured against the built clip curve by curve at every
//! written key time, the midpoints between them, the clip's frames and outside the clip:
//! either the keys as written ([`keys`], cheap) or the text read back by clipscope's own YAML
//! reader and decoded by the keyframe rules Unity plays text clips by ([`read_back`]).

use std::borrow::Cow;
use std::path::Path;

use super::emit::TextRef;
use super::plan::{ListKind, Plan};
use crate::clip::{ClipData, decode_clip};
use crate::yaml::{GuidIndex, read_yaml_with_index};

/// Most clip frames sampled per curve beside its key times.
const FRAME_LIMIT: usize = 20_000;

/// What the read-back measured.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Measured {
    /// The largest difference, relative to `max(1, |built value|)`; an object curve counts 1
    /// where it names another object.
    pub max_error: f32,
    /// The same after allowing each sample the f32 rounding of its time (`4 · ε · max(1, |t|)`
    /// seconds times the curve's slope): what is left is the writer's own error. Dense
    /// curves are linear in frame position, `(t - begin) · rate`, which f32 rounds to about
    /// `ε · t · rate` frames, so a steep curve late in a long clip differs by more than 1e-6
    /// between any two f32 evaluations of the same line.
    pub beyond_time_rounding: f32,
}

/// Reads `text` back and compares it with the built clip. `Err` when the text does not read
/// back as a clip with the curves written.
pub fn read_back(
    clip: &ClipData,
    plan: &Plan,
    pptr: &[TextRef],
    text: &str,
) -> Result<Measured, String> {
    let path = Path::new("written.anim");
    let contents =
        read_yaml_with_index(path, text, &GuidIndex::default()).map_err(|e| e.to_string())?;
    let raw = contents
        .clips
        .first()
        .ok_or("the text holds no clip")?
        .clip
        .as_ref()
        .map_err(|e| e.to_string())?;
    let back = decode_clip(raw, &contents.unity_version).map_err(|e| e.to_string())?;
    let written = plan.curve_count();
    if back.curves.len() != written {
        return Err(format!(
            "read back {} curves, {written} were written",
            back.curves.len()
        ));
    }
    let guids: Vec<&str> = contents.externals.iter().map(|e| e.guid.as_str()).collect();
    let read: Vec<&crate::curve::Curve> = back.curves.iter().map(|c| &c.curve).collect();
    Ok(compare(
        clip,
        plan,
        |index, t, object| {
            let value = read[index].sample(t);
            if object {
                Sampled::Object(back_ref_at(&back, &guids, value))
            } else {
                Sampled::Value(value)
            }
        },
        |_, _| false,
        pptr,
    ))
}

/// Compares the keys as written (before any text) with the built clip: the writer's own
/// error, without the cost of reading the text back. The text spells every float so that it
/// reads back to the same bits ([`super::float`]), so this differs from [`read_back`] only
/// where the reader itself would.
pub fn keys(clip: &ClipData, plan: &Plan, pptr: &[TextRef]) -> Measured {
    let written: Vec<crate::curve::Curve> = plan
        .groups
        .iter()
        .flat_map(|g| g.curves.iter().map(|c| c.curve()))
        .collect();
    compare(
        clip,
        plan,
        |index, t, object| {
            let value = written[index].sample(t);
            if object {
                Sampled::Object(pptr_at(pptr, value))
            } else {
                Sampled::Value(value)
            }
        },
        |index, built| written.get(index).is_some_and(|w| identical(w, built)),
        pptr,
    )
}

/// Whether two curves hold the same bits (keys, samples, infinities), so that they sample
/// to the same value at every time and comparing them at each time would find nothing: most
/// curves of a built clip are written key for key.
fn identical(a: &crate::curve::Curve, b: &crate::curve::Curve) -> bool {
    use crate::curve::{CurveShape, Key};
    let same = |x: f32, y: f32| x.to_bits() == y.to_bits();
    let same_key = |x: &Key, y: &Key| {
        same(x.time, y.time)
            && same(x.value, y.value)
            && same(x.in_slope, y.in_slope)
            && same(x.out_slope, y.out_slope)
            && same(x.in_weight, y.in_weight)
            && same(x.out_weight, y.out_weight)
            && x.weighted_mode == y.weighted_mode
    };
    let shapes = match (&a.shape, &b.shape) {
        (CurveShape::Keys(x), CurveShape::Keys(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_key(x, y))
        }
        (
            CurveShape::Sampled {
                begin: b1,
                rate: r1,
                values: v1,
            },
            CurveShape::Sampled {
                begin: b2,
                rate: r2,
                values: v2,
            },
        ) => {
            same(*b1, *b2)
                && same(*r1, *r2)
                && v1.len() == v2.len()
                && v1.iter().zip(v2).all(|(x, y)| same(*x, *y))
        }
        (CurveShape::Constant(x), CurveShape::Constant(y)) => same(*x, *y),
        _ => false,
    };
    shapes && a.pre_infinity == b.pre_infinity && a.post_infinity == b.post_infinity
}

/// A written curve's value at a time: a number, or the asset an object curve names.
enum Sampled {
    Value(f32),
    Object(Option<(String, i64)>),
}

/// The worst difference between the built curves and `written(index, t, is_object)`, the
/// written curve `index` (in plan order) at `t`; a curve for which `exact(index, built)`
/// holds differs at no time and is not sampled.
fn compare(
    clip: &ClipData,
    plan: &Plan,
    written: impl Fn(usize, f32, bool) -> Sampled,
    exact: impl Fn(usize, &crate::curve::Curve) -> bool,
    pptr: &[TextRef],
) -> Measured {
    let frames = frame_times(clip);
    let mut times = Times::default();
    let mut worst = Measured::default();
    let mut index = 0;
    for g in &plan.groups {
        let object = g.list == ListKind::PPtr;
        for (source, text_curve) in g.sources.iter().zip(&g.curves) {
            let built = match source.and_then(|s| clip.curves.get(s)) {
                Some(c) => Cow::Borrowed(&c.curve),
                None => Cow::Owned(text_curve.curve()),
            };
            if exact(index, &built) {
                index += 1;
                continue;
            }
            let keys = text_curve.keys.iter().map(|k| k.key.time);
            for &t in times.of(keys, &frames, (clip.start, clip.stop)) {
                let (error, beyond) = match written(index, t, object) {
                    Sampled::Object(got) => {
                        let want = pptr_at(pptr, built.sample(t));
                        let e = if want == got { 0.0 } else { 1.0 };
                        (e, e)
                    }
                    Sampled::Value(r) => {
                        let b = built.sample(t);
                        let e = difference(b, r);
                        if e == 0.0 {
                            // Nothing to allow for: the slopes are not needed.
                            continue;
                        }
                        if e <= worst.beyond_time_rounding {
                            // What is left after the allowance is at most `e`, so it cannot
                            // raise the worst: the slopes are not needed either.
                            (e, 0.0)
                        } else {
                            let allowed =
                                4.0 * f32::EPSILON * t.abs().max(1.0) * steepest(&built, t);
                            (e, (e - allowed / b.abs().max(1.0)).max(0.0))
                        }
                    }
                };
                worst.max_error = worst.max_error.max(error);
                worst.beyond_time_rounding = worst.beyond_time_rounding.max(beyond);
            }
            index += 1;
        }
    }
    worst
}

/// The largest slope magnitude at `t` and a millisecond either side (a time rounded across
/// a key lands in the neighbouring segment).
fn steepest(curve: &crate::curve::Curve, t: f32) -> f32 {
    [t - 1e-3, t, t + 1e-3]
        .iter()
        .map(|&u| curve.slope(u).abs())
        .fold(0.0, f32::max)
}

/// `|a - b| / max(1, |a|)`; equal non-finite values differ by 0, a finite against a
/// non-finite one by infinity.
fn difference(built: f32, read: f32) -> f32 {
    if built.to_bits() == read.to_bits() || (built.is_nan() && read.is_nan()) {
        return 0.0;
    }
    let d = (built - read).abs() / built.abs().max(1.0);
    if d.is_nan() { f32::INFINITY } else { d }
}

/// The clip's frame times from start to stop, bounded.
fn frame_times(clip: &ClipData) -> Vec<f32> {
    let rate = clip.sample_rate;
    let frames = (clip.length() * rate).ceil();
    if !(frames.is_finite() && frames >= 0.0) {
        return vec![clip.start];
    }
    let n = (frames as usize).min(FRAME_LIMIT);
    (0..=n).map(|i| clip.start + i as f32 / rate).collect()
}

/// Room for a curve's sample times, kept from one curve to the next.
#[derive(Default)]
struct Times {
    keys: Vec<f32>,
    all: Vec<f32>,
}

impl Times {
    /// Key times, midpoints between consecutive ones, frames and midpoints between frames,
    /// and a second before and after the clip (`start` to `stop`). `frames` are in order
    /// ([`frame_times`]), and so are a curve's keys (else they are sorted), so the two are
    /// merged, not sorted together.
    fn of(
        &mut self,
        keys: impl Iterator<Item = f32>,
        frames: &[f32],
        (start, stop): (f32, f32),
    ) -> &[f32] {
        let in_order = |t: &[f32]| t.is_sorted_by(|a, b| a.total_cmp(b).is_le());
        self.keys.clear();
        self.keys.extend(keys.filter(|t| t.is_finite()));
        if !in_order(&self.keys) {
            self.keys.sort_by(f32::total_cmp);
        }
        let all = &mut self.all;
        all.clear();
        // `frame_times` counts up from the clip's start (or gives it alone).
        merge(&self.keys, frames, all);
        all.dedup();
        let distinct = all.len();
        for i in 1..distinct {
            let (a, b) = (all[i - 1], all[i]);
            all.push(a + (b - a) * 0.5);
        }
        all.push(start - 1.0);
        all.push(stop + 1.0);
        all
    }
}

/// Appends `a` and `b`, each in order, to `out` in order.
fn merge(a: &[f32], b: &[f32], out: &mut Vec<f32>) {
    let (mut i, mut j) = (0, 0);
    while let (Some(x), Some(y)) = (a.get(i), b.get(j)) {
        if y.total_cmp(x).is_lt() {
            out.push(*y);
            j += 1;
        } else {
            out.push(*x);
            i += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
}

/// The written reference an object curve's value (a mapping index) names.
fn pptr_at(pptr: &[TextRef], value: f32) -> Option<(String, i64)> {
    // NaN and negatives name nothing.
    if value.is_nan() || value < 0.0 {
        return None;
    }
    match pptr.get(value as usize)? {
        TextRef::Null | TextRef::Local(_) => None,
        TextRef::Asset { file_id, guid, .. } => Some((guid.clone(), *file_id)),
    }
}

/// The reference a read-back object curve's value names.
fn back_ref_at(back: &ClipData, guids: &[&str], value: f32) -> Option<(String, i64)> {
    // NaN and negatives name nothing.
    if value.is_nan() || value < 0.0 {
        return None;
    }
    let &(file, path_id) = back.pptr_mapping.get(value as usize)?;
    if path_id == 0 {
        return None;
    }
    let guid = usize::try_from(file - 1).ok().and_then(|i| guids.get(i))?;
    Some((guid.to_string(), path_id))
}

#[cfg(test)]
mod tests {
    use super::{Times, identical};

    /// The merged times are those of sorting keys and frames together, whatever order the
    /// keys come in: equal, interleaved, repeated, out of order, signed zeros, non-finite.
    #[test]
    fn merged_times_are_the_sorted_times() {
        let sorted = |keys: &[f32], frames: &[f32]| {
            let mut t: Vec<f32> = keys.iter().copied().filter(|t| t.is_finite()).collect();
            t.extend_from_slice(frames);
            t.sort_by(f32::total_cmp);
            t.dedup();
            let mids: Vec<f32> = t.windows(2).map(|w| w[0] + (w[1] - w[0]) * 0.5).collect();
            t.extend(mids);
            t.extend([-1.0, 2.0]);
            t
        };
        let frames: Vec<f32> = (0..=30).map(|i| i as f32 / 30.0).collect();
        let mut seed: u32 = 9;
        let mut next = move || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            seed
        };
        let mut times = Times::default();
        let cases: Vec<Vec<f32>> = vec![
            vec![],
            frames.clone(),
            frames.iter().map(|f| f + 1.0 / 60.0).collect(),
            vec![
                0.5,
                0.25,
                0.5,
                -0.0,
                0.0,
                f32::NAN,
                f32::INFINITY,
                2.0,
                -1.0,
            ],
            (0..200)
                .map(|_| (next() % 4000) as f32 / 1000.0 - 1.0)
                .collect(),
        ];
        for keys in cases {
            let want = sorted(&keys, &frames);
            let got = times.of(keys.iter().copied(), &frames, (0.0, 1.0));
            let bits = |t: &[f32]| t.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(got), bits(&want), "{keys:?}");
        }
    }
    use crate::curve::{Curve, CurveShape, Infinity, Key};

    /// Only the same bits are identical: a zero of the other sign, another weight or
    /// another infinity is not, and a NaN is the same as itself.
    #[test]
    fn curves_are_identical_only_bit_for_bit() {
        let keys = vec![
            Key::new(0.0, 1.0, 0.0, 0.5),
            Key::new(1.0, f32::NAN, 0.5, f32::INFINITY),
        ];
        let a = Curve::from_keys(keys.clone());
        assert!(identical(&a, &a.clone()));
        let mut b = a.clone();
        if let CurveShape::Keys(k) = &mut b.shape {
            k[0].in_slope = -0.0;
        }
        assert!(!identical(&a, &b), "-0 is not 0 bit for bit");
        let mut c = a.clone();
        if let CurveShape::Keys(k) = &mut c.shape {
            k[1].in_weight = 0.5;
        }
        assert!(!identical(&a, &c));
        let mut d = a.clone();
        d.post_infinity = Infinity::Repeat;
        assert!(!identical(&a, &d));
        let sampled = |values: Vec<f32>| Curve {
            shape: CurveShape::Sampled {
                begin: 0.0,
                rate: 30.0,
                values,
            },
            ..Curve::constant(0.0)
        };
        assert!(identical(
            &sampled(vec![1.0, 2.0]),
            &sampled(vec![1.0, 2.0])
        ));
        assert!(!identical(&sampled(vec![1.0, 2.0]), &sampled(vec![1.0])));
        assert!(!identical(&a, &Curve::constant(1.0)));
        assert!(identical(&Curve::constant(1.0), &Curve::constant(1.0)));
    }
}
