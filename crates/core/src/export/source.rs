//! clipscope's own, exact evaluation of what a clip does to the exported rig, in glTF's
//! space: every joint's local transform (through the public pose code, humanoid clips
//! included) and every exported mesh's morph weights.

use super::bindings::{Bound, MorphNode};
use super::evaluate::Path;
use super::space;
use crate::clip::ClipData;
use crate::humanoid::{HumanoidRig, JointLocal, PoseOptions};
use crate::pose::ClipPoser;
use crate::rig::Skeleton;

/// One joint's transform in glTF's space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    pub t: [f32; 3],
    pub q: [f32; 4],
    pub s: [f32; 3],
}

impl Transform {
    /// The mirrored image of a Unity transform (rotation unit length).
    pub fn of(local: &JointLocal) -> Transform {
        Transform {
            t: space::point(local.t),
            q: super::nodes::unit(space::rotation(local.q)),
            s: local.s,
        }
    }

    /// The part a channel of `path` animates (weights: none).
    pub fn part(&self, path: Path) -> &[f32] {
        match path {
            Path::Translation => &self.t,
            Path::Rotation => &self.q,
            Path::Scale => &self.s,
            Path::Weights => &[],
        }
    }
}

/// The rig and meshes at one clip time.
#[derive(Clone, Debug)]
pub struct Frame {
    pub joints: Vec<Transform>,
    /// Per morph node, its target weights.
    pub weights: Vec<Vec<f32>>,
}

/// A clip bound to the exported rig.
pub struct Source<'a> {
    pub clip: &'a ClipData,
    pub skeleton: &'a Skeleton,
    poser: ClipPoser<'a>,
    options: PoseOptions,
    pub bound: &'a Bound,
    pub morphs: &'a [MorphNode],
}

impl<'a> Source<'a> {
    /// Binds `clip` to the exported skeleton (posed through `humanoid` when given, with or
    /// without root motion) and its morph nodes.
    pub fn new(
        clip: &'a ClipData,
        skeleton: &'a Skeleton,
        humanoid: Option<&'a HumanoidRig>,
        root_motion: bool,
        mirror: crate::clip::MirrorMode,
        bound: &'a Bound,
        morphs: &'a [MorphNode],
    ) -> Source<'a> {
        Source {
            clip,
            skeleton,
            poser: ClipPoser::new(clip, skeleton, humanoid).mirrored(mirror),
            options: PoseOptions { root_motion },
            bound,
            morphs,
        }
    }

    /// True when the clip is posed from its muscles.
    pub fn is_humanoid(&self) -> bool {
        self.poser.is_humanoid()
    }

    /// Everything at clip time `t` (on the clip's own time axis).
    pub fn frame(&self, t: f32) -> Frame {
        let joints = self
            .poser
            .locals(t, &self.options)
            .iter()
            .map(Transform::of)
            .collect();
        let mut weights: Vec<Vec<f32>> = self.morphs.iter().map(|m| m.rest.clone()).collect();
        for w in &self.bound.weights {
            let full = self
                .morphs
                .get(w.morph)
                .and_then(|m| m.full_weight.get(w.target))
                .copied()
                .filter(|f| *f != 0.0 && f.is_finite())
                .unwrap_or(100.0);
            if let (Some(slot), Some(v)) = (
                weights.get_mut(w.morph).and_then(|m| m.get_mut(w.target)),
                self.clip.sample_curve(w.curve, t),
            ) {
                *slot = v / full;
            }
        }
        Frame { joints, weights }
    }

    /// The rest pose, in glTF's space.
    pub fn rest(&self) -> Vec<Transform> {
        self.skeleton
            .joints
            .iter()
            .map(|j| Transform::of(&JointLocal::rest(j)))
            .collect()
    }
}
