//! The `.anim` text of a [`Plan`], field by field in Unity's order (the shared `.anim` files
//! are the model: `Floss.anim` for humanoid clips, the modular-avatar clips for generic ones).

use super::float::push_f32;
use super::keys::{TextCurve, TextKey};
use super::layout::Layout;
use super::out::Out;
use super::plan::{Group, ListKind, Plan};
use crate::clip::{BindingKind, ClipData, PlaySettings};
use crate::curve::{DEFAULT_WEIGHT, Infinity};

/// A reference as text clips write it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextRef {
    Null,
    /// `{fileID: N}`: a document of the same file.
    Local(i64),
    /// `{fileID: N, guid: G, type: T}`.
    Asset {
        file_id: i64,
        guid: String,
        kind: i32,
    },
}

impl TextRef {
    /// Appends the reference.
    pub(super) fn push(&self, out: &mut String) {
        match self {
            TextRef::Null => out.push_str("{fileID: 0}"),
            TextRef::Local(id) => out.push_str(&format!("{{fileID: {id}}}")),
            TextRef::Asset {
                file_id,
                guid,
                kind,
            } => out.push_str(&format!(
                "{{fileID: {file_id}, guid: {guid}, type: {kind}}}"
            )),
        }
    }
}

/// What the text needs beside the plan: references chosen by the caller.
pub struct Refs<'a> {
    /// The object each `pptr_mapping` index names.
    pub pptr: &'a [TextRef],
    /// The script of each group (MonoBehaviour curves), by group index.
    pub scripts: &'a [TextRef],
    /// The object parameter of each event, by event index.
    pub events: &'a [TextRef],
}

fn infinity_code(i: Infinity) -> i64 {
    match i {
        Infinity::PingPong => 0,
        Infinity::Repeat => 1,
        Infinity::Clamp => 2,
    }
}

/// The whole `.anim` text.
pub fn anim_text(clip: &ClipData, plan: &Plan, refs: &Refs<'_>, layout: Layout) -> String {
    let mut o = Out {
        text: super::out::text_buffer(256 * plan.keys_out() + 4096),
        spellings: Default::default(),
    };
    o.line(0, "%YAML 1.1");
    o.line(0, "%TAG !u! tag:unity3d.com,2011:");
    o.line(0, "--- !u!74 &7400000");
    o.line(0, "AnimationClip:");
    o.int(2, "m_ObjectHideFlags", 0);
    o.line(2, "m_CorrespondingSourceObject: {fileID: 0}");
    o.line(2, "m_PrefabInstance: {fileID: 0}");
    o.line(2, "m_PrefabAsset: {fileID: 0}");
    o.string(2, "m_Name", &clip.name);
    o.int(2, "serializedVersion", i64::from(layout.clip_version));
    o.int(2, "m_Legacy", i64::from(clip.legacy));
    o.int(2, "m_Compressed", 0);
    o.int(2, "m_UseHighQualityCurve", 1);
    vector_list(&mut o, plan, ListKind::Rotation);
    o.line(2, "m_CompressedRotationCurves: []");
    vector_list(&mut o, plan, ListKind::Euler);
    vector_list(&mut o, plan, ListKind::Position);
    vector_list(&mut o, plan, ListKind::Scale);
    float_list(&mut o, plan, refs, layout);
    pptr_list(&mut o, plan, refs, layout);
    o.float(2, "m_SampleRate", clip.sample_rate);
    o.int(2, "m_WrapMode", i64::from(clip.wrap_mode_code));
    o.line(2, "m_Bounds:");
    o.line(4, "m_Center: {x: 0, y: 0, z: 0}");
    o.line(4, "m_Extent: {x: 0, y: 0, z: 0}");
    binding_constant(&mut o, clip, plan, refs, layout);
    settings(&mut o, clip);
    editor_curves(&mut o, plan, refs, layout);
    let root_transform = plan
        .groups
        .iter()
        .any(|g| g.list < ListKind::Float && g.binding.path == 0);
    o.int(2, "m_HasGenericRootTransform", i64::from(root_transform));
    o.int(2, "m_HasMotionFloatCurves", 0);
    events(&mut o, clip, refs);
    o.text
}

fn groups_of(plan: &Plan, list: ListKind) -> impl Iterator<Item = (usize, &Group)> {
    plan.groups
        .iter()
        .enumerate()
        .filter(move |(_, g)| g.list == list)
}

/// A Transform list: one vector curve per binding.
fn vector_list(o: &mut Out, plan: &Plan, list: ListKind) {
    if groups_of(plan, list).next().is_none() {
        o.line(2, &format!("{}: []", list.field()));
        return;
    }
    o.line(2, &format!("{}:", list.field()));
    for (_, g) in groups_of(plan, list) {
        o.line(2, "- curve:");
        let order = match g.binding.kind() {
            BindingKind::Euler { order } => i64::from(order),
            _ => 4,
        };
        vector_curve(o, &g.curves, order);
        o.string(4, "path", &g.path);
    }
}

/// `serializedVersion`, `m_Curve` with vector keys, infinities, rotation order.
fn vector_curve(o: &mut Out, components: &[TextCurve], order: i64) {
    o.int(6, "serializedVersion", 2);
    let count = components.first().map_or(0, |c| c.keys.len());
    if count == 0 {
        o.line(6, "m_Curve: []");
    } else {
        o.line(6, "m_Curve:");
    }
    // At most four components (x, y, z, w): on the stack, not a vector per field.
    let n = components.len().min(4);
    let pick = |i: usize, f: &dyn Fn(&TextKey) -> f32| -> [f32; 4] {
        let mut v = [0.0; 4];
        for (slot, c) in v.iter_mut().zip(components) {
            *slot = c.keys.get(i).map_or(0.0, f);
        }
        v
    };
    for i in 0..count {
        let first = components[0].keys[i];
        o.float_at(KEY_TIME, first.key.time);
        o.vector_at(KEY_VALUE, &pick(i, &|k| k.key.value)[..n]);
        o.vector_at(KEY_IN_SLOPE, &pick(i, &|k| k.key.in_slope)[..n]);
        o.vector_at(KEY_OUT_SLOPE, &pick(i, &|k| k.key.out_slope)[..n]);
        let mut modes = components
            .iter()
            .filter_map(|c| c.keys.get(i))
            .map(|k| k.tangent_mode);
        let mode = match modes.next() {
            Some(m) if modes.all(|other| other == m) => m,
            _ => 0,
        };
        o.int_at(KEY_TANGENT_MODE, i64::from(mode));
        o.int_at(KEY_WEIGHTED_MODE, i64::from(first.key.weighted_mode));
        o.vector_at(KEY_IN_WEIGHT, &pick(i, &|k| weight(k, false))[..n]);
        o.vector_at(KEY_OUT_WEIGHT, &pick(i, &|k| weight(k, true))[..n]);
    }
    let first = components.first();
    o.int(
        6,
        "m_PreInfinity",
        first.map_or(2, |c| infinity_code(c.pre)),
    );
    o.int(
        6,
        "m_PostInfinity",
        first.map_or(2, |c| infinity_code(c.post)),
    );
    o.int(6, "m_RotationOrder", order);
}

// A key's fields with their indent, each spelled whole (keys are most of a clip's text).
const KEY_TIME: &str = "      - serializedVersion: 3\n        time: ";
const KEY_VALUE: &str = "        value: ";
const KEY_IN_SLOPE: &str = "        inSlope: ";
const KEY_OUT_SLOPE: &str = "        outSlope: ";
const KEY_TANGENT_MODE: &str = "        tangentMode: ";
const KEY_WEIGHTED_MODE: &str = "        weightedMode: ";
const KEY_IN_WEIGHT: &str = "        inWeight: ";
const KEY_OUT_WEIGHT: &str = "        outWeight: ";

/// The weight written for a key side: its own where weighted, else Unity's 1/3.
fn weight(k: &TextKey, out: bool) -> f32 {
    let (bit, w) = if out {
        (crate::curve::WEIGHTED_OUT, k.key.out_weight)
    } else {
        (crate::curve::WEIGHTED_IN, k.key.in_weight)
    };
    if k.key.weighted_mode & bit != 0 {
        w
    } else {
        DEFAULT_WEIGHT
    }
}

/// A scalar `curve:` body at indent 6.
fn scalar_curve(o: &mut Out, c: &TextCurve) {
    o.int(6, "serializedVersion", 2);
    if c.keys.is_empty() {
        o.line(6, "m_Curve: []");
    } else {
        o.line(6, "m_Curve:");
    }
    for k in &c.keys {
        o.float_at(KEY_TIME, k.key.time);
        o.float_at(KEY_VALUE, k.key.value);
        o.float_at(KEY_IN_SLOPE, k.key.in_slope);
        o.float_at(KEY_OUT_SLOPE, k.key.out_slope);
        o.int_at(KEY_TANGENT_MODE, i64::from(k.tangent_mode));
        o.int_at(KEY_WEIGHTED_MODE, i64::from(k.key.weighted_mode));
        o.float_at(KEY_IN_WEIGHT, weight(k, false));
        o.float_at(KEY_OUT_WEIGHT, weight(k, true));
    }
    o.int(6, "m_PreInfinity", infinity_code(c.pre));
    o.int(6, "m_PostInfinity", infinity_code(c.post));
    o.int(6, "m_RotationOrder", 4);
}

/// The opening of a float or object curve entry.
fn entry_head(o: &mut Out, layout: Layout) {
    if layout.curve_flags {
        o.line(2, "- serializedVersion: 2");
        o.line(4, "curve:");
    } else {
        o.line(2, "- curve:");
    }
}

/// The fields after a float or object curve's keys.
fn entry_tail(
    o: &mut Out,
    attribute: &str,
    path: &str,
    class_id: i32,
    script: &TextRef,
    layout: Layout,
) {
    o.string(4, "attribute", attribute);
    o.string(4, "path", path);
    o.int(4, "classID", i64::from(class_id));
    o.reference(4, "script", script);
    if layout.curve_flags {
        o.int(4, "flags", 0);
    }
}

fn class_id(g: &Group) -> i32 {
    match g.binding.kind() {
        BindingKind::Muscle => 95,
        _ => g.binding.type_id,
    }
}

fn script_of<'a>(refs: &'a Refs<'_>, index: usize) -> &'a TextRef {
    refs.scripts.get(index).unwrap_or(&TextRef::Null)
}

fn float_list(o: &mut Out, plan: &Plan, refs: &Refs<'_>, layout: Layout) {
    if groups_of(plan, ListKind::Float).next().is_none() {
        o.line(2, "m_FloatCurves: []");
        return;
    }
    o.line(2, "m_FloatCurves:");
    for (i, g) in groups_of(plan, ListKind::Float) {
        entry_head(o, layout);
        if let Some(c) = g.curves.first() {
            scalar_curve(o, c);
        }
        entry_tail(
            o,
            &g.attribute,
            &g.path,
            class_id(g),
            script_of(refs, i),
            layout,
        );
    }
}

fn pptr_list(o: &mut Out, plan: &Plan, refs: &Refs<'_>, layout: Layout) {
    if groups_of(plan, ListKind::PPtr).next().is_none() {
        o.line(2, "m_PPtrCurves: []");
        return;
    }
    o.line(2, "m_PPtrCurves:");
    for (i, g) in groups_of(plan, ListKind::PPtr) {
        let keys = g.curves.first().map_or(&[][..], |c| &c.keys[..]);
        let curve = if keys.is_empty() {
            "curve: []"
        } else {
            "curve:"
        };
        if layout.curve_flags {
            o.line(2, "- serializedVersion: 2");
            o.line(4, curve);
        } else {
            o.line(2, &format!("- {curve}"));
        }
        for k in keys {
            o.open(4, "- time");
            push_f32(&mut o.text, k.key.time);
            o.text.push('\n');
            let index = k.key.value;
            let target = (index >= 0.0)
                .then(|| refs.pptr.get(index as usize))
                .flatten()
                .unwrap_or(&TextRef::Null);
            o.reference(6, "value", target);
        }
        entry_tail(
            o,
            &g.attribute,
            &g.path,
            class_id(g),
            script_of(refs, i),
            layout,
        );
    }
}

/// `m_ClipBindingConstant`: one binding per written curve entry (none for legacy clips),
/// and the object mapping.
fn binding_constant(o: &mut Out, clip: &ClipData, plan: &Plan, refs: &Refs<'_>, layout: Layout) {
    o.line(2, "m_ClipBindingConstant:");
    let groups: Vec<(usize, &Group)> = if clip.legacy {
        Vec::new()
    } else {
        plan.groups.iter().enumerate().collect()
    };
    if groups.is_empty() {
        o.line(4, "genericBindings: []");
    } else {
        o.line(4, "genericBindings:");
    }
    for (i, g) in groups {
        let b = &g.binding;
        o.line(4, "- serializedVersion: 2");
        o.int(6, "path", i64::from(b.path));
        o.int(6, "attribute", i64::from(b.attribute));
        o.reference(6, "script", script_of(refs, i));
        o.int(6, "typeID", i64::from(b.type_id));
        o.int(6, "customType", i64::from(b.custom_type));
        o.int(6, "isPPtrCurve", i64::from(b.is_pptr));
        if layout.int_curve {
            o.int(6, "isIntCurve", i64::from(b.is_int));
        }
        if layout.serialize_reference {
            o.int(6, "isSerializeReferenceCurve", 0);
        }
    }
    if refs.pptr.is_empty() || clip.legacy {
        o.line(4, "pptrCurveMapping: []");
    } else {
        o.line(4, "pptrCurveMapping:");
        for r in refs.pptr {
            o.text.push_str("    - ");
            r.push(&mut o.text);
            o.text.push('\n');
        }
    }
}

/// Unity's settings for a new clip: every flag off but "Based Upon Original" Y, no offsets.
const NEW_CLIP_SETTINGS: PlaySettings = PlaySettings {
    mirror: false,
    loop_pose: false,
    bake_orientation: false,
    bake_position_y: false,
    bake_position_xz: false,
    original_orientation: false,
    original_position_y: true,
    original_position_xz: false,
    height_from_feet: false,
    level: 0.0,
    orientation_offset_y: 0.0,
};

/// `m_AnimationClipSettings` from what the built clip keeps: range, loop time, cycle offset
/// and the muscle clip's play settings (Unity copies the importer's values into the muscle
/// clip unchanged, so each is written as stored); a legacy clip has no muscle clip and takes
/// a new clip's settings. The additive reference pose is not in a build: none.
fn settings(o: &mut Out, clip: &ClipData) {
    let s = if clip.legacy {
        NEW_CLIP_SETTINGS
    } else {
        clip.settings
    };
    o.line(2, "m_AnimationClipSettings:");
    o.int(4, "serializedVersion", 2);
    o.line(4, "m_AdditiveReferencePoseClip: {fileID: 0}");
    o.int(4, "m_AdditiveReferencePoseTime", 0);
    o.float(4, "m_StartTime", clip.start);
    o.float(4, "m_StopTime", clip.stop);
    o.float(4, "m_OrientationOffsetY", s.orientation_offset_y);
    o.float(4, "m_Level", s.level);
    o.float(4, "m_CycleOffset", clip.cycle_offset);
    o.int(4, "m_HasAdditiveReferencePose", 0);
    o.int(4, "m_LoopTime", i64::from(clip.loop_time));
    o.int(4, "m_LoopBlend", i64::from(s.loop_pose));
    o.int(4, "m_LoopBlendOrientation", i64::from(s.bake_orientation));
    o.int(4, "m_LoopBlendPositionY", i64::from(s.bake_position_y));
    o.int(4, "m_LoopBlendPositionXZ", i64::from(s.bake_position_xz));
    o.int(
        4,
        "m_KeepOriginalOrientation",
        i64::from(s.original_orientation),
    );
    o.int(
        4,
        "m_KeepOriginalPositionY",
        i64::from(s.original_position_y),
    );
    o.int(
        4,
        "m_KeepOriginalPositionXZ",
        i64::from(s.original_position_xz),
    );
    o.int(4, "m_HeightFromFeet", i64::from(s.height_from_feet));
    o.int(4, "m_Mirror", i64::from(s.mirror));
}

/// The editor's per-component copies: `m_LocalPosition.x`, `m_LocalRotation.w`,
/// `localEulerAnglesRaw.y` (with empty `m_LocalEulerAngles` curves in
/// `m_EulerEditorCurves`), and every generic float curve; none for humanoid curves, as
/// Unity's own humanoid clips have none.
fn editor_curves(o: &mut Out, plan: &Plan, refs: &Refs<'_>, layout: Layout) {
    let mut entries: Vec<(String, &Group, Option<&TextCurve>, usize)> = Vec::new();
    let mut euler: Vec<(String, &Group)> = Vec::new();
    for (i, g) in plan.groups.iter().enumerate() {
        let (property, axes) = match g.list {
            ListKind::Position => ("m_LocalPosition", "xyz"),
            ListKind::Scale => ("m_LocalScale", "xyz"),
            ListKind::Rotation => ("m_LocalRotation", "xyzw"),
            ListKind::Euler => ("localEulerAnglesRaw", "xyz"),
            ListKind::Float if g.binding.kind() != BindingKind::Muscle => {
                entries.push((g.attribute.clone(), g, g.curves.first(), i));
                continue;
            }
            _ => continue,
        };
        for (axis, c) in axes.chars().zip(&g.curves) {
            entries.push((format!("{property}.{axis}"), g, Some(c), i));
            if g.list == ListKind::Euler {
                euler.push((format!("m_LocalEulerAngles.{axis}"), g));
            }
        }
    }
    if entries.is_empty() {
        o.line(2, "m_EditorCurves: []");
    } else {
        o.line(2, "m_EditorCurves:");
    }
    for (attribute, g, c, i) in entries {
        entry_head(o, layout);
        match c {
            Some(c) => scalar_curve(o, c),
            None => empty_curve(o),
        }
        let script = if g.list == ListKind::Float {
            script_of(refs, i)
        } else {
            &TextRef::Null
        };
        entry_tail(o, &attribute, &g.path, class_id(g), script, layout);
    }
    if euler.is_empty() {
        o.line(2, "m_EulerEditorCurves: []");
    } else {
        o.line(2, "m_EulerEditorCurves:");
    }
    for (attribute, g) in euler {
        entry_head(o, layout);
        empty_curve(o);
        entry_tail(o, &attribute, &g.path, 4, &TextRef::Null, layout);
    }
}

fn empty_curve(o: &mut Out) {
    o.int(6, "serializedVersion", 2);
    o.line(6, "m_Curve: []");
    o.int(6, "m_PreInfinity", 2);
    o.int(6, "m_PostInfinity", 2);
    o.int(6, "m_RotationOrder", 4);
}

/// `m_Events` with every parameter as stored; the object parameter as `refs` names it.
fn events(o: &mut Out, clip: &ClipData, refs: &Refs<'_>) {
    if clip.events.is_empty() {
        o.line(2, "m_Events: []");
        return;
    }
    o.line(2, "m_Events:");
    for (i, e) in clip.events.iter().enumerate() {
        o.open(2, "- time");
        push_f32(&mut o.text, e.time);
        o.text.push('\n');
        o.string(4, "functionName", &e.function);
        o.string(4, "data", &e.data);
        o.reference(4, "objectReferenceParameter", event_object(refs, i));
        o.float(4, "floatParameter", e.float);
        o.int(4, "intParameter", i64::from(e.int));
        o.int(4, "messageOptions", i64::from(e.message_options));
    }
}

/// Event `i`'s object parameter; none when `refs` has no entry for it.
fn event_object<'a>(refs: &'a Refs<'_>, i: usize) -> &'a TextRef {
    refs.events.get(i).unwrap_or(&TextRef::Null)
}
