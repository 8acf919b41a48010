//! The serialized versions a Unity version writes, where they differ between 2019.4 and 6000.
//!
//! From the shared files: Unity 2019.4 to 2022.1 write `AnimationClip` serializedVersion 6,
//! float curves without a version or flags; from 2022.2 on serializedVersion 7, each float
//! and object curve with `serializedVersion: 2` and `flags`, each binding with
//! `isIntCurve` and `isSerializeReferenceCurve`. 2022.1 adds `isIntCurve` alone (the binary
//! layout's order; no shared text file is from 2022.1).

use crate::version::UnityVersion;

/// What differs between the versions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// `AnimationClip` serializedVersion (6 or 7).
    pub clip_version: u8,
    /// Float and object curves open with `serializedVersion: 2` and end with `flags: 0`.
    pub curve_flags: bool,
    /// Bindings carry `isIntCurve`.
    pub int_curve: bool,
    /// Bindings carry `isSerializeReferenceCurve`.
    pub serialize_reference: bool,
}

/// The oldest version written: what older sources are written as.
pub const OLDEST: (u16, u16) = (2019, 4);

impl Layout {
    /// The layout of `version`; versions before 2019.4 get 2019.4's.
    pub fn of(version: &UnityVersion) -> Layout {
        let v7 = version.at_least(2022, 2);
        Layout {
            clip_version: if v7 { 7 } else { 6 },
            curve_flags: v7,
            int_curve: version.at_least(2022, 1),
            serialize_reference: v7,
        }
    }

    /// The version written for a source of `source` (`None`: a text file): the source's
    /// own when it is 2019.4 or newer, else 2019.4.
    pub fn version_for(source: Option<&UnityVersion>) -> UnityVersion {
        match source {
            Some(v) if v.at_least(OLDEST.0, OLDEST.1) => v.clone(),
            _ => UnityVersion::new(OLDEST.0, OLDEST.1, 0),
        }
    }
}
