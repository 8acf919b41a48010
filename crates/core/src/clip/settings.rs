//! A clip's Unity play settings beyond its range, loop and cycle offset: the importer's
//! "Mirror", "Loop Pose", the root transform's offsets and its "Bake Into Pose" and
//! "Based Upon" flags (`humanoid.md` §4.5). Mirror is applied (humanoid clips, [`MirrorMode`]);
//! the others are read and shown, not applied.

/// The clip's play settings, from `m_MuscleClip` (built clips) or `m_AnimationClipSettings`
/// (editor files). All false and zero where the clip stores none.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlaySettings {
    /// `m_Mirror`: Mecanim plays a humanoid clip mirrored (left and right swapped).
    pub mirror: bool,
    /// `m_LoopBlend` ("Loop Pose"): Unity blends the loop's seam.
    pub loop_pose: bool,
    /// `m_LoopBlendOrientation`: root rotation baked into the pose.
    pub bake_orientation: bool,
    /// `m_LoopBlendPositionY`: root height baked into the pose.
    pub bake_position_y: bool,
    /// `m_LoopBlendPositionXZ`: root travel baked into the pose.
    pub bake_position_xz: bool,
    /// `m_KeepOriginalOrientation`: root rotation based upon the original (not body).
    pub original_orientation: bool,
    /// `m_KeepOriginalPositionY`.
    pub original_position_y: bool,
    /// `m_KeepOriginalPositionXZ`.
    pub original_position_xz: bool,
    /// `m_HeightFromFeet`: root height based upon the feet.
    pub height_from_feet: bool,
    /// `m_Level`: the root's height offset.
    pub level: f32,
    /// `m_OrientationOffsetY`: the root's rotation offset about Y, as stored.
    pub orientation_offset_y: f32,
}

impl PlaySettings {
    /// The settings that change how Unity plays the clip and that clipscope does not apply,
    /// in words (`cycle_offset` is the clip's own): empty when every one has its default.
    pub fn not_applied(&self, cycle_offset: f32) -> Vec<String> {
        let mut out = Vec::new();
        let flags = [
            (self.loop_pose, "Loop Pose"),
            (self.bake_orientation, "rotation baked into pose"),
            (self.bake_position_y, "Y baked into pose"),
            (self.bake_position_xz, "XZ baked into pose"),
            (self.original_orientation, "rotation based upon original"),
            (self.original_position_y, "Y based upon original"),
            (self.original_position_xz, "XZ based upon original"),
            (self.height_from_feet, "Y based upon feet"),
        ];
        out.extend(flags.iter().filter(|f| f.0).map(|f| f.1.to_string()));
        if cycle_offset != 0.0 {
            out.push(format!("cycle offset {cycle_offset}"));
        }
        if self.level != 0.0 {
            out.push(format!("level {}", self.level));
        }
        if self.orientation_offset_y != 0.0 {
            out.push(format!(
                "orientation offset Y {}",
                self.orientation_offset_y
            ));
        }
        out
    }
}

/// Whether a humanoid clip plays mirrored: as its own `m_Mirror` says (Unity's rule), or
/// forced on or off.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MirrorMode {
    /// The clip's own `m_Mirror`.
    #[default]
    Clip,
    On,
    Off,
}

impl MirrorMode {
    /// `clip`, `on` or `off`.
    pub fn parse(text: &str) -> Option<MirrorMode> {
        match text {
            "clip" => Some(MirrorMode::Clip),
            "on" => Some(MirrorMode::On),
            "off" => Some(MirrorMode::Off),
            _ => None,
        }
    }

    /// True when a clip whose own flag is `clip_mirror` plays mirrored.
    pub fn applies(self, clip_mirror: bool) -> bool {
        match self {
            MirrorMode::Clip => clip_mirror,
            MirrorMode::On => true,
            MirrorMode::Off => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_modes_follow_the_clip_or_force() {
        assert_eq!(MirrorMode::parse("clip"), Some(MirrorMode::Clip));
        assert_eq!(MirrorMode::parse("on"), Some(MirrorMode::On));
        assert_eq!(MirrorMode::parse("off"), Some(MirrorMode::Off));
        assert_eq!(MirrorMode::parse("yes"), None);
        assert!(MirrorMode::Clip.applies(true) && !MirrorMode::Clip.applies(false));
        assert!(MirrorMode::On.applies(false) && !MirrorMode::Off.applies(true));
    }

    #[test]
    fn only_settings_away_from_their_defaults_are_listed() {
        assert!(PlaySettings::default().not_applied(0.0).is_empty());
        let s = PlaySettings {
            loop_pose: true,
            bake_position_y: true,
            level: 0.25,
            ..PlaySettings::default()
        };
        assert_eq!(
            s.not_applied(0.5),
            [
                "Loop Pose",
                "Y baked into pose",
                "cycle offset 0.5",
                "level 0.25"
            ]
        );
    }
}
