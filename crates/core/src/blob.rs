//! Bytes shared by the entries of one container.
//!
//! A bundle's blocks are decompressed once into one buffer; each entry (a serialized file, a
//! `.resS`) is a range of that buffer, never copied out of it.

use std::fmt;
use std::ops::{Deref, Range};
use std::sync::Arc;

/// A range of a reference-counted buffer.
#[derive(Clone)]
pub struct Blob {
    buf: Arc<Vec<u8>>,
    range: Range<usize>,
}

impl Blob {
    /// The part `range` of this blob, or `None` when it does not lie within it.
    pub fn slice(&self, range: Range<usize>) -> Option<Blob> {
        let start = self.range.start.checked_add(range.start)?;
        let end = self.range.start.checked_add(range.end)?;
        (start <= end && end <= self.range.end).then(|| Blob {
            buf: Arc::clone(&self.buf),
            range: start..end,
        })
    }
}

impl From<Vec<u8>> for Blob {
    fn from(bytes: Vec<u8>) -> Self {
        let range = 0..bytes.len();
        Blob {
            buf: Arc::new(bytes),
            range,
        }
    }
}

impl Deref for Blob {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.buf[self.range.clone()]
    }
}

impl AsRef<[u8]> for Blob {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

impl fmt::Debug for Blob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Blob({} bytes)", self.range.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_share_the_buffer_and_stay_in_bounds() {
        let blob = Blob::from((0u8..10).collect::<Vec<_>>());
        let mid = blob.slice(2..8).unwrap();
        assert_eq!(&*mid, &[2, 3, 4, 5, 6, 7]);
        assert_eq!(&*mid.slice(1..3).unwrap(), &[3, 4]);
        assert!(mid.slice(0..7).is_none());
        assert!(mid.slice(usize::MAX..usize::MAX).is_none());
        assert!(Arc::ptr_eq(&blob.buf, &mid.buf));
    }
}
