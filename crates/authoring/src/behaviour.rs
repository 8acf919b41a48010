//! Turns [`BehaviourSpec`]s into a MonoScript and a MonoBehaviour each: the behaviour's type
//! tree is the release MonoBehaviour tree followed by one node per script field, laid out as
//! Unity's serializer lays them out (strings and references copied from the base fields' own
//! nodes, bools aligned after), and its values for [`super::tree`].

use rabex::objects::pptr::PathId;
use rabex::typetree::TypeTreeNode;
use serde_json::{Map, Value, json};

use super::spec::{BehaviourSpec, FieldSpec};

/// The assembly a fixture's scripts are compiled into.
const ASSEMBLY: &str = "Assembly-CSharp.dll";
/// `kAlignBytes`: the stream is aligned to 4 bytes after the field.
const ALIGN: i32 = 0x4000;

/// The MonoScript's values.
pub(crate) fn script_value(spec: &BehaviourSpec) -> Value {
    json!({
        "m_Name": spec.class,
        "m_ExecutionOrder": 0,
        "m_ClassName": spec.class,
        "m_Namespace": spec.namespace,
        "m_AssemblyName": ASSEMBLY,
    })
}

/// The MonoBehaviour's values: the base fields, then the script's.
pub(crate) fn behaviour_value(
    spec: &BehaviourSpec,
    game_object: Option<PathId>,
    script: PathId,
) -> Value {
    let mut out = Map::new();
    out.insert("m_GameObject".into(), pptr(game_object.unwrap_or(0)));
    out.insert("m_Enabled".into(), json!(1));
    out.insert("m_Script".into(), pptr(script));
    out.insert("m_Name".into(), json!(""));
    for field in &spec.fields {
        let (name, value) = field_value(field);
        out.insert(name.into(), value);
    }
    Value::Object(out)
}

/// `base` (the release MonoBehaviour tree) with the script's fields appended.
pub(crate) fn behaviour_tree(base: &TypeTreeNode, spec: &BehaviourSpec) -> TypeTreeNode {
    let like = |name: &str| base.children.iter().find(|c| c.m_Name == name).cloned();
    let string = like("m_Name").unwrap_or_else(|| leaf("string", "m_Name", -1, 0));
    let pptr = like("m_Script").unwrap_or_else(|| leaf("PPtr<MonoScript>", "m_Script", 12, 0));
    let mut tree = base.clone();
    tree.children
        .extend(spec.fields.iter().map(|f| field_node(f, &string, &pptr)));
    tree
}

fn pptr(path_id: PathId) -> Value {
    json!({"m_FileID": 0, "m_PathID": path_id})
}

fn field_value(field: &FieldSpec) -> (&str, Value) {
    match field {
        FieldSpec::Float(name, v) => (name, json!(v)),
        FieldSpec::Int(name, v) => (name, json!(v)),
        FieldSpec::Bool(name, v) => (name, json!(u8::from(*v))),
        FieldSpec::Vector3(name, [x, y, z]) => (name, json!({"x": x, "y": y, "z": z})),
        FieldSpec::Color(name, [r, g, b, a]) => (name, json!({"r": r, "g": g, "b": b, "a": a})),
        FieldSpec::Text(name, v) => (name, json!(v)),
        FieldSpec::FloatList(name, v) => (name, json!(v)),
        FieldSpec::Object(name, _, path_id) => (name, pptr(*path_id)),
        FieldSpec::Struct(_, name, fields) => {
            let members: Map<String, Value> = fields
                .iter()
                .map(|f| {
                    let (n, v) = field_value(f);
                    (n.to_string(), v)
                })
                .collect();
            (name, Value::Object(members))
        }
    }
}

fn leaf(ty: &str, name: &str, size: i32, flags: i32) -> TypeTreeNode {
    TypeTreeNode {
        m_Type: ty.into(),
        m_Name: name.into(),
        m_Version: 1,
        m_TypeFlags: 0,
        m_ByteSize: size,
        m_MetaFlag: Some(flags),
        m_RefTypeHash: None,
        m_VariableCount: None,
        children: Vec::new(),
    }
}

fn composite(ty: &str, name: &str, members: &[&str], ty_member: &str) -> TypeTreeNode {
    TypeTreeNode {
        m_ByteSize: 4 * members.len() as i32,
        children: members.iter().map(|m| leaf(ty_member, m, 4, 0)).collect(),
        ..leaf(ty, name, 0, 0)
    }
}

fn renamed(node: &TypeTreeNode, ty: Option<&str>, name: &str) -> TypeTreeNode {
    TypeTreeNode {
        m_Type: ty.map_or_else(|| node.m_Type.clone(), str::to_string),
        m_Name: name.into(),
        ..node.clone()
    }
}

/// The node Unity's serializer gives one field.
fn field_node(field: &FieldSpec, string: &TypeTreeNode, pptr: &TypeTreeNode) -> TypeTreeNode {
    match field {
        FieldSpec::Float(name, _) => leaf("float", name, 4, 0),
        FieldSpec::Int(name, _) => leaf("int", name, 4, 0),
        FieldSpec::Bool(name, _) => leaf("bool", name, 1, ALIGN),
        FieldSpec::Vector3(name, _) => composite("Vector3f", name, &["x", "y", "z"], "float"),
        FieldSpec::Color(name, _) => composite("ColorRGBA", name, &["r", "g", "b", "a"], "float"),
        FieldSpec::Text(name, _) => renamed(string, None, name),
        FieldSpec::FloatList(name, _) => {
            let array = TypeTreeNode {
                m_TypeFlags: 1,
                children: vec![leaf("int", "size", 4, 0), leaf("float", "data", 4, 0)],
                ..leaf("Array", "Array", -1, ALIGN)
            };
            TypeTreeNode {
                children: vec![array],
                ..leaf("vector", name, -1, ALIGN)
            }
        }
        FieldSpec::Object(name, ty, _) => renamed(pptr, Some(&format!("PPtr<{ty}>")), name),
        FieldSpec::Struct(ty, name, fields) => TypeTreeNode {
            children: fields.iter().map(|f| field_node(f, string, pptr)).collect(),
            ..leaf(ty, name, -1, 0)
        },
    }
}
