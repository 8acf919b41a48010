//! Mecanim's humanoid curve index (Unity 5.6+ numbering, `unity-semantics.md` A6): where
//! each value of a human pose sits among a humanoid clip's 200 curves.

/// `MotionT.x` … `MotionQ.w`.
pub const MOTION: usize = 0;
/// `RootT.x` … `RootQ.w`.
pub const ROOT: usize = 7;
/// 4 goals (LeftFoot, RightFoot, LeftHand, RightHand) × `T.xyz Q.xyzw`.
pub const GOALS: usize = 14;
/// Muscle `m` is slot `MUSCLES + m`.
pub const MUSCLES: usize = 42;
/// 21 TDoF bones × xyz.
pub const TDOF: usize = 137;
/// Number of slots.
pub const COUNT: usize = 200;
