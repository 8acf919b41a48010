//! `clipscope list`: every clip, rig and controller, as a table or JSON.

mod format;
mod json;
mod rows;
mod table;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::{Inputs, report_problems};
use json::write_json;
use rows::{ListRows, Listing};
use table::print_table;

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
    // and a small index of the rest. Each clip's, mesh's and texture's row is written out as
    // its file is read (a whole game's clips and textures are the largest part of that
    // index), and the workspace lets go of them, keeping the names rigs name them by.
    let mut rows = ListRows::new(args.json);
    let ws = args
        .inputs
        .open_listing(&args.paths, |ws, _, added| rows.add(ws, added));
    let listing = match rows.finish() {
        Ok(rows) => Listing { ws: &ws, rows },
        Err(e) => {
            eprintln!(
                "error: keeping the rows of clips, meshes and textures in scratch files: {e}"
            );
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

#[cfg(test)]
mod tests {
    use super::rows::Rows;
    use super::*;
    use clipscope_core::Workspace;
    use serde_json::Value;

    /// The list of `path` as `list` prints it, the rows of its clips, meshes and textures
    /// written out while the files are read (`written`) or made from what the workspace
    /// keeps.
    fn printed(path: &std::path::Path, json: bool, written: bool) -> Vec<u8> {
        let options = clipscope_core::OpenOptions {
            detail: clipscope_core::Detail::List,
            ..Default::default()
        };
        let mut rows = ListRows::new(json);
        if !written {
            rows.sections = None;
        }
        let paths = [path.to_path_buf()];
        let ws = Workspace::open_listing(
            &paths,
            &options,
            |_, _, _| {},
            |ws, _, added| rows.add(ws, added),
        );
        if written {
            // The workspace let go of the binary files' clips, meshes and textures.
            let yaml = clipscope_core::container::ContainerKind::Yaml;
            let text = |at: clipscope_core::workspace::ObjectRef| ws.files[at.file].kind == yaml;
            assert!(ws.clips.iter().all(|c| text(c.at)));
            assert!(ws.meshes.iter().all(|m| text(m.at)));
            assert!(ws.textures.iter().all(|t| text(t.at)));
        }
        let rows = rows.finish().expect("the rows read back");
        assert_eq!(matches!(rows, Rows::Written(_)), written);
        let listing = Listing { ws: &ws, rows };
        let mut out = Vec::new();
        if json {
            write_json(&listing, &mut out).unwrap();
        } else {
            print_table(&listing, &mut out).unwrap();
        }
        out
    }

    /// Writing each clip's, mesh's and texture's row out as its file is read, and letting
    /// the workspace drop them, prints the same bytes as keeping them all to the end, in
    /// JSON and as a table, on every shared file: binary and text files, rigs naming clips
    /// and meshes of other files, controllers and errors.
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
        // And its renderers their meshes; meshes and textures have their rows.
        let meshes = doc["meshes"].as_array().expect("meshes");
        let textures = doc["textures"].as_array().expect("textures");
        assert!(
            meshes.len() >= 3 && textures.len() >= 3,
            "{meshes:?} {textures:?}"
        );
        let renderers = doc["rigs"].as_array().unwrap().iter();
        let mesh_names: Vec<&Value> = renderers
            .flat_map(|r| r["renderers"].as_array().unwrap())
            .map(|r| &r["mesh"])
            .filter(|m| m.is_string())
            .collect();
        assert!(!mesh_names.is_empty(), "renderers name their meshes");
        for name in mesh_names {
            assert!(meshes.iter().any(|m| &m["name"] == name), "{name}");
        }
    }
}
