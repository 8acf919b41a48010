//! Unity AnimationClips decoded into exact curves.
//!
//! A [`ClipData`] holds every scalar curve of a clip with its [`Storage`], the
//! [`GenericBinding`]s that say what the curves drive, and [`Track`]s grouping a binding with
//! its curves in component order. Mecanim clips come from `m_MuscleClip` (streamed, dense and
//! constant blocks); legacy and editor clips from the per-kind keyframe curves, turned into
//! the same bindings (path and attribute hashed as Mecanim does).

mod compressed;
mod decode;
mod keyframes;
mod mecanim;
pub mod muscles;
pub mod settings;
pub mod streamed;

pub use decode::{DecodeError, decode_clip};
pub use settings::{MirrorMode, PlaySettings};

use crate::curve::{Curve, WrapMode};

/// Where a curve was stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Storage {
    /// Mecanim streamed block: Hermite keys.
    Streamed,
    /// Mecanim dense block: one sample per frame, linear in between.
    Dense,
    /// Mecanim constant block: one value.
    Constant,
    /// A keyframe curve of a legacy (or editor) clip, of this kind.
    Legacy(LegacyKind),
}

/// The per-kind curve lists of a legacy clip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LegacyKind {
    Rotation,
    CompressedRotation,
    Euler,
    Position,
    Scale,
    Float,
    PPtr,
}

impl Storage {
    /// The name used in `sample` output.
    pub fn name(self) -> &'static str {
        match self {
            Storage::Streamed => "streamed",
            Storage::Dense => "dense",
            Storage::Constant => "constant",
            Storage::Legacy(_) => "legacy",
        }
    }
}

/// Transform attributes of a binding with type id 4.
pub mod attribute {
    /// `m_LocalPosition` (3 curves).
    pub const POSITION: u32 = 1;
    /// `m_LocalRotation` as a quaternion (4 curves).
    pub const ROTATION: u32 = 2;
    /// `m_LocalScale` (3 curves).
    pub const SCALE: u32 = 3;
    /// `m_LocalEulerAngles` in degrees (3 curves, with the binding's rotation order).
    pub const EULER: u32 = 4;
}

/// `customType` of humanoid muscle bindings.
pub const CUSTOM_TYPE_MUSCLE: u8 = 8;
/// `customType` of blend shape bindings.
pub const CUSTOM_TYPE_BLEND_SHAPE: u8 = 20;

/// One curve binding of a clip (`genericBindings`), or the binding a legacy curve implies.
#[derive(Clone, Debug, PartialEq)]
pub struct GenericBinding {
    /// CRC-32 of the target's path below the Animator (or Animation) GameObject.
    pub path: u32,
    /// Transform attribute (1 position, 2 rotation, 3 scale, 4 Euler), the CRC-32 of a
    /// property name, or a muscle index.
    pub attribute: u32,
    /// Class id of the driven component (4 Transform, 95 Animator, 137 SkinnedMeshRenderer…).
    pub type_id: i32,
    /// Unity's `customType`: the rotation order of Euler bindings, 8 for muscles, 20 for
    /// blend shapes.
    pub custom_type: u8,
    pub is_pptr: bool,
    pub is_int: bool,
    /// The MonoScript of a MonoBehaviour binding: (file id, path id).
    pub script: (i32, i64),
    /// The path as text, where the clip stores it (legacy and editor clips).
    pub path_name: Option<String>,
    /// The property name as text, where known (legacy float curves, muscle names).
    pub attribute_name: Option<String>,
}

/// What a binding drives, by kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BindingKind {
    Position,
    Rotation,
    Scale,
    /// Euler angles in degrees, with Unity's rotation order (4 = ZXY, the default).
    Euler {
        order: u8,
    },
    /// A humanoid muscle or root/goal curve.
    Muscle,
    BlendShape,
    /// An object reference whose values index the clip's PPtr mapping.
    PPtr,
    /// Any other float (or int) property.
    Float,
}

impl GenericBinding {
    /// True for Transform and RectTransform targets.
    pub fn is_transform(&self) -> bool {
        self.type_id == 4 || self.type_id == 224
    }

    /// What the binding drives.
    pub fn kind(&self) -> BindingKind {
        if self.is_pptr {
            return BindingKind::PPtr;
        }
        if self.is_transform() {
            match self.attribute {
                attribute::POSITION => return BindingKind::Position,
                attribute::ROTATION => return BindingKind::Rotation,
                attribute::SCALE => return BindingKind::Scale,
                attribute::EULER => {
                    return BindingKind::Euler {
                        order: self.custom_type,
                    };
                }
                _ => {}
            }
        }
        match (self.type_id, self.custom_type) {
            (95, CUSTOM_TYPE_MUSCLE) => BindingKind::Muscle,
            (_, CUSTOM_TYPE_BLEND_SHAPE) => BindingKind::BlendShape,
            _ => BindingKind::Float,
        }
    }

    /// How many curves the binding takes: 4 for a rotation, 3 for position, scale and Euler,
    /// 1 for anything else.
    pub fn curve_count(&self) -> usize {
        match self.kind() {
            BindingKind::Rotation => 4,
            BindingKind::Position | BindingKind::Scale | BindingKind::Euler { .. } => 3,
            _ => 1,
        }
    }

    /// A short human description: kind plus the names known for it.
    pub fn describe(&self) -> String {
        let target = match (&self.path_name, self.path) {
            (Some(p), _) if !p.is_empty() => p.clone(),
            (_, 0) => "(root)".to_string(),
            (_, hash) => format!("path {hash:#010x}"),
        };
        let what = match self.kind() {
            BindingKind::Position => "position".to_string(),
            BindingKind::Rotation => "rotation".to_string(),
            BindingKind::Scale => "scale".to_string(),
            BindingKind::Euler { order } => format!("euler (order {order})"),
            _ => self
                .attribute_name
                .clone()
                .unwrap_or_else(|| format!("attribute {:#010x}", self.attribute)),
        };
        format!("{target}: {what}")
    }
}

/// One scalar curve of a clip.
#[derive(Clone, Debug, PartialEq)]
pub struct ClipCurve {
    pub curve: Curve,
    pub storage: Storage,
    /// Index of the binding the curve belongs to; `None` when the clip has fewer bindings
    /// than curves.
    pub binding: Option<usize>,
    /// The curve's place within its binding (x, y, z, w order).
    pub component: u8,
}

/// A binding with the curves it takes, in the order of its attribute's components.
#[derive(Clone, Debug, PartialEq)]
pub struct Track {
    pub binding: usize,
    /// Global curve indices.
    pub curves: Vec<usize>,
}

/// An animation event (`m_Events`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClipEvent {
    pub time: f32,
    pub function: String,
    pub data: String,
    pub float: f32,
    pub int: i32,
    /// `objectReferenceParameter` as (file id, path id) in the clip's file; path id 0 when
    /// the event passes no object.
    pub object: (i32, i64),
    /// `messageOptions`: Unity's `SendMessageOptions` (0 requires a receiver, 1 does not).
    pub message_options: i32,
}

/// Curve counts per Mecanim block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BlockCounts {
    pub streamed: usize,
    pub dense: usize,
    pub constant: usize,
}

/// An AnimationClip's curves as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct ClipData {
    pub name: String,
    /// A legacy clip (played by the Animation component).
    pub legacy: bool,
    /// The curves are keyframe curves (legacy clips and editor files), not a muscle clip.
    pub keyframed: bool,
    pub start: f32,
    pub stop: f32,
    pub sample_rate: f32,
    /// `m_WrapMode` as stored (0 default, 1 once, 2 loop, 4 ping-pong, 8 clamp forever).
    pub wrap_mode_code: i32,
    /// Mecanim "Loop Time".
    pub loop_time: bool,
    /// Mecanim cycle offset, in normalized time.
    pub cycle_offset: f32,
    /// Mirror, Loop Pose and the root transform's settings.
    pub settings: PlaySettings,
    pub counts: BlockCounts,
    pub bindings: Vec<GenericBinding>,
    /// Every curve, by global index.
    pub curves: Vec<ClipCurve>,
    pub tracks: Vec<Track>,
    /// The objects PPtr curves index: (file id, path id).
    pub pptr_mapping: Vec<(i32, i64)>,
    pub events: Vec<ClipEvent>,
    /// Problems met while decoding that did not stop it.
    pub warnings: Vec<String>,
    /// Set on a clip kept as a summary ([`ClipData::into_summary`]): how many curves,
    /// bindings and events it had. Its `curves`, `tracks`, `bindings`, `pptr_mapping` and
    /// `events` are then empty.
    pub summary_only: Option<SummaryCounts>,
}

/// What a clip kept as a summary had.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SummaryCounts {
    pub curves: usize,
    pub bindings: usize,
    pub events: usize,
}

impl ClipData {
    /// The clip without its curves, bindings and events, which take nearly all of its
    /// memory; their counts stay in [`ClipData::summary_only`].
    pub fn into_summary(self) -> ClipData {
        ClipData {
            summary_only: Some(SummaryCounts {
                curves: self.curve_count(),
                bindings: self.binding_count(),
                events: self.event_count(),
            }),
            curves: Vec::new(),
            tracks: Vec::new(),
            bindings: Vec::new(),
            pptr_mapping: Vec::new(),
            events: Vec::new(),
            ..self
        }
    }

    /// Number of curves (also of a clip kept as a summary).
    pub fn curve_count(&self) -> usize {
        self.summary_only.map_or(self.curves.len(), |s| s.curves)
    }

    /// Number of bindings (also of a clip kept as a summary).
    pub fn binding_count(&self) -> usize {
        self.summary_only
            .map_or(self.bindings.len(), |s| s.bindings)
    }

    /// Number of events (also of a clip kept as a summary).
    pub fn event_count(&self) -> usize {
        self.summary_only.map_or(self.events.len(), |s| s.events)
    }

    /// Clip length in seconds.
    pub fn length(&self) -> f32 {
        (self.stop - self.start).max(0.0)
    }

    /// The clip's own wrap mode: legacy `m_WrapMode`; Mecanim loop if Loop Time, else clamp
    /// forever, since the Animator plays such a clip once and then holds its last frame (a
    /// finished state keeps its final pose until a transition leaves it).
    pub fn wrap_mode(&self) -> WrapMode {
        if self.legacy {
            WrapMode::from_unity(self.wrap_mode_code).unwrap_or(WrapMode::Default)
        } else if self.loop_time {
            WrapMode::Loop
        } else {
            WrapMode::ClampForever
        }
    }

    /// The value of curve `index` at clip time `t` (no wrap mapping).
    pub fn sample_curve(&self, index: usize, t: f32) -> Option<f32> {
        self.curves.get(index).map(|c| c.curve.sample(t))
    }

    /// The binding of a curve.
    pub fn binding_of(&self, index: usize) -> Option<&GenericBinding> {
        self.curves
            .get(index)
            .and_then(|c| c.binding)
            .and_then(|b| self.bindings.get(b))
    }

    /// Bytes taken by the decoded curve data.
    pub fn curve_bytes(&self) -> usize {
        self.curves.iter().map(|c| c.curve.heap_size()).sum()
    }
}

/// Groups curves into tracks by their binding.
pub(crate) fn build_tracks(bindings: usize, curves: &[ClipCurve]) -> Vec<Track> {
    let mut tracks: Vec<Track> = (0..bindings)
        .map(|binding| Track {
            binding,
            curves: Vec::new(),
        })
        .collect();
    for (i, c) in curves.iter().enumerate() {
        if let Some(t) = c.binding.and_then(|b| tracks.get_mut(b)) {
            t.curves.push(i);
        }
    }
    tracks.retain(|t| !t.curves.is_empty());
    tracks
}
