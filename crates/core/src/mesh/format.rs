//! Vertex channels: which attribute a channel index is, and how its components are stored
//! (`mesh.md` §2.3, the three numberings of the format byte).

use half::f16;

use super::Layout;
use crate::binary::Endian;

/// What a vertex channel holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Attribute {
    Position,
    Normal,
    Tangent,
    Color,
    Uv(u8),
    BlendWeight,
    BlendIndices,
}

impl Attribute {
    /// The attribute of channel `index` in a file of `layout`'s version.
    pub fn of_channel(index: usize, layout: Layout) -> Option<Attribute> {
        use Attribute::*;
        let modern = [
            Position,
            Normal,
            Tangent,
            Color,
            Uv(0),
            Uv(1),
            Uv(2),
            Uv(3),
            Uv(4),
            Uv(5),
            Uv(6),
            Uv(7),
            BlendWeight,
            BlendIndices,
        ];
        let unity5 = [Position, Normal, Color, Uv(0), Uv(1), Uv(2), Uv(3), Tangent];
        let unity4 = [Position, Normal, Color, Uv(0), Uv(1), Tangent];
        if layout.at_least(2018, 0) {
            modern.get(index).copied()
        } else if layout.at_least(5, 0) {
            unity5.get(index).copied()
        } else {
            unity4.get(index).copied()
        }
    }
}

/// How one component is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Format {
    Float32,
    Float16,
    UNorm8,
    SNorm8,
    UNorm16,
    SNorm16,
    UInt8,
    SInt8,
    UInt16,
    SInt16,
    UInt32,
    SInt32,
}

impl Format {
    /// Decodes the format byte by the numbering of `layout`'s version.
    pub fn from_byte(value: u8, layout: Layout) -> Option<Format> {
        use Format::*;
        let table: &[Format] = if layout.at_least(2019, 0) {
            &[
                Float32, Float16, UNorm8, SNorm8, UNorm16, SNorm16, UInt8, SInt8, UInt16, SInt16,
                UInt32, SInt32,
            ]
        } else if layout.at_least(2017, 0) {
            &[
                Float32, Float16, UNorm8, UNorm8, SNorm8, UNorm16, SNorm16, UInt8, SInt8, UInt16,
                SInt16, UInt32, SInt32,
            ]
        } else {
            &[Float32, Float16, UNorm8, UInt8, UInt32]
        };
        table.get(value as usize).copied()
    }

    /// Bytes per component.
    pub fn size(self) -> usize {
        use Format::*;
        match self {
            Float32 | UInt32 | SInt32 => 4,
            Float16 | UNorm16 | SNorm16 | UInt16 | SInt16 => 2,
            UNorm8 | SNorm8 | UInt8 | SInt8 => 1,
        }
    }

    /// One component as a float; normalised formats map to 0..1 or -1..1, integer formats keep
    /// their value. `bytes` holds at least [`Format::size`] bytes.
    pub fn read(self, bytes: &[u8], endian: Endian) -> f32 {
        use Format::*;
        let b2 = || {
            let b = [bytes[0], bytes[1]];
            match endian {
                Endian::Little => u16::from_le_bytes(b),
                Endian::Big => u16::from_be_bytes(b),
            }
        };
        let b4 = || {
            let b = [bytes[0], bytes[1], bytes[2], bytes[3]];
            match endian {
                Endian::Little => u32::from_le_bytes(b),
                Endian::Big => u32::from_be_bytes(b),
            }
        };
        match self {
            Float32 => f32::from_bits(b4()),
            Float16 => f16::from_bits(b2()).to_f32(),
            UNorm8 => bytes[0] as f32 / 255.0,
            SNorm8 => (bytes[0] as i8 as f32 / 127.0).max(-1.0),
            UNorm16 => b2() as f32 / 65535.0,
            SNorm16 => (b2() as i16 as f32 / 32767.0).max(-1.0),
            UInt8 => bytes[0] as f32,
            SInt8 => bytes[0] as i8 as f32,
            UInt16 => b2() as f32,
            SInt16 => b2() as i16 as f32,
            UInt32 => b4() as f32,
            SInt32 => b4() as i32 as f32,
        }
    }

    /// One component as an integer (bone indices); floats are truncated, negatives clamp to 0.
    pub fn read_index(self, bytes: &[u8], endian: Endian) -> u32 {
        let b4 = || {
            let b = [bytes[0], bytes[1], bytes[2], bytes[3]];
            match endian {
                Endian::Little => u32::from_le_bytes(b),
                Endian::Big => u32::from_be_bytes(b),
            }
        };
        match self {
            Format::UInt32 => b4(),
            Format::SInt32 => (b4() as i32).max(0) as u32,
            other => {
                let v = other.read(bytes, endian);
                if v.is_finite() && v > 0.0 {
                    v as u32
                } else {
                    0
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(major: u16, minor: u16) -> Layout {
        Layout {
            version: (major, minor),
            endian: Endian::Little,
        }
    }

    #[test]
    fn format_byte_follows_each_eras_numbering() {
        assert_eq!(Format::from_byte(10, at(2019, 4)), Some(Format::UInt32));
        assert_eq!(Format::from_byte(10, at(2018, 4)), Some(Format::SInt16));
        assert_eq!(Format::from_byte(3, at(2017, 1)), Some(Format::UNorm8));
        assert_eq!(Format::from_byte(3, at(5, 6)), Some(Format::UInt8));
        assert_eq!(Format::from_byte(5, at(5, 6)), None);
        assert_eq!(Format::from_byte(12, at(2019, 1)), None);
    }

    #[test]
    fn channel_index_follows_each_eras_table() {
        assert_eq!(
            Attribute::of_channel(2, at(2019, 4)),
            Some(Attribute::Tangent)
        );
        assert_eq!(
            Attribute::of_channel(13, at(2022, 3)),
            Some(Attribute::BlendIndices)
        );
        assert_eq!(Attribute::of_channel(7, at(5, 0)), Some(Attribute::Tangent));
        assert_eq!(Attribute::of_channel(5, at(5, 0)), Some(Attribute::Uv(2)));
        assert_eq!(Attribute::of_channel(5, at(4, 6)), Some(Attribute::Tangent));
        assert_eq!(Attribute::of_channel(6, at(4, 6)), None);
    }

    #[test]
    fn normalised_formats_map_to_unit_ranges() {
        let le = Endian::Little;
        assert_eq!(Format::UNorm8.read(&[255], le), 1.0);
        assert_eq!(Format::SNorm8.read(&[0x80], le), -1.0);
        assert_eq!(Format::SNorm8.read(&[0x81], le), -1.0);
        assert_eq!(Format::SNorm8.read(&[127], le), 1.0);
        assert_eq!(Format::UNorm16.read(&[0xff, 0xff], le), 1.0);
        assert_eq!(Format::SNorm16.read(&[0x01, 0x80], le), -1.0);
        assert_eq!(Format::SNorm16.read(&[0x00, 0x40], le), 16384.0 / 32767.0);
        assert_eq!(Format::Float16.read(&[0x00, 0x3c], le), 1.0);
        assert_eq!(Format::Float16.read(&[0x3c, 0x00], Endian::Big), 1.0);
        assert_eq!(
            Format::Float32.read(&1.5f32.to_be_bytes(), Endian::Big),
            1.5
        );
        assert_eq!(Format::SInt16.read(&[0xfe, 0xff], le), -2.0);
        assert_eq!(Format::UInt32.read_index(&[7, 0, 0, 0], le), 7);
        assert_eq!(Format::SInt32.read_index(&[0xff; 4], le), 0);
        assert_eq!(Format::UInt8.read_index(&[200], le), 200);
    }
}
