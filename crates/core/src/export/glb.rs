//! The binary glTF container: a 12-byte header, the JSON chunk padded with spaces and the
//! binary chunk padded with zeros, each to 4 bytes (glTF 2.0 §4.4).

const MAGIC: &[u8; 4] = b"glTF";
const JSON_CHUNK: u32 = 0x4E4F_534A;
const BIN_CHUNK: u32 = 0x004E_4942;

/// A GLB file of `json` and `bin` (`bin` may be empty: no binary chunk).
pub fn write(json: &[u8], bin: &[u8]) -> Vec<u8> {
    let pad = |n: usize| (4 - n % 4) % 4;
    let json_len = json.len() + pad(json.len());
    let bin_len = bin.len() + pad(bin.len());
    let total = 12 + 8 + json_len + if bin.is_empty() { 0 } else { 8 + bin_len };
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json_len as u32).to_le_bytes());
    out.extend_from_slice(&JSON_CHUNK.to_le_bytes());
    out.extend_from_slice(json);
    out.resize(out.len() + pad(json.len()), b' ');
    if !bin.is_empty() {
        out.extend_from_slice(&(bin_len as u32).to_le_bytes());
        out.extend_from_slice(&BIN_CHUNK.to_le_bytes());
        out.extend_from_slice(bin);
        out.resize(out.len() + pad(bin.len()), 0);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn chunks_are_padded_to_four_bytes_and_the_length_is_the_file_length() {
        let out = super::write(b"{\"a\":1}", &[1, 2, 3, 4, 5]);
        assert_eq!(&out[..4], b"glTF");
        assert_eq!(
            u32::from_le_bytes(out[8..12].try_into().unwrap()) as usize,
            out.len()
        );
        assert_eq!(u32::from_le_bytes(out[12..16].try_into().unwrap()), 8);
        assert_eq!(&out[20..28], b"{\"a\":1} ");
        assert_eq!(u32::from_le_bytes(out[28..32].try_into().unwrap()), 8);
        assert_eq!(&out[36..], &[1, 2, 3, 4, 5, 0, 0, 0]);
        assert_eq!(out.len() % 4, 0);
    }
}
