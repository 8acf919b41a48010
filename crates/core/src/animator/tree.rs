//! A state's motion evaluated at one moment: its leaf clips with their tree weights (nested
//! trees multiplied through), the state's length, and each leaf's phase and clip time
//! (§3.1, §3.7: every child shares the state's normalised time).

use super::blend;
use super::model::{BlendKind, BlendTree, ClipMotion, Motion};
use super::params::Params;

/// Deepest nesting evaluated (the decoders cut cycles; this bounds the rest).
const MAX_DEPTH: usize = 64;

/// One leaf of a motion with its weight in the tree.
#[derive(Clone, Debug, PartialEq)]
pub struct Leaf {
    /// `None` for a slot without a motion.
    pub clip: Option<ClipMotion>,
    /// Product of the weights along the path.
    pub tree_weight: f64,
    /// Duration factor `d` of the leaf's own slot (1 for a bare clip).
    pub duration_factor: f64,
    /// Child cycle offsets summed along the path.
    pub cycle_offset: f64,
    /// Child mirror flags XORed along the path.
    pub mirror: bool,
}

impl Leaf {
    /// The clip length in seconds; a missing clip or one of length 0 counts 1 s (§6.4).
    pub fn length(&self) -> f64 {
        match self.clip.as_ref().and_then(|c| c.resolved.as_ref()) {
            Some(r) if r.length > 0.0 => r.length as f64,
            _ => 1.0,
        }
    }

    /// Loop Time of the clip (a missing clip counts as looping).
    pub fn looping(&self) -> bool {
        self.clip
            .as_ref()
            .and_then(|c| c.resolved.as_ref())
            .is_none_or(|r| r.looping)
    }

    /// The leaf's normalised phase at state time `nt` with the state's cycle offset.
    pub fn phase(&self, nt: f64, state_offset: f64) -> f64 {
        let phi = nt + state_offset + self.cycle_offset;
        if self.duration_factor < 0.0 {
            1.0 - phi
        } else {
            phi
        }
    }

    /// The clip time (seconds, from the clip's own start) at a phase: looping clips wrap,
    /// others clamp and hold their ends.
    pub fn clip_time(&self, phase: f64) -> f64 {
        let resolved = self.clip.as_ref().and_then(|c| c.resolved.as_ref());
        let (start, len, offset) = match resolved {
            Some(r) => (r.start as f64, r.length as f64, r.cycle_offset as f64),
            None => (0.0, 1.0, 0.0),
        };
        let t = if self.looping() {
            let x = phase + offset;
            len * (x - x.floor())
        } else {
            len * phase.clamp(0.0, 1.0)
        };
        (start + t) as f32 as f64
    }
}

/// The leaves of a motion (none for no motion).
pub fn leaves(motion: Option<&Motion>, params: &mut Params) -> Vec<Leaf> {
    let mut out = Vec::new();
    if let Some(m) = motion {
        collect(m, 1.0, 1.0, 0.0, false, params, &mut out, 0);
    } else {
        // A state without motion: no leaves (its length is 1 s).
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn collect(
    m: &Motion,
    weight: f64,
    d: f64,
    offset: f64,
    mirror: bool,
    params: &mut Params,
    out: &mut Vec<Leaf>,
    depth: usize,
) {
    match m {
        Motion::Clip(c) => out.push(Leaf {
            clip: Some(c.clone()),
            tree_weight: weight,
            duration_factor: d,
            cycle_offset: offset,
            mirror,
        }),
        Motion::BlendTree(tree) => {
            if depth >= MAX_DEPTH {
                return;
            }
            let w = weights(tree, params);
            for (child, cw) in tree.children.iter().zip(w) {
                let child_offset = offset + child.cycle_offset as f64;
                let child_mirror = mirror ^ child.mirror;
                match &child.motion {
                    Some(m @ Motion::BlendTree(_)) => collect(
                        m,
                        weight * cw,
                        1.0,
                        child_offset,
                        child_mirror,
                        params,
                        out,
                        depth + 1,
                    ),
                    Some(m) => collect(
                        m,
                        weight * cw,
                        child.duration_factor(),
                        child_offset,
                        child_mirror,
                        params,
                        out,
                        depth + 1,
                    ),
                    None => out.push(Leaf {
                        clip: None,
                        tree_weight: weight * cw,
                        duration_factor: child.duration_factor(),
                        cycle_offset: child_offset,
                        mirror: child_mirror,
                    }),
                }
            }
        }
    }
}

/// The weights of a tree's children from the current parameters.
pub fn weights(tree: &BlendTree, params: &mut Params) -> Vec<f64> {
    let n = tree.children.len();
    if n == 1 && tree.kind != BlendKind::Direct {
        return vec![1.0];
    }
    let mut read = |p: &Option<String>| p.as_deref().map_or(0.0, |p| params.get(p)) as f32;
    let x = read(&tree.parameter);
    let y = read(&tree.parameter_y);
    let positions: Vec<[f32; 2]> = tree.children.iter().map(|c| c.position).collect();
    match tree.kind {
        BlendKind::Simple1D => {
            let t: Vec<f32> = tree.children.iter().map(|c| c.threshold).collect();
            blend::simple_1d(&t, x)
        }
        BlendKind::SimpleDirectional => blend::simple_directional(&positions, [x, y]),
        BlendKind::FreeformDirectional => blend::freeform_directional(&positions, [x, y]),
        BlendKind::FreeformCartesian => blend::freeform_cartesian(&positions, [x, y]),
        BlendKind::Direct => {
            let values: Vec<f64> = tree
                .children
                .iter()
                .map(|c| c.direct_parameter.as_deref().map_or(0.0, |p| params.get(p)))
                .collect();
            blend::direct(&values, tree.normalized)
        }
    }
}

/// The state's length `L = Σ w·len·|d| / Σ w` (1 s when Σ w ≤ 0 or there are no leaves).
pub fn length(leaves: &[Leaf]) -> f64 {
    let sum: f64 = leaves.iter().map(|l| l.tree_weight).sum();
    if sum <= 0.0 {
        return 1.0;
    }
    leaves
        .iter()
        .map(|l| l.tree_weight * l.length() * l.duration_factor.abs())
        .sum::<f64>()
        / sum
}
