//! The formats of the rows written out while the files are read (clips, meshes and
//! textures), in the JSON document and the table, and the small pieces both print.

use std::io::Write;

use clipscope_core::Workspace;
use clipscope_core::rig::RigComponent;
use clipscope_core::workspace::{ClipEntry, MeshEntry, TextureEntry};
use serde_json::{Value, json};

pub(super) fn component_name(c: RigComponent) -> &'static str {
    match c {
        RigComponent::Animator => "Animator",
        RigComponent::Animation => "Animation",
    }
}

/// A writer that indents every line after the first by one level (two spaces): a value
/// printed pretty on its own, placed inside an object.
pub(super) struct Indented<W>(pub(super) W);

impl<W: Write> Write for Indented<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut rest = buf;
        while let Some(i) = rest.iter().position(|&b| b == b'\n') {
            self.0.write_all(&rest[..=i])?;
            self.0.write_all(b"  ")?;
            rest = &rest[i + 1..];
        }
        self.0.write_all(rest)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// A clip's row.
pub(super) fn clip_json(ws: &Workspace, c: &ClipEntry) -> Value {
    let file = ws.files[c.at.file].location();
    match &c.data {
        Ok(d) => json!({
            "name": d.name, "path_id": c.at.path_id, "file": file,
            "kind": if d.legacy { "legacy" } else { "mecanim" },
            "keyframed": d.keyframed,
            "streamed": d.counts.streamed, "dense": d.counts.dense, "constant": d.counts.constant,
            "curves": d.curve_count(), "bindings": d.binding_count(),
            "start": d.start, "stop": d.stop, "sample_rate": d.sample_rate,
            "wrap": d.wrap_mode().name(), "wrap_code": d.wrap_mode_code,
            "loop_time": d.loop_time, "events": d.event_count(), "warnings": d.warnings,
        }),
        Err(e) => {
            json!({ "name": c.name, "path_id": c.at.path_id, "file": file, "error": e.to_string() })
        }
    }
}

/// A clip's lines in the table: its row and its warnings.
pub(super) fn clip_lines(ws: &Workspace, c: &ClipEntry) -> String {
    use std::fmt::Write as _;
    let file = ws.files[c.at.file].location();
    let mut out = String::new();
    match &c.data {
        Ok(d) => {
            let kind = if d.legacy { "legacy" } else { "mecanim" };
            let counts = if d.keyframed {
                (
                    "-".to_string(),
                    "-".to_string(),
                    format!("{}k", d.curve_count()),
                )
            } else {
                (
                    d.counts.streamed.to_string(),
                    d.counts.dense.to_string(),
                    d.counts.constant.to_string(),
                )
            };
            let _ = writeln!(
                out,
                "  {:<24} {:>20} {:<8} {:>5} {:>5} {:>5} {:>5} {:>8.3} {:>8.3} {:>6} {:<8}  {file}",
                d.name,
                c.at.path_id,
                kind,
                counts.0,
                counts.1,
                counts.2,
                d.binding_count(),
                d.start,
                d.stop,
                d.sample_rate,
                d.wrap_mode().name()
            );
            for w in &d.warnings {
                let _ = writeln!(out, "      warning: {w}");
            }
        }
        Err(e) => {
            let _ = writeln!(out, "  {:<24} {:>20} error: {e}", c.name, c.at.path_id);
        }
    }
    out
}

/// A mesh's row.
pub(super) fn mesh_json(ws: &Workspace, m: &MeshEntry) -> Value {
    let file = ws.files[m.at.file].location();
    match &m.facts {
        Ok(f) => json!({
            "name": m.name, "path_id": m.at.path_id, "file": file,
            "vertices": f.vertices, "submeshes": f.submeshes, "bones": f.bones,
            "blend_shapes": f.blend_shapes, "skinned": f.skinned, "bounds": f.bounds,
            "error": null,
        }),
        Err(e) => json!({
            "name": m.name, "path_id": m.at.path_id, "file": file,
            "vertices": 0, "submeshes": [], "bones": 0, "blend_shapes": 0,
            "skinned": false, "bounds": null, "error": e,
        }),
    }
}

/// A texture's row.
pub(super) fn texture_json(ws: &Workspace, t: &TextureEntry) -> Value {
    json!({
        "name": t.name, "path_id": t.at.path_id, "file": ws.files[t.at.file].location(),
        "format": t.format, "width": t.width, "height": t.height,
        "decoded": t.error.is_none(), "error": t.error,
    })
}

/// A mesh's line in the table.
pub(super) fn mesh_line(ws: &Workspace, m: &MeshEntry) -> String {
    let file = ws.files[m.at.file].location();
    match &m.facts {
        Ok(f) => format!(
            "  {:<24} {:>20} {:>7} vertices {:>3} submeshes {:>3} bones {:>3} blend shapes{}  {file}\n",
            m.name,
            m.at.path_id,
            f.vertices,
            f.submeshes.len(),
            f.bones,
            f.blend_shapes,
            if f.skinned { " skinned" } else { "" },
        ),
        Err(e) => format!("  {:<24} {:>20} error: {e}\n", m.name, m.at.path_id),
    }
}

/// A texture's line in the table.
pub(super) fn texture_line(ws: &Workspace, t: &TextureEntry) -> String {
    format!(
        "  {:<24} {:>20} {:>5}x{:<5} {:<10} {}  {}\n",
        t.name,
        t.at.path_id,
        t.width,
        t.height,
        clipscope_core::texture::format_name(t.format),
        t.error
            .as_deref()
            .map_or("decoded".to_string(), |e| format!("not decoded: {e}")),
        ws.files[t.at.file].location()
    )
}
