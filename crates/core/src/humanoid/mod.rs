//! Humanoid clips on humanoid rigs: muscle values to joint transforms, exactly as
//! `humanoid.md` says, on the clip's own avatar or any other (retargeting falls out: the
//! muscles are rig-independent; axes, limits and proportions come from the target avatar,
//! and the body height scales with its human scale).
//!
//! ```no_run
//! # use clipscope_core::{avatar::AvatarData, rig::Skeleton, ClipData};
//! # use clipscope_core::humanoid::*;
//! # fn f(avatar: &AvatarData, skeleton: &Skeleton, clip: &ClipData) -> Result<(), RigError> {
//! let rig = HumanoidRig::new(avatar, skeleton)?;
//! let muscles = ClipMuscles::new(clip);
//! let mut pose = HumanPose::default();
//! muscles.sample(clip, 0.5, &mut pose);
//! let mut locals = vec![JointLocal::IDENTITY; rig.joint_count()];
//! rig.pose(&pose, &PoseOptions::default(), &mut locals);
//! let world = rig.world(&locals);
//! # Ok(()) }
//! ```
//!
//! The hips position ([`body::solve_hips`]) rests on Unity's centre-of-mass rule
//! ([`body::mass_parts`]), which reproduces the avatars' stored `m_RootX`.
//!
//! What is decoded but not applied (settled choice 6): TDoF values (their units and frame
//! are unknown), the IK goals (markers only) and root-motion baking. Clip mirror
//! ([`HumanPose::mirrored`]) is applied where clips are posed ([`crate::pose::ClipPoser`],
//! the plugin), not here.

pub mod body;
mod goals;
pub mod math;
pub mod muscles;
pub mod pose;
mod posing;
pub mod report;
mod rig;
pub mod slot;
pub mod twist;

pub use muscles::{MUSCLE_COUNT, muscle_bone, muscle_name};
pub use pose::{ClipMuscles, Goal, GoalKind, HumanPose, humanoid_slot};
pub use posing::PoseOptions;
pub use report::{HumanoidReport, MuscleFact, report};
pub use rig::{HumanoidRig, JointLocal, MAX_HUMAN_NODES, RigError};
