//! The rig panel: the rig list, joint tree, the selected joint's animated properties, the
//! glTF export, unmatched bindings, clip facts, and the comparison with a pinned reference
//! clip. (The clip list is [`super::clips`].)

use bevy::prelude::*;
use bevy_egui::egui;

use crate::viewer::clip_index::ClipIndex;
use crate::viewer::reference::ReferenceDiff;
use crate::viewer::root_motion::RootMotionMode;
use crate::viewer::scene::{Library, SceneState, Selection};
use crate::viewer::ui::export::{ExportPanel, export_section};
use clipscope_bevy::UnityPlayback;
use clipscope_core::clip::ClipData;
use clipscope_core::rig::Skeleton;

/// The rig panel.
pub fn rig_panel(
    ui: &mut egui::Ui,
    library: Option<(&Library, &ClipIndex)>,
    scene: &SceneState,
    selection: &mut Selection,
    playbacks: &Query<&mut UnityPlayback>,
    reference: &ReferenceDiff,
    export: &mut ExportPanel,
) {
    let (Some(skeleton), Some(clip)) = (&scene.skeleton, &scene.clip) else {
        ui.label("no clip selected");
        return;
    };
    ui.heading(format!("Rig: {}", scene.rig_name));
    if let Some((library, _)) = library {
        rig_list(ui, library, scene, selection);
    }
    ui.horizontal(|ui| {
        ui.checkbox(&mut selection.labels, "names");
        ui.checkbox(&mut selection.meshes, "meshes");
        ui.checkbox(&mut selection.skeleton, "skeleton");
    });
    root_motion_choice(ui, selection);
    ui.horizontal(|ui| {
        let mut markers = selection.markers_shown(selection.meshes && scene.has_meshes);
        if ui.checkbox(&mut markers, "joints").changed() {
            selection.joint_markers = Some(markers);
        }
        ui.add_enabled(
            markers,
            egui::Slider::new(&mut selection.marker_size, 0.25..=4.0)
                .logarithmic(true)
                .text("size"),
        );
    });
    ui.horizontal(|ui| {
        ui.label("onion");
        ui.add(egui::DragValue::new(&mut selection.onion).range(0..=10))
            .on_hover_text("poses drawn before (red) and after (blue) the playhead");
        ui.label("every");
        ui.add(egui::DragValue::new(&mut selection.onion_step).range(1..=120));
        ui.label("frames");
    });
    ui.horizontal(|ui| {
        ui.checkbox(&mut selection.motion_path, "path")
            .on_hover_text("the selected joint's path over the clip, a dot per frame");
        ui.checkbox(&mut selection.end_paths, "ends")
            .on_hover_text("the paths of the head, hands and feet");
        ui.checkbox(&mut selection.trajectory, "trajectory")
            .on_hover_text("the body's root motion on the ground, with the way it faces");
        ui.checkbox(&mut selection.ground, "ground")
            .on_hover_text("a shadow, and a marker under each foot: bright while it touches");
    });
    ui.checkbox(&mut selection.show_inactive, "show inactive objects")
        .on_hover_text("inactive GameObjects and disabled renderers, which Unity does not draw");
    if scene.humanoid.is_some() {
        ui.horizontal(|ui| {
            ui.label("humanoid:");
            mirror_checkbox(ui, clip, selection);
            ui.checkbox(&mut selection.goals, "IK goals")
                .on_hover_text("where the clip puts the feet and hands (not solved)");
            ui.checkbox(&mut selection.body, "body")
                .on_hover_text("the body position (centre of mass) and orientation");
        });
    }
    let t = scene
        .root
        .and_then(|r| playbacks.get(r).ok())
        .map_or(clip.start, |p| p.playhead.clip_time());
    egui::ScrollArea::vertical()
        .id_salt("rig")
        .max_height(ui.available_height() * 0.45)
        .show(ui, |ui| {
            joint_tree(ui, skeleton, 0, selection);
        });
    ui.separator();
    if let Some(index) = selection.joint.filter(|&i| i < skeleton.joints.len()) {
        joint_properties(ui, skeleton, index, clip, t, selection, reference);
    }
    if reference.diff.is_some() {
        ui.separator();
        reference_view(ui, skeleton, clip, reference, selection);
    }
    ui.separator();
    export_section(ui, library, scene, selection, export);
    ui.separator();
    unmatched(ui, scene);
    ui.separator();
    clip_facts(ui, clip);
    if let Some(report) = &scene.report {
        ui.separator();
        check_view(ui, report, skeleton, clip, selection);
    }
}

/// Every rig the clip can play on: picking one plays the clip (and the clips selected after
/// it) there; a humanoid clip plays on any humanoid rig (retargeted).
fn rig_list(ui: &mut egui::Ui, library: &Library, scene: &SceneState, selection: &mut Selection) {
    let rigs = &library.main.rigs;
    let label = |i: usize| {
        let rig = &rigs[i];
        let kind = if rig.humanoid.is_some() {
            "humanoid"
        } else {
            "generic"
        };
        format!(
            "{}  ({kind}, {} joints)",
            rig.name,
            rig.skeleton.joints.len()
        )
    };
    let shown = match selection.rig.filter(|&i| i < rigs.len()) {
        Some(i) => label(i),
        None => format!("automatic: {}", scene.rig_name),
    };
    let mut picked = selection.rig;
    egui::ComboBox::from_label("plays on")
        .selected_text(shown)
        .width(ui.available_width() * 0.7)
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut picked, None, "automatic (as check picks)");
            for i in 0..rigs.len() {
                ui.selectable_value(&mut picked, Some(i), label(i));
            }
        });
    if picked != selection.rig {
        selection.rig = picked;
        selection.joint = None;
        selection.dirty = true;
        selection.scroll_to_clip = true;
    }
}

/// The clip's check report: problems first (seams and steps above the thresholds,
/// non-finite values, binding problems), then the notes folded. Clicking a seam or step
/// jumps the playhead to it, selects its joint and plots its curve.
fn check_view(
    ui: &mut egui::Ui,
    report: &clipscope_core::check::ClipReport,
    skeleton: &Skeleton,
    clip: &ClipData,
    selection: &mut Selection,
) {
    use clipscope_core::check::Severity;
    let title = match (report.problems, report.notes) {
        (0, 0) => "Check: no problems".to_string(),
        (p, n) => format!("Check: {p} problems, {n} notes"),
    };
    egui::CollapsingHeader::new(title)
        .id_salt("check")
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("check-scroll")
                .max_height(220.0)
                .show(ui, |ui| {
                    let red = egui::Color32::LIGHT_RED;
                    check_entries(
                        ui,
                        report,
                        Severity::Problem,
                        Some(red),
                        skeleton,
                        clip,
                        selection,
                    );
                    for n in &report.non_finite {
                        ui.colored_label(
                            red,
                            format!(
                                "{} [{}]: {} non-finite ({})",
                                n.binding, n.component, n.count, n.value
                            ),
                        );
                    }
                    if report.keys_past_curve_count > 0 {
                        ui.colored_label(
                            red,
                            format!("{} keys past the curve count", report.keys_past_curve_count),
                        );
                    }
                    for d in &report.duplicate_bindings {
                        ui.colored_label(
                            egui::Color32::YELLOW,
                            format!("duplicate binding ×{}: {}", d.count, d.binding),
                        );
                    }
                    if report.notes > 0 {
                        egui::CollapsingHeader::new(format!("{} notes", report.notes))
                            .id_salt("check-notes")
                            .default_open(false)
                            .show(ui, |ui| {
                                check_entries(
                                    ui,
                                    report,
                                    Severity::Note,
                                    None,
                                    skeleton,
                                    clip,
                                    selection,
                                );
                            });
                    }
                });
        });
}

/// The seams and steps of one severity, each a button to its time and joint.
fn check_entries(
    ui: &mut egui::Ui,
    report: &clipscope_core::check::ClipReport,
    severity: clipscope_core::check::Severity,
    colour: Option<egui::Color32>,
    skeleton: &Skeleton,
    clip: &ClipData,
    selection: &mut Selection,
) {
    let label = |text: String| match colour {
        Some(c) => egui::RichText::new(text).color(c),
        None => egui::RichText::new(text),
    };
    for s in report.seams.iter().filter(|s| s.severity == severity) {
        let at = match s.seam {
            clipscope_core::check::Seam::PingPongStart => clip.start,
            _ => clip.stop,
        };
        let text = format!(
            "seam {:?}: {} jumps {}",
            s.seam,
            s.binding,
            jump_text(s.measure, s.jump, s.slope_jump)
        );
        if ui.selectable_label(false, label(text)).clicked() {
            go_to(selection, skeleton, clip, &s.joint, s.curve, at);
        }
    }
    for st in report.steps.iter().filter(|s| s.severity == severity) {
        let text = format!(
            "step at {:.3} s: {} jumps {}",
            st.at,
            st.binding,
            jump_text(st.measure, st.jump, st.slope_jump)
        );
        if ui.selectable_label(false, label(text)).clicked() {
            go_to(selection, skeleton, clip, &st.joint, st.curve, st.at);
        }
    }
}

/// Jumps the playhead to `t` (just inside the clip), selects the joint named `joint` (a path;
/// float curves name their binding, whose path part is tried) and plots `curve`.
fn go_to(
    selection: &mut Selection,
    skeleton: &Skeleton,
    clip: &ClipData,
    joint: &str,
    curve: usize,
    t: f32,
) {
    let path = joint.split(": ").next().unwrap_or(joint);
    let path = if path == "(root)" { "" } else { path };
    if let Some(j) = skeleton.joints.iter().position(|j| j.path == path) {
        selection.joint = Some(j);
    }
    selection.tracks = clip
        .tracks
        .iter()
        .find(|track| track.curves.contains(&curve))
        .map_or_else(|| vec![curve], |track| track.curves.clone());
    selection.seek = Some(t.clamp(clip.start, clip.stop));
}

/// A measured jump in its unit.
fn jump_text(measure: clipscope_core::check::Measure, jump: f32, slope: f32) -> String {
    use clipscope_core::check::Measure;
    match measure {
        Measure::Rotation => format!("{jump:.2}° (slope {slope:.0}°/s)"),
        Measure::Position => format!(
            "{:.2}% of the rig (slope {:.0}%/s)",
            jump * 100.0,
            slope * 100.0
        ),
        _ => format!("{:.2}% (slope {:.0}%/s)", jump * 100.0, slope * 100.0),
    }
}

fn joint_tree(ui: &mut egui::Ui, skeleton: &Skeleton, index: usize, selection: &mut Selection) {
    let joint = &skeleton.joints[index];
    let children: Vec<usize> = (0..skeleton.joints.len())
        .filter(|&c| skeleton.joints[c].parent == Some(index))
        .collect();
    let name = if joint.name.is_empty() {
        "(root)".to_string()
    } else {
        joint.name.clone()
    };
    let selected = selection.joint == Some(index);
    if children.is_empty() {
        if ui.selectable_label(selected, name).clicked() {
            selection.joint = Some(index);
        }
        return;
    }
    let id = ui.make_persistent_id(("joint", index));
    egui::collapsing_header::CollapsingState::load_with_default_open(ui.ctx(), id, true)
        .show_header(ui, |ui| {
            if ui.selectable_label(selected, name).clicked() {
                selection.joint = Some(index);
            }
        })
        .body(|ui| {
            for c in children {
                joint_tree(ui, skeleton, c, selection);
            }
        });
}

/// The selected joint's animated tracks with their current values; clicking one plots it.
fn joint_properties(
    ui: &mut egui::Ui,
    skeleton: &Skeleton,
    index: usize,
    clip: &ClipData,
    t: f32,
    selection: &mut Selection,
    reference: &ReferenceDiff,
) {
    let joint = &skeleton.joints[index];
    ui.label(format!(
        "{}  (path {:?}, hash {:#010x})",
        joint.name, joint.path, joint.path_hash
    ));
    let tracks: Vec<_> = clip
        .tracks
        .iter()
        .filter(|tr| clip.bindings[tr.binding].path == joint.path_hash)
        .collect();
    if tracks.is_empty() {
        ui.label("not animated by this clip");
    }
    for track in tracks {
        let binding = &clip.bindings[track.binding];
        let values: Vec<String> = track
            .curves
            .iter()
            .map(|&i| format!("{:.4}", clip.curves[i].curve.sample(t)))
            .collect();
        let plotted = selection.tracks == track.curves;
        let mut text = format!("{}  [{}]", binding.describe(), values.join(", "));
        if let Some(d) = reference.track(track) {
            text.push_str(&format!("  {d}"));
        }
        if ui
            .selectable_label(plotted, text)
            .on_hover_text("plot this track")
            .clicked()
        {
            selection.tracks = track.curves.clone();
        }
    }
}

fn unmatched(ui: &mut egui::Ui, scene: &SceneState) {
    if scene.unmatched.is_empty() {
        ui.label("every binding matches a joint");
        return;
    }
    egui::CollapsingHeader::new(format!("{} unmatched bindings", scene.unmatched.len())).show(
        ui,
        |ui| {
            for u in &scene.unmatched {
                ui.label(format!(
                    "{:#010x}  {}",
                    u.path_hash,
                    u.name.as_deref().unwrap_or("(unknown path)")
                ));
            }
        },
    );
}

/// Mirrors the shown humanoid clip: ticked as its own `m_Mirror` says until the user flips it.
fn mirror_checkbox(ui: &mut egui::Ui, clip: &ClipData, selection: &mut Selection) {
    let own = clip.settings.mirror;
    let mut on = selection.mirror_mode().applies(own);
    let hover = format!(
        "left and right swapped, as Unity's Mirror plays it; the clip's own flag (m_Mirror) is {}",
        if own { "on" } else { "off" }
    );
    if ui
        .checkbox(&mut on, "mirror")
        .on_hover_text(hover)
        .changed()
    {
        selection.mirror = selection.clip.filter(|_| on != own).map(|at| (at, on));
    }
}

/// The clip's Unity settings beyond its range and loop: mirror, and the ones not applied.
fn settings_line(clip: &ClipData) -> Option<String> {
    let others = clip.settings.not_applied(clip.cycle_offset);
    let mirror = clip
        .settings
        .mirror
        .then_some("Mirror on (applied to humanoid clips)");
    let others = (!others.is_empty()).then(|| format!("{} (not applied)", others.join(", ")));
    match (mirror, others) {
        (None, None) => None,
        (Some(m), None) => Some(m.to_string()),
        (None, Some(o)) => Some(o),
        (Some(m), Some(o)) => Some(format!("{m}; {o}")),
    }
}

fn clip_facts(ui: &mut egui::Ui, clip: &ClipData) {
    ui.label(format!(
        "{}: {} clip, {:.3} s ({:.3}–{:.3}) at {} fps, wrap {}",
        clip.name,
        if clip.legacy { "legacy" } else { "Mecanim" },
        clip.length(),
        clip.start,
        clip.stop,
        clip.sample_rate,
        clip.wrap_mode()
    ));
    if !clip.keyframed {
        ui.label(format!(
            "curves: {} streamed, {} dense, {} constant",
            clip.counts.streamed, clip.counts.dense, clip.counts.constant
        ));
    }
    ui.label(format!(
        "{} bindings, {} events",
        clip.bindings.len(),
        clip.events.len()
    ));
    if let Some(line) = settings_line(clip) {
        ui.label(format!("Unity settings: {line}")).on_hover_text(
            "what the importer set; Unity applies those marked not applied, clipscope does not",
        );
    }
    for w in &clip.warnings {
        ui.colored_label(egui::Color32::YELLOW, w);
    }
}

/// Every track of the shown clip with its largest difference from the reference, largest
/// first; clicking one plots it (with the reference's ghost line).
fn reference_view(
    ui: &mut egui::Ui,
    skeleton: &Skeleton,
    clip: &ClipData,
    reference: &ReferenceDiff,
    selection: &mut Selection,
) {
    let (Some(diff), Some((_, other))) = (&reference.diff, &reference.reference) else {
        return;
    };
    let heading = format!(
        "against {}: max Δ {:.4}, {} curves only here, {} only there",
        other.name,
        diff.max_abs,
        diff.only_in_a.len(),
        diff.only_in_b.len()
    );
    egui::CollapsingHeader::new(heading)
        .id_salt("reference")
        .show(ui, |ui| {
            if !reference.worst_joints.is_empty() {
                ui.label("posed apart most now (the white ghost is the reference):");
                for &(joint, distance) in &reference.worst_joints {
                    let name = skeleton.joints.get(joint).map_or("?", |j| j.name.as_str());
                    if ui
                        .selectable_label(
                            selection.joint == Some(joint),
                            format!("  {name}  {:.1} cm", distance * 100.0),
                        )
                        .clicked()
                    {
                        selection.joint = Some(joint);
                    }
                }
            }
            for f in &diff.facts {
                ui.label(format!("{}: {:?} vs {:?}", f.what, f.a, f.b));
            }
            let mut tracks: Vec<_> = clip
                .tracks
                .iter()
                .map(|t| (t, reference.track(t)))
                .collect();
            let rank = |d: &Option<crate::viewer::reference::TrackDifference>| match d {
                Some(crate::viewer::reference::TrackDifference::Matched { max_abs, .. }) => {
                    *max_abs
                }
                _ => f64::INFINITY,
            };
            tracks.sort_by(|x, y| rank(&y.1).total_cmp(&rank(&x.1)));
            egui::ScrollArea::vertical()
                .id_salt("reference tracks")
                .max_height(200.0)
                .show(ui, |ui| {
                    for (track, d) in tracks {
                        let text = format!(
                            "{}  {}",
                            clip.bindings[track.binding].describe(),
                            d.map(|d| d.to_string()).unwrap_or_default()
                        );
                        let plotted = selection.tracks == track.curves;
                        if ui.selectable_label(plotted, text).clicked() {
                            selection.tracks = track.curves.clone();
                        }
                    }
                });
        });
}

/// The root-motion mode: in place, loop and reset, or accumulated over loops.
fn root_motion_choice(ui: &mut egui::Ui, selection: &mut Selection) {
    let mut mode = RootMotionMode::of(selection);
    ui.horizontal(|ui| {
        ui.label("root motion");
        egui::ComboBox::from_id_salt("root motion")
            .selected_text(mode.label())
            .show_ui(ui, |ui| {
                for m in RootMotionMode::ALL {
                    ui.selectable_value(&mut mode, m, m.label());
                }
            })
            .response
            .on_hover_text(
                "in place: the root holds still; loop and reset: each loop starts back where the \
                 clip starts; accumulate: each loop starts where the last ended, as a game moves \
                 the character",
            );
    });
    if mode != RootMotionMode::of(selection) {
        mode.set(selection);
    }
}
