//! Steps: curves whose keys hold their value until the next key, measured on the joint at
//! the key where each held stretch ends (where the value jumps). A humanoid clip's muscle
//! curves on a humanoid rig are measured on the posed bones instead (`posed.rs`).

use super::measure::{Severity, Sides, measure};
use super::seams::{align, finite_values, left_limit, right_limit};
use super::units::units;
use super::*;
use crate::clip::ClipData;
use crate::curve::Key;

pub(super) fn steps(clip: &ClipData, ctx: &Context<'_>) -> Vec<StepInfo> {
    let mut out = Vec::new();
    for unit in units(clip, ctx.namer, ctx.posed()) {
        let stepped: Vec<(usize, Vec<f32>)> = unit
            .curves
            .iter()
            .map(|&c| (c, step_times(clip.curves[c].curve.keys())))
            .filter(|(_, times)| !times.is_empty())
            .collect();
        let Some((first, _)) = stepped.first() else {
            continue;
        };
        let mut times: Vec<f32> = stepped
            .iter()
            .flat_map(|(_, t)| t.iter().copied())
            .collect();
        let mut ends: Vec<f32> = stepped
            .iter()
            .flat_map(|&(c, _)| step_ends(clip.curves[c].curve.keys()))
            .collect();
        sort_snapped(&mut times);
        sort_snapped(&mut ends);
        let (mut jump, mut slope_jump, mut at) = (0.0f32, 0.0f32, times[0]);
        for &t in &ends {
            let before: Sides = unit
                .curves
                .iter()
                .map(|&c| left_limit(&clip.curves[c].curve, t))
                .collect();
            let mut after: Sides = unit
                .curves
                .iter()
                .map(|&c| right_limit(&clip.curves[c].curve, t))
                .collect();
            if !finite_values(&before) || !finite_values(&after) {
                continue;
            }
            align(unit.quantity, &before, &mut after);
            let (j, s) = measure(unit.quantity, &before, &after, ctx.size);
            if j > jump {
                (jump, at) = (j, t);
            }
            slope_jump = slope_jump.max(s);
        }
        let measure = unit.quantity.measure();
        out.push(StepInfo {
            curve: *first,
            binding: unit.binding.clone(),
            component: clip.curves[*first].component,
            times,
            joint: unit.joint.clone(),
            measure,
            jump,
            slope_jump,
            at,
            severity: ctx.thresholds.severity(measure, jump, slope_jump, 0.0),
        });
    }
    if let Some(posed) = &ctx.humanoid {
        out.extend(posed.steps(clip, ctx));
    }
    out
}

/// Sorts times and drops those within [`SNAP_SECONDS`] of the one before.
pub(super) fn sort_snapped(times: &mut Vec<f32>) {
    times.sort_by(f32::total_cmp);
    times.dedup_by(|b, a| (*b - *a).abs() <= SNAP_SECONDS);
}

/// Times of the keys where a held stretch ends: the key after each step.
pub(super) fn step_ends(keys: &[Key]) -> Vec<f32> {
    keys.windows(2)
        .filter(|pair| pair[0].time != -f32::MAX)
        .filter(|pair| pair[0].is_step_out() || pair[1].in_slope.is_infinite())
        .map(|pair| pair[1].time)
        .filter(|t| t.is_finite())
        .collect()
}

/// Times of the keys whose outgoing segment is a step: an infinite out slope, or an infinite
/// in slope on the next key. The `-f32::MAX` initial key of a streamed curve is left out: it
/// holds the initial value by construction, nobody authored it.
pub fn step_times(keys: &[Key]) -> Vec<f32> {
    keys.windows(2)
        .filter(|pair| pair[0].time != -f32::MAX)
        .filter(|pair| pair[0].is_step_out() || pair[1].in_slope.is_infinite())
        .map(|pair| pair[0].time)
        .collect()
}

/// The severity counts (problems, notes) of a list of severities.
pub(super) fn tally(severities: impl Iterator<Item = Severity>) -> (usize, usize) {
    severities.fold((0, 0), |(p, n), s| match s {
        Severity::Problem => (p + 1, n),
        Severity::Note => (p, n + 1),
    })
}
