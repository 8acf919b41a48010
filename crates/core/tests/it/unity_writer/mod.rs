//! Test fixtures as real serialized files: an object described as a JSON value is written
//! against the release type tree of any Unity version in rabex's embedded type-tree package
//! (every field the value leaves out gets zero, empty or false), and the objects are put into
//! a serialized file with rabex's writer, type trees included.
//!
//! Values as [`clipscope_authoring::tree`] reads them.
#![allow(dead_code)]

use std::borrow::Cow;
use std::sync::OnceLock;

use rabex::UnityVersion;
use rabex::files::serializedfile::builder::SerializedFileBuilder;
use rabex::files::serializedfile::{SerializedType, build_common_offset_map};
use rabex::objects::ClassId;
use rabex::tpk::TpkTypeTreeBlob;
use rabex::typetree::TypeTreeNode;
use rabex::typetree::typetree_cache::TypeTreeCache;
use serde_json::Value;

fn tpk() -> &'static TpkTypeTreeBlob {
    static TPK: OnceLock<TpkTypeTreeBlob> = OnceLock::new();
    TPK.get_or_init(TpkTypeTreeBlob::embedded)
}

/// The release type tree of `class_id` in Unity `version`.
pub fn tree(class_id: i32, version: &str) -> TypeTreeNode {
    let version: UnityVersion = version.parse().expect("a Unity version");
    tpk()
        .get_typetree_node(ClassId(class_id), &version)
        .unwrap_or_else(|| panic!("no type tree for class {class_id} in {version}"))
}

/// One object to write: class, path id and its value.
pub struct Object {
    pub class_id: i32,
    pub path_id: i64,
    pub value: Value,
}

/// A serialized file (format 22, little-endian, type trees embedded) of Unity `version`
/// holding `objects`.
pub fn serialized_file(version: &str, objects: &[Object]) -> Vec<u8> {
    let unity: UnityVersion = version.parse().expect("a Unity version");
    let cache = TypeTreeCache::new(tpk());
    let common = build_common_offset_map(tpk(), &unity);
    let mut builder = SerializedFileBuilder::new(&unity, &cache, &common, true);
    let mut types: Vec<(i32, i32)> = Vec::new();
    for object in objects {
        let tree = tree(object.class_id, version);
        let type_id = match types.iter().find(|(c, _)| *c == object.class_id) {
            Some(&(_, t)) => t,
            None => {
                let t = builder.add_type_uncached(SerializedType {
                    m_ClassID: ClassId(object.class_id),
                    m_OldTypeHash: tree.hash(),
                    m_Type: Some(tree.clone()),
                    ..SerializedType::default()
                });
                types.push((object.class_id, t));
                t
            }
        };
        let bytes = object_bytes(&tree, &object.value);
        builder
            .add_object_untyped_with(
                object.path_id,
                ClassId(object.class_id),
                type_id,
                Cow::Owned(bytes),
            )
            .expect("a free path id");
    }
    builder.write_vec().expect("rabex writes the file")
}

/// The bytes of one object: `value` written against `tree` (the authoring module's writer).
pub use clipscope_authoring::tree::object_bytes;
