//! Names of a built controller: its string table (`m_TOS`, CRC-32 → name). A hash the table
//! does not hold prints as `0x%08x` and is never dropped.

use std::collections::BTreeMap;

/// The hash Unity names a state, machine, layer or parameter by (CRC-32 of the UTF-8 name).
pub fn name_hash(name: &str) -> u32 {
    crc32fast::hash(name.as_bytes())
}

/// The string table of one controller.
pub struct Names<'a> {
    pub tos: &'a BTreeMap<u32, String>,
}

impl Names<'_> {
    /// The name for a hash, or its hex value.
    pub fn name(&self, hash: u32) -> String {
        self.known(hash).unwrap_or_else(|| hex(hash))
    }

    /// The name for a hash when the table holds it.
    pub fn known(&self, hash: u32) -> Option<String> {
        self.tos.get(&hash).filter(|n| !n.is_empty()).cloned()
    }

    /// A parameter reference: `None` for 0 (the empty name) and `0xffffffff` (unused).
    pub fn parameter(&self, hash: u32) -> Option<String> {
        (hash != 0 && hash != u32::MAX).then(|| self.name(hash))
    }
}

/// `0x1a2b3c4d`.
pub fn hex(hash: u32) -> String {
    format!("0x{hash:08x}")
}
