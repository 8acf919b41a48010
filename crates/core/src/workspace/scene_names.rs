//! What a workspace that does not keep the scene's objects keeps of them
//! ([`OpenOptions::scene_as_names`](super::OpenOptions::scene_as_names)): the names a built
//! clip's property hashes are looked up by.

use std::collections::HashSet;

use crate::material::PropertyNames;

/// The meshes' blend shape names, the materials' animated shader properties and the
/// MonoBehaviours' fields, each once, in the order the files were read: what
/// [`NameBook`](crate::yaml_write::names::NameBook) takes of a scene, without the meshes,
/// materials and behaviours themselves (a whole game holds tens of thousands of them, and
/// a few hundred names).
#[derive(Debug, Default)]
pub struct SceneNames {
    /// Each blend shape channel's name hash and name
    /// ([`MeshEntry::shape_names`](super::MeshEntry::shape_names)), each pair once.
    pub blend_shapes: Vec<(u32, String)>,
    /// The materials' animatable properties ([`PropertyNames::animated`]), each once.
    pub material_properties: Vec<String>,
    /// The behaviours' animatable fields
    /// ([`BehaviourData::fields`](crate::behaviour::BehaviourData::fields)), each once.
    pub behaviour_fields: Vec<String>,
    seen_shapes: HashSet<(u32, String)>,
    seen_properties: HashSet<String>,
    seen_fields: HashSet<String>,
}

impl SceneNames {
    /// Takes a mesh's blend shape names.
    pub(super) fn add_shapes(&mut self, shapes: &[(u32, String)]) {
        for shape in shapes {
            if !self.seen_shapes.contains(shape) {
                self.seen_shapes.insert(shape.clone());
                self.blend_shapes.push(shape.clone());
            }
        }
    }

    /// Takes a material's animatable properties.
    pub(super) fn add_properties(&mut self, properties: &PropertyNames) {
        for name in properties.animated() {
            if self.seen_properties.insert(name.clone()) {
                self.material_properties.push(name);
            }
        }
    }

    /// Takes a behaviour's fields.
    pub(super) fn add_fields(&mut self, fields: &[String]) {
        for name in fields {
            if !self.seen_fields.contains(name) {
                self.seen_fields.insert(name.clone());
                self.behaviour_fields.push(name.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each name is kept once, in the order first met; a blend shape is its hash and its
    /// name together (two names with one hash are both kept).
    #[test]
    fn names_are_kept_once_in_the_order_first_met() {
        let mut names = SceneNames::default();
        names.add_shapes(&[(1, "Blink".into()), (2, "Smile".into())]);
        names.add_shapes(&[(2, "Smile".into()), (1, "Other".into())]);
        assert_eq!(
            names.blend_shapes,
            [
                (1, "Blink".into()),
                (2, "Smile".into()),
                (1, "Other".into())
            ]
        );
        let properties = PropertyNames {
            floats: vec!["_Cutoff".into()],
            ..Default::default()
        };
        names.add_properties(&properties);
        names.add_properties(&properties);
        assert_eq!(names.material_properties, ["material._Cutoff"]);
        names.add_fields(&["speed".into(), "target".into()]);
        names.add_fields(&["target".into(), "speed".into(), "hp".into()]);
        assert_eq!(names.behaviour_fields, ["speed", "target", "hp"]);
    }
}
