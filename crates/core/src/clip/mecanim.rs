//! Mecanim clips: `m_MuscleClip`'s streamed, dense and constant blocks bound by
//! `m_ClipBindingConstant`.

use super::muscles::muscle_name;
use super::streamed::{self, ValueKind};
use super::{BindingKind, BlockCounts, ClipCurve, GenericBinding, Storage};
use crate::curve::Curve;
use crate::unity::clip as raw;

/// The curves and bindings of a muscle clip.
pub(super) struct MecanimCurves {
    pub counts: BlockCounts,
    pub bindings: Vec<GenericBinding>,
    pub curves: Vec<ClipCurve>,
    pub warnings: Vec<String>,
}

/// Converts the stored bindings.
pub(super) fn bindings(
    constant: &raw::AnimationClipBindingConstant,
    before_5_6: bool,
) -> Vec<GenericBinding> {
    constant
        .genericBindings
        .iter()
        .map(|b| {
            let mut binding = GenericBinding {
                path: b.path.u32(),
                attribute: b.attribute.u32(),
                type_id: b.typeID.or(b.classID).map(|v| v.i32()).unwrap_or(0),
                custom_type: b.customType.0 as u8,
                is_pptr: b.isPPtrCurve.flag(),
                is_int: b.isIntCurve.is_some_and(|v| v.flag()),
                script: (b.script.file_id(), b.script.path_id()),
                path_name: None,
                attribute_name: None,
            };
            if binding.kind() == BindingKind::Muscle {
                binding.attribute_name = muscle_name(binding.attribute, before_5_6);
            }
            binding
        })
        .collect()
}

/// For each global curve index, its binding and component, walking the bindings in order.
fn curve_owners(bindings: &[GenericBinding], total: usize) -> Vec<(Option<usize>, u8)> {
    let mut owners = Vec::with_capacity(total);
    for (b, binding) in bindings.iter().enumerate() {
        for component in 0..binding.curve_count() {
            if owners.len() == total {
                return owners;
            }
            owners.push((Some(b), component as u8));
        }
    }
    owners.resize(total, (None, 0));
    owners
}

/// Decodes the three blocks.
pub(super) fn decode(
    clip: &raw::Clip,
    bindings: Vec<GenericBinding>,
) -> Result<MecanimCurves, String> {
    let mut warnings = Vec::new();
    let streamed_raw = &clip.m_StreamedClip;
    let (count, discrete) = streamed_counts(streamed_raw);
    let streamed_total = count + discrete;
    let dense = &clip.m_DenseClip;
    let dense_count = usize::try_from(dense.m_CurveCount.0).unwrap_or(0);
    let constant_count = clip.m_ConstantClip.data.len();
    let total = streamed_total + dense_count + constant_count;
    if streamed_total > streamed_raw.data.len() {
        return Err(format!(
            "streamed block declares {streamed_total} curves but holds only {} words",
            streamed_raw.data.len()
        ));
    }
    if dense_count > dense.m_SampleArray.len() {
        return Err(format!(
            "dense block declares {dense_count} curves but holds {} samples",
            dense.m_SampleArray.len()
        ));
    }
    let owners = curve_owners(&bindings, total);
    let binding_curves: usize = bindings.iter().map(GenericBinding::curve_count).sum();
    if binding_curves != total {
        warnings.push(format!(
            "bindings take {binding_curves} curves but the blocks hold {total}"
        ));
    }
    let value_kind = |i: usize| {
        let binding = owners
            .get(i)
            .and_then(|o| o.0)
            .and_then(|b| bindings.get(b));
        match binding {
            Some(b) if b.is_int => ValueKind::IntBits,
            Some(b) if b.is_pptr => ValueKind::Discrete,
            _ if i >= count => ValueKind::Discrete,
            _ => ValueKind::Cubic,
        }
    };
    let streamed = streamed::decode(&streamed_raw.data, streamed_total, value_kind)
        .map_err(|e| format!("streamed block: {e}"))?;
    if streamed.keys_out_of_range > 0 {
        warnings.push(format!(
            "{} streamed keys index curves past the {streamed_total} streamed curves; they were left out",
            streamed.keys_out_of_range
        ));
    }
    if streamed.missing_end_frame && !streamed_raw.data.is_empty() {
        warnings.push("streamed block does not end with the +inf frame".into());
    }
    let mut curves = Vec::with_capacity(total);
    for keys in streamed.curves {
        curves.push((Curve::from_keys(keys), Storage::Streamed));
    }
    for values in dense_curves(dense, dense_count, &mut warnings) {
        let curve = Curve::sampled(dense.m_BeginTime, dense.m_SampleRate, values);
        curves.push((curve, Storage::Dense));
    }
    for &value in &clip.m_ConstantClip.data {
        curves.push((Curve::constant(value), Storage::Constant));
    }
    let curves = curves
        .into_iter()
        .zip(owners)
        .map(|((curve, storage), (binding, component))| ClipCurve {
            curve,
            storage,
            binding,
            component,
        })
        .collect();
    Ok(MecanimCurves {
        counts: BlockCounts {
            streamed: streamed_total,
            dense: dense_count,
            constant: constant_count,
        },
        bindings,
        curves,
        warnings,
    })
}

/// The streamed curve count: one u32, or two u16s (curves, discrete curves) from 2022.3.19.
fn streamed_counts(s: &raw::StreamedClip) -> (usize, usize) {
    match s.discreteCurveCount {
        Some(d) => (s.curveCount.0.max(0) as usize, d.0.max(0) as usize),
        None => {
            let v = s.curveCount.0 as u32;
            (v as usize, 0)
        }
    }
}

/// Splits the frame-major dense samples into one series per curve.
fn dense_curves(
    dense: &raw::DenseClip,
    curves: usize,
    warnings: &mut Vec<String>,
) -> Vec<Vec<f32>> {
    if curves == 0 {
        return Vec::new();
    }
    let samples = &dense.m_SampleArray;
    let declared = usize::try_from(dense.m_FrameCount.0).unwrap_or(0);
    let frames = declared.min(samples.len() / curves);
    if frames != declared || frames * curves != samples.len() {
        warnings.push(format!(
            "dense block declares {declared} frames of {curves} curves but holds {} samples",
            samples.len()
        ));
    }
    (0..curves)
        .map(|c| (0..frames).map(|f| samples[f * curves + c]).collect())
        .collect()
}
