//! The objects loaded, which references from other files are checked against once every
//! file is in.

use super::ObjectRef;

/// References sorted, looked up by binary search: every loaded clip of a whole game (tens of
/// thousands) in 16 bytes each, where a hash set took about 28 and, being made once every
/// file is in, added them to the index at its peak.
#[derive(Debug, Default)]
pub(super) struct Known(Box<[ObjectRef]>);

impl Known {
    pub(super) fn of(refs: impl Iterator<Item = ObjectRef>) -> Known {
        let mut refs: Vec<ObjectRef> = refs.collect();
        refs.sort_unstable();
        refs.dedup();
        Known(refs.into_boxed_slice())
    }

    pub(super) fn contains(&self, at: &ObjectRef) -> bool {
        self.0.binary_search(at).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whatever order the references come in, each is found and nothing else is.
    #[test]
    fn each_reference_is_found_and_no_other() {
        let at = |file, path_id| ObjectRef { file, path_id };
        let given = [at(2, 5), at(0, -3), at(2, 1), at(0, 9), at(2, 5)];
        let known = Known::of(given.into_iter());
        for r in given {
            assert!(known.contains(&r), "{r:?}");
        }
        for r in [at(1, 5), at(2, 2), at(0, 3), at(3, 0)] {
            assert!(!known.contains(&r), "{r:?}");
        }
        assert_eq!(known.0.len(), 4);
    }
}
