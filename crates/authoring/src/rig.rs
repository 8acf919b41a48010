//! Turns a [`RigSpec`] into GameObjects, Transforms and the animation component.

use rabex::objects::PPtr;
use rabex::objects::pptr::PathId;

use super::AuthoringError;
use super::PathIds;
use super::classes::rig::{
    Animation, Animation6, Animation2020, Animator, Animator6, Animator2020, ComponentPair,
    GameObject, Transform,
};
use super::spec::{Joint, RigComponent, RigSpec, UnityTarget};

/// The rig's objects, in path-id order within each kind.
pub(crate) struct RigObjects {
    pub game_objects: Vec<GameObject>,
    pub transforms: Vec<Transform>,
    pub component: ComponentObject,
}

/// The component on the root GameObject.
pub(crate) enum ComponentObject {
    Animator(Animator),
    Animation(Animation),
}

/// Checks `rig` and builds its objects, pointing at each other through `ids`.
pub(crate) fn build_rig(
    rig: &RigSpec,
    target: UnityTarget,
    ids: &PathIds,
) -> Result<RigObjects, AuthoringError> {
    validate(rig, ids.clip_count())?;
    let game_objects = rig
        .joints
        .iter()
        .enumerate()
        .map(|(i, joint)| game_object(rig, joint, i, ids))
        .collect();
    let transforms = rig
        .joints
        .iter()
        .enumerate()
        .map(|(i, joint)| transform(rig, joint, i, ids))
        .collect();
    let component = component(&rig.component, target, ids);
    Ok(RigObjects {
        game_objects,
        transforms,
        component,
    })
}

/// Joint 0 must be the only root, every parent must precede its child, and an Animation
/// component may only list clips that exist.
fn validate(rig: &RigSpec, clip_count: usize) -> Result<(), AuthoringError> {
    let invalid = |message: String| Err(AuthoringError::InvalidRig(message));
    if rig.joints.is_empty() {
        return invalid("a rig needs at least its root joint".into());
    }
    for (i, joint) in rig.joints.iter().enumerate() {
        match (i, joint.parent) {
            (0, None) => {}
            (0, Some(_)) => return invalid("joint 0 is the root and cannot have a parent".into()),
            (_, None) => return invalid(format!("joint {i} ({:?}) has no parent", joint.name)),
            (_, Some(parent)) if parent >= i => {
                return invalid(format!(
                    "joint {i}'s parent {parent} does not come before it"
                ));
            }
            _ => {}
        }
    }
    if let Some(bad) = rig.renderers.iter().find(|r| r.joint >= rig.joints.len()) {
        return invalid(format!(
            "a renderer is on joint {}, but there are {}",
            bad.joint,
            rig.joints.len()
        ));
    }
    if let RigComponent::Animation { clips, .. } = &rig.component
        && let Some(bad) = clips.iter().find(|&&clip| clip >= clip_count)
    {
        return invalid(format!(
            "Animation lists clip {bad}, but there are {clip_count}"
        ));
    }
    Ok(())
}

/// A GameObject with its Transform, the animation component on the root, and the MeshFilter
/// and MeshRenderer of each renderer on it.
fn game_object(rig: &RigSpec, joint: &Joint, index: usize, ids: &PathIds) -> GameObject {
    let mut components = vec![ComponentPair {
        component: PPtr::local(ids.transform(index)),
    }];
    if index == 0 {
        components.push(ComponentPair {
            component: PPtr::local(ids.component()),
        });
    }
    for (r, _) in rig
        .renderers
        .iter()
        .enumerate()
        .filter(|(_, r)| r.joint == index)
    {
        let objects = ids.renderer(r);
        for id in [objects.filter, objects.renderer] {
            components.push(ComponentPair {
                component: PPtr::local(id),
            });
        }
    }
    GameObject {
        m_Component: components,
        m_Layer: 0,
        m_Name: joint.name.clone(),
        m_Tag: 0,
        m_IsActive: joint.active,
    }
}

fn transform(rig: &RigSpec, joint: &Joint, index: usize, ids: &PathIds) -> Transform {
    let children = rig
        .joints
        .iter()
        .enumerate()
        .filter(|(_, child)| child.parent == Some(index))
        .map(|(child, _)| PPtr::local(ids.transform(child)))
        .collect();
    let father = joint
        .parent
        .map_or(PPtr::null(), |parent| PPtr::local(ids.transform(parent)));
    Transform {
        m_GameObject: PPtr::local(ids.game_object(index)),
        m_LocalRotation: joint.rotation.into(),
        m_LocalPosition: joint.position.into(),
        m_LocalScale: joint.scale.into(),
        m_Children: children,
        m_Father: father,
    }
}

fn component(spec: &RigComponent, target: UnityTarget, ids: &PathIds) -> ComponentObject {
    let root = PPtr::local(ids.game_object(0));
    match spec {
        RigComponent::Animator => ComponentObject::Animator(animator(root, PPtr::null(), target)),
        RigComponent::AnimatorWithAvatar(_) => {
            ComponentObject::Animator(animator(root, PPtr::local(ids.avatar()), target))
        }
        RigComponent::Animation { clips, wrap_mode } => {
            let clips: Vec<PathId> = clips.iter().map(|&clip| ids.clip(clip)).collect();
            ComponentObject::Animation(animation(root, &clips, *wrap_mode, target))
        }
    }
}

/// An enabled Animator with `avatar` (or none) and no controller that always animates and
/// keeps its transform hierarchy (Unity's defaults for a new Animator).
fn animator(game_object: PPtr, avatar: PPtr, target: UnityTarget) -> Animator {
    match target {
        UnityTarget::Unity2020 => Animator::Unity2020(Animator2020 {
            m_GameObject: game_object,
            m_Enabled: 1,
            m_Avatar: avatar,
            m_Controller: PPtr::null(),
            m_CullingMode: 0,
            m_UpdateMode: 0,
            m_ApplyRootMotion: false,
            m_LinearVelocityBlending: false,
            m_HasTransformHierarchy: true,
            m_AllowConstantClipSamplingOptimization: true,
            m_KeepAnimatorControllerStateOnDisable: false,
        }),
        UnityTarget::Unity6 => Animator::Unity6(Animator6 {
            m_GameObject: game_object,
            m_Enabled: 1,
            m_Avatar: avatar,
            m_Controller: PPtr::null(),
            m_CullingMode: 0,
            m_UpdateMode: 0,
            m_ApplyRootMotion: false,
            m_LinearVelocityBlending: false,
            m_StabilizeFeet: false,
            m_AnimatePhysics: false,
            m_HasTransformHierarchy: true,
            m_AllowConstantClipSamplingOptimization: true,
            m_KeepAnimatorStateOnDisable: false,
            m_WriteDefaultValuesOnDisable: false,
        }),
    }
}

/// An enabled, always-animating Animation component that plays its first clip automatically.
fn animation(
    game_object: PPtr,
    clips: &[PathId],
    wrap_mode: i32,
    target: UnityTarget,
) -> Animation {
    let default_clip = clips.first().map_or(PPtr::null(), |&id| PPtr::local(id));
    let list = clips.iter().map(|&id| PPtr::local(id)).collect();
    match target {
        UnityTarget::Unity2020 => Animation::Unity2020(Animation2020 {
            m_GameObject: game_object,
            m_Enabled: 1,
            m_Animation: default_clip,
            m_Animations: list,
            m_WrapMode: wrap_mode,
            m_PlayAutomatically: true,
            m_AnimatePhysics: false,
            m_CullingType: 0,
        }),
        UnityTarget::Unity6 => Animation::Unity6(Animation6 {
            m_GameObject: game_object,
            m_Enabled: 1,
            m_Animation: default_clip,
            m_Animations: list,
            m_WrapMode: wrap_mode,
            m_PlayAutomatically: true,
            m_AnimatePhysics: false,
            m_UpdateMode: 0,
            m_CullingType: 0,
        }),
    }
}
