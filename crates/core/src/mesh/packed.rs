//! `PackedBitVector`: items of `m_BitSize` bits, least significant bit first across bytes;
//! float vectors map each item onto `m_Start .. m_Start + m_Range` (`mesh.md` §2.7).

use crate::unity::clip::PackedBitVector;

/// The number of items the vector declares.
pub(super) fn item_count(v: &PackedBitVector) -> usize {
    usize::try_from(v.m_NumItems.0).unwrap_or(0)
}

fn bit_size(v: &PackedBitVector) -> Result<usize, String> {
    let bits = v.m_BitSize.map_or(0, |b| b.0);
    if !(0..=32).contains(&bits) {
        return Err(format!("bit size {bits} is not 0..=32"));
    }
    Ok(bits as usize)
}

/// Items `start .. start + count` as integers; an error when the data is too short.
pub(super) fn ints(v: &PackedBitVector, start: usize, count: usize) -> Result<Vec<u32>, String> {
    let bits = bit_size(v)?;
    let end = start
        .checked_add(count)
        .filter(|&end| end <= item_count(v))
        .ok_or_else(|| format!("items {start}+{count} past the {} stored", item_count(v)))?;
    let needed = end
        .checked_mul(bits)
        .ok_or_else(|| "item count overflows".to_string())?;
    if needed > v.m_Data.len().saturating_mul(8) {
        return Err(format!(
            "{end} items of {bits} bits need more than the {} bytes stored",
            v.m_Data.len()
        ));
    }
    if bits == 0 {
        // No data is read, so `count` is bounded by nothing else: keep it in proportion.
        if count > v.m_Data.len().max(1 << 20) {
            return Err(format!("{count} zero-bit items"));
        }
        return Ok(vec![0; count]);
    }
    let mut out = Vec::with_capacity(count);
    let mut pos = start * bits;
    for _ in 0..count {
        let mut value = 0u64;
        for b in 0..bits {
            let bit = pos + b;
            value |= u64::from(v.m_Data[bit / 8] >> (bit % 8) & 1) << b;
        }
        pos += bits;
        out.push(value as u32);
    }
    Ok(out)
}

/// Items `start .. start + count` as floats: `start + q × range / (2^bits − 1)`.
pub(super) fn floats(v: &PackedBitVector, start: usize, count: usize) -> Result<Vec<f32>, String> {
    let bits = bit_size(v)?;
    let (range, origin) = (v.m_Range.unwrap_or(0.0), v.m_Start.unwrap_or(0.0));
    let max = ((1u64 << bits) - 1) as f64;
    Ok(ints(v, start, count)?
        .into_iter()
        .map(|q| {
            if bits == 0 {
                origin
            } else {
                (origin as f64 + q as f64 * range as f64 / max) as f32
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unity::Int;

    fn vector(bits: i64, items: i64, data: Vec<u8>) -> PackedBitVector {
        PackedBitVector {
            m_NumItems: Int(items),
            m_Range: Some(2.0),
            m_Start: Some(-1.0),
            m_Data: data,
            m_BitSize: Some(Int(bits)),
        }
    }

    #[test]
    fn items_are_read_lsb_first_across_byte_boundaries() {
        // Three 5-bit items 0b10101, 0b00011, 0b11111 packed little-end first.
        let word: u32 = 0b10101 | 0b00011 << 5 | 0b11111 << 10;
        let v = vector(5, 3, word.to_le_bytes()[..2].to_vec());
        assert_eq!(ints(&v, 0, 3).unwrap(), [0b10101, 0b00011, 0b11111]);
        assert_eq!(ints(&v, 1, 2).unwrap(), [0b00011, 0b11111]);
    }

    #[test]
    fn floats_span_start_to_start_plus_range() {
        let v = vector(8, 3, vec![0, 255, 51]);
        assert_eq!(floats(&v, 0, 3).unwrap(), [-1.0, 1.0, -0.6]);
    }

    #[test]
    fn short_data_and_overlong_ranges_are_errors() {
        let v = vector(8, 4, vec![0, 1, 2]);
        assert!(ints(&v, 0, 4).is_err());
        assert!(ints(&v, 3, 2).is_err());
        assert!(ints(&vector(33, 1, vec![0; 8]), 0, 1).is_err());
        assert!(ints(&vector(8, i64::MAX, vec![0; 8]), usize::MAX, 2).is_err());
    }
}
