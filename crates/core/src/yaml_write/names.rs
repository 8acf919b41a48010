//! Names for what built clips store as hashes: paths through every rig's hierarchy and every
//! Avatar's name table, properties through the meshes' blend shapes, the controllers'
//! parameters, the materials' shader properties, the MonoBehaviours' fields (their type
//! trees) and a table of Unity's own animatable properties; humanoid curves by the names text
//! clips give them.

use std::collections::HashMap;

use crate::clip::{BindingKind, GenericBinding};
use crate::hash::attribute_hash;
use crate::workspace::Workspace;

/// Unity's own animatable properties, as text clips name them; their CRC-32 is what a built
/// binding stores (checked against the shared files in the tests).
pub const UNITY_PROPERTIES: &[&str] = &[
    "m_IsActive",
    "m_Enabled",
    "m_LocalPosition.x",
    "m_LocalPosition.y",
    "m_LocalPosition.z",
    "m_LocalScale.x",
    "m_LocalScale.y",
    "m_LocalScale.z",
    "m_Color.r",
    "m_Color.g",
    "m_Color.b",
    "m_Color.a",
    "m_FlipX",
    "m_FlipY",
    "m_Sprite",
    "m_SortingOrder",
    "m_Intensity",
    "m_Range",
    "m_SpotAngle",
    "m_BounceIntensity",
    "m_ShadowStrength",
    "m_Volume",
    "m_Pitch",
    "m_Mute",
    "m_Weight",
    "m_Alpha",
    "m_Interactable",
    "m_BlocksRaycasts",
    "m_AnchoredPosition.x",
    "m_AnchoredPosition.y",
    "m_SizeDelta.x",
    "m_SizeDelta.y",
    "m_AnchorMin.x",
    "m_AnchorMin.y",
    "m_AnchorMax.x",
    "m_AnchorMax.y",
    "m_Pivot.x",
    "m_Pivot.y",
    "m_LocalEulerAnglesHint.x",
    "m_LocalEulerAnglesHint.y",
    "m_LocalEulerAnglesHint.z",
    "m_FillAmount",
    "m_FontSize",
    "m_fontSize",
    "m_Size.x",
    "m_Size.y",
    "m_Size",
    "field of view",
    "m_FieldOfView",
    "orthographic size",
    "m_BackGroundColor.r",
    "m_BackGroundColor.g",
    "m_BackGroundColor.b",
    "m_BackGroundColor.a",
    "material._Color.r",
    "material._Color.g",
    "material._Color.b",
    "material._Color.a",
    "material._BaseColor.r",
    "material._BaseColor.g",
    "material._BaseColor.b",
    "material._BaseColor.a",
    "material._EmissionColor.r",
    "material._EmissionColor.g",
    "material._EmissionColor.b",
    "material._EmissionColor.a",
    "material._MainTex_ST.x",
    "material._MainTex_ST.y",
    "material._MainTex_ST.z",
    "material._MainTex_ST.w",
    "material._Cutoff",
    "material._Glossiness",
    "material._Metallic",
    "material._Smoothness",
    "InitialModule.startColor.maxColor.r",
    "EmissionModule.rateOverTime.scalar",
];

/// Hash-to-name tables gathered from a workspace once.
#[derive(Debug, Default, PartialEq)]
pub struct NameBook {
    paths: HashMap<u32, String>,
    attributes: HashMap<u32, String>,
}

impl NameBook {
    /// Every name the workspace knows: rig hierarchies, Avatar name tables, blend shapes,
    /// controller parameters, the materials' shader properties, the MonoBehaviours' fields,
    /// Unity's properties.
    pub fn build(ws: &Workspace) -> NameBook {
        let mut book = NameBook::default();
        book.paths.insert(0, String::new());
        for rig in &ws.rigs {
            for joint in &rig.skeleton.joints {
                book.paths
                    .entry(joint.path_hash)
                    .or_insert_with(|| joint.path.clone());
            }
            for (hash, path) in rig.tos.iter() {
                book.paths.entry(*hash).or_insert_with(|| path.clone());
            }
        }
        for avatar in &ws.avatars {
            for (hash, path) in avatar.tos.iter() {
                book.paths.entry(*hash).or_insert_with(|| path.clone());
            }
        }
        for name in UNITY_PROPERTIES {
            book.attribute(name, name.to_string());
        }
        // A workspace keeps either the scene's objects or its names
        // ([`OpenOptions::scene_as_names`](crate::OpenOptions::scene_as_names)), each name
        // once in the order first met, which gives the same book.
        let shapes = ws.meshes.iter().flat_map(|m| &m.shape_names);
        for (hash, name) in shapes.chain(&ws.scene_names.blend_shapes) {
            let full = format!("blendShape.{name}");
            book.attributes.entry(*hash).or_insert_with(|| full.clone());
            book.attribute(&full, full.clone());
        }
        for material in &ws.materials {
            for name in material.data.properties.animated() {
                book.attribute(&name, name.clone());
            }
        }
        for name in &ws.scene_names.material_properties {
            book.attribute(name, name.clone());
        }
        let mut seen = std::collections::HashSet::new();
        for behaviour in &ws.behaviours {
            // Behaviours of one type share their field list.
            if seen.insert(std::sync::Arc::as_ptr(&behaviour.data.fields)) {
                for field in behaviour.data.fields.iter() {
                    book.attribute(field, field.clone());
                }
            }
        }
        for field in &ws.scene_names.behaviour_fields {
            book.attribute(field, field.clone());
        }
        for c in &ws.controllers {
            if let Ok(model) = &c.model {
                for p in &model.parameters {
                    book.attribute(&p.name, p.name.clone());
                }
            }
        }
        book
    }

    fn attribute(&mut self, hashed: &str, name: String) {
        self.attributes
            .entry(attribute_hash(hashed))
            .or_insert(name);
    }

    /// The path of a binding: its own text, else the name tables' entry.
    pub fn path(&self, binding: &GenericBinding) -> Option<String> {
        if let Some(p) = &binding.path_name {
            return Some(p.clone());
        }
        self.paths.get(&binding.path).cloned()
    }

    /// The property name a float or object binding is written with: humanoid curves by
    /// their text names, others by their own text or the tables.
    pub fn attribute_name(&self, binding: &GenericBinding) -> Option<String> {
        match binding.kind() {
            BindingKind::Muscle => binding.attribute_name.as_deref().map(yaml_muscle_name),
            BindingKind::BlendShape => {
                let own = binding.attribute_name.as_ref().map(|a| {
                    if a.starts_with("blendShape.") {
                        a.clone()
                    } else {
                        format!("blendShape.{a}")
                    }
                });
                own.or_else(|| self.attributes.get(&binding.attribute).cloned())
            }
            _ if binding.is_pptr && binding.type_id == 212 && binding.custom_type == 23 => {
                Some("m_Sprite".to_string())
            }
            _ => binding
                .attribute_name
                .clone()
                .or_else(|| self.attributes.get(&binding.attribute).cloned()),
        }
    }
}

/// A humanoid curve's name as text clips write it: finger muscles as
/// `LeftHand.Index.1 Stretched` (the table says `Left Index 1 Stretched`), the rest as in
/// the table.
pub fn yaml_muscle_name(table: &str) -> String {
    const FINGERS: [&str; 5] = ["Thumb", "Index", "Middle", "Ring", "Little"];
    for side in ["Left", "Right"] {
        let Some(rest) = table.strip_prefix(side).and_then(|r| r.strip_prefix(' ')) else {
            continue;
        };
        if let Some((finger, dof)) = rest.split_once(' ')
            && FINGERS.contains(&finger)
        {
            return format!("{side}Hand.{finger}.{dof}");
        }
    }
    table.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clip::muscles::{MUSCLE_SLOTS, muscle_index, muscle_name};

    #[test]
    fn every_humanoid_name_reads_back_to_its_index() {
        for i in 0..MUSCLE_SLOTS {
            let table = muscle_name(i, false).unwrap();
            assert_eq!(muscle_index(&yaml_muscle_name(&table)), Some(i), "{table}");
        }
        assert_eq!(
            yaml_muscle_name("Left Thumb 1 Stretched"),
            "LeftHand.Thumb.1 Stretched"
        );
        assert_eq!(yaml_muscle_name("Left Arm Down-Up"), "Left Arm Down-Up");
    }

    #[test]
    fn unity_property_hashes_match_known_values() {
        // Values from HQ_OFF.anim's binding and the format notes.
        assert_eq!(attribute_hash("m_Enabled"), 3_305_885_265);
        assert_eq!(attribute_hash("m_IsActive"), 0x7C5A_22F6);
    }
}
