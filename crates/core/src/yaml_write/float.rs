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
    // `{:e}` gives the shortest round-trip digits: `-6.3282704e-15`, `1e0`, `3.4028235e38`.
    let sci = format!("{x:e}");
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let (negative, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mantissa),
    };
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    if negative {
        out.push('-');
    }
    if !(PLAIN_LOW..=PLAIN_HIGH).contains(&exponent) {
        out.push_str(mantissa);
        let sign = if exponent < 0 { '-' } else { '+' };
        let _ = write!(out, "e{sign}{:02}", exponent.unsigned_abs());
        return;
    }
    push_plain(out, &digits, exponent);
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
