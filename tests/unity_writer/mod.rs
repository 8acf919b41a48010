//! Test fixtures as real serialized files: an object described as a JSON value is written
//! against the release type tree of any Unity version in rabex's embedded type-tree package
//! (every field the value leaves out gets zero, empty or false), and the objects are put into
//! a serialized file with rabex's writer, type trees included.
//!
//! Values: numbers and booleans for primitives, strings for strings, arrays for vectors and
//! `TypelessData` (bytes as numbers, or a `"hex:…"` string), `[key, value]` arrays for map
//! entries, objects for structs (fields matched by name).
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

/// The bytes of one object: `value` written against `tree`.
pub fn object_bytes(tree: &TypeTreeNode, value: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    write(tree, Some(value), &mut out);
    out
}

fn align(out: &mut Vec<u8>) {
    while !out.len().is_multiple_of(4) {
        out.push(0);
    }
}

fn number(value: Option<&Value>) -> f64 {
    match value {
        Some(Value::Number(n)) => n.as_f64().unwrap_or(0.0),
        Some(Value::Bool(b)) => *b as u8 as f64,
        _ => 0.0,
    }
}

fn integer(value: Option<&Value>) -> i128 {
    match value {
        Some(Value::Number(n)) => n
            .as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from))
            .unwrap_or(n.as_f64().unwrap_or(0.0) as i128),
        Some(Value::Bool(b)) => *b as i128,
        _ => 0,
    }
}

/// Bytes from an array of numbers or a `"hex:…"` string.
fn bytes_of(value: Option<&Value>) -> Vec<u8> {
    match value {
        Some(Value::Array(items)) => items.iter().map(|v| integer(Some(v)) as u8).collect(),
        Some(Value::String(s)) => {
            let hex = s
                .strip_prefix("hex:")
                .expect("byte strings start with hex:");
            (0..hex.len() / 2)
                .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex digits"))
                .collect()
        }
        _ => Vec::new(),
    }
}

fn write(node: &TypeTreeNode, value: Option<&Value>, out: &mut Vec<u8>) {
    match node.m_Type.as_str() {
        "bool" | "UInt8" | "SInt8" | "char" => out.push(integer(value) as u8),
        "UInt16" | "SInt16" | "unsigned short" | "short" => {
            out.extend((integer(value) as u16).to_le_bytes())
        }
        "UInt32" | "SInt32" | "int" | "unsigned int" | "Type*" => {
            out.extend((integer(value) as u32).to_le_bytes())
        }
        "UInt64" | "SInt64" | "long long" | "unsigned long long" | "FileSize" => {
            out.extend((integer(value) as u64).to_le_bytes())
        }
        "float" => out.extend((number(value) as f32).to_le_bytes()),
        "double" => out.extend(number(value).to_le_bytes()),
        "string" => {
            let s = value.and_then(Value::as_str).unwrap_or("");
            out.extend((s.len() as u32).to_le_bytes());
            out.extend(s.as_bytes());
            align(out);
            return;
        }
        "TypelessData" => {
            let bytes = bytes_of(value);
            out.extend((bytes.len() as u32).to_le_bytes());
            out.extend(bytes);
        }
        _ if node.children.len() == 1 && node.children[0].m_Type == "Array" => {
            write_array(node, value, out);
            return;
        }
        _ => write_struct(node, value, out),
    }
    if node.requires_align() {
        align(out);
    }
}

fn write_array(node: &TypeTreeNode, value: Option<&Value>, out: &mut Vec<u8>) {
    let array = &node.children[0];
    let item = &array.children[1];
    if item.m_Type == "UInt8" {
        let bytes = bytes_of(value);
        out.extend((bytes.len() as u32).to_le_bytes());
        out.extend(bytes);
    } else {
        let items: &[Value] = value.and_then(Value::as_array).map_or(&[], Vec::as_slice);
        out.extend((items.len() as u32).to_le_bytes());
        for v in items {
            write(item, Some(v), out);
        }
    }
    if node.requires_align() || array.requires_align() {
        align(out);
    }
}

fn write_struct(node: &TypeTreeNode, value: Option<&Value>, out: &mut Vec<u8>) {
    // A `[first, second]` array stands for a map entry (`pair`).
    let pair;
    let value = match value {
        Some(Value::Array(kv)) if node.m_Type == "pair" && kv.len() == 2 => {
            pair = serde_json::json!({ "first": kv[0], "second": kv[1] });
            Some(&pair)
        }
        other => other,
    };
    for child in &node.children {
        let field = value.and_then(|v| v.get(&child.m_Name));
        write(child, field, out);
    }
}
