//! `clipscope unity`: built clips back into Unity's text `.anim` files (with `.meta` files),
//! exactly, with a report of how exact each file is.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clipscope::workspace::{ObjectRef, Workspace};
use clipscope::yaml_write::file_name::safe_file_name;
use clipscope::yaml_write::guid::meta_text;
use clipscope::yaml_write::{ANIM_FILE_ID, AnimText, NameBook, WriteOptions, write_anim};
use rayon::prelude::*;
use serde_json::json;

use super::parse_unity_version;

// Arguments of `clipscope unity`; its help is the command's doc comment in `cli/mod.rs`.
#[derive(clap::Args)]
pub struct UnityArgs {
    /// Unity files or folders (a game's *_Data folder, bundles, .anim files).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// The folder to write into (made when missing).
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    output: PathBuf,
    /// A clip to write, by name (repeatable; every clip of that name). Without --clip and
    /// --controller: every clip.
    #[arg(long = "clip", value_name = "NAME")]
    clips: Vec<String>,
    /// Write the clips an AnimatorController plays, by controller name (repeatable). The
    /// .controller and .mask files themselves are not written yet.
    #[arg(long = "controller", value_name = "NAME")]
    controllers: Vec<String>,
    /// Also write the report (per clip: curves, keys in and out, measured max_error,
    /// unresolved paths and attributes, what was dropped) as JSON.
    #[arg(long, value_name = "REPORT.json")]
    report: Option<PathBuf>,
    /// The Unity version whose serialized layout is written (2019.4 to 6000); default: the
    /// source's version when it is 2019.4 or newer, else 2019.4.
    #[arg(long, value_name = "X", value_parser = parse_unity_version)]
    unity_version: Option<String>,
    /// Unity version to assume for source files whose version string is stripped.
    #[arg(long, value_name = "VERSION", value_parser = parse_unity_version)]
    assume_version: Option<String>,
    /// Skip reading each written file back to measure its error (faster).
    #[arg(long)]
    no_measure: bool,
}

pub fn run(args: &UnityArgs) -> ExitCode {
    match run_inner(args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}

/// Writes what was asked; `Ok(false)` when some asked-for file was not written.
fn run_inner(args: &UnityArgs) -> Result<bool> {
    let options = clipscope::OpenOptions {
        unity_version: args.assume_version.clone(),
        summaries: false,
    };
    let ws = super::progress::open(&args.paths, &options);
    for w in &ws.warnings {
        eprintln!("warning: {w}");
    }
    let mut problems: Vec<String> = ws.errors.iter().map(|e| e.to_string()).collect();
    for p in &problems {
        eprintln!("error: {p}");
    }
    let selected = select(&ws, args, &mut problems);
    let write_options = WriteOptions {
        unity_version: args.unity_version.as_deref().and_then(|v| v.parse().ok()),
        skip_measure: args.no_measure,
    };
    let names = NameBook::build(&ws);
    let written: Vec<(ObjectRef, Result<AnimText, String>)> = selected
        .par_iter()
        .map(|&at| {
            let r = write_anim(&ws, &names, at, &write_options).map_err(|e| e.to_string());
            (at, r)
        })
        .collect();
    let mut folders = UniqueNames::default();
    let mut reports = Vec::new();
    for (at, result) in written {
        match result.and_then(|anim| save(&ws, &args.output, at, anim, &mut folders)) {
            Ok(report) => reports.push(report),
            Err(e) => {
                eprintln!("error: {e}");
                problems.push(e);
            }
        }
    }
    if let Some(path) = &args.report {
        let doc = json!({ "clips": reports, "controllers": [], "errors": problems });
        let text = serde_json::to_string_pretty(&doc)?;
        std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(problems.is_empty())
}

/// The clips asked for: by name, by controller, or all; names that name nothing are
/// problems listing what there is.
fn select(ws: &Workspace, args: &UnityArgs, problems: &mut Vec<String>) -> Vec<ObjectRef> {
    if args.clips.is_empty() && args.controllers.is_empty() {
        return ws.clips.iter().map(|c| c.at).collect();
    }
    let mut out = BTreeSet::new();
    for name in &args.clips {
        let found: Vec<ObjectRef> = ws
            .clips
            .iter()
            .filter(|c| &c.name == name)
            .map(|c| c.at)
            .collect();
        if found.is_empty() {
            let there: Vec<&str> = ws.clips.iter().map(|c| c.name.as_str()).collect();
            let p = format!("no clip named {name:?}; clips there: {}", there.join(", "));
            eprintln!("error: {p}");
            problems.push(p);
        }
        out.extend(found);
    }
    for name in &args.controllers {
        let found: Vec<_> = ws.controllers.iter().filter(|c| &c.name == name).collect();
        if found.is_empty() {
            let there: Vec<&str> = ws.controllers.iter().map(|c| c.name.as_str()).collect();
            let p = format!(
                "no controller named {name:?}; controllers there: {}",
                there.join(", ")
            );
            eprintln!("error: {p}");
            problems.push(p);
        }
        for c in found {
            out.extend(c.clips.iter().copied());
        }
    }
    out.into_iter().collect()
}

/// Writes one `.anim` and its `.meta`, printing its line; the report with `written` set.
fn save(
    ws: &Workspace,
    output: &Path,
    at: ObjectRef,
    anim: AnimText,
    folders: &mut UniqueNames,
) -> Result<serde_json::Value, String> {
    let file = &ws.files[at.file];
    let folder_name = file
        .source
        .file_name()
        .map(|n| safe_file_name(&n.to_string_lossy()))
        .unwrap_or_else(|| "source".into());
    let dir = output.join(folder_name);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let stem = folders.claim(&dir, &safe_file_name(&anim.name));
    let path = dir.join(format!("{stem}.anim"));
    std::fs::write(&path, &anim.text).map_err(|e| format!("{}: {e}", path.display()))?;
    let meta = dir.join(format!("{stem}.anim.meta"));
    std::fs::write(&meta, meta_text(&anim.guid, ANIM_FILE_ID))
        .map_err(|e| format!("{}: {e}", meta.display()))?;
    let mut report = anim.report;
    report.written = Some(path.display().to_string());
    println!("{}", console_line(&report));
    if let Some(e) = &report.measure_error {
        eprintln!("warning: {}: not measured: {e}", path.display());
    }
    serde_json::to_value(&report).map_err(|e| e.to_string())
}

/// `wrote PATH: N curves, K keys (from J), max error E[, U unresolved paths]`.
fn console_line(r: &clipscope::yaml_write::ClipReport) -> String {
    let mut line = format!(
        "wrote {}: {} curves, {} keys (from {}), max error {}",
        r.written.as_deref().unwrap_or(""),
        r.curves,
        r.keys_out,
        r.keys_in,
        r.max_error
            .map_or_else(|| "not measured".to_string(), |e| format!("{e:.3e}"))
    );
    if !r.unresolved_paths.is_empty() {
        line.push_str(&format!(", {} unresolved paths", r.unresolved_paths.len()));
    }
    if !r.unresolved_attributes.is_empty() {
        line.push_str(&format!(
            ", {} unresolved attributes",
            r.unresolved_attributes.len()
        ));
    }
    if !r.dropped.is_empty() {
        line.push_str(&format!(", {} notes on what was dropped", r.dropped.len()));
    }
    line
}

/// Names taken in each folder, case-insensitively (as on Windows and macOS).
#[derive(Default)]
struct UniqueNames {
    taken: HashMap<PathBuf, HashSet<String>>,
}

impl UniqueNames {
    /// `name`, or `name 1`, `name 2`, … where it is taken in `dir`.
    fn claim(&mut self, dir: &Path, name: &str) -> String {
        let taken = self.taken.entry(dir.to_path_buf()).or_default();
        let mut candidate = name.to_string();
        let mut n = 0;
        while !taken.insert(candidate.to_lowercase()) {
            n += 1;
            candidate = format!("{name} {n}");
        }
        candidate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_made_unique_and_safe() {
        let mut names = UniqueNames::default();
        let dir = Path::new("out/a");
        assert_eq!(names.claim(dir, "Idle"), "Idle");
        assert_eq!(names.claim(dir, "idle"), "idle 1");
        assert_eq!(names.claim(dir, "Idle"), "Idle 2");
        assert_eq!(names.claim(Path::new("out/b"), "Idle"), "Idle");
        assert_eq!(safe_file_name("a/b:c?"), "a_b_c_");
        assert_eq!(safe_file_name(".."), "clip");
        assert_eq!(safe_file_name(""), "clip");
    }
}
