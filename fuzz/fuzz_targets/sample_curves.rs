//! Sampling decoded curves at arbitrary times (NaN, infinities, huge values) under every wrap
//! mode must return a value, never panic or loop. The input is a streamed block followed by
//! the times to sample at.
#![no_main]

use clipscope_core::WrapMode;
use clipscope_core::clip::streamed::{ValueKind, decode};
use clipscope_core::curve::Curve;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let words: Vec<u32> = data
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let (block, times) = words.split_at(words.len() * 3 / 4);
    let Ok(curves) = decode(block, 4, |i| {
        if i == 3 {
            ValueKind::Discrete
        } else {
            ValueKind::Cubic
        }
    }) else {
        return;
    };
    let modes = [
        WrapMode::Once,
        WrapMode::Loop,
        WrapMode::PingPong,
        WrapMode::ClampForever,
    ];
    for keys in curves.curves {
        let curve = Curve::from_keys(keys);
        for &t in times {
            let t = f32::from_bits(t);
            let _ = curve.sample(t) + curve.slope(t);
            for mode in modes {
                let _ = curve.sample(mode.map_time(t, 0.0, 1.0));
            }
        }
    }
});
