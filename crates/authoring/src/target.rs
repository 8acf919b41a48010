//! Which Unity version a written file claims, and the layouts that go with it.

/// The Unity version whose layouts (type trees) the written file uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnityTarget {
    /// 2020.3.34f1, UnityFS format 7. The streamed clip's curve count is one `u32`; generic
    /// bindings have no `isIntCurve` flag and float curves no `flags` field.
    Unity2020,
    /// 6000.0.58f2, UnityFS format 8. The streamed clip's count is `u16 curveCount` followed by
    /// `u16 discreteCurveCount`.
    Unity6,
}

impl UnityTarget {
    /// The exact engine version written into the bundle and serialized-file headers.
    pub const fn version(self) -> &'static str {
        match self {
            UnityTarget::Unity2020 => "2020.3.34f1",
            UnityTarget::Unity6 => "6000.0.58f2",
        }
    }

    /// The UnityFS archive format version Unity itself writes for this engine version.
    pub(crate) const fn bundle_format(self) -> u32 {
        match self {
            UnityTarget::Unity2020 => 7,
            UnityTarget::Unity6 => 8,
        }
    }
}
