//! Editor `.anim` files: a [`LegacyClip`] written as Unity's text serialization (YAML), with
//! the editor's `m_AnimationClipSettings`, which real editor files carry for legacy clips
//! too (a Unity 5.0 model import: stop time 1.0 on a take whose keys run to 5.6 s).

use std::fmt::Write;

use super::spec::{FloatCurve, KeySpec, LegacyClip, PathCurve};

/// The editor-only clip settings of an `.anim` file (`m_AnimationClipSettings`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EditorSettings {
    /// `m_StartTime`.
    pub start: f32,
    /// `m_StopTime`.
    pub stop: f32,
    /// `m_LoopTime`.
    pub loop_time: bool,
    /// `m_Mirror`.
    pub mirror: bool,
}

impl Default for EditorSettings {
    /// What Unity writes for a new clip: 0 to 1 s, no loop, no mirror.
    fn default() -> Self {
        EditorSettings {
            start: 0.0,
            stop: 1.0,
            loop_time: false,
            mirror: false,
        }
    }
}

/// A value a key holds, written in Unity's YAML spelling.
trait YamlValue: Copy {
    fn yaml(&self) -> String;
}

/// A float as Unity writes it (`Infinity`, `-Infinity`, `NaN`; otherwise the shortest
/// spelling that reads back to the same `f32`).
fn float(v: f32) -> String {
    if v.is_nan() {
        "NaN".into()
    } else if v == f32::INFINITY {
        "Infinity".into()
    } else if v == f32::NEG_INFINITY {
        "-Infinity".into()
    } else {
        format!("{v}")
    }
}

impl YamlValue for f32 {
    fn yaml(&self) -> String {
        float(*self)
    }
}

impl YamlValue for [f32; 3] {
    fn yaml(&self) -> String {
        format!(
            "{{x: {}, y: {}, z: {}}}",
            float(self[0]),
            float(self[1]),
            float(self[2])
        )
    }
}

impl YamlValue for [f32; 4] {
    fn yaml(&self) -> String {
        format!(
            "{{x: {}, y: {}, z: {}, w: {}}}",
            float(self[0]),
            float(self[1]),
            float(self[2]),
            float(self[3])
        )
    }
}

/// The text of an editor `.anim` file holding `clip` as a legacy clip (`m_Legacy: 1`) with
/// `settings` as its `m_AnimationClipSettings`.
pub fn legacy_anim_yaml(clip: &LegacyClip, settings: &EditorSettings) -> String {
    let mut out = String::from(
        "%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!74 &7400000\nAnimationClip:\n",
    );
    let _ = writeln!(out, "  m_ObjectHideFlags: 0\n  m_Name: {}", clip.name);
    out.push_str("  serializedVersion: 6\n  m_Legacy: 1\n  m_Compressed: 0\n");
    path_curves(&mut out, "m_RotationCurves", &clip.rotation);
    out.push_str("  m_CompressedRotationCurves: []\n");
    path_curves(&mut out, "m_EulerCurves", &clip.euler);
    path_curves(&mut out, "m_PositionCurves", &clip.position);
    path_curves(&mut out, "m_ScaleCurves", &clip.scale);
    float_curves(&mut out, &clip.floats);
    out.push_str("  m_PPtrCurves: []\n");
    let _ = writeln!(out, "  m_SampleRate: {}", float(clip.sample_rate));
    let _ = writeln!(out, "  m_WrapMode: {}", clip.wrap_mode);
    let flag = |b: bool| u8::from(b);
    let _ = write!(
        out,
        "  m_AnimationClipSettings:\n    serializedVersion: 2\n    m_StartTime: {}\n    \
         m_StopTime: {}\n    m_OrientationOffsetY: 0\n    m_Level: 0\n    m_CycleOffset: 0\n    \
         m_LoopTime: {}\n    m_LoopBlend: 0\n    m_Mirror: {}\n",
        float(settings.start),
        float(settings.stop),
        flag(settings.loop_time),
        flag(settings.mirror)
    );
    out.push_str("  m_EditorCurves: []\n  m_EulerEditorCurves: []\n  m_Events: []\n");
    out
}

fn path_curves<T: YamlValue>(out: &mut String, field: &str, curves: &[PathCurve<T>]) {
    if curves.is_empty() {
        let _ = writeln!(out, "  {field}: []");
        return;
    }
    let _ = writeln!(out, "  {field}:");
    for c in curves {
        out.push_str("  - curve:\n");
        curve_body(
            out,
            &c.keys,
            c.pre_infinity,
            c.post_infinity,
            c.rotation_order,
        );
        let _ = writeln!(out, "    path: {}", c.path);
    }
}

fn float_curves(out: &mut String, curves: &[FloatCurve]) {
    if curves.is_empty() {
        out.push_str("  m_FloatCurves: []\n");
        return;
    }
    out.push_str("  m_FloatCurves:\n");
    for c in curves {
        out.push_str("  - curve:\n");
        curve_body(out, &c.keys, c.pre_infinity, c.post_infinity, 4);
        let _ = writeln!(
            out,
            "    attribute: {}\n    path: {}\n    classID: {}\n    script: {{fileID: 0}}",
            c.attribute, c.path, c.class_id
        );
    }
}

/// `m_Curve` and the infinities, indented under a `curve:` line.
fn curve_body<T: YamlValue>(
    out: &mut String,
    keys: &[KeySpec<T>],
    pre: i32,
    post: i32,
    order: i32,
) {
    out.push_str("      serializedVersion: 2\n");
    if keys.is_empty() {
        out.push_str("      m_Curve: []\n");
    } else {
        out.push_str("      m_Curve:\n");
    }
    for k in keys {
        let _ = write!(
            out,
            "      - serializedVersion: 3\n        time: {}\n        value: {}\n        \
             inSlope: {}\n        outSlope: {}\n        tangentMode: 0\n        weightedMode: {}\n        \
             inWeight: {}\n        outWeight: {}\n",
            float(k.time),
            k.value.yaml(),
            k.in_slope.yaml(),
            k.out_slope.yaml(),
            k.weighted_mode,
            k.in_weight.yaml(),
            k.out_weight.yaml()
        );
    }
    let _ = writeln!(
        out,
        "      m_PreInfinity: {pre}\n      m_PostInfinity: {post}\n      m_RotationOrder: {order}"
    );
}
