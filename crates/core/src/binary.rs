//! A bounds-checked reader over untrusted bytes.
//!
//! Every read checks the bytes left first, so a count or size taken from a file can never make
//! us read past the end or allocate more than the file holds.

use std::fmt;

/// Byte order of a Unity structure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endian {
    Little,
    Big,
}

/// A read that ran out of bytes or met an impossible value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// Offset (from the start of the reader's bytes) where the failed read began.
    pub offset: usize,
    /// What was being read and why it failed.
    pub detail: String,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.detail, self.offset)
    }
}

impl std::error::Error for ReadError {}

/// A cursor over a byte slice with checked reads.
#[derive(Clone, Debug)]
pub struct ByteReader<'a> {
    bytes: &'a [u8],
    pos: usize,
    pub endian: Endian,
}

impl<'a> ByteReader<'a> {
    /// A reader at the start of `bytes`, reading numbers in `endian` order.
    pub fn new(bytes: &'a [u8], endian: Endian) -> Self {
        ByteReader {
            bytes,
            pos: 0,
            endian,
        }
    }

    /// The offset of the next byte to read.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// How many bytes are left to read.
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    /// An error at the current position.
    pub fn error(&self, detail: impl Into<String>) -> ReadError {
        ReadError {
            offset: self.pos,
            detail: detail.into(),
        }
    }

    /// Moves to an absolute offset, which must lie within the bytes.
    pub fn seek(&mut self, pos: usize) -> Result<(), ReadError> {
        if pos > self.bytes.len() {
            return Err(self.error(format!(
                "offset {pos} lies past the end ({} bytes)",
                self.bytes.len()
            )));
        }
        self.pos = pos;
        Ok(())
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], ReadError> {
        if n > self.remaining() {
            return Err(self.error(format!(
                "{what}: needs {n} bytes but only {} are left",
                self.remaining()
            )));
        }
        let out = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], ReadError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N, what)?);
        Ok(out)
    }

    /// Reads one byte; `what` names the field in the error when none is left.
    pub fn u8(&mut self, what: &str) -> Result<u8, ReadError> {
        Ok(self.array::<1>(what)?[0])
    }

    /// Reads a `u16` in the reader's byte order.
    pub fn u16(&mut self, what: &str) -> Result<u16, ReadError> {
        let b = self.array::<2>(what)?;
        Ok(match self.endian {
            Endian::Little => u16::from_le_bytes(b),
            Endian::Big => u16::from_be_bytes(b),
        })
    }

    /// Reads a `u32` in the reader's byte order.
    pub fn u32(&mut self, what: &str) -> Result<u32, ReadError> {
        let b = self.array::<4>(what)?;
        Ok(match self.endian {
            Endian::Little => u32::from_le_bytes(b),
            Endian::Big => u32::from_be_bytes(b),
        })
    }

    /// Reads an `i16` in the reader's byte order.
    pub fn i16(&mut self, what: &str) -> Result<i16, ReadError> {
        Ok(self.u16(what)? as i16)
    }

    /// Reads an `i32` in the reader's byte order.
    pub fn i32(&mut self, what: &str) -> Result<i32, ReadError> {
        Ok(self.u32(what)? as i32)
    }

    /// Reads a `u64` in the reader's byte order.
    pub fn u64(&mut self, what: &str) -> Result<u64, ReadError> {
        let b = self.array::<8>(what)?;
        Ok(match self.endian {
            Endian::Little => u64::from_le_bytes(b),
            Endian::Big => u64::from_be_bytes(b),
        })
    }

    /// Reads an `i64` in the reader's byte order.
    pub fn i64(&mut self, what: &str) -> Result<i64, ReadError> {
        Ok(self.u64(what)? as i64)
    }

    /// Reads an `f32` (its IEEE bits as a `u32`) in the reader's byte order.
    pub fn f32(&mut self, what: &str) -> Result<f32, ReadError> {
        Ok(f32::from_bits(self.u32(what)?))
    }

    /// A NUL-terminated string of at most `max` bytes (lossy UTF-8).
    pub fn cstr(&mut self, max: usize, what: &str) -> Result<String, ReadError> {
        let rest = &self.bytes[self.pos..];
        let limit = rest.len().min(max + 1);
        let Some(len) = rest[..limit].iter().position(|&b| b == 0) else {
            return Err(self.error(format!("{what}: no string terminator within {max} bytes")));
        };
        let text = String::from_utf8_lossy(&rest[..len]).into_owned();
        self.pos += len + 1;
        Ok(text)
    }

    /// Skips to the next multiple of `n` (relative to the reader's start).
    pub fn align(&mut self, n: usize) -> Result<(), ReadError> {
        let pad = (n - self.pos % n) % n;
        self.take(pad, "alignment padding").map(|_| ())
    }

    /// A count of items of `item_size` bytes each, checked against the bytes left.
    pub fn count(&mut self, item_size: usize, what: &str) -> Result<usize, ReadError> {
        let start = self.pos;
        let n = self.i32(what)?;
        let fits = usize::try_from(n)
            .ok()
            .filter(|&n| n.saturating_mul(item_size.max(1)) <= self.remaining());
        fits.ok_or_else(|| ReadError {
            offset: start,
            detail: format!(
                "{what}: count {n} does not fit in the {} bytes left",
                self.remaining()
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_byte_orders_and_checks_bounds() {
        let bytes = [0x00, 0x00, 0x00, 0x09, 0x41, 0x42, 0x00, 0xff];
        let mut be = ByteReader::new(&bytes, Endian::Big);
        assert_eq!(be.u32("v").unwrap(), 9);
        assert_eq!(be.cstr(16, "s").unwrap(), "AB");
        assert!(be.u32("past end").is_err());
        let mut le = ByteReader::new(&bytes, Endian::Little);
        assert_eq!(le.u32("v").unwrap(), 0x0900_0000);
    }

    #[test]
    fn counts_are_checked_against_bytes_left() {
        let bytes = [0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0];
        let mut r = ByteReader::new(&bytes, Endian::Little);
        let err = r.count(4, "objects").unwrap_err();
        assert!(err.detail.contains("does not fit"), "{err}");
        let mut r = ByteReader::new(&[1, 0, 0, 0, 7, 7, 7, 7], Endian::Little);
        assert_eq!(r.count(4, "objects").unwrap(), 1);
    }

    #[test]
    fn unterminated_string_is_an_error() {
        let mut r = ByteReader::new(b"abcdef", Endian::Little);
        assert!(r.cstr(3, "name").is_err());
        assert!(r.cstr(100, "name").is_err());
    }
}
