//! Pose blending (spec §4.9): one update's machine output ([`Animator::output`], every
//! layer's states with their weights and leaf clips with weights and clip times) turned into
//! every joint's local transform on a rig, in Unity's space.
//!
//! - Inside a layer, for each property P the layer's clips animate:
//!   `layer(P) = Σ_states W_s·[Σ_{leaves animating P} w·v(P) + max(0, 1 − Σw)·fb_s(P)]`,
//!   `fb_s` = the rest value for Write Defaults states, else the value below the layer.
//!   Positions, scales and human-pose values are summed; rotations are summed after aligning
//!   each to the first contributor's hemisphere, then normalised.
//! - Humanoid clips are blended in muscle space (their whole human pose: muscles, body,
//!   goals, TDoF, values the clip lacks read their default) and posed once at the end
//!   ([`HumanoidRig::pose`]); mirrored leaves are mirrored in muscle space. Generic clips
//!   ignore mirror (§6.13).
//! - Layers in order: Override `below·(1 − w·m) + layer·w·m` (rotations aligned, summed,
//!   normalised); Additive `below + w·m·(layer − ref)` with `ref` the same blend sampled at
//!   each clip's start, rotations `below · slerp(identity, ref⁻¹·layer, w·m)`. `m` is the
//!   layer's mask factor: skeleton mask per joint, body mask per human-pose value.
//! - Layer 0's set is every property any layer animates (the Animator binds them all; the
//!   spec's per-layer set would let a joint that only upper layers move creep toward them
//!   update after update); its "below" is the previous update's result (the rest pose at
//!   first). Joints no layer animates keep their rest transform.
//!
//! [`Animator::output`]: super::machine::Animator::output
//! [`HumanoidRig::pose`]: crate::humanoid::HumanoidRig::pose

use std::collections::HashMap;

use super::machine::{LayerOutput, LeafOutput};
use super::mask;
use super::model::{Blending, Controller, Motion, ResolvedClip};
use crate::ClipData;
use crate::humanoid::math::Q;
use crate::humanoid::pose::slot;
use crate::humanoid::{HumanPose, HumanoidRig, JointLocal, PoseOptions};
use crate::pose::{ClipPoser, TrackTarget};
use crate::rig::Skeleton;

/// Floats per joint in the property array: position 3, rotation 4, scale 3.
const JOINT_STRIDE: usize = 10;

/// A run of the property array blended as one value.
#[derive(Clone, Copy, Debug)]
struct Channel {
    offset: usize,
    len: usize,
    quat: bool,
}

/// What the blender knows of one layer.
struct LayerSetup {
    /// Channels the layer's clips animate (its property set S).
    set: Vec<usize>,
    in_set: Vec<bool>,
    /// The layer animates the human pose.
    human: bool,
    /// Mask factor per channel.
    mask: Vec<f32>,
    /// Write Defaults by state path.
    write_defaults: HashMap<String, bool>,
}

/// Working arrays, kept between updates so that blending allocates nothing.
#[derive(Default)]
struct Scratch {
    layer: Vec<f32>,
    reference: Vec<f32>,
    state: Vec<f32>,
    weight: Vec<f32>,
    first: Vec<Option<[f32; 4]>>,
    posed: Vec<JointLocal>,
}

/// A controller's layers bound to one rig and the clips its leaves name: turns each
/// update's machine output into joint transforms. Keeps the previous result (layer 0's
/// "below" for states without Write Defaults).
pub struct PoseBlender<'a> {
    skeleton: &'a Skeleton,
    humanoid: Option<&'a HumanoidRig>,
    /// Joints the humanoid rig sets from the human pose.
    posed_joints: Vec<usize>,
    /// Bound clips by (file, path id), with their start time (the additive reference).
    clips: HashMap<(usize, i64), (ClipPoser<'a>, f32)>,
    channels: Vec<Channel>,
    /// Channels of the human pose (after the joints').
    human_channels: std::ops::Range<usize>,
    layers: Vec<LayerSetup>,
    /// Rest values (the Write Defaults fallback).
    rest: Vec<f32>,
    /// The result being built, then the previous update's result.
    current: Vec<f32>,
    /// True once a layer animated the human pose (then the humanoid rig poses the body).
    human_active: bool,
    out: Vec<JointLocal>,
    options: PoseOptions,
    scratch: Scratch,
    warnings: Vec<String>,
}

impl<'a> PoseBlender<'a> {
    /// Binds `controller`'s layers to `skeleton` (and its humanoid avatar, which humanoid
    /// clips need) and every clip its leaves resolve to; `clip` finds a resolved clip's
    /// data (`None`: the leaf adds no pose, with a warning).
    pub fn new(
        controller: &Controller,
        skeleton: &'a Skeleton,
        humanoid: Option<&'a HumanoidRig>,
        clip: &dyn Fn(&ResolvedClip) -> Option<&'a ClipData>,
    ) -> PoseBlender<'a> {
        let (channels, human_channels) = channels(skeleton.joints.len());
        let rest = rest_values(skeleton);
        let mut warnings = Vec::new();
        let mut clips = HashMap::new();
        let mut layers = Vec::new();
        for layer in &controller.layers {
            let mut set = vec![false; channels.len()];
            let mut write_defaults = HashMap::new();
            for state in layer.state_machine.all_states() {
                write_defaults.insert(state.full_path.clone(), state.write_defaults);
                let Some(motion) = &state.motion else {
                    continue;
                };
                for resolved in resolved_clips(motion) {
                    let key = (resolved.file, resolved.path_id);
                    if !clips.contains_key(&key) {
                        match clip(resolved) {
                            Some(data) => {
                                let poser = ClipPoser::new(data, skeleton, humanoid);
                                if poser.is_humanoid()
                                    != crate::humanoid::ClipMuscles::new(data).is_humanoid()
                                {
                                    warnings.push(format!(
                                        "clip {:?} is humanoid but the rig has no humanoid avatar that can pose it: its muscles are not applied",
                                        resolved.name
                                    ));
                                }
                                clips.insert(key, (poser, resolved.start));
                            }
                            None => {
                                warnings.push(format!(
                                    "clip {:?} (path id {}) is not loaded: its leaves add no pose",
                                    resolved.name, resolved.path_id
                                ));
                                continue;
                            }
                        }
                    }
                    if let Some((poser, _)) = clips.get(&key) {
                        for (joint, target) in poser.animated() {
                            set[joint_channel(joint, target)] = true;
                        }
                        if poser.humanoid().is_some() {
                            set[human_channels.clone()].fill(true);
                        }
                    }
                }
            }
            if let Some(asset) = &layer.mask_asset {
                warnings.push(format!(
                    "layer {:?}: its mask ({asset}) could not be read: the layer plays unmasked",
                    layer.name
                ));
            }
            let joint_mask = mask::joint_factors(&layer.mask, skeleton);
            let human_mask = mask::human_factors(layer.body_mask.as_deref());
            let mask = channels
                .iter()
                .enumerate()
                .map(|(c, ch)| {
                    if human_channels.contains(&c) {
                        let s = ch.offset - skeleton.joints.len() * JOINT_STRIDE;
                        human_mask.get(s).copied().unwrap_or(1.0)
                    } else {
                        joint_mask.get(c / 3).copied().unwrap_or(1.0)
                    }
                })
                .collect();
            layers.push(LayerSetup {
                human: set[human_channels.clone()].iter().any(|&b| b),
                set: (0..channels.len()).filter(|&c| set[c]).collect(),
                in_set: set,
                mask,
                write_defaults,
            });
        }
        // Layer 0 covers every property the controller animates: the Animator binds them
        // all, so its states write their defaults (or keep the previous output, without
        // Write Defaults) under every other layer.
        let all: Vec<bool> = (0..channels.len())
            .map(|c| layers.iter().any(|l| l.in_set[c]))
            .collect();
        if let Some(base) = layers.first_mut() {
            base.set = (0..channels.len()).filter(|&c| all[c]).collect();
            base.human = all[human_channels.clone()].iter().any(|&b| b);
            base.in_set = all;
        }
        let n = rest.len();
        PoseBlender {
            skeleton,
            humanoid,
            posed_joints: humanoid.map(|h| h.posed_joints()).unwrap_or_default(),
            clips,
            channels,
            human_channels,
            layers,
            current: rest.clone(),
            rest,
            human_active: false,
            out: skeleton.joints.iter().map(JointLocal::rest).collect(),
            options: PoseOptions::default(),
            scratch: Scratch {
                layer: vec![0.0; n],
                reference: vec![0.0; n],
                state: vec![0.0; n],
                weight: Vec::new(),
                first: Vec::new(),
                posed: Vec::new(),
            },
            warnings,
        }
    }

    /// Humanoid posing options (root motion on by default).
    pub fn set_options(&mut self, options: PoseOptions) {
        self.options = options;
    }

    /// What binding found odd (clips not loaded, humanoid clips on a generic rig, masks
    /// that could not be read).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Forgets the previous result: the next update blends over the rest pose.
    pub fn reset(&mut self) {
        self.current.clone_from(&self.rest);
        self.human_active = false;
    }

    /// Every joint's local transform (Unity space, skeleton order) for one update's
    /// machine output, `layers[i]` being the controller's layer i.
    pub fn blend(&mut self, layers: &[LayerOutput]) -> &[JointLocal] {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.weight.resize(self.channels.len(), 0.0);
        scratch.first.resize(self.channels.len(), None);
        let setups = std::mem::take(&mut self.layers);
        for (i, out) in layers.iter().enumerate() {
            let Some(setup) = setups.get(i) else {
                continue;
            };
            if out.states.is_empty() || setup.set.is_empty() {
                continue;
            }
            let w = if i == 0 { 1.0 } else { out.weight as f32 };
            if w == 0.0 {
                continue;
            }
            self.human_active |= setup.human;
            let additive = i > 0 && out.mode == Blending::Additive;
            let mut layer = std::mem::take(&mut scratch.layer);
            self.evaluate(setup, out, false, &mut layer, &mut scratch);
            if additive {
                let mut reference = std::mem::take(&mut scratch.reference);
                self.evaluate(setup, out, true, &mut reference, &mut scratch);
                self.add(setup, w, &layer, &reference);
                scratch.reference = reference;
            } else {
                self.override_with(setup, w, &layer);
            }
            scratch.layer = layer;
        }
        self.layers = setups;
        self.write_out(&mut scratch);
        self.scratch = scratch;
        &self.out
    }

    /// `layer(P)` for every P of the layer's set, into `into` (at each clip's start when
    /// `reference`).
    fn evaluate(
        &self,
        setup: &LayerSetup,
        out: &LayerOutput,
        reference: bool,
        into: &mut [f32],
        scratch: &mut Scratch,
    ) {
        for &c in &setup.set {
            let ch = self.channels[c];
            into[ch.offset..ch.offset + ch.len].fill(0.0);
            scratch.first[c] = None;
        }
        for state in &out.states {
            let big_w = state.weight as f32;
            if big_w == 0.0 {
                continue;
            }
            for &c in &setup.set {
                let ch = self.channels[c];
                scratch.state[ch.offset..ch.offset + ch.len].fill(0.0);
                scratch.weight[c] = 0.0;
            }
            for leaf in &state.leaves {
                self.add_leaf(setup, leaf, reference, scratch);
            }
            let wd = setup
                .write_defaults
                .get(&state.path)
                .copied()
                .unwrap_or(true);
            let fallback = if wd { &self.rest } else { &self.current };
            for &c in &setup.set {
                let ch = self.channels[c];
                let range = ch.offset..ch.offset + ch.len;
                let rem = (1.0 - scratch.weight[c]).max(0.0);
                let mut fb = [0.0f32; 4];
                fb[..ch.len].copy_from_slice(&fallback[range.clone()]);
                if ch.quat {
                    fb = align(fb, &mut scratch.first[c]);
                }
                for (k, x) in into[range.clone()].iter_mut().enumerate() {
                    *x += big_w * (scratch.state[ch.offset + k] + rem * fb[k]);
                }
            }
        }
        for &c in &setup.set {
            let ch = self.channels[c];
            if ch.quat {
                let q = normalize(read4(into, ch.offset));
                into[ch.offset..ch.offset + 4].copy_from_slice(&q);
            }
        }
    }

    /// Adds one leaf's values, weighted by its tree weight, to the state's sums.
    fn add_leaf(&self, setup: &LayerSetup, leaf: &LeafOutput, reference: bool, s: &mut Scratch) {
        let w = leaf.tree_weight as f32;
        if w == 0.0 {
            return;
        }
        let (Some(file), Some(path_id)) = (leaf.file, leaf.path_id) else {
            return;
        };
        let Some((poser, start)) = self.clips.get(&(file, path_id)) else {
            return;
        };
        let t = if reference {
            *start
        } else {
            leaf.clip_time as f32
        };
        let (channels, state, weight, first) =
            (&self.channels, &mut s.state, &mut s.weight, &mut s.first);
        poser.sample_tracks(t, |joint, target, v| {
            let c = joint_channel(joint, target);
            if !setup.in_set.get(c).copied().unwrap_or(false) {
                return;
            }
            let ch = channels[c];
            let v = if ch.quat { align(v, &mut first[c]) } else { v };
            for k in 0..ch.len {
                state[ch.offset + k] += w * v[k];
            }
            weight[c] += w;
        });
        if let Some((_, muscles)) = poser.humanoid() {
            let mut pose = HumanPose::default();
            muscles.sample(poser.clip(), t, &mut pose);
            if leaf.mirror {
                pose = pose.mirrored();
            }
            let base = self.skeleton.joints.len() * JOINT_STRIDE;
            for c in self.human_channels.clone() {
                let ch = channels[c];
                let s0 = ch.offset - base;
                let mut v = [0.0f32; 4];
                for (k, x) in v.iter_mut().enumerate().take(ch.len) {
                    *x = pose.get(s0 + k).unwrap_or(0.0);
                }
                if ch.quat {
                    v = align(v, &mut first[c]);
                }
                for k in 0..ch.len {
                    state[ch.offset + k] += w * v[k];
                }
                weight[c] += w;
            }
        }
    }

    /// Override: `below·(1 − a) + layer·a` with `a = w·m`.
    fn override_with(&mut self, setup: &LayerSetup, w: f32, layer: &[f32]) {
        for &c in &setup.set {
            let a = w * setup.mask[c];
            if a == 0.0 {
                continue;
            }
            let ch = self.channels[c];
            let cur = &mut self.current[ch.offset..ch.offset + ch.len];
            let new = &layer[ch.offset..ch.offset + ch.len];
            if ch.quat {
                let below = read4(cur, 0);
                let mut first = Some(below);
                let l = align(read4(new, 0), &mut first);
                let q: [f32; 4] = std::array::from_fn(|k| below[k] * (1.0 - a) + l[k] * a);
                cur.copy_from_slice(&normalize(q));
            } else {
                for (x, n) in cur.iter_mut().zip(new) {
                    *x = *x * (1.0 - a) + n * a;
                }
            }
        }
    }

    /// Additive: `below + a·(layer − ref)`; rotations `below · slerp(1, ref⁻¹·layer, a)`.
    fn add(&mut self, setup: &LayerSetup, w: f32, layer: &[f32], reference: &[f32]) {
        for &c in &setup.set {
            let a = w * setup.mask[c];
            if a == 0.0 {
                continue;
            }
            let ch = self.channels[c];
            let r = ch.offset..ch.offset + ch.len;
            let cur = &mut self.current[r.clone()];
            if ch.quat {
                let d = Q::from_f32(read4(reference, ch.offset)).conj()
                    * Q::from_f32(read4(layer, ch.offset));
                let q = Q::from_f32(read4(cur, 0)) * slerp_identity(d, f64::from(a));
                cur.copy_from_slice(&q.normalize().to_f32());
            } else {
                for ((x, l), rf) in cur.iter_mut().zip(&layer[r.clone()]).zip(&reference[r]) {
                    *x += a * (l - rf);
                }
            }
        }
    }

    /// The joints' transforms from the blended values (the human pose posed by the rig).
    fn write_out(&mut self, scratch: &mut Scratch) {
        for (j, o) in self.out.iter_mut().enumerate() {
            let v = &self.current[j * JOINT_STRIDE..(j + 1) * JOINT_STRIDE];
            *o = JointLocal {
                t: [v[0], v[1], v[2]],
                q: [v[3], v[4], v[5], v[6]],
                s: [v[7], v[8], v[9]],
            };
        }
        let Some(rig) = self.humanoid.filter(|_| self.human_active) else {
            return;
        };
        let base = self.skeleton.joints.len() * JOINT_STRIDE;
        let mut pose = HumanPose::default();
        for s in 0..slot::COUNT {
            if let Some(&v) = self.current.get(base + s) {
                pose.set(s, v);
            }
        }
        scratch.posed.clone_from(&self.out);
        rig.pose(&pose, &self.options, &mut scratch.posed);
        for &j in &self.posed_joints {
            if let (Some(o), Some(p)) = (self.out.get_mut(j), scratch.posed.get(j)) {
                *o = *p;
            }
        }
    }
}

/// The leaf clips of a motion that were resolved.
fn resolved_clips(motion: &Motion) -> Vec<&ResolvedClip> {
    let mut out = Vec::new();
    collect_resolved(motion, &mut out, 0);
    out
}

fn collect_resolved<'m>(motion: &'m Motion, out: &mut Vec<&'m ResolvedClip>, depth: usize) {
    match motion {
        Motion::Clip(c) => out.extend(c.resolved.as_ref()),
        Motion::BlendTree(tree) if depth < 64 => {
            for m in tree.children.iter().filter_map(|c| c.motion.as_ref()) {
                collect_resolved(m, out, depth + 1);
            }
        }
        Motion::BlendTree(_) => {}
    }
}

/// The channel of a joint's position, rotation or scale.
fn joint_channel(joint: usize, target: TrackTarget) -> usize {
    joint * 3
        + match target {
            TrackTarget::Position => 0,
            TrackTarget::Rotation => 1,
            TrackTarget::Scale => 2,
        }
}

/// Every channel: per joint position, rotation, scale; then the human pose's values (each
/// quaternion as one channel, every other value alone).
fn channels(joints: usize) -> (Vec<Channel>, std::ops::Range<usize>) {
    let mut out = Vec::with_capacity(joints * 3 + slot::COUNT);
    for j in 0..joints {
        let o = j * JOINT_STRIDE;
        out.push(Channel {
            offset: o,
            len: 3,
            quat: false,
        });
        out.push(Channel {
            offset: o + 3,
            len: 4,
            quat: true,
        });
        out.push(Channel {
            offset: o + 7,
            len: 3,
            quat: false,
        });
    }
    let start = out.len();
    let base = joints * JOINT_STRIDE;
    // Quaternions: MotionQ, RootQ and each goal's Q.
    let quats: Vec<usize> = [3, 10]
        .into_iter()
        .chain((0..4).map(|g| slot::GOALS + 7 * g + 3))
        .collect();
    let mut s = 0;
    while s < slot::COUNT {
        if quats.contains(&s) {
            out.push(Channel {
                offset: base + s,
                len: 4,
                quat: true,
            });
            s += 4;
        } else {
            out.push(Channel {
                offset: base + s,
                len: 1,
                quat: false,
            });
            s += 1;
        }
    }
    let end = out.len();
    (out, start..end)
}

/// The rest values: each joint's rest transform, then the default human pose.
fn rest_values(skeleton: &Skeleton) -> Vec<f32> {
    let mut out = Vec::with_capacity(skeleton.joints.len() * JOINT_STRIDE + slot::COUNT);
    for j in &skeleton.joints {
        out.extend_from_slice(&j.position);
        out.extend_from_slice(&normalize(j.rotation));
        out.extend_from_slice(&j.scale);
    }
    let pose = HumanPose::default();
    out.extend((0..slot::COUNT).map(|s| pose.get(s).unwrap_or(0.0)));
    out
}

fn read4(v: &[f32], at: usize) -> [f32; 4] {
    std::array::from_fn(|k| v.get(at + k).copied().unwrap_or(0.0))
}

/// `q` in the hemisphere of the channel's first contributor (`q` becomes it when none).
fn align(q: [f32; 4], first: &mut Option<[f32; 4]>) -> [f32; 4] {
    match first {
        None => {
            *first = Some(q);
            q
        }
        Some(f) => {
            let dot: f32 = (0..4).map(|k| f[k] * q[k]).sum();
            if dot < 0.0 { q.map(|x| -x) } else { q }
        }
    }
}

/// A quaternion scaled to unit length (the identity when it has none).
fn normalize(q: [f32; 4]) -> [f32; 4] {
    let len = q.iter().map(|c| c * c).sum::<f32>().sqrt();
    if len > 0.0 && len.is_finite() {
        q.map(|c| c / len)
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

/// `slerp(identity, d, a)`: the rotation `d` scaled to the fraction `a` of its angle
/// (the short way round).
fn slerp_identity(d: Q, a: f64) -> Q {
    let d = d.normalize().positive_w();
    let half = d.w.clamp(-1.0, 1.0).acos();
    let s = half.sin();
    if s.abs() < 1e-9 {
        return Q::IDENTITY;
    }
    let k = (a * half).sin() / s;
    Q::new(d.x * k, d.y * k, d.z * k, (a * half).cos())
}
