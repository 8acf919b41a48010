//! The viewer's timeline logic as plain code: transport commands on a [`Playhead`], frame
//! ticks, key marks, and curve previews that continue past the clip the way its wrap mode
//! plays it.

use crate::clip::ClipData;
use crate::curve::{Curve, CurveShape, WrapMode};
use crate::playhead::Playhead;

/// What a key or button asks of the timeline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimelineCommand {
    TogglePlay,
    /// Pause and move by this many frames.
    StepFrames(i32),
    /// Pause and move by this many frames, a fraction being a sub-frame step.
    Step(f32),
    /// To the clip's start.
    Home,
    /// To the clip's end.
    End,
    /// Double the speed (up to 16×).
    Faster,
    /// Halve the speed (down to 1/16×).
    Slower,
    /// Move to a clip time.
    Seek(f32),
    /// Set the play range's in marker at the clip time shown (the out marker stays, or is
    /// the clip's stop).
    SetIn,
    /// Set the play range's out marker at the clip time shown (the in marker stays, or is
    /// the clip's start).
    SetOut,
    /// Play the whole clip again.
    ClearRange,
}

/// Applies a command.
pub fn apply(playhead: &mut Playhead, command: TimelineCommand) {
    match command {
        TimelineCommand::TogglePlay => {
            if playhead.stopped {
                playhead.restart();
            } else {
                playhead.paused = !playhead.paused;
            }
        }
        TimelineCommand::StepFrames(n) => playhead.step_frames(n),
        TimelineCommand::Step(frames) => playhead.step_by(frames),
        TimelineCommand::Home => playhead.seek(playhead.span().0),
        TimelineCommand::End => {
            // Just before the end: exactly at the end a looping clip shows its start.
            let stop = playhead.span().1;
            let end = if playhead.length() > 0.0 {
                stop.next_down()
            } else {
                stop
            };
            playhead.seek(end);
            playhead.paused = true;
        }
        TimelineCommand::SetIn => {
            let out = playhead.range.map_or(playhead.stop, |r| r.1);
            playhead.set_range(Some((playhead.clip_time(), out)));
        }
        TimelineCommand::SetOut => {
            let t = playhead.clip_time();
            let start = playhead.range.map_or(playhead.start, |r| r.0);
            playhead.set_range(Some((start, t)));
            // The shown time is the out marker's: show it (a looping span would wrap to its
            // start), paused.
            playhead.seek(t.next_down().max(start));
        }
        TimelineCommand::ClearRange => playhead.set_range(None),
        TimelineCommand::Faster => playhead.speed = scale_speed(playhead.speed, 2.0),
        TimelineCommand::Slower => playhead.speed = scale_speed(playhead.speed, 0.5),
        TimelineCommand::Seek(t) => playhead.seek(t),
    }
}

fn scale_speed(speed: f32, factor: f32) -> f32 {
    let magnitude = (speed.abs() * factor).clamp(1.0 / 16.0, 16.0);
    if speed < 0.0 { -magnitude } else { magnitude }
}

/// The frame number shown for a clip time.
pub fn frame_at(t: f32, start: f32, rate: f32) -> i64 {
    if rate > 0.0 {
        ((t - start) * rate).round() as i64
    } else {
        0
    }
}

/// The frame shown for a clip time, as text: a whole frame, or with one decimal between
/// frames (after a sub-frame step).
pub fn frame_label(t: f32, start: f32, rate: f32) -> String {
    if rate <= 0.0 || !rate.is_finite() || !t.is_finite() {
        return "0".into();
    }
    let frame = (t - start) * rate;
    if (frame - frame.round()).abs() < 1e-3 {
        format!("{}", frame.round() as i64)
    } else {
        format!("{frame:.1}")
    }
}

/// The first key time after `t` (by more than a microsecond), if any: `marks` sorted, as
/// [`key_marks`] gives them.
pub fn key_after(marks: &[f32], t: f32) -> Option<f32> {
    marks.iter().copied().find(|&k| k > t + 1e-6)
}

/// The last key time before `t` (by more than a microsecond), if any.
pub fn key_before(marks: &[f32], t: f32) -> Option<f32> {
    marks.iter().rev().copied().find(|&k| k < t - 1e-6)
}

/// Frame tick times from start to stop at `rate`, thinned to at most `max` ticks (every
/// n-th frame).
pub fn frame_ticks(start: f32, stop: f32, rate: f32, max: usize) -> Vec<f32> {
    if rate.is_nan() || rate <= 0.0 || stop.is_nan() || stop < start || max == 0 {
        return Vec::new();
    }
    let frames = ((stop - start) * rate).floor().min(1e6) as usize;
    let every = frames / max + 1;
    (0..=frames)
        .step_by(every)
        .map(|i| start + i as f32 / rate)
        .collect()
}

/// Times of the keys of the curves of a track (the union, sorted, without the -f32::MAX
/// initial key of streamed curves).
pub fn key_marks(clip: &ClipData, curves: &[usize]) -> Vec<f32> {
    let mut times: Vec<f32> = curves
        .iter()
        .filter_map(|&i| clip.curves.get(i))
        .flat_map(|c| c.curve.keys().iter().map(|k| k.time))
        .filter(|t| t.is_finite() && *t > -1e30)
        .collect();
    times.sort_by(f32::total_cmp);
    times.dedup();
    times
}

/// A run of preview points, inside the clip or outside it (where the wrap mode continues it).
#[derive(Clone, Debug, PartialEq)]
pub struct PreviewSegment {
    pub inside: bool,
    pub points: Vec<[f64; 2]>,
}

/// The range a curve preview covers: from one length before the clip to two after its start
/// (`-L` to `2L`).
pub fn preview_range(start: f32, stop: f32) -> (f32, f32) {
    let length = (stop - start).max(1e-3);
    (start - length, start + 2.0 * length)
}

/// Samples `curve` over [`preview_range`] as the player would show it under `wrap`: inside
/// the clip the curve itself, outside it the clip time the wrap mode maps to. Each key time
/// gets a point from either side, so steps draw as steps.
pub fn wrap_preview(
    curve: &Curve,
    wrap: WrapMode,
    start: f32,
    stop: f32,
    samples: usize,
) -> Vec<PreviewSegment> {
    let (from, to) = preview_range(start, stop);
    let mut times: Vec<f32> = (0..=samples.max(2))
        .map(|i| from + (to - from) * i as f32 / samples.max(2) as f32)
        .collect();
    let key_times: Vec<f32> = match &curve.shape {
        CurveShape::Keys(keys) => keys
            .iter()
            .map(|k| k.time)
            .filter(|t| *t > start && *t < stop)
            .collect(),
        _ => Vec::new(),
    };
    times.extend(&key_times);
    times.extend([start, stop]);
    times.sort_by(f32::total_cmp);
    times.dedup();
    let mut segments: Vec<PreviewSegment> = Vec::new();
    let value_at = |t: f32| {
        let clip_t = if t >= start && t <= stop {
            t
        } else {
            wrap.map_time(t - start, start, stop)
        };
        curve.sample(clip_t) as f64
    };
    for t in times {
        let inside = t >= start && t <= stop;
        if segments.last().is_none_or(|s| s.inside != inside) {
            let mut seg = PreviewSegment {
                inside,
                points: Vec::new(),
            };
            // Join the segments where they meet.
            if let Some(prev) = segments.last().and_then(|s| s.points.last()) {
                seg.points.push([t as f64, prev[1]]);
            }
            segments.push(seg);
        }
        let seg = segments.last_mut().expect("pushed above");
        if key_times.contains(&t) {
            seg.points.push([t as f64, value_at(t.next_down())]);
        }
        seg.points.push([t as f64, value_at(t)]);
    }
    segments
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::Key;

    fn ramp() -> Curve {
        Curve::from_keys(vec![
            Key::new(0.0, 0.0, 1.0, 1.0),
            Key::new(1.0, 1.0, 1.0, 1.0),
        ])
    }

    fn value_near(segments: &[PreviewSegment], t: f64) -> f64 {
        let p = segments
            .iter()
            .flat_map(|s| &s.points)
            .min_by(|a, b| (a[0] - t).abs().total_cmp(&(b[0] - t).abs()))
            .unwrap();
        p[1]
    }

    #[test]
    fn preview_continues_the_clip_by_its_wrap_mode() {
        let loop_ = wrap_preview(&ramp(), WrapMode::Loop, 0.0, 1.0, 300);
        assert_eq!(
            loop_.iter().map(|s| s.inside).collect::<Vec<_>>(),
            [false, true, false]
        );
        assert!((value_near(&loop_, -0.25) - 0.75).abs() < 0.02);
        assert!((value_near(&loop_, 1.5) - 0.5).abs() < 0.02);
        let ping = wrap_preview(&ramp(), WrapMode::PingPong, 0.0, 1.0, 300);
        assert!((value_near(&ping, 1.25) - 0.75).abs() < 0.02);
        assert!((value_near(&ping, -0.25) - 0.25).abs() < 0.02);
        let clamp = wrap_preview(&ramp(), WrapMode::ClampForever, 0.0, 1.0, 300);
        assert!((value_near(&clamp, 1.8) - 1.0).abs() < 1e-6);
        let once = wrap_preview(&ramp(), WrapMode::Once, 0.0, 1.0, 300);
        assert!(
            (value_near(&once, 1.8) - 0.0).abs() < 1e-6,
            "a finished once clip shows its start"
        );
        assert_eq!(preview_range(0.0, 1.0), (-1.0, 2.0));
    }

    /// A 2 s legacy looping clip at `rate` frames a second, with no curves.
    fn clip(rate: f32) -> crate::clip::ClipData {
        crate::clip::ClipData {
            name: "c".into(),
            legacy: true,
            keyframed: true,
            start: 0.0,
            stop: 2.0,
            sample_rate: rate,
            wrap_mode_code: 2,
            loop_time: false,
            cycle_offset: 0.0,
            settings: Default::default(),
            counts: Default::default(),
            bindings: vec![],
            curves: vec![],
            tracks: vec![],
            pptr_mapping: vec![],
            events: vec![],
            warnings: vec![],
            summary_only: None,
        }
    }

    #[test]
    fn sub_frame_steps_and_key_jumps() {
        let mut playhead = Playhead::new(&clip(30.0));
        apply(&mut playhead, TimelineCommand::Seek(1.0));
        apply(&mut playhead, TimelineCommand::Step(0.25));
        assert!(playhead.paused);
        assert!((playhead.time - (1.0 + 0.25 / 30.0)).abs() < 1e-6);
        assert_eq!(frame_label(playhead.time, 0.0, 30.0), "30.2");
        // A whole step lands on a frame again.
        apply(&mut playhead, TimelineCommand::Step(1.0));
        assert!((playhead.time - 31.0 / 30.0).abs() < 1e-6);
        assert_eq!(frame_label(playhead.time, 0.0, 30.0), "31");
        apply(&mut playhead, TimelineCommand::Step(-0.5));
        assert!((playhead.time - 30.5 / 30.0).abs() < 1e-6);
        apply(&mut playhead, TimelineCommand::Step(f32::NAN));
        assert!((playhead.time - 30.5 / 30.0).abs() < 1e-6);

        let marks = [0.0, 0.5, 1.0, 2.0];
        assert_eq!(key_after(&marks, 0.5), Some(1.0));
        assert_eq!(key_after(&marks, 0.4), Some(0.5));
        assert_eq!(key_after(&marks, 2.0), None);
        assert_eq!(key_before(&marks, 0.5), Some(0.0));
        assert_eq!(key_before(&marks, 1.7), Some(1.0));
        assert_eq!(key_before(&marks, 0.0), None);
    }

    #[test]
    fn steps_draw_as_vertical_jumps() {
        let step = Curve::from_keys(vec![
            Key::step(0.0, 0.0),
            Key::step(0.5, 2.0),
            Key::new(1.0, 2.0, 0.0, 0.0),
        ]);
        let segs = wrap_preview(&step, WrapMode::ClampForever, 0.0, 1.0, 10);
        let inside = &segs.iter().find(|s| s.inside).unwrap().points;
        let at: Vec<&[f64; 2]> = inside.iter().filter(|p| p[0] == 0.5).collect();
        assert_eq!(at.len(), 2);
        assert_eq!((at[0][1], at[1][1]), (0.0, 2.0));
    }

    #[test]
    fn transport_commands() {
        let clip = clip(10.0);
        let mut p = Playhead::new(&clip);
        apply(&mut p, TimelineCommand::StepFrames(3));
        assert!(p.paused && (p.clip_time() - 0.3).abs() < 1e-6);
        apply(&mut p, TimelineCommand::End);
        assert!(p.clip_time() < 2.0 && p.clip_time() > 1.99);
        apply(&mut p, TimelineCommand::Home);
        assert_eq!(p.clip_time(), 0.0);
        for _ in 0..10 {
            apply(&mut p, TimelineCommand::Faster);
        }
        assert_eq!(p.speed, 16.0);
        p.speed = -1.0;
        apply(&mut p, TimelineCommand::Slower);
        assert_eq!(p.speed, -0.5);
        apply(&mut p, TimelineCommand::TogglePlay);
        assert!(!p.paused);
        assert_eq!(frame_at(0.35, 0.0, 10.0), 4);
        assert_eq!(frame_ticks(0.0, 2.0, 10.0, 100).len(), 21);
        assert_eq!(frame_ticks(0.0, 2.0, 10.0, 5).len(), 5);

        // In at frame 5, out at frame 15: home and end go to the markers.
        p.paused = true;
        apply(&mut p, TimelineCommand::Seek(0.5));
        apply(&mut p, TimelineCommand::SetIn);
        assert_eq!(p.range, Some((0.5, 2.0)));
        apply(&mut p, TimelineCommand::Seek(1.5));
        apply(&mut p, TimelineCommand::SetOut);
        assert_eq!(p.range, Some((0.5, 1.5)));
        assert!(p.clip_time() < 1.5 && p.clip_time() > 1.49);
        apply(&mut p, TimelineCommand::Home);
        assert_eq!(p.clip_time(), 0.5);
        apply(&mut p, TimelineCommand::End);
        assert!(p.clip_time() < 1.5 && p.clip_time() > 1.49);
        apply(&mut p, TimelineCommand::ClearRange);
        assert_eq!((p.range, p.span()), (None, (0.0, 2.0)));
    }
}
