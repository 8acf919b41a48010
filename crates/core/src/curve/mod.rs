//! Scalar animation curves and Unity's rules for evaluating them.
//!
//! A [`Curve`] is one scalar channel of a clip. Its [`CurveShape`] says how it was stored: keys
//! with tangents (streamed and legacy curves), evenly spaced samples (dense curves) or a single
//! value (constant curves). Evaluation follows `AnimationCurve.Evaluate`: cubic Hermite between
//! keys with per-second slopes, Unity's weighted Bezier segments, steps where a slope is infinite,
//! and the per-curve pre/post infinity. All arithmetic is in `f32`, as in Unity.

mod eval;
mod packed;
mod rotation;
mod weighted;
mod wrap;

pub use eval::{KeyTime, segment_index};
pub use packed::PackedCurves;
pub use rotation::euler_quat;
pub use wrap::{WrapMode, ping_pong, repeat};

/// The default Bezier handle weight of an unweighted key side (a third of the segment).
pub const DEFAULT_WEIGHT: f32 = 1.0 / 3.0;

/// `weightedMode` bit: the key's `in_weight` counts.
pub const WEIGHTED_IN: u8 = 1;
/// `weightedMode` bit: the key's `out_weight` counts.
pub const WEIGHTED_OUT: u8 = 2;

/// One key of a curve: its time (seconds), value and the slopes (per second) into and out of
/// it. An infinite outgoing slope (or an infinite incoming slope on the next key) is a step:
/// the segment holds this key's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Key {
    pub time: f32,
    pub value: f32,
    pub in_slope: f32,
    pub out_slope: f32,
    /// Bezier handle weight into the key, used when `weighted_mode & WEIGHTED_IN`.
    pub in_weight: f32,
    /// Bezier handle weight out of the key, used when `weighted_mode & WEIGHTED_OUT`.
    pub out_weight: f32,
    /// Unity's `weightedMode`: 0 none, 1 in, 2 out, 3 both.
    pub weighted_mode: u8,
}

impl Key {
    /// A plain Hermite key (no weights).
    pub fn new(time: f32, value: f32, in_slope: f32, out_slope: f32) -> Key {
        Key {
            time,
            value,
            in_slope,
            out_slope,
            in_weight: DEFAULT_WEIGHT,
            out_weight: DEFAULT_WEIGHT,
            weighted_mode: 0,
        }
    }

    /// A key whose outgoing segment holds its value (a step).
    pub fn step(time: f32, value: f32) -> Key {
        Key::new(time, value, 0.0, f32::INFINITY)
    }

    /// True when the segment leaving this key holds its value.
    pub fn is_step_out(&self) -> bool {
        self.out_slope.is_infinite()
    }
}

/// What a curve does outside its keys (`m_PreInfinity` / `m_PostInfinity`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Infinity {
    /// Stored as 0: the curve plays forward then backward.
    PingPong,
    /// Stored as 1: the curve repeats.
    Repeat,
    /// Stored as 2: the first or last value holds (Unity's default).
    #[default]
    Clamp,
}

impl Infinity {
    /// Maps Unity's stored code; unknown codes clamp, as Unity's default does.
    pub fn from_unity(code: i32) -> Infinity {
        match code {
            0 => Infinity::PingPong,
            1 => Infinity::Repeat,
            _ => Infinity::Clamp,
        }
    }
}

/// How a curve's values are stored.
#[derive(Clone, Debug, PartialEq)]
pub enum CurveShape {
    /// Keys in increasing time (equal times allowed: the last of them applies from that time).
    Keys(Vec<Key>),
    /// One sample per frame from `begin` at `rate` frames per second, linear in between and
    /// clamped outside (Mecanim's dense block).
    Sampled {
        begin: f32,
        rate: f32,
        values: Vec<f32>,
    },
    /// One value for all time.
    Constant(f32),
}

/// One scalar curve.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    pub shape: CurveShape,
    pub pre_infinity: Infinity,
    pub post_infinity: Infinity,
}

impl Default for Curve {
    /// The constant 0.
    fn default() -> Self {
        Curve::constant(0.0)
    }
}

impl Curve {
    /// A curve of keys with Unity's default (clamped) infinities.
    pub fn from_keys(keys: Vec<Key>) -> Curve {
        Curve {
            shape: CurveShape::Keys(keys),
            pre_infinity: Infinity::Clamp,
            post_infinity: Infinity::Clamp,
        }
    }

    /// A constant curve.
    pub fn constant(value: f32) -> Curve {
        Curve {
            shape: CurveShape::Constant(value),
            pre_infinity: Infinity::Clamp,
            post_infinity: Infinity::Clamp,
        }
    }

    /// A dense (sampled) curve.
    pub fn sampled(begin: f32, rate: f32, values: Vec<f32>) -> Curve {
        Curve {
            shape: CurveShape::Sampled {
                begin,
                rate,
                values,
            },
            pre_infinity: Infinity::Clamp,
            post_infinity: Infinity::Clamp,
        }
    }

    /// The keys, for curves stored as keys.
    pub fn keys(&self) -> &[Key] {
        match &self.shape {
            CurveShape::Keys(keys) => keys,
            _ => &[],
        }
    }

    /// Number of stored keys or samples.
    pub fn len(&self) -> usize {
        match &self.shape {
            CurveShape::Keys(keys) => keys.len(),
            CurveShape::Sampled { values, .. } => values.len(),
            CurveShape::Constant(_) => 1,
        }
    }

    /// True when the curve stores nothing (evaluates to 0).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes the curve's stored data takes in memory.
    pub fn heap_size(&self) -> usize {
        match &self.shape {
            CurveShape::Keys(keys) => std::mem::size_of_val(keys.as_slice()),
            CurveShape::Sampled { values, .. } => std::mem::size_of_val(values.as_slice()),
            CurveShape::Constant(_) => 0,
        }
    }
}
