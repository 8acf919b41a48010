//! A built curve as the keys a text clip stores, exactly: streamed segments and legacy keys
//! as they are, dense frames as linear keys (slopes the secants on each side, which is the
//! built linear interpolation), a constant as one key; and the keys of a vector's component
//! curves aligned to shared times by splitting their segments (a cubic split at a point is
//! two cubics with the same values and derivatives there).

use crate::curve::{Curve, CurveShape, Infinity, Key};

/// Unity's tangent modes (`TangentUtility`): free, linear, constant, clamped auto.
const FREE: i32 = 0;
const LINEAR: i32 = 2;
const CONSTANT: i32 = 3;
const CLAMPED_AUTO: i32 = 4;

/// One key as written, with its `tangentMode`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextKey {
    pub key: Key,
    pub tangent_mode: i32,
}

/// The keys of one scalar curve as written.
#[derive(Clone, Debug, PartialEq)]
pub struct TextCurve {
    pub keys: Vec<TextKey>,
    pub pre: Infinity,
    pub post: Infinity,
    /// Keys (or frames) the built curve stored.
    pub keys_in: usize,
    /// Segments split only approximately (weighted Bezier segments split at another
    /// component's key time).
    pub approximate_splits: usize,
}

impl TextCurve {
    /// The written keys as a curve clipscope evaluates.
    pub fn curve(&self) -> Curve {
        Curve {
            shape: CurveShape::Keys(self.keys.iter().map(|k| k.key).collect()),
            pre_infinity: self.pre,
            post_infinity: self.post,
        }
    }
}

/// `tangentMode` for a key: each side constant where its slope is infinite, else `side`;
/// broken where the sides differ.
fn tangent_mode(key: &Key, side: i32) -> i32 {
    let mode = |slope: f32| if slope.is_finite() { side } else { CONSTANT };
    let (left, right) = (mode(key.in_slope), mode(key.out_slope));
    let broken = left != right || key.in_slope.to_bits() != key.out_slope.to_bits();
    i32::from(broken) | (left << 1) | (right << 5)
}

fn text_key(key: Key, side: i32) -> TextKey {
    TextKey {
        key,
        tangent_mode: tangent_mode(&key, side),
    }
}

/// The keys a built curve is written as. `start` and `rate` place a streamed curve's
/// initial-value key (stored at -f32::MAX) where a text clip can hold it.
pub fn text_curve(curve: &Curve, start: f32, rate: f32) -> TextCurve {
    let keys = match &curve.shape {
        CurveShape::Keys(keys) => stored_keys(keys, start, rate),
        CurveShape::Sampled {
            begin,
            rate,
            values,
        } => dense_keys(*begin, *rate, values),
        CurveShape::Constant(value) => vec![TextKey {
            key: Key::new(start, *value, 0.0, 0.0),
            tangent_mode: (CLAMPED_AUTO << 1) | (CLAMPED_AUTO << 5),
        }],
    };
    TextCurve {
        keys,
        pre: curve.pre_infinity,
        post: curve.post_infinity,
        keys_in: curve.len(),
        approximate_splits: 0,
    }
}

/// Streamed and legacy keys as stored. The streamed initial-value key (time -f32::MAX, a
/// step) is dropped where it holds the next key's value, else moved to the clip start (or a
/// frame before the next key), which keeps every value: a step key holds until the next.
fn stored_keys(keys: &[Key], start: f32, rate: f32) -> Vec<TextKey> {
    let mut out: Vec<TextKey> = Vec::with_capacity(keys.len());
    for (i, key) in keys.iter().enumerate() {
        let mut key = *key;
        if key.time == -f32::MAX {
            match keys.get(i + 1) {
                Some(next) if next.value.to_bits() == key.value.to_bits() => continue,
                Some(next) => {
                    key.time = if next.time > start {
                        start
                    } else {
                        next.time - 1.0 / rate.max(1.0)
                    };
                }
                None => key.time = start,
            }
        }
        out.push(text_key(key, FREE));
    }
    out
}

/// Dense frames as linear keys.
fn dense_keys(begin: f32, rate: f32, values: &[f32]) -> Vec<TextKey> {
    let valid_rate = rate.is_finite() && rate > 0.0;
    let time = |i: usize| {
        if valid_rate {
            begin + i as f32 / rate
        } else {
            begin
        }
    };
    let secant = |i: usize| -> f32 {
        let (t0, t1) = (time(i), time(i + 1));
        let s = (values[i + 1] - values[i]) / (t1 - t0);
        if s.is_finite() { s } else { f32::INFINITY }
    };
    let n = if valid_rate {
        values.len()
    } else {
        values.len().min(1)
    };
    (0..n)
        .map(|i| {
            let out_slope = if i + 1 < n { secant(i) } else { 0.0 };
            let in_slope = if i > 0 { secant(i - 1) } else { out_slope };
            let in_slope = if in_slope.is_finite() { in_slope } else { 0.0 };
            let out_slope = if i + 1 < n { out_slope } else { in_slope };
            text_key(Key::new(time(i), values[i], in_slope, out_slope), LINEAR)
        })
        .collect()
}

/// Gives every component the same key times (with the same multiplicity), inserting keys
/// where a component has none.
pub fn align(components: &mut [TextCurve]) {
    let mut times: Vec<f32> = components
        .iter()
        .flat_map(|c| c.keys.iter().map(|k| k.key.time))
        .collect();
    times.sort_by(f32::total_cmp);
    times.dedup_by(|a, b| a.to_bits() == b.to_bits());
    if components
        .iter()
        .all(|c| c.keys.len() == times.len() && same_times(c, &times))
    {
        return;
    }
    let counts: Vec<usize> = times
        .iter()
        .map(|t| {
            components
                .iter()
                .map(|c| count_at(c, *t))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let lasts: Vec<Option<f32>> = components
        .iter()
        .map(|c| c.keys.last().map(|k| k.key.time))
        .collect();
    for c in components.iter_mut() {
        realign(c, &times, &counts);
    }
    hold_tails(components, &lasts);
}

fn same_times(c: &TextCurve, times: &[f32]) -> bool {
    c.keys
        .iter()
        .zip(times)
        .all(|(k, t)| k.key.time.to_bits() == t.to_bits())
}

fn count_at(c: &TextCurve, t: f32) -> usize {
    c.keys
        .iter()
        .filter(|k| k.key.time.to_bits() == t.to_bits())
        .count()
}

/// Rebuilds one component's keys on the shared times.
fn realign(c: &mut TextCurve, times: &[f32], counts: &[usize]) {
    let original = c.curve();
    let old = std::mem::take(&mut c.keys);
    let mut keys: Vec<TextKey> = Vec::with_capacity(counts.iter().sum());
    let mut next = 0;
    for (&t, &n) in times.iter().zip(counts) {
        let start = next;
        while next < old.len() && old[next].key.time.to_bits() == t.to_bits() {
            next += 1;
        }
        let mine = &old[start..next];
        let inserted = match mine.last() {
            Some(last) => *last,
            None => {
                let (key, approximate) = split_key(&original, &old, t);
                c.approximate_splits += usize::from(approximate);
                key
            }
        };
        keys.extend_from_slice(mine);
        for _ in mine.len()..n {
            keys.push(inserted);
        }
    }
    c.keys = keys;
}

/// The key that splits `curve` at `t` where it has no key: inside, the segment's value and
/// slope there (a step segment stays a step on both sides); before the first key, a step
/// holding the first value; after the last key, the last value (the last key then steps).
fn split_key(curve: &Curve, old: &[TextKey], t: f32) -> (TextKey, bool) {
    let value = curve.sample(t);
    let (Some(first), Some(last)) = (old.first(), old.last()) else {
        return (text_key(Key::new(t, value, 0.0, 0.0), FREE), false);
    };
    if t < first.key.time {
        return (
            text_key(Key::new(t, value, 0.0, f32::INFINITY), FREE),
            false,
        );
    }
    if t > last.key.time {
        return (
            text_key(Key::new(t, value, f32::INFINITY, 0.0), FREE),
            false,
        );
    }
    let lhs = old.iter().rposition(|k| k.key.time < t).unwrap_or(0);
    let (l, r) = (old[lhs].key, old[(lhs + 1).min(old.len() - 1)].key);
    if !l.out_slope.is_finite() || !r.in_slope.is_finite() {
        let key = Key::new(t, l.value, f32::INFINITY, f32::INFINITY);
        return (text_key(key, FREE), false);
    }
    let weighted = l.weighted_mode & crate::curve::WEIGHTED_OUT != 0
        || r.weighted_mode & crate::curve::WEIGHTED_IN != 0;
    let slope = curve.slope(t);
    (text_key(Key::new(t, value, slope, slope), FREE), weighted)
}

/// After realigning, a key past a component's own last key needs the segment into it to
/// hold: that last key steps out.
fn hold_tails(components: &mut [TextCurve], original_last: &[Option<f32>]) {
    for (c, last) in components.iter_mut().zip(original_last) {
        let Some(last) = last else { continue };
        if let Some(i) = c
            .keys
            .iter()
            .rposition(|k| k.key.time.to_bits() == last.to_bits())
            && i + 1 < c.keys.len()
        {
            let key = &mut c.keys[i];
            key.key.out_slope = f32::INFINITY;
            key.tangent_mode = tangent_mode(&key.key, FREE);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() <= 1e-6 * a.abs().max(b.abs()).max(1.0)
    }

    #[test]
    fn dense_frames_play_linear() {
        let built = Curve::sampled(0.0, 30.0, vec![0.0, 1.0, -2.0, 5.5]);
        let text = text_curve(&built, 0.0, 30.0).curve();
        for i in 0..=40 {
            let t = i as f32 / 400.0 - 0.01;
            assert!(close(text.sample(t), built.sample(t)), "t={t}");
        }
        assert_eq!(text.keys().len(), 4);
    }

    #[test]
    fn a_cubic_split_at_another_components_time_is_the_same_cubic() {
        let a = Curve::from_keys(vec![
            Key::new(0.0, 0.0, 0.0, 4.0),
            Key::new(1.0, 1.0, -3.0, 2.0),
            Key::new(2.0, 0.5, 0.0, 0.0),
        ]);
        let b = Curve::from_keys(vec![
            Key::new(0.0, 2.0, 0.0, 1.0),
            Key::new(0.25, 3.0, 1.0, f32::INFINITY),
            Key::new(0.7, -1.0, 0.0, 0.0),
        ]);
        let mut parts = vec![text_curve(&a, 0.0, 30.0), text_curve(&b, 0.0, 30.0)];
        align(&mut parts);
        assert_eq!(parts[0].keys.len(), 5);
        assert_eq!(parts[1].keys.len(), 5);
        for i in 0..=300 {
            let t = i as f32 / 100.0 - 0.5;
            assert!(close(parts[0].curve().sample(t), a.sample(t)), "a t={t}");
            assert!(close(parts[1].curve().sample(t), b.sample(t)), "b t={t}");
        }
    }

    #[test]
    fn the_initial_value_key_moves_to_the_clip_start() {
        let built = Curve::from_keys(vec![
            Key::step(-f32::MAX, 3.0),
            Key::new(0.5, 1.0, 0.0, 0.0),
        ]);
        let text = text_curve(&built, 0.0, 30.0);
        assert_eq!(text.keys[0].key.time, 0.0);
        for t in [-1.0, 0.0, 0.25, 0.5, 0.9] {
            assert_eq!(text.curve().sample(t), built.sample(t));
        }
    }
}
