//! Clip facts that differ between the two sides: length, sample rate, loop, wrap, events.

use serde::Serialize;

use crate::clip::{ClipData, ClipEvent};

/// One side's value of a fact.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum FactValue {
    Number(f64),
    Flag(bool),
    Text(String),
}

/// A fact whose values differ.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FactDiff {
    /// `length`, `sample_rate`, `loop`, `wrap` or `events`.
    pub what: &'static str,
    pub a: FactValue,
    pub b: FactValue,
}

/// The facts of `a` and `b` that differ, in a fixed order.
pub fn fact_differences(a: &ClipData, b: &ClipData) -> Vec<FactDiff> {
    let facts = |c: &ClipData| {
        [
            ("length", FactValue::Number(c.length() as f64)),
            ("sample_rate", FactValue::Number(c.sample_rate as f64)),
            ("loop", FactValue::Flag(c.loop_time)),
            ("wrap", FactValue::Text(c.wrap_mode().name().to_string())),
            ("events", FactValue::Text(describe_events(&c.events))),
        ]
    };
    facts(a)
        .into_iter()
        .zip(facts(b))
        .filter(|((_, x), (_, y))| x != y)
        .map(|((what, a), (_, b))| FactDiff { what, a, b })
        .collect()
}

/// Events as `time function(data, float, int)`, separated by `; ` (empty for none).
fn describe_events(events: &[ClipEvent]) -> String {
    events
        .iter()
        .map(|e| {
            format!(
                "{} {}({:?}, {}, {})",
                e.time, e.function, e.data, e.float, e.int
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}
