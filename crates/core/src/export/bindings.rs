//! What each of a clip's bindings becomes in glTF: a Transform track of a joint (a
//! translation, rotation or scale channel), a blend shape weight of an exported mesh (a
//! `weights` channel), a muscle curve (baked through the humanoid pose), or a curve core
//! glTF cannot carry (left out and reported).

use super::evaluate::Path;
use crate::clip::{BindingKind, ClipData};
use crate::curve::{CurveShape, Key};
use crate::hash::attribute_hash;
use crate::humanoid::HumanoidRig;
use crate::rig::Skeleton;

/// A mesh node whose blend shapes can be animated: its morph targets in channel order.
#[derive(Clone, Debug)]
pub struct MorphNode {
    /// The joint (node) the renderer is on.
    pub joint: usize,
    /// Per target: the blend shape channel's name.
    pub names: Vec<String>,
    /// Per target: Unity weight (0–100) per glTF weight (the full-weight frame's weight).
    pub full_weight: Vec<f32>,
    /// Per target: the renderer's stored weight, as a glTF weight.
    pub rest: Vec<f32>,
}

/// A Transform track bound to a joint.
#[derive(Clone, Debug)]
pub struct JointTrack {
    pub joint: usize,
    pub path: Path,
    /// Euler angles (turned into quaternions: never exact as a cubic).
    pub euler: bool,
    pub curves: Vec<usize>,
}

/// A blend shape curve bound to a morph target.
#[derive(Clone, Copy, Debug)]
pub struct WeightTrack {
    /// Index into the [`MorphNode`]s.
    pub morph: usize,
    pub target: usize,
    pub curve: usize,
}

/// A binding left out, and why.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Dropped {
    pub binding: String,
    pub reason: String,
}

/// A clip's bindings sorted by what they become.
#[derive(Clone, Debug, Default)]
pub struct Bound {
    pub tracks: Vec<JointTrack>,
    pub weights: Vec<WeightTrack>,
    /// Curves that feed the written channels (tracks, weights and baked muscles).
    pub used_curves: Vec<usize>,
    pub dropped: Vec<Dropped>,
}

/// Sorts the bindings of `clip` on `skeleton`; `humanoid` is set when the clip is posed
/// from its muscles (Transform tracks of human bones then do nothing, as in Unity).
pub fn bind(
    clip: &ClipData,
    skeleton: &Skeleton,
    humanoid: Option<&HumanoidRig>,
    morphs: &[MorphNode],
) -> Bound {
    let mut out = Bound::default();
    for track in &clip.tracks {
        let Some(binding) = clip.bindings.get(track.binding) else {
            continue;
        };
        let mut drop = |reason: &str| {
            out.dropped.push(Dropped {
                binding: binding.describe(),
                reason: reason.into(),
            })
        };
        let joint = skeleton.joint_by_hash(binding.path);
        let path = match binding.kind() {
            BindingKind::Position => Some((Path::Translation, false)),
            BindingKind::Rotation => Some((Path::Rotation, false)),
            BindingKind::Scale => Some((Path::Scale, false)),
            BindingKind::Euler { .. } => Some((Path::Rotation, true)),
            _ => None,
        };
        match (binding.kind(), path, joint) {
            (_, Some((path, euler)), Some(joint)) => {
                if humanoid.is_some_and(|h| h.joint_bone(joint).is_some()) {
                    drop("a human bone: the humanoid pose sets it (as in Unity)");
                    continue;
                }
                out.tracks.push(JointTrack {
                    joint,
                    path,
                    euler,
                    curves: track.curves.clone(),
                });
                out.used_curves.extend(&track.curves);
            }
            (_, Some(_), None) => drop("no joint at this path in the rig"),
            (BindingKind::Muscle, _, _) if humanoid.is_some() => {
                out.used_curves.extend(&track.curves)
            }
            (BindingKind::Muscle, _, _) => drop("a muscle curve, and the rig is not humanoid"),
            (BindingKind::BlendShape, _, _) => {
                match morph_target(morphs, skeleton, binding.path, binding.attribute) {
                    Some((morph, target)) => {
                        for &curve in &track.curves {
                            out.weights.push(WeightTrack {
                                morph,
                                target,
                                curve,
                            });
                            out.used_curves.push(curve);
                        }
                    }
                    None => drop("no exported mesh has this blend shape at this path"),
                }
            }
            (BindingKind::PPtr, _, _) => {
                drop("an object reference (sprite or material swap): not in core glTF")
            }
            _ => drop(float_reason(
                binding.attribute_name.as_deref(),
                binding.type_id,
            )),
        }
    }
    out.used_curves.sort_unstable();
    out.used_curves.dedup();
    out
}

fn float_reason(name: Option<&str>, type_id: i32) -> &'static str {
    match (name, type_id) {
        (Some("m_IsActive"), _) | (_, 1) => "GameObject activity: not in core glTF",
        (_, 114) => "a script field: not in core glTF",
        (Some(n), _) if n.starts_with("material.") => "a material property: not in core glTF",
        (_, 95) => "an Animator parameter or root curve: not in core glTF",
        _ => "a property core glTF cannot animate",
    }
}

/// The morph target a blend shape binding drives: by the renderer's path and the CRC-32
/// of the shape's name (built clips) or of `blendShape.<name>` (text and legacy clips).
fn morph_target(
    morphs: &[MorphNode],
    skeleton: &Skeleton,
    path: u32,
    attribute: u32,
) -> Option<(usize, usize)> {
    morphs.iter().enumerate().find_map(|(m, node)| {
        if skeleton.joints.get(node.joint)?.path_hash != path {
            return None;
        }
        let target = node.names.iter().position(|name| {
            attribute_hash(name) == attribute
                || attribute_hash(&format!("blendShape.{name}")) == attribute
        })?;
        Some((m, target))
    })
}

/// Every key time of the curves `used` (sampled curves: every frame when `frames`),
/// unsorted.
pub fn key_times(clip: &ClipData, used: &[usize], frames: bool) -> Vec<f32> {
    let mut out = Vec::new();
    for &c in used {
        let Some(curve) = clip.curves.get(c) else {
            continue;
        };
        match &curve.curve.shape {
            CurveShape::Keys(keys) => out.extend(keys.iter().map(|k| k.time)),
            CurveShape::Sampled {
                begin,
                rate,
                values,
            } if frames && *rate > 0.0 && rate.is_finite() => {
                out.extend((0..values.len().min(1 << 20)).map(|i| begin + i as f32 / rate))
            }
            _ => {}
        }
    }
    out
}

/// True when a curve's keys all hold their value until the next key.
pub fn is_stepped(keys: &[Key]) -> bool {
    keys.len() >= 2
        && keys
            .windows(2)
            .all(|w| w[0].is_step_out() || w[1].in_slope.is_infinite())
}
