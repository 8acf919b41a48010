//! Unity's time-wrapping rules: `Mathf.Repeat`, `Mathf.PingPong` and the legacy clip
//! [`WrapMode`].
//!
//! Everything is computed in `f32`, as Unity does: a time kept in `f64` lands on the other
//! side of a step key often enough to matter (see the "Edge rules settled" section of
//! `unity-semantics.md`).

use std::fmt;
use std::str::FromStr;

/// True when `length` can be wrapped against: finite and strictly positive.
fn usable_length(length: f32) -> bool {
    length.is_finite() && length > 0.0
}

/// Clamps `x` into `[lo, hi]`; NaN goes to `lo`, so a result is always a real number.
fn clamp_to(x: f32, lo: f32, hi: f32) -> f32 {
    if x > hi {
        hi
    } else if x >= lo {
        x
    } else {
        lo
    }
}

/// Unity's `Mathf.Repeat(t, length) = clamp(t - floor(t / length) * length, 0, length)`.
///
/// The result lies in `[0, length]` (it reaches `length` only through `f32` rounding).
/// Unity would answer NaN for a non-finite `t` or a bad length; here a `length` that is not
/// finite and positive, or a non-finite `t`, gives 0, so a caller never has to loop or check.
pub fn repeat(t: f32, length: f32) -> f32 {
    if !usable_length(length) || !t.is_finite() {
        return 0.0;
    }
    clamp_to(t - (t / length).floor() * length, 0.0, length)
}

/// Unity's `Mathf.PingPong(t, length) = length - |Repeat(t, 2 length) - length|`.
///
/// Goes 0 → `length` over `[0, length]`, then back to 0 over `[length, 2 length]`. A
/// `length` that is not finite and positive, or a non-finite `t`, gives 0.
pub fn ping_pong(t: f32, length: f32) -> f32 {
    if !usable_length(length) || !t.is_finite() {
        return 0.0;
    }
    let r = repeat(t, length * 2.0);
    clamp_to(length - (r - length).abs(), 0.0, length)
}

/// Sign of the derivative of [`ping_pong`] at `t`: +1 on the way out, -1 on the way back.
///
/// Used for slopes of ping-ponged curves. At the turning points the outgoing direction
/// (as seen by increasing `t`) wins.
pub(crate) fn ping_pong_direction(t: f32, length: f32) -> f32 {
    if repeat(t, length * 2.0) < length {
        1.0
    } else {
        -1.0
    }
}

/// A legacy clip's wrap mode (`AnimationClip.m_WrapMode`, Unity's `UnityEngine.WrapMode`):
/// what the clip does when the playing state's time runs past its ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum WrapMode {
    /// Stored as 0: "use the default set higher up"; with nothing higher up it plays as
    /// [`WrapMode::Once`].
    #[default]
    Default,
    /// Stored as 1 (Unity's `Clamp` shares the code): the state stops at the end and its time
    /// resets to 0, so the first frame shows.
    Once,
    /// Stored as 2: the clip repeats; at exactly its length it shows the first frame.
    Loop,
    /// Stored as 4: forward then backward, period twice the length.
    PingPong,
    /// Stored as 8: the state never stops; the last frame holds (the first one backwards).
    ClampForever,
}

/// Every mode, in the order of their Unity codes.
const ALL_MODES: [WrapMode; 5] = [
    WrapMode::Default,
    WrapMode::Once,
    WrapMode::Loop,
    WrapMode::PingPong,
    WrapMode::ClampForever,
];

impl WrapMode {
    /// Maps Unity's stored code (0, 1, 2, 4, 8); any other code is `None`.
    pub fn from_unity(code: i32) -> Option<WrapMode> {
        ALL_MODES.into_iter().find(|mode| mode.to_unity() == code)
    }

    /// Unity's stored code for this mode.
    pub fn to_unity(self) -> i32 {
        match self {
            WrapMode::Default => 0,
            WrapMode::Once => 1,
            WrapMode::Loop => 2,
            WrapMode::PingPong => 4,
            WrapMode::ClampForever => 8,
        }
    }

    /// The short name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            WrapMode::Default => "default",
            WrapMode::Once => "once",
            WrapMode::Loop => "loop",
            WrapMode::PingPong => "pingpong",
            WrapMode::ClampForever => "clamp",
        }
    }

    /// The clip time sampled at unbounded play time `t` (seconds from the clip start, may be
    /// negative or huge) for a clip spanning `[start, stop]`.
    ///
    /// With `L = stop - start`:
    /// * `Loop`: `start + Repeat(t, L)`, so `t = L` samples `start`.
    /// * `PingPong`: `start + PingPong(t, L)`: `t = L` samples `stop`, `2L` samples `start`.
    /// * `ClampForever`: `start + clamp(t, 0, L)`.
    /// * `Once` and `Default`: before 0 or from `L` on the state has stopped (and reset), so
    ///   `start`; otherwise `start + t`.
    ///
    /// `L` not finite and positive, or `t` NaN, gives `start`. The result always lies in
    /// `[start, stop]` (an `f32` rounding past `stop` is pulled back to `stop`).
    pub fn map_time(self, t: f32, start: f32, stop: f32) -> f32 {
        let length = stop - start;
        if !usable_length(length) || t.is_nan() {
            return start;
        }
        let offset = match self {
            WrapMode::Loop => repeat(t, length),
            WrapMode::PingPong => ping_pong(t, length),
            WrapMode::ClampForever => clamp_to(t, 0.0, length),
            WrapMode::Once | WrapMode::Default => {
                if (0.0..length).contains(&t) {
                    t
                } else {
                    0.0
                }
            }
        };
        clamp_to(start + offset, start, stop)
    }
}

impl fmt::Display for WrapMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for WrapMode {
    type Err = String;

    /// Parses a mode name, ignoring case and surrounding spaces: the names of
    /// [`WrapMode::name`], plus `clampforever`, `clamp-forever`, `clamp_forever`,
    /// `ping-pong` and `ping_pong`.
    fn from_str(text: &str) -> Result<WrapMode, String> {
        let lowered = text.trim().to_ascii_lowercase();
        let mode = match lowered.as_str() {
            "default" => WrapMode::Default,
            "once" => WrapMode::Once,
            "loop" => WrapMode::Loop,
            "pingpong" | "ping-pong" | "ping_pong" => WrapMode::PingPong,
            "clamp" | "clampforever" | "clamp-forever" | "clamp_forever" => WrapMode::ClampForever,
            _ => {
                return Err(format!(
                    "unknown wrap mode `{text}`: expected one of default, once, loop, \
                     pingpong (or ping-pong), clamp (or clampforever)"
                ));
            }
        };
        Ok(mode)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Unity's `Mathf.Repeat`, written out literally (NaN-propagating clamp as in C#).
    fn unity_repeat(t: f32, length: f32) -> f32 {
        let v = t - (t / length).floor() * length;
        if v < 0.0 {
            0.0
        } else if v > length {
            length
        } else {
            v
        }
    }

    /// Unity's `Mathf.PingPong`, written out literally.
    fn unity_ping_pong(t: f32, length: f32) -> f32 {
        let r = unity_repeat(t, length * 2.0);
        length - (r - length).abs()
    }

    #[test]
    fn repeat_matches_unity_formula() {
        for &length in &[0.5f32, 1.0, 2.5, 1.0 / 3.0, 7.25] {
            for i in -200..=200 {
                let t = i as f32 * 0.173;
                assert_eq!(
                    repeat(t, length),
                    unity_repeat(t, length),
                    "t={t} L={length}"
                );
            }
        }
    }

    #[test]
    fn repeat_exact_values() {
        assert_eq!(repeat(0.0, 2.0), 0.0);
        assert_eq!(repeat(2.0, 2.0), 0.0);
        assert_eq!(repeat(2.5, 2.0), 0.5);
        assert_eq!(repeat(-0.5, 2.0), 1.5);
        assert_eq!(repeat(-2.0, 2.0), 0.0);
        assert_eq!(repeat(7.0, 2.0), 1.0);
    }

    #[test]
    fn ping_pong_matches_unity_formula() {
        for &length in &[0.5f32, 1.0, 2.5, 1.0 / 3.0, 7.25] {
            for i in -200..=200 {
                let t = i as f32 * 0.173;
                assert_eq!(
                    ping_pong(t, length),
                    unity_ping_pong(t, length),
                    "t={t} L={length}"
                );
            }
        }
    }

    #[test]
    fn ping_pong_exact_values() {
        assert_eq!(ping_pong(0.0, 2.0), 0.0);
        assert_eq!(ping_pong(1.5, 2.0), 1.5);
        assert_eq!(ping_pong(2.0, 2.0), 2.0);
        assert_eq!(ping_pong(2.5, 2.0), 1.5);
        assert_eq!(ping_pong(4.0, 2.0), 0.0);
        assert_eq!(ping_pong(-0.5, 2.0), 0.5);
    }

    #[test]
    fn bad_lengths_and_times_give_zero() {
        for &length in &[0.0f32, -1.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            assert_eq!(repeat(1.25, length), 0.0);
            assert_eq!(ping_pong(1.25, length), 0.0);
        }
        for &t in &[f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            assert_eq!(repeat(t, 1.0), 0.0);
            assert_eq!(ping_pong(t, 1.0), 0.0);
        }
        let huge = repeat(1e30, 0.7);
        assert!((0.0..=0.7).contains(&huge));
        let tiny_length = repeat(3e38, 1e-30);
        assert!((0.0..=1e-30).contains(&tiny_length));
    }

    #[test]
    fn ping_pong_direction_follows_the_halves() {
        assert_eq!(ping_pong_direction(0.0, 2.0), 1.0);
        assert_eq!(ping_pong_direction(1.9, 2.0), 1.0);
        assert_eq!(ping_pong_direction(2.0, 2.0), -1.0);
        assert_eq!(ping_pong_direction(3.9, 2.0), -1.0);
        assert_eq!(ping_pong_direction(4.0, 2.0), 1.0);
        assert_eq!(ping_pong_direction(-0.5, 2.0), -1.0);
    }

    #[test]
    fn unity_codes_round_trip() {
        for mode in ALL_MODES {
            assert_eq!(WrapMode::from_unity(mode.to_unity()), Some(mode));
        }
        assert_eq!(WrapMode::from_unity(0), Some(WrapMode::Default));
        assert_eq!(WrapMode::from_unity(1), Some(WrapMode::Once));
        assert_eq!(WrapMode::from_unity(2), Some(WrapMode::Loop));
        assert_eq!(WrapMode::from_unity(4), Some(WrapMode::PingPong));
        assert_eq!(WrapMode::from_unity(8), Some(WrapMode::ClampForever));
        for code in [-1, 3, 5, 6, 7, 9, 16, i32::MAX, i32::MIN] {
            assert_eq!(WrapMode::from_unity(code), None, "code {code}");
        }
    }

    #[test]
    fn names_parse_and_display() {
        for mode in ALL_MODES {
            assert_eq!(mode.name().parse::<WrapMode>(), Ok(mode));
            assert_eq!(mode.to_string(), mode.name());
        }
        assert_eq!("clampforever".parse(), Ok(WrapMode::ClampForever));
        assert_eq!("ping-pong".parse(), Ok(WrapMode::PingPong));
        assert_eq!(" Loop ".parse(), Ok(WrapMode::Loop));
        let err = "bounce".parse::<WrapMode>().unwrap_err();
        assert!(err.contains("bounce") && err.contains("pingpong"), "{err}");
        assert_eq!(WrapMode::default(), WrapMode::Default);
    }

    const START: f32 = 1.0;
    const STOP: f32 = 3.0;
    const L: f32 = STOP - START;

    /// Play times probed for every mode: -0.5L, 0, 0.5L, L, 1.5L, 2L, 100.25L, 1e30, NaN.
    const PROBES: [f32; 9] = [
        -0.5 * L,
        0.0,
        0.5 * L,
        L,
        1.5 * L,
        2.0 * L,
        100.25 * L,
        1e30,
        f32::NAN,
    ];

    fn check_mode(mode: WrapMode, expected: [f32; 8]) {
        for (t, want) in PROBES.iter().zip(expected) {
            assert_eq!(mode.map_time(*t, START, STOP), want, "{mode} at t={t}");
        }
        // NaN always samples the start.
        assert_eq!(mode.map_time(f32::NAN, START, STOP), START, "{mode} at NaN");
    }

    #[test]
    fn map_time_loop() {
        let huge = WrapMode::Loop.map_time(1e30, START, STOP);
        let expected = [2.0, 1.0, 2.0, 1.0, 2.0, 1.0, 1.5, huge];
        check_mode(WrapMode::Loop, expected);
        assert_eq!(huge, START + unity_repeat(1e30, L));
    }

    #[test]
    fn map_time_ping_pong() {
        let huge = WrapMode::PingPong.map_time(1e30, START, STOP);
        let expected = [2.0, 1.0, 2.0, 3.0, 2.0, 1.0, 1.5, huge];
        check_mode(WrapMode::PingPong, expected);
        assert_eq!(huge, START + unity_ping_pong(1e30, L));
    }

    #[test]
    fn map_time_clamp_forever() {
        let expected = [1.0, 1.0, 2.0, 3.0, 3.0, 3.0, 3.0, 3.0];
        check_mode(WrapMode::ClampForever, expected);
        assert_eq!(
            WrapMode::ClampForever.map_time(f32::NEG_INFINITY, START, STOP),
            START
        );
    }

    #[test]
    fn map_time_once_and_default() {
        let expected = [1.0, 1.0, 2.0, 1.0, 1.0, 1.0, 1.0, 1.0];
        check_mode(WrapMode::Once, expected);
        check_mode(WrapMode::Default, expected);
        // Just before the end the clip is still playing.
        let before_end = L - 1e-6;
        assert_eq!(
            WrapMode::Once.map_time(before_end, START, STOP),
            START + before_end
        );
    }

    #[test]
    fn map_time_degenerate_length_gives_start() {
        for mode in ALL_MODES {
            assert_eq!(mode.map_time(0.5, 2.0, 2.0), 2.0);
            assert_eq!(mode.map_time(0.5, 2.0, 1.0), 2.0);
            assert_eq!(mode.map_time(0.5, 0.0, f32::NAN), 0.0);
            assert_eq!(mode.map_time(0.5, 0.0, f32::INFINITY), 0.0);
        }
    }

    fn any_mode() -> impl Strategy<Value = WrapMode> {
        prop::sample::select(ALL_MODES.to_vec())
    }

    fn any_time() -> impl Strategy<Value = f32> {
        prop_oneof![
            -1e4f32..1e4f32,
            prop::num::f32::ANY,
            Just(f32::NAN),
            Just(f32::INFINITY),
            Just(f32::NEG_INFINITY),
        ]
    }

    proptest! {
        #[test]
        fn map_time_stays_in_the_clip(
            mode in any_mode(),
            t in any_time(),
            start in -1e4f32..1e4f32,
            length in 1e-3f32..1e4f32,
        ) {
            let stop = start + length;
            prop_assume!(stop > start);
            let mapped = mode.map_time(t, start, stop);
            prop_assert!(mapped >= start && mapped <= stop, "{mode} t={t} -> {mapped}");
        }

        #[test]
        fn repeat_and_ping_pong_stay_in_range(t in any_time(), length in any_time()) {
            let r = repeat(t, length);
            let p = ping_pong(t, length);
            prop_assert!(r.is_finite() && p.is_finite());
            prop_assert!(r >= 0.0 && p >= 0.0);
            if usable_length(length) {
                prop_assert!(r <= length && p <= length);
            }
        }
    }
}
