//! Text Avatars (`.asset`, class 90) in the workspace, and the rig made from an Avatar
//! itself when no loaded rig uses it: one joint per avatar-skeleton node, posed at the
//! Avatar's own build pose ([`AvatarData::rest_skeleton`]), so `pose` and the viewer play
//! humanoid clips on an Avatar given without its model.

use std::sync::Arc;

use super::merge::Builder;
use super::{AvatarEntry, ObjectRef, PathNames, RigEntry};
use crate::avatar::AvatarData;
use crate::container::ContainerKind;
use crate::error::Error;
use crate::humanoid::HumanoidRig;
use crate::rig::RigComponent;
use crate::unity::class;
use crate::yaml::YamlAvatar;

impl Builder {
    /// Adds the Avatar documents of text file `file`: decoded and checked as a built
    /// Avatar is; one that fails is an error naming the file and document.
    pub(super) fn add_text_avatars(&mut self, file: usize, avatars: Vec<YamlAvatar>) {
        for found in avatars {
            let at = ObjectRef {
                file,
                path_id: found.file_id,
            };
            let raw = match found.avatar {
                Ok(raw) => raw,
                Err(source) => {
                    self.ws.errors.push(Error::Text {
                        path: self.ws.files[file].source.to_path_buf(),
                        source,
                    });
                    continue;
                }
            };
            let name = raw.m_Name.clone();
            let tos = raw.m_TOS.clone();
            match AvatarData::from_raw(raw) {
                Ok(data) => self.ws.avatars.push(AvatarEntry {
                    at,
                    name,
                    tos: self.shared.names(PathNames::new(tos)),
                    data: Some(self.shared.avatar(data)),
                }),
                Err(e) => {
                    let location = self.ws.files[file].location();
                    self.ws.errors.push(Error::Object {
                        location,
                        path_id: at.path_id,
                        class: crate::unity::class_name(class::AVATAR),
                        detail: format!("avatar {name:?}: {e}"),
                    });
                }
            }
        }
    }

    /// One rig per humanoid text Avatar that no loaded rig uses, made from the Avatar
    /// itself and named after it (its reference is the Avatar's).
    pub(super) fn add_avatar_rigs(&mut self) {
        let unused: Vec<(ObjectRef, String, PathNames, Arc<AvatarData>)> = self
            .ws
            .avatars
            .iter()
            .filter(|a| self.ws.files[a.at.file].kind == ContainerKind::Yaml)
            .filter(|a| !self.ws.rigs.iter().any(|r| r.avatar == Some(a.at)))
            .filter_map(|a| {
                let data = a.data.clone().filter(|d| d.is_human())?;
                Some((a.at, a.name.clone(), PathNames::clone(&a.tos), data))
            })
            .collect();
        for (at, name, tos, data) in unused {
            let skeleton = self.shared.skeleton(Arc::new(data.rest_skeleton()));
            let (humanoid, humanoid_error) = match HumanoidRig::new(&data, &skeleton) {
                Ok(rig) => (Some(Arc::new(rig)), None),
                Err(e) => {
                    let location = self.ws.files[at.file].location();
                    self.ws.warnings.push(format!(
                        "{location}: avatar {name:?}: humanoid clips cannot play on the rig made from it: {e}"
                    ));
                    (None, Some(e.to_string()))
                }
            };
            self.ws.rigs.push(RigEntry {
                at,
                name,
                component: RigComponent::Animator,
                skeleton,
                tos,
                avatar: Some(at),
                humanoid,
                humanoid_error,
                clips: Vec::new(),
                unresolved_clips: 0,
                controller: None,
                renderers: Vec::new(),
                apply_root_motion: false,
            });
        }
    }
}
