//! Floats spelled as Unity's YAML writer spells them: the shortest digits that read back to
//! the same `f32`, plain below an exponent and in `e` notation for very small and very large
//! magnitudes (`0.0000000053916693`, `2.7918645e-10`), `Infinity`, `-Infinity`, `NaN`.
//!
//! The shared `.anim` files show plain digits down to 1e-9 and `e` notation from 1e-10 on;
//! the same rule is applied above 1e16 (no shared file holds such a value).

use std::fmt::Write;

/// Smallest magnitude written with plain digits (the data shows `1.397e-9` plain and
/// `2.79e-10` with an exponent).
const PLAIN_LOW: i32 = -9;
/// Largest decimal exponent written with plain digits.
const PLAIN_HIGH: i32 = 15;

/// 1/3, Unity's default key weight.
const THIRD: f32 = 1.0 / 3.0;

/// Appends `x` to `out` in Unity's spelling.
pub fn push_f32(out: &mut String, x: f32) {
    if x.is_nan() {
        out.push_str("NaN");
        return;
    }
    if x.is_infinite() {
        out.push_str(if x > 0.0 { "Infinity" } else { "-Infinity" });
        return;
    }
    if x == 0.0 {
        out.push_str(if x.is_sign_negative() { "-0" } else { "0" });
        return;
    }
    // Unity's default key weight, written twice for almost every key.
    if x == THIRD {
        out.push_str("0.33333334");
        return;
    }
    // zmij gives the shortest digits that read back to the same bits (as `{:e}` does, at a
    // fraction of the cost), plain (`0.001`, `123.5`) or with an exponent (`1.5e-07`).
    let mut buffer = zmij::Buffer::new();
    let text = buffer.format_finite(x);
    // zmij writes plain digits only inside Unity's plain range; without an exponent they
    // are Unity's spelling already, less a whole number's `.0`.
    if !text.as_bytes().contains(&b'e') {
        out.push_str(text.strip_suffix(".0").unwrap_or(text));
        return;
    }
    spelled_from_digits(out, text);
}

/// Spellings of floats met before in one text, by their bits: a clip's key times recur in
/// every curve, and many values and slopes recur, so a large clip finds about half of its
/// floats here, for a lookup instead of [`push_f32`]'s digit search.
#[derive(Default)]
pub(super) struct Spellings {
    /// Direct-mapped by a hash of the bits; empty until the first float.
    slots: Vec<Spelled>,
}

/// One remembered spelling; an empty text is an empty slot. The text is held as text, so
/// that it is appended without checking its bytes again.
#[derive(Clone, Copy, Default)]
struct Spelled {
    bits: u32,
    text: arrayvec::ArrayString<27>,
}

impl Spellings {
    const SLOTS: usize = 1024;

    /// Appends `x` to `out` as [`push_f32`] does.
    pub(super) fn push(&mut self, out: &mut String, x: f32) {
        // Zero and Unity's default weight are cheaper spelled than looked up.
        if x == 0.0 || x == THIRD {
            push_f32(out, x);
            return;
        }
        if self.slots.is_empty() {
            self.slots = vec![Spelled::default(); Self::SLOTS];
        }
        let bits = x.to_bits();
        let slot = &mut self.slots[(bits.wrapping_mul(0x9E37_79B1) >> 22) as usize];
        if !slot.text.is_empty() && slot.bits == bits {
            out.push_str(&slot.text);
            return;
        }
        let start = out.len();
        push_f32(out, x);
        // A spelling too long to hold (none is) is spelled again next time.
        if let Ok(text) = arrayvec::ArrayString::from(&out[start..]) {
            (slot.bits, slot.text) = (bits, text);
        }
    }
}

/// [`push_f32`] from zmij's text of a finite, non-zero number (the route for those it
/// writes with an exponent): its shortest digits placed by Unity's rule.
fn spelled_from_digits(out: &mut String, zmij_text: &str) {
    let magnitude = zmij_text.strip_prefix('-');
    if magnitude.is_some() {
        out.push('-');
    }
    let (digits, exponent) = shortest_digits(magnitude.unwrap_or(zmij_text));
    if !(PLAIN_LOW..=PLAIN_HIGH).contains(&exponent) {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let sign = if exponent < 0 { '-' } else { '+' };
        let _ = write!(out, "e{sign}{:02}", exponent.unsigned_abs());
        return;
    }
    push_plain(out, &digits, exponent);
}

/// The significant digits (no leading or trailing zeros) of a positive number printed as
/// plain digits or with an exponent, and the decimal exponent of the first digit:
/// `0.0125` → (`125`, -2), `1.5e-07` → (`15`, -7), `300` → (`3`, 2).
fn shortest_digits(text: &str) -> (Digits, i32) {
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.trim_start_matches('+').parse().unwrap_or(0)),
        None => (text, 0),
    };
    let whole = mantissa.split_once('.').map_or(mantissa, |(w, _)| w);
    let mut digits = Digits::default();
    let mut first = None;
    for (i, b) in mantissa.bytes().filter(u8::is_ascii_digit).enumerate() {
        if first.is_none() && b != b'0' {
            first = Some(i);
        }
        if first.is_some() {
            digits.push(b);
        }
    }
    digits.trim_zeros();
    // The first significant digit's place: the whole part's length counts places left of
    // the point.
    let place = whole.len() as i32 - 1 - first.unwrap_or(0) as i32;
    (digits, exponent + place)
}

/// Up to 24 ASCII digits on the stack (an f32 needs 9).
#[derive(Default)]
struct Digits {
    bytes: [u8; 24],
    len: usize,
}

impl Digits {
    fn push(&mut self, b: u8) {
        if self.len < self.bytes.len() {
            self.bytes[self.len] = b;
            self.len += 1;
        }
    }

    fn trim_zeros(&mut self) {
        while self.len > 1 && self.bytes[self.len - 1] == b'0' {
            self.len -= 1;
        }
        if self.len == 0 {
            self.push(b'0');
        }
    }
}

impl std::ops::Deref for Digits {
    type Target = str;
    fn deref(&self) -> &str {
        // Only ASCII digits are pushed.
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or("0")
    }
}

/// Plain digits: `digits` (no leading zeros) with the decimal point after the first digit
/// moved by `exponent`.
fn push_plain(out: &mut String, digits: &str, exponent: i32) {
    let point = exponent + 1;
    if point <= 0 {
        out.push_str("0.");
        for _ in 0..(-point) {
            out.push('0');
        }
        out.push_str(digits);
        return;
    }
    let point = point as usize;
    if digits.len() <= point {
        out.push_str(digits);
        for _ in digits.len()..point {
            out.push('0');
        }
    } else {
        out.push_str(&digits[..point]);
        out.push('.');
        out.push_str(&digits[point..]);
    }
}

/// `x` in Unity's spelling.
pub fn f32_text(x: f32) -> String {
    let mut s = String::new();
    push_f32(&mut s, x);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A remembered spelling is the spelling: every float of a walk, many met again (and
    /// slots shared by other floats), spelled as [`push_f32`] spells it.
    #[test]
    fn remembered_spellings_are_the_spellings() {
        let mut spellings = Spellings::default();
        let mut bits: u32 = 3;
        for i in 0..300_000u32 {
            bits = bits.wrapping_mul(2_654_435_761).wrapping_add(777);
            // Every third float is one met before.
            let x = f32::from_bits(if i % 3 == 0 { bits % 4096 * 977 } else { bits });
            let mut remembered = String::from("k: ");
            spellings.push(&mut remembered, x);
            assert_eq!(remembered[3..], f32_text(x), "bits {:#x}", x.to_bits());
        }
    }

    #[test]
    fn spellings_match_unity_files() {
        // Every spelling below occurs in the shared .anim files.
        for (x, text) in [
            (0.33333334f32, "0.33333334"),
            (1.6000001, "1.6000001"),
            (-0.0000000053916693, "-0.0000000053916693"),
            (2.7918645e-10, "2.7918645e-10"),
            (-6.3282704e-15, "-6.3282704e-15"),
            (360.0, "360"),
            (0.033333335, "0.033333335"),
            (-0.041770373, "-0.041770373"),
            (30.0, "30"),
            (f32::INFINITY, "Infinity"),
            (f32::NEG_INFINITY, "-Infinity"),
        ] {
            assert_eq!(f32_text(x), text);
        }
        assert_eq!(f32_text(f32::MAX), "3.4028235e+38");
        assert_eq!(f32_text(-0.0), "-0");
        assert_eq!(f32_text(f32::NAN), "NaN");
    }

    /// The spelling through std's `{:e}` (the shortest round-trip digits), as the writer
    /// spelled floats before it used zmij.
    fn std_spelling(x: f32) -> String {
        let sci = format!("{:e}", x.abs());
        let (mantissa, exponent) = sci.split_once('e').unwrap();
        let exponent: i32 = exponent.parse().unwrap();
        let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
        let mut out = String::from(if x < 0.0 { "-" } else { "" });
        if !(PLAIN_LOW..=PLAIN_HIGH).contains(&exponent) {
            out.push_str(mantissa);
            let sign = if exponent < 0 { '-' } else { '+' };
            out += &format!("e{sign}{:02}", exponent.unsigned_abs());
        } else {
            push_plain(&mut out, &digits, exponent);
        }
        out
    }

    /// Every spelling through the digits-and-exponent route, as the fast path skips it.
    fn spelled_by_digits(x: f32) -> String {
        let mut s = String::new();
        spelled_from_digits(&mut s, zmij::Buffer::new().format_finite(x));
        s
    }

    #[test]
    fn plain_zmij_text_is_unitys_spelling() {
        let mut bits: u32 = 11;
        let mut plain = 0;
        for _ in 0..1_000_000 {
            bits = bits.wrapping_mul(2_654_435_761).wrapping_add(54321);
            let x = f32::from_bits(bits);
            if !x.is_finite() || x == 0.0 {
                continue;
            }
            let mut buffer = zmij::Buffer::new();
            plain += usize::from(!buffer.format_finite(x).contains('e'));
            assert_eq!(f32_text(x), spelled_by_digits(x), "bits {bits:#x}");
        }
        // Keys' values, times and slopes are mostly plain: the fast path must see use.
        assert!(plain > 50_000, "{plain} plain");
        for x in [
            1.0f32, -1.0, 30.0, 0.5, 1e-5, 1e-4, 1e15, 1e16, 123456.79, 0.1,
        ] {
            assert_eq!(f32_text(x), spelled_by_digits(x), "{x}");
        }
    }

    #[test]
    fn zmij_spells_as_std_does() {
        let mut bits: u32 = 7;
        let mut ties = 0;
        for _ in 0..1_000_000 {
            bits = bits.wrapping_mul(2_654_435_761).wrapping_add(12345);
            let x = f32::from_bits(bits);
            if !x.is_finite() || x == 0.0 {
                continue;
            }
            let (mine, std) = (f32_text(x), std_spelling(x));
            if mine != std {
                // A tie between two shortest spellings (2951045.25 as `…5.2` or `…5.3`):
                // zmij takes the even digit, std rounds half up; both read back the same.
                let back = |t: &str| t.parse::<f32>().unwrap().to_bits();
                assert_eq!(mine.len(), std.len(), "bits {bits:#x}: {mine} {std}");
                assert_eq!(back(&mine), bits, "bits {bits:#x}: {mine} {std}");
                assert_eq!(back(&std), bits, "bits {bits:#x}: {mine} {std}");
                ties += 1;
            }
        }
        // About 0.2% of all f32 values (1,935 of the million walked).
        assert!(ties < 5000, "{ties} ties");
        for x in [
            1.0f32,
            10.0,
            1e15,
            1e16,
            1e-9,
            1e-10,
            0.1,
            123456.79,
            f32::MIN_POSITIVE,
        ] {
            assert_eq!(f32_text(x), std_spelling(x));
            assert_eq!(f32_text(-x), std_spelling(-x));
        }
    }

    #[test]
    fn every_spelling_reads_back_to_the_same_bits() {
        let mut bits: u32 = 1;
        for _ in 0..200_000 {
            // A multiplicative walk over the whole bit range, NaNs left out.
            bits = bits.wrapping_mul(2_654_435_761).wrapping_add(12345);
            let x = f32::from_bits(bits);
            if x.is_nan() {
                continue;
            }
            let text = f32_text(x);
            let back: f32 = text.replace("Infinity", "inf").parse().unwrap();
            assert_eq!(back.to_bits(), x.to_bits(), "{x:e} -> {text}");
        }
    }
}
