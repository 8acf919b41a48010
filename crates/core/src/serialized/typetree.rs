//! Type trees: read from the file (both layouts) or taken from `rabex`'s embedded package.

use std::borrow::Cow;
use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex, OnceLock};

use rabex::objects::ClassId;
use rabex::tpk::TpkTypeTreeBlob;
use rabex::typetree::TypeTreeNode;

use super::{SerializedError, SerializedFile};
use crate::binary::{ByteReader, Endian};

/// Deepest type tree accepted; real trees stay far below this.
const MAX_DEPTH: usize = 64;
/// Longest type or field name accepted.
const MAX_NAME: usize = 1024;

/// A type's tree as the file stores it. The blob layout is parsed when an object of the type
/// is first read (most files list far more types than clipscope reads); the legacy layout can
/// only be skipped by reading it, so it is parsed at once.
#[derive(Debug, Clone)]
pub(super) enum StoredTree {
    None,
    Parsed(TypeTreeNode),
    Blob {
        /// Byte range of the tree in the file.
        range: std::ops::Range<usize>,
        parsed: std::sync::OnceLock<Result<TypeTreeNode, String>>,
    },
}

/// Reads (legacy layout) or skips (blob layout) one type tree at the reader's position, in
/// the layout of format `fmt`.
pub(super) fn read_tree(r: &mut ByteReader<'_>, fmt: u32) -> Result<StoredTree, SerializedError> {
    if fmt >= 12 || fmt == 10 {
        skip_blob(r, fmt)
    } else {
        read_legacy(r, fmt, 0).map(StoredTree::Parsed)
    }
}

/// The blob layout: a flat node list with levels, then a string buffer. Its extent is
/// checked here; it is parsed by [`parse_blob`] when first needed.
fn skip_blob(r: &mut ByteReader<'_>, fmt: u32) -> Result<StoredTree, SerializedError> {
    let start = r.position();
    let node_size = if fmt >= 19 { 32 } else { 24 };
    let nodes = r.count(node_size, "type tree node count")?;
    let strings = r.count(1, "type tree string buffer size")?;
    if nodes == 0 {
        return Err(r.error("type tree has no nodes").into());
    }
    r.take(nodes * node_size + strings, "type tree")?;
    Ok(StoredTree::Blob {
        range: start..r.position(),
        parsed: OnceLock::new(),
    })
}

/// Parses a blob-layout tree from its bytes.
fn parse_blob(bytes: &[u8], fmt: u32, endian: Endian) -> Result<TypeTreeNode, String> {
    let parsed = catch_unwind(AssertUnwindSafe(|| {
        let mut cursor = std::io::Cursor::new(bytes);
        match endian {
            Endian::Little => TypeTreeNode::blob_from_reader::<_, byteorder::LE>(&mut cursor, fmt),
            Endian::Big => TypeTreeNode::blob_from_reader::<_, byteorder::BE>(&mut cursor, fmt),
        }
    }));
    match parsed {
        Ok(Ok(tree)) => Ok(tree),
        Ok(Err(e)) => Err(format!("bad type tree: {e}")),
        Err(_) => Err("bad type tree (reader panicked)".into()),
    }
}

/// The recursive layout of formats below 12 (Unity 3.x and 4.x).
#[allow(non_snake_case)]
fn read_legacy(
    r: &mut ByteReader<'_>,
    fmt: u32,
    depth: usize,
) -> Result<TypeTreeNode, SerializedError> {
    if depth > MAX_DEPTH {
        return Err(r
            .error(format!("type tree nests deeper than {MAX_DEPTH}"))
            .into());
    }
    let m_Type = r.cstr(MAX_NAME, "type name")?;
    let m_Name = r.cstr(MAX_NAME, "field name")?;
    let m_ByteSize = r.i32("byte size")?;
    let m_VariableCount = if fmt == 2 {
        Some(r.i32("variable count")?)
    } else {
        None
    };
    if fmt != 3 {
        r.i32("node index")?;
    }
    let m_TypeFlags = r.i32("type flags")?;
    let m_Version = r.i32("type version")?;
    let m_MetaFlag = if fmt != 3 {
        Some(r.i32("meta flags")?)
    } else {
        None
    };
    let child_count = r.count(24, "child count")?;
    let mut children = Vec::with_capacity(child_count);
    for _ in 0..child_count {
        children.push(read_legacy(r, fmt, depth + 1)?);
    }
    Ok(TypeTreeNode {
        m_Type,
        m_Name,
        m_Version,
        m_TypeFlags,
        m_ByteSize,
        m_MetaFlag,
        m_RefTypeHash: None,
        m_VariableCount,
        children,
    })
}

/// The tree for an object: the file's own, else the embedded package's for the file's version.
pub(super) fn tree_for<'a>(
    file: &'a SerializedFile,
    type_id: i32,
    class_id: i32,
) -> Result<Cow<'a, TypeTreeNode>, SerializedError> {
    let own = if file.format >= 16 {
        usize::try_from(type_id)
            .ok()
            .and_then(|i| file.types.get(i))
    } else {
        file.types
            .iter()
            .find(|t| t.class_id == type_id || t.class_id == class_id)
    };
    let own = match own.map(|t| &t.tree) {
        Some(StoredTree::Parsed(tree)) => Some(tree),
        Some(StoredTree::Blob { range, parsed }) => {
            let parsed = parsed.get_or_init(|| {
                let bytes = file
                    .bytes
                    .get(range.clone())
                    .ok_or("type tree out of range")?;
                parse_blob(bytes, file.format, file.endian)
            });
            Some(
                parsed
                    .as_ref()
                    .map_err(|e| SerializedError::Metadata(e.clone()))?,
            )
        }
        Some(StoredTree::None) | None => None,
    };
    if let Some(tree) = own {
        return Ok(Cow::Borrowed(tree));
    }
    embedded_tree(class_id, file.effective_version.layouts())
        .map(|t| Cow::Owned((*t).clone()))
        .ok_or_else(|| SerializedError::NoTypeTree {
            class_id,
            version: file.effective_version.to_string(),
        })
}

type TreeCache = Mutex<HashMap<(i32, String), Option<Arc<TypeTreeNode>>>>;

/// A release type tree from `rabex`'s embedded package, cached per class and version.
pub fn embedded_tree(class_id: i32, version: &rabex::UnityVersion) -> Option<Arc<TypeTreeNode>> {
    static TPK: OnceLock<Option<TpkTypeTreeBlob>> = OnceLock::new();
    static CACHE: OnceLock<TreeCache> = OnceLock::new();
    let key = (class_id, version.to_string());
    let cache = CACHE.get_or_init(Default::default);
    if let Some(hit) = cache.lock().ok()?.get(&key) {
        return hit.clone();
    }
    let tpk = TPK
        .get_or_init(|| catch_unwind(TpkTypeTreeBlob::embedded).ok())
        .as_ref()?;
    let tree = catch_unwind(AssertUnwindSafe(|| {
        tpk.get_typetree_node(ClassId(class_id), version)
    }))
    .ok()
    .flatten()
    .map(Arc::new);
    cache.lock().ok()?.insert(key, tree.clone());
    tree
}
