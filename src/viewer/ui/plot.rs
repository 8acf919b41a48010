//! The curve view: the plotted track's curves from one length before the clip to two after
//! its start, the part outside the clip drawn as the wrap mode continues it, keys as points,
//! steps as steps, the playhead; clicking or dragging scrubs. With a reference clip pinned,
//! each plotted curve's match in the reference is drawn beside it as a faint ghost line.

use bevy_egui::egui;
use egui_plot::{Line, LineStyle, Plot, PlotPoints, Points, VLine};

use crate::viewer::reference::ReferenceDiff;
use crate::viewer::scene::Selection;
use clipscope_core::clip::ClipData;
use clipscope_core::playhead::Playhead;
use clipscope_core::timeline::{preview_range, wrap_preview};

const COLORS: [egui::Color32; 4] = [
    egui::Color32::from_rgb(240, 90, 90),
    egui::Color32::from_rgb(90, 200, 110),
    egui::Color32::from_rgb(90, 150, 250),
    egui::Color32::from_rgb(220, 200, 80),
];

/// Draws the plot and scrubs on click or drag.
pub fn curve_view(
    ui: &mut egui::Ui,
    playhead: &mut Playhead,
    selection: &Selection,
    clip: &ClipData,
    reference: &ReferenceDiff,
) {
    let (from, to) = preview_range(clip.start, clip.stop);
    let response = Plot::new("curves")
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .include_x(from as f64)
        .include_x(to as f64)
        .show(ui, |plot| {
            for (n, &index) in selection.tracks.iter().enumerate() {
                let Some(curve) = clip.curves.get(index) else {
                    continue;
                };
                let color = COLORS[n % COLORS.len()];
                let name = format!(
                    "{} [{}]",
                    clip.binding_of(index)
                        .map(|b| b.describe())
                        .unwrap_or_default(),
                    curve.component
                );
                for segment in wrap_preview(&curve.curve, playhead.wrap, clip.start, clip.stop, 400)
                {
                    let style = if segment.inside {
                        LineStyle::Solid
                    } else {
                        LineStyle::dashed_loose()
                    };
                    let line = Line::new(name.clone(), PlotPoints::from(segment.points))
                        .color(color)
                        .style(style);
                    plot.line(line);
                }
                ghost_line(plot, reference, index, &name, color);
                let keys: Vec<[f64; 2]> = curve
                    .curve
                    .keys()
                    .iter()
                    .filter(|k| k.time > -1e30)
                    .map(|k| [k.time as f64, k.value as f64])
                    .collect();
                plot.points(
                    Points::new(format!("{name} keys"), PlotPoints::from(keys))
                        .color(color)
                        .radius(3.0),
                );
            }
            plot.vline(VLine::new("clip start", clip.start as f64).color(egui::Color32::DARK_GRAY));
            plot.vline(VLine::new("clip stop", clip.stop as f64).color(egui::Color32::DARK_GRAY));
            plot.vline(
                VLine::new("playhead", playhead.clip_time() as f64)
                    .color(egui::Color32::from_rgb(255, 70, 90)),
            );
            let r = plot.response();
            if r.clicked() || r.dragged() {
                plot.pointer_coordinate()
            } else {
                None
            }
        });
    if let Some(p) = response.inner {
        playhead.seek(p.x as f32);
        playhead.paused = true;
    }
}

/// The reference's curve matched with curve `index`, faint, over the reference's own range
/// and continued by its own wrap mode (dotted outside it).
fn ghost_line(
    plot: &mut egui_plot::PlotUi,
    reference: &ReferenceDiff,
    index: usize,
    name: &str,
    color: egui::Color32,
) {
    let (Some(curve), Some((_, clip))) = (reference.reference_curve(index), &reference.reference)
    else {
        return;
    };
    let ghost = color.gamma_multiply(0.35);
    let label = match reference.curve(index) {
        Some(d) => format!("{name} (reference, max Δ {:.4})", d.max_abs),
        None => format!("{name} (reference)"),
    };
    for segment in wrap_preview(&curve.curve, clip.wrap_mode(), clip.start, clip.stop, 400) {
        let style = if segment.inside {
            LineStyle::Solid
        } else {
            LineStyle::dotted_loose()
        };
        plot.line(
            Line::new(label.clone(), PlotPoints::from(segment.points))
                .color(ghost)
                .width(3.0)
                .style(style),
        );
    }
}
