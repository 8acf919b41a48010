//! A rig's renderers resolved: their meshes (loaded, built in, or missing and why),
//! materials and sprites, and skinned bones matched by the mesh's bone name hashes.

use super::ObjectRef;
use super::merge::Builder;
use super::scene::{DraftKind, MeshSource, RendererDraft, RendererEntry, RendererKind};
use crate::rig::Skeleton;
use crate::unity::PPtr;

impl Builder {
    /// A renderer with its mesh, materials and sprite resolved, and the bones its file did not
    /// place matched by the mesh's bone name hashes.
    pub(super) fn renderer(
        &self,
        from: usize,
        r: RendererDraft,
        skeleton: &Skeleton,
    ) -> RendererEntry {
        let mesh = self.mesh_source(from, r.mesh);
        let loaded = match &mesh {
            MeshSource::Loaded(at) => self.ws.mesh(*at).and_then(|m| m.data.clone()),
            _ => None,
        };
        let kind = match r.kind {
            DraftKind::Skinned {
                mut bones,
                root_bone,
                blend_shape_weights,
                bounds,
            } => {
                if let Some(mesh) = &loaded {
                    for (i, bone) in bones.iter_mut().enumerate() {
                        if bone.is_none() {
                            *bone = mesh
                                .bone_name_hashes
                                .get(i)
                                .and_then(|&h| skeleton.joint_by_hash(h));
                        }
                    }
                }
                RendererKind::Skinned {
                    bones,
                    root_bone,
                    blend_shape_weights,
                    bounds,
                }
            }
            DraftKind::Rigid => RendererKind::Rigid,
            DraftKind::Sprite {
                sprite,
                color,
                flip,
            } => RendererKind::Sprite {
                sprite: self
                    .ws
                    .resolve(from, sprite)
                    .filter(|at| self.ws.sprite(*at).is_some()),
                color,
                flip,
            },
        };
        RendererEntry {
            at: ObjectRef {
                file: from,
                path_id: r.path_id,
            },
            joint: r.joint,
            enabled: r.enabled,
            active: r.active.0,
            active_in_hierarchy: r.active.1.is_empty(),
            inactive_joints: r.active.1,
            kind,
            mesh,
            materials: r
                .materials
                .iter()
                .map(|&m| {
                    self.ws
                        .resolve(from, m)
                        .filter(|at| self.ws.material(*at).is_some())
                })
                .collect(),
            submeshes: r.submeshes,
        }
    }

    /// Where a renderer's mesh reference leads: a loaded mesh, a generated built-in one, or
    /// nowhere (and why).
    fn mesh_source(&self, from: usize, pptr: PPtr) -> MeshSource {
        if pptr.is_null() {
            return MeshSource::None;
        }
        let external = usize::try_from(pptr.file_id() - 1)
            .ok()
            .and_then(|i| self.ws.files.get(from)?.summary.as_ref()?.externals.get(i));
        if let Some(external) = external.filter(|e| crate::mesh::is_default_resources(&e.path)) {
            return if crate::mesh::builtin(pptr.path_id()).is_some() {
                MeshSource::Builtin(pptr.path_id())
            } else {
                MeshSource::Missing(format!(
                    "built-in mesh {} of {:?} is not generated",
                    pptr.path_id(),
                    external.path
                ))
            };
        }
        match self.ws.resolve(from, pptr) {
            Some(at) if self.ws.has_mesh(at) => MeshSource::Loaded(at),
            _ => MeshSource::Missing(format!(
                "mesh (file id {}, path id {}) is not loaded",
                pptr.file_id(),
                pptr.path_id()
            )),
        }
    }
}
