//! Guids for written assets, derived from (source file, path id) so two runs write the same
//! guids and references between written files resolve; and the `.meta` text that carries
//! them.

/// 128-bit FNV-1a of `bytes`.
fn fnv1a_128(bytes: &[u8]) -> u128 {
    const OFFSET: u128 = 0x6c62272e07bb014262b821756295c58d;
    const PRIME: u128 = 0x0000000001000000000000000000013B;
    bytes
        .iter()
        .fold(OFFSET, |h, &b| (h ^ u128::from(b)).wrapping_mul(PRIME))
}

/// The guid of the asset written for object `path_id` of the file `source` names (a file
/// name with its inner name, not a full path, so the folder the game lies in does not
/// matter): 32 lowercase hex digits.
pub fn derived_guid(source: &str, path_id: i64) -> String {
    let mut bytes = Vec::with_capacity(source.len() + 9);
    bytes.extend_from_slice(source.as_bytes());
    bytes.push(0);
    bytes.extend_from_slice(&path_id.to_le_bytes());
    format!("{:032x}", fnv1a_128(&bytes))
}

/// Writes `text` to `dir/<stem>.<ext>` and its `.meta` (guid `guid`, main object
/// `main_file_id`) beside it, into a folder that exists; the path of the asset. An error
/// names the file that could not be written.
pub fn write_with_meta(
    dir: &std::path::Path,
    stem: &str,
    ext: &str,
    text: &str,
    guid: &str,
    main_file_id: i64,
) -> Result<std::path::PathBuf, crate::error::Error> {
    let path = dir.join(format!("{stem}.{ext}"));
    let written = crate::output_file::write(&path, text.as_bytes());
    finish_with_meta(path, written, guid, main_file_id)
}

/// [`write_with_meta`] of a text the caller gives up: a large one is written straight from
/// its buffer ([`crate::output_file::write_owned`]), and the buffer then goes back to this
/// thread's next text ([`super::recycle`]).
pub fn write_owned_with_meta(
    dir: &std::path::Path,
    stem: &str,
    ext: &str,
    text: String,
    guid: &str,
    main_file_id: i64,
) -> Result<std::path::PathBuf, crate::error::Error> {
    let path = dir.join(format!("{stem}.{ext}"));
    let (written, spare) = crate::output_file::write_owned(&path, text.into_bytes());
    // Emptied, so always text.
    super::recycle(String::from_utf8(spare).unwrap_or_default());
    finish_with_meta(path, written, guid, main_file_id)
}

/// The asset's path once its `.meta` is written beside it, or the error of either write.
fn finish_with_meta(
    path: std::path::PathBuf,
    written: std::io::Result<()>,
    guid: &str,
    main_file_id: i64,
) -> Result<std::path::PathBuf, crate::error::Error> {
    let io = |path: std::path::PathBuf| move |source| crate::error::Error::Io { path, source };
    written.map_err(io(path.clone()))?;
    let mut meta = path.clone().into_os_string();
    meta.push(".meta");
    let meta = std::path::PathBuf::from(meta);
    crate::output_file::write(&meta, meta_text(guid, main_file_id).as_bytes())
        .map_err(io(meta.clone()))?;
    Ok(path)
}

/// The `.meta` text of a native asset (`.anim`, `.controller`, `.mask`) whose main object
/// has `main_file_id` (7400000 for a clip).
pub fn meta_text(guid: &str, main_file_id: i64) -> String {
    format!(
        "fileFormatVersion: 2\nguid: {guid}\nNativeFormatImporter:\n  externalObjects: {{}}\n  mainObjectFileID: {main_file_id}\n  userData: \n  assetBundleName: \n  assetBundleVariant: \n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guids_are_stable_and_distinct() {
        let a = derived_guid("moisture_animationreplacements/CAB-1", 42);
        assert_eq!(a, derived_guid("moisture_animationreplacements/CAB-1", 42));
        assert_ne!(a, derived_guid("moisture_animationreplacements/CAB-1", 43));
        assert_ne!(a, derived_guid("other/CAB-1", 42));
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|b| b.is_ascii_hexdigit()));
        let meta = meta_text(&a, 7400000);
        assert!(meta.contains(&format!("guid: {a}\n")));
    }
}
