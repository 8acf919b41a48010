//! glTF 2.0 export: a rig's joints as a node tree, its meshes (skins, morph targets,
//! base-colour materials with embedded PNG textures) and one animation per clip, written as
//! one `.glb`, with a [`Report`] of the measured error of every clip. Linear channels are
//! sampled adaptively until the path every player takes (glTF's slerp and Blender's
//! per-component nlerp) stays within the tolerance ([`ExportOptions`]).
//!
//! Unity's data is mirrored once, here, into glTF's right-handed space ([`space`]: X
//! mirrored, Y up). Clips are evaluated by clipscope's own exact code (humanoid clips baked
//! through the public pose API, [`crate::pose::ClipPoser`]), written as linear (sampled and
//! reduced), STEP or CUBICSPLINE channels, and the written channels are evaluated back by
//! glTF's rules on a dense grid to measure the error. Nothing here depends on Bevy.

mod adaptive;
mod animation;
mod bindings;
mod channels;
mod document;
pub mod evaluate;
mod file;
mod glb;
mod hold;
mod material;
mod measure;
mod mesh;
mod nodes;
mod reduce;
mod report;
mod source;
pub mod space;

use std::borrow::Cow;
use std::collections::HashSet;

use rayon::prelude::*;
use serde_json::json;

pub use bindings::Dropped;
pub use channels::{Channel, Mode};
pub use file::{WriteError, default_file_name, write_clips, write_rig};
pub use report::{ClipReport, MeshReport, Report, Worst};

use crate::check::RigReach;
use crate::clip::ClipData;
use crate::humanoid::{ClipMuscles, HumanoidRig, JointLocal};
use crate::rig::Skeleton;
use crate::workspace::{ObjectRef, RendererEntry, RigEntry, Workspace};
use channels::Tolerance;
use document::Document;
use evaluate::Path;
use source::Source;

/// How to export.
#[derive(Clone, Copy, Debug)]
pub struct ExportOptions {
    pub mode: Mode,
    /// Least sampling rate of linear channels (refined where the path needs it); `None`:
    /// each clip's own sample rate.
    pub fps: Option<f32>,
    /// Rotation tolerance of the written path, radians (default 1e-3).
    pub tolerance_rad: f32,
    /// Translation tolerance as a fraction of the rig's size, and the tolerance of scales
    /// and weights (default 1e-4).
    pub tolerance_size: f32,
    /// Write the rig's meshes.
    pub meshes: bool,
    /// Humanoid clips move and turn the body (off: it stays over the origin).
    pub root_motion: bool,
    /// Whether humanoid clips are mirrored: each clip's own `m_Mirror` by default.
    pub mirror: crate::clip::MirrorMode,
}

impl Default for ExportOptions {
    fn default() -> ExportOptions {
        ExportOptions {
            mode: Mode::Linear,
            fps: None,
            tolerance_rad: 1e-3,
            tolerance_size: 1e-4,
            meshes: true,
            root_motion: true,
            mirror: crate::clip::MirrorMode::Clip,
        }
    }
}

/// The rig exported: a workspace rig, or joints standing in for a clip's paths.
pub struct ExportRig<'a> {
    pub name: String,
    pub skeleton: Cow<'a, Skeleton>,
    pub humanoid: Option<&'a HumanoidRig>,
    pub renderers: &'a [RendererEntry],
}

impl<'a> ExportRig<'a> {
    /// A rig of the workspace.
    pub fn of(rig: &'a RigEntry) -> ExportRig<'a> {
        ExportRig {
            name: rig.name.clone(),
            skeleton: Cow::Borrowed(&rig.skeleton),
            humanoid: rig.humanoid.as_deref(),
            renderers: &rig.renderers,
        }
    }

    /// Joints standing in for the clips' bound paths under one root (as `pose` does when
    /// no rig fits): named by path where an Avatar knows it, else by hash.
    pub fn stand_in(ws: &Workspace, clips: &[ExportClip<'_>]) -> ExportRig<'a> {
        let names = ws
            .rigs
            .iter()
            .flat_map(|r| r.tos.iter().map(|(&h, p)| (h, p.clone())))
            .collect();
        let paths = clips.iter().flat_map(|c| {
            c.clip
                .bindings
                .iter()
                .filter(|b| b.is_transform())
                .map(|b| b.path)
        });
        let mut skeleton = Skeleton::placeholder(paths, &names);
        // A stand-in whose path is unknown is named by its hash only.
        for j in skeleton.joints.iter_mut().skip(1) {
            if j.path.is_empty() {
                j.name.clear();
            }
        }
        ExportRig {
            name: String::new(),
            skeleton: Cow::Owned(skeleton),
            humanoid: None,
            renderers: &[],
        }
    }
}

/// A clip to export.
#[derive(Clone, Copy)]
pub struct ExportClip<'a> {
    pub at: ObjectRef,
    pub clip: &'a ClipData,
}

/// The written file and its report.
pub struct Exported {
    pub glb: Vec<u8>,
    pub report: Report,
}

impl Exported {
    /// Number of animations written (clips with no channel get none).
    pub fn animations(&self) -> usize {
        self.report.clips.iter().filter(|c| c.channels > 0).count()
    }
}

/// Why nothing could be written.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("writing the glTF JSON: {0}")]
    Json(String),
}

/// The clips of `ws` that play on rig `index` (as the viewer lists them): the rig's own,
/// every humanoid clip when it is humanoid, and every other clip the automatic pick puts on
/// it.
pub fn clips_playing_on(ws: &Workspace, index: usize) -> Vec<ExportClip<'_>> {
    clips_from_playing_on(ws, ws, index)
}

/// The clips of `clips` that play on rig `index` of `rigs` (the viewer opens a rig from
/// other files than the clips): as [`clips_playing_on`]; a rig's own clip list counts only
/// when both are one workspace (its references are into its own files).
pub fn clips_from_playing_on<'a>(
    clips: &'a Workspace,
    rigs: &Workspace,
    index: usize,
) -> Vec<ExportClip<'a>> {
    let Some(rig) = rigs.rigs.get(index) else {
        return Vec::new();
    };
    let same = std::ptr::eq(clips, rigs);
    let reach = RigReach::of(&rigs.rigs, None);
    clips
        .clips
        .iter()
        .filter_map(|entry| {
            let clip = entry.data.as_ref().ok()?;
            let listed = same && rig.clips.contains(&entry.at);
            ClipReach::of(&reach, &rigs.rigs, entry.at, clip)
                .plays_on(index, rig, listed)
                .then_some(ExportClip { at: entry.at, clip })
        })
        .collect()
}

/// The clips at `wanted` that `ws` holds decoded, in `wanted`'s order (the others left
/// out): clips chosen on one opening of the files, taken from another that holds their
/// files in full.
pub fn decoded_clips<'a>(ws: &'a Workspace, wanted: &[ObjectRef]) -> Vec<ExportClip<'a>> {
    wanted
        .iter()
        .filter_map(|&at| {
            let clip = ws.clip(at)?.data.as_ref().ok()?;
            Some(ExportClip { at, clip })
        })
        .collect()
}

/// What decides which rigs a clip plays on, taken from its curves once: a whole game's
/// clips can then be weighed one file at a time and dropped
/// ([`Workspace::map_clips`]) before a rig and its clips are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClipReach {
    /// The clip has humanoid (muscle) curves.
    pub humanoid: bool,
    /// The rig the automatic pick ([`crate::check::pick_rig`]) puts it on.
    pub picked: Option<usize>,
}

impl ClipReach {
    /// The reach of `clip`, the clip at `at`, among `rigs` (whose clip lists `reach` holds).
    pub fn of(reach: &RigReach, rigs: &[RigEntry], at: ObjectRef, clip: &ClipData) -> Self {
        ClipReach {
            humanoid: ClipMuscles::new(clip).is_humanoid(),
            picked: reach.pick(rigs, at, clip).map(|(i, _)| i),
        }
    }

    /// Whether the clip plays on `rig`, rig `index`: `listed` when the rig's own clip list
    /// holds it; every humanoid clip plays on a humanoid rig; else the one it is picked for.
    pub fn plays_on(&self, index: usize, rig: &RigEntry, listed: bool) -> bool {
        listed || (self.humanoid && rig.humanoid.is_some()) || self.picked == Some(index)
    }
}

/// The rig's size (what the translation tolerance is a fraction of): the size of its body
/// at rest ([`crate::body::Body`]: a humanoid's human bones, else its joints less the far
/// outliers, so sockets parked kilometres away do not count), composed as Unity does.
pub fn rig_size(skeleton: &Skeleton, humanoid: Option<&HumanoidRig>) -> f32 {
    crate::body::body_size(skeleton, humanoid)
}

/// Per joint, rig units per unit of its local translation: the largest component of its
/// parent's rest `lossyScale` (1 for the root and where it is not finite).
fn translation_units(skeleton: &Skeleton) -> Vec<f32> {
    let locals: Vec<JointLocal> = skeleton.joints.iter().map(JointLocal::rest).collect();
    let world = crate::pose::world(skeleton, &locals);
    skeleton
        .joints
        .iter()
        .map(|j| {
            j.parent
                .and_then(|p| world.get(p))
                .map(|w| w.s.iter().map(|c| c.abs()).fold(0.0, f32::max))
                .filter(|u| *u > 0.0 && u.is_finite())
                .unwrap_or(1.0)
        })
        .collect()
}

/// Exports `rig` with `clips` from `ws`. A clip that cannot be exported is skipped with a
/// warning in the report.
pub fn export(
    ws: &Workspace,
    rig: &ExportRig<'_>,
    clips: &[ExportClip<'_>],
    options: &ExportOptions,
) -> Result<Exported, ExportError> {
    let mut doc = Document::default();
    doc.root.asset.generator = Some(format!("clipscope {}", env!("CARGO_PKG_VERSION")));
    let skeleton: &Skeleton = &rig.skeleton;
    nodes::add_joints(&mut doc, skeleton);
    let mut report = Report {
        rig: rig.name.clone(),
        mode: match options.mode {
            Mode::Linear => "linear",
            Mode::Exact => "exact",
        }
        .into(),
        ..Report::default()
    };
    let meshes = if options.meshes {
        mesh::add_meshes(
            &mut doc,
            ws,
            rig.renderers,
            skeleton.joints.len(),
            &mut report.warnings,
        )
    } else {
        mesh::Meshes::default()
    };
    report.meshes = meshes.reports;
    let body = crate::body::Body::of(skeleton, rig.humanoid);
    let size = body.size;
    let tolerance = Tolerance {
        rotation: options.tolerance_rad,
        translation: options.tolerance_size * size,
        other: options.tolerance_size,
        unit: translation_units(skeleton),
        reach: body.reach(skeleton),
        body: body.joints.clone(),
        body_radius: body.radius,
        // Down a real limb's chain of joints the channels' errors add up to about twice
        // the largest: morbman's emotes need 0.41 to 0.5 of it; this share rarely needs a
        // second build.
        share: INITIAL_SHARE,
    };
    report.rig_size = size;
    report.tolerance_rad = tolerance.rotation;
    report.tolerance_translation = tolerance.translation;
    report.tolerance_other = tolerance.other;
    let mut names: HashSet<String> = HashSet::new();
    // Per clip, in order: its animation, or its report when nothing was written. Clips are
    // sampled and measured on every core; names are made unique in the clips' order.
    let built: Vec<_> = clips
        .par_iter()
        .map(|c| export_clip(rig, c, options, &tolerance, &meshes.morphs))
        .collect();
    let mut slots: Vec<Result<Animation, ClipReport>> = Vec::new();
    for (c, result) in clips.iter().zip(built) {
        match result {
            Ok(Some(mut animation)) => {
                animation.report.name = unique(&mut names, &c.clip.name);
                let r = &animation.report;
                if !r.within_tolerance {
                    report
                        .warnings
                        .push(format!("clip {}: {}", r.name, r.tolerance_note()));
                }
                slots.push(Ok(animation));
            }
            Ok(None) => {
                report.warnings.push(format!(
                    "clip {}: nothing in it moves this rig; no animation written",
                    c.clip.name
                ));
                let bound = bindings::bind(c.clip, skeleton, None, &meshes.morphs);
                slots.push(Err(ClipReport {
                    name: c.clip.name.clone(),
                    dropped: bound.dropped,
                    ..ClipReport::default()
                }));
            }
            Err(e) => report
                .warnings
                .push(format!("clip {}: {e}; skipped", c.clip.name)),
        }
    }
    // Every animation keys what any of them moves: a player switching animations leaves a
    // joint where the last one put it.
    let rest: Vec<source::Transform> = skeleton
        .joints
        .iter()
        .map(|j| source::Transform::of(&JointLocal::rest(j)))
        .collect();
    let moved: Vec<&[Channel]> = slots
        .iter()
        .filter_map(|s| s.as_ref().ok())
        .map(|a| a.channels.as_slice())
        .collect();
    let mut held = hold::held_channels(&moved, &rest, &meshes.morphs).into_iter();
    for slot in slots {
        match slot {
            Ok(mut a) => {
                let held = held.next().unwrap_or_default();
                a.report.held_channels = held.len();
                a.report.channels += held.len();
                a.report.keys_out += held.iter().map(|c| c.keys.times.len()).sum::<usize>();
                a.channels.extend(held);
                animation::add_animation(&mut doc, &a.report.name, &a.info, &a.channels);
                report.clips.push(a.report);
            }
            Err(r) => report.clips.push(r),
        }
    }
    let glb = doc
        .into_glb()
        .map_err(|e| ExportError::Json(e.to_string()))?;
    Ok(Exported { glb, report })
}

fn unique(names: &mut HashSet<String>, base: &str) -> String {
    let mut name = base.to_string();
    let mut n = 2;
    while !names.insert(name.clone()) {
        name = format!("{base} ({n})");
        n += 1;
    }
    name
}

fn path_name(path: Path) -> &'static str {
    match path {
        Path::Translation => "translation",
        Path::Rotation => "rotation",
        Path::Scale => "scale",
        Path::Weights => "weights",
    }
}

/// One clip's animation, before it is written: its report, the facts for its `extras` and
/// its channels.
struct Animation {
    report: ClipReport,
    info: serde_json::Value,
    channels: Vec<Channel>,
}

fn export_clip(
    rig: &ExportRig<'_>,
    c: &ExportClip<'_>,
    options: &ExportOptions,
    tolerance: &Tolerance,
    morphs: &[bindings::MorphNode],
) -> Result<Option<Animation>, channels::ChannelError> {
    let clip = c.clip;
    let skeleton: &Skeleton = &rig.skeleton;
    let muscles = ClipMuscles::new(clip).is_humanoid();
    let humanoid = rig.humanoid.filter(|_| muscles);
    let bound = bindings::bind(clip, skeleton, humanoid, morphs);
    let source = Source::new(
        clip,
        skeleton,
        humanoid,
        options.root_motion,
        options.mirror,
        &bound,
        morphs,
    );
    let rate = options
        .fps
        .or(Some(clip.sample_rate))
        .filter(|r| *r > 0.0 && r.is_finite())
        .unwrap_or(30.0)
        .min(1000.0);
    let (built, errors) = build_within(&source, options.mode, rate, tolerance)?;
    if built.channels.iter().all(|c| c.keys.times.is_empty()) {
        return Ok(None);
    }
    let within = measure::within(&errors);
    let channels = built.channels;
    let name = clip.name.clone();
    let info = json!({
        "unity_clip": clip.name, "unity_path_id": c.at.path_id,
        "start": clip.start, "stop": clip.stop, "wrap": clip.wrap_mode().name(),
    });
    let joint_path = |j: usize| match skeleton.path_label(j) {
        label if label.is_empty() && j == 0 => "(root)".to_string(),
        label => label,
    };
    let report = ClipReport {
        name,
        channels: channels.len(),
        held_channels: 0,
        keys_in: keys_in(clip, &bound.used_curves),
        keys_out: channels.iter().map(|c| c.keys.times.len()).sum(),
        max_rotation_error_rad: errors.rotation,
        max_translation_error: errors.translation,
        max_scale_error: errors.scale,
        max_weight_error: errors.weight,
        max_position_error: errors.position,
        within_tolerance: within,
        floor_reached: built.unreached,
        worst: errors.worst.map(|(j, time, what)| Worst {
            joint: joint_path(j),
            time,
            what: match what {
                measure::Quantity::Channel(path) => path_name(path),
                measure::Quantity::Position => "position",
            }
            .into(),
        }),
        dropped: bound.dropped.clone(),
    };
    Ok(Some(Animation {
        report,
        info,
        channels,
    }))
}

/// The share of the translation tolerance each channel is first sampled to.
const INITIAL_SHARE: f32 = 0.4;

/// How many times a clip is sampled again with tighter channel tolerances when its
/// joints' world positions are still off (their channels' errors add up down the chain).
const TIGHTENINGS: usize = 3;

/// The clip's channels, built and measured; built again with each channel's share of the
/// tolerance cut by how far the world positions were off, while they were and the
/// channels themselves were within their own.
fn build_within(
    source: &Source<'_>,
    mode: Mode,
    rate: f32,
    tolerance: &Tolerance,
) -> Result<(channels::Built, measure::Errors), channels::ChannelError> {
    let mut tolerance = tolerance.clone();
    let mut built = channels::build(source, mode, rate, &tolerance)?;
    let mut errors = measure::measure(source, &built, rate, &tolerance);
    for _ in 0..TIGHTENINGS {
        let off = errors.position / tolerance.translation.max(f32::MIN_POSITIVE);
        let only_position = matches!(errors.worst, Some((_, _, measure::Quantity::Position)));
        if !off.is_finite() || off <= 1.0 || !only_position {
            break;
        }
        tolerance.share *= (0.8 / off).clamp(0.1, 0.8);
        built = channels::build(source, mode, rate, &tolerance)?;
        errors = measure::measure(source, &built, rate, &tolerance);
    }
    Ok((built, errors))
}

/// Keys (or frames) of the curves the channels carry.
fn keys_in(clip: &ClipData, used: &[usize]) -> usize {
    used.iter()
        .filter_map(|&c| clip.curves.get(c))
        .map(|c| match &c.curve.shape {
            crate::curve::CurveShape::Keys(k) => k.len(),
            crate::curve::CurveShape::Sampled { values, .. } => values.len(),
            crate::curve::CurveShape::Constant(_) => 1,
        })
        .sum()
}

#[cfg(test)]
mod tests;
