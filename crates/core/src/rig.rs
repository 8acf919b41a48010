//! Rigs: the Transform hierarchy under an Animator or Animation component, with each joint's
//! path below that component's GameObject, its path hash and its rest pose.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::hash::path_hash;
use crate::unity::PPtr;
use crate::unity::rig::{GameObject, Transform};

/// One joint of a rig.
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    pub name: String,
    /// Path below the rig's root GameObject ("" for the root itself).
    pub path: String,
    /// CRC-32 of `path`: what clip bindings name this joint by.
    pub path_hash: u32,
    pub parent: Option<usize>,
    /// Rest pose in Unity's coordinates.
    pub position: [f32; 3],
    pub rotation: [f32; 4],
    pub scale: [f32; 3],
    /// Path id of the joint's Transform in its file.
    pub transform_id: i64,
}

/// The component that animates a rig.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RigComponent {
    Animator,
    Animation,
}

/// The hierarchy and rest pose of one animated object.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Skeleton {
    /// Joints in depth-first order; joint 0 is the root.
    pub joints: Vec<Joint>,
}

impl Skeleton {
    /// How outputs (`pose`, `animate --rig`, `export`'s nodes and report) name joint `j`'s
    /// path: its path, or `#xxxxxxxx` (its path hash) for a stand-in joint whose path is
    /// unknown (a joint other than the root with an empty path).
    pub fn path_label(&self, j: usize) -> String {
        match self.joints.get(j) {
            Some(joint) if j > 0 && joint.path.is_empty() => format!("#{:08x}", joint.path_hash),
            Some(joint) => joint.path.clone(),
            None => String::new(),
        }
    }

    /// The joint a path hash names.
    pub fn joint_by_hash(&self, hash: u32) -> Option<usize> {
        self.joints.iter().position(|j| j.path_hash == hash)
    }

    /// Builds a skeleton from `m_TOS`-style paths (hash → path) when no Transforms exist.
    pub fn from_paths<'a>(paths: impl IntoIterator<Item = &'a str>) -> Skeleton {
        let mut sorted: Vec<&str> = paths.into_iter().filter(|p| !p.is_empty()).collect();
        sorted.sort_unstable();
        sorted.dedup();
        let mut joints = vec![rest_joint("", String::new(), None)];
        let mut index: HashMap<String, usize> = HashMap::new();
        for path in sorted {
            let mut prefix = String::new();
            let mut parent = 0;
            for part in path.split('/') {
                if !prefix.is_empty() {
                    prefix.push('/');
                }
                prefix.push_str(part);
                parent = *index.entry(prefix.clone()).or_insert_with(|| {
                    joints.push(rest_joint(part, prefix.clone(), Some(parent)));
                    joints.len() - 1
                });
            }
        }
        Skeleton { joints }
    }
}

impl Skeleton {
    /// A flat stand-in when neither Transforms nor an Avatar are at hand: the root plus one
    /// joint per path hash, named by `names` where known, else by the hash.
    pub fn placeholder(
        hashes: impl IntoIterator<Item = u32>,
        names: &BTreeMap<u32, String>,
    ) -> Skeleton {
        let mut joints = vec![rest_joint("", String::new(), None)];
        let mut seen: HashSet<u32> = HashSet::from([0]);
        for hash in hashes {
            if !seen.insert(hash) {
                continue;
            }
            let path = names.get(&hash).cloned().unwrap_or_default();
            let name = match path.rsplit('/').next() {
                Some(n) if !n.is_empty() => n.to_string(),
                _ => format!("#{hash:08x}"),
            };
            let mut joint = rest_joint(&name, path, Some(0));
            joint.path_hash = hash;
            joints.push(joint);
        }
        Skeleton { joints }
    }
}

fn rest_joint(name: &str, path: String, parent: Option<usize>) -> Joint {
    Joint {
        name: name.to_string(),
        path_hash: path_hash(&path),
        path,
        parent,
        position: [0.0; 3],
        rotation: [0.0, 0.0, 0.0, 1.0],
        scale: [1.0; 3],
        transform_id: 0,
    }
}

/// The Transforms and GameObjects of one file, read once (the workspace reads them from a
/// serialized file: `Hierarchy::read`).
pub struct Hierarchy {
    pub transforms: HashMap<i64, Transform>,
    pub game_objects: HashMap<i64, GameObject>,
}

/// Deepest hierarchy walked; deeper (or cyclic) data is cut off.
const MAX_DEPTH: usize = 256;

impl Hierarchy {
    /// The Transform of a GameObject.
    pub fn transform_of(&self, game_object: i64) -> Option<i64> {
        let go = self.game_objects.get(&game_object)?;
        go.m_Component
            .iter()
            .map(|c| c.pptr())
            .filter(|p| p.file_id() == 0)
            .map(|p| p.path_id())
            .find(|id| self.transforms.contains_key(id))
    }

    /// The name of a Transform's GameObject.
    pub fn name_of(&self, transform: i64) -> String {
        self.transforms
            .get(&transform)
            .and_then(|t| self.game_objects.get(&t.m_GameObject.path_id()))
            .map(|g| g.m_Name.clone())
            .unwrap_or_default()
    }

    /// The skeleton rooted at the GameObject `root` (the component's GameObject).
    pub fn skeleton(&self, root: PPtr) -> Option<Skeleton> {
        let root_transform = self.transform_of(root.path_id())?;
        let mut joints = Vec::new();
        let mut seen = HashSet::new();
        self.walk(
            root_transform,
            String::new(),
            None,
            0,
            &mut joints,
            &mut seen,
        );
        Some(Skeleton { joints })
    }

    fn walk(
        &self,
        id: i64,
        path: String,
        parent: Option<usize>,
        depth: usize,
        joints: &mut Vec<Joint>,
        seen: &mut HashSet<i64>,
    ) {
        let Some(t) = self.transforms.get(&id) else {
            return;
        };
        if depth > MAX_DEPTH || !seen.insert(id) {
            return;
        }
        let index = joints.len();
        joints.push(Joint {
            name: self.name_of(id),
            path_hash: path_hash(&path),
            path: path.clone(),
            parent,
            position: t.m_LocalPosition.to_array(),
            rotation: t.m_LocalRotation.to_array(),
            scale: t.m_LocalScale.to_array(),
            transform_id: id,
        });
        for child in &t.m_Children {
            let name = self.name_of(child.path_id());
            let child_path = if path.is_empty() {
                name
            } else {
                format!("{path}/{name}")
            };
            self.walk(
                child.path_id(),
                child_path,
                Some(index),
                depth + 1,
                joints,
                seen,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skeleton_from_paths_builds_every_ancestor() {
        let s = Skeleton::from_paths(["Hips/Spine/Chest", "Hips", "Hips/LeftLeg", ""]);
        let names: Vec<&str> = s.joints.iter().map(|j| j.path.as_str()).collect();
        assert_eq!(
            names,
            ["", "Hips", "Hips/LeftLeg", "Hips/Spine", "Hips/Spine/Chest"]
        );
        let chest = s.joint_by_hash(path_hash("Hips/Spine/Chest")).unwrap();
        assert_eq!(s.joints[chest].parent, Some(3));
        assert_eq!(s.joints[chest].name, "Chest");
    }
}
