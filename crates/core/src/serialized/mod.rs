//! Unity SerializedFiles (`.assets`, `level0`, `CAB-…` inside bundles), format versions 9 to 22.
//!
//! The header, metadata and object table are read here with bounds checks on every count;
//! type trees come from the file (legacy recursive or blob form, parsed by `rabex`) or, for
//! player files built without them, from the type tree package embedded in `rabex`. Objects are
//! then deserialized into typed structs with `rabex`'s serde deserializer, each call guarded
//! against panics.

mod metadata;
mod typetree;
pub use typetree::embedded_tree;

use std::panic::{AssertUnwindSafe, catch_unwind};

use rabex::typetree::TypeTreeNode;
use serde::de::DeserializeOwned;

use crate::binary::Endian;
use crate::version::{FallbackSource, UnityVersion, VersionError};
pub use metadata::{External, ObjectInfo, SerializedType};

/// Oldest format version read (Unity 3.5).
pub const MIN_FORMAT: u32 = 9;
/// Newest format version read (Unity 2020.1 to 6000.3).
pub const MAX_FORMAT: u32 = 22;

/// Unity version assumed when a file's version is stripped and none was given.
pub const FALLBACK_UNITY_VERSION: &str = crate::version::FALLBACK;

/// Why a serialized file or one of its objects could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SerializedError {
    #[error("not a serialized file: {0}")]
    NotSerialized(String),
    #[error(
        "unsupported serialized file format version {0} (clipscope reads {MIN_FORMAT} to {MAX_FORMAT})"
    )]
    UnsupportedFormat(u32),
    #[error("malformed metadata: {0}")]
    Metadata(String),
    #[error(
        "no type tree for class {class_id} (Unity {version}): the file has none and the embedded package lacks it"
    )]
    NoTypeTree { class_id: i32, version: String },
    #[error("object data lies outside the file (offset {offset}, size {size}, file {len} bytes)")]
    ObjectOutOfBounds { offset: u64, size: u64, len: usize },
    #[error("{0}")]
    Deserialize(String),
}

/// A parsed serialized file: its metadata plus the bytes its objects live in.
#[derive(Debug)]
pub struct SerializedFile {
    /// Serialized format version (9 to 22).
    pub format: u32,
    pub endian: Endian,
    /// Unity version as written (may be "0.0.0" when stripped).
    pub unity_version: String,
    /// The version used to pick embedded type trees and version-dependent layouts.
    pub effective_version: UnityVersion,
    /// Set when the written version was unusable and `effective_version` is assumed.
    pub version_assumed: bool,
    /// When assumed: why the written version was unusable and where the one used came from.
    pub version_fallback: Option<(VersionError, FallbackSource)>,
    /// Build target; -2 for editor files.
    pub target_platform: i32,
    pub types: Vec<SerializedType>,
    pub objects: Vec<ObjectInfo>,
    pub externals: Vec<External>,
    data_offset: u64,
    bytes: crate::blob::Blob,
}

/// True when `bytes` look like a serialized file header (the rule of Unity's own detector).
pub fn looks_serialized(bytes: &[u8]) -> bool {
    metadata::Header::parse(bytes).is_ok()
}

/// Why `bytes` do not start with a readable serialized file header, if they do not.
pub fn header_error(bytes: &[u8]) -> Option<SerializedError> {
    metadata::Header::parse(bytes).err()
}

impl SerializedFile {
    /// Parses the header, metadata and object table. `fallback_version` is used when the
    /// file's Unity version is stripped or unreadable.
    pub fn parse(
        bytes: impl Into<crate::blob::Blob>,
        fallback_version: Option<&str>,
    ) -> Result<Self, SerializedError> {
        Self::parse_in(bytes, fallback_version, None)
    }

    /// [`Self::parse`] for a file inside a container: when the file's own version is
    /// stripped, `given` (the user's) is used, else the container header's `container_version`
    /// when usable, else [`FALLBACK_UNITY_VERSION`].
    pub fn parse_in(
        bytes: impl Into<crate::blob::Blob>,
        given: Option<&str>,
        container_version: Option<&str>,
    ) -> Result<Self, SerializedError> {
        let bytes = bytes.into();
        let header = metadata::Header::parse(&bytes)?;
        let meta = metadata::Metadata::parse(&bytes, &header)?;
        let resolved = crate::version::resolve(&meta.unity_version, given, container_version);
        Ok(SerializedFile {
            format: header.version,
            endian: header.endian,
            unity_version: meta.unity_version,
            effective_version: resolved.version,
            version_assumed: resolved.assumed.is_some(),
            version_fallback: resolved.assumed,
            target_platform: meta.target_platform,
            types: meta.types,
            objects: meta.objects,
            externals: meta.externals,
            data_offset: header.data_offset,
            bytes,
        })
    }

    /// Total size of the file's bytes.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// True for an empty file (never the case for a parsed one).
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The object with this path id.
    pub fn object(&self, path_id: i64) -> Option<&ObjectInfo> {
        self.objects.iter().find(|o| o.path_id == path_id)
    }

    /// The raw bytes of one object.
    pub fn object_bytes(&self, info: &ObjectInfo) -> Result<&[u8], SerializedError> {
        let out_of_bounds = || SerializedError::ObjectOutOfBounds {
            offset: info.byte_start,
            size: info.byte_size as u64,
            len: self.bytes.len(),
        };
        let start = self
            .data_offset
            .checked_add(info.byte_start)
            .ok_or_else(out_of_bounds)?;
        let end = start
            .checked_add(info.byte_size as u64)
            .ok_or_else(out_of_bounds)?;
        if end > self.bytes.len() as u64 {
            return Err(out_of_bounds());
        }
        Ok(&self.bytes[start as usize..end as usize])
    }

    /// The type tree that describes this object.
    pub fn type_tree(
        &self,
        info: &ObjectInfo,
    ) -> Result<std::borrow::Cow<'_, TypeTreeNode>, SerializedError> {
        typetree::tree_for(self, info.type_id, info.class_id)
    }

    /// Deserializes one object into `T` through its type tree. A panic inside the
    /// deserializer is caught and reported as an error.
    pub fn read<T: DeserializeOwned>(&self, info: &ObjectInfo) -> Result<T, SerializedError> {
        let tree = self.type_tree(info)?;
        self.read_with_tree(info, &tree)
    }

    /// [`Self::read`] through a given tree: the object's own, or one cut after the fields
    /// wanted (the bytes after them are not read).
    pub fn read_with_tree<T: DeserializeOwned>(
        &self,
        info: &ObjectInfo,
        tree: &TypeTreeNode,
    ) -> Result<T, SerializedError> {
        let bytes = self.object_bytes(info)?;
        let endian = match self.endian {
            Endian::Little => rabex::files::serializedfile::Endianness::Little,
            Endian::Big => rabex::files::serializedfile::Endianness::Big,
        };
        let result = catch_unwind(AssertUnwindSafe(|| {
            let mut cursor = std::io::Cursor::new(bytes);
            rabex::serde_typetree::from_reader_endianed::<T>(&mut cursor, tree, endian)
        }));
        match result {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) => Err(SerializedError::Deserialize(e.to_string())),
            Err(_) => Err(SerializedError::Deserialize(
                "the type tree reader panicked on this object".into(),
            )),
        }
    }
}
