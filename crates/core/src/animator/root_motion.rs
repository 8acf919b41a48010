//! Root motion of a playing controller: how far the rig's root travels on the ground (XZ) and
//! turns about the vertical between two updates, as Unity's Animator computes
//! `deltaPosition`/`deltaRotation` when "Apply Root Motion" is on (`humanoid.md` §4.5: the
//! root transform is the body projected onto the ground; its per-frame change is the root
//! motion).
//!
//! - Humanoid clips on a humanoid rig: the body frame (`RootT` × the human scale, `RootQ`)
//!   projected onto the ground: its X and Z, and its heading (the turn about +Y that takes
//!   +Z to the body's forward). Mirrored leaves move mirrored (x and heading negated).
//! - Generic clips: the root-motion bone (the Avatar's `m_RootMotionBoneIndex`, given as a
//!   joint of the skeleton) projected the same way, in the rig root's space (the joints
//!   above it at their rest pose).
//!
//! Each leaf clip of the machine's output moves from its clip time at the last update to
//! its clip time now; a loop wrap adds the clip's whole loop (the move to the clip's end,
//! the loops passed, then the move from its start). The moves are summed weighted by each
//! leaf's weight in its layer, and layers combine as their poses do (override layers
//! replace what is below by their weight, additive layers add), each scaled by its mask's
//! factor for the root (a humanoid body mask's Root bit, a skeleton mask's weight of the
//! bone).
//!
//! A move is in the frame of the root at its start (Unity's space: metres, radians), so the
//! caller applies it under the character's current placement; see [`RootDelta`].
//!
//! Not modelled: the clip settings that bake parts of the root into the pose or base them on
//! the original (`m_LoopBlendOrientation`, `m_KeepOriginal*`, `m_OrientationOffsetY`: the
//! spec gives no formula), vertical root motion, and the animated transforms of joints above
//! a generic root-motion bone.

use std::collections::HashMap;
use std::sync::Arc;

use super::machine::LayerOutput;
use super::mask;
use super::model::{Blending, Controller};
use crate::avatar::AvatarData;
use crate::clip::{BindingKind, ClipData};
use crate::curve::euler_quat;
use crate::humanoid::math::{Q, Trs, V3};
use crate::humanoid::slot;
use crate::humanoid::{ClipMuscles, JointLocal};
use crate::rig::Skeleton;

/// Most loops one update may pass (more are not added: a guard against absurd steps).
const MAX_LOOPS: i64 = 1024;

/// A root on the ground: its place on the XZ plane and its heading (radians about +Y; 0
/// faces +Z, positive turns +Z towards +X), in Unity's space.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Ground {
    pub x: f64,
    pub z: f64,
    pub heading: f64,
}

impl Ground {
    /// The ground projection of a frame at `t` with rotation `q`: the X and Z of `t`, the
    /// heading of `q`'s forward (+Z). A forward straight up or down has heading 0.
    pub fn of(t: V3, q: Q) -> Ground {
        let f = q.rotate(V3::new(0.0, 0.0, 1.0));
        let heading = if f.x.abs() + f.z.abs() > 1e-12 {
            f.x.atan2(f.z)
        } else {
            0.0
        };
        Ground {
            x: t.x,
            z: t.z,
            heading,
        }
    }

    /// The same root seen in a mirror across the YZ plane (a mirrored humanoid clip).
    pub fn mirrored(self) -> Ground {
        Ground {
            x: -self.x,
            z: self.z,
            heading: -self.heading,
        }
    }

    /// The ground frame as a transform (the rotation about +Y by the heading).
    pub fn trs(self) -> Trs {
        Trs {
            t: V3::new(self.x, 0.0, self.z),
            q: Q::axis_angle(V3::new(0.0, 1.0, 0.0), self.heading),
            s: V3::ONE,
        }
    }
}

/// Rotates the ground vector (x, z) by `angle` about +Y.
fn turn(x: f64, z: f64, angle: f64) -> (f64, f64) {
    let (s, c) = angle.sin_cos();
    (x * c + z * s, z * c - x * s)
}

/// A move of the root in its own frame at the move's start: travel `x`, `z` (metres) and a
/// turn (radians about +Y). A root placed at `g` ends at [`RootDelta::apply`]`(g)`; Unity's
/// `deltaPosition` is the travel turned by the character's rotation, `deltaRotation` the
/// turn.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RootDelta {
    pub x: f64,
    pub z: f64,
    pub turn: f64,
}

impl RootDelta {
    /// No move.
    pub const ZERO: RootDelta = RootDelta {
        x: 0.0,
        z: 0.0,
        turn: 0.0,
    };

    /// The move from `a` to `b`, in `a`'s frame.
    pub fn between(a: Ground, b: Ground) -> RootDelta {
        let (x, z) = turn(b.x - a.x, b.z - a.z, -a.heading);
        RootDelta {
            x,
            z,
            turn: b.heading - a.heading,
        }
    }

    /// This move, then `next` (in the frame this one ends in).
    pub fn then(self, next: RootDelta) -> RootDelta {
        let (x, z) = turn(next.x, next.z, self.turn);
        RootDelta {
            x: self.x + x,
            z: self.z + z,
            turn: self.turn + next.turn,
        }
    }

    /// The move back.
    pub fn inverse(self) -> RootDelta {
        let (x, z) = turn(-self.x, -self.z, -self.turn);
        RootDelta {
            x,
            z,
            turn: -self.turn,
        }
    }

    /// Travel and turn scaled by `w` (a weight in a blend of moves).
    pub fn scaled(self, w: f64) -> RootDelta {
        RootDelta {
            x: self.x * w,
            z: self.z * w,
            turn: self.turn * w,
        }
    }

    /// The weighted sum of two moves' travel and turn.
    pub fn plus(self, o: RootDelta) -> RootDelta {
        RootDelta {
            x: self.x + o.x,
            z: self.z + o.z,
            turn: self.turn + o.turn,
        }
    }

    /// Where a root at `g` ends after this move.
    pub fn apply(self, g: Ground) -> Ground {
        let (x, z) = turn(self.x, self.z, g.heading);
        Ground {
            x: g.x + x,
            z: g.z + z,
            heading: g.heading + self.turn,
        }
    }

    /// True when travel and turn are finite.
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.z.is_finite() && self.turn.is_finite()
    }
}

/// A rotation track of the root-motion bone.
#[derive(Clone, Debug)]
enum Rotation {
    Quat([usize; 4]),
    Euler([usize; 3], u8),
}

/// Where a clip's root comes from.
#[derive(Clone, Debug)]
enum Source {
    /// The body frame: `RootT` and `RootQ` curves as (curve, slot offset 0..7), and the
    /// human scale.
    Body {
        curves: Vec<(usize, usize)>,
        scale: f64,
    },
    /// The root-motion bone's tracks over its rest pose, under its parents' rest pose
    /// (`parent`, in the root's space).
    Bone {
        position: Option<[usize; 3]>,
        rotation: Option<Rotation>,
        rest: Trs,
        parent: Trs,
    },
}

/// One clip that moves the root.
#[derive(Clone, Debug)]
struct ClipRoot {
    data: Arc<ClipData>,
    source: Source,
}

impl ClipRoot {
    /// The root's ground at clip time `t` (seconds, the clip's own time).
    fn ground(&self, t: f32, mirror: bool) -> Ground {
        let d = &self.data;
        match &self.source {
            Source::Body { curves, scale } => {
                let mut v = [0.0f32, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];
                for &(c, k) in curves {
                    if let Some(x) = d.sample_curve(c, t).filter(|x| x.is_finite()) {
                        v[k] = x;
                    }
                }
                let t = V3::from_f32([v[0], v[1], v[2]]) * *scale;
                let q = Q::from_f32([v[3], v[4], v[5], v[6]]);
                let q = if q.dot(q) > 0.0 {
                    q.normalize()
                } else {
                    Q::IDENTITY
                };
                let g = Ground::of(t, q);
                if mirror { g.mirrored() } else { g }
            }
            Source::Bone {
                position,
                rotation,
                rest,
                parent,
            } => {
                let s = |c: usize| {
                    d.sample_curve(c, t)
                        .filter(|x| x.is_finite())
                        .unwrap_or(0.0)
                };
                let mut local = *rest;
                if let Some(p) = position {
                    local.t = V3::from_f32(p.map(s));
                }
                match rotation {
                    Some(Rotation::Quat(c)) => {
                        let q = Q::from_f32(c.map(s));
                        if q.dot(q) > 0.0 {
                            local.q = q.normalize();
                        }
                    }
                    Some(Rotation::Euler(c, order)) => {
                        local.q = Q::from_f32(euler_quat(c.map(s), *order)).normalize();
                    }
                    None => {}
                }
                let world = parent.then(&local);
                Ground::of(world.t, world.q)
            }
        }
    }

    /// The move from clip time `from` to `to`, with `loops` loop wraps between (positive
    /// forwards: to the end, whole loops, from the start; negative backwards).
    fn delta(&self, from: f32, to: f32, loops: i64, mirror: bool) -> RootDelta {
        let g = |t: f32| self.ground(t, mirror);
        let (start, stop) = (self.data.start, self.data.stop);
        if loops == 0 {
            return RootDelta::between(g(from), g(to));
        }
        let whole = RootDelta::between(g(start), g(stop));
        let (first, loop_delta, last) = if loops > 0 {
            (
                RootDelta::between(g(from), g(stop)),
                whole,
                RootDelta::between(g(start), g(to)),
            )
        } else {
            (
                RootDelta::between(g(from), g(start)),
                whole.inverse(),
                RootDelta::between(g(stop), g(to)),
            )
        };
        let mut d = first;
        for _ in 1..loops.abs().min(MAX_LOOPS) {
            d = d.then(loop_delta);
        }
        d.then(last)
    }
}

/// (layer, state path, which entry of that path, leaf index).
type Key = (usize, String, usize, usize);

/// What the root moves with: the rig's human scale (a humanoid rig) or its root-motion
/// bone (a generic one).
#[derive(Clone, Copy, Debug, Default)]
pub struct RootRig<'a> {
    /// The skeleton the controller plays on.
    pub skeleton: Option<&'a Skeleton>,
    /// The human scale of a humanoid rig (`m_Scale`): humanoid clips move the body.
    pub human_scale: Option<f64>,
    /// The generic root-motion bone, a joint of `skeleton`.
    pub bone: Option<usize>,
}

/// Follows a controller's leaves from update to update and sums their root motion.
#[derive(Clone, Debug, Default)]
pub struct RootMotion {
    /// The clips that move the root, by (file index, path id).
    clips: HashMap<(usize, i64), ClipRoot>,
    /// Each layer's mask factor for the root.
    layer_factors: Vec<f64>,
    /// Each leaf's last (phase, clip time).
    last: HashMap<Key, (f64, f32)>,
}

impl RootMotion {
    /// Root motion for `controller` on `rig`, from `clips` (the leaves' clip data by file
    /// index and path id). Humanoid clips move the body when the rig is humanoid; generic
    /// clips move the bone when the rig names one and the clip animates it.
    pub fn new(
        controller: &Controller,
        rig: RootRig<'_>,
        clips: &HashMap<(usize, i64), Arc<ClipData>>,
    ) -> RootMotion {
        let bone = rig
            .skeleton
            .zip(rig.bone)
            .and_then(|(s, b)| Some((s, b, s.joints.get(b)?)));
        let clips = clips
            .iter()
            .filter_map(|(&key, data)| {
                let source = match rig.human_scale {
                    Some(scale) => body_source(data, scale),
                    None => None,
                }
                .or_else(|| {
                    let (skeleton, b, joint) = bone?;
                    bone_source(data, skeleton, b, joint.path_hash)
                })?;
                Some((
                    key,
                    ClipRoot {
                        data: data.clone(),
                        source,
                    },
                ))
            })
            .collect();
        let layer_factors = controller
            .layers
            .iter()
            .map(|layer| {
                let body = match &layer.body_mask {
                    Some(words) => mask::human_factors(Some(words.as_slice()))
                        .get(slot::ROOT)
                        .copied()
                        .unwrap_or(1.0),
                    None => 1.0,
                };
                let bone = match bone {
                    Some((skeleton, b, _)) if rig.human_scale.is_none() => {
                        mask::joint_factors(&layer.mask, skeleton)
                            .get(b)
                            .copied()
                            .unwrap_or(1.0)
                    }
                    _ => 1.0,
                };
                (body * bone) as f64
            })
            .collect();
        RootMotion {
            clips,
            layer_factors,
            last: HashMap::new(),
        }
    }

    /// True when no clip of the controller moves the root.
    pub fn is_empty(&self) -> bool {
        self.clips.is_empty()
    }

    /// Notes where every leaf is without moving the root (for updates whose motion is not
    /// applied, so that a later [`RootMotion::update`] starts from here).
    pub fn observe(&mut self, layers: &[LayerOutput]) {
        self.step(layers, false);
    }

    /// The root's move since the last call (or [`RootMotion::observe`]), in the frame of
    /// the root at the last call. Leaves seen for the first time, or whose time jumped
    /// against their state's speed (a state entered again), start where they are.
    pub fn update(&mut self, layers: &[LayerOutput]) -> RootDelta {
        self.step(layers, true)
    }

    fn step(&mut self, layers: &[LayerOutput], apply: bool) -> RootDelta {
        if self.clips.is_empty() {
            return RootDelta::ZERO;
        }
        let mut seen = HashMap::with_capacity(self.last.len());
        let mut total = RootDelta::ZERO;
        for (l, layer) in layers.iter().enumerate() {
            let mut occurrences: HashMap<&str, usize> = HashMap::new();
            let mut moved = RootDelta::ZERO;
            let mut cover = 0.0;
            for s in &layer.states {
                let n = occurrences.entry(s.path.as_str()).or_default();
                let entry = *n;
                *n += 1;
                if s.frozen {
                    continue;
                }
                for (i, leaf) in s.leaves.iter().enumerate() {
                    let (Some(file), Some(path_id)) = (leaf.file, leaf.path_id) else {
                        continue;
                    };
                    let Some(root) = self.clips.get(&(file, path_id)) else {
                        continue;
                    };
                    let now = (leaf.phase, leaf.clip_time as f32);
                    let key = (l, s.path.clone(), entry, i);
                    let before = self.last.get(&key).copied();
                    seen.insert(key, now);
                    if !apply || leaf.weight <= 0.0 {
                        continue;
                    }
                    cover += leaf.weight;
                    let Some(before) = before else { continue };
                    let jumped = if s.speed >= 0.0 {
                        now.0 < before.0
                    } else {
                        now.0 > before.0
                    };
                    if jumped {
                        continue;
                    }
                    let loops = if leaf.looping {
                        loops_between(&root.data, before, now)
                    } else {
                        0
                    };
                    let d = root.delta(before.1, now.1, loops, leaf.mirror);
                    if d.is_finite() {
                        moved = moved.plus(d.scaled(leaf.weight));
                    }
                }
            }
            if !apply {
                continue;
            }
            let factor = self.layer_factors.get(l).copied().unwrap_or(1.0);
            let w = if l == 0 {
                factor
            } else {
                layer.weight * factor
            };
            total = match layer.mode {
                Blending::Additive => total.plus(moved.scaled(w)),
                Blending::Override => total
                    .scaled(1.0 - (w * cover.min(1.0)).clamp(0.0, 1.0))
                    .plus(moved.scaled(w)),
            };
        }
        self.last = seen;
        total
    }
}

/// How many times a looping leaf wrapped between `before` and `now` (phase, clip time):
/// the phase's advance less the clip time's, in whole loops.
fn loops_between(data: &ClipData, before: (f64, f32), now: (f64, f32)) -> i64 {
    let length = (data.stop - data.start) as f64;
    if length <= 0.0 || !length.is_finite() {
        return 0;
    }
    let k = (now.0 - before.0) - (now.1 as f64 - before.1 as f64) / length;
    if k.is_finite() {
        (k.round() as i64).clamp(-MAX_LOOPS, MAX_LOOPS)
    } else {
        0
    }
}

/// A humanoid clip's body curves (`RootT`, `RootQ`), when it has any.
fn body_source(data: &ClipData, scale: f64) -> Option<Source> {
    let curves: Vec<(usize, usize)> = ClipMuscles::new(data)
        .curves
        .into_iter()
        .filter_map(|(c, s)| {
            let k = s.checked_sub(slot::ROOT)?;
            (k < 7).then_some((c, k))
        })
        .collect();
    (!curves.is_empty()).then_some(Source::Body { curves, scale })
}

/// A generic clip's tracks of the root-motion bone `bone` (path hash `hash`), when it has
/// a position or rotation track for it.
fn bone_source(data: &ClipData, skeleton: &Skeleton, bone: usize, hash: u32) -> Option<Source> {
    let mut position = None;
    let mut rotation = None;
    for track in &data.tracks {
        let Some(binding) = data.bindings.get(track.binding) else {
            continue;
        };
        if binding.path != hash || !binding.is_transform() {
            continue;
        }
        let c = &track.curves;
        match binding.kind() {
            BindingKind::Position if c.len() >= 3 => position = Some([c[0], c[1], c[2]]),
            BindingKind::Rotation if c.len() >= 4 => {
                rotation = Some(Rotation::Quat([c[0], c[1], c[2], c[3]]));
            }
            BindingKind::Euler { order } if c.len() >= 3 => {
                rotation = Some(Rotation::Euler([c[0], c[1], c[2]], order));
            }
            _ => {}
        }
    }
    if position.is_none() && rotation.is_none() {
        return None;
    }
    let joint = skeleton.joints.get(bone)?;
    Some(Source::Bone {
        position,
        rotation,
        rest: rest_trs(&JointLocal::rest(joint)),
        parent: parent_rest(skeleton, bone),
    })
}

fn rest_trs(l: &JointLocal) -> Trs {
    Trs {
        t: V3::from_f32(l.t),
        q: Q::from_f32(l.q).normalize(),
        s: V3::from_f32(l.s),
    }
}

/// The rest pose of the joints above `bone` (the root excluded), in the root's space.
fn parent_rest(skeleton: &Skeleton, bone: usize) -> Trs {
    chain(skeleton, bone, |j| {
        skeleton
            .joints
            .get(j)
            .map(|joint| rest_trs(&JointLocal::rest(joint)))
    })
}

/// The product of the local transforms (`local`) of the joints above `bone`, below the
/// root (joint 0, whose own transform is the character's placement).
fn chain(skeleton: &Skeleton, bone: usize, local: impl Fn(usize) -> Option<Trs>) -> Trs {
    let mut above = Vec::new();
    let mut at = skeleton.joints.get(bone).and_then(|j| j.parent);
    while let Some(p) = at {
        if p == 0 || above.len() > skeleton.joints.len() {
            break;
        }
        above.push(p);
        at = skeleton.joints.get(p).and_then(|j| j.parent);
    }
    above
        .iter()
        .rev()
        .fold(Trs::IDENTITY, |acc, &j| match local(j) {
            Some(l) => acc.then(&l),
            None => acc,
        })
}

/// The joint of `skeleton` that the Avatar names as its generic root-motion bone
/// (`m_RootMotionBoneIndex`, matched by its path hash), where it has one.
pub fn root_motion_joint(avatar: &AvatarData, skeleton: &Skeleton) -> Option<usize> {
    let node = avatar.skeleton.nodes.get(avatar.root_motion_node?)?;
    skeleton.joint_by_hash(node.id).filter(|&j| j != 0)
}

/// Takes the ground projection out of a generic root-motion bone's pose (`locals`, one per
/// joint): what stays is its height and tilt over the root, facing +Z, as Unity leaves the
/// bone when its travel and turn move the GameObject instead.
pub fn keep_bone_in_place(locals: &mut [JointLocal], skeleton: &Skeleton, bone: usize) {
    if bone == 0 || bone >= locals.len() {
        return;
    }
    let parent = chain(skeleton, bone, |j| locals.get(j).map(rest_trs));
    let world = parent.then(&rest_trs(&locals[bone]));
    let ground = Ground::of(world.t, world.q).trs();
    let in_place = ground.local_of(&world);
    let local = parent.local_of(&in_place);
    let l = &mut locals[bone];
    l.t = local.t.to_f32();
    l.q = local.q.to_f32();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: RootDelta, b: RootDelta) -> bool {
        (a.x - b.x).abs() < 1e-12 && (a.z - b.z).abs() < 1e-12 && (a.turn - b.turn).abs() < 1e-12
    }

    #[test]
    fn a_move_between_two_grounds_takes_the_first_to_the_second() {
        let a = Ground {
            x: 1.0,
            z: -2.0,
            heading: 0.7,
        };
        let b = Ground {
            x: -0.5,
            z: 3.0,
            heading: -1.1,
        };
        let g = RootDelta::between(a, b).apply(a);
        assert!((g.x - b.x).abs() < 1e-12 && (g.z - b.z).abs() < 1e-12);
        assert!((g.heading - b.heading).abs() < 1e-12);
        // Turned 90° (facing +X), a step forward in the root's frame goes to +X.
        let d = RootDelta {
            x: 0.0,
            z: 1.0,
            turn: 0.0,
        };
        let g = d.apply(Ground {
            x: 0.0,
            z: 0.0,
            heading: std::f64::consts::FRAC_PI_2,
        });
        assert!((g.x - 1.0).abs() < 1e-12 && g.z.abs() < 1e-12);
    }

    #[test]
    fn moves_compose_and_invert() {
        let a = RootDelta {
            x: 0.3,
            z: 1.0,
            turn: 0.5,
        };
        let b = RootDelta {
            x: -0.2,
            z: 0.4,
            turn: -1.2,
        };
        let start = Ground {
            x: 2.0,
            z: 1.0,
            heading: 0.25,
        };
        let g1 = a.then(b).apply(start);
        let g2 = b.apply(a.apply(start));
        assert!((g1.x - g2.x).abs() < 1e-12 && (g1.z - g2.z).abs() < 1e-12);
        assert!((g1.heading - g2.heading).abs() < 1e-12);
        assert!(close(a.then(a.inverse()), RootDelta::ZERO));
    }

    #[test]
    fn a_heading_is_the_turn_of_the_forward_about_up() {
        let q =
            Q::axis_angle(V3::new(0.0, 1.0, 0.0), 0.8) * Q::axis_angle(V3::new(1.0, 0.0, 0.0), 0.3);
        let g = Ground::of(V3::new(1.0, 5.0, 2.0), q);
        assert!((g.heading - 0.8).abs() < 1e-12, "{g:?}");
        assert_eq!((g.x, g.z), (1.0, 2.0));
    }
}
