//! Rigs of a hierarchy file: the skeleton below each root GameObject and below each Animator
//! or Animation component's GameObject, with joint paths and path hashes as a clip's bindings
//! name them.

use std::collections::{HashMap, HashSet};

use super::controller::AssetLink;
use super::hierarchy::{ComponentNode, Scene, TransformNode};
use crate::hash::path_hash;
use crate::rig::{Joint, Skeleton};
use crate::unity::class;

/// Deepest hierarchy walked (as for binary files); deeper data is cut off and reported.
const MAX_DEPTH: usize = 256;

/// A hierarchy root, or an animated GameObject, with its skeleton.
#[derive(Clone, Debug, PartialEq)]
pub struct YamlRig {
    /// The root GameObject's name; empty when it is a stripped object of a nested prefab that
    /// this file does not rename.
    pub name: String,
    /// File id of the root GameObject, or of its Transform when the GameObject is not known.
    pub file_id: i64,
    /// File id of the root Transform (the joints' `transform_id` are file ids too).
    pub transform_id: i64,
    pub has_animator: bool,
    pub has_animation: bool,
    /// The Animator's controller, where it has one.
    pub controller: Option<AssetLink>,
    /// The Animator's Apply Root Motion (`m_ApplyRootMotion`).
    pub apply_root_motion: bool,
    /// The Animation component's clips (`m_Animation`, then `m_Animations`).
    pub clips: Vec<AssetLink>,
    /// Joint 0 is the root (path "", hash 0); paths are relative to it.
    pub skeleton: Skeleton,
    /// What this file cannot tell about the rig: joints from nested prefabs, names and rest
    /// poses that only the source prefab holds, references to missing objects.
    pub unresolved: Vec<String>,
}

/// Every rig of the file, in document order of their root Transforms, then the animated
/// GameObjects that are not roots.
pub(crate) fn rigs(scene: &Scene, warnings: &mut Vec<String>) -> Vec<YamlRig> {
    let mut rigs = Vec::new();
    let mut by_root: HashMap<i64, usize> = HashMap::new();
    for &id in &scene.order {
        if is_root(scene, id) {
            by_root.insert(id, rigs.len());
            rigs.push(new_rig(scene, id));
        }
    }
    for component in &scene.components {
        let Some(root) = scene.transform_of(component.game_object) else {
            warnings.push(format!(
                "{} &{} is on GameObject &{}, whose Transform is not in this file (an object of a nested prefab that cannot be paired with its Transform)",
                crate::unity::class_name(component.class_id),
                component.file_id,
                component.game_object
            ));
            continue;
        };
        let index = *by_root.entry(root).or_insert_with(|| {
            rigs.push(new_rig(scene, root));
            rigs.len() - 1
        });
        add_component(&mut rigs[index], component);
    }
    report_unreached(scene, &rigs, warnings);
    rigs
}

/// Reports the Transforms no rig reaches (cycles without a root, subtrees cut off), leaving
/// out stripped Transforms without children here: those only stand for references.
fn report_unreached(scene: &Scene, rigs: &[YamlRig], warnings: &mut Vec<String>) {
    let reached: HashSet<i64> = rigs
        .iter()
        .flat_map(|r| r.skeleton.joints.iter().map(|j| j.transform_id))
        .collect();
    let lost: Vec<String> = scene
        .order
        .iter()
        .filter(|id| !reached.contains(id))
        .filter(|&&id| scene.transforms[&id].source.is_none() || !scene.children_of(id).is_empty())
        .map(|id| format!("&{id}"))
        .collect();
    if !lost.is_empty() {
        let shown = lost.iter().take(10).cloned().collect::<Vec<_>>().join(", ");
        warnings.push(format!(
            "{} Transforms are in no rig (a cycle without a root, or cut off below one): {shown}{}",
            lost.len(),
            if lost.len() > 10 { ", …" } else { "" }
        ));
    }
}

/// A Transform with no father, or a stripped Transform that this file gives children to.
fn is_root(scene: &Scene, id: i64) -> bool {
    match scene.father_of(id) {
        Some(father) => !scene.transforms.contains_key(&father),
        None => {
            let stripped = scene.transforms[&id].source.is_some();
            !stripped || !scene.children_of(id).is_empty()
        }
    }
}

fn new_rig(scene: &Scene, root: i64) -> YamlRig {
    let mut unresolved = Vec::new();
    let father = scene.father_of(root);
    if let Some(father) = father.filter(|f| !scene.transforms.contains_key(f)) {
        unresolved.push(format!(
            "root Transform &{root} names father &{father}, which is not in this file"
        ));
    }
    let skeleton = skeleton(scene, root, &mut unresolved);
    YamlRig {
        name: scene.name_of(root).unwrap_or_default(),
        file_id: scene.game_object_of(root).unwrap_or(root),
        transform_id: root,
        has_animator: false,
        has_animation: false,
        controller: None,
        apply_root_motion: false,
        clips: Vec::new(),
        skeleton,
        unresolved,
    }
}

fn add_component(rig: &mut YamlRig, component: &ComponentNode) {
    match component.class_id {
        class::ANIMATOR => {
            rig.has_animator = true;
            rig.apply_root_motion |= component.apply_root_motion;
            if rig.controller.is_none() {
                rig.controller = AssetLink::from_ref(&component.controller);
            }
        }
        _ => {
            rig.has_animation = true;
            rig.clips
                .extend(component.clips.iter().filter_map(AssetLink::from_ref));
        }
    }
}

/// A Transform waiting to become a joint.
struct Pending {
    id: i64,
    name: String,
    path: String,
    parent: Option<usize>,
    depth: usize,
}

/// The joints below `root`, depth first in `m_Children` order, walked without recursion;
/// a Transform reached twice (a cycle) is reported and not walked again.
fn skeleton(scene: &Scene, root: i64, unresolved: &mut Vec<String>) -> Skeleton {
    let mut joints = Vec::new();
    let mut seen = HashSet::new();
    let mut stack = vec![Pending {
        id: root,
        name: scene.name_of(root).unwrap_or_default(),
        path: String::new(),
        parent: None,
        depth: 0,
    }];
    while let Some(p) = stack.pop() {
        if !seen.insert(p.id) {
            unresolved.push(format!(
                "Transform &{} is reached twice (a cycle); cut",
                p.id
            ));
            continue;
        }
        let Some(t) = scene.transforms.get(&p.id) else {
            continue;
        };
        let index = joints.len();
        joints.push(joint(scene, &p, t, unresolved));
        let children = scene.children_of(p.id);
        if p.depth >= MAX_DEPTH && !children.is_empty() {
            unresolved.push(format!(
                "Transform &{} is deeper than {MAX_DEPTH} levels; its children are cut",
                p.id
            ));
            continue;
        }
        for &child in children.iter().rev() {
            if let Some(next) = pending_child(scene, &p, index, child, unresolved) {
                stack.push(next);
            }
        }
    }
    Skeleton { joints }
}

/// The child of `p` as a pending joint, or `None` (reported) when it cannot be placed.
fn pending_child(
    scene: &Scene,
    p: &Pending,
    index: usize,
    child: i64,
    unresolved: &mut Vec<String>,
) -> Option<Pending> {
    if !scene.transforms.contains_key(&child) {
        unresolved.push(format!(
            "Transform &{} lists child &{child}, which is not in this file",
            p.id
        ));
        return None;
    }
    let Some(name) = scene.name_of(child) else {
        unresolved.push(format!(
            "Transform &{child} (below {:?}) comes from a nested prefab and its name is not in this file; it and its children are left out",
            p.path
        ));
        return None;
    };
    let path = if p.path.is_empty() {
        name.clone()
    } else {
        format!("{}/{name}", p.path)
    };
    Some(Pending {
        id: child,
        name,
        path,
        parent: Some(index),
        depth: p.depth + 1,
    })
}

fn joint(scene: &Scene, p: &Pending, t: &TransformNode, unresolved: &mut Vec<String>) -> Joint {
    let (position, rotation, scale) = match &t.source {
        None => (t.position, t.rotation, t.scale),
        Some(source) => {
            unresolved.push(format!(
                "Transform &{} at {:?} is {}: its children there are not in this file",
                p.id,
                p.path,
                source.describe()
            ));
            stripped_pose(scene, p.id, unresolved)
        }
    };
    Joint {
        name: p.name.clone(),
        path: p.path.clone(),
        path_hash: path_hash(&p.path),
        parent: p.parent,
        position,
        rotation,
        scale,
        transform_id: p.id,
    }
}

/// The rest pose of a stripped Transform from its prefab instance's modifications; what is
/// not modified here keeps the identity value and is reported.
fn stripped_pose(
    scene: &Scene,
    id: i64,
    unresolved: &mut Vec<String>,
) -> ([f32; 3], [f32; 4], [f32; 3]) {
    let Some(source) = scene.transforms.get(&id).and_then(|t| t.source.as_ref()) else {
        return ([0.0; 3], [0.0, 0.0, 0.0, 1.0], [1.0; 3]);
    };
    let mut missing = Vec::new();
    let mut read = |property: &str, axis: &str, default: f32| -> f32 {
        let name = format!("{property}.{axis}");
        match scene
            .modified(source, &name)
            .and_then(|v| v.trim().parse().ok())
        {
            Some(v) => v,
            None => {
                missing.push(name);
                default
            }
        }
    };
    let position = ["x", "y", "z"].map(|a| read("m_LocalPosition", a, 0.0));
    let rotation =
        ["x", "y", "z", "w"].map(|a| read("m_LocalRotation", a, (a == "w") as u8 as f32));
    let scale = ["x", "y", "z"].map(|a| read("m_LocalScale", a, 1.0));
    if !missing.is_empty() {
        unresolved.push(format!(
            "Transform &{id}: rest pose not in this file for {}; identity used",
            missing.join(", ")
        ));
    }
    (position, rotation, scale)
}
