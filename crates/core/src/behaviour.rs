//! MonoBehaviours (class 114) and their MonoScripts (class 115), reduced to what names a
//! clip's script curves: the script a behaviour runs and the animatable fields its type tree
//! lists.
//!
//! A built clip binds a script field by the CRC-32 of its name (`speed`, `offset.x`); the
//! names live only in the behaviour's type tree, after the fields every MonoBehaviour has.
//! Bundles keep those trees; player `.assets` files usually strip them, and then the fields
//! cannot be known without the game's assemblies (the list is empty).

use std::collections::HashMap;
use std::sync::Arc;

use rabex::typetree::TypeTreeNode;
use serde::Deserialize;

use crate::serialized::{ObjectInfo, SerializedError, SerializedFile};
use crate::unity::{PPtr, class};

/// The fields every MonoBehaviour's tree starts with, player and editor layouts of all
/// versions; the script's own fields follow them.
pub const BASE_FIELDS: [&str; 12] = [
    "m_ObjectHideFlags",
    "m_PrefabParentObject",
    "m_PrefabInternal",
    "m_CorrespondingSourceObject",
    "m_PrefabInstance",
    "m_PrefabAsset",
    "m_GameObject",
    "m_Enabled",
    "m_EditorHideFlags",
    "m_Script",
    "m_Name",
    "m_EditorClassIdentifier",
];

/// Deepest struct nesting followed when listing fields.
const MAX_DEPTH: usize = 16;
/// Most fields listed for one script (real scripts have tens).
const MAX_FIELDS: usize = 4096;

/// What clipscope keeps of a MonoBehaviour.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BehaviourData {
    /// `m_Name` (usually empty: a component's name is its GameObject's).
    pub name: String,
    /// `m_Script`: the MonoScript it runs.
    pub script: PPtr,
    /// The animatable fields of its script, as clips name them: numbers, booleans and object
    /// references by name, struct members as `outer.inner`; strings and arrays are not
    /// animatable and are left out. Shared by every behaviour of the same type.
    pub fields: Arc<Vec<String>>,
}

/// What clipscope keeps of a MonoScript.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
#[allow(non_snake_case)]
pub struct ScriptData {
    pub m_ClassName: String,
    pub m_Namespace: String,
    pub m_AssemblyName: String,
}

impl ScriptData {
    /// `Namespace.ClassName`, or the class name alone.
    pub fn full_name(&self) -> String {
        if self.m_Namespace.is_empty() {
            self.m_ClassName.clone()
        } else {
            format!("{}.{}", self.m_Namespace, self.m_ClassName)
        }
    }
}

/// The base fields a behaviour is read through.
#[derive(Deserialize, Default)]
#[serde(default)]
#[allow(non_snake_case)]
struct Head {
    m_Script: PPtr,
    m_Name: String,
}

/// One type's head tree (its leading base fields) and field list.
struct TypeFields {
    head: TypeTreeNode,
    fields: Arc<Vec<String>>,
}

/// Every MonoBehaviour of `file` that can be read, by object, with the reasons for those
/// that cannot. Each type's tree is walked once.
pub fn read_all(file: &SerializedFile) -> Vec<(i64, Result<BehaviourData, String>)> {
    let mut types: HashMap<i32, Result<TypeFields, String>> = HashMap::new();
    let mut out = Vec::new();
    for info in file
        .objects
        .iter()
        .filter(|o| o.class_id == class::MONO_BEHAVIOUR)
    {
        let of_type = types.entry(info.type_id).or_insert_with(|| {
            let tree = file.type_tree(info).map_err(|e| e.to_string())?;
            Ok(TypeFields {
                head: base_head(&tree),
                fields: Arc::new(field_paths(&tree)),
            })
        });
        let read = match of_type {
            Ok(t) => read_with(file, info, t),
            Err(e) => Err(e.clone()),
        };
        out.push((info.path_id, read));
    }
    out
}

fn read_with(
    file: &SerializedFile,
    info: &ObjectInfo,
    of_type: &TypeFields,
) -> Result<BehaviourData, String> {
    let head: Head = file
        .read_with_tree(info, &of_type.head)
        .map_err(|e| e.to_string())?;
    Ok(BehaviourData {
        name: head.m_Name,
        script: head.m_Script,
        fields: of_type.fields.clone(),
    })
}

/// One MonoScript.
pub fn read_script(
    file: &SerializedFile,
    info: &ObjectInfo,
) -> Result<ScriptData, SerializedError> {
    file.read(info)
}

/// The tree cut after its leading base fields: the head every behaviour is read through, so
/// that script fields (managed references, odd layouts) never stop the read.
fn base_head(tree: &TypeTreeNode) -> TypeTreeNode {
    let base = tree
        .children
        .iter()
        .take_while(|c| BASE_FIELDS.contains(&c.m_Name.as_str()))
        .count();
    let mut head = tree.clone();
    head.children.truncate(base);
    head
}

/// The animatable fields a MonoBehaviour's tree lists after its base fields.
pub fn field_paths(tree: &TypeTreeNode) -> Vec<String> {
    let mut out = Vec::new();
    for child in tree
        .children
        .iter()
        .skip_while(|c| BASE_FIELDS.contains(&c.m_Name.as_str()))
    {
        collect(child, &child.m_Name, 0, &mut out);
    }
    out
}

fn collect(node: &TypeTreeNode, path: &str, depth: usize, out: &mut Vec<String>) {
    if out.len() >= MAX_FIELDS || depth > MAX_DEPTH || path.is_empty() {
        return;
    }
    let ty = node.m_Type.as_str();
    let is_array = ty == "string"
        || ty == "vector"
        || ty == "staticvector"
        || node.children.iter().any(|c| c.m_Type == "Array");
    if is_array {
        return;
    }
    if node.children.is_empty() || ty.starts_with("PPtr<") {
        out.push(path.to_string());
        return;
    }
    for child in &node.children {
        collect(child, &format!("{path}.{}", child.m_Name), depth + 1, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(ty: &str, name: &str, children: Vec<TypeTreeNode>) -> TypeTreeNode {
        TypeTreeNode {
            m_Type: ty.into(),
            m_Name: name.into(),
            m_Version: 1,
            m_TypeFlags: 0,
            m_ByteSize: -1,
            m_MetaFlag: Some(0),
            m_RefTypeHash: None,
            m_VariableCount: None,
            children,
        }
    }

    fn leaf(ty: &str, name: &str) -> TypeTreeNode {
        node(ty, name, Vec::new())
    }

    fn pptr(ty: &str, name: &str) -> TypeTreeNode {
        node(
            ty,
            name,
            vec![leaf("int", "m_FileID"), leaf("SInt64", "m_PathID")],
        )
    }

    fn behaviour(script_fields: Vec<TypeTreeNode>) -> TypeTreeNode {
        let mut children = vec![
            leaf("unsigned int", "m_ObjectHideFlags"),
            pptr("PPtr<EditorExtension>", "m_CorrespondingSourceObject"),
            pptr("PPtr<GameObject>", "m_GameObject"),
            leaf("UInt8", "m_Enabled"),
            pptr("PPtr<MonoScript>", "m_Script"),
            node("string", "m_Name", vec![node("Array", "Array", vec![])]),
            node(
                "string",
                "m_EditorClassIdentifier",
                vec![node("Array", "Array", vec![])],
            ),
        ];
        children.extend(script_fields);
        node("MonoBehaviour", "Base", children)
    }

    #[test]
    fn script_fields_follow_the_base_fields_and_structs_are_dotted() {
        let xyz = || vec![leaf("float", "x"), leaf("float", "y"), leaf("float", "z")];
        let tree = behaviour(vec![
            leaf("float", "speed"),
            leaf("bool", "armed"),
            node("Vector3f", "offset", xyz()),
            pptr("PPtr<Transform>", "target"),
            node("string", "label", vec![node("Array", "Array", vec![])]),
            node(
                "vector",
                "weights",
                vec![node(
                    "Array",
                    "Array",
                    vec![leaf("int", "size"), leaf("float", "data")],
                )],
            ),
            node("Tuning", "tuning", vec![node("Vector3f", "axis", xyz())]),
        ]);
        assert_eq!(
            field_paths(&tree),
            [
                "speed",
                "armed",
                "offset.x",
                "offset.y",
                "offset.z",
                "target",
                "tuning.axis.x",
                "tuning.axis.y",
                "tuning.axis.z",
            ]
        );
        let head = base_head(&tree);
        assert_eq!(head.children.len(), 7);
        assert_eq!(
            head.children.last().unwrap().m_Name,
            "m_EditorClassIdentifier"
        );
    }

    #[test]
    fn a_tree_without_script_fields_lists_none_and_nesting_is_bounded() {
        assert!(field_paths(&behaviour(Vec::new())).is_empty());
        let mut deep = leaf("float", "v");
        for i in 0..40 {
            deep = node("S", &format!("s{i}"), vec![deep]);
        }
        assert!(field_paths(&behaviour(vec![deep])).is_empty());
    }

    #[test]
    fn full_name_joins_the_namespace() {
        let script = ScriptData {
            m_ClassName: "Mover".into(),
            m_Namespace: "Game".into(),
            m_AssemblyName: "Assembly-CSharp.dll".into(),
        };
        assert_eq!(script.full_name(), "Game.Mover");
        let bare = ScriptData {
            m_Namespace: String::new(),
            ..script
        };
        assert_eq!(bare.full_name(), "Mover");
    }
}
