//! Reading the objects a workspace keeps from one serialized file: clips (decoded),
//! controllers' clip lists, avatars, and rig components with the hierarchy and renderers
//! under their GameObject. References to other objects stay `PPtr`s here.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::OpenOptions;
use super::scene::{RendererDraft, rig_renderers};
use crate::avatar::AvatarData;
use crate::clip::{ClipData, decode_clip};
use crate::mesh::renderer;
use crate::rig::{Hierarchy, RigComponent, Skeleton};
use crate::serialized::{ObjectInfo, SerializedFile};
use crate::unity::clip::AnimationClip;
use crate::unity::rig::{
    Animation, Animator, AnimatorController, AnimatorOverrideController, Avatar,
};
use crate::unity::{PPtr, class};

pub(super) use super::found::Found;

/// A rig component before its cross-file references are resolved.
pub(super) struct RigDraft {
    pub name: String,
    pub component: RigComponent,
    /// The Transform hierarchy under the component's GameObject, where the file holds it
    /// (shared with equal ones as the file joins the workspace).
    pub skeleton: Option<Arc<Skeleton>>,
    pub avatar: PPtr,
    pub controller: PPtr,
    /// The legacy Animation component's clips.
    pub clips: Vec<PPtr>,
    /// The renderers on the skeleton's joints (none when opened for summaries).
    pub renderers: Vec<RendererDraft>,
    /// The Animator's `m_ApplyRootMotion` (false for an Animation component).
    pub apply_root_motion: bool,
}

/// An avatar's path names, and its full decode unless opened for summaries.
pub(super) struct AvatarFound {
    pub name: String,
    pub tos: BTreeMap<u32, String>,
    pub data: Option<AvatarData>,
    /// Why the full decode failed (the path names were still read).
    pub problem: Option<String>,
}

/// A decoded clip and its name (kept when decoding failed).
pub(super) struct ClipFound {
    pub name: String,
    pub data: Result<ClipData, String>,
}

/// `read` applied to every object of the given classes.
pub(super) fn of_class<T>(
    file: &SerializedFile,
    classes: &[i32],
    read: impl Fn(&ObjectInfo) -> T,
) -> Vec<(i64, T)> {
    file.objects
        .iter()
        .filter(|o| classes.contains(&o.class_id))
        .map(|info| (info.path_id, read(info)))
        .collect()
}

pub(super) fn found<T>(
    file: &SerializedFile,
    classes: &[i32],
    read: impl Fn(&ObjectInfo) -> Result<T, String>,
) -> Vec<Found<T>> {
    file.objects
        .iter()
        .filter(|o| classes.contains(&o.class_id))
        .map(|info| Found {
            path_id: info.path_id,
            class_id: info.class_id,
            value: read(info),
        })
        .collect()
}

pub(super) fn read_clip(
    file: &SerializedFile,
    info: &ObjectInfo,
    options: &OpenOptions,
) -> ClipFound {
    match file.read::<AnimationClip>(info) {
        Ok(raw) => {
            let data = decode_clip(&raw, &file.effective_version)
                .map(|clip| options.shape(clip))
                .map_err(|e| format!("clip {:?}: {e}", raw.m_Name));
            ClipFound {
                name: raw.m_Name,
                data,
            }
        }
        Err(e) => ClipFound {
            name: String::new(),
            data: Err(e.to_string()),
        },
    }
}

/// An avatar in full (summaries too: `list` says whether each rig poses humanoid clips,
/// and an avatar is small beside its clips); its path names even when the rest does not
/// decode.
pub(super) fn read_avatar(
    file: &SerializedFile,
    info: &ObjectInfo,
    _options: &OpenOptions,
) -> Result<AvatarFound, String> {
    let problem = match crate::avatar::read(file, info) {
        Ok(data) => {
            return Ok(AvatarFound {
                name: data.name.clone(),
                tos: data.tos.clone(),
                data: Some(data),
                problem: None,
            });
        }
        Err(e) => Some(e.to_string()),
    };
    let raw = file.read::<Avatar>(info).map_err(|e| e.to_string())?;
    Ok(AvatarFound {
        name: raw.m_Name,
        tos: raw.m_TOS,
        data: None,
        problem,
    })
}

/// A controller's name, clips in order (an override controller's overrides where set) and
/// its decoded model.
pub(super) struct ControllerFound {
    pub name: String,
    pub clips: Vec<PPtr>,
    pub model: Result<crate::animator::Controller, String>,
    /// An override controller's base controller and its (original, override) clip pairs
    /// whose override is set: its model is the base's with those clips replaced, once every
    /// file is read.
    pub overrides: Option<(PPtr, Vec<(PPtr, PPtr)>)>,
}

/// A controller's name, clips and model.
pub(super) fn read_controller(
    file: &SerializedFile,
    info: &ObjectInfo,
) -> Result<ControllerFound, String> {
    if info.class_id == class::ANIMATOR_CONTROLLER {
        let c = file
            .read::<AnimatorController>(info)
            .map_err(|e| e.to_string())?;
        return Ok(ControllerFound {
            name: c.m_Name.clone(),
            clips: super::controller_clips(&c),
            model: crate::animator::read_built(file, info).map_err(|e| e.to_string()),
            overrides: None,
        });
    }
    file.read::<AnimatorOverrideController>(info)
        .map(|c| {
            let clips = c
                .m_Clips
                .iter()
                .map(|p| {
                    if p.m_OverrideClip.is_null() {
                        p.m_OriginalClip
                    } else {
                        p.m_OverrideClip
                    }
                })
                .collect();
            let pairs = c
                .m_Clips
                .iter()
                .filter(|p| !p.m_OverrideClip.is_null())
                .map(|p| (p.m_OriginalClip, p.m_OverrideClip))
                .collect();
            ControllerFound {
                name: c.m_Name,
                clips,
                model: Err(
                    "an AnimatorOverrideController whose base controller was not found".into(),
                ),
                overrides: Some((c.m_Controller, pairs)),
            }
        })
        .map_err(|e| e.to_string())
}

/// Every Animator and Animation component, with the hierarchy under its GameObject.
pub(super) fn read_rigs(
    file: &SerializedFile,
    location: &str,
    _options: &OpenOptions,
    warnings: &mut Vec<String>,
) -> Vec<Found<RigDraft>> {
    let classes = [class::ANIMATOR, class::ANIMATION];
    if !file.objects.iter().any(|o| classes.contains(&o.class_id)) {
        return Vec::new();
    }
    let mut problems = Vec::new();
    let hierarchy = Hierarchy::read(file, &mut problems);
    // Renderers are read in summaries too (they are small): `list` reports them.
    let renderers = renderer::read_all(file, &mut problems);
    warnings.extend(problems.into_iter().map(|p| format!("{location}: {p}")));
    let with_renderers = |mut draft: RigDraft| {
        if let Some(skeleton) = &draft.skeleton {
            draft.renderers = rig_renderers(&renderers, &hierarchy, skeleton);
        }
        draft
    };
    found(file, &classes, |info| {
        let draft = if info.class_id == class::ANIMATOR {
            file.read::<Animator>(info).map(|a| RigDraft {
                name: rig_name(&hierarchy, a.m_GameObject),
                component: RigComponent::Animator,
                skeleton: hierarchy.skeleton(a.m_GameObject).map(Arc::new),
                avatar: a.m_Avatar,
                controller: a.m_Controller,
                clips: Vec::new(),
                renderers: Vec::new(),
                apply_root_motion: a.m_ApplyRootMotion.is_some_and(|v| v.0 != 0),
            })
        } else {
            file.read::<Animation>(info).map(|a| {
                let mut clips = a.m_Animations.clone();
                if !a.m_Animation.is_null() && !clips.contains(&a.m_Animation) {
                    clips.insert(0, a.m_Animation);
                }
                RigDraft {
                    name: rig_name(&hierarchy, a.m_GameObject),
                    component: RigComponent::Animation,
                    skeleton: hierarchy.skeleton(a.m_GameObject).map(Arc::new),
                    avatar: PPtr::default(),
                    controller: PPtr::default(),
                    clips,
                    renderers: Vec::new(),
                    apply_root_motion: false,
                }
            })
        };
        draft.map(with_renderers).map_err(|e| e.to_string())
    })
}

pub(super) fn rig_name(hierarchy: &Hierarchy, go: PPtr) -> String {
    hierarchy
        .game_objects
        .get(&go.path_id())
        .map(|g| g.m_Name.clone())
        .unwrap_or_else(|| format!("GameObject {}", go.path_id()))
}
