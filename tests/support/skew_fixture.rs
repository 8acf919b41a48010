//! A squash-and-stretch sword, as real characters have them: `Arm` turned 90° about Y,
//! `Arm/Sword` stretched along its X axis by a legacy clip (scale 1 → 3 over a second),
//! `Arm/Sword/Blade` turned 45° about Z under it, and `Arm/Sword/Blade/Tip` one unit along
//! the Blade's X. The stretched Sword skews the turned Blade, so the Tip's world position
//! is the product of the full TRS matrices (closed forms below), not what composing
//! translation/rotation/scale triples gives.
#![allow(dead_code)]

use clipscope::authoring::{
    Bundle, ClipSpec, Joint, KeySpec, LegacyClip, PathCurve, RigComponent, RigSpec, UnityTarget,
    write_bundle,
};

/// The rig's name.
pub const RIG: &str = "swordsman";
/// The clip's name.
pub const CLIP: &str = "Stretch";
pub const TIP: &str = "Arm/Sword/Blade/Tip";
pub const BLADE: &str = "Arm/Sword/Blade";

/// The Sword's X scale at clip time `t` (seconds, 0..=1).
pub fn stretch(t: f64) -> f64 {
    1.0 + 2.0 * t.clamp(0.0, 1.0)
}

/// The Blade's world position with the Sword stretched by `k`: `(1, 1, −k)`.
pub fn blade(k: f64) -> [f64; 3] {
    [1.0, 1.0, -k]
}

/// The Tip's world position with the Sword stretched by `k`:
/// `Arm · Sword · Blade · (1, 0, 0) = (1, 1 + √½, −k(1 + √½))`.
pub fn tip(k: f64) -> [f64; 3] {
    let h = std::f64::consts::FRAC_1_SQRT_2;
    [1.0, 1.0 + h, -k * (1.0 + h)]
}

/// The Blade's `lossyScale` with the Sword stretched by `k`: the diagonal of
/// `R_z45ᵀ · diag(k, 1, 1) · R_z45`, `((k + 1)/2, (k + 1)/2, 1)`.
pub fn blade_lossy_scale(k: f64) -> [f64; 3] {
    [(k + 1.0) / 2.0, (k + 1.0) / 2.0, 1.0]
}

/// The bundle: the rig with its Animation component and the clip.
pub fn bundle() -> Vec<u8> {
    let (s45, c45) = (
        std::f32::consts::FRAC_PI_8.sin(),
        std::f32::consts::FRAC_PI_8.cos(),
    );
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let mut arm = Joint::new("Arm", Some(0), [0.0, 1.0, 0.0]);
    arm.rotation = [0.0, h, 0.0, h];
    let sword = Joint::new("Sword", Some(1), [0.0, 0.0, 1.0]);
    let mut blade = Joint::new("Blade", Some(2), [1.0, 0.0, 0.0]);
    blade.rotation = [0.0, 0.0, s45, c45];
    let tip = Joint::new("Tip", Some(3), [1.0, 0.0, 0.0]);
    let mut clip = LegacyClip::new(CLIP);
    clip.sample_rate = 30.0;
    clip.wrap_mode = 1;
    clip.scale = vec![PathCurve::new(
        "Arm/Sword",
        vec![
            KeySpec::new(0.0, [1.0, 1.0, 1.0], [2.0, 0.0, 0.0], [2.0, 0.0, 0.0]),
            KeySpec::new(1.0, [3.0, 1.0, 1.0], [2.0, 0.0, 0.0], [2.0, 0.0, 0.0]),
        ],
    )];
    let mut b = Bundle::new(UnityTarget::Unity2020);
    b.clips = vec![ClipSpec::Legacy(clip)];
    b.rig = Some(RigSpec {
        joints: vec![Joint::new(RIG, None, [0.0; 3]), arm, sword, blade, tip],
        component: RigComponent::Animation {
            clips: vec![0],
            wrap_mode: 1,
        },
        renderers: Vec::new(),
    });
    write_bundle(&b).expect("the sword rig writes")
}
