//! The character's side of a workspace: meshes, textures, materials, sprites and
//! MonoBehaviours with their scripts, and each rig's renderers (which joint draws which mesh
//! with which materials, skinned to which joints).
//!
//! Like clips, they are decoded when their file is opened (stream data from the container's
//! `.resS` entries or from files next to a `.assets`), and the file's bytes are then dropped.
//! A workspace opened for summaries keeps only the facts `list` shows.

use std::collections::HashMap;
use std::sync::Arc;

use serde::Serialize;

use super::found::Found;
use super::{Detail, ObjectRef};
use crate::behaviour::{self, BehaviourData, ScriptData};
use crate::material::MaterialData;
use crate::mesh::renderer::{self, SpriteData, SubMeshRange};
use crate::mesh::{self, Aabb, Layout, MeshData};
use crate::resource::StreamSource;
use crate::rig::{Hierarchy, Skeleton};
use crate::serialized::{ObjectInfo, SerializedFile};
use crate::texture::{self, RgbaImage};
use crate::unity::{PPtr, class};

/// What `list` says of a mesh.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MeshFacts {
    pub vertices: usize,
    /// Index count of each sub-mesh, as stored.
    pub submeshes: Vec<usize>,
    /// Bind poses.
    pub bones: usize,
    /// Blend shape channels.
    pub blend_shapes: usize,
    pub skinned: bool,
    /// Centre and extent of the decoded positions (Unity space).
    pub bounds: Option<[f32; 6]>,
}

impl MeshFacts {
    fn of(mesh: &MeshData) -> MeshFacts {
        MeshFacts {
            vertices: mesh.vertex_count(),
            submeshes: mesh
                .submeshes
                .iter()
                .map(|s| s.index_count as usize)
                .collect(),
            bones: mesh.bind_poses.len(),
            blend_shapes: mesh.blend_shapes.len(),
            skinned: mesh.is_skinned(),
            bounds: mesh.bounds().map(|b| b.to_array()),
        }
    }
}

/// A Mesh (class 43).
#[derive(Clone, Debug)]
pub struct MeshEntry {
    pub at: ObjectRef,
    pub name: String,
    /// `Err` with the reason when the mesh could not be decoded.
    pub facts: Result<MeshFacts, String>,
    /// The decoded mesh; `None` unless opened with [`Detail::Full`], or not decoded.
    pub data: Option<Arc<MeshData>>,
    /// Each blend shape channel's name hash and name (every detail: names are small).
    pub shape_names: Vec<(u32, String)>,
}

/// A Texture2D (class 28).
#[derive(Clone, Debug)]
pub struct TextureEntry {
    pub at: ObjectRef,
    pub name: String,
    /// `m_TextureFormat`.
    pub format: i32,
    pub width: u32,
    pub height: u32,
    /// Why mip 0 could not be decoded (an unsupported format, missing stream data), or why
    /// the texture could not be read at all; `None` when it decodes (with [`Detail::Index`]:
    /// when it reads, as the pixels are not decoded).
    pub error: Option<String>,
    /// Mip 0 as RGBA8, top row first; `None` unless opened with [`Detail::Full`], or not
    /// decoded.
    pub image: Option<Arc<RgbaImage>>,
}

/// A Material (class 21).
#[derive(Clone, Debug)]
pub struct MaterialEntry {
    pub at: ObjectRef,
    pub data: MaterialData,
}

/// A Sprite (class 213).
#[derive(Clone, Debug)]
pub struct SpriteEntry {
    pub at: ObjectRef,
    pub data: SpriteData,
}

/// A MonoBehaviour (class 114): the fields its script curves may animate.
#[derive(Clone, Debug)]
pub struct BehaviourEntry {
    pub at: ObjectRef,
    pub data: BehaviourData,
}

/// A MonoScript (class 115): the class a behaviour runs.
#[derive(Clone, Debug)]
pub struct ScriptEntry {
    pub at: ObjectRef,
    /// Shared by every equal copy of the script (each bundle holds its own).
    pub data: Arc<ScriptData>,
}

/// Where a renderer's mesh comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum MeshSource {
    /// The renderer has none (sprites), or its reference is null.
    None,
    Loaded(ObjectRef),
    /// A mesh of `unity default resources`, generated (see [`crate::mesh::builtin`]).
    Builtin(i64),
    /// A reference to a mesh that is not loaded (or not generated), and why.
    Missing(String),
}

/// What a renderer draws.
#[derive(Clone, Debug, PartialEq)]
pub enum RendererKind {
    /// A SkinnedMeshRenderer: bone `i` (bind pose `i`) is this joint of the rig.
    Skinned {
        bones: Vec<Option<usize>>,
        root_bone: Option<usize>,
        /// Blend shape weights as stored (0–100), by channel.
        blend_shape_weights: Vec<f32>,
        /// The stored bounds (`m_AABB`).
        bounds: Aabb,
    },
    /// A MeshRenderer with its GameObject's MeshFilter: follows its joint rigidly.
    Rigid,
    /// A SpriteRenderer.
    Sprite {
        sprite: Option<ObjectRef>,
        color: [f32; 4],
        flip: [bool; 2],
    },
}

/// A renderer on a rig's joint.
#[derive(Clone, Debug, PartialEq)]
pub struct RendererEntry {
    /// The renderer component.
    pub at: ObjectRef,
    /// The joint whose GameObject holds it.
    pub joint: usize,
    /// The renderer's own `m_Enabled`.
    pub enabled: bool,
    /// Its GameObject's own `m_IsActive`.
    pub active: bool,
    /// Its GameObject is active in the hierarchy: its own `m_IsActive` and that of every
    /// ancestor up to the rig's root.
    pub active_in_hierarchy: bool,
    /// The joints (its own and its ancestors') whose GameObject is inactive: hiding those
    /// (not the renderer) lets a clip's `m_IsActive` curve show it again.
    pub inactive_joints: Vec<usize>,
    pub kind: RendererKind,
    pub mesh: MeshSource,
    /// Material `i` draws sub-mesh `submeshes.submesh_of(i)`; `None` where not loaded.
    pub materials: Vec<Option<ObjectRef>>,
    pub submeshes: SubMeshRange,
}

impl RendererEntry {
    /// Whether Unity draws it at rest: enabled, on a GameObject active in the hierarchy. A
    /// clip animating `m_IsActive` or `m_Enabled` can still show it.
    pub fn drawn(&self) -> bool {
        self.enabled && self.active_in_hierarchy
    }
}

/// A renderer before its references to other objects are resolved.
pub(super) struct RendererDraft {
    pub path_id: i64,
    pub joint: usize,
    pub enabled: bool,
    /// Own `m_IsActive`, and the inactive joints on its chain to the root.
    pub active: (bool, Vec<usize>),
    pub kind: DraftKind,
    pub mesh: PPtr,
    pub materials: Vec<PPtr>,
    pub submeshes: SubMeshRange,
}

pub(super) enum DraftKind {
    Skinned {
        /// Bones found in this file's hierarchy, by joint; the rest are matched by the mesh's
        /// bone name hashes once it is loaded.
        bones: Vec<Option<usize>>,
        root_bone: Option<usize>,
        blend_shape_weights: Vec<f32>,
        bounds: Aabb,
    },
    Rigid,
    Sprite {
        sprite: PPtr,
        color: [f32; 4],
        flip: [bool; 2],
    },
}

/// The meshes, textures, materials and sprites of one serialized file.
#[derive(Default)]
pub(super) struct SceneIndex {
    pub meshes: Vec<MeshEntry>,
    pub textures: Vec<TextureEntry>,
    pub materials: Vec<Found<MaterialData>>,
    pub sprites: Vec<Found<SpriteData>>,
    pub behaviours: Vec<Found<BehaviourData>>,
    pub scripts: Vec<Found<ScriptData>>,
}

/// Reads every mesh and texture (and, unless [`Detail::facts_only`], material, sprite,
/// MonoBehaviour and MonoScript) of `file`.
/// Entries carry file index 0; the caller renumbers them.
pub(super) fn read_scene(
    file: &SerializedFile,
    streams: &dyn StreamSource,
    detail: Detail,
) -> SceneIndex {
    let summaries = detail.facts_only();
    let mut out = SceneIndex::default();
    for info in &file.objects {
        match info.class_id {
            class::MESH => out.meshes.push(read_mesh(file, info, streams, detail)),
            class::TEXTURE_2D => out.textures.push(read_texture(file, info, streams, detail)),
            class::MATERIAL if !summaries => out.materials.push(Found {
                path_id: info.path_id,
                class_id: info.class_id,
                value: crate::material::read(file, info).map_err(|e| e.to_string()),
            }),
            class::SPRITE if !summaries => out.sprites.push(Found {
                path_id: info.path_id,
                class_id: info.class_id,
                value: renderer::read_sprite(file, info).map_err(|e| e.to_string()),
            }),
            class::MONO_SCRIPT if !summaries => out.scripts.push(Found {
                path_id: info.path_id,
                class_id: info.class_id,
                value: behaviour::read_script(file, info).map_err(|e| e.to_string()),
            }),
            _ => {}
        }
    }
    if !summaries {
        out.behaviours = behaviour::read_all(file)
            .into_iter()
            .map(|(path_id, value)| Found {
                path_id,
                class_id: class::MONO_BEHAVIOUR,
                value,
            })
            .collect();
    }
    out
}

fn local(info: &ObjectInfo) -> ObjectRef {
    ObjectRef {
        file: 0,
        path_id: info.path_id,
    }
}

fn read_mesh(
    file: &SerializedFile,
    info: &ObjectInfo,
    streams: &dyn StreamSource,
    detail: Detail,
) -> MeshEntry {
    let raw = match file.read::<crate::unity::mesh::Mesh>(info) {
        Ok(raw) => raw,
        Err(e) => {
            return MeshEntry {
                at: local(info),
                name: String::new(),
                facts: Err(e.to_string()),
                data: None,
                shape_names: Vec::new(),
            };
        }
    };
    let decoded = mesh::decode(&raw, Layout::of(file), streams);
    MeshEntry {
        at: local(info),
        name: raw.m_Name.clone(),
        facts: decoded
            .as_ref()
            .map(MeshFacts::of)
            .map_err(|e| e.to_string()),
        shape_names: decoded.as_ref().map_or_else(
            |_| Vec::new(),
            |m| {
                m.blend_shapes
                    .iter()
                    .map(|s| (s.name_hash, s.name.clone()))
                    .collect()
            },
        ),
        data: decoded
            .ok()
            .filter(|_| detail == Detail::Full)
            .map(Arc::new),
    }
}

fn read_texture(
    file: &SerializedFile,
    info: &ObjectInfo,
    streams: &dyn StreamSource,
    detail: Detail,
) -> TextureEntry {
    let texture = match texture::read(file, info, streams) {
        Ok(t) => t,
        Err(e) => {
            let (name, format) = match &e {
                texture::TextureError::NoPixels { name, format, .. } => (name.clone(), *format),
                _ => (String::new(), 0),
            };
            return TextureEntry {
                at: local(info),
                name,
                format,
                width: 0,
                height: 0,
                error: Some(e.to_string()),
                image: None,
            };
        }
    };
    // An index needs no pixels: not decoding them saves most of a texture's time.
    let image = match detail {
        Detail::Index | Detail::Clips => Err(None),
        _ => texture.decode_rgba().map_err(|e| Some(e.to_string())),
    };
    TextureEntry {
        at: local(info),
        name: texture.name,
        format: texture.format,
        width: texture.width,
        height: texture.height,
        error: image.as_ref().err().cloned().flatten(),
        image: image.ok().filter(|_| detail == Detail::Full).map(Arc::new),
    }
}

/// The renderers of `file` on the joints of `skeleton` (matched by Transform path id).
pub(super) fn rig_renderers(
    renderers: &renderer::Renderers,
    hierarchy: &Hierarchy,
    skeleton: &Skeleton,
) -> Vec<RendererDraft> {
    let joint_of: HashMap<i64, usize> = skeleton
        .joints
        .iter()
        .enumerate()
        .map(|(i, j)| (j.transform_id, i))
        .collect();
    let on_joint = |go: PPtr| {
        (go.file_id() == 0)
            .then(|| hierarchy.transform_of(go.path_id()))
            .flatten()
            .and_then(|t| joint_of.get(&t).copied())
    };
    let bone = |p: &PPtr| {
        (p.file_id() == 0)
            .then(|| joint_of.get(&p.path_id()).copied())
            .flatten()
    };
    let active = joint_activity(hierarchy, skeleton);
    let mut out = Vec::new();
    for r in &renderers.skinned {
        let Some(joint) = on_joint(r.game_object) else {
            continue;
        };
        out.push(RendererDraft {
            path_id: r.path_id,
            joint,
            enabled: r.enabled,
            active: (active[joint].0, inactive_chain(skeleton, &active, joint)),
            kind: DraftKind::Skinned {
                bones: r.bones.iter().map(bone).collect(),
                root_bone: r.root_bone.as_ref().and_then(bone),
                blend_shape_weights: r.blend_shape_weights.clone(),
                bounds: r.bounds,
            },
            mesh: r.mesh,
            materials: r.materials.clone(),
            submeshes: r.submeshes.clone(),
        });
    }
    for r in &renderers.meshes {
        let Some(joint) = on_joint(r.game_object) else {
            continue;
        };
        out.push(RendererDraft {
            path_id: r.path_id,
            joint,
            enabled: r.enabled,
            active: (active[joint].0, inactive_chain(skeleton, &active, joint)),
            kind: DraftKind::Rigid,
            mesh: r.mesh,
            materials: r.materials.clone(),
            submeshes: r.submeshes.clone(),
        });
    }
    for r in &renderers.sprites {
        let Some(joint) = on_joint(r.game_object) else {
            continue;
        };
        out.push(RendererDraft {
            path_id: r.path_id,
            joint,
            enabled: r.enabled,
            active: (active[joint].0, inactive_chain(skeleton, &active, joint)),
            kind: DraftKind::Sprite {
                sprite: r.sprite,
                color: r.color,
                flip: r.flip,
            },
            mesh: PPtr::default(),
            materials: Vec::new(),
            submeshes: SubMeshRange::default(),
        });
    }
    // Held by the rig's draft until every file is in: no room to spare.
    out.shrink_to_fit();
    out
}

/// Each joint's (own `m_IsActive`, active in the hierarchy up to the rig's root). A
/// GameObject without the flag (or not found) counts as active.
pub(super) fn joint_activity(hierarchy: &Hierarchy, skeleton: &Skeleton) -> Vec<(bool, bool)> {
    let own = |transform: i64| {
        hierarchy
            .transforms
            .get(&transform)
            .and_then(|t| (t.m_GameObject.file_id() == 0).then(|| t.m_GameObject.path_id()))
            .and_then(|go| hierarchy.game_objects.get(&go))
            .and_then(|go| go.m_IsActive)
            .is_none_or(|a| a.flag())
    };
    let mut out: Vec<(bool, bool)> = Vec::with_capacity(skeleton.joints.len());
    for joint in &skeleton.joints {
        let active = own(joint.transform_id);
        let parent = joint
            .parent
            .and_then(|p| out.get(p))
            .is_none_or(|&(_, in_hierarchy)| in_hierarchy);
        out.push((active, active && parent));
    }
    out
}

/// The joints from `joint` up to the root whose own `m_IsActive` is off.
fn inactive_chain(skeleton: &Skeleton, activity: &[(bool, bool)], joint: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut at = Some(joint);
    // Parents come before children, so the chain ends within the joint count.
    for _ in 0..skeleton.joints.len() {
        let Some(j) = at else { break };
        if activity.get(j).is_some_and(|a| !a.0) {
            out.push(j);
        }
        at = skeleton
            .joints
            .get(j)
            .and_then(|x| x.parent)
            .filter(|&p| p < j);
    }
    out
}
