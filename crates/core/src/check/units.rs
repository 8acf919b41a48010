//! The clip's curves grouped by what they move: one unit per Transform track (a joint's
//! position, rotation, Euler angles or scale), one per float curve, one per muscle curve.
//! Seams and steps are measured per unit, not per component.

use super::measure::Quantity;
use super::*;
use crate::clip::{BindingKind, ClipData, GenericBinding};
use crate::hash::path_hash;

/// Curves measured together.
#[derive(Clone, Debug)]
pub(super) struct Unit {
    /// Global curve indices, in component order.
    pub curves: Vec<usize>,
    pub quantity: Quantity,
    /// The joint's path (Transform tracks) or the binding's description (other curves).
    pub joint: String,
    pub binding: String,
}

/// Class id of GameObject: its only animated property is `m_IsActive`.
const GAME_OBJECT: i32 = 1;

/// True for bindings that switch something on or off (`m_IsActive`, `m_Enabled`): their
/// steps and seams are toggles by nature, not pops.
pub(super) fn is_toggle(b: &GenericBinding) -> bool {
    let named =
        |name: &str| b.attribute == path_hash(name) || b.attribute_name.as_deref() == Some(name);
    b.type_id == GAME_OBJECT || named("m_IsActive") || named("m_Enabled")
}

/// The clip's units. `posed`: humanoid muscle curves are measured on the posed bones
/// instead (see `posed.rs`), so they get no unit here.
pub(super) fn units(clip: &ClipData, namer: &Namer<'_>, posed: bool) -> Vec<Unit> {
    let mut out = Vec::new();
    let mut in_track = vec![false; clip.curves.len()];
    for track in &clip.tracks {
        let Some(b) = clip.bindings.get(track.binding) else {
            continue;
        };
        let curves: Vec<usize> = track
            .curves
            .iter()
            .copied()
            .filter(|&c| c < clip.curves.len())
            .collect();
        for &c in &curves {
            in_track[c] = true;
        }
        if is_toggle(b) || curves.iter().any(|&c| is_discrete(clip, c)) {
            continue;
        }
        let quantity = match b.kind() {
            BindingKind::Position => Quantity::Position,
            BindingKind::Rotation => Quantity::Rotation,
            BindingKind::Scale => Quantity::Scale,
            BindingKind::Euler { order } => Quantity::Euler(order),
            BindingKind::Muscle if posed => continue,
            BindingKind::Muscle => Quantity::Muscle,
            BindingKind::PPtr => continue,
            BindingKind::BlendShape | BindingKind::Float => {
                for &c in &curves {
                    out.push(float_unit(clip, c, namer.curve(c)));
                }
                continue;
            }
        };
        out.push(Unit {
            joint: joint_path(b, namer),
            binding: namer.binding(b),
            curves,
            quantity,
        });
    }
    for c in (0..clip.curves.len()).filter(|&c| !in_track[c] && !is_discrete(clip, c)) {
        out.push(float_unit(clip, c, namer.curve(c)));
    }
    out
}

fn float_unit(clip: &ClipData, curve: usize, binding: String) -> Unit {
    Unit {
        curves: vec![curve],
        quantity: Quantity::Float {
            range: curve_range(clip, curve),
        },
        joint: binding.clone(),
        binding,
    }
}

/// A Transform binding's joint path: the clip's own name for it, the rig's, `""` for the
/// root, else the hash.
pub(super) fn joint_path(b: &GenericBinding, namer: &Namer<'_>) -> String {
    match (&b.path_name, namer.names.get(&b.path)) {
        (Some(p), _) => p.clone(),
        (None, Some(p)) => p.clone(),
        (None, None) if b.path == 0 => String::new(),
        (None, None) => format!("path {:#010x}", b.path),
    }
}

/// Most samples taken over a clip to find a curve's range.
const RANGE_SAMPLES: usize = 2048;
/// Fewest (a clip with few frames still has curves that bulge between them).
const MIN_RANGE_SAMPLES: usize = 64;

/// The range (max - min) a curve covers over the clip: its keys' values (within the clip's
/// time, so a streamed curve's initial key before it does not count) and its values at
/// every frame (64 to 2048 samples); non-finite values are left out. At least
/// [`SEAM_TOLERANCE`] times its largest magnitude (and 1): jumps below that are not listed.
pub(super) fn curve_range(clip: &ClipData, curve: usize) -> f32 {
    let Some(c) = clip.curves.get(curve) else {
        return 0.0;
    };
    let mut lo = f32::INFINITY;
    let mut hi = f32::NEG_INFINITY;
    let mut add = |v: f32| {
        if v.is_finite() {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    };
    let within = |t: f32| t >= clip.start - SNAP_SECONDS && t <= clip.stop + SNAP_SECONDS;
    for k in c.curve.keys().iter().filter(|k| within(k.time)) {
        add(k.value);
    }
    let length = clip.length();
    let frames = (length * clip.sample_rate).ceil();
    let n = if frames.is_finite() && frames > 0.0 {
        (frames as usize).clamp(MIN_RANGE_SAMPLES, RANGE_SAMPLES)
    } else {
        MIN_RANGE_SAMPLES
    };
    for i in 0..=n {
        add(c.curve.sample(clip.start + length * i as f32 / n as f32));
    }
    let floor = SEAM_TOLERANCE * lo.abs().max(hi.abs()).max(1.0);
    if hi >= lo {
        (hi - lo).max(floor)
    } else {
        floor
    }
}
