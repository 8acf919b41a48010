//! Keyframe curves stored per kind (`m_RotationCurves`, `m_EulerCurves`, `m_PositionCurves`,
//! `m_ScaleCurves`, `m_FloatCurves`, `m_PPtrCurves`): legacy clips and editor files. Each
//! becomes a binding as Mecanim would name it (path and property CRC-32) with one curve per
//! component.

use super::muscles::{muscle_index, table_name};
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

    fn floats<'a>(&mut self, list: impl IntoIterator<Item = &'a raw::FloatCurve>) {
        for f in list {
            let class_id = f.classID.i32();
            let mut binding = GenericBinding {
                path: path_hash(&f.path),
                attribute: attribute_hash(&f.attribute),
                type_id: class_id,
                custom_type: custom_type_of(class_id, &f.attribute),
                is_pptr: false,
                is_int: false,
                script: (f.script.file_id(), f.script.path_id()),
                path_name: Some(f.path.clone()),
                attribute_name: Some(f.attribute.clone()),
            };
            if let (95, Some(index)) = (class_id, muscle_index(&f.attribute)) {
                // Humanoid curves are named in text clips; Mecanim binds them by index.
                binding.attribute = index;
                binding.custom_type = super::CUSTOM_TYPE_MUSCLE;
                binding.attribute_name = Some(table_name(&f.attribute).into_owned());
            }
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
                custom_type: custom_type_of(p.classID.i32(), &p.attribute),
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

/// Mecanim's `customType` for a named property, so keyframed curves have the same kinds as
/// Mecanim bindings (blend shapes, sprites, behaviour and particle properties). Attributes
/// stay the CRC-32 of the full name, as for every legacy float curve.
fn custom_type_of(class_id: i32, attribute: &str) -> u8 {
    match (class_id, attribute) {
        (_, a) if a.starts_with("blendShape.") => super::CUSTOM_TYPE_BLEND_SHAPE,
        (212, "m_Sprite") => 23,
        (114, _) => 24,
        (198, _) => 27,
        _ => 0,
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
    out.editor_curves(&clip.m_EulerEditorCurves);
    out.editor_curves(&clip.m_EditorCurves);
    out
}

/// The Transform attribute and component an editor curve's property names
/// (`m_LocalPosition.x`, `localEulerAnglesRaw.z`, …).
fn editor_transform_attribute(name: &str) -> Option<(u32, usize)> {
    let (property, axis) = name.rsplit_once('.')?;
    let attribute = match property {
        "m_LocalPosition" => attribute::POSITION,
        "m_LocalScale" => attribute::SCALE,
        "m_LocalRotation" => attribute::ROTATION,
        "localEulerAnglesRaw"
        | "localEulerAngles"
        | "localEulerAnglesBaked"
        | "m_LocalEulerAngles" => attribute::EULER,
        _ => return None,
    };
    let component = "xyzw".find(axis)?;
    (component
        < if attribute == attribute::ROTATION {
            4
        } else {
            3
        })
    .then_some((attribute, component))
}

impl KeyframeCurves {
    /// Adds the editor's per-component curves for what the per-kind lists lack (text clips
    /// authored with Euler angles keep their rotation only there).
    fn editor_curves(&mut self, list: &[raw::FloatCurve]) {
        let mut groups: Vec<(String, u32, Vec<Option<&raw::FloatCurve>>)> = Vec::new();
        let mut floats = Vec::new();
        for f in list.iter().filter(|f| !f.curve.m_Curve.is_empty()) {
            match editor_transform_attribute(&f.attribute) {
                Some((attr, component)) => {
                    let index = match groups.iter().position(|g| g.0 == f.path && g.1 == attr) {
                        Some(i) => i,
                        None => {
                            let n = if attr == attribute::ROTATION { 4 } else { 3 };
                            groups.push((f.path.clone(), attr, vec![None; n]));
                            groups.len() - 1
                        }
                    };
                    groups[index].2[component] = Some(f);
                }
                None => floats.push(f),
            }
        }
        for (path, attr, components) in groups {
            let hash = path_hash(&path);
            let rotation_known = attr == attribute::EULER || attr == attribute::ROTATION;
            let present = self.bindings.iter().any(|b| {
                b.is_transform()
                    && b.path == hash
                    && (b.attribute == attr
                        || rotation_known
                            && matches!(b.attribute, attribute::EULER | attribute::ROTATION))
            });
            if present {
                continue;
            }
            let default = |c: usize| match attr {
                attribute::SCALE => 1.0,
                attribute::ROTATION if c == 3 => 1.0,
                _ => 0.0,
            };
            let curves = components
                .iter()
                .enumerate()
                .map(|(c, f)| {
                    f.map_or_else(
                        || Curve::constant(default(c)),
                        |f| split(&f.curve, false).remove(0),
                    )
                })
                .collect();
            let custom = if attr == attribute::EULER {
                DEFAULT_ROTATION_ORDER
            } else {
                0
            };
            let kind = match attr {
                attribute::POSITION => LegacyKind::Position,
                attribute::SCALE => LegacyKind::Scale,
                attribute::ROTATION => LegacyKind::Rotation,
                _ => LegacyKind::Euler,
            };
            self.add(transform_binding(&path, attr, custom), kind, curves);
        }
        let missing: Vec<&raw::FloatCurve> = floats
            .into_iter()
            .filter(|f| {
                let (p, a) = (path_hash(&f.path), attribute_hash(&f.attribute));
                !self
                    .bindings
                    .iter()
                    .any(|b| b.path == p && b.attribute == a && b.type_id == f.classID.i32())
            })
            .collect();
        self.floats(missing);
    }
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
