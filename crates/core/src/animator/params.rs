//! Parameter values while a controller plays, and the transition conditions read from them.

use std::collections::{BTreeMap, BTreeSet};

use super::model::{Condition, ConditionMode, Controller, ParameterKind};

/// The current value of every parameter (bools and triggers 0/1).
#[derive(Clone, Debug, Default)]
pub struct Params {
    values: BTreeMap<String, (ParameterKind, f64)>,
    /// Names read that the controller does not have (each warned about once).
    pub missing: BTreeSet<String>,
}

/// Why a parameter could not be set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    #[error("the controller has no parameter {0:?}")]
    Unknown(String),
    #[error("parameter {name:?} is a {kind}, not a {wanted}")]
    Kind {
        name: String,
        kind: &'static str,
        wanted: &'static str,
    },
}

impl Params {
    /// The controller's defaults.
    pub fn new(c: &Controller) -> Params {
        Params {
            values: c
                .parameters
                .iter()
                .map(|p| (p.name.clone(), (p.kind, p.default)))
                .collect(),
            missing: BTreeSet::new(),
        }
    }

    /// A parameter's value as f64; an unknown name reads 0 (and is noted).
    pub fn get(&mut self, name: &str) -> f64 {
        match self.values.get(name) {
            Some((_, v)) => *v,
            None => {
                self.missing.insert(name.to_string());
                0.0
            }
        }
    }

    /// The type of parameter `name`, if the controller has it.
    pub fn kind(&self, name: &str) -> Option<ParameterKind> {
        self.values.get(name).map(|(k, _)| *k)
    }

    /// Sets a value, converted to the parameter's type (ints truncated, bools ≠ 0).
    pub fn set(&mut self, name: &str, value: f64) -> Result<(), ParamError> {
        let (kind, slot) = self
            .values
            .get_mut(name)
            .ok_or_else(|| ParamError::Unknown(name.to_string()))?;
        *slot = match kind {
            ParameterKind::Float => value as f32 as f64,
            ParameterKind::Int => value.trunc(),
            ParameterKind::Bool | ParameterKind::Trigger => f64::from(u8::from(value != 0.0)),
        };
        Ok(())
    }

    /// Sets a trigger.
    pub fn set_trigger(&mut self, name: &str) -> Result<(), ParamError> {
        match self.kind(name) {
            Some(ParameterKind::Trigger) => self.set(name, 1.0),
            Some(k) => Err(ParamError::Kind {
                name: name.to_string(),
                kind: k.name(),
                wanted: "trigger",
            }),
            None => Err(ParamError::Unknown(name.to_string())),
        }
    }

    /// Resets the triggers a fired transition names.
    pub fn consume(&mut self, conditions: &[Condition]) {
        for c in conditions {
            if let Some((ParameterKind::Trigger, v)) = self.values.get_mut(&c.parameter) {
                *v = 0.0;
            }
        }
    }

    /// Whether a condition holds (§4.1; Equals on floats is exact f32 equality).
    pub fn holds(&mut self, c: &Condition) -> bool {
        let x = self.get(&c.parameter) as f32;
        let t = c.threshold;
        match c.mode {
            ConditionMode::If => x != 0.0,
            ConditionMode::IfNot => x == 0.0,
            ConditionMode::Greater => x > t,
            ConditionMode::Less => x < t,
            ConditionMode::Equals => x == t,
            ConditionMode::NotEqual => x != t,
            ConditionMode::ExitTime => true,
        }
    }

    /// Whether all conditions hold.
    pub fn all_hold(&mut self, conditions: &[Condition]) -> bool {
        conditions.iter().all(|c| self.holds(c))
    }
}
