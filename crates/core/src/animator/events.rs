//! Clip events (`m_Events`) fired by a playing controller: between two updates' outputs,
//! every leaf clip whose weight is above 0 fires the events its clip time passed, with the
//! leaf's weight (as Unity's Animator calls a clip's events from every clip that plays,
//! each with its weight in `AnimationEvent.animatorClipInfo`).
//!
//! A leaf is followed from one output to the next by its layer, its state entry (path and
//! which entry of that path) and its place in the state's leaves. Its clip time is unbounded
//! (the leaf's normalised phase times the clip's length): looping clips fire an event once
//! per loop, others once. Frozen entries do not move and fire nothing. A leaf seen for the
//! first time, or whose time jumped against its state's speed (a state entered again),
//! starts from where it is, and the events at exactly that time fire too: on that update
//! when the leaf already has weight, else on the first update that gives it weight (a
//! transition's destination starts at weight 0). So an event at a state's start (t = 0)
//! fires once when the state is entered, as in Unity; seed the tracker with the output
//! before the first update so that the entry state's start counts.

use std::collections::HashMap;

use super::machine::LayerOutput;
use crate::clip::{ClipData, ClipEvent};
use crate::curve::WrapMode;
use crate::playhead::crossed_events;

/// One event fired by one leaf.
#[derive(Clone, Debug, PartialEq)]
pub struct FiredEvent {
    /// Index of the layer.
    pub layer: usize,
    /// Full path of the state whose leaf fired it.
    pub state: String,
    /// The clip's name.
    pub clip: String,
    /// The leaf's weight in its layer (state weight × blend weight).
    pub weight: f64,
    pub event: ClipEvent,
}

/// (layer, state path, which entry of that path, leaf index).
type Key = (usize, String, usize, usize);

/// Where a leaf was at the last update.
#[derive(Clone, Copy, Debug)]
struct Seen {
    /// Unbounded clip time.
    time: f32,
    /// The events at exactly `time` have not fired yet (the leaf started there with no
    /// weight).
    inclusive: bool,
}

/// The last clip time of every leaf seen.
#[derive(Clone, Debug, Default)]
pub struct EventTracker {
    last: HashMap<Key, Seen>,
}

impl EventTracker {
    /// The events fired since the last call, in layer, state and leaf order; `clip` gives
    /// a leaf's clip data by (file index, path id).
    pub fn update<'a>(
        &mut self,
        layers: &[LayerOutput],
        clip: &dyn Fn(usize, i64) -> Option<&'a ClipData>,
    ) -> Vec<FiredEvent> {
        let mut seen = HashMap::new();
        let mut fired = Vec::new();
        for (l, layer) in layers.iter().enumerate() {
            let mut occurrences: HashMap<&str, usize> = HashMap::new();
            for s in &layer.states {
                let n = occurrences.entry(s.path.as_str()).or_default();
                let entry = *n;
                *n += 1;
                if s.frozen {
                    continue;
                }
                for (i, leaf) in s.leaves.iter().enumerate() {
                    let (Some(file), Some(path_id)) = (leaf.file, leaf.path_id) else {
                        continue;
                    };
                    let Some(data) = clip(file, path_id) else {
                        continue;
                    };
                    if data.events.is_empty() {
                        continue;
                    }
                    let length = (data.stop - data.start).max(0.0);
                    let now = (leaf.phase as f32) * length;
                    let key = (l, s.path.clone(), entry, i);
                    let before = self.last.get(&key).copied();
                    let weighted = leaf.weight > 0.0;
                    let moved = |b: &Seen| {
                        if s.speed >= 0.0 {
                            now >= b.time
                        } else {
                            now <= b.time
                        }
                    };
                    let events: Vec<ClipEvent> = match before.filter(moved) {
                        // Entered (or entered again): it starts here.
                        None => {
                            seen.insert(
                                key,
                                Seen {
                                    time: now,
                                    inclusive: !weighted,
                                },
                            );
                            if weighted {
                                at_time(data, length, now)
                            } else {
                                Vec::new()
                            }
                        }
                        Some(b) => {
                            let still = b.inclusive && now == b.time;
                            seen.insert(
                                key,
                                Seen {
                                    time: now,
                                    inclusive: still && !weighted,
                                },
                            );
                            if !weighted {
                                Vec::new()
                            } else if b.inclusive {
                                let mut e = at_time(data, length, b.time);
                                if now != b.time {
                                    e.extend(crossing(data, length, b.time, now));
                                }
                                e
                            } else {
                                crossing(data, length, b.time, now)
                            }
                        }
                    };
                    for event in events {
                        fired.push(FiredEvent {
                            layer: l,
                            state: s.path.clone(),
                            clip: data.name.clone(),
                            weight: leaf.weight,
                            event,
                        });
                    }
                }
            }
        }
        self.last = seen;
        fired
    }
}

/// The events of `data` at exactly unbounded clip time `t` (seconds from the clip's start):
/// at every loop's copy of `t` for a looping clip, at `t` held in the clip's span otherwise.
fn at_time(data: &ClipData, length: f32, t: f32) -> Vec<ClipEvent> {
    let t = if data.loop_time && length > 0.0 {
        t.rem_euclid(length)
    } else {
        t.clamp(0.0, length)
    };
    data.events
        .iter()
        .filter(|e| {
            let r = e.time - data.start;
            r == t || (data.loop_time && length > 0.0 && r == t + length)
        })
        .cloned()
        .collect()
}

/// The events of `data` between unbounded clip times `from` and `to` (seconds from the
/// clip's start): every loop for a looping clip, the clip's span once otherwise.
fn crossing(data: &ClipData, length: f32, from: f32, to: f32) -> Vec<ClipEvent> {
    if data.loop_time {
        crossed_events(&data.events, WrapMode::Loop, data.start, length, from, to)
    } else {
        let (from, to) = (from.clamp(0.0, length), to.clamp(0.0, length));
        crossed_events(&data.events, WrapMode::Once, data.start, length, from, to)
    }
}
