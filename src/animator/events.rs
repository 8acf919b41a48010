//! Clip events (`m_Events`) fired by a playing controller: between two updates' outputs,
//! every leaf clip whose weight is above 0 fires the events its clip time passed, with the
//! leaf's weight (as Unity's Animator calls a clip's events from every clip that plays,
//! each with its weight in `AnimationEvent.animatorClipInfo`).
//!
//! A leaf is followed from one output to the next by its layer, its state entry (path and
//! which entry of that path) and its place in the state's leaves. Its clip time is unbounded
//! (the leaf's normalised phase times the clip's length): looping clips fire an event once
//! per loop, others once. Frozen entries do not move and fire nothing; a leaf seen for the
//! first time, or whose time jumped against its state's speed (a state entered again),
//! starts from where it is.

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

/// The last clip time of every leaf seen.
#[derive(Clone, Debug, Default)]
pub struct EventTracker {
    last: HashMap<Key, f32>,
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
                    let length = (data.stop - data.start).max(0.0);
                    let now = (leaf.phase as f32) * length;
                    let key = (l, s.path.clone(), entry, i);
                    let before = self.last.get(&key).copied();
                    seen.insert(key, now);
                    let Some(before) = before else { continue };
                    let jumped = if s.speed >= 0.0 {
                        now < before
                    } else {
                        now > before
                    };
                    if jumped || leaf.weight <= 0.0 || data.events.is_empty() {
                        continue;
                    }
                    for event in crossing(data, length, before, now) {
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
