//! Legacy compressed rotation curves (`m_CompressedRotationCurves`): bit-packed times and
//! quaternions.
//!
//! Times are integers of `m_BitSize` bits in hundredths of a second; references disagree on
//! whether they are absolute or deltas, so a strictly increasing sequence is read as absolute
//! and anything else as deltas. The stored slopes' layout is unverified, so segments are
//! linear between keys (the safe reading the format notes recommend).

use crate::curve::{Curve, Infinity, Key};
use crate::unity::clip::{CompressedAnimationCurve, PackedBitVector};

/// Reads `count` integers of `bits` bits each, least significant bit first; `None` when the
/// data is too short or the width impossible.
pub fn unpack_ints(data: &[u8], bits: u32, count: usize) -> Option<Vec<u32>> {
    if bits == 0 || bits > 32 || count.checked_mul(bits as usize)? > data.len() * 8 {
        return None;
    }
    let mut out = Vec::with_capacity(count);
    let mut bit = 0usize;
    for _ in 0..count {
        let mut value: u64 = 0;
        for b in 0..bits as usize {
            let pos = bit + b;
            if data[pos / 8] >> (pos % 8) & 1 == 1 {
                value |= 1 << b;
            }
        }
        bit += bits as usize;
        out.push(value as u32);
    }
    Some(out)
}

/// Unpacks `count` quaternions of 32 bits each: 3 flag bits (omitted component, sign), then
/// the other three components in 9 or 10 bits over the full ±1 range.
pub fn unpack_quats(data: &[u8], count: usize) -> Option<Vec<[f32; 4]>> {
    let words = unpack_ints(data, 32, count)?;
    Some(words.into_iter().map(unpack_quat).collect())
}

fn unpack_quat(word: u32) -> [f32; 4] {
    let flags = word & 7;
    let omitted = (flags & 3) as usize;
    let mut q = [0.0f32; 4];
    let mut shift = 3;
    let mut sum = 0.0;
    for (j, slot) in q.iter_mut().enumerate() {
        if j == omitted {
            continue;
        }
        let bits = if j == (omitted + 1) % 4 { 9 } else { 10 };
        let raw = (word >> shift) & ((1 << bits) - 1);
        shift += bits;
        let v = raw as f32 / (0.5 * ((1u32 << bits) - 1) as f32) - 1.0;
        *slot = v;
        sum += v * v;
    }
    let rest = (1.0 - sum).max(0.0).sqrt();
    q[omitted] = if flags & 4 != 0 { -rest } else { rest };
    q
}

fn item_count(v: &PackedBitVector) -> usize {
    usize::try_from(v.m_NumItems.0).unwrap_or(0)
}

/// The key times in seconds.
fn times(curve: &CompressedAnimationCurve) -> Option<Vec<f32>> {
    let bits = curve.m_Times.m_BitSize.map_or(0, |b| b.0 as u32);
    let ints = unpack_ints(&curve.m_Times.m_Data, bits, item_count(&curve.m_Times))?;
    let absolute = ints.windows(2).all(|w| w[0] < w[1]);
    let mut acc = 0u64;
    Some(
        ints.iter()
            .map(|&i| {
                acc = if absolute { i as u64 } else { acc + i as u64 };
                acc as f32 * 0.01
            })
            .collect(),
    )
}

/// Decodes one compressed rotation curve into four linear component curves; malformed data
/// gives empty curves.
pub(super) fn decode(curve: &CompressedAnimationCurve) -> Vec<Curve> {
    let times = times(curve).unwrap_or_default();
    let quats =
        unpack_quats(&curve.m_Values.m_Data, item_count(&curve.m_Values)).unwrap_or_default();
    let n = times.len().min(quats.len());
    (0..4)
        .map(|c| {
            let values: Vec<f32> = quats[..n].iter().map(|q| q[c]).collect();
            Curve {
                shape: crate::curve::CurveShape::Keys(linear_keys(&times[..n], &values)),
                pre_infinity: Infinity::from_unity(curve.m_PreInfinity.i32()),
                post_infinity: Infinity::from_unity(curve.m_PostInfinity.i32()),
            }
        })
        .collect()
}

/// Keys whose Hermite segments are straight lines (slopes are the secants).
fn linear_keys(times: &[f32], values: &[f32]) -> Vec<Key> {
    let secant = |i: usize| {
        let dt = times[i + 1] - times[i];
        if dt > 0.0 {
            (values[i + 1] - values[i]) / dt
        } else {
            0.0
        }
    };
    (0..times.len())
        .map(|i| {
            let in_slope = if i > 0 { secant(i - 1) } else { 0.0 };
            let out_slope = if i + 1 < times.len() { secant(i) } else { 0.0 };
            Key::new(times[i], values[i], in_slope, out_slope)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints_unpack_lsb_first_across_bytes() {
        // 3, 5, 7 in 4 bits each: 0x53, 0x07.
        assert_eq!(unpack_ints(&[0x53, 0x07], 4, 3).unwrap(), vec![3, 5, 7]);
        assert!(unpack_ints(&[0x53], 4, 3).is_none());
        assert!(unpack_ints(&[0; 8], 33, 1).is_none());
        assert_eq!(unpack_ints(&[0xff; 4], 32, 1).unwrap(), vec![u32::MAX]);
    }

    #[test]
    fn identity_quaternion_round_trips() {
        // Omit w (index 3); x is 9 bits (index 0 == (3+1)%4), y and z 10 bits, all at the
        // midpoint (value 0); w comes out +1.
        let x = 255u32; // 9-bit midpoint: 255/255.5 - 1 ≈ -0.002
        let y = 511u32;
        let z = 511u32;
        let word = 3 | (x << 3) | (y << 12) | (z << 22);
        let q = unpack_quat(word);
        assert!(
            q[0].abs() < 0.01 && q[1].abs() < 0.01 && q[2].abs() < 0.01,
            "{q:?}"
        );
        assert!((q[3] - 1.0).abs() < 1e-3);
        let neg = unpack_quat(word | 4);
        assert!((neg[3] + 1.0).abs() < 1e-3);
    }

    #[test]
    fn linear_keys_interpolate_linearly() {
        let keys = linear_keys(&[0.0, 1.0, 3.0], &[0.0, 2.0, 0.0]);
        let curve = Curve::from_keys(keys);
        assert!((curve.sample(0.5) - 1.0).abs() < 1e-6);
        assert!((curve.sample(2.0) - 1.0).abs() < 1e-6);
    }
}
