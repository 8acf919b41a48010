//! Channels written as one glTF animation: a sampler per channel, key times shared between
//! samplers that have the same ones, and the clip's facts in `extras`.

use std::collections::HashMap;

use gltf_json as json;
use json::accessor::Type;
use json::validation::Checked;
use serde_json::Value;

use super::channels::Channel;
use super::document::{Document, extras};
use super::evaluate::{Interpolation, Path};

/// Adds an animation named `name` with `channels` (channels without keys are skipped).
pub fn add_animation(doc: &mut Document, name: &str, info: &Value, channels: &[Channel]) {
    let mut inputs: HashMap<Vec<u32>, json::Index<json::Accessor>> = HashMap::new();
    let mut samplers = Vec::new();
    let mut out = Vec::new();
    for c in channels {
        if c.keys.times.is_empty() || c.keys.width == 0 {
            continue;
        }
        let bits: Vec<u32> = c.keys.times.iter().map(|t| t.to_bits()).collect();
        let input = *inputs
            .entry(bits)
            .or_insert_with(|| doc.floats(&c.keys.times, Type::Scalar, true, None));
        let ty = match c.path {
            Path::Translation | Path::Scale => Type::Vec3,
            Path::Rotation => Type::Vec4,
            Path::Weights => Type::Scalar,
        };
        // A non-finite value (a broken curve) is written as 0 rather than poisoning the
        // file; the report's error shows it.
        let values: Vec<f32> = c
            .keys
            .values
            .iter()
            .map(|v| if v.is_finite() { *v } else { 0.0 })
            .collect();
        let output = doc.floats(&values, ty, false, None);
        let sampler = json::Index::new(samplers.len() as u32);
        samplers.push(json::animation::Sampler {
            extensions: None,
            extras: None,
            input,
            interpolation: Checked::Valid(match c.keys.interpolation {
                Interpolation::Linear => json::animation::Interpolation::Linear,
                Interpolation::Step => json::animation::Interpolation::Step,
                Interpolation::CubicSpline => json::animation::Interpolation::CubicSpline,
            }),
            output,
        });
        out.push(json::animation::Channel {
            sampler,
            target: json::animation::Target {
                extensions: None,
                extras: None,
                node: json::Index::new(c.node as u32),
                path: Checked::Valid(match c.path {
                    Path::Translation => json::animation::Property::Translation,
                    Path::Rotation => json::animation::Property::Rotation,
                    Path::Scale => json::animation::Property::Scale,
                    Path::Weights => json::animation::Property::MorphTargetWeights,
                }),
            },
            extensions: None,
            extras: None,
        });
    }
    if out.is_empty() {
        return;
    }
    doc.root.push(json::Animation {
        extensions: None,
        extras: extras(info),
        channels: out,
        name: Some(name.to_string()),
        samplers,
    });
}
