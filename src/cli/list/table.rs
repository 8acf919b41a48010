//! `list`'s table.

use std::io::Write;

use clipscope_core::Workspace;

use super::format::{clip_lines, component_name, mesh_line, texture_line};
use super::rows::{Kind, Listing};

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

fn print_meshes_and_textures(listing: &Listing, out: &mut impl Write) -> std::io::Result<()> {
    let ws = listing.ws;
    writeln!(out, "Meshes ({})", listing.count(Kind::Meshes))?;
    print_rows(listing, Kind::Meshes, &ws.meshes, |m| mesh_line(ws, m), out)?;
    writeln!(out, "Textures ({})", listing.count(Kind::Textures))?;
    print_rows(
        listing,
        Kind::Textures,
        &ws.textures,
        |t| texture_line(ws, t),
        out,
    )
}

/// A section's rows: copied from the scratch file they were written to as the files were
/// read, or made from what the workspace kept.
fn print_rows<T>(
    listing: &Listing,
    kind: Kind,
    kept: &[T],
    line: impl Fn(&T) -> String,
    out: &mut impl Write,
) -> std::io::Result<()> {
    match listing.written(kind) {
        Some(written) => drop(written.copy_to(out)?),
        None => {
            for item in kept {
                out.write_all(line(item).as_bytes())?;
            }
        }
    }
    Ok(())
}

pub(super) fn print_table(listing: &Listing, out: &mut impl Write) -> std::io::Result<()> {
    let ws = listing.ws;
    writeln!(out, "Clips ({})", listing.count(Kind::Clips))?;
    writeln!(
        out,
        "  {:<24} {:>20} {:<8} {:>5} {:>5} {:>5} {:>5} {:>8} {:>8} {:>6} {:<8}  file",
        "name", "path id", "kind", "str", "dense", "const", "bind", "start", "stop", "rate", "wrap"
    )?;
    print_rows(listing, Kind::Clips, &ws.clips, |c| clip_lines(ws, c), out)?;
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
    print_meshes_and_textures(listing, out)
}
