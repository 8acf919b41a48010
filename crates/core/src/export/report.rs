//! The fidelity report: per clip, what was written and the measured error of the written
//! channels against clipscope's exact evaluation; per mesh, what the format cut; and what
//! could not be exported.

use serde::Serialize;

use super::bindings::Dropped;

/// Everything `--report` writes.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Report {
    /// The files the workspace was opened from (the CLI fills it in).
    pub file: String,
    pub rig: String,
    /// `linear` or `exact`.
    pub mode: String,
    /// The rig's size: the largest extent (X, Y or Z) of its body at rest (a humanoid's
    /// human bones, else its joints less the far outliers: sockets parked kilometres away
    /// do not count).
    pub rig_size: f32,
    /// The tolerances the path was sampled to: rotation in radians (the most any joint
    /// may turn off; a joint's own is smaller where its turn would move a point of the
    /// body below it farther than the translation tolerance), translation in the rig's
    /// units (a fraction of `rig_size`: for every channel, and for every joint's world
    /// position near the body), scale and weights.
    pub tolerance_rad: f32,
    pub tolerance_translation: f32,
    pub tolerance_other: f32,
    pub clips: Vec<ClipReport>,
    pub meshes: Vec<MeshReport>,
    pub warnings: Vec<String>,
}

/// One exported clip.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ClipReport {
    /// The glTF animation's name (the clip's, made unique).
    pub name: String,
    /// Channels written (0: nothing in the clip moves the rig, and no animation was
    /// written for it), the held ones included.
    pub channels: usize,
    /// Of those, channels that hold a rest value: what another clip of the file moves and
    /// this one does not (a player switching animations would leave it where the other
    /// clip put it).
    pub held_channels: usize,
    /// Keys (or dense samples) of the source curves the channels carry.
    pub keys_in: usize,
    /// Keys written over all channels.
    pub keys_out: usize,
    pub max_rotation_error_rad: f32,
    /// In the rig's units (metres for most rigs).
    pub max_translation_error: f32,
    pub max_scale_error: f32,
    pub max_weight_error: f32,
    /// The largest distance (rig units) of a joint near the body from where `pose` puts
    /// it, as glTF players and Blender compose the written channels.
    pub max_position_error: f32,
    /// Every measured error is within its tolerance.
    pub within_tolerance: bool,
    /// Some interval at the sampling floor (25 µs) still left the share of the tolerance
    /// sampling keeps to (half of it): the clip changes faster than keys 25 µs apart
    /// can follow there (a jump, or a spin). The measured errors say whether that matters.
    pub floor_reached: bool,
    /// Where the largest error relative to its tolerance was.
    pub worst: Option<Worst>,
    /// Bindings glTF cannot carry, left out.
    pub dropped: Vec<Dropped>,
}

/// Where a clip's worst error was.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Worst {
    /// The joint's path below the rig's root (a mesh node's, for weights).
    pub joint: String,
    /// Clip time in seconds (on the clip's own axis; glTF time is this minus the start).
    pub time: f32,
    /// `translation`, `rotation`, `scale` or `weights`.
    pub what: String,
}

/// One exported mesh.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MeshReport {
    pub name: String,
    pub vertices: usize,
    /// Influences dropped: a bone index past the mesh's bind poses (or past glTF's four).
    pub influences_cut: usize,
    /// In-between blend shape frames left out (each shape keeps its full-weight frame).
    pub inbetween_frames_dropped: usize,
}

impl ClipReport {
    /// Why a clip is not within its tolerance, for the console.
    pub fn tolerance_note(&self) -> String {
        let why = if self.floor_reached {
            "it changes faster than keys 25 µs apart can follow"
        } else {
            "between the checked points"
        };
        let at = self
            .worst
            .as_ref()
            .map(|w| format!(" (worst: {} {} at {:.4} s)", w.joint, w.what, w.time))
            .unwrap_or_default();
        format!("cannot reach the tolerance: {why}{at}")
    }

    /// The one line the command prints for a clip.
    pub fn summary(&self) -> String {
        let mut line = format!(
            "{}: {} channels, {} -> {} keys, max error {:.2e} rad, {:.2e} translation, {:.2e} scale, {:.2e} weight, {:.2e} position",
            self.name,
            self.channels,
            self.keys_in,
            self.keys_out,
            self.max_rotation_error_rad,
            self.max_translation_error,
            self.max_scale_error,
            self.max_weight_error,
            self.max_position_error
        );
        if !self.dropped.is_empty() {
            line.push_str(&format!(", {} bindings dropped", self.dropped.len()));
        }
        line
    }
}
