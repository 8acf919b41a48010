//! Which renderers Unity draws at rest: the GameObject active in the hierarchy and the
//! renderer enabled.

use std::collections::HashMap;

use super::scene::{DraftKind, rig_renderers};
use crate::mesh::renderer::{MeshRendererData, Renderers};
use crate::rig::{Hierarchy, Skeleton};
use crate::unity::rig::{ComponentPair, GameObject, Transform};
use crate::unity::{Int, PPtr};

fn local(path_id: i64) -> PPtr {
    PPtr {
        m_FileID: Int(0),
        m_PathID: Int(path_id),
    }
}

/// A rig: the root, "Hitbox" (inactive, with a renderer), "Muzzle" (a disabled renderer),
/// "Helpers" (inactive) with "Helpers/Gizmo" (active, with a renderer), and "Body" (an
/// enabled renderer). GameObject `100 + i` holds Transform `i + 1` of joint `i`.
fn rig() -> (Hierarchy, Skeleton, Renderers) {
    let mut skeleton = Skeleton::from_paths(["Hitbox", "Muzzle", "Helpers/Gizmo", "Body"]);
    let paths: Vec<String> = skeleton.joints.iter().map(|j| j.path.clone()).collect();
    assert_eq!(
        paths,
        ["", "Body", "Helpers", "Helpers/Gizmo", "Hitbox", "Muzzle"]
    );
    let mut h = Hierarchy {
        transforms: HashMap::new(),
        game_objects: HashMap::new(),
    };
    for (i, joint) in skeleton.joints.iter_mut().enumerate() {
        joint.transform_id = i as i64 + 1;
        let go = 100 + i as i64;
        h.transforms.insert(
            joint.transform_id,
            Transform {
                m_GameObject: local(go),
                ..Default::default()
            },
        );
        let inactive = matches!(joint.path.as_str(), "Hitbox" | "Helpers");
        h.game_objects.insert(
            go,
            GameObject {
                m_Name: joint.name.clone(),
                m_IsActive: Some(Int(i64::from(!inactive))),
                m_Component: vec![ComponentPair {
                    component: local(joint.transform_id),
                    ..Default::default()
                }],
            },
        );
    }
    let renderer = |joint: i64, enabled: bool| MeshRendererData {
        path_id: 200 + joint,
        game_object: local(100 + joint),
        enabled,
        ..Default::default()
    };
    let renderers = Renderers {
        meshes: vec![
            renderer(4, true),
            renderer(5, false),
            renderer(3, true),
            renderer(1, true),
        ],
        ..Default::default()
    };
    (h, skeleton, renderers)
}

#[test]
fn only_enabled_renderers_active_in_the_hierarchy_are_drawn() {
    let (h, skeleton, renderers) = rig();
    let drafts = rig_renderers(&renderers, &h, &skeleton);
    let got: Vec<(&str, bool, bool, Vec<usize>)> = drafts
        .iter()
        .map(|d| {
            assert!(matches!(d.kind, DraftKind::Rigid));
            (
                skeleton.joints[d.joint].path.as_str(),
                d.enabled,
                d.active.0,
                d.active.1.clone(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            // Own flag off: not drawn, its own joint hidden.
            ("Hitbox", true, false, vec![4]),
            // Disabled renderer on an active GameObject.
            ("Muzzle", false, true, vec![]),
            // Active itself, under an inactive parent: the parent's joint hidden.
            ("Helpers/Gizmo", true, true, vec![2]),
            ("Body", true, true, vec![]),
        ]
    );
}

#[test]
fn a_game_object_without_the_flag_counts_as_active() {
    let (mut h, skeleton, renderers) = rig();
    for go in h.game_objects.values_mut() {
        go.m_IsActive = None;
    }
    let drafts = rig_renderers(&renderers, &h, &skeleton);
    assert!(drafts.iter().all(|d| d.active.0 && d.active.1.is_empty()));
}
