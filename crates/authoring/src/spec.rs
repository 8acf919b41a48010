//! Plain descriptions of the clips and rig to write.
//!
//! These types are deliberately independent of the rest of clipscope: they describe what goes
//! into the file field by field (curve indices, hashes, raw coefficients), so tests can build
//! clips that no real Unity file contains (odd key layouts, out-of-range indices, mismatched
//! counts) and the writer puts them down verbatim.

pub use super::target::UnityTarget;

/// How the data blocks of the bundle are compressed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Compression {
    /// Stored as is; the blocks-info section is uncompressed too.
    #[default]
    None,
    /// LZ4 blocks of 128 KiB (blocks-info LZ4 as well).
    Lz4,
    /// LZMA blocks of 128 KiB, each with its 5-byte properties header (blocks-info LZ4).
    Lzma,
}

/// Everything that goes into one bundle: one serialized file holding the clips and the rig.
#[derive(Clone, Debug, PartialEq)]
pub struct Bundle {
    /// Which Unity version's layouts to use.
    pub target: UnityTarget,
    /// The AnimationClips, written first, at path ids 1, 2, … in this order.
    pub clips: Vec<ClipSpec>,
    /// An optional hierarchy of GameObjects and Transforms with an animation component.
    pub rig: Option<RigSpec>,
    /// Block compression of the bundle (ignored by [`write_serialized`](super::write_serialized)).
    pub compression: Compression,
    /// Whether the serialized file embeds its type trees (Unity bundles normally do). Without
    /// them a reader must fall back to its own knowledge of the layouts.
    pub type_trees: bool,
    /// MonoBehaviours, each with its MonoScript (the fields script curves animate).
    pub behaviours: Vec<BehaviourSpec>,
}

/// A MonoBehaviour running a script of its own: its MonoScript and the type tree Unity builds
/// for the script's serialized fields.
#[derive(Clone, Debug, PartialEq)]
pub struct BehaviourSpec {
    /// The rig joint whose GameObject holds it; `None`: on no GameObject.
    pub joint: Option<usize>,
    /// The script's class name (`m_ClassName`).
    pub class: String,
    /// Its namespace (`m_Namespace`), empty for none.
    pub namespace: String,
    /// Its serialized fields in declaration order, with their values.
    pub fields: Vec<FieldSpec>,
}

/// One serialized field of a script, with its value.
#[derive(Clone, Debug, PartialEq)]
pub enum FieldSpec {
    /// `float NAME`.
    Float(String, f32),
    /// `int NAME`.
    Int(String, i32),
    /// `bool NAME` (aligned after, as Unity writes script bools).
    Bool(String, bool),
    /// `Vector3 NAME` (`Vector3f` with `x`, `y`, `z`).
    Vector3(String, [f32; 3]),
    /// `Color NAME` (`ColorRGBA` with `r`, `g`, `b`, `a`).
    Color(String, [f32; 4]),
    /// `string NAME`.
    Text(String, String),
    /// `float[] NAME` / `List<float> NAME`.
    FloatList(String, Vec<f32>),
    /// A reference field (`Transform NAME`): the type's name and the referenced path id.
    Object(String, String, i64),
    /// A `[Serializable]` struct or class: its type name, field name and fields.
    Struct(String, String, Vec<FieldSpec>),
}

impl Bundle {
    /// An empty, uncompressed bundle with type trees for `target`.
    pub fn new(target: UnityTarget) -> Self {
        Bundle {
            target,
            clips: Vec::new(),
            rig: None,
            compression: Compression::None,
            type_trees: true,
            behaviours: Vec::new(),
        }
    }
}

/// One AnimationClip.
#[derive(Clone, Debug, PartialEq)]
pub enum ClipSpec {
    /// A built Mecanim clip (`m_Legacy` false): the animation lives in `m_MuscleClip`.
    Mecanim(MecanimClip),
    /// A legacy clip (`m_Legacy` true): keyframe curves per path, empty `m_MuscleClip`.
    Legacy(LegacyClip),
}

impl ClipSpec {
    /// The clip's `m_Name`.
    pub fn name(&self) -> &str {
        match self {
            ClipSpec::Mecanim(clip) => &clip.name,
            ClipSpec::Legacy(clip) => &clip.name,
        }
    }
}

/// A Mecanim clip, given exactly as its stores are laid out in the file.
///
/// Curve index space: `[0, S)` streamed (with `S = streamed_curve_count +
/// discrete_curve_count` on Unity 6), then the dense curves, then the constants.
#[derive(Clone, Debug, PartialEq)]
pub struct MecanimClip {
    /// `m_Name`.
    pub name: String,
    /// `m_MuscleClip.m_StartTime`.
    pub start: f32,
    /// `m_MuscleClip.m_StopTime`.
    pub stop: f32,
    /// `m_SampleRate` (also the dense clip's rate when `dense` is `None`).
    pub sample_rate: f32,
    /// `m_MuscleClip.m_LoopTime`.
    pub loop_time: bool,
    /// `m_MuscleClip.m_CycleOffset`.
    pub cycle_offset: f32,
    /// The rest of `m_MuscleClip`'s play settings (Mirror, Loop Pose, the root's offsets and
    /// its Bake Into Pose and Based Upon flags), as the decoder reads them back.
    pub settings: clipscope_core::clip::PlaySettings,
    /// `m_ClipBindingConstant.genericBindings`, in curve order.
    pub bindings: Vec<Binding>,
    /// `m_StreamedClip.curveCount`: the number of interpolated streamed curves (Unity 2020: all
    /// streamed curves).
    pub streamed_curve_count: u32,
    /// `m_StreamedClip.discreteCurveCount`; written for Unity 6 only, ignored for Unity 2020.
    pub discrete_curve_count: u32,
    /// The streamed frames, encoded verbatim into `m_StreamedClip.data`. Include the leading
    /// `-f32::MAX` frame and the trailing `+inf` frame yourself if the clip should have them.
    pub frames: Vec<Frame>,
    /// Raw words appended after the encoded frames (for truncated or malformed streams).
    pub streamed_suffix: Vec<u32>,
    /// `m_DenseClip`; `None` writes an empty dense clip.
    pub dense: Option<Dense>,
    /// `m_ConstantClip.data`.
    pub constants: Vec<f32>,
    /// `pptrCurveMapping` as `(m_FileID, m_PathID)` pairs.
    pub pptr_mapping: Vec<(i32, i64)>,
    /// `m_Events`.
    pub events: Vec<Event>,
}

impl Default for MecanimClip {
    /// An empty, non-looping one-second clip at 60 Hz.
    fn default() -> Self {
        MecanimClip {
            name: String::new(),
            start: 0.0,
            stop: 1.0,
            sample_rate: 60.0,
            loop_time: false,
            cycle_offset: 0.0,
            settings: clipscope_core::clip::PlaySettings::default(),
            bindings: Vec::new(),
            streamed_curve_count: 0,
            discrete_curve_count: 0,
            frames: Vec::new(),
            streamed_suffix: Vec::new(),
            dense: None,
            constants: Vec::new(),
            pptr_mapping: Vec::new(),
            events: Vec::new(),
        }
    }
}

impl MecanimClip {
    /// The default clip (see [`Default`]) named `name`.
    pub fn new(name: impl Into<String>) -> Self {
        MecanimClip {
            name: name.into(),
            ..Default::default()
        }
    }
}

/// One frame of the streamed clip: `f32 time; i32 keyCount; keys`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Frame {
    /// Frame time in seconds (`-f32::MAX` for the first frame, `+inf` for the sentinel).
    pub time: f32,
    /// `(curveIndex, [c0, c1, c2, c3])` per key; the value is `((c0·dt + c1)·dt + c2)·dt + c3`.
    pub keys: Vec<(i32, [f32; 4])>,
}

/// One `GenericBinding`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Binding {
    /// CRC-32 of the path relative to the animated root (0 for the root itself).
    pub path: u32,
    /// Transform: 1 position, 2 rotation, 3 scale, 4 Euler; otherwise a property hash or muscle.
    pub attribute: u32,
    /// `typeID`: the animated component's class (4 Transform, 95 Animator, 137 SMR, …).
    pub type_id: i32,
    /// `customType` (0 none, 8 Animator muscle, 20 blend shape, …; the rotation order for Euler).
    pub custom_type: u8,
    /// `isPPtrCurve`.
    pub is_pptr: bool,
    /// `isIntCurve`; written for Unity 6 only.
    pub is_int: bool,
    /// `script` as (file id, path id): the MonoScript of a MonoBehaviour curve (class 114),
    /// `(0, 0)` for none; [`Bundle::behaviours`] gives its MonoScript's path id.
    pub script: (i32, i64),
}

impl Binding {
    /// A Transform binding: `attribute` 1 position, 2 rotation, 3 scale, 4 Euler. Euler bindings
    /// get `customType` 4 (rotation order ZXY, Unity's default); the others 0, as Unity writes.
    pub fn transform(path: u32, attribute: u32) -> Self {
        Binding {
            path,
            attribute,
            type_id: 4,
            custom_type: if attribute == 4 { 4 } else { 0 },
            ..Default::default()
        }
    }
}

/// `m_DenseClip`, written verbatim (counts need not match the samples).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dense {
    /// `m_FrameCount`.
    pub frame_count: i32,
    /// `m_CurveCount`.
    pub curve_count: u32,
    /// `m_SampleRate`.
    pub sample_rate: f32,
    /// `m_BeginTime`.
    pub begin_time: f32,
    /// `m_SampleArray`, frame-major.
    pub samples: Vec<f32>,
}

/// One `AnimationEvent`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Event {
    /// `time`.
    pub time: f32,
    /// `functionName`.
    pub function: String,
    /// `data` (the string parameter).
    pub data: String,
    /// `floatParameter`.
    pub float: f32,
    /// `intParameter`.
    pub int: i32,
    /// `objectReferenceParameter` as (file id, path id); (0, 0) for none.
    pub object: (i32, i64),
    /// `messageOptions`.
    pub message_options: i32,
}

/// A legacy clip: keyframe curves addressed by path strings.
#[derive(Clone, Debug, PartialEq)]
pub struct LegacyClip {
    /// `m_Name`.
    pub name: String,
    /// `m_SampleRate`.
    pub sample_rate: f32,
    /// `m_WrapMode` (0 default, 1 once, 2 loop, 4 ping-pong, 8 clamp forever).
    pub wrap_mode: i32,
    /// `m_RotationCurves` (quaternions x, y, z, w).
    pub rotation: Vec<PathCurve<[f32; 4]>>,
    /// `m_EulerCurves` (degrees).
    pub euler: Vec<PathCurve<[f32; 3]>>,
    /// `m_PositionCurves`.
    pub position: Vec<PathCurve<[f32; 3]>>,
    /// `m_ScaleCurves`.
    pub scale: Vec<PathCurve<[f32; 3]>>,
    /// `m_FloatCurves`.
    pub floats: Vec<FloatCurve>,
    /// `m_Events`.
    pub events: Vec<Event>,
}

impl Default for LegacyClip {
    /// An empty clip at 60 Hz with wrap mode 0 (use the Animation component's).
    fn default() -> Self {
        LegacyClip {
            name: String::new(),
            sample_rate: 60.0,
            wrap_mode: 0,
            rotation: Vec::new(),
            euler: Vec::new(),
            position: Vec::new(),
            scale: Vec::new(),
            floats: Vec::new(),
            events: Vec::new(),
        }
    }
}

impl LegacyClip {
    /// The default clip (see [`Default`]) named `name`.
    pub fn new(name: impl Into<String>) -> Self {
        LegacyClip {
            name: name.into(),
            ..Default::default()
        }
    }
}

/// A Vector3 or quaternion curve of a legacy clip.
#[derive(Clone, Debug, PartialEq)]
pub struct PathCurve<T> {
    /// Transform path relative to the GameObject with the Animation component.
    pub path: String,
    /// `m_Curve`.
    pub keys: Vec<KeySpec<T>>,
    /// `m_PreInfinity` (0 ping-pong, 1 repeat, 2 clamp).
    pub pre_infinity: i32,
    /// `m_PostInfinity` (same codes).
    pub post_infinity: i32,
    /// `m_RotationOrder` (4 = ZXY, the default).
    pub rotation_order: i32,
}

impl<T> PathCurve<T> {
    /// A clamped curve with the default rotation order.
    pub fn new(path: impl Into<String>, keys: Vec<KeySpec<T>>) -> Self {
        PathCurve {
            path: path.into(),
            keys,
            pre_infinity: 2,
            post_infinity: 2,
            rotation_order: 4,
        }
    }
}

/// A float curve of a legacy clip (any component property).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatCurve {
    /// Transform path of the animated object.
    pub path: String,
    /// Property name, e.g. `blendShape.Smile` or `m_IsActive`.
    pub attribute: String,
    /// Class of the animated component (`classID`).
    pub class_id: i32,
    /// `m_Curve`.
    pub keys: Vec<KeySpec<f32>>,
    /// `m_PreInfinity`.
    pub pre_infinity: i32,
    /// `m_PostInfinity`.
    pub post_infinity: i32,
}

/// One keyframe (`Keyframe<T>`, 2018.1+ layout with weights).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KeySpec<T> {
    /// `time`.
    pub time: f32,
    /// `value`.
    pub value: T,
    /// `inSlope` (±inf for stepped keys).
    pub in_slope: T,
    /// `outSlope`.
    pub out_slope: T,
    /// `weightedMode`: 0 none, 1 in, 2 out, 3 both.
    pub weighted_mode: i32,
    /// `inWeight`.
    pub in_weight: T,
    /// `outWeight`.
    pub out_weight: T,
}

/// Key values whose components can all be set to one scalar (for default weights).
pub trait KeyValue: Copy {
    /// The value with every component equal to `x`.
    fn splat(x: f32) -> Self;
}

impl KeyValue for f32 {
    fn splat(x: f32) -> Self {
        x
    }
}

impl<const N: usize> KeyValue for [f32; N] {
    fn splat(x: f32) -> Self {
        [x; N]
    }
}

impl<T: KeyValue> KeySpec<T> {
    /// An unweighted key (weights 1/3, Unity's default).
    pub fn new(time: f32, value: T, in_slope: T, out_slope: T) -> Self {
        KeySpec {
            time,
            value,
            in_slope,
            out_slope,
            weighted_mode: 0,
            in_weight: T::splat(1.0 / 3.0),
            out_weight: T::splat(1.0 / 3.0),
        }
    }

    /// An unweighted key with flat (zero) tangents.
    pub fn flat(time: f32, value: T) -> Self {
        Self::new(time, value, T::splat(0.0), T::splat(0.0))
    }
}

/// A hierarchy of GameObjects, each with a Transform, plus one animation component on the root.
#[derive(Clone, Debug, PartialEq)]
pub struct RigSpec {
    /// Joint 0 is the root (no parent); every other joint's parent comes before it.
    pub joints: Vec<Joint>,
    /// The component on the root GameObject.
    pub component: RigComponent,
    /// Cubes drawn by MeshRenderers on the rig's GameObjects, written after the rig's other
    /// objects.
    pub renderers: Vec<RendererSpec>,
}

/// A MeshRenderer with its MeshFilter on one joint's GameObject, drawing a cube of its own
/// Mesh with a Material of one colour (`_Color`, the built-in pipeline's main colour).
#[derive(Clone, Debug, PartialEq)]
pub struct RendererSpec {
    /// The joint whose GameObject holds the components.
    pub joint: usize,
    /// The renderer's `m_Enabled`.
    pub enabled: bool,
    /// The cube's edge length, centred on the joint.
    pub size: f32,
    /// The Material's `_Color` (RGBA, gamma space).
    pub color: [f32; 4],
    /// The Mesh's and the Material's `m_Name`.
    pub name: String,
    /// Float properties of the Material (`m_Floats`).
    pub floats: Vec<(String, f32)>,
    /// Further colour properties of the Material (`m_Colors`, after `_Color`).
    pub colors: Vec<(String, [f32; 4])>,
}

/// The animation component on the rig's root.
#[derive(Clone, Debug, PartialEq)]
pub enum RigComponent {
    /// An Animator with no Avatar and no controller (transform hierarchy kept).
    Animator,
    /// An Animator with this Avatar (written after the Animator) and no controller.
    AnimatorWithAvatar(Box<super::avatar::AvatarSpec>),
    /// A legacy Animation component.
    Animation {
        /// Indices into [`Bundle::clips`]; the first is also the default `m_Animation`.
        clips: Vec<usize>,
        /// The component's `m_WrapMode`.
        wrap_mode: i32,
    },
}

/// One GameObject + Transform.
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    /// The GameObject's `m_Name` (path segment).
    pub name: String,
    /// Index of the parent joint, `None` for the root.
    pub parent: Option<usize>,
    /// `m_LocalPosition`.
    pub position: [f32; 3],
    /// `m_LocalRotation` (x, y, z, w).
    pub rotation: [f32; 4],
    /// `m_LocalScale`.
    pub scale: [f32; 3],
    /// The GameObject's own `m_IsActive`.
    pub active: bool,
}

impl Joint {
    /// A joint at `position` with identity rotation and unit scale.
    pub fn new(name: impl Into<String>, parent: Option<usize>, position: [f32; 3]) -> Self {
        Joint {
            name: name.into(),
            parent,
            position,
            rotation: [0.0, 0.0, 0.0, 1.0],
            scale: [1.0; 3],
            active: true,
        }
    }
}
