//! Keyframe curves stored per kind (`m_RotationCurves`, `m_EulerCurves`, `m_PositionCurves`,
//! `m_ScaleCurves`, `m_FloatCurves`, `m_PPtrCurves`): legacy clips and editor files. Each
//! becomes a binding as Mecanim would name it (path and property CRC-32) with one curve per
//! component.

use super::{ClipCurve, GenericBinding, LegacyKind, Storage, attribute};
use crate::curve::{Curve, DEFAULT_WEIGHT, Infinity, Key};
use crate::hash::{attribute_hash, path_hash};
use crate::unity::clip as raw;
use crate::unity::{Quat, Vec3};

/// Unity's default rotation order for Euler curves (Z, then X, then Y).
pub const DEFAULT_ROTATION_ORDER: u8 = 4;

/// Bindings and curves accumulated from the per-kind lists.
#[derive(Default)]
pub(super) struct KeyframeCurves {
    pub bindings: Vec<GenericBinding>,
    pub curves: Vec<ClipCurve>,
    pub pptr_mapping: Vec<(i32, i64)>,
    /// Latest key time over all curves.
    pub last_time: f32,
}

/// A stored value with a fixed number of float components.
trait Components: Default + Copy {
    const N: usize;
    fn get(&self, i: usize) -> f32;
}

impl Components for f32 {
    const N: usize = 1;
    fn get(&self, _: usize) -> f32 {
        *self
    }
}

impl Components for Vec3 {
    const N: usize = 3;
    fn get(&self, i: usize) -> f32 {
        self.to_array().get(i).copied().unwrap_or(0.0)
    }
}

impl Components for Quat {
    const N: usize = 4;
    fn get(&self, i: usize) -> f32 {
        self.to_array().get(i).copied().unwrap_or(0.0)
    }
}

/// Component `c` of a keyframe as a scalar key.
fn scalar_key<T: Components>(k: &raw::Keyframe<T>, c: usize) -> Key {
    let mut key = Key::new(k.time, k.value.get(c), k.inSlope.get(c), k.outSlope.get(c));
    if let Some(mode) = k.weightedMode {
        key.weighted_mode = (mode.0 & 3) as u8;
        key.in_weight = k.inWeight.map_or(DEFAULT_WEIGHT, |w| w.get(c));
        key.out_weight = k.outWeight.map_or(DEFAULT_WEIGHT, |w| w.get(c));
    }
    key
}

/// Splits a curve of `T` into one scalar curve per component. With `joint_steps`, a step on
/// any component makes that side a step on all of them (a quaternion holds as a whole).
fn split<T: Components>(curve: &raw::AnimationCurve<T>, joint_steps: bool) -> Vec<Curve> {
    let mut keys: Vec<Vec<Key>> = (0..T::N)
        .map(|c| curve.m_Curve.iter().map(|k| scalar_key(k, c)).collect())
        .collect();
    if joint_steps {
        join_steps(&mut keys);
    }
    keys.into_iter()
        .map(|keys| Curve {
            shape: crate::curve::CurveShape::Keys(keys),
            pre_infinity: Infinity::from_unity(curve.m_PreInfinity.i32()),
            post_infinity: Infinity::from_unity(curve.m_PostInfinity.i32()),
        })
        .collect()
}

/// Makes a step on one component's key side a step on every component's.
fn join_steps(components: &mut [Vec<Key>]) {
    let len = components.first().map_or(0, Vec::len);
    for i in 0..len {
        let step_in = components.iter().any(|c| c[i].in_slope.is_infinite());
        let step_out = components.iter().any(|c| c[i].out_slope.is_infinite());
        for c in components.iter_mut() {
            if step_in && c[i].in_slope.is_finite() {
                c[i].in_slope = f32::INFINITY;
            }
            if step_out && c[i].out_slope.is_finite() {
                c[i].out_slope = f32::INFINITY;
            }
        }
    }
}

impl KeyframeCurves {
    fn add(&mut self, binding: GenericBinding, kind: LegacyKind, curves: Vec<Curve>) {
        let index = self.bindings.len();
        self.bindings.push(binding);
        for (component, curve) in curves.into_iter().enumerate() {
            if let Some(&(_, last)) = curve.time_range().as_ref() {
                self.last_time = self.last_time.max(last);
            }
            self.curves.push(ClipCurve {
                curve,
                storage: Storage::Legacy(kind),
                binding: Some(index),
                component: component as u8,
            });
        }
    }

    /// Adds a Transform curve list of attribute `attr`.
    fn transform<T: Components>(
        &mut self,
        list: &[(&raw::AnimationCurve<T>, &str)],
        attr: u32,
        kind: LegacyKind,
    ) {
        for (curve, path) in list {
            let order = curve
                .m_RotationOrder
                .map_or(DEFAULT_ROTATION_ORDER, |o| o.0 as u8);
            let binding =
                transform_binding(path, attr, if attr == attribute::EULER { order } else { 0 });
            self.add(binding, kind, split(curve, attr == attribute::ROTATION));
        }
    }

    fn floats(&mut self, list: &[raw::FloatCurve]) {
        for f in list {
            let binding = GenericBinding {
                path: path_hash(&f.path),
                attribute: attribute_hash(&f.attribute),
                type_id: f.classID.i32(),
                custom_type: 0,
                is_pptr: false,
                is_int: false,
                script: (f.script.file_id(), f.script.path_id()),
                path_name: Some(f.path.clone()),
                attribute_name: Some(f.attribute.clone()),
            };
            self.add(binding, LegacyKind::Float, split(&f.curve, false));
        }
    }

    fn pptrs(&mut self, list: &[raw::PPtrCurve]) {
        for p in list {
            let keys = p
                .curve
                .iter()
                .map(|k| {
                    let target = (k.value.file_id(), k.value.path_id());
                    let index = match self.pptr_mapping.iter().position(|&m| m == target) {
                        Some(i) => i,
                        None => {
                            self.pptr_mapping.push(target);
                            self.pptr_mapping.len() - 1
                        }
                    };
                    Key::step(k.time, index as f32)
                })
                .collect();
            let binding = GenericBinding {
                path: path_hash(&p.path),
                attribute: attribute_hash(&p.attribute),
                type_id: p.classID.i32(),
                custom_type: 0,
                is_pptr: true,
                is_int: false,
                script: (p.script.file_id(), p.script.path_id()),
                path_name: Some(p.path.clone()),
                attribute_name: Some(p.attribute.clone()),
            };
            self.add(binding, LegacyKind::PPtr, vec![Curve::from_keys(keys)]);
        }
    }
}

/// The binding a Transform keyframe curve implies.
pub(super) fn transform_binding(path: &str, attr: u32, custom_type: u8) -> GenericBinding {
    GenericBinding {
        path: path_hash(path),
        attribute: attr,
        type_id: 4,
        custom_type,
        is_pptr: false,
        is_int: false,
        script: (0, 0),
        path_name: Some(path.to_string()),
        attribute_name: None,
    }
}

/// Reads every per-kind list of a clip, in Unity's order of the lists.
pub(super) fn decode(clip: &raw::AnimationClip) -> KeyframeCurves {
    let mut out = KeyframeCurves::default();
    let rot: Vec<_> = clip
        .m_RotationCurves
        .iter()
        .map(|c| (&c.curve, c.path.as_str()))
        .collect();
    out.transform(&rot, attribute::ROTATION, LegacyKind::Rotation);
    for c in &clip.m_CompressedRotationCurves {
        let binding = transform_binding(&c.m_Path, attribute::ROTATION, 0);
        let curves = super::compressed::decode(c);
        out.add(binding, LegacyKind::CompressedRotation, curves);
    }
    let euler: Vec<_> = clip
        .m_EulerCurves
        .iter()
        .map(|c| (&c.curve, c.path.as_str()))
        .collect();
    out.transform(&euler, attribute::EULER, LegacyKind::Euler);
    let pos: Vec<_> = clip
        .m_PositionCurves
        .iter()
        .map(|c| (&c.curve, c.path.as_str()))
        .collect();
    out.transform(&pos, attribute::POSITION, LegacyKind::Position);
    let scale: Vec<_> = clip
        .m_ScaleCurves
        .iter()
        .map(|c| (&c.curve, c.path.as_str()))
        .collect();
    out.transform(&scale, attribute::SCALE, LegacyKind::Scale);
    out.floats(&clip.m_FloatCurves);
    out.pptrs(&clip.m_PPtrCurves);
    out
}

/// True when the clip stores any per-kind curve.
pub(super) fn has_any(clip: &raw::AnimationClip) -> bool {
    !(clip.m_RotationCurves.is_empty()
        && clip.m_CompressedRotationCurves.is_empty()
        && clip.m_EulerCurves.is_empty()
        && clip.m_PositionCurves.is_empty()
        && clip.m_ScaleCurves.is_empty()
        && clip.m_FloatCurves.is_empty()
        && clip.m_PPtrCurves.is_empty())
}
