//! The controller panel: the controller list, controller mode with its clock, the parameters
//! as widgets, and per layer the active transition and the state machine as a tree (states
//! playing now marked with their weights; a blend tree state lists its children with their
//! live weights, a 2D tree also plots them). Picking a state jumps into it; picking a leaf
//! clip plays that clip alone.

use bevy_egui::egui;
use egui_plot::{Plot, PlotPoints, Points};

use crate::viewer::controller::{ControllerView, clip_of, parameter_range};
use crate::viewer::scene::{Library, Selection};
use clipscope_core::animator::machine::LayerOutput;
use clipscope_core::animator::model::{BlendTree, Motion, ParameterKind, StateMachine};
use clipscope_core::animator::owned::OwnedAnimator;
use clipscope_core::workspace::ObjectRef;

const PLAYING: egui::Color32 = egui::Color32::from_rgb(120, 220, 120);

/// What the user asked for in the panel, applied after drawing.
enum Pick {
    State(String),
    Clip(ObjectRef),
}

/// The whole panel.
pub fn controller_panel(
    ui: &mut egui::Ui,
    library: &Library,
    view: &mut ControllerView,
    selection: &mut Selection,
) {
    controller_list(ui, library, view);
    super::unity_save::controller_save_section(ui, library, view.index);
    if view.animator.is_none() {
        ui.weak("no controller: pick one above (the rig's own is picked when it is loaded)");
        return;
    }
    ui.horizontal(|ui| {
        ui.checkbox(&mut view.active, "controller mode")
            .on_hover_text("the machine runs with the viewer's clock and the rig plays it");
        if ui.button("restart").clicked() {
            view.restart();
        }
    });
    let mut pick = None;
    egui::ScrollArea::vertical()
        .id_salt("controller")
        .show(ui, |ui| {
            parameters(ui, view);
            let view = &*view;
            let Some(animator) = &view.animator else {
                return;
            };
            for (i, layer) in animator.controller().layers.iter().enumerate() {
                let Some(out) = animator.output().get(i) else {
                    continue;
                };
                ui.separator();
                layer_view(ui, view, i, &layer.state_machine, out, &mut pick);
            }
        });
    match pick {
        Some(Pick::State(path)) => {
            view.play(&path, 0.0);
            view.active = true;
        }
        Some(Pick::Clip(at)) => {
            view.active = false;
            selection.clip = Some(at);
            selection.dirty = true;
        }
        None => {}
    }
}

/// Every controller of the opened files; the picked one is kept for every rig.
fn controller_list(ui: &mut egui::Ui, library: &Library, view: &mut ControllerView) {
    let ws = &library.main;
    let name = |i: usize| {
        let c = &ws.controllers[i];
        match &c.model {
            Ok(_) => c.name.clone(),
            Err(_) => format!("{} (does not decode)", c.name),
        }
    };
    let file = |i: usize| {
        let at = ws.controllers[i].at;
        ws.files
            .get(at.file)
            .map(|f| format!("{}, path id {}", f.location(), at.path_id))
            .unwrap_or_default()
    };
    let shown = view.index.map_or("none".to_string(), name);
    let mut picked = view.index;
    let combo = egui::ComboBox::from_id_salt("controller-list")
        .selected_text(shown)
        .width(ui.available_width().min(260.0))
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut picked, None, "none");
            for i in 0..ws.controllers.len() {
                ui.selectable_value(&mut picked, Some(i), name(i))
                    .on_hover_text(file(i));
            }
        });
    if let Some(i) = view.index {
        combo.response.on_hover_text(file(i));
    }
    if picked != view.index {
        view.pinned = true;
        view.set_controller(ws, picked);
    }
    if let Some(Err(e)) = view
        .index
        .and_then(|i| ws.controllers.get(i))
        .map(|c| &c.model)
    {
        ui.colored_label(egui::Color32::LIGHT_RED, e);
    }
}

/// One widget per parameter: slider (float), drag value (int), checkbox (bool), button
/// (trigger, lit while set).
fn parameters(ui: &mut egui::Ui, view: &mut ControllerView) {
    let Some(animator) = &view.animator else {
        return;
    };
    let params: Vec<(String, ParameterKind, f64)> = animator
        .parameters()
        .into_iter()
        .map(|(n, k, v)| (n.to_string(), k, v))
        .collect();
    if params.is_empty() {
        ui.weak("no parameters");
        return;
    }
    let controller = animator.controller_arc().clone();
    let mut changed = Vec::new();
    egui::Grid::new("parameters").num_columns(2).show(ui, |ui| {
        for (name, kind, value) in params {
            ui.label(&name);
            let new = match kind {
                ParameterKind::Float => {
                    let (lo, hi) = parameter_range(&controller, &name);
                    let mut v = value as f32;
                    let range = lo.min(v)..=hi.max(v);
                    let r = ui.add(egui::Slider::new(&mut v, range));
                    r.changed().then_some(v as f64)
                }
                ParameterKind::Int => {
                    let mut v = value as i32;
                    let r = ui.add(egui::DragValue::new(&mut v));
                    r.changed().then_some(v as f64)
                }
                ParameterKind::Bool => {
                    let mut v = value != 0.0;
                    let r = ui.checkbox(&mut v, "");
                    r.changed().then_some(f64::from(u8::from(v)))
                }
                ParameterKind::Trigger => {
                    let set = value != 0.0;
                    let r = ui
                        .selectable_label(set, if set { "set (waiting)" } else { "set" })
                        .on_hover_text(
                            "a transition that uses it consumes it; click again to reset",
                        );
                    r.clicked().then_some(if set { 0.0 } else { 1.0 })
                }
            };
            if let Some(v) = new {
                changed.push((name, kind, v));
            }
            ui.end_row();
        }
    });
    for (name, kind, v) in changed {
        view.set_parameter(&name, kind, v);
    }
}

/// A layer: weight and mode, the running transition, the state machine tree.
fn layer_view(
    ui: &mut egui::Ui,
    view: &ControllerView,
    index: usize,
    root: &StateMachine,
    out: &LayerOutput,
    pick: &mut Option<Pick>,
) {
    let Some(animator) = &view.animator else {
        return;
    };
    ui.strong(format!(
        "{}  ({}, weight {:.2})",
        out.name,
        out.mode.name(),
        out.weight
    ));
    if let Some(sync) = animator.controller().layers[index].synced_layer {
        ui.weak(format!(
            "synced with layer {sync}: its states, these motions"
        ));
    }
    match &out.transition {
        Some(t) => {
            ui.label(format!("{} → {}", short(&t.from), short(&t.to)));
            ui.add(
                egui::ProgressBar::new(t.progress.clamp(0.0, 1.0) as f32).text(format!(
                    "{:.0} % of {:.3} s",
                    t.progress * 100.0,
                    t.duration
                )),
            );
        }
        None => {
            ui.weak("no transition");
        }
    }
    machine_tree(ui, animator, root, out, pick, 0);
}

/// A state machine: its states (a click jumps into one) and its sub-machines, folded.
fn machine_tree(
    ui: &mut egui::Ui,
    animator: &OwnedAnimator,
    machine: &StateMachine,
    out: &LayerOutput,
    pick: &mut Option<Pick>,
    depth: usize,
) {
    for state in &machine.states {
        let playing = out
            .states
            .iter()
            .find(|s| s.path == state.full_path && !s.frozen);
        let default = machine.default_state.as_deref() == Some(state.full_path.as_str());
        let mut text = egui::RichText::new(format!(
            "{}{}{}",
            if playing.is_some() { "▶ " } else { "" },
            state.name,
            if default { "  (default)" } else { "" }
        ));
        if playing.is_some() {
            text = text.color(PLAYING);
        }
        ui.horizontal(|ui| {
            if ui
                .selectable_label(playing.is_some(), text)
                .on_hover_text("jump into this state")
                .clicked()
            {
                *pick = Some(Pick::State(state.full_path.clone()));
            }
            if let Some(s) = playing {
                ui.weak(format!("w {:.2}  nt {:.3}", s.weight, s.normalized_time));
            }
        });
        if let Some(s) = playing {
            ui.indent(("leaves", &state.full_path), |ui| {
                if let Some(Motion::BlendTree(tree)) = &state.motion {
                    tree_view(ui, animator, tree, &state.full_path);
                }
                for leaf in &s.leaves {
                    let name = leaf.clip.as_deref().unwrap_or("(missing clip)");
                    let label =
                        format!("{name}  {:.3}  t {:.3} s", leaf.tree_weight, leaf.clip_time);
                    let at = clip_of(leaf);
                    ui.horizontal(|ui| {
                        ui.add(
                            egui::ProgressBar::new(leaf.tree_weight.clamp(0.0, 1.0) as f32)
                                .desired_width(60.0),
                        );
                        let r =
                            ui.add_enabled(at.is_some(), egui::Button::selectable(false, label));
                        if r.on_hover_text("play this clip alone").clicked() {
                            *pick = at.map(Pick::Clip);
                        }
                    });
                }
            });
        }
    }
    for sub in &machine.state_machines {
        let active = out
            .states
            .iter()
            .any(|s| s.path.starts_with(&format!("{}.", sub.path)));
        egui::CollapsingHeader::new(format!("{}{}", if active { "▶ " } else { "" }, sub.name))
            .id_salt(("machine", &sub.path, depth))
            .default_open(active)
            .show(ui, |ui| {
                machine_tree(ui, animator, sub, out, pick, depth + 1)
            });
    }
}

/// A blend tree's type and parameters, its children with their live weights, and for a 2D
/// tree a plot of the children's positions and the parameter point.
fn tree_view(ui: &mut egui::Ui, animator: &OwnedAnimator, tree: &BlendTree, id: &str) {
    let weights = animator.tree_weights(tree);
    let value = |p: &Option<String>| p.as_deref().and_then(|p| animator.parameter(p));
    let params = [&tree.parameter, &tree.parameter_y]
        .iter()
        .filter_map(|p| p.as_deref())
        .collect::<Vec<_>>()
        .join(", ");
    ui.weak(format!("{} tree on {params}", tree.kind.name()));
    for (child, w) in tree.children.iter().zip(&weights) {
        let name = match &child.motion {
            Some(Motion::Clip(c)) => c
                .resolved
                .as_ref()
                .map_or_else(|| c.source.describe(), |r| r.name.clone()),
            Some(Motion::BlendTree(t)) => format!("tree {}", t.name),
            None => "(none)".into(),
        };
        let at = if tree.kind.is_2d() {
            format!("({:.2}, {:.2})", child.position[0], child.position[1])
        } else {
            format!("{:.2}", child.threshold)
        };
        ui.monospace(format!("{w:6.3}  {name} @ {at}"));
    }
    if !tree.kind.is_2d() {
        return;
    }
    let q = [
        value(&tree.parameter).unwrap_or(0.0),
        value(&tree.parameter_y).unwrap_or(0.0),
    ];
    let children: Vec<[f64; 2]> = tree
        .children
        .iter()
        .map(|c| [c.position[0] as f64, c.position[1] as f64])
        .collect();
    Plot::new(("tree-plot", id))
        .height(140.0)
        .data_aspect(1.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .show(ui, |plot| {
            plot.points(
                Points::new("children", PlotPoints::from(children))
                    .radius(4.0)
                    .color(egui::Color32::LIGHT_BLUE),
            );
            plot.points(
                Points::new("parameters", PlotPoints::from(vec![q]))
                    .radius(5.0)
                    .color(egui::Color32::from_rgb(255, 70, 90)),
            );
        });
}

/// The last segment of a state path.
fn short(path: &str) -> &str {
    path.rsplit('.').next().unwrap_or(path)
}

/// The timeline in controller mode: pause, speed, the controller's time, and the current
/// state of layer 0 with its normalised time (dragging it jumps there).
pub fn controller_transport(ui: &mut egui::Ui, view: &mut ControllerView) {
    ui.horizontal(|ui| {
        let label = if view.paused { "▶ play" } else { "⏸ pause" };
        if ui.button(label).clicked() {
            view.paused = !view.paused;
        }
        ui.label("speed");
        ui.add(
            egui::DragValue::new(&mut view.speed)
                .speed(0.05)
                .range(0.0..=8.0),
        );
        if let Some(a) = &view.animator {
            ui.monospace(format!("controller {:8.3} s", a.time));
        }
    });
    let Some(animator) = &view.animator else {
        return;
    };
    let Some(state) = animator.output().first().and_then(|l| l.states.first()) else {
        ui.weak("layer 0 plays nothing");
        return;
    };
    let (path, nt) = (state.path.clone(), state.normalized_time);
    let mut fraction = nt - nt.floor();
    ui.horizontal(|ui| {
        ui.label(format!("{}  nt {nt:.3}", short(&path)));
        ui.spacing_mut().slider_width = (ui.available_width() - 16.0).max(100.0);
        let slider = egui::Slider::new(&mut fraction, 0.0..=1.0)
            .show_value(false)
            .trailing_fill(true);
        if ui.add(slider).changed() {
            view.play(&path, nt.floor() + fraction);
        }
    });
}
