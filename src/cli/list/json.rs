//! `list --json`: the document, written section by section as it is made.

use std::io::Write;

use clipscope_core::Workspace;
use clipscope_core::workspace::{
    AvatarEntry, ControllerEntry, LoadedFile, MeshSource, RendererKind, RigEntry,
};
use serde::ser::{Serialize, Serializer};
use serde_json::{Value, json};

use super::format::{Indented, clip_json, component_name, mesh_json, texture_json};
use super::rows::{Kind, Listing, Written};

/// Writes the list as pretty JSON to `out`: one object whose keys are in alphabetical
/// order (as `serde_json`'s maps print them), each section written as it is serialized: each
/// row is made, written and dropped in turn, and the rows of clips, meshes and textures are
/// copied from the scratch files they were written to, so a game of 20,000 clips never
/// holds its whole document.
pub(super) fn write_json(listing: &Listing, out: impl Write) -> std::io::Result<()> {
    let ws = listing.ws;
    let mut out = std::io::BufWriter::new(out);
    out.write_all(b"{\n")?;
    section(
        &mut out,
        "avatars",
        &Rows(|| ws.avatars.iter().map(|a| avatar_json(ws, a))),
    )?;
    written_section(&mut out, "clips", listing.written(Kind::Clips), || {
        ws.clips.iter().map(|c| clip_json(ws, c))
    })?;
    section(
        &mut out,
        "controllers",
        &Rows(|| ws.controllers.iter().map(|c| controller_json(listing, c))),
    )?;
    section(
        &mut out,
        "errors",
        &Rows(|| ws.errors.iter().map(|e| Value::from(e.to_string()))),
    )?;
    section(&mut out, "files", &Rows(|| ws.files.iter().map(file_json)))?;
    written_section(&mut out, "meshes", listing.written(Kind::Meshes), || {
        ws.meshes.iter().map(|m| mesh_json(ws, m))
    })?;
    section(
        &mut out,
        "rigs",
        &Rows(|| ws.rigs.iter().map(|r| rig_json(listing, r))),
    )?;
    section(&mut out, "skipped_files", &ws.skipped_files)?;
    written_section(
        &mut out,
        "textures",
        listing.written(Kind::Textures),
        || ws.textures.iter().map(|t| texture_json(ws, t)),
    )?;
    out.write_all(b"  \"warnings\": ")?;
    serde_json::to_writer_pretty(Indented(&mut out), &ws.warnings)?;
    out.write_all(b"\n}\n")?;
    out.flush()
}

/// Writes `"key": value,` as the second level of a pretty JSON object.
fn section(out: &mut impl Write, key: &str, value: &impl Serialize) -> std::io::Result<()> {
    write!(out, "  \"{key}\": ")?;
    serde_json::to_writer_pretty(Indented(&mut *out), value)?;
    out.write_all(b",\n")
}

/// Writes `"key": [rows],` from the rows written out while the files were read, or where
/// the workspace kept them, made one at a time by the iterator `kept` returns.
fn written_section<I: Iterator<Item = Value>>(
    out: &mut impl Write,
    key: &str,
    written: Option<&Written>,
    kept: impl Fn() -> I,
) -> std::io::Result<()> {
    let Some(written) = written else {
        return section(out, key, &Rows(kept));
    };
    write!(out, "  \"{key}\": ")?;
    if written.count == 0 {
        out.write_all(b"[]")?;
    } else {
        out.write_all(b"[\n")?;
        written.copy_to(out)?;
        out.write_all(b"\n  ]")?;
    }
    out.write_all(b",\n")
}

/// A JSON array of rows made one at a time by the iterator `make` returns.
struct Rows<F>(F);

impl<F, I> Serialize for Rows<F>
where
    F: Fn() -> I,
    I: Iterator<Item = Value>,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((self.0)())
    }
}

/// A rig's row.
fn rig_json(listing: &Listing, r: &RigEntry) -> Value {
    let ws = listing.ws;
    json!({
        "name": r.name, "path_id": r.at.path_id, "file": ws.files[r.at.file].location(),
        "component": component_name(r.component), "joints": r.skeleton.joints.len(),
        "avatar_paths": r.tos.len(),
        "clips": r.clips.iter().map(|&c| listing.clip_name(c)).collect::<Vec<_>>(),
        "unresolved_clips": r.unresolved_clips,
        "humanoid": r.humanoid.is_some(),
        "humanoid_error": r.humanoid_error,
        "renderers": renderers_json(ws, r),
    })
}

/// A controller's row.
fn controller_json(listing: &Listing, c: &ControllerEntry) -> Value {
    json!({
        "name": c.name, "path_id": c.at.path_id, "file": listing.ws.files[c.at.file].location(),
        "clips": c.clips.iter().map(|&r| listing.clip_name(r)).collect::<Vec<_>>(),
        "unresolved_clips": c.unresolved_clips,
    })
}

/// A file's row.
fn file_json(f: &LoadedFile) -> Value {
    json!({
        "file": f.location(), "container": f.kind.name(),
        "format": f.summary.as_ref().map(|s| s.format),
        "unity_version": f.summary.as_ref().map(|s| s.effective_version().to_string()),
        "unity_version_written": f.summary.as_ref().map(|s| s.unity_version()),
        "version_assumed": f.summary.as_ref().map(|s| s.version_assumed),
        "objects": f.summary.as_ref().map(|s| s.objects),
    })
}

/// A rig's renderers as `list --json` prints them: the path of their GameObject below the
/// rig's root, what they draw, their GameObject's own `m_IsActive`, their `m_Enabled`, and
/// whether Unity draws them at rest (enabled and active in the hierarchy).
fn renderers_json(ws: &Workspace, rig: &RigEntry) -> Vec<Value> {
    rig.renderers
        .iter()
        .map(|r| {
            let kind = match r.kind {
                RendererKind::Skinned { .. } => "skinned",
                RendererKind::Rigid => "mesh",
                RendererKind::Sprite { .. } => "sprite",
            };
            let mesh = match &r.mesh {
                MeshSource::Loaded(at) => ws.mesh_name(*at).map(str::to_string),
                MeshSource::Builtin(id) => clipscope_core::mesh::BUILTIN_MESHES
                    .iter()
                    .find(|(b, _)| b == id)
                    .map(|(_, name)| name.to_string()),
                MeshSource::None | MeshSource::Missing(_) => None,
            };
            json!({
                "path": rig.skeleton.joints.get(r.joint).map(|j| j.path.clone()),
                "kind": kind, "mesh": mesh,
                "active": r.active, "enabled": r.enabled, "drawn": r.drawn(),
            })
        })
        .collect()
}

/// An avatar's row: whether it is humanoid, how many nodes and human bones it has, its
/// human scale (`m_Scale`); `null` facts where it did not decode.
fn avatar_json(ws: &Workspace, a: &AvatarEntry) -> Value {
    let d = a.data.as_deref();
    json!({
        "name": a.name, "path_id": a.at.path_id, "file": ws.files[a.at.file].location(),
        "decoded": d.is_some(),
        "humanoid": d.is_some_and(|d| d.is_human()),
        "nodes": d.map(|d| d.skeleton.nodes.len()),
        "human_bones": d.map(|d| d.mapped_bones().count()),
        "human_scale": d.map(|d| d.human.scale),
    })
}
