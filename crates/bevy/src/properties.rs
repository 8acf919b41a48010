//! Float, object (PPtr) and humanoid curves: values a UI can show, kept per joint entity.

use std::any::TypeId;
use std::collections::BTreeMap;

use bevy::animation::AnimationEntityMut;
use bevy::animation::AnimationEvaluationError;
use bevy::animation::animation_curves::{AnimatableProperty, EvaluatorId};
use bevy::platform::hash::Hashed;
use bevy::prelude::*;

use clipscope_core::clip::{BindingKind, GenericBinding};

/// The animated non-Transform values of a joint: blend shape weights, `m_IsActive`,
/// material and script floats, object indices into the clip's PPtr mapping, and humanoid
/// muscles (on the rig's root). Keyed by [`property_key`].
#[derive(Component, Clone, Debug, Default, Reflect)]
pub struct UnityProperties {
    pub values: BTreeMap<u64, f32>,
    /// What each key drives, for display.
    pub labels: BTreeMap<u64, PropertyLabel>,
}

/// A readable description of a property key.
#[derive(Clone, Debug, Default, Reflect, PartialEq)]
pub struct PropertyLabel {
    pub type_id: i32,
    pub attribute: u32,
    /// The property's name where known (legacy and editor clips, muscles).
    pub name: Option<String>,
    pub kind: String,
}

/// CRC-32 of `m_IsActive`, the GameObject visibility property.
pub const IS_ACTIVE: u32 = 0x7C5A_22F6;

/// The key of a binding's value: class id in the high half, attribute hash in the low half.
pub fn property_key(type_id: i32, attribute: u32) -> u64 {
    ((type_id as u32 as u64) << 32) | attribute as u64
}

impl UnityProperties {
    /// The value of `m_IsActive` (class 1), if animated.
    pub fn active(&self) -> Option<bool> {
        self.values
            .get(&property_key(1, IS_ACTIVE))
            .map(|&v| v > 0.5)
    }

    /// The value a binding drives, if animated.
    pub fn get(&self, binding: &GenericBinding) -> Option<f32> {
        self.values
            .get(&property_key(binding.type_id, binding.attribute))
            .copied()
    }
}

/// The label shown for a binding.
pub fn label_of(binding: &GenericBinding) -> PropertyLabel {
    let kind = match binding.kind() {
        BindingKind::Muscle => "muscle",
        BindingKind::BlendShape => "blend shape",
        BindingKind::PPtr => "object index",
        _ if binding.type_id == 1 && binding.attribute == IS_ACTIVE => "active",
        _ => "float",
    };
    PropertyLabel {
        type_id: binding.type_id,
        attribute: binding.attribute,
        name: binding.attribute_name.clone(),
        kind: kind.to_string(),
    }
}

/// An [`AnimatableProperty`] for one entry of [`UnityProperties`]; each key gets its own
/// evaluator, so several properties on one joint blend independently.
#[derive(Clone)]
pub struct FloatProperty {
    key: u64,
    evaluator: Hashed<(TypeId, usize)>,
}

impl FloatProperty {
    /// The property for entry `key` of [`UnityProperties`].
    pub fn new(key: u64) -> Self {
        FloatProperty {
            key,
            evaluator: Hashed::new((TypeId::of::<UnityProperties>(), key as usize)),
        }
    }
}

impl AnimatableProperty for FloatProperty {
    type Property = f32;

    fn get_mut<'a>(
        &self,
        entity: &'a mut AnimationEntityMut,
    ) -> Result<&'a mut f32, AnimationEvaluationError> {
        let props = entity.get_mut::<UnityProperties>().ok_or_else(|| {
            AnimationEvaluationError::ComponentNotPresent(TypeId::of::<UnityProperties>())
        })?;
        Ok(props.into_inner().values.entry(self.key).or_insert(0.0))
    }

    fn evaluator_id(&self) -> EvaluatorId<'_> {
        EvaluatorId::ComponentField(&self.evaluator)
    }
}
