//! The block codecs of Unity's containers: none, LZMA (liblzma, built from its bundled source)
//! and LZ4/LZ4HC (`lz4_flex`). Every codec writes into an output slice of the exact size the
//! container declared, so nothing grows past what was checked beforehand.

use liblzma::stream::{Action, Status, Stream};

/// A block's compression, from the low six bits of its flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Codec {
    None,
    Lzma,
    Lz4,
    Lz4Hc,
}

impl Codec {
    /// The codec a flags field names (`flags & 0x3f`), or the unknown code.
    pub fn from_flags(flags: u32) -> Result<Codec, u32> {
        match flags & 0x3f {
            0 => Ok(Codec::None),
            1 => Ok(Codec::Lzma),
            2 => Ok(Codec::Lz4),
            3 => Ok(Codec::Lz4Hc),
            other => Err(other),
        }
    }

    /// The codec's name in messages ("LZMA", "LZ4", …).
    pub fn name(self) -> &'static str {
        match self {
            Codec::None => "uncompressed",
            Codec::Lzma => "LZMA",
            Codec::Lz4 => "LZ4",
            Codec::Lz4Hc => "LZ4HC",
        }
    }
}

/// Length of the LZMA properties that start a Unity LZMA block (lc/lp/pb byte, dictionary size).
pub const LZMA_PROPS_LEN: usize = 5;

/// Decompresses `input` into exactly `out.len()` bytes.
pub fn decompress_into(codec: Codec, input: &[u8], out: &mut [u8]) -> Result<(), String> {
    match codec {
        Codec::None if input.len() == out.len() => {
            out.copy_from_slice(input);
            Ok(())
        }
        Codec::None => Err(format!(
            "uncompressed block of {} bytes declares {}",
            input.len(),
            out.len()
        )),
        Codec::Lzma => {
            let props: [u8; LZMA_PROPS_LEN] = input
                .get(..LZMA_PROPS_LEN)
                .and_then(|p| p.try_into().ok())
                .ok_or("LZMA block shorter than its properties")?;
            lzma_into(props, &input[LZMA_PROPS_LEN..], out)
        }
        Codec::Lz4 | Codec::Lz4Hc => match lz4_flex::block::decompress_into(input, out) {
            Ok(n) if n == out.len() => Ok(()),
            Ok(n) => Err(format!("LZ4 block gave {n} bytes, {} declared", out.len())),
            Err(e) => Err(format!("LZ4: {e}")),
        },
    }
}

/// Decodes a raw LZMA1 stream with the given properties into exactly `out.len()` bytes.
///
/// liblzma's `.lzma` decoder is fed a header made here: the stored properties, the
/// dictionary size capped at the output size (no match can reach further back, so a hostile
/// dictionary size cannot make it allocate more) and the exact output size, then the stream.
pub fn lzma_into(props: [u8; LZMA_PROPS_LEN], stream: &[u8], out: &mut [u8]) -> Result<(), String> {
    let declared_dict = u32::from_le_bytes([props[1], props[2], props[3], props[4]]);
    let dict = declared_dict.min(u32::try_from(out.len().max(4096)).unwrap_or(u32::MAX));
    let mut header = [0u8; 13];
    header[0] = props[0];
    header[1..5].copy_from_slice(&dict.to_le_bytes());
    header[5..].copy_from_slice(&(out.len() as u64).to_le_bytes());

    let mut decoder = Stream::new_lzma_decoder(u64::MAX).map_err(|e| format!("LZMA: {e}"))?;
    let mut written = 0usize;
    loop {
        // The decoder may take the header over several calls; what it has read so far says
        // which part of the input comes next.
        let consumed = decoder.total_in() as usize;
        let input = match consumed.checked_sub(header.len()) {
            None => &header[consumed..],
            Some(read) => &stream[read..],
        };
        let before = (decoder.total_in(), decoder.total_out());
        let status = decoder
            .process(input, &mut out[written..], Action::Run)
            .map_err(|e| format!("LZMA data: {e}"))?;
        written += (decoder.total_out() - before.1) as usize;
        let progressed = (decoder.total_in(), decoder.total_out()) != before;
        match status {
            Status::StreamEnd => break,
            _ if written == out.len() => break,
            _ if !progressed => {
                return Err(format!(
                    "LZMA data ends after {written} of {} bytes",
                    out.len()
                ));
            }
            _ => {}
        }
    }
    if written != out.len() {
        return Err(format!("LZMA gave {written} bytes, {} declared", out.len()));
    }
    Ok(())
}
