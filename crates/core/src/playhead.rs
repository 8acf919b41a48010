//! The playhead of a clip, in Unity's terms: an unbounded play time advanced by
//! `speed · dt`, mapped through the wrap mode (once stops and returns to the start, loop
//! repeats, ping-pong runs forward then back, clamp forever holds the end), and the clip
//! events crossed on the way (also across loop and ping-pong turns, and backwards).
//!
//! Plain code: the Bevy plugin and the viewer both drive clips with it.

use std::sync::Arc;

use crate::clip::{ClipData, ClipEvent};
use crate::curve::WrapMode;

/// Most event firings per event and step (a huge time step must not loop for long).
const MAX_FIRINGS: i64 = 64;

/// Where a clip is and how it moves.
#[derive(Clone, Debug, PartialEq)]
pub struct Playhead {
    /// Unbounded play time in seconds from the clip's start (negative when played back past
    /// the start).
    pub time: f32,
    /// Seconds of clip per second; negative plays backwards.
    pub speed: f32,
    pub paused: bool,
    /// Set when a Once clip has run out: it then shows its start until played again.
    pub stopped: bool,
    pub wrap: WrapMode,
    pub start: f32,
    pub stop: f32,
    pub sample_rate: f32,
    /// Mecanim cycle offset (normalized), applied to looping clips.
    pub cycle_offset: f32,
    pub events: Arc<Vec<ClipEvent>>,
}

impl Playhead {
    /// A playhead at the start of `clip`, with the clip's own wrap mode, playing.
    pub fn new(clip: &ClipData) -> Self {
        Playhead {
            time: 0.0,
            speed: 1.0,
            paused: false,
            stopped: false,
            wrap: clip.wrap_mode(),
            start: clip.start,
            stop: clip.stop,
            sample_rate: clip.sample_rate,
            cycle_offset: if clip.loop_time {
                clip.cycle_offset
            } else {
                0.0
            },
            events: Arc::new(clip.events.clone()),
        }
    }

    /// The clip's length, `stop - start` (0 when the range is empty or reversed).
    pub fn length(&self) -> f32 {
        (self.stop - self.start).max(0.0)
    }

    /// The clip time shown now.
    pub fn clip_time(&self) -> f32 {
        if self.stopped {
            return self.start;
        }
        let offset = if self.wrap == WrapMode::Loop {
            self.cycle_offset * self.length()
        } else {
            0.0
        };
        self.wrap
            .map_time(self.time + offset, self.start, self.stop)
    }

    /// Moves the playhead to clip time `t` (no events fire).
    pub fn seek(&mut self, t: f32) {
        self.time = t - self.start;
        self.stopped = false;
    }

    /// Pauses and moves by `frames` frames at the clip's sample rate.
    pub fn step_frames(&mut self, frames: i32) {
        self.paused = true;
        self.stopped = false;
        let rate = if self.sample_rate > 0.0 {
            self.sample_rate
        } else {
            60.0
        };
        let frame = ((self.time * rate).round() as i32).saturating_add(frames);
        self.time = frame as f32 / rate;
    }

    /// Plays from the start.
    pub fn restart(&mut self) {
        self.time = 0.0;
        self.stopped = false;
        self.paused = false;
    }

    /// Advances by `dt` seconds of real time; returns the events crossed, in order.
    pub fn advance(&mut self, dt: f32) -> Vec<ClipEvent> {
        if self.paused || self.stopped || dt == 0.0 || self.speed == 0.0 {
            return Vec::new();
        }
        let before = self.time;
        let mut after = before + dt * self.speed;
        let length = self.length();
        let once = matches!(self.wrap, WrapMode::Once | WrapMode::Default);
        if once && (after >= length || after < 0.0) {
            after = after.clamp(0.0, length);
            self.stopped = true;
        }
        let fired = crossed_events(&self.events, self.wrap, self.start, length, before, after);
        self.time = if self.stopped { 0.0 } else { after };
        fired
    }
}

/// Events whose clip time the unbounded playhead passes going from `from` to `to`: each event
/// fires at every play time that maps onto it (`(from, to]` forwards, `[to, from)` backwards).
pub fn crossed_events(
    events: &[ClipEvent],
    wrap: WrapMode,
    start: f32,
    length: f32,
    from: f32,
    to: f32,
) -> Vec<ClipEvent> {
    let mut fired: Vec<(f32, &ClipEvent)> = Vec::new();
    let forward = to >= from;
    let inside = |t: f32| {
        if forward {
            t > from && t <= to
        } else {
            t >= to && t < from
        }
    };
    for event in events {
        let r = event.time - start;
        let (period, phases): (f32, Vec<f32>) = match wrap {
            WrapMode::Loop if length > 0.0 => (length, vec![r]),
            WrapMode::PingPong if length > 0.0 => (2.0 * length, vec![r, 2.0 * length - r]),
            _ => (0.0, vec![r]),
        };
        for phase in phases {
            if period == 0.0 {
                if inside(phase) {
                    fired.push((phase, event));
                }
                continue;
            }
            let lo = from.min(to);
            let first = ((lo - phase) / period).floor() as i64;
            for k in first..first.saturating_add(MAX_FIRINGS) {
                let t = phase + k as f32 * period;
                if t > from.max(to) {
                    break;
                }
                if inside(t) {
                    fired.push((t, event));
                }
            }
        }
    }
    fired.sort_by(|a, b| {
        if forward {
            a.0.total_cmp(&b.0)
        } else {
            b.0.total_cmp(&a.0)
        }
    });
    fired.dedup_by(|a, b| a.0 == b.0 && std::ptr::eq(a.1, b.1));
    fired.into_iter().map(|(_, e)| e.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(time: f32) -> ClipEvent {
        ClipEvent {
            time,
            function: format!("at{time}"),
            data: String::new(),
            float: 0.0,
            int: 0,
            ..ClipEvent::default()
        }
    }

    #[test]
    fn loop_fires_each_turn_and_backwards() {
        let events = [event(0.25)];
        assert_eq!(
            crossed_events(&events, WrapMode::Loop, 0.0, 1.0, 0.0, 3.0).len(),
            3
        );
        assert_eq!(
            crossed_events(&events, WrapMode::Loop, 0.0, 1.0, 0.3, 1.2).len(),
            0
        );
        assert_eq!(
            crossed_events(&events, WrapMode::Loop, 0.0, 1.0, 1.3, 0.2).len(),
            2
        );
    }

    #[test]
    fn ping_pong_fires_on_the_way_out_and_back() {
        let events = [event(0.25)];
        // 0 → 2L passes 0.25 forward and 1.75 (= 0.25 on the way back).
        assert_eq!(
            crossed_events(&events, WrapMode::PingPong, 0.0, 1.0, 0.0, 2.0).len(),
            2
        );
        assert_eq!(
            crossed_events(&events, WrapMode::PingPong, 0.0, 1.0, 0.5, 1.5).len(),
            0
        );
    }

    #[test]
    fn once_stops_and_returns_to_the_start() {
        let clip_events = Arc::new(vec![event(0.9)]);
        let mut p = Playhead {
            time: 0.0,
            speed: 1.0,
            paused: false,
            stopped: false,
            wrap: WrapMode::Once,
            start: 0.0,
            stop: 1.0,
            sample_rate: 30.0,
            cycle_offset: 0.0,
            events: clip_events,
        };
        assert!(p.advance(0.5).is_empty());
        assert_eq!(p.clip_time(), 0.5);
        assert_eq!(
            p.advance(0.75).len(),
            1,
            "the event before the end still fires"
        );
        assert!(p.stopped);
        assert_eq!(p.clip_time(), 0.0);
        assert!(p.advance(1.0).is_empty());
        p.step_frames(3);
        assert!((p.clip_time() - 0.1).abs() < 1e-6);
    }
}
