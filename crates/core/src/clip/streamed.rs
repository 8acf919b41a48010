//! The streamed block of a Mecanim clip: frames of cubic segments, turned into Hermite keys.
//!
//! Each frame is a time, a count and that many keys of a curve index and four coefficients;
//! a key opens the segment `((c0·dt + c1)·dt + c2)·dt + c3` of its curve that lasts until the
//! curve's next key. The first frame is at -f32::MAX (every curve's initial value) and the
//! last at +inf with no keys.

use crate::curve::Key;

/// One key of the streamed block as stored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StreamedKey {
    pub index: i32,
    pub coeff: [f32; 4],
}

/// One frame of the streamed block.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamedFrame {
    pub time: f32,
    pub keys: Vec<StreamedKey>,
}

/// Why a streamed block could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StreamedError {
    #[error("frame {frame} at word {word} declares {count} keys but only {left} words are left")]
    Truncated {
        frame: usize,
        word: usize,
        count: i64,
        left: usize,
    },
    #[error("frame {frame} at time {time} comes before the previous frame's time {previous}")]
    TimeGoesBack {
        frame: usize,
        time: f32,
        previous: f32,
    },
    #[error("frame {frame} has a NaN time")]
    NanTime { frame: usize },
}

/// Frames read from the streamed words, in order.
pub fn read_frames(words: &[u32]) -> Result<Vec<StreamedFrame>, StreamedError> {
    let mut frames = Vec::new();
    let mut pos = 0;
    let mut previous = f32::NEG_INFINITY;
    while pos + 2 <= words.len() {
        let frame = frames.len();
        let time = f32::from_bits(words[pos]);
        let count = words[pos + 1] as i32 as i64;
        pos += 2;
        let left = words.len() - pos;
        if count < 0 || count as usize > left / 5 {
            return Err(StreamedError::Truncated {
                frame,
                word: pos - 2,
                count,
                left,
            });
        }
        if time.is_nan() {
            return Err(StreamedError::NanTime { frame });
        }
        if time < previous {
            return Err(StreamedError::TimeGoesBack {
                frame,
                time,
                previous,
            });
        }
        previous = time;
        let keys = words[pos..pos + count as usize * 5]
            .chunks_exact(5)
            .map(|k| StreamedKey {
                index: k[0] as i32,
                coeff: [k[1], k[2], k[3], k[4]].map(f32::from_bits),
            })
            .collect();
        pos += count as usize * 5;
        frames.push(StreamedFrame { time, keys });
    }
    Ok(frames)
}

/// The streamed curves of a clip as Hermite keys.
#[derive(Debug, Default)]
pub struct StreamedCurves {
    /// Keys per curve, `curve_count` of them.
    pub curves: Vec<Vec<Key>>,
    /// Keys whose index lies outside `[0, curve_count)`; they were left out.
    pub keys_out_of_range: usize,
    /// True when the data did not end with the +inf frame.
    pub missing_end_frame: bool,
}

/// How each streamed curve's values are interpreted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// Cubic segments.
    Cubic,
    /// Discrete (int or object) curves: each key's value holds until the next key.
    Discrete,
    /// Int curves: the value slot holds an i32's bits; held like discrete curves.
    IntBits,
}

/// Decodes the streamed block into `curve_count` curves; `kind(i)` tells how curve `i`'s
/// values are interpreted.
pub fn decode(
    words: &[u32],
    curve_count: usize,
    kind: impl Fn(usize) -> ValueKind,
) -> Result<StreamedCurves, StreamedError> {
    let frames = read_frames(words)?;
    let mut out = StreamedCurves {
        missing_end_frame: !frames.last().is_some_and(|f| f.time == f32::INFINITY),
        ..Default::default()
    };
    let mut raw: Vec<Vec<(f32, [f32; 4])>> = vec![Vec::new(); curve_count];
    for frame in &frames {
        if frame.time == f32::INFINITY {
            break;
        }
        for key in &frame.keys {
            match usize::try_from(key.index).ok().and_then(|i| raw.get_mut(i)) {
                Some(list) => push_key(list, frame.time, key.coeff),
                None => out.keys_out_of_range += 1,
            }
        }
    }
    out.curves = raw
        .into_iter()
        .enumerate()
        .map(|(i, segments)| to_keys(&segments, kind(i)))
        .collect();
    Ok(out)
}

/// Adds a key, replacing a key of the same curve at the same time (the last one applies).
fn push_key(list: &mut Vec<(f32, [f32; 4])>, time: f32, coeff: [f32; 4]) {
    match list.last_mut() {
        Some(last) if last.0 == time => last.1 = coeff,
        _ => list.push((time, coeff)),
    }
}

/// The value and derivative of a segment `dt` seconds after its key.
fn poly(c: [f32; 4], dt: f32) -> (f32, f32) {
    let value = ((c[0] * dt + c[1]) * dt + c[2]) * dt + c[3];
    let slope = (3.0 * c[0] * dt + 2.0 * c[1]) * dt + c[2];
    (value, slope)
}

/// Turns one curve's segments into Hermite keys that evaluate to the same values.
fn to_keys(segments: &[(f32, [f32; 4])], kind: ValueKind) -> Vec<Key> {
    let mut keys: Vec<Key> = Vec::with_capacity(segments.len());
    for (i, &(time, c)) in segments.iter().enumerate() {
        let value = match kind {
            ValueKind::IntBits => c[3].to_bits() as i32 as f32,
            _ => c[3],
        };
        let mut key = Key::new(time, value, 0.0, c[2]);
        if let Some(prev) = keys.last() {
            key.in_slope = prev_in_slope(prev, time, segments[i - 1].1);
        }
        let holds =
            kind != ValueKind::Cubic || time == -f32::MAX || !c.iter().all(|x| x.is_finite());
        let next = segments.get(i + 1);
        if holds {
            key.out_slope = f32::INFINITY;
        } else if let Some(&(next_time, next_c)) = next {
            let (end, end_slope) = poly(c, next_time - time);
            let constant = c[0] == 0.0 && c[1] == 0.0 && c[2] == 0.0;
            if constant && end != next_c[3] {
                key.out_slope = f32::INFINITY;
            } else if !close(end, next_c[3]) {
                // A discontinuity: end the segment on its own value, then jump.
                keys.push(key);
                keys.push(Key::new(next_time, end, end_slope, 0.0));
                continue;
            }
        }
        keys.push(key);
    }
    keys
}

/// The incoming slope of a key: the derivative at the end of the previous segment.
fn prev_in_slope(prev: &Key, time: f32, c: [f32; 4]) -> f32 {
    if prev.out_slope.is_infinite() || prev.time == -f32::MAX || prev.time == time {
        return 0.0;
    }
    poly(c, time - prev.time).1
}

/// True when a segment's end value matches the next key's value to f32 precision.
fn close(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1e-5 * a.abs().max(b.abs()).max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::Curve;

    type TestFrame<'a> = (f32, &'a [(i32, [f32; 4])]);

    fn words(frames: &[TestFrame<'_>]) -> Vec<u32> {
        let mut w = Vec::new();
        for (t, keys) in frames {
            w.push(t.to_bits());
            w.push(keys.len() as u32);
            for (i, c) in keys.iter() {
                w.push(*i as u32);
                w.extend(c.iter().map(|x| x.to_bits()));
            }
        }
        w
    }

    #[test]
    fn hermite_keys_reproduce_the_stored_polynomials() {
        // The format notes' example: keys (0, 2.15), (0.5, 6.44), (1, 2.15), flat tangents.
        let c0 = [-68.64, 51.48, 0.0, 2.15];
        let data = words(&[
            (-f32::MAX, &[(0, [0.0, 0.0, 0.0, 2.15])]),
            (0.0, &[(0, c0)]),
            (0.5, &[(0, [68.64, -51.48, 0.0, 6.44])]),
            (1.0, &[(0, [0.0, 0.0, 0.0, 2.15])]),
            (f32::INFINITY, &[]),
        ]);
        let out = decode(&data, 1, |_| ValueKind::Cubic).unwrap();
        let curve = Curve::from_keys(out.curves[0].clone());
        for t in [0.0f32, 0.1, 0.25, 0.4] {
            let (expected, _) = poly(c0, t);
            assert!((curve.sample(t) - expected).abs() < 1e-3, "t={t}");
        }
        assert!((curve.sample(0.5) - 6.44).abs() < 1e-5);
        assert_eq!(curve.sample(-3.0), 2.15);
        assert!(!out.missing_end_frame);
    }

    #[test]
    fn initial_value_holds_until_the_first_key() {
        let data = words(&[
            (-f32::MAX, &[(0, [0.0, 0.0, 0.0, 0.0])]),
            (0.083, &[(0, [0.0, 0.0, 0.0, 1.0])]),
            (f32::INFINITY, &[]),
        ]);
        let out = decode(&data, 1, |_| ValueKind::Discrete).unwrap();
        let curve = Curve::from_keys(out.curves[0].clone());
        assert_eq!(curve.sample(0.0), 0.0);
        assert_eq!(curve.sample(0.08), 0.0);
        assert_eq!(curve.sample(0.083), 1.0);
    }

    #[test]
    fn out_of_range_indices_are_counted_not_kept() {
        let data = words(&[
            (
                -f32::MAX,
                &[(0, [0.0; 4]), (1, [0.0, 0.0, 0.0, 9.0]), (-1, [0.0; 4])],
            ),
            (f32::INFINITY, &[]),
        ]);
        let out = decode(&data, 1, |_| ValueKind::Cubic).unwrap();
        assert_eq!(out.keys_out_of_range, 2);
        assert_eq!(out.curves.len(), 1);
    }

    #[test]
    fn malformed_frames_are_errors() {
        let mut data = words(&[(0.0, &[(0, [0.0; 4])])]);
        data.truncate(5);
        assert!(matches!(
            decode(&data, 1, |_| ValueKind::Cubic),
            Err(StreamedError::Truncated { .. })
        ));
        let back = words(&[(1.0, &[]), (0.5, &[])]);
        assert!(matches!(
            read_frames(&back),
            Err(StreamedError::TimeGoesBack { .. })
        ));
        let huge = vec![0, 0x7fff_ffff];
        assert!(read_frames(&huge).is_err());
    }

    #[test]
    fn int_curves_read_integer_bits() {
        let data = words(&[
            (-f32::MAX, &[(0, [0.0, 0.0, 0.0, f32::from_bits(7)])]),
            (0.5, &[(0, [0.0, 0.0, 0.0, f32::from_bits(u32::MAX)])]),
            (f32::INFINITY, &[]),
        ]);
        let out = decode(&data, 1, |_| ValueKind::IntBits).unwrap();
        let curve = Curve::from_keys(out.curves[0].clone());
        assert_eq!(curve.sample(0.2), 7.0);
        assert_eq!(curve.sample(0.6), -1.0);
    }
}
