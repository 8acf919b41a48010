//! Posing a [`HumanoidRig`] from a [`HumanPose`] (`humanoid.md` §3.7): muscles to local
//! rotations, twist distribution, the Hips from the body frame, then write-back to the
//! skeleton's joints. No allocation once warm: per-node scratch is kept per thread, sized to
//! the rig (clearing a stack array sized for the largest rig cost more than the posing).

use std::cell::RefCell;

use super::body::{self, centre_of_mass};
use super::math::{Q, Trs, V3};
use super::pose::{Goal, HumanPose};
use super::rig::{HumanoidRig, JointLocal, MAX_HUMAN_NODES, NodeWrite};

use super::twist;
use crate::avatar::HumanBone;

/// How a pose is placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoseOptions {
    /// Apply the body's travel and turning (RootT x/z and heading). Off: the body stays
    /// over the origin, facing forward (+Z), at its own height and tilt.
    pub root_motion: bool,
}

impl Default for PoseOptions {
    fn default() -> PoseOptions {
        PoseOptions { root_motion: true }
    }
}

/// Per-node buffers posing reuses.
#[derive(Default)]
struct Scratch {
    local: Vec<Q>,
    world: Vec<Trs>,
    p: Vec<V3>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

impl HumanoidRig {
    /// Writes the local transform (Unity space) of every skeleton joint for `pose` into
    /// `out` (one entry per joint; extra entries are left alone). Human bones below the
    /// Hips are posed; non-human nodes between them take the avatar's T-pose rotation; the
    /// Hips are placed from the body under the rig's own parent chain; every other joint
    /// (those above the Hips included) keeps the rig's rest transform.
    pub fn pose(&self, pose: &HumanPose, options: &PoseOptions, out: &mut [JointLocal]) {
        SCRATCH.with_borrow_mut(|scratch| self.pose_with(pose, options, out, scratch));
    }

    fn pose_with(
        &self,
        pose: &HumanPose,
        options: &PoseOptions,
        out: &mut [JointLocal],
        scratch: &mut Scratch,
    ) {
        let local = &mut scratch.local;
        local.clear();
        local.resize(self.nodes.len(), Q::IDENTITY);
        self.local_rotations(pose, local);
        let (com, q_p) = self.provisional_body(local, &mut scratch.world, &mut scratch.p);
        let hips = self.solve_hips(pose, options, com, q_p);
        for (o, base) in out.iter_mut().zip(&self.base) {
            *o = *base;
        }
        for (node, q) in self.nodes.iter().zip(local.iter()) {
            let Some(slot) = node.joint.and_then(|j| out.get_mut(j)) else {
                continue;
            };
            match node.write {
                NodeWrite::Rest => {}
                NodeWrite::Hips => *slot = JointLocal::from_trs(&hips),
                NodeWrite::Posed => {
                    slot.t = node.rig_t.to_f32();
                    slot.q = q.to_f32();
                }
                NodeWrite::Reparented => slot.q = q.to_f32(),
            }
        }
    }

    /// Muscles to local rotations (§3.2–3.3), then TwistSolve (§3.6). Nodes without
    /// muscles keep their T-pose rotation; muscles without a mapped bone are ignored.
    fn local_rotations(&self, pose: &HumanPose, local: &mut [Q]) {
        for (q, node) in local.iter_mut().zip(&self.nodes) {
            *q = node.tpose.q;
        }
        let mut angles = [[0.0; 3]; HumanBone::COUNT];
        for (bone, a) in self.bones.iter().zip(angles.iter_mut()) {
            let u = bone.muscles.map(|m| {
                m.and_then(|m| pose.muscles.get(m))
                    .map_or(0.0, |&v| f64::from(v))
            });
            *a = bone.axes.angles(u);
            if let Some(q) = local.get_mut(bone.node) {
                *q = bone.axes.rotation(*a);
            }
        }
        for pair in &self.twist {
            let (Some(p), Some(c), Some(a)) = (
                self.bones.get(pair.parent),
                self.bones.get(pair.child),
                angles.get(pair.parent),
            ) else {
                continue;
            };
            let (Some(&old), Some(&child)) = (local.get(p.node), local.get(c.node)) else {
                continue;
            };
            let new = p.axes.rotation([a[0] * pair.factor, a[1], a[2]]);
            local[p.node] = new;
            local[c.node] = twist::compensate(pair, old, new, child);
        }
    }

    /// The Hips' local transform that places the body frame as the pose says (§4.4).
    fn solve_hips(&self, pose: &HumanPose, options: &PoseOptions, com: V3, q_p: Q) -> Trs {
        let frame = body::body_frame(pose.root_t, pose.root_q, self.scale, options.root_motion);
        let (t, q) = body::solve_hips(frame.t, frame.q, self.body_q_tpose, com, q_p);
        // The rig keeps its own scales: the Hips' local scale is the rig's rest one.
        let own = self
            .nodes
            .get(self.hips)
            .and_then(|n| n.joint)
            .and_then(|j| self.base.get(j))
            .map_or(V3::ONE, |b| V3::from_f32(b.s));
        let tpose = self.nodes.get(self.hips).map_or(Trs::IDENTITY, |n| n.tpose);
        // Under the parent's full matrix, as Unity sets a Transform's world position and
        // rotation (a singular parent keeps the Hips' T-pose position).
        let parent = &self.hips_parent_world;
        let local_t = parent
            .inverse_point([t.x, t.y, t.z])
            .map_or(tpose.t, |[x, y, z]| V3::new(x, y, z));
        let [x, y, z, w] = parent.local_rotation([q.x, q.y, q.z, q.w]);
        Trs {
            t: local_t,
            q: Q::new(x, y, z, w),
            s: own,
        }
    }

    /// Centre of mass and body orientation of the pose with the Hips at the origin,
    /// unrotated (the provisional FK of §4.4).
    fn provisional_body(&self, local: &[Q], world: &mut Vec<Trs>, p: &mut Vec<V3>) -> (V3, Q) {
        let n = self.nodes.len();
        world.clear();
        world.resize(n, Trs::IDENTITY);
        p.clear();
        p.resize(n, V3::ZERO);
        let hips_scale = self.hips_tpose_scale;
        for (h, node) in self.nodes.iter().enumerate().skip(self.hips) {
            let w = if h == self.hips {
                Trs {
                    s: hips_scale,
                    ..Trs::IDENTITY
                }
            } else {
                match node.parent.filter(|_| self.below_hips[h]) {
                    Some(parent) => world[parent].then(&Trs {
                        q: local[h],
                        ..node.tpose
                    }),
                    None => continue,
                }
            };
            world[h] = w;
            p[h] = w.t;
        }
        let com = centre_of_mass(&self.parts, p);
        (com, self.orientation.orientation(p))
    }

    /// World transforms of every joint relative to the rig root (the root joint's own
    /// transform is not applied: the root is the identity), from local transforms such as
    /// [`HumanoidRig::pose`] writes.
    pub fn world(&self, locals: &[JointLocal]) -> Vec<JointLocal> {
        let mut out = vec![JointLocal::IDENTITY; locals.len()];
        self.world_into(locals, &mut out);
        out
    }

    /// [`HumanoidRig::world`] into a buffer of the same length as `locals`.
    pub fn world_into(&self, locals: &[JointLocal], out: &mut [JointLocal]) {
        for (j, l) in locals.iter().enumerate() {
            let parent = self
                .parents
                .get(j)
                .copied()
                .flatten()
                .filter(|&p| p < j)
                .and_then(|p| out.get(p));
            let w = match parent {
                Some(parent) => JointLocal::from_trs(&parent.to_trs().then(&l.to_trs())),
                None => JointLocal::IDENTITY,
            };
            if let Some(o) = out.get_mut(j) {
                *o = w;
            }
        }
    }

    /// The body frame in rig space: its position (the centre of mass, RootT × human scale)
    /// and orientation (RootQ), as placed with `options`.
    pub fn body(&self, pose: &HumanPose, options: &PoseOptions) -> Goal {
        let f = body::body_frame(pose.root_t, pose.root_q, self.scale, options.root_motion);
        Goal {
            t: f.t.to_f32(),
            q: f.q.to_f32(),
        }
    }

    /// The centre of mass of posed world transforms (from [`HumanoidRig::world`]), by the
    /// same part table the hips are placed with; `None` when a part's joint is missing.
    pub fn centre_of_mass(&self, world: &[JointLocal]) -> Option<[f32; 3]> {
        let mut p = [V3::ZERO; MAX_HUMAN_NODES];
        for part in &self.parts {
            for &h in &part.points {
                let j = self.nodes.get(h)?.joint?;
                *p.get_mut(h)? = V3::from_f32(world.get(j)?.t);
            }
        }
        let n = self.nodes.len();
        Some(centre_of_mass(&self.parts, &p[..n]).to_f32())
    }
}
