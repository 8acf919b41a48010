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
use std::sync::Arc;

use super::layer_rules::{Channel, V4, add, align, normalize, override_with};
use super::machine::{LayerOutput, LeafOutput};
use super::mask;
use super::model::{Blending, Controller, Motion, ResolvedClip};
use crate::clip::ClipData;
use crate::humanoid::pose::slot;
use crate::humanoid::{ClipMuscles, HumanPose, HumanoidRig, JointLocal, PoseOptions};
use crate::pose::{ClipPoser, TrackTarget};
use crate::rig::Skeleton;

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
    layer: Vec<V4>,
    reference: Vec<V4>,
    state: Vec<V4>,
    weight: Vec<f32>,
    first: Vec<Option<V4>>,
    posed: Vec<JointLocal>,
}

/// A controller's layers bound to one rig and its clips: what every instance shares.
struct Bound<'a> {
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
    rest: Vec<V4>,
    warnings: Vec<String>,
}

/// A controller's layers bound to one rig and the clips its leaves name: turns each
/// update's machine output into joint transforms. Keeps the previous result (layer 0's
/// "below" for states without Write Defaults). Many characters that share a rig and a
/// controller share one binding: [`PoseBlender::instance`].
pub struct PoseBlender<'a> {
    bound: Arc<Bound<'a>>,
    /// The result being built, then the previous update's result.
    current: Vec<V4>,
    /// True once a layer animated the human pose (then the humanoid rig poses the body).
    human_active: bool,
    out: Vec<JointLocal>,
    options: PoseOptions,
    scratch: Scratch,
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
        let (channels, human_channels) = channels(skeleton.joints.len(), humanoid.is_some());
        let mut b = Bound {
            skeleton,
            humanoid,
            posed_joints: humanoid.map(|h| h.posed_joints()).unwrap_or_default(),
            clips: HashMap::new(),
            rest: rest_values(skeleton, &channels, &human_channels),
            channels,
            human_channels,
            layers: Vec::new(),
            warnings: Vec::new(),
        };
        for layer in &controller.layers {
            let setup = b.setup(layer, clip);
            b.layers.push(setup);
        }
        // Layer 0 covers every property the controller animates: the Animator binds them
        // all, so its states write their defaults (or keep the previous output, without
        // Write Defaults) under every other layer.
        let n = b.channels.len();
        let all: Vec<bool> = (0..n)
            .map(|c| b.layers.iter().any(|l| l.in_set[c]))
            .collect();
        if let Some(base) = b.layers.first_mut() {
            base.set = (0..n).filter(|&c| all[c]).collect();
            base.human = all[b.human_channels.clone()].iter().any(|&x| x);
            base.in_set = all;
        }
        PoseBlender::from_bound(Arc::new(b))
    }

    fn from_bound(bound: Arc<Bound<'a>>) -> PoseBlender<'a> {
        let n = bound.channels.len();
        PoseBlender {
            current: bound.rest.clone(),
            human_active: false,
            out: bound.skeleton.joints.iter().map(JointLocal::rest).collect(),
            options: PoseOptions::default(),
            scratch: Scratch {
                layer: vec![[0.0; 4]; n],
                reference: vec![[0.0; 4]; n],
                state: vec![[0.0; 4]; n],
                weight: vec![0.0; n],
                first: vec![None; n],
                posed: Vec::new(),
            },
            bound,
        }
    }

    /// Another blender for the same controller, rig and clips (another character), sharing
    /// this one's binding, starting from the rest pose.
    pub fn instance(&self) -> PoseBlender<'a> {
        let mut b = PoseBlender::from_bound(Arc::clone(&self.bound));
        b.options = self.options;
        b
    }

    /// Humanoid posing options (root motion on by default).
    pub fn set_options(&mut self, options: PoseOptions) {
        self.options = options;
    }

    /// What binding found odd (clips not loaded, humanoid clips on a generic rig, masks
    /// that could not be read).
    pub fn warnings(&self) -> &[String] {
        &self.bound.warnings
    }

    /// Forgets the previous result: the next update blends over the rest pose.
    pub fn reset(&mut self) {
        self.current.clone_from(&self.bound.rest);
        self.human_active = false;
    }

    /// Every joint's local transform (Unity space, skeleton order) for one update's
    /// machine output, `layers[i]` being the controller's layer i.
    pub fn blend(&mut self, layers: &[LayerOutput]) -> &[JointLocal] {
        let mut scratch = std::mem::take(&mut self.scratch);
        let bound = Arc::clone(&self.bound);
        for (i, out) in layers.iter().enumerate() {
            let Some(setup) = bound.layers.get(i) else {
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
            let mut layer = std::mem::take(&mut scratch.layer);
            bound.evaluate(setup, out, false, &self.current, &mut layer, &mut scratch);
            if i > 0 && out.mode == Blending::Additive {
                let mut reference = std::mem::take(&mut scratch.reference);
                bound.evaluate(
                    setup,
                    out,
                    true,
                    &self.current,
                    &mut reference,
                    &mut scratch,
                );
                add(
                    (&setup.set, &setup.mask),
                    w,
                    &bound.channels,
                    &layer,
                    &reference,
                    &mut self.current,
                );
                scratch.reference = reference;
            } else {
                override_with(
                    (&setup.set, &setup.mask),
                    w,
                    &bound.channels,
                    &layer,
                    &mut self.current,
                );
            }
            scratch.layer = layer;
        }
        self.write_out(&mut scratch);
        self.scratch = scratch;
        &self.out
    }

    /// The joints' transforms from the blended values (the human pose posed by the rig).
    fn write_out(&mut self, scratch: &mut Scratch) {
        let cur = &self.current;
        for (j, o) in self.out.iter_mut().enumerate() {
            let (t, q, s) = (cur[3 * j], cur[3 * j + 1], cur[3 * j + 2]);
            *o = JointLocal {
                t: [t[0], t[1], t[2]],
                q,
                s: [s[0], s[1], s[2]],
            };
        }
        let b = &self.bound;
        let Some(rig) = b.humanoid.filter(|_| self.human_active) else {
            return;
        };
        let mut pose = HumanPose::default();
        for c in b.human_channels.clone() {
            let ch = b.channels[c];
            for (k, v) in cur[c][..ch.len].iter().enumerate() {
                pose.set(ch.slot + k, *v);
            }
        }
        scratch.posed.clone_from(&self.out);
        rig.pose(&pose, &self.options, &mut scratch.posed);
        for &j in &b.posed_joints {
            if let (Some(o), Some(p)) = (self.out.get_mut(j), scratch.posed.get(j)) {
                *o = *p;
            }
        }
    }
}

impl<'a> Bound<'a> {
    /// One layer's property set, masks and Write Defaults; binds the clips it reaches.
    fn setup(
        &mut self,
        layer: &super::model::Layer,
        clip: &dyn Fn(&ResolvedClip) -> Option<&'a ClipData>,
    ) -> LayerSetup {
        let n = self.channels.len();
        let mut set = vec![false; n];
        let mut write_defaults = HashMap::new();
        for state in layer.state_machine.all_states() {
            write_defaults.insert(state.full_path.clone(), state.write_defaults);
            let Some(motion) = &state.motion else {
                continue;
            };
            for resolved in resolved_clips(motion) {
                let key = (resolved.file, resolved.path_id);
                if !self.clips.contains_key(&key) && !self.bind(resolved, clip) {
                    continue;
                }
                if let Some((poser, _)) = self.clips.get(&key) {
                    for (joint, target) in poser.animated() {
                        if let Some(x) = set.get_mut(joint_channel(joint, target)) {
                            *x = true;
                        }
                    }
                    if poser.humanoid().is_some() {
                        set[self.human_channels.clone()].fill(true);
                    }
                }
            }
        }
        if let Some(asset) = &layer.mask_asset {
            self.warnings.push(format!(
                "layer {:?}: its mask ({asset}) could not be read: the layer plays unmasked",
                layer.name
            ));
        }
        let joint_mask = mask::joint_factors(&layer.mask, self.skeleton);
        let human_mask = mask::human_factors(layer.body_mask.as_deref());
        let mask = (0..n)
            .map(|c| {
                if self.human_channels.contains(&c) {
                    human_mask
                        .get(self.channels[c].slot)
                        .copied()
                        .unwrap_or(1.0)
                } else {
                    joint_mask.get(c / 3).copied().unwrap_or(1.0)
                }
            })
            .collect();
        LayerSetup {
            human: set[self.human_channels.clone()].iter().any(|&b| b),
            set: (0..n).filter(|&c| set[c]).collect(),
            in_set: set,
            mask,
            write_defaults,
        }
    }

    /// Binds a resolved clip (false, with a warning, when its data is not there).
    fn bind(
        &mut self,
        resolved: &ResolvedClip,
        clip: &dyn Fn(&ResolvedClip) -> Option<&'a ClipData>,
    ) -> bool {
        let Some(data) = clip(resolved) else {
            self.warnings.push(format!(
                "clip {:?} (path id {}) is not loaded: its leaves add no pose",
                resolved.name, resolved.path_id
            ));
            return false;
        };
        let poser = ClipPoser::new(data, self.skeleton, self.humanoid).packed();
        if !poser.is_humanoid() && ClipMuscles::new(data).is_humanoid() {
            self.warnings.push(format!(
                "clip {:?} is humanoid but the rig has no humanoid avatar that can pose it: its muscles are not applied",
                resolved.name
            ));
        }
        self.clips
            .insert((resolved.file, resolved.path_id), (poser, resolved.start));
        true
    }

    /// `layer(P)` for every P of the layer's set, into `into` (at each clip's start when
    /// `reference`); `below` is the value under the layer.
    fn evaluate(
        &self,
        setup: &LayerSetup,
        out: &LayerOutput,
        reference: bool,
        below: &[V4],
        into: &mut [V4],
        s: &mut Scratch,
    ) {
        for &c in &setup.set {
            into[c] = [0.0; 4];
            s.first[c] = None;
        }
        for state in &out.states {
            let big_w = state.weight as f32;
            if big_w == 0.0 {
                continue;
            }
            for &c in &setup.set {
                s.state[c] = [0.0; 4];
                s.weight[c] = 0.0;
            }
            for leaf in &state.leaves {
                self.add_leaf(setup, leaf, reference, s);
            }
            let wd = setup
                .write_defaults
                .get(&state.path)
                .copied()
                .unwrap_or(true);
            let fallback = if wd { &self.rest } else { below };
            for &c in &setup.set {
                let rem = (1.0 - s.weight[c]).max(0.0);
                let mut fb = fallback[c];
                if self.channels[c].quat {
                    fb = align(fb, &mut s.first[c]);
                }
                let (st, x) = (&s.state[c], &mut into[c]);
                for k in 0..4 {
                    x[k] += big_w * (st[k] + rem * fb[k]);
                }
            }
        }
        for &c in &setup.set {
            if self.channels[c].quat {
                into[c] = normalize(into[c]);
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
        let (state, weight, first) = (&mut s.state, &mut s.weight, &mut s.first);
        let mut accumulate = |c: usize, v: V4, quat: bool| {
            let v = if quat { align(v, &mut first[c]) } else { v };
            let x = &mut state[c];
            for k in 0..4 {
                x[k] += w * v[k];
            }
            weight[c] += w;
        };
        poser.sample_tracks(t, |joint, target, v| {
            let c = joint_channel(joint, target);
            if setup.in_set.get(c).copied().unwrap_or(false) {
                accumulate(c, v, target == TrackTarget::Rotation);
            }
        });
        if let Some((_, muscles)) = poser.humanoid() {
            let mut pose = HumanPose::default();
            muscles.sample(poser.clip(), t, &mut pose);
            if leaf.mirror {
                pose = pose.mirrored();
            }
            for c in self.human_channels.clone() {
                let ch = self.channels[c];
                let v: V4 = std::array::from_fn(|k| {
                    if k < ch.len {
                        pose.get(ch.slot + k).unwrap_or(0.0)
                    } else {
                        0.0
                    }
                });
                accumulate(c, v, ch.quat);
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

/// Every channel: per joint position, rotation, scale; then, for a humanoid rig, the human
/// pose's values (each quaternion as one channel, every other value alone).
fn channels(joints: usize, human: bool) -> (Vec<Channel>, std::ops::Range<usize>) {
    let joint = |len, quat| Channel { len, quat, slot: 0 };
    let mut out = Vec::with_capacity(joints * 3 + slot::COUNT);
    for _ in 0..joints {
        out.extend([joint(3, false), joint(4, true), joint(3, false)]);
    }
    let start = out.len();
    // Quaternions: MotionQ, RootQ and each goal's Q.
    let quats: Vec<usize> = [3, slot::ROOT + 3]
        .into_iter()
        .chain((0..4).map(|g| slot::GOALS + 7 * g + 3))
        .collect();
    let mut s = if human { 0 } else { slot::COUNT };
    while s < slot::COUNT {
        let quat = quats.contains(&s);
        let len = if quat { 4 } else { 1 };
        out.push(Channel { len, quat, slot: s });
        s += len;
    }
    let end = out.len();
    (out, start..end)
}

/// The rest values: each joint's rest transform, then the default human pose.
fn rest_values(
    skeleton: &Skeleton,
    channels: &[Channel],
    human: &std::ops::Range<usize>,
) -> Vec<V4> {
    let mut out = Vec::with_capacity(channels.len());
    for j in &skeleton.joints {
        let (t, s) = (j.position, j.scale);
        out.extend([
            [t[0], t[1], t[2], 0.0],
            normalize(j.rotation),
            [s[0], s[1], s[2], 0.0],
        ]);
    }
    let pose = HumanPose::default();
    for c in human.clone() {
        let ch = channels[c];
        out.push(std::array::from_fn(|k| {
            if k < ch.len {
                pose.get(ch.slot + k).unwrap_or(0.0)
            } else {
                0.0
            }
        }));
    }
    out
}
