//! The timeline: transport buttons, the scrubber, time and frame, speed, wrap mode, and a
//! strip with frame ticks, the selected track's keys and the playhead (click or drag to
//! scrub).

use bevy_egui::egui;

use crate::viewer::scene::Selection;
use clipscope_core::clip::ClipData;
use clipscope_core::curve::WrapMode;
use clipscope_core::playhead::Playhead;
use clipscope_core::timeline::{
    TimelineCommand, apply, frame_at, frame_label, frame_ticks, key_after, key_before, key_marks,
};

const MODES: [WrapMode; 4] = [
    WrapMode::Once,
    WrapMode::Loop,
    WrapMode::PingPong,
    WrapMode::ClampForever,
];

/// Buttons, scrubber, time, step, speed and wrap mode.
pub fn transport(
    ui: &mut egui::Ui,
    playhead: &mut Playhead,
    clip: &ClipData,
    selection: &mut Selection,
) {
    ui.horizontal(|ui| {
        let mut command = None;
        let marks = || key_marks(clip, &selection.tracks);
        if ui.button("⏮").on_hover_text("start (Home)").clicked() {
            command = Some(TimelineCommand::Home);
        }
        if ui
            .button("◀ key")
            .on_hover_text("previous key of the plotted curves (,)")
            .clicked()
        {
            command = key_before(&marks(), playhead.clip_time()).map(TimelineCommand::Seek);
        }
        if ui.button("◀").on_hover_text("step back (Left)").clicked() {
            command = Some(TimelineCommand::Step(-selection.step));
        }
        let label = if playhead.paused || playhead.stopped {
            "▶ play"
        } else {
            "⏸ pause"
        };
        if ui.button(label).on_hover_text("Space").clicked() {
            command = Some(TimelineCommand::TogglePlay);
        }
        if ui
            .button("▶")
            .on_hover_text("step forward (Right)")
            .clicked()
        {
            command = Some(TimelineCommand::Step(selection.step));
        }
        if ui
            .button("key ▶")
            .on_hover_text("next key of the plotted curves (.)")
            .clicked()
        {
            command = key_after(&marks(), playhead.clip_time()).map(TimelineCommand::Seek);
        }
        if ui.button("⏭").on_hover_text("end (End)").clicked() {
            command = Some(TimelineCommand::End);
        }
        if let Some(c) = command {
            apply(playhead, c);
            if matches!(c, TimelineCommand::Seek(_)) {
                playhead.paused = true;
            }
        }
        let t = playhead.clip_time();
        let frames = frame_at(clip.stop, clip.start, clip.sample_rate);
        ui.monospace(format!(
            "{t:7.3} s  frame {:>6}/{frames}",
            frame_label(t, clip.start, clip.sample_rate)
        ));
        ui.label("step");
        ui.add(
            egui::DragValue::new(&mut selection.step)
                .speed(0.05)
                .range(0.05..=100.0),
        )
        .on_hover_text("frames the arrow keys and buttons move (below 1: between frames)");
        ui.label("speed");
        ui.add(
            egui::DragValue::new(&mut playhead.speed)
                .speed(0.05)
                .range(-16.0..=16.0),
        )
        .on_hover_text("[ and ] halve and double it; negative plays backwards");
        let own = clip.wrap_mode();
        egui::ComboBox::from_label("wrap")
            .selected_text(playhead.wrap.to_string())
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut playhead.wrap, own, format!("clip's own ({own})"));
                for mode in MODES {
                    ui.selectable_value(&mut playhead.wrap, mode, mode.to_string());
                }
            });
    });
    let mut t = playhead.clip_time();
    ui.spacing_mut().slider_width = (ui.available_width() - 16.0).max(100.0);
    let range = clip.start..=clip.stop.max(clip.start + 1e-3);
    let slider = ui.add(
        egui::Slider::new(&mut t, range)
            .show_value(false)
            .trailing_fill(true),
    );
    if slider.changed() {
        playhead.seek(t);
        playhead.paused = true;
    }
}

/// Frame ticks, key marks of the plotted track and the playhead; click or drag scrubs.
pub fn ticks_and_keys(
    ui: &mut egui::Ui,
    playhead: &mut Playhead,
    selection: &Selection,
    clip: &ClipData,
) {
    let (rect, response) = ui.allocate_exact_size(
        egui::vec2(ui.available_width(), 22.0),
        egui::Sense::click_and_drag(),
    );
    let length = (clip.stop - clip.start).max(1e-3);
    let x_of = |t: f32| rect.left() + (t - clip.start) / length * rect.width();
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, egui::Color32::from_gray(30));
    let ticks = frame_ticks(
        clip.start,
        clip.stop,
        clip.sample_rate,
        (rect.width() / 4.0) as usize,
    );
    for t in ticks {
        let x = x_of(t);
        painter.line_segment(
            [egui::pos2(x, rect.top()), egui::pos2(x, rect.top() + 5.0)],
            (1.0, egui::Color32::GRAY),
        );
    }
    for t in key_marks(clip, &selection.tracks) {
        let c = egui::pos2(x_of(t), rect.center().y + 3.0);
        painter.add(egui::Shape::convex_polygon(
            vec![
                c + egui::vec2(0.0, -5.0),
                c + egui::vec2(5.0, 0.0),
                c + egui::vec2(0.0, 5.0),
                c + egui::vec2(-5.0, 0.0),
            ],
            egui::Color32::from_rgb(255, 200, 40),
            egui::Stroke::NONE,
        ));
    }
    if playhead.range.is_some() {
        draw_range(&painter, rect, playhead.span(), x_of);
    }
    let x = x_of(playhead.clip_time());
    painter.line_segment(
        [egui::pos2(x, rect.top()), egui::pos2(x, rect.bottom())],
        (2.0, egui::Color32::from_rgb(255, 70, 90)),
    );
    // A drag that starts on an in or out marker moves it; any other click or drag scrubs.
    let id = response.id.with("marker");
    let time_at = |x: f32| clip.start + (x - rect.left()) / rect.width() * length;
    if response.drag_started()
        && let (Some(pos), Some(_)) = (response.interact_pointer_pos(), playhead.range)
    {
        let (a, b) = playhead.span();
        let near = |x: f32| (pos.x - x).abs() <= MARKER_GRAB;
        let marker = if near(x_of(a)) {
            Some(Marker::In)
        } else if near(x_of(b)) {
            Some(Marker::Out)
        } else {
            None
        };
        ui.data_mut(|d| d.insert_temp(id, marker));
    }
    let dragging: Option<Marker> = ui.data(|d| d.get_temp(id)).flatten();
    if let Some(pos) = response.interact_pointer_pos() {
        let t = time_at(pos.x).clamp(clip.start, clip.stop);
        match dragging.filter(|_| response.dragged()) {
            Some(marker) => {
                let frame = 1.0 / clip.sample_rate.max(1.0);
                playhead.set_range(Some(moved_range(playhead.span(), marker, t, frame)));
            }
            None if response.clicked() || response.dragged() => {
                playhead.seek(t);
                playhead.paused = true;
            }
            None => {}
        }
    }
    if response.drag_stopped() {
        ui.data_mut(|d| d.remove::<Option<Marker>>(id));
    }
}

/// How near (points) a drag must start to a range marker to move it.
const MARKER_GRAB: f32 = 6.0;

/// A play range marker.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Marker {
    In,
    Out,
}

/// The play range `(a, b)` with `marker` moved to `t`, kept at least `min` long (the other
/// marker stays).
pub fn moved_range((a, b): (f32, f32), marker: Marker, t: f32, min: f32) -> (f32, f32) {
    match marker {
        Marker::In => (t.min(b - min), b),
        Marker::Out => (a, t.max(a + min)),
    }
}

/// The play range: the clip outside it dimmed, and the in and out markers as green
/// brackets (set with `i` and `o`, cleared with Backspace).
fn draw_range(
    painter: &egui::Painter,
    rect: egui::Rect,
    (a, b): (f32, f32),
    x_of: impl Fn(f32) -> f32,
) {
    let (xa, xb) = (x_of(a), x_of(b));
    let dim = egui::Color32::from_black_alpha(150);
    for (l, r) in [(rect.left(), xa), (xb, rect.right())] {
        if r > l {
            let side = egui::Rect::from_x_y_ranges(l..=r, rect.y_range());
            painter.rect_filled(side, 0.0, dim);
        }
    }
    let green = egui::Color32::from_rgb(80, 220, 120);
    for (x, inward) in [(xa, 5.0), (xb, -5.0)] {
        painter.line_segment(
            [egui::pos2(x, rect.top()), egui::pos2(x, rect.bottom())],
            (2.0, green),
        );
        for y in [rect.top() + 1.0, rect.bottom() - 1.0] {
            painter.line_segment([egui::pos2(x, y), egui::pos2(x + inward, y)], (2.0, green));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dragged_marker_moves_alone_and_never_crosses_the_other() {
        let frame = 1.0 / 30.0;
        assert_eq!(
            moved_range((0.25, 0.75), Marker::In, 0.5, frame),
            (0.5, 0.75)
        );
        assert_eq!(
            moved_range((0.25, 0.75), Marker::Out, 1.0, frame),
            (0.25, 1.0)
        );
        assert_eq!(
            moved_range((0.25, 0.75), Marker::In, 0.9, frame),
            (0.75 - frame, 0.75)
        );
        assert_eq!(
            moved_range((0.25, 0.75), Marker::Out, 0.0, frame),
            (0.25, 0.25 + frame)
        );
    }
}
