//! Objects described as JSON values, written against a release type tree field by field: how
//! the classes with many fields (Mesh, MeshRenderer, Material) are put down, where a serde
//! mirror of every field would add nothing.
//!
//! Values: numbers and booleans for primitives, strings for strings, arrays for vectors and
//! `TypelessData` (bytes as numbers, or a `"hex:…"` string), `[key, value]` arrays for map
//! entries, objects for structs (fields matched by name). Every field the value leaves out is
//! written as zero, empty or false; fields the tree lacks are ignored.

use rabex::typetree::TypeTreeNode;
use serde_json::Value;

/// The bytes (little-endian) of one object: `value` written against `tree`.
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
        Some(Value::Bool(b)) => f64::from(u8::from(*b)),
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
        Some(Value::Bool(b)) => i128::from(*b),
        _ => 0,
    }
}

/// Bytes from an array of numbers or a `"hex:…"` string (odd or bad digits are dropped).
fn bytes_of(value: Option<&Value>) -> Vec<u8> {
    match value {
        Some(Value::Array(items)) => items.iter().map(|v| integer(Some(v)) as u8).collect(),
        Some(Value::String(s)) => {
            let hex = s.strip_prefix("hex:").unwrap_or("");
            (0..hex.len() / 2)
                .filter_map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok())
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
    let Some(item) = array.children.get(1) else {
        out.extend(0u32.to_le_bytes());
        return;
    };
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
