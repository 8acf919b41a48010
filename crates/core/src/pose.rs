//! A rig posed by a clip at a time, in Unity's space: what `clipscope pose` prints.
//!
//! Generic clips move joints by their Transform tracks over the rig's rest pose. Humanoid
//! clips on a humanoid rig are posed from their muscles ([`HumanoidRig::pose`]) and then the
//! clip's Transform tracks of joints that are not human bones apply as usual (`humanoid.md`
//! §8: human bones are the muscles' alone).

use crate::clip::{BindingKind, ClipData, MirrorMode};
use crate::curve::{PackedCurves, euler_quat};
use crate::humanoid::{ClipMuscles, HumanPose, HumanoidRig, JointLocal, PoseOptions};
use crate::rig::Skeleton;
use crate::world::World;

/// What a Transform track sets.
#[derive(Clone, Copy, Debug)]
enum Channel {
    Position,
    Rotation,
    Scale,
    Euler(u8),
}

/// Which part of a joint's local transform a track sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TrackTarget {
    Position,
    /// Quaternion and Euler tracks alike.
    Rotation,
    Scale,
}

impl Channel {
    fn target(self) -> TrackTarget {
        match self {
            Channel::Position => TrackTarget::Position,
            Channel::Rotation | Channel::Euler(_) => TrackTarget::Rotation,
            Channel::Scale => TrackTarget::Scale,
        }
    }
}

/// A Transform track bound to a joint.
#[derive(Clone, Debug)]
struct BoundTrack {
    joint: usize,
    channel: Channel,
    /// The clip's curve indices, in component order.
    curves: Vec<usize>,
    /// The components packed for fast sampling, when they share their key times.
    packed: Packed,
}

/// A track's components packed side by side ([`PackedCurves`]).
#[derive(Clone, Debug)]
enum Packed {
    None,
    Three(PackedCurves<3>),
    Four(PackedCurves<4>),
}

impl Packed {
    fn new(clip: &ClipData, curves: &[usize]) -> Packed {
        let curve = |i: usize| {
            curves
                .get(i)
                .and_then(|&c| clip.curves.get(c))
                .map(|c| c.curve.clone())
        };
        match curves.len() {
            3 => (|| {
                Some(Packed::Three(PackedCurves::new(&[
                    curve(0)?,
                    curve(1)?,
                    curve(2)?,
                ])?))
            })()
            .unwrap_or(Packed::None),
            4 => (|| {
                Some(Packed::Four(PackedCurves::new(&[
                    curve(0)?,
                    curve(1)?,
                    curve(2)?,
                    curve(3)?,
                ])?))
            })()
            .unwrap_or(Packed::None),
            _ => Packed::None,
        }
    }
}

/// A clip bound to a rig, ready to pose it at any clip time.
pub struct ClipPoser<'a> {
    clip: &'a ClipData,
    skeleton: &'a Skeleton,
    /// The rig's avatar, when the clip is humanoid and the rig can pose it.
    humanoid: Option<(&'a HumanoidRig, ClipMuscles)>,
    tracks: Vec<BoundTrack>,
    /// A humanoid clip's pose is mirrored (`humanoid.md` §4.5): the clip's own `m_Mirror`
    /// unless [`ClipPoser::mirrored`] says otherwise.
    mirror: bool,
}

impl<'a> ClipPoser<'a> {
    /// Binds `clip` to `skeleton` (tracks to joints by path hash); `humanoid` is the rig's
    /// avatar, used when the clip has muscle curves.
    pub fn new(
        clip: &'a ClipData,
        skeleton: &'a Skeleton,
        humanoid: Option<&'a HumanoidRig>,
    ) -> ClipPoser<'a> {
        let muscles = ClipMuscles::new(clip);
        let humanoid = humanoid
            .filter(|_| muscles.is_humanoid())
            .map(|rig| (rig, muscles));
        let human_joint = |joint: usize| {
            humanoid
                .as_ref()
                .is_some_and(|(rig, _)| rig.joint_bone(joint).is_some())
        };
        let tracks = clip
            .tracks
            .iter()
            .filter_map(|track| {
                let binding = clip.bindings.get(track.binding)?;
                let channel = match binding.kind() {
                    BindingKind::Position => Channel::Position,
                    BindingKind::Rotation => Channel::Rotation,
                    BindingKind::Scale => Channel::Scale,
                    BindingKind::Euler { order } => Channel::Euler(order),
                    _ => return None,
                };
                let joint = skeleton.joint_by_hash(binding.path)?;
                (!human_joint(joint)).then(|| BoundTrack {
                    joint,
                    channel,
                    curves: track.curves.clone(),
                    packed: Packed::None,
                })
            })
            .collect();
        ClipPoser {
            clip,
            skeleton,
            humanoid,
            tracks,
            mirror: clip.settings.mirror,
        }
    }

    /// Mirrors a humanoid clip as `mode` says (the clip's own flag, or forced on or off);
    /// generic clips are never mirrored, as in Unity.
    pub fn mirrored(mut self, mode: MirrorMode) -> ClipPoser<'a> {
        self.mirror = mode.applies(self.clip.settings.mirror);
        self
    }

    /// True when a humanoid clip is posed mirrored.
    pub fn is_mirrored(&self) -> bool {
        self.mirror && self.humanoid.is_some()
    }

    /// True when the clip is posed from its muscles.
    pub fn is_humanoid(&self) -> bool {
        self.humanoid.is_some()
    }

    /// Every joint's local transform at clip time `t` (already mapped by the wrap mode).
    pub fn locals(&self, t: f32, options: &PoseOptions) -> Vec<JointLocal> {
        let mut out: Vec<JointLocal> = self.skeleton.joints.iter().map(JointLocal::rest).collect();
        if let Some((rig, muscles)) = &self.humanoid {
            let mut pose = HumanPose::default();
            muscles.sample(self.clip, t, &mut pose);
            if self.mirror {
                pose = pose.mirrored();
            }
            rig.pose(&pose, options, &mut out);
        }
        for track in &self.tracks {
            let v = |i: usize| {
                track
                    .curves
                    .get(i)
                    .and_then(|&c| self.clip.sample_curve(c, t))
                    .unwrap_or(0.0)
            };
            let Some(local) = out.get_mut(track.joint) else {
                continue;
            };
            match track.channel {
                Channel::Position => local.t = [v(0), v(1), v(2)],
                Channel::Scale => local.s = [v(0), v(1), v(2)],
                Channel::Rotation => local.q = normalized([v(0), v(1), v(2), v(3)]),
                Channel::Euler(order) => local.q = euler_quat([v(0), v(1), v(2)], order),
            }
        }
        out
    }

    /// The humanoid rig and the clip's muscle curves, when the clip is posed from muscles.
    pub fn humanoid(&self) -> Option<(&'a HumanoidRig, &ClipMuscles)> {
        self.humanoid.as_ref().map(|(rig, m)| (*rig, m))
    }

    /// The clip this poser samples.
    pub fn clip(&self) -> &'a ClipData {
        self.clip
    }

    /// The joints and channels the clip's Transform tracks set (human bones excluded when
    /// the clip is posed from its muscles), one entry per track.
    pub fn animated(&self) -> impl Iterator<Item = (usize, TrackTarget)> + '_ {
        self.tracks.iter().map(|t| (t.joint, t.channel.target()))
    }

    /// Packs each track's components side by side where they share their key times, so
    /// that [`ClipPoser::sample_tracks`] finds each segment once per track (values agree
    /// with per-curve sampling to within `f32` rounding). For posers sampled every frame.
    pub fn packed(mut self) -> ClipPoser<'a> {
        for track in &mut self.tracks {
            track.packed = Packed::new(self.clip, &track.curves);
        }
        self
    }

    /// Each Transform track's value at clip time `t`: `f(joint, target, value)` with the
    /// value `[x, y, z, 0]` for positions and scales, `[x, y, z, w]` (unit) for rotations
    /// (Euler tracks converted). Curves the clip lacks read 0.
    pub fn sample_tracks(&self, t: f32, mut f: impl FnMut(usize, TrackTarget, [f32; 4])) {
        for track in &self.tracks {
            let packed = match &track.packed {
                Packed::None => None,
                Packed::Three(p) => {
                    let [x, y, z] = p.sample(t);
                    Some([x, y, z, 0.0])
                }
                Packed::Four(p) => Some(p.sample(t)),
            };
            if let Some(v) = packed {
                let value = match track.channel {
                    Channel::Position | Channel::Scale => v,
                    Channel::Rotation => normalized(v),
                    Channel::Euler(order) => euler_quat([v[0], v[1], v[2]], order),
                };
                f(track.joint, track.channel.target(), value);
                continue;
            }
            let v = |i: usize| {
                track
                    .curves
                    .get(i)
                    .and_then(|&c| self.clip.sample_curve(c, t))
                    .unwrap_or(0.0)
            };
            let value = match track.channel {
                Channel::Position | Channel::Scale => [v(0), v(1), v(2), 0.0],
                Channel::Rotation => normalized([v(0), v(1), v(2), v(3)]),
                Channel::Euler(order) => euler_quat([v(0), v(1), v(2)], order),
            };
            f(track.joint, track.channel.target(), value);
        }
    }

    /// Every joint's transform relative to the rig's root (the root itself is the identity).
    pub fn world(&self, locals: &[JointLocal]) -> Vec<JointLocal> {
        world(self.skeleton, locals)
    }
}

/// Transforms relative to the rig's root from local ones, composed as Unity does
/// ([`crate::world`]: positions from the product of full TRS matrices, rotations the
/// product of the local rotations, scales Unity's `lossyScale`). The root is the identity;
/// a joint whose parent does not come before it is placed at the root.
pub fn world(skeleton: &Skeleton, locals: &[JointLocal]) -> Vec<JointLocal> {
    let mut worlds = Vec::with_capacity(locals.len());
    world_matrices(skeleton, locals, &mut worlds);
    worlds.iter().map(joint_world).collect()
}

/// The world transforms behind [`world`], into `out` (reused between calls).
pub fn world_matrices<'o>(
    skeleton: &Skeleton,
    locals: &[JointLocal],
    out: &'o mut Vec<World>,
) -> &'o [World] {
    let parents = (0..locals.len()).map(|j| skeleton.joints.get(j).and_then(|joint| joint.parent));
    crate::world::compose(parents, locals.iter().map(|l| (l.t, l.q, l.s)), out)
}

/// A world transform as the ten numbers `pose` prints: position, rotation, lossy scale.
pub fn joint_world(w: &World) -> JointLocal {
    let [x, y, z, qw] = w.q;
    JointLocal {
        t: w.position().map(|c| c as f32),
        q: [x as f32, y as f32, z as f32, qw as f32],
        s: w.lossy_scale().map(|c| c as f32),
    }
}

/// A quaternion scaled to unit length (the identity when it has none).
fn normalized(q: [f32; 4]) -> [f32; 4] {
    let len = q.iter().map(|c| c * c).sum::<f32>().sqrt();
    if len > 0.0 && len.is_finite() {
        q.map(|c| c / len)
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

/// The ten numbers `pose` prints for a transform: translation, rotation (unit, w ≥ 0),
/// scale.
pub fn to_row(x: &JointLocal) -> [f32; 10] {
    let mut q = normalized(x.q);
    if q[3] < 0.0 {
        q = q.map(|c| -c);
    }
    [
        x.t[0], x.t[1], x.t[2], q[0], q[1], q[2], q[3], x.s[0], x.s[1], x.s[2],
    ]
}
