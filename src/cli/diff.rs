//! `clipscope diff A B`: two clips compared curve by curve (see [`clipscope_core::diff`]).

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::process::ExitCode;

use clipscope_core::diff::{ClipDiff, comparison_times, diff_clips_at};
use clipscope_core::workspace::ClipEntry;
use clipscope_core::{ClipData, Workspace};
use serde::Serialize;

use super::{Inputs, find_clip};

/// Exit code with `--tolerance` when a curve differs by more or is missing on one side.
const EXIT_OVER_TOLERANCE: u8 = 3;

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("named").args(["clip", "clip_a"])))]
pub struct DiffArgs {
    /// File or folder holding the first clip (any input clipscope opens: a text .anim, a
    /// bundle, a game folder).
    a: PathBuf,
    /// File or folder holding the second clip.
    b: PathBuf,
    /// Compare the clip of this name on both sides (default: every name found on both sides).
    #[arg(long, conflicts_with_all = ["clip_a", "clip_b"])]
    clip: Option<String>,
    /// The clip to compare on A's side (with --clip-b, when the names differ).
    #[arg(long, requires = "clip_b")]
    clip_a: Option<String>,
    /// The clip to compare on B's side.
    #[arg(long, requires = "clip_a")]
    clip_b: Option<String>,
    /// Path id of A's clip, when several share the name.
    #[arg(long, allow_negative_numbers = true, requires = "named")]
    path_id_a: Option<i64>,
    /// Path id of B's clip, when several share the name.
    #[arg(long, allow_negative_numbers = true, requires = "named")]
    path_id_b: Option<i64>,
    /// Exit 3 when a matched curve differs by more than this, or a curve is missing on one
    /// side.
    #[arg(long, value_parser = parse_tolerance)]
    tolerance: Option<f64>,
    /// Comma-separated times in seconds to compare at (default: both clips' frames, the
    /// midpoints between them and every key time, over both clips' time ranges).
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
    times: Option<Vec<f64>>,
    /// Print JSON: one object for a named clip, else an array with one object per pair.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    inputs: Inputs,
}

fn parse_tolerance(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!("{text:?} is not a finite number >= 0")),
    }
}

/// One side of a compared pair, as `--json` names it.
#[derive(Serialize)]
struct Side {
    file: String,
    clip: String,
    path_id: i64,
}

/// One compared pair, as `--json` prints it.
#[derive(Serialize)]
struct PairReport {
    a: Side,
    b: Side,
    #[serde(flatten)]
    diff: ClipDiff,
}

/// The clips found on each side to compare.
struct Pair<'a> {
    a: &'a ClipEntry,
    b: &'a ClipEntry,
}

pub fn run(args: &DiffArgs) -> ExitCode {
    let wa = args.inputs.open(std::slice::from_ref(&args.a));
    let wb = args.inputs.open(std::slice::from_ref(&args.b));
    let pairs = match pairs(args, &wa, &wb) {
        Ok(pairs) => pairs,
        Err(code) => return code,
    };
    let names = PathNames::of(&[&wa, &wb]);
    let mut failed = false;
    let mut reports = Vec::new();
    for pair in &pairs {
        let (Some(a), Some(b)) = (decoded(pair.a), decoded(pair.b)) else {
            failed = true;
            continue;
        };
        let times = args.times.clone().unwrap_or_else(|| comparison_times(a, b));
        let diff = diff_clips_at(a, b, &times);
        if !args.json {
            print_table(&wa, &wb, pair, a, b, &diff, &names);
        }
        reports.push(PairReport {
            a: side(&wa, pair.a),
            b: side(&wb, pair.b),
            diff,
        });
    }
    if args.json {
        let text = if args.clip.is_some() || args.clip_a.is_some() {
            reports.first().map(serde_json::to_string_pretty)
        } else {
            Some(serde_json::to_string_pretty(&reports))
        };
        if let Some(Ok(text)) = text {
            println!("{text}");
        }
    }
    warn(&wa, &wb);
    let over = args
        .tolerance
        .is_some_and(|tol| reports.iter().any(|r| !r.diff.within(tol)));
    if failed {
        ExitCode::from(1)
    } else if over {
        ExitCode::from(EXIT_OVER_TOLERANCE)
    } else {
        ExitCode::SUCCESS
    }
}

/// The pairs to compare: the named clips, or every name both sides have exactly once.
fn pairs<'a>(
    args: &DiffArgs,
    wa: &'a Workspace,
    wb: &'a Workspace,
) -> Result<Vec<Pair<'a>>, ExitCode> {
    let named = args
        .clip
        .as_ref()
        .map(|n| (n, n))
        .or(args.clip_a.as_ref().zip(args.clip_b.as_ref()));
    if let Some((name_a, name_b)) = named {
        let a = find_clip(wa, name_a, args.path_id_a, &args.a)?;
        let b = find_clip(wb, name_b, args.path_id_b, &args.b)?;
        return Ok(vec![Pair { a, b }]);
    }
    let by_name = |ws: &'a Workspace| {
        let mut map: BTreeMap<&'a str, Vec<&'a ClipEntry>> = BTreeMap::new();
        for c in &ws.clips {
            map.entry(c.name.as_str()).or_default().push(c);
        }
        map
    };
    let (in_a, in_b) = (by_name(wa), by_name(wb));
    let mut pairs = Vec::new();
    for (name, list_a) in &in_a {
        match (list_a.as_slice(), in_b.get(name).map(Vec::as_slice)) {
            (_, None) => eprintln!("note: clip {name:?} is only in {}", args.a.display()),
            ([a], Some([b])) => pairs.push(Pair { a, b }),
            (_, Some(list_b)) => eprintln!(
                "note: clip {name:?} is not compared: {} in A and {} in B share the name \
                 (pick one with --clip {name:?} --path-id-a N --path-id-b M)",
                list_a.len(),
                list_b.len()
            ),
        }
    }
    for name in in_b.keys().filter(|n| !in_a.contains_key(*n)) {
        eprintln!("note: clip {name:?} is only in {}", args.b.display());
    }
    if pairs.is_empty() {
        super::report_problems(wa);
        super::report_problems(wb);
        eprintln!(
            "error: no clip name is found once on both sides ({} and {})",
            args.a.display(),
            args.b.display()
        );
        let unreadable = !wa.errors.is_empty() || !wb.errors.is_empty();
        return Err(ExitCode::from(if unreadable { 1 } else { 2 }));
    }
    Ok(pairs)
}

/// The clip's curves, or `None` after saying why it did not decode.
fn decoded(entry: &ClipEntry) -> Option<&ClipData> {
    match &entry.data {
        Ok(clip) => Some(clip),
        Err(e) => {
            eprintln!("error: clip {:?}: {e}", entry.name);
            None
        }
    }
}

fn side(ws: &Workspace, entry: &ClipEntry) -> Side {
    Side {
        file: ws.files[entry.at.file].location(),
        clip: entry.name.clone(),
        path_id: entry.at.path_id,
    }
}

/// Prints both workspaces' warnings and errors (the files that could not be read).
fn warn(wa: &Workspace, wb: &Workspace) {
    for ws in [wa, wb] {
        for w in &ws.warnings {
            eprintln!("warning: {w}");
        }
        for e in &ws.errors {
            eprintln!("error: {e}");
        }
    }
}

/// Paths by hash, from every rig's joints and Avatar path table on both sides: what names a
/// built clip's curves, which store only hashes.
struct PathNames(HashMap<u32, String>);

impl PathNames {
    fn of(workspaces: &[&Workspace]) -> PathNames {
        let mut names = HashMap::new();
        for ws in workspaces {
            for rig in &ws.rigs {
                for (&hash, path) in rig.tos.iter() {
                    names.entry(hash).or_insert_with(|| path.clone());
                }
                for joint in &rig.skeleton.joints {
                    names
                        .entry(joint.path_hash)
                        .or_insert_with(|| joint.path.clone());
                }
            }
        }
        PathNames(names)
    }

    /// The curve's name: the library's, with a path found by hash where it gave only the hash.
    fn label(&self, clip: &ClipData, index: usize, fallback: &str) -> String {
        let Some(binding) = clip.binding_of(index) else {
            return fallback.to_string();
        };
        match (&binding.path_name, self.0.get(&binding.path)) {
            (None, Some(path)) if binding.path != 0 => {
                let mut named = binding.clone();
                named.path_name = Some(path.clone());
                named.describe()
            }
            _ => fallback.to_string(),
        }
    }
}

/// The table for one pair, largest difference first.
fn print_table(
    wa: &Workspace,
    wb: &Workspace,
    pair: &Pair,
    a: &ClipData,
    b: &ClipData,
    diff: &ClipDiff,
    names: &PathNames,
) {
    let describe = |ws: &Workspace, e: &ClipEntry| {
        format!(
            "{} ({}, path id {})",
            e.name,
            ws.files[e.at.file].location(),
            e.at.path_id
        )
    };
    println!(
        "{}\n  vs {}\n  {} curves matched, {} times, max |a - b| {}",
        describe(wa, pair.a),
        describe(wb, pair.b),
        diff.curves.len(),
        diff.times,
        diff.max_abs
    );
    for f in &diff.facts {
        println!("  {}: {} vs {}", f.what, fact(&f.a), fact(&f.b));
    }
    println!(
        "  {:>12} {:>9} {:>12} {:>9}  {:<16} {:<16} curve",
        "max_abs", "at", "rms", "angle", "a storage", "b storage"
    );
    for c in diff.by_difference() {
        let angle = c.angle_deg.map_or("-".to_string(), |d| format!("{d:.4}"));
        println!(
            "  {:>12.6e} {:>9.4} {:>12.6e} {:>9}  {:<16} {:<16} {}",
            c.max_abs,
            c.at,
            c.rms,
            angle,
            format!("{} {}", c.a_storage, c.a_keys),
            format!("{} {}", c.b_storage, c.b_keys),
            component_name(a, c.a_index, &names.label(a, c.a_index, &c.name)),
        );
    }
    let missing = |label: &str, clip: &ClipData, keys: &[clipscope_core::diff::CurveKey]| {
        for k in keys {
            let index = (0..clip.curves.len())
                .find(|&i| clipscope_core::diff::CurveKey::of(clip, i) == *k)
                .unwrap_or(0);
            let name = clip
                .binding_of(index)
                .map_or("(no binding)".to_string(), |b| b.describe());
            println!(
                "  only in {label}: {}",
                component_name(clip, index, &names.label(clip, index, &name))
            );
        }
    };
    missing("A", a, &diff.only_in_a);
    missing("B", b, &diff.only_in_b);
    println!();
}

/// `name`, with `.x`, `.y`, `.z` or `.w` for a curve of a binding that takes several.
fn component_name(clip: &ClipData, index: usize, name: &str) -> String {
    let several = clip.binding_of(index).is_some_and(|b| b.curve_count() > 1);
    let component = clip.curves.get(index).map_or(0, |c| c.component as usize);
    match ["x", "y", "z", "w"].get(component) {
        Some(axis) if several => format!("{name}.{axis}"),
        _ => name.to_string(),
    }
}

fn fact(v: &clipscope_core::diff::FactValue) -> String {
    match v {
        clipscope_core::diff::FactValue::Number(x) => x.to_string(),
        clipscope_core::diff::FactValue::Flag(x) => x.to_string(),
        clipscope_core::diff::FactValue::Text(x) if x.is_empty() => "(none)".to_string(),
        clipscope_core::diff::FactValue::Text(x) => x.clone(),
    }
}
