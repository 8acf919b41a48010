//! The rig's joints as glTF nodes: named by their GameObject, made unique among siblings
//! (loaders bind channels by name path), with the Unity path and its hash in `extras`.
//! Transforms are the rest pose, mirrored.

use std::collections::HashSet;

use gltf_json as json;
use serde_json::json;

use super::document::{Document, extras};
use super::space;
use crate::rig::Skeleton;

/// A joint's node name: its GameObject name, or `#xxxxxxxx` (its path hash) for a stand-in
/// joint whose path is unknown.
fn base_name(skeleton: &Skeleton, j: usize) -> String {
    let joint = &skeleton.joints[j];
    if j > 0 && joint.path.is_empty() {
        format!("#{:08x}", joint.path_hash)
    } else if joint.name.is_empty() && j > 0 {
        "(unnamed)".into()
    } else {
        joint.name.clone()
    }
}

/// Node names for every joint, unique among siblings: `name`, `name (2)`, ...
pub fn unique_names(skeleton: &Skeleton) -> Vec<String> {
    let mut taken: HashSet<(Option<usize>, String)> = HashSet::new();
    (0..skeleton.joints.len())
        .map(|j| {
            let parent = skeleton.joints[j].parent;
            let base = base_name(skeleton, j);
            let mut name = base.clone();
            let mut n = 2;
            while !taken.insert((parent, name.clone())) {
                name = format!("{base} ({n})");
                n += 1;
            }
            name
        })
        .collect()
}

/// Adds one node per joint (joint `j` is node `j`) with its children, and the scene whose
/// root is joint 0.
pub fn add_joints(doc: &mut Document, skeleton: &Skeleton) {
    let names = unique_names(skeleton);
    let mut children: Vec<Vec<json::Index<json::Node>>> = vec![Vec::new(); skeleton.joints.len()];
    for (j, joint) in skeleton.joints.iter().enumerate() {
        // A parent that does not come before its child is treated as the root (as `pose`
        // does), which also keeps the tree acyclic.
        if j > 0 {
            let parent = joint.parent.filter(|&p| p < j).unwrap_or(0);
            children[parent].push(json::Index::new(j as u32));
        }
    }
    for (j, (joint, kids)) in skeleton.joints.iter().zip(children).enumerate() {
        let info = if j > 0 && joint.path.is_empty() {
            json!({ "unity_path_hash": joint.path_hash })
        } else {
            json!({ "unity_path": joint.path, "unity_path_hash": joint.path_hash })
        };
        doc.root.push(json::Node {
            camera: None,
            children: (!kids.is_empty()).then_some(kids),
            extensions: None,
            extras: extras(&info),
            matrix: None,
            mesh: None,
            name: Some(names[j].clone()),
            rotation: Some(json::scene::UnitQuaternion(unit(space::rotation(
                joint.rotation,
            )))),
            scale: Some(finite3(joint.scale, 1.0)),
            translation: Some(finite3(space::point(joint.position), 0.0)),
            skin: None,
            weights: None,
        });
    }
    let scene = doc.root.push(json::Scene {
        extensions: None,
        extras: None,
        name: skeleton.joints.first().map(|j| j.name.clone()),
        nodes: if skeleton.joints.is_empty() {
            Vec::new()
        } else {
            vec![json::Index::new(0)]
        },
    });
    doc.root.scene = Some(scene);
}

/// A unit quaternion (the identity for a degenerate one).
pub fn unit(q: [f32; 4]) -> [f32; 4] {
    let len = q.iter().map(|c| c * c).sum::<f32>().sqrt();
    if len > 0.0 && len.is_finite() {
        q.map(|c| c / len)
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

fn finite3(v: [f32; 3], fallback: f32) -> [f32; 3] {
    v.map(|c| if c.is_finite() { c } else { fallback })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn siblings_with_one_name_get_numbers_and_cousins_keep_theirs() {
        let s = Skeleton::from_paths(["A/x", "B/x"]);
        let mut s2 = s.clone();
        // Make both `x` children of `A`.
        let bx = s2.joints.iter().position(|j| j.path == "B/x").unwrap();
        s2.joints[bx].parent = Some(1);
        assert_eq!(unique_names(&s)[1..], ["A", "x", "B", "x"]);
        assert_eq!(unique_names(&s2)[1..], ["A", "x", "B", "x (2)"]);
    }
}
