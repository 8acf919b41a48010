//! `clipscope unity`: built clips back into Unity's text `.anim` files, controllers into
//! `.controller` files with their `.mask` files and override controllers into
//! `.overrideController` files (each with a `.meta`), exactly, with a report of how exact
//! each file is.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{Context, Result};
use clipscope_core::Detail;
use clipscope_core::workspace::{Listed, ObjectRef, Spill, Workspace};
use clipscope_core::yaml_write::file_name::safe_file_name;
use clipscope_core::yaml_write::guid::{write_owned_with_meta, write_with_meta};
use clipscope_core::yaml_write::{
    ANIM_FILE_ID, AnimText, Measure, NameBook, WriteOptions, write_anim_of,
};
use serde_json::json;

use super::parse_unity_version;
use controllers::{Made, make_controller, save_controller, save_override, with_bases};
use layout::Layout;
use names::{UniqueNames, numbered};

mod controllers;
mod layout;
mod names;

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
    /// --controller: every clip and every controller.
    #[arg(long = "clip", value_name = "NAME")]
    clips: Vec<String>,
    /// An AnimatorController to write, by name (repeatable), with the clips it plays and its
    /// layers' masks; an AnimatorOverrideController is written as an `.overrideController`
    /// with its base controller and the clips it replaces. Without --clip and --controller:
    /// every controller and every clip.
    #[arg(long = "controller", value_name = "NAME")]
    controllers: Vec<String>,
    /// Also write the report (per clip: curves, keys in and out, measured max_error,
    /// unresolved paths and attributes, what was dropped; per controller: states,
    /// transitions, blend trees and masks written, names not found) as JSON.
    #[arg(long, value_name = "REPORT.json")]
    report: Option<PathBuf>,
    /// The Unity version whose serialized layout is written (2019.4 to 6000); default: the
    /// source's version when it is 2019.4 or newer, else 2019.4.
    #[arg(long, value_name = "X", value_parser = parse_unity_version)]
    unity_version: Option<String>,
    /// Unity version to assume for source files whose version string is stripped.
    #[arg(long, value_name = "VERSION", value_parser = parse_unity_version)]
    assume_version: Option<String>,
    /// Measure each clip's error by reading its written text back through clipscope's YAML
    /// reader (several times slower); by default the keys as written are measured against
    /// the built curves before they become text.
    #[arg(long, conflicts_with = "no_measure")]
    read_back: bool,
    /// Do not measure the written clips' error (`max_error` is then null).
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
    // An index of every file (names, references, each clip's facts); the clips are
    // decoded again file by file as they are written, so memory follows the largest file.
    // The LZMA containers' decompressed clip files wait for that second reading (LZMA is
    // the slowest step of either) in a file made in the output folder and unlinked at once.
    std::fs::create_dir_all(&args.output)
        .with_context(|| format!("making {}", args.output.display()))?;
    let spill = match Spill::new_in(&args.output) {
        Ok(spill) => Some(Arc::new(spill)),
        Err(e) => {
            eprintln!(
                "warning: {}: cannot keep decompressed files there ({e}); LZMA containers will be decompressed twice",
                args.output.display()
            );
            None
        }
    };
    let options = clipscope_core::OpenOptions {
        unity_version: args.assume_version.clone(),
        detail: Detail::Index,
        spill,
        // A whole game's controllers' state machines are decoded again as each is written.
        outline_controllers: true,
        // Of the scene, only the names that the clips' hashes are looked up by.
        scene_as_names: true,
    };
    // Each clip is decoded again as it is written: the index keeps of it only what references
    // to it need (its name, times and looping), not its facts (a whole game's clips are
    // the largest part of its index).
    let mut ws = super::progress::open_listing(&args.paths, &options, |_, _, _| Listed::LetGo);
    for w in &ws.warnings {
        eprintln!("warning: {w}");
    }
    let mut problems: Vec<String> = ws.errors.iter().map(|e| e.to_string()).collect();
    for p in &problems {
        eprintln!("error: {p}");
    }
    let (clips, controllers) = select(&ws, args, &mut problems);
    let layout = Layout::new(&args.output, &args.paths);
    let mut folders = UniqueNames::default();
    let mut controller_reports = Vec::new();
    // A clip a written controller plays goes beside it (the first such controller), so the
    // controller's references resolve in the folder it lies in; each clip is written once.
    // The folder is held once per controller, shared by its clips.
    let mut clip_folder: HashMap<ObjectRef, Arc<Path>> = HashMap::new();
    let mut selected: BTreeSet<ObjectRef> = clips.into_iter().collect();
    let order = with_bases(&ws, controllers);
    // Each controller's text is made on every core, its state machines decoded again from
    // its file; they are saved here in order, so that their files' names do not depend on
    // which thread finishes first.
    let made = |i: usize, model| make_controller(&ws, order[i], model);
    ws.each_controller_in_order(&order, &options, made, |i, made| {
        let at = ws.controllers[order[i]].at;
        let result = made.and_then(|text| match text {
            Made::Override(o) => save_override(&ws, &layout, at, o, &mut folders),
            Made::Controller(c) => save_controller(&ws, &layout, at, c, &mut folders),
        });
        match result {
            Ok((report, dir, played)) => {
                // Kept only for the report file: a whole game has thousands.
                if args.report.is_some() {
                    controller_reports.push(report);
                }
                let dir: Arc<Path> = Arc::from(dir);
                for clip in played {
                    clip_folder.entry(clip).or_insert_with(|| Arc::clone(&dir));
                    selected.insert(clip);
                }
            }
            Err(e) => {
                eprintln!("error: {e}");
                problems.push(e);
            }
        }
    });
    let write_options = WriteOptions {
        unity_version: args.unity_version.as_deref().and_then(|v| v.parse().ok()),
        measure: if args.no_measure {
            Measure::Skip
        } else if args.read_back {
            Measure::ReadBack
        } else {
            Measure::Keys
        },
    };
    let names = NameBook::build(&ws);
    keep_what_clips_need(&mut ws);
    // Each clip's file name is claimed here, in order, so names do not depend on which
    // thread finishes first; it is kept as its number, and spelled when the clip is written.
    let places: Vec<Place> = selected
        .into_iter()
        .map(|at| {
            let beside = clip_folder.get(&at).map(Arc::clone);
            let stem = clip_stem(&ws, at);
            let number = match &beside {
                Some(dir) => folders.claim_number(dir, &stem, "anim"),
                None => folders.claim_number(&source_folder(&ws, &layout, at), &stem, "anim"),
            };
            (at, beside, number)
        })
        .collect();
    let keep = args.report.is_some();
    let (reports, failed) = write_clips(
        &ws,
        &layout,
        &names,
        &places,
        &options,
        &write_options,
        keep,
    );
    problems.extend(failed);
    if let Some(path) = &args.report {
        let doc =
            json!({ "clips": reports, "controllers": controller_reports, "errors": problems });
        let text = serde_json::to_string_pretty(&doc)?;
        std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(problems.is_empty())
}

/// The clips and controllers (indices into the workspace's) asked for: by name, or all
/// of both when neither `--clip` nor `--controller` is given; names that name nothing are
/// problems listing what there is.
fn select(
    ws: &Workspace,
    args: &UnityArgs,
    problems: &mut Vec<String>,
) -> (Vec<ObjectRef>, Vec<usize>) {
    let all = ws.clip_refs();
    if args.clips.is_empty() && args.controllers.is_empty() {
        return (all, (0..ws.controllers.len()).collect());
    }
    let name_of = |at: &ObjectRef| ws.clip_name(*at).unwrap_or_default();
    let mut out = BTreeSet::new();
    for name in &args.clips {
        let found: Vec<ObjectRef> = all
            .iter()
            .filter(|at| name_of(at) == name)
            .copied()
            .collect();
        if found.is_empty() {
            let there: Vec<&str> = all.iter().map(name_of).collect();
            let p = format!("no clip named {name:?}; clips there: {}", there.join(", "));
            eprintln!("error: {p}");
            problems.push(p);
        }
        out.extend(found);
    }
    let mut controllers = BTreeSet::new();
    for name in &args.controllers {
        let found: Vec<usize> = (0..ws.controllers.len())
            .filter(|&i| &ws.controllers[i].name == name)
            .collect();
        if found.is_empty() {
            let there: Vec<&str> = ws.controllers.iter().map(|c| c.name.as_str()).collect();
            let p = format!(
                "no controller named {name:?}; controllers there: {}",
                there.join(", ")
            );
            eprintln!("error: {p}");
            problems.push(p);
        }
        controllers.extend(found);
    }
    (out.into_iter().collect(), controllers.into_iter().collect())
}

/// Lets go of what writing the clips does not need of the index, before their text is
/// made: the rigs', avatars', meshes', materials' and behaviours' names are in the
/// [`NameBook`] and the controllers are written. Kept: the files, which references resolve
/// through, the clips' names, and the scripts, which script curves name by guid.
fn keep_what_clips_need(ws: &mut Workspace) {
    ws.rigs = Vec::new();
    ws.controllers = Vec::new();
    ws.avatars = Vec::new();
    ws.meshes = Vec::new();
    ws.textures = Vec::new();
    ws.materials = Vec::new();
    ws.sprites = Vec::new();
    ws.behaviours = Vec::new();
    ws.scene_names = Default::default();
}

/// The folder the object at `at` is written into: its source file's (see [`Layout`]).
fn source_folder(ws: &Workspace, layout: &Layout, at: ObjectRef) -> PathBuf {
    match ws.files.get(at.file) {
        Some(file) => layout.folder(&file.source),
        None => layout.folder(Path::new("source")),
    }
}

/// Writes `text` to `dir/<stem>.<ext>` (the stem made unique there) with its `.meta`; the
/// path written.
fn write_asset(
    dir: &Path,
    name: &str,
    ext: &str,
    text: &str,
    guid: &str,
    main_file_id: i64,
    folders: &mut UniqueNames,
) -> Result<PathBuf, String> {
    let stem = folders.claim(dir, &safe_file_name(name), ext);
    write_file(dir, &stem, ext, text, guid, main_file_id)
}

/// Writes `text` to `dir/<stem>.<ext>` with its `.meta`; the path written.
fn write_file(
    dir: &Path,
    stem: &str,
    ext: &str,
    text: &str,
    guid: &str,
    main_file_id: i64,
) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    write_with_meta(dir, stem, ext, text, guid, main_file_id).map_err(|e| e.to_string())
}

/// Where a clip is written: the folder of the controller it goes beside, if any (else its
/// source file's, worked out as it is written: a whole game has tens of thousands of
/// folders), and the number its file name was given (0 for none, see
/// [`UniqueNames::claim_number`]).
type Place = (ObjectRef, Option<Arc<Path>>, usize);

/// A clip's file name before any number: its name made safe.
fn clip_stem(ws: &Workspace, at: ObjectRef) -> String {
    safe_file_name(ws.clip_name(at).unwrap_or("clip"))
}

/// Writes every clip of `places` on every core and a thread more, one file on disk at a
/// time per thread: its clips decoded again, written and dropped. The clips' reports (none
/// unless `keep_reports`: a whole game's reports need not wait in memory for a report file
/// no one asked for) and the problems, in `places`' order.
fn write_clips(
    ws: &Workspace,
    layout: &Layout,
    names: &NameBook,
    places: &[Place],
    open: &clipscope_core::OpenOptions,
    options: &WriteOptions,
    keep_reports: bool,
) -> (Vec<serde_json::Value>, Vec<String>) {
    let bar = super::progress::work(places.len(), "clips");
    let bytes = AtomicU64::new(0);
    let ats: Vec<ObjectRef> = places.iter().map(|(at, _, _)| *at).collect();
    let (mut reports, mut problems) = (Vec::new(), Vec::new());
    let write = |i: usize, clip: &clipscope_core::workspace::ClipEntry| {
        let (at, beside, number) = &places[i];
        let stem = numbered(&clip_stem(ws, *at), *number);
        let dir = match beside {
            Some(dir) => dir.to_path_buf(),
            None => source_folder(ws, layout, *at),
        };
        let result = clip
            .data
            .as_ref()
            .map_err(|e| e.to_string())
            .and_then(|c| write_anim_of(ws, names, *at, c, options).map_err(|e| e.to_string()))
            .and_then(|anim| {
                let size = anim.text.len() as u64;
                let report = save(&dir, &stem, anim, &bar);
                let total = bytes.fetch_add(size, Ordering::Relaxed) + size;
                bar.set_message(format!("{:.1} MB written", total as f64 / 1e6));
                report.map(|r| keep_reports.then_some(r))
            });
        if let Err(e) = &result {
            bar.suspend(|| eprintln!("error: {e}"));
        }
        bar.inc(1);
        result
    };
    // A thread writing a large file waits for the disk about a third of its time (its
    // whole blocks go past the page cache): one thread more than the cores keeps them busy
    // (on 2 cores, 300 copies of the shared files: 9.5 s with 2 threads, 9.0 s with 3). Each
    // thread holds its file's clips: a fourth was about as much faster again, but held
    // another 7.5 MB (8 copies: 28, 36 and 43 MB with 2, 3 and 4 threads).
    let threads = rayon::current_num_threads() + 1;
    ws.each_clip_in_order_on(threads, &ats, open, write, |_, result| match result {
        Ok(report) => reports.extend(report),
        Err(e) => problems.push(e),
    });
    bar.finish_and_clear();
    (reports, problems)
}

/// Writes one `.anim` and its `.meta` as `dir/<stem>.anim`, printing its line; the report
/// with `written` set.
fn save(
    dir: &Path,
    stem: &str,
    anim: AnimText,
    bar: &indicatif::ProgressBar,
) -> Result<serde_json::Value, String> {
    let AnimText {
        text, guid, report, ..
    } = anim;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = write_owned_with_meta(dir, stem, "anim", text, &guid, ANIM_FILE_ID)
        .map_err(|e| e.to_string())?;
    let mut report = report;
    report.written = Some(path.display().to_string());
    bar.suspend(|| {
        println!("{}", console_line(&report));
        if let Some(e) = &report.measure_error {
            eprintln!("warning: {}: not measured: {e}", path.display());
        }
    });
    serde_json::to_value(&report).map_err(|e| e.to_string())
}

/// `wrote PATH: N curves, K keys (from J), max error E[, U unresolved paths][, scripts …]`.
fn console_line(r: &clipscope_core::yaml_write::ClipReport) -> String {
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
    if !r.scripts.is_empty() {
        let classes: Vec<&str> = r.scripts.iter().map(|s| s.class.as_str()).collect();
        line.push_str(&format!(
            ", scripts {} (point their guids at your scripts)",
            classes.join(", ")
        ));
    }
    line
}
