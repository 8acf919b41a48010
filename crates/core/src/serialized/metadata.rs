//! The serialized file header, type list, object table and externals.

use super::typetree::{StoredTree, read_tree};
use super::{MAX_FORMAT, MIN_FORMAT, SerializedError};
use crate::binary::{ByteReader, Endian, ReadError};

impl From<ReadError> for SerializedError {
    fn from(e: ReadError) -> Self {
        SerializedError::Metadata(e.to_string())
    }
}

/// The fixed header at the start of every serialized file (always big-endian).
#[derive(Debug, Clone)]
pub(super) struct Header {
    pub version: u32,
    pub metadata_size: u64,
    pub file_size: u64,
    pub data_offset: u64,
    pub endian: Endian,
    /// Where the metadata starts.
    pub metadata_start: u64,
}

impl Header {
    /// Reads a serialized file's header (big-endian), refusing what is no serialized file.
    pub fn parse(bytes: &[u8]) -> Result<Header, SerializedError> {
        let not = |why: &str| SerializedError::NotSerialized(why.to_string());
        let mut r = ByteReader::new(bytes, Endian::Big);
        let metadata_size = r.u32("header").map_err(|_| not("shorter than a header"))? as u64;
        let file_size = r.u32("header").map_err(|_| not("shorter than a header"))? as u64;
        let version = r.u32("header").map_err(|_| not("shorter than a header"))?;
        let data_offset = r.u32("header").map_err(|_| not("shorter than a header"))? as u64;
        if !(1..=50).contains(&version) {
            return Err(not("no plausible format version in the header"));
        }
        if !(MIN_FORMAT..=MAX_FORMAT).contains(&version) {
            return Err(SerializedError::UnsupportedFormat(version));
        }
        let mut header = Header {
            version,
            metadata_size,
            file_size,
            data_offset,
            endian: Endian::Little,
            metadata_start: 20,
        };
        if version >= 22 {
            r.seek(16).map_err(|_| not("shorter than a header"))?;
            header.metadata_size = r.u64("header")?;
            header.file_size = r.u64("header")?;
            header.data_offset = r.u64("header")?;
            header.endian = endian_byte(r.u8("endianness")?)?;
            header.metadata_start = 48;
        } else {
            header.endian = endian_byte(r.u8("endianness")?)?;
        }
        let len = bytes.len() as u64;
        if header.file_size > len || header.data_offset > len {
            return Err(not(&format!(
                "header declares {} bytes (data at {}) but the file has {len}",
                header.file_size, header.data_offset
            )));
        }
        if header.metadata_start.saturating_add(header.metadata_size) > len {
            return Err(not("metadata size runs past the end of the file"));
        }
        Ok(header)
    }
}

fn endian_byte(b: u8) -> Result<Endian, SerializedError> {
    match b {
        0 => Ok(Endian::Little),
        1 => Ok(Endian::Big),
        other => Err(SerializedError::NotSerialized(format!(
            "endianness byte is {other}, not 0 or 1"
        ))),
    }
}

/// One entry of the type list.
#[derive(Debug, Clone)]
pub struct SerializedType {
    pub class_id: i32,
    pub script_type_index: i16,
    pub(super) tree: StoredTree,
}

/// One row of the object table.
#[derive(Debug, Clone)]
pub struct ObjectInfo {
    pub path_id: i64,
    /// Offset of the object's data from the file's data section.
    pub byte_start: u64,
    pub byte_size: u32,
    /// Index into the type list (format 16+) or the type's class id (older).
    pub type_id: i32,
    /// The object's class id (1 GameObject, 4 Transform, 74 AnimationClip, …).
    pub class_id: i32,
}

/// Another file an object may reference: PPtr file id N refers to externals[N-1].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct External {
    pub path: String,
}

pub(super) struct Metadata {
    pub unity_version: String,
    pub target_platform: i32,
    pub types: Vec<SerializedType>,
    pub objects: Vec<ObjectInfo>,
    pub externals: Vec<External>,
}

/// Smallest possible sizes, used to check counts before allocating.
const MIN_TYPE_SIZE: usize = 4;
const MIN_OBJECT_SIZE: usize = 12;
const MIN_EXTERNAL_SIZE: usize = 1;

impl Metadata {
    /// Reads the metadata (types, objects, externals) the header points to.
    pub fn parse(bytes: &[u8], header: &Header) -> Result<Metadata, SerializedError> {
        let fmt = header.version;
        let mut r = ByteReader::new(bytes, header.endian);
        r.seek(header.metadata_start as usize)?;
        let unity_version = r.cstr(64, "Unity version")?;
        let target_platform = r.i32("target platform")?;
        let enable_type_tree = if fmt >= 13 {
            r.u8("type tree flag")? != 0
        } else {
            true
        };
        let type_count = r.count(MIN_TYPE_SIZE, "type count")?;
        let mut types = Vec::with_capacity(type_count);
        for _ in 0..type_count {
            types.push(read_type(&mut r, fmt, enable_type_tree, &unity_version)?);
        }
        let big_ids = if (7..14).contains(&fmt) {
            r.i32("big id flag")? != 0
        } else {
            false
        };
        let object_count = r.count(MIN_OBJECT_SIZE, "object count")?;
        let mut objects = Vec::with_capacity(object_count);
        for _ in 0..object_count {
            objects.push(read_object(&mut r, fmt, big_ids, &types)?);
        }
        if fmt >= 11 {
            let script_count = r.count(8, "script count")?;
            for _ in 0..script_count {
                r.i32("script file index")?;
                if fmt >= 14 {
                    r.align(4)?;
                    r.i64("script path id")?;
                } else {
                    r.i32("script path id")?;
                }
            }
        }
        let external_count = r.count(MIN_EXTERNAL_SIZE, "external count")?;
        let mut externals = Vec::with_capacity(external_count);
        for _ in 0..external_count {
            r.cstr(4096, "external temp path")?;
            r.take(20, "external guid and type")?;
            externals.push(External {
                path: r.cstr(4096, "external path")?,
            });
        }
        Ok(Metadata {
            unity_version,
            target_platform,
            types,
            objects,
            externals,
        })
    }
}

fn read_type(
    r: &mut ByteReader<'_>,
    fmt: u32,
    enable_type_tree: bool,
    unity_version: &str,
) -> Result<SerializedType, SerializedError> {
    let class_id = r.i32("class id")?;
    if fmt >= 16 {
        r.u8("stripped type flag")?;
    }
    let script_type_index = if fmt >= 17 {
        r.i16("script type index")?
    } else {
        -1
    };
    if fmt >= 13 {
        let has_script_id = (fmt < 16 && class_id < 0)
            || (fmt >= 16 && class_id == 114)
            || (script_type_index >= 0 && version_at_least(unity_version, 2018, 3));
        if has_script_id {
            r.take(16, "script id")?;
        }
        r.take(16, "type hash")?;
    }
    let tree = if enable_type_tree {
        read_tree(r, fmt)?
    } else {
        StoredTree::None
    };
    if enable_type_tree && fmt >= 21 {
        let n = r.count(4, "type dependencies")?;
        r.take(n * 4, "type dependencies")?;
    }
    Ok(SerializedType {
        class_id,
        script_type_index,
        tree,
    })
}

fn read_object(
    r: &mut ByteReader<'_>,
    fmt: u32,
    big_ids: bool,
    types: &[SerializedType],
) -> Result<ObjectInfo, SerializedError> {
    let path_id = if big_ids {
        r.i64("path id")?
    } else if fmt < 14 {
        r.i32("path id")? as i64
    } else {
        r.align(4)?;
        r.i64("path id")?
    };
    let byte_start = if fmt >= 22 {
        r.u64("object offset")?
    } else {
        r.u32("object offset")? as u64
    };
    let byte_size = r.u32("object size")?;
    let type_id = r.i32("object type")?;
    let mut class_id = type_id;
    if fmt < 16 {
        class_id = r.u16("object class id")? as i32;
    }
    if fmt < 11 {
        r.u16("destroyed flag")?;
    }
    if (11..17).contains(&fmt) {
        r.i16("script type index")?;
    }
    if fmt == 15 || fmt == 16 {
        r.u8("stripped flag")?;
    }
    if fmt >= 16 {
        let ty = usize::try_from(type_id)
            .ok()
            .and_then(|i| types.get(i))
            .ok_or_else(|| {
                SerializedError::Metadata(format!(
                    "object {path_id} names type {type_id} but the file lists {} types",
                    types.len()
                ))
            })?;
        class_id = ty.class_id;
    }
    Ok(ObjectInfo {
        path_id,
        byte_start,
        byte_size,
        type_id,
        class_id,
    })
}

/// Compares a Unity version string's major.minor against a bound.
fn version_at_least(version: &str, major: u32, minor: u32) -> bool {
    let mut parts = version.split(|c: char| !c.is_ascii_digit());
    let a: u32 = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    let b: u32 = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    (a, b) >= (major, minor)
}
