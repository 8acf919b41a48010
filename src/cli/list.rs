//! `clipscope list`: every clip, rig and controller, as a table or JSON.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clipscope_core::Workspace;
use clipscope_core::rig::RigComponent;
use clipscope_core::workspace::{
    AvatarEntry, ClipEntry, ControllerEntry, LoadedFile, MeshEntry, MeshSource, ObjectRef,
    RendererKind, RigEntry, TextureEntry,
};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Value, json};

use super::{Inputs, report_problems};

#[derive(clap::Args)]
pub struct ListArgs {
    /// Unity files or folders (a game's *_Data folder, a folder of bundles).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    inputs: Inputs,
}

pub fn run(args: &ListArgs) -> ExitCode {
    // Listing needs each clip's facts, not its curves, and each controller's clips, not its
    // state machine: a folder of many files then takes the memory of the files being opened
    // and a small index of the rest.
    let ws = args.inputs.open_list(&args.paths);
    if args.json {
        if let Err(e) = write_json(&ws, std::io::stdout().lock()) {
            eprintln!("error: writing the list: {e}");
            return ExitCode::from(1);
        }
    } else {
        print_table(&ws);
    }
    report_problems(&ws)
}

fn clip_name(ws: &Workspace, at: ObjectRef) -> String {
    ws.clip(at)
        .map_or_else(|| format!("#{}", at.path_id), |c| c.name.clone())
}

fn component_name(c: RigComponent) -> &'static str {
    match c {
        RigComponent::Animator => "Animator",
        RigComponent::Animation => "Animation",
    }
}

/// The list as one JSON object, written as it is serialized: each row is made, written and
/// dropped in turn, so a game of 20,000 clips never holds its whole document in memory.
/// Keys in alphabetical order, as `serde_json`'s maps print them.
struct ListDoc<'a>(&'a Workspace);

impl Serialize for ListDoc<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let ws = self.0;
        let mut map = serializer.serialize_map(Some(10))?;
        map.serialize_entry(
            "avatars",
            &Rows(|| ws.avatars.iter().map(|a| avatar_json(ws, a))),
        )?;
        map.serialize_entry("clips", &Rows(|| ws.clips.iter().map(|c| clip_json(ws, c))))?;
        map.serialize_entry(
            "controllers",
            &Rows(|| ws.controllers.iter().map(|c| controller_json(ws, c))),
        )?;
        map.serialize_entry(
            "errors",
            &Rows(|| ws.errors.iter().map(|e| Value::from(e.to_string()))),
        )?;
        map.serialize_entry("files", &Rows(|| ws.files.iter().map(file_json)))?;
        map.serialize_entry(
            "meshes",
            &Rows(|| ws.meshes.iter().map(|m| mesh_json(ws, m))),
        )?;
        map.serialize_entry("rigs", &Rows(|| ws.rigs.iter().map(|r| rig_json(ws, r))))?;
        map.serialize_entry("skipped_files", &ws.skipped_files)?;
        map.serialize_entry(
            "textures",
            &Rows(|| ws.textures.iter().map(|t| texture_json(ws, t))),
        )?;
        map.serialize_entry("warnings", &ws.warnings)?;
        map.end()
    }
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

/// Writes the list as pretty JSON to `out`.
fn write_json(ws: &Workspace, out: impl Write) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(out);
    serde_json::to_writer_pretty(&mut out, &ListDoc(ws)).map_err(std::io::Error::other)?;
    writeln!(out)?;
    out.flush()
}

/// A clip's row.
fn clip_json(ws: &Workspace, c: &ClipEntry) -> Value {
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

/// A rig's row.
fn rig_json(ws: &Workspace, r: &RigEntry) -> Value {
    json!({
        "name": r.name, "path_id": r.at.path_id, "file": ws.files[r.at.file].location(),
        "component": component_name(r.component), "joints": r.skeleton.joints.len(),
        "avatar_paths": r.tos.len(),
        "clips": r.clips.iter().map(|&c| clip_name(ws, c)).collect::<Vec<_>>(),
        "unresolved_clips": r.unresolved_clips,
        "humanoid": r.humanoid.is_some(),
        "humanoid_error": r.humanoid_error,
        "renderers": renderers_json(ws, r),
    })
}

/// A controller's row.
fn controller_json(ws: &Workspace, c: &ControllerEntry) -> Value {
    json!({
        "name": c.name, "path_id": c.at.path_id, "file": ws.files[c.at.file].location(),
        "clips": c.clips.iter().map(|&r| clip_name(ws, r)).collect::<Vec<_>>(),
        "unresolved_clips": c.unresolved_clips,
    })
}

/// A file's row.
fn file_json(f: &LoadedFile) -> Value {
    json!({
        "file": f.location(), "container": f.kind.name(),
        "format": f.summary.as_ref().map(|s| s.format),
        "unity_version": f.summary.as_ref().map(|s| s.effective_version.to_string()),
        "unity_version_written": f.summary.as_ref().map(|s| &s.unity_version),
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
                MeshSource::Loaded(at) => ws.mesh(*at).map(|m| m.name.clone()),
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

fn print_avatars(ws: &Workspace) {
    println!("Avatars ({})", ws.avatars.len());
    for a in &ws.avatars {
        let file = ws.files[a.at.file].location();
        match a.data.as_deref() {
            Some(d) => println!(
                "  {:<24} {:>20} {:<9} {:>4} nodes {:>3} human bones  scale {:.4}  {file}",
                a.name,
                a.at.path_id,
                if d.is_human() { "humanoid" } else { "generic" },
                d.skeleton.nodes.len(),
                d.mapped_bones().count(),
                d.human.scale,
            ),
            None => println!("  {:<24} {:>20} not decoded  {file}", a.name, a.at.path_id),
        }
    }
}

/// A mesh's row.
fn mesh_json(ws: &Workspace, m: &MeshEntry) -> Value {
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
fn texture_json(ws: &Workspace, t: &TextureEntry) -> Value {
    json!({
        "name": t.name, "path_id": t.at.path_id, "file": ws.files[t.at.file].location(),
        "format": t.format, "width": t.width, "height": t.height,
        "decoded": t.error.is_none(), "error": t.error,
    })
}

fn print_meshes_and_textures(ws: &Workspace) {
    println!("Meshes ({})", ws.meshes.len());
    for m in &ws.meshes {
        let file = ws.files[m.at.file].location();
        match &m.facts {
            Ok(f) => println!(
                "  {:<24} {:>20} {:>7} vertices {:>3} submeshes {:>3} bones {:>3} blend shapes{}  {file}",
                m.name,
                m.at.path_id,
                f.vertices,
                f.submeshes.len(),
                f.bones,
                f.blend_shapes,
                if f.skinned { " skinned" } else { "" },
            ),
            Err(e) => println!("  {:<24} {:>20} error: {e}", m.name, m.at.path_id),
        }
    }
    println!("Textures ({})", ws.textures.len());
    for t in &ws.textures {
        println!(
            "  {:<24} {:>20} {:>5}x{:<5} {:<10} {}  {}",
            t.name,
            t.at.path_id,
            t.width,
            t.height,
            clipscope_core::texture::format_name(t.format),
            t.error
                .as_deref()
                .map_or("decoded".to_string(), |e| format!("not decoded: {e}")),
            ws.files[t.at.file].location()
        );
    }
}

fn print_table(ws: &Workspace) {
    println!("Clips ({})", ws.clips.len());
    println!(
        "  {:<24} {:>20} {:<8} {:>5} {:>5} {:>5} {:>5} {:>8} {:>8} {:>6} {:<8}  file",
        "name", "path id", "kind", "str", "dense", "const", "bind", "start", "stop", "rate", "wrap"
    );
    for c in &ws.clips {
        let file = ws.files[c.at.file].location();
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
                println!(
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
                    println!("      warning: {w}");
                }
            }
            Err(e) => println!("  {:<24} {:>20} error: {e}", c.name, c.at.path_id),
        }
    }
    println!("Rigs ({})", ws.rigs.len());
    for r in &ws.rigs {
        let clips: Vec<String> = r.clips.iter().map(|&c| clip_name(ws, c)).collect();
        let humanoid = match (&r.humanoid, &r.humanoid_error) {
            (Some(_), _) => " humanoid".to_string(),
            (None, Some(e)) => format!(" not humanoid ({e})"),
            (None, None) => String::new(),
        };
        println!(
            "  {:<24} {:<9}{humanoid} {:>4} joints  clips: [{}]{}  {}",
            r.name,
            component_name(r.component),
            r.skeleton.joints.len(),
            clips.join(", "),
            if r.unresolved_clips > 0 {
                format!(" (+{} in files not loaded)", r.unresolved_clips)
            } else {
                String::new()
            },
            ws.files[r.at.file].location()
        );
    }
    print_avatars(ws);
    println!("Controllers ({})", ws.controllers.len());
    for c in &ws.controllers {
        let clips: Vec<String> = c.clips.iter().map(|&r| clip_name(ws, r)).collect();
        println!(
            "  {:<24} clips: [{}]  {}",
            c.name,
            clips.join(", "),
            ws.files[c.at.file].location()
        );
    }
    print_meshes_and_textures(ws);
}
