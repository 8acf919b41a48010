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
    /// Unbounded play time in seconds from the start of the span played (the clip, or the
    /// play range); negative when played back past it.
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
    /// The play range (in and out clip times): playback and the wrap mode run inside it, as
    /// if the clip were cut there. Set it with [`Playhead::set_range`].
    pub range: Option<(f32, f32)>,
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
            range: None,
        }
    }

    /// The clip times played: the play range inside the clip, else the clip.
    pub fn span(&self) -> (f32, f32) {
        match self.range {
            Some((a, b)) => {
                let a = a.clamp(self.start, self.stop);
                let b = b.clamp(self.start, self.stop);
                if b > a {
                    (a, b)
                } else {
                    (self.start, self.stop)
                }
            }
            None => (self.start, self.stop),
        }
    }

    /// Sets (or with `None` clears) the play range, keeping the clip time shown where it
    /// lies inside the new span (else moving it to the span's start). A range outside the
    /// clip, empty or reversed plays the whole clip.
    pub fn set_range(&mut self, range: Option<(f32, f32)>) {
        let shown = self.clip_time();
        self.range = range.map(|(a, b)| if a <= b { (a, b) } else { (b, a) });
        let (a, b) = self.span();
        self.seek(if (a..b).contains(&shown) { shown } else { a });
    }

    /// The length played, that of [`Playhead::span`] (0 when empty or reversed).
    pub fn length(&self) -> f32 {
        let (a, b) = self.span();
        (b - a).max(0.0)
    }

    /// The clip time shown now.
    pub fn clip_time(&self) -> f32 {
        let (a, b) = self.span();
        if self.stopped {
            return a;
        }
        self.wrap.map_time(self.time + self.offset(), a, b)
    }

    /// The play time the cycle offset adds: it shifts the whole clip's loop; a range plays
    /// its own span.
    fn offset(&self) -> f32 {
        if self.wrap == WrapMode::Loop && self.range.is_none() {
            self.cycle_offset * self.length()
        } else {
            0.0
        }
    }

    /// The frames a second steps move by: the clip's sample rate, 60 where it has none.
    pub fn rate(&self) -> f32 {
        if self.sample_rate > 0.0 {
            self.sample_rate
        } else {
            60.0
        }
    }

    /// The whole loops a looping clip has played: how many times the unbounded play time has
    /// wrapped past the span's end (negative when played back past its start); 0 for any
    /// other wrap mode or an empty span. Root motion accumulates by it.
    pub fn loops(&self) -> i64 {
        let length = self.length();
        if self.wrap != WrapMode::Loop || self.stopped || length <= 0.0 {
            return 0;
        }
        let loops = ((self.time + self.offset()) / length).floor();
        if loops.is_finite() {
            loops.clamp(-1e9, 1e9) as i64
        } else {
            0
        }
    }

    /// Moves the playhead to clip time `t` (no events fire).
    pub fn seek(&mut self, t: f32) {
        self.time = t - self.span().0 - self.offset();
        self.stopped = false;
    }

    /// Pauses and moves by `frames` frames at the clip's sample rate.
    pub fn step_frames(&mut self, frames: i32) {
        self.paused = true;
        self.stopped = false;
        let rate = self.rate();
        let frame = ((self.time * rate).round() as i32).saturating_add(frames);
        self.time = frame as f32 / rate;
    }

    /// Pauses and moves by `frames` frames of the clip's rate: a whole number lands on a
    /// frame (as [`Playhead::step_frames`]), a fraction moves by that part of a frame (a
    /// sub-frame step, to look between keys).
    pub fn step_by(&mut self, frames: f32) {
        if !frames.is_finite() {
            return;
        }
        if frames.fract() == 0.0 {
            self.step_frames(frames.clamp(i32::MIN as f32, i32::MAX as f32) as i32);
            return;
        }
        self.paused = true;
        self.stopped = false;
        let rate = self.rate();
        self.time += frames / rate;
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
        let (a, b) = self.span();
        let fired = if self.range.is_some() {
            // Only the events inside the range play.
            let inside: Vec<ClipEvent> = self
                .events
                .iter()
                .filter(|e| (a..=b).contains(&e.time))
                .cloned()
                .collect();
            crossed_events(&inside, self.wrap, a, length, before, after)
        } else {
            crossed_events(&self.events, self.wrap, a, length, before, after)
        };
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
            range: None,
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

    /// A 2 s clip at 30 Hz with events at 0.25 s and 1.5 s, wrapped by `wrap`.
    fn two_seconds(wrap: WrapMode) -> Playhead {
        Playhead {
            time: 0.0,
            speed: 1.0,
            paused: false,
            stopped: false,
            wrap,
            start: 0.0,
            stop: 2.0,
            sample_rate: 30.0,
            cycle_offset: 0.25,
            events: Arc::new(vec![event(0.25), event(1.5)]),
            range: None,
        }
    }

    /// The clip times shown over `steps` updates of `dt`, and the events fired.
    fn run(p: &mut Playhead, steps: usize, dt: f32) -> (Vec<f32>, usize) {
        let mut times = Vec::new();
        let mut fired = 0;
        for _ in 0..steps {
            fired += p.advance(dt).len();
            times.push(p.clip_time());
        }
        (times, fired)
    }

    #[test]
    fn a_loop_plays_inside_its_range_and_wraps_at_the_out_marker() {
        let mut p = two_seconds(WrapMode::Loop);
        p.seek(0.7);
        p.set_range(Some((1.25, 0.5)));
        assert_eq!(p.range, Some((0.5, 1.25)), "in and out are put in order");
        assert_eq!(p.clip_time(), 0.7, "the shown time stays inside the range");
        assert_eq!(p.length(), 0.75);
        // 60 updates a second for 3 s: four loops of the range, never outside it.
        let (times, fired) = run(&mut p, 180, 1.0 / 60.0);
        assert!(times.iter().all(|t| (0.5..=1.25).contains(t)), "{times:?}");
        let wraps = times.windows(2).filter(|w| w[1] < w[0]).count();
        assert_eq!(wraps, 4, "{times:?}");
        assert_eq!(fired, 0, "no event lies inside the range");
        // 0.7 + 3 s is 0.7 + 4 · 0.75: back at 0.7.
        assert!((times[179] - 0.7).abs() < 1e-3, "{}", times[179]);
        // Cleared: the whole clip again, with the clip's cycle offset, from where it shows.
        let shown = p.clip_time();
        p.set_range(None);
        assert_eq!(p.clip_time(), shown);
        assert_eq!(p.length(), 2.0);
    }

    #[test]
    fn ping_pong_once_and_clamp_stay_inside_the_range() {
        let mut p = two_seconds(WrapMode::PingPong);
        p.set_range(Some((1.0, 2.0)));
        assert_eq!(p.clip_time(), 1.0, "0 lies outside: the range's start");
        let (times, fired) = run(&mut p, 150, 1.0 / 60.0);
        assert!(times.iter().all(|t| (1.0..=2.0).contains(t)), "{times:?}");
        // Forward to 2 at 1 s, back to 1.5 at 1.5 s, passing the event at 1.5 s twice.
        assert!((times[59] - 2.0).abs() < 1e-3 && (times[89] - 1.5).abs() < 1e-3);
        assert_eq!(fired, 2);

        let mut p = two_seconds(WrapMode::Once);
        p.set_range(Some((0.0, 0.5)));
        let (times, fired) = run(&mut p, 60, 1.0 / 60.0);
        assert!(p.stopped, "once stops at the out marker");
        assert_eq!(*times.last().unwrap(), 0.0, "and shows the in marker");
        assert_eq!(fired, 1, "the event at 0.25 s");

        let mut p = two_seconds(WrapMode::ClampForever);
        p.set_range(Some((0.5, 1.0)));
        let (times, _) = run(&mut p, 120, 1.0 / 60.0);
        assert_eq!(*times.last().unwrap(), 1.0, "held at the out marker");
    }

    #[test]
    fn a_range_outside_the_clip_or_empty_plays_the_whole_clip() {
        let mut p = two_seconds(WrapMode::Loop);
        for range in [(3.0, 4.0), (1.0, 1.0), (-2.0, -1.0)] {
            p.set_range(Some(range));
            assert_eq!(p.span(), (0.0, 2.0), "{range:?}");
        }
        p.set_range(Some((-1.0, 0.5)));
        assert_eq!(p.span(), (0.0, 0.5), "clamped to the clip");
    }
}
