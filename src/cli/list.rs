//! `clipscope list`: every clip, rig and controller, as a table or JSON.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clipscope_core::Workspace;
use clipscope_core::rig::RigComponent;
use clipscope_core::workspace::{
    AvatarEntry, ClipEntry, ControllerEntry, Listed, LoadedFile, MeshEntry, MeshSource, ObjectRef,
    RendererKind, RigEntry, TextureEntry,
};
use serde::ser::{Serialize, Serializer};
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
    // and a small index of the rest. Each clip's row is written out as its file is read
    // (a whole game's clips are the largest part of that index), and the workspace lets go
    // of the clip.
    let mut rows = ClipRows::new(args.json);
    let ws = args
        .inputs
        .open_listing(&args.paths, |ws, _, clips| rows.add(ws, clips));
    let listing = match rows.finish() {
        Ok(clips) => Listing { ws: &ws, clips },
        Err(e) => {
            eprintln!("error: keeping the clips' rows in a scratch file: {e}");
            return ExitCode::from(1);
        }
    };
    let written = if args.json {
        write_json(&listing, std::io::stdout().lock())
    } else {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        print_table(&listing, &mut out).and_then(|()| out.flush())
    };
    if let Err(e) = written {
        eprintln!("error: writing the list: {e}");
        return ExitCode::from(1);
    }
    report_problems(&ws)
}

/// The clips' rows as they are written out while the files are read: each row (as the JSON
/// document or the table places it) in a scratch file on disk, and each clip's name,
/// which the rigs' and controllers' rows name their clips by. Without a scratch file (none
/// can be made) the workspace keeps its clips and the rows are made from them at the end.
struct ClipRows {
    json: bool,
    file: Option<std::io::BufWriter<std::fs::File>>,
    /// The first error writing the scratch file: the list is not printed.
    error: Option<std::io::Error>,
    count: usize,
    names: Vec<(ObjectRef, Box<str>)>,
}

impl ClipRows {
    fn new(json: bool) -> ClipRows {
        let file = match clipscope_core::workspace::scratch_file() {
            Ok(file) => Some(std::io::BufWriter::new(file)),
            Err(e) => {
                eprintln!(
                    "warning: no scratch file for the clips' rows ({e}); they are held in memory"
                );
                None
            }
        };
        ClipRows {
            json,
            file,
            error: None,
            count: 0,
            names: Vec::new(),
        }
    }

    /// Writes the rows of a file's `clips` out; whether the workspace keeps them.
    fn add(&mut self, ws: &Workspace, clips: &[ClipEntry]) -> Listed {
        let Some(file) = &mut self.file else {
            return Listed::Kept;
        };
        // Grown by an eighth, not doubled: a whole game's names are most of what is held.
        let more = clips.len().max(self.names.len() / 8);
        if self.names.capacity() - self.names.len() < clips.len() {
            self.names.reserve_exact(more);
        }
        for c in clips {
            let written = if self.json {
                // An element of the clips' array, as `write_json` places it: after a comma
                // and a line but the first, at the third level of the document.
                let sep: &[u8] = if self.count == 0 { b"    " } else { b",\n    " };
                file.write_all(sep).and_then(|()| {
                    let row = Indented(Indented(&mut *file));
                    serde_json::to_writer_pretty(row, &clip_json(ws, c))
                        .map_err(std::io::Error::other)
                })
            } else {
                file.write_all(clip_lines(ws, c).as_bytes())
            };
            if let Err(e) = written {
                self.error.get_or_insert(e);
            }
            self.names.push((c.at, c.name.as_str().into()));
            self.count += 1;
        }
        Listed::LetGo
    }

    /// The rows, to be read back in order.
    fn finish(mut self) -> std::io::Result<Clips> {
        use std::io::Seek;
        if let Some(e) = self.error {
            return Err(e);
        }
        let Some(file) = self.file else {
            return Ok(Clips::Kept);
        };
        let mut file = file.into_inner().map_err(|e| e.into_error())?;
        file.rewind()?;
        self.names.sort_unstable_by_key(|(at, _)| *at);
        Ok(Clips::Written {
            rows: std::cell::RefCell::new(std::io::BufReader::new(file)),
            count: self.count,
            names: self.names,
        })
    }
}

/// Where the clips' rows are.
enum Clips {
    /// In a scratch file, `count` of them, with every clip's name by its reference.
    Written {
        rows: std::cell::RefCell<std::io::BufReader<std::fs::File>>,
        count: usize,
        names: Vec<(ObjectRef, Box<str>)>,
    },
    /// In the workspace.
    Kept,
}

/// A workspace opened for a list, and its clips' rows.
struct Listing<'a> {
    ws: &'a Workspace,
    clips: Clips,
}

impl Listing<'_> {
    /// The name of the clip at `at`; `#<path id>` where it is not loaded.
    fn clip_name(&self, at: ObjectRef) -> String {
        let name = match &self.clips {
            Clips::Written { names, .. } => names
                .binary_search_by_key(&at, |(at, _)| *at)
                .ok()
                .map(|i| names[i].1.to_string()),
            Clips::Kept => self.ws.clip(at).map(|c| c.name.clone()),
        };
        name.unwrap_or_else(|| format!("#{}", at.path_id))
    }

    /// How many clips there are.
    fn clip_count(&self) -> usize {
        match &self.clips {
            Clips::Written { count, .. } => *count,
            Clips::Kept => self.ws.clips.len(),
        }
    }
}

fn component_name(c: RigComponent) -> &'static str {
    match c {
        RigComponent::Animator => "Animator",
        RigComponent::Animation => "Animation",
    }
}

/// Writes the list as pretty JSON to `out`: one object whose keys are in alphabetical
/// order (as `serde_json`'s maps print them), each section written as it is serialized: each
/// row is made, written and dropped in turn, and the clips' rows are copied from the scratch
/// file they were written to, so a game of 20,000 clips never holds its whole document.
fn write_json(listing: &Listing, out: impl Write) -> std::io::Result<()> {
    let ws = listing.ws;
    let mut out = std::io::BufWriter::new(out);
    out.write_all(b"{\n")?;
    section(
        &mut out,
        "avatars",
        &Rows(|| ws.avatars.iter().map(|a| avatar_json(ws, a))),
    )?;
    match &listing.clips {
        Clips::Written { rows, count, .. } => {
            out.write_all(b"  \"clips\": ")?;
            if *count == 0 {
                out.write_all(b"[]")?;
            } else {
                out.write_all(b"[\n")?;
                std::io::copy(&mut *rows.borrow_mut(), &mut out)?;
                out.write_all(b"\n  ]")?;
            }
            out.write_all(b",\n")?;
        }
        Clips::Kept => section(
            &mut out,
            "clips",
            &Rows(|| ws.clips.iter().map(|c| clip_json(ws, c))),
        )?,
    }
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
    section(
        &mut out,
        "meshes",
        &Rows(|| ws.meshes.iter().map(|m| mesh_json(ws, m))),
    )?;
    section(
        &mut out,
        "rigs",
        &Rows(|| ws.rigs.iter().map(|r| rig_json(listing, r))),
    )?;
    section(&mut out, "skipped_files", &ws.skipped_files)?;
    section(
        &mut out,
        "textures",
        &Rows(|| ws.textures.iter().map(|t| texture_json(ws, t))),
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

/// A writer that indents every line after the first by one level (two spaces): a value
/// printed pretty on its own, placed inside an object.
struct Indented<W>(W);

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

fn print_avatars(ws: &Workspace, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(out, "Avatars ({})", ws.avatars.len())?;
    for a in &ws.avatars {
        let file = ws.files[a.at.file].location();
        match a.data.as_deref() {
            Some(d) => writeln!(
                out,
                "  {:<24} {:>20} {:<9} {:>4} nodes {:>3} human bones  scale {:.4}  {file}",
                a.name,
                a.at.path_id,
                if d.is_human() { "humanoid" } else { "generic" },
                d.skeleton.nodes.len(),
                d.mapped_bones().count(),
                d.human.scale,
            )?,
            None => writeln!(
                out,
                "  {:<24} {:>20} not decoded  {file}",
                a.name, a.at.path_id
            )?,
        }
    }
    Ok(())
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

fn print_meshes_and_textures(ws: &Workspace, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(out, "Meshes ({})", ws.meshes.len())?;
    for m in &ws.meshes {
        let file = ws.files[m.at.file].location();
        match &m.facts {
            Ok(f) => writeln!(
                out,
                "  {:<24} {:>20} {:>7} vertices {:>3} submeshes {:>3} bones {:>3} blend shapes{}  {file}",
                m.name,
                m.at.path_id,
                f.vertices,
                f.submeshes.len(),
                f.bones,
                f.blend_shapes,
                if f.skinned { " skinned" } else { "" },
            )?,
            Err(e) => writeln!(out, "  {:<24} {:>20} error: {e}", m.name, m.at.path_id)?,
        }
    }
    writeln!(out, "Textures ({})", ws.textures.len())?;
    for t in &ws.textures {
        writeln!(
            out,
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
        )?;
    }
    Ok(())
}

/// A clip's lines in the table: its row and its warnings.
fn clip_lines(ws: &Workspace, c: &ClipEntry) -> String {
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

fn print_table(listing: &Listing, out: &mut impl Write) -> std::io::Result<()> {
    let ws = listing.ws;
    writeln!(out, "Clips ({})", listing.clip_count())?;
    writeln!(
        out,
        "  {:<24} {:>20} {:<8} {:>5} {:>5} {:>5} {:>5} {:>8} {:>8} {:>6} {:<8}  file",
        "name", "path id", "kind", "str", "dense", "const", "bind", "start", "stop", "rate", "wrap"
    )?;
    match &listing.clips {
        Clips::Written { rows, .. } => {
            std::io::copy(&mut *rows.borrow_mut(), out)?;
        }
        Clips::Kept => {
            for c in &ws.clips {
                out.write_all(clip_lines(ws, c).as_bytes())?;
            }
        }
    }
    writeln!(out, "Rigs ({})", ws.rigs.len())?;
    for r in &ws.rigs {
        let clips: Vec<String> = r.clips.iter().map(|&c| listing.clip_name(c)).collect();
        let humanoid = match (&r.humanoid, &r.humanoid_error) {
            (Some(_), _) => " humanoid".to_string(),
            (None, Some(e)) => format!(" not humanoid ({e})"),
            (None, None) => String::new(),
        };
        writeln!(
            out,
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
        )?;
    }
    print_avatars(ws, out)?;
    writeln!(out, "Controllers ({})", ws.controllers.len())?;
    for c in &ws.controllers {
        let clips: Vec<String> = c.clips.iter().map(|&r| listing.clip_name(r)).collect();
        writeln!(
            out,
            "  {:<24} clips: [{}]  {}",
            c.name,
            clips.join(", "),
            ws.files[c.at.file].location()
        )?;
    }
    print_meshes_and_textures(ws, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The list of `path` as `list` prints it, its clips' rows written out while the files
    /// are read (`written`) or made from the clips the workspace keeps.
    fn printed(path: &std::path::Path, json: bool, written: bool) -> Vec<u8> {
        let options = clipscope_core::OpenOptions {
            detail: clipscope_core::Detail::List,
            ..Default::default()
        };
        let mut rows = ClipRows::new(json);
        if !written {
            rows.file = None;
        }
        let paths = [path.to_path_buf()];
        let ws = Workspace::open_listing(
            &paths,
            &options,
            |_, _, _| {},
            |ws, _, clips| rows.add(ws, clips),
        );
        if written {
            // The workspace let go of the binary files' clips.
            let yaml = clipscope_core::container::ContainerKind::Yaml;
            assert!(ws.clips.iter().all(|c| ws.files[c.at.file].kind == yaml));
        }
        let clips = rows.finish().expect("the rows read back");
        assert_eq!(matches!(clips, Clips::Written { .. }), written);
        let listing = Listing { ws: &ws, clips };
        let mut out = Vec::new();
        if json {
            write_json(&listing, &mut out).unwrap();
        } else {
            print_table(&listing, &mut out).unwrap();
        }
        out
    }

    /// Writing each clip's row out as its file is read, and letting the workspace drop the
    /// clip, prints the same bytes as keeping every clip to the end, in JSON and as a table,
    /// on every shared file: binary and text files, rigs naming clips of other files,
    /// controllers and errors.
    #[test]
    fn rows_written_as_files_are_read_print_as_rows_kept_to_the_end() {
        let data = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data"));
        if !data.is_dir() {
            return;
        }
        for json in [true, false] {
            let (written, kept) = (printed(data, json, true), printed(data, json, false));
            assert_eq!(
                String::from_utf8_lossy(&written),
                String::from_utf8_lossy(&kept),
                "json: {json}"
            );
            assert!(written.len() > 10_000, "{}", written.len());
        }
        let doc: Value = serde_json::from_slice(&printed(data, true, true)).expect("JSON");
        let clips = doc["clips"].as_array().expect("clips");
        assert!(clips.len() >= 30, "{}", clips.len());
        // A rig names its clips, which the workspace no longer holds, by name.
        let named = doc["rigs"].as_array().expect("rigs").iter().any(|r| {
            r["clips"].as_array().is_some_and(|c| {
                !c.is_empty() && c.iter().all(|n| !n.as_str().unwrap().starts_with('#'))
            })
        });
        assert!(named, "a rig with its clips named");
    }
}
