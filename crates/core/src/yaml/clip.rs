//! AnimationClip documents (class 74) into the binary reader's [`AnimationClip`] struct.
//!
//! The struct reads the YAML fields as they are, with two exceptions handled here: its
//! [`PPtr`](crate::unity::PPtr) fields do not know YAML's `{fileID, guid, type}` form (they
//! would all read as null), and string fields may have received a rewritten float spelling.
//! References are read in a second, small pass over the same text and written into the
//! struct as binary-style pointers numbered by the file's [`Externals`].

use serde::Deserialize;

use super::document::Document;
use super::values::{Externals, YamlRef, from_body, restore, unity_floats};
use crate::unity::clip::AnimationClip;

/// Reads one clip document.
pub(crate) fn read_clip(
    doc: &Document,
    externals: &mut Externals,
) -> Result<AnimationClip, String> {
    let body = unity_floats(doc.body);
    let mut clip: AnimationClip = from_body(doc, &body)?;
    restore_strings(&mut clip);
    if has_references(&body) {
        let refs: ClipRefs = from_body(doc, &body)?;
        refs.apply(&mut clip, externals);
    }
    Ok(clip)
}

/// Gives back Unity's spelling to every name and path of the clip.
fn restore_strings(clip: &mut AnimationClip) {
    restore(&mut clip.m_Name);
    let paths = clip
        .m_RotationCurves
        .iter_mut()
        .map(|c| &mut c.path)
        .chain(clip.m_EulerCurves.iter_mut().map(|c| &mut c.path))
        .chain(clip.m_PositionCurves.iter_mut().map(|c| &mut c.path))
        .chain(clip.m_ScaleCurves.iter_mut().map(|c| &mut c.path))
        .chain(
            clip.m_CompressedRotationCurves
                .iter_mut()
                .map(|c| &mut c.m_Path),
        );
    paths.for_each(restore);
    let floats = clip
        .m_FloatCurves
        .iter_mut()
        .chain(clip.m_EditorCurves.iter_mut())
        .chain(clip.m_EulerEditorCurves.iter_mut());
    for f in floats {
        restore(&mut f.path);
        restore(&mut f.attribute);
    }
    for p in &mut clip.m_PPtrCurves {
        restore(&mut p.path);
        restore(&mut p.attribute);
    }
    for e in &mut clip.m_Events {
        restore(&mut e.functionName);
        restore(&mut e.data);
    }
}

/// True when the text holds a reference other than `{fileID: 0}`: only then is the second
/// pass needed (a large muscle clip usually has none).
fn has_references(body: &str) -> bool {
    body.match_indices("fileID:").any(|(i, m)| {
        let rest = body[i + m.len()..].trim_start_matches(' ');
        !(rest.starts_with("0}") || rest.starts_with("0,") || rest.starts_with("0\n"))
    })
}

/// The references of a clip, in the same order as the struct's lists.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ClipRefs {
    m_FloatCurves: Vec<ScriptRef>,
    m_PPtrCurves: Vec<PPtrCurveRefs>,
    m_EditorCurves: Vec<ScriptRef>,
    m_EulerEditorCurves: Vec<ScriptRef>,
    m_ClipBindingConstant: BindingRefs,
    m_Events: Vec<EventRef>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ScriptRef {
    script: YamlRef,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct PPtrCurveRefs {
    script: YamlRef,
    curve: Vec<ValueRef>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ValueRef {
    value: YamlRef,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct BindingRefs {
    genericBindings: Vec<ScriptRef>,
    pptrCurveMapping: Vec<YamlRef>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct EventRef {
    objectReferenceParameter: YamlRef,
}

impl ClipRefs {
    /// Writes every reference into the clip as a binary-style pointer.
    fn apply(self, clip: &mut AnimationClip, ext: &mut Externals) {
        for (c, r) in clip.m_FloatCurves.iter_mut().zip(&self.m_FloatCurves) {
            c.script = ext.pptr(&r.script);
        }
        for (c, r) in clip.m_EditorCurves.iter_mut().zip(&self.m_EditorCurves) {
            c.script = ext.pptr(&r.script);
        }
        let euler = clip.m_EulerEditorCurves.iter_mut();
        for (c, r) in euler.zip(&self.m_EulerEditorCurves) {
            c.script = ext.pptr(&r.script);
        }
        for (c, r) in clip.m_PPtrCurves.iter_mut().zip(&self.m_PPtrCurves) {
            c.script = ext.pptr(&r.script);
            for (k, v) in c.curve.iter_mut().zip(&r.curve) {
                k.value = ext.pptr(&v.value);
            }
        }
        if let Some(constant) = &mut clip.m_ClipBindingConstant {
            let refs = &self.m_ClipBindingConstant;
            for (b, r) in constant
                .genericBindings
                .iter_mut()
                .zip(&refs.genericBindings)
            {
                b.script = ext.pptr(&r.script);
            }
            constant.pptrCurveMapping = refs.pptrCurveMapping.iter().map(|r| ext.pptr(r)).collect();
        }
        for (e, r) in clip.m_Events.iter_mut().zip(&self.m_Events) {
            e.objectReferenceParameter = ext.pptr(&r.objectReferenceParameter);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(body: &str) -> Document<'_> {
        Document {
            class_id: 74,
            file_id: 7400000,
            stripped: false,
            line: 3,
            body,
        }
    }

    #[test]
    fn pptr_keys_keep_their_guids() {
        let body = "AnimationClip:\n  m_Name: Infinity\n  m_PPtrCurves:\n  - curve:\n    - time: 0\n      value: {fileID: 21300000, guid: aa, type: 3}\n    - time: 0.5\n      value: {fileID: 21300000, guid: bb,\n        type: 3}\n    attribute: m_Sprite\n    path: \n    classID: 212\n    script: {fileID: 0}\n";
        let mut ext = Externals::default();
        let clip = read_clip(&doc(body), &mut ext).unwrap();
        assert_eq!(clip.m_Name, "Infinity");
        let keys = &clip.m_PPtrCurves[0].curve;
        assert_eq!(
            (keys[0].value.file_id(), keys[0].value.path_id()),
            (1, 21300000)
        );
        assert_eq!(
            (keys[1].value.file_id(), keys[1].value.path_id()),
            (2, 21300000)
        );
        assert_eq!(ext.list[1].guid, "bb");
        assert_eq!(clip.m_PPtrCurves[0].path, "");
    }

    #[test]
    fn infinite_slopes_read_as_floats() {
        let body = "AnimationClip:\n  m_FloatCurves:\n  - curve:\n      m_Curve:\n      - time: 0\n        value: 1\n        inSlope: Infinity\n        outSlope: -Infinity\n    attribute: m_IsActive\n    path: a\n    classID: 1\n";
        let clip = read_clip(&doc(body), &mut Externals::default()).unwrap();
        let key = &clip.m_FloatCurves[0].curve.m_Curve[0];
        assert_eq!(
            (key.inSlope, key.outSlope),
            (f32::INFINITY, f32::NEG_INFINITY)
        );
        assert!(!has_references(body));
    }
}
