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
        mut r: RendererDraft,
        skeleton: &Skeleton,
    ) -> RendererEntry {
        let mesh = self.mesh_source(from, r.mesh);
        let loaded = match &mesh {
            MeshSource::Loaded(at) => self.ws.mesh(*at).and_then(|m| m.data.clone()),
            _ => None,
        };
        let kind = match std::mem::replace(&mut r.kind, DraftKind::Rigid) {
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
        let materials = r
            .materials
            .iter()
            .map(|&m| {
                self.ws
                    .resolve(from, m)
                    .filter(|at| self.ws.material(*at).is_some())
            })
            .collect();
        entry(from, r, kind, mesh, materials)
    }

    /// A renderer as a list shows it ([`Detail::List`]), made as its file joins the
    /// workspace: its kind, joint and activity, and its mesh's reference, resolved once every
    /// file is in ([`Builder::resolve_outline_meshes`]). The draft is dropped at once: a
    /// whole game's drafts, held until then, took as much as their entries.
    ///
    /// [`Detail::List`]: super::Detail::List
    pub(super) fn outline_renderer(from: usize, mut r: RendererDraft) -> (RendererEntry, PPtr) {
        let kind = match std::mem::replace(&mut r.kind, DraftKind::Rigid) {
            DraftKind::Skinned {
                root_bone, bounds, ..
            } => RendererKind::Skinned {
                bones: Vec::new(),
                root_bone,
                blend_shape_weights: Vec::new(),
                bounds,
            },
            DraftKind::Rigid => RendererKind::Rigid,
            // A list reads no sprites.
            DraftKind::Sprite { color, flip, .. } => RendererKind::Sprite {
                sprite: None,
                color,
                flip,
            },
        };
        let mesh = r.mesh;
        (entry(from, r, kind, MeshSource::None, Vec::new()), mesh)
    }

    /// Resolves the meshes of the renderers outlined as their files joined the workspace
    /// ([`Builder::outline_renderer`]): (rig, renderer, mesh reference).
    pub(super) fn resolve_outline_meshes(&mut self, outlined: Vec<(usize, usize, PPtr)>) {
        for (rig, renderer, pptr) in outlined {
            let from = self.ws.rigs[rig].at.file;
            let mesh = self.mesh_source(from, pptr);
            self.ws.rigs[rig].renderers[renderer].mesh = mesh;
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

/// A renderer's entry from its draft (whose kind is taken), with its kind and what the
/// draft's references resolved to.
fn entry(
    from: usize,
    r: RendererDraft,
    kind: RendererKind,
    mesh: MeshSource,
    materials: Vec<Option<ObjectRef>>,
) -> RendererEntry {
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
        materials,
        submeshes: r.submeshes,
    }
}
