//! File ids of the documents inside a written `.controller`: derived from each object's
//! identity (its kind and its place: a state's full path, a transition's owner and index) so
//! two runs write the same ids, and made unique within the file.

use std::collections::HashSet;

/// The main object's file id in a `.controller` file.
pub const CONTROLLER_FILE_ID: i64 = 9_100_000;

/// 64-bit FNV-1a of `bytes`.
fn fnv1a_64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Hands out file ids, each from the identity string it is asked for; a collision (or 0, or
/// the controller's own id) moves on to the next id, so the first object asked for keeps
/// its id.
#[derive(Debug, Default)]
pub struct FileIds {
    taken: HashSet<i64>,
}

impl FileIds {
    /// A fresh set with the controller's id taken.
    pub fn new() -> FileIds {
        FileIds {
            taken: HashSet::from([0, CONTROLLER_FILE_ID]),
        }
    }

    /// The id of the object named `identity`: Unity's ids are signed 64-bit numbers.
    pub fn id(&mut self, identity: &str) -> i64 {
        let mut id = fnv1a_64(identity.as_bytes()) as i64;
        while !self.taken.insert(id) {
            id = id.wrapping_add(1);
        }
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_stable_and_unique() {
        let mut a = FileIds::new();
        let mut b = FileIds::new();
        let x = a.id("state/Base Layer.Idle");
        assert_eq!(x, b.id("state/Base Layer.Idle"));
        // The same identity asked twice gets two ids, both stable.
        let y = a.id("state/Base Layer.Idle");
        assert_ne!(x, y);
        assert_eq!(y, b.id("state/Base Layer.Idle"));
        assert_ne!(a.id("state/Base Layer.Walk"), x);
    }
}
