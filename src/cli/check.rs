//! `clipscope check`: the clip check report (loop seams and steps measured on the joint,
//! non-finite values, keys past the curve count, unmatched and duplicate bindings), as text
//! or JSON.

use std::path::PathBuf;
use std::process::ExitCode;

use clipscope_core::Workspace;
use clipscope_core::check::{
    ClipReport, Measure, NonFinite, Seam, Severity, Thresholds, check_clips_each,
};

use super::{Inputs, report_problems};

/// Exit code of `--strict` when a report lists a problem.
const EXIT_PROBLEMS: u8 = 3;

/// Most step times printed per curve in the text report (JSON has them all).
const STEP_TIMES_SHOWN: usize = 8;

#[derive(clap::Args)]
pub struct CheckArgs {
    /// Unity files or folders (a game's *_Data folder, a folder of bundles).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Check only the clips with this name.
    #[arg(long, value_name = "NAME")]
    clip: Option<String>,
    /// Print a JSON array of clip reports instead of text (notes listed too).
    #[arg(long)]
    json: bool,
    /// Exit with 3 when any report lists a problem (seams and steps above the thresholds,
    /// non-finite values, keys past the curve count, unmatched or duplicate bindings, a clip
    /// that does not decode). Notes never fail.
    #[arg(long)]
    strict: bool,
    /// A position seam or step is a problem above this fraction of the rig's size (its
    /// body's largest extent at rest: a humanoid's human bones, else its joints less
    /// sockets parked far away; 1 unit without a rig); a linear speed jump above 50 times
    /// this per second.
    #[arg(long, value_name = "FRACTION", default_value_t = 0.005, value_parser = non_negative)]
    seam_position: f32,
    /// A rotation seam or step is a problem above this angle; an angular speed jump above
    /// 45 times this per second.
    #[arg(long, value_name = "DEGREES", default_value_t = 1.0, value_parser = non_negative)]
    seam_angle: f32,
    /// A scale seam or step is a problem above this relative change, a float curve's above
    /// this fraction of its range over the clip (muscles without a humanoid rig: of [-1, 1]);
    /// their speed jumps above 12.5 times this per second.
    #[arg(long, value_name = "FRACTION", default_value_t = 0.02, value_parser = non_negative)]
    seam_range: f32,
    #[command(flatten)]
    inputs: Inputs,
}

/// Checks the clips and prints the report. Exit codes: 0 done, 1 a file could not be read,
/// 2 `--clip` names no clip, 3 (with `--strict`) a report lists a problem.
pub fn run(args: &CheckArgs) -> ExitCode {
    // An index of every file; each file's clips are decoded again, checked and dropped.
    let (ws, options) = args.inputs.open_index(&args.paths);
    let thresholds = Thresholds::new(args.seam_position, args.seam_angle, args.seam_range);
    let wanted = ws
        .clips
        .iter()
        .filter(|c| args.clip.as_ref().is_none_or(|name| &c.name == name))
        .count();
    let bar = super::progress::work(wanted, "clips");
    // Each report is printed as soon as it and those before it are checked (a whole game's
    // reports need not wait in memory); JSON streams the array.
    let (mut count, mut problems) = (0usize, false);
    let mut json = JsonArray::default();
    check_clips_each(
        &ws,
        args.clip.as_deref(),
        &thresholds,
        &options,
        &|| bar.inc(1),
        |r| {
            count += 1;
            problems |= r.problems > 0;
            bar.suspend(|| {
                if args.json {
                    json.push(&r);
                } else {
                    print_report(&r);
                }
            });
        },
    );
    bar.finish_and_clear();
    if let (Some(name), 0) = (&args.clip, count) {
        return no_such_clip(&ws, name);
    }
    let controller_problems = controller_problems(&ws, args.clip.is_none());
    if args.json {
        json.finish();
    } else {
        for (name, problems) in &controller_problems {
            println!("controller {name}: {} problems", problems.len());
            for p in problems {
                println!("  {p}");
            }
        }
    }
    let read = report_problems(&ws);
    let controllers_fail = controller_problems.iter().any(|(_, p)| !p.is_empty());
    if !ws.errors.is_empty() {
        read
    } else if args.strict && (controllers_fail || problems) {
        ExitCode::from(EXIT_PROBLEMS)
    } else {
        ExitCode::SUCCESS
    }
}

/// A JSON array printed an element at a time, spelled as `serde_json`'s pretty printer
/// spells the whole array. Each element waits for the next (or the end) to know whether a
/// comma follows it, so that every line printed is whole (a progress bar is drawn between).
#[derive(Default)]
struct JsonArray {
    /// The last element, indented, not yet printed; `None` before the first.
    held: Option<String>,
}

impl JsonArray {
    fn push(&mut self, value: &impl serde::Serialize) {
        let text = serde_json::to_string_pretty(value).unwrap_or_default();
        let indented: Vec<String> = text.lines().map(|line| format!("  {line}")).collect();
        match self.held.replace(indented.join("\n")) {
            Some(held) => println!("{held},"),
            None => println!("["),
        }
    }

    fn finish(self) {
        match self.held {
            Some(held) => println!("{held}\n]"),
            None => println!("[]"),
        }
    }
}

/// A finite threshold, zero or more.
fn non_negative(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("{text:?} is not a number zero or more")),
    }
}

/// Each decoded controller's problems (`clipscope_core::animator::check`), when checking every
/// clip (not one `--clip`). The JSON report lists them in `clipscope controller --json`.
fn controller_problems(ws: &Workspace, all: bool) -> Vec<(String, Vec<String>)> {
    if !all {
        return Vec::new();
    }
    ws.controllers
        .iter()
        .filter_map(|c| {
            let model = c.model.as_ref().ok()?;
            Some((
                c.name.clone(),
                clipscope_core::animator::check::problems(model),
            ))
        })
        .collect()
}

/// `--clip` matched nothing: a usage error (2) listing the clips there, or 1 when a file
/// could not be read (the clip may be in it).
fn no_such_clip(ws: &Workspace, name: &str) -> ExitCode {
    let read = report_problems(ws);
    eprintln!("error: no clip named {name:?}");
    let names: Vec<&str> = ws.clips.iter().map(|c| c.name.as_str()).collect();
    if !names.is_empty() {
        eprintln!("clips there: {}", names.join(", "));
    }
    if ws.errors.is_empty() {
        ExitCode::from(2)
    } else {
        read
    }
}

fn print_report(r: &ClipReport) {
    println!("{} (path id {}, {})", r.clip, r.path_id, r.file);
    if let Some(e) = &r.error {
        println!("  error: {e}");
        println!("  1 problem");
        return;
    }
    println!(
        "  {} {}, {:.3} s at {} Hz; rig: {} ({})",
        if r.legacy { "legacy" } else { "mecanim" },
        r.wrap,
        r.length,
        r.sample_rate,
        r.rig.as_deref().unwrap_or("none"),
        r.rig_note
    );
    print_seams(r);
    for s in r.steps.iter().filter(|s| s.severity == Severity::Problem) {
        println!(
            "  step: {} jumps {} at {} s (steps at {})",
            s.binding,
            describe_jump(s.measure, s.jump, s.slope_jump),
            s.at,
            list_times(&s.times)
        );
    }
    for n in &r.non_finite {
        println!("  non-finite: {}", describe_non_finite(n));
    }
    if r.keys_past_curve_count > 0 {
        println!(
            "  keys past the curve count: {} (left out)",
            r.keys_past_curve_count
        );
    }
    for u in &r.unmatched_bindings {
        println!(
            "  unmatched path {:#010x}{}: {} bindings",
            u.path,
            u.name
                .as_deref()
                .map(|n| format!(" ({n})"))
                .unwrap_or_default(),
            u.bindings
        );
    }
    for d in &r.duplicate_bindings {
        println!(
            "  duplicate binding: {} ({} times: bindings {:?})",
            d.binding, d.count, d.indices
        );
    }
    print_humanoid(r);
    let problems = match r.problems {
        0 => "no problems".to_string(),
        1 => "1 problem".to_string(),
        n => format!("{n} problems"),
    };
    match r.notes {
        0 => println!("  {problems}"),
        1 => println!(
            "  {problems}, 1 note (seams and steps below the thresholds; --json lists them)"
        ),
        n => println!(
            "  {problems}, {n} notes (seams and steps below the thresholds; --json lists them)"
        ),
    }
}

/// A measured jump in its unit.
fn describe_jump(measure: Measure, jump: f32, slope: f32) -> String {
    let (value, speed) = match measure {
        Measure::Position => (
            format!("{:.2}% of the rig's size", jump * 100.0),
            format!("{:.2}%/s", slope * 100.0),
        ),
        Measure::Rotation => (format!("{jump:.2}°"), format!("{slope:.1}°/s")),
        Measure::Scale => (
            format!("{:.2}% of its scale", jump * 100.0),
            format!("{:.2}%/s", slope * 100.0),
        ),
        Measure::Float | Measure::Muscle => (
            format!("{:.2}% of its range", jump * 100.0),
            format!("{:.2}%/s", slope * 100.0),
        ),
    };
    format!("by {value} (slope by {speed})")
}

fn print_humanoid(r: &ClipReport) {
    let Some(h) = &r.humanoid else { return };
    for m in &h.unmapped {
        println!(
            "  muscle {} ({}) moves a bone the rig's avatar does not map ({} to {})",
            m.muscle, m.name, m.min, m.max
        );
    }
    for m in &h.far_outside {
        println!(
            "  muscle {} ({}) goes far outside [-1, 1]: {} to {}",
            m.muscle, m.name, m.min, m.max
        );
    }
    for f in &h.sliding_feet {
        println!(
            "  note (retargeting): {} slides {:.1} % of the human scale from its goal \
             between {:.3} s and {:.3} s ({:.4} to {:.4} m); Foot IK would correct it",
            f.foot,
            f.change * 100.0,
            f.start,
            f.stop,
            f.min_distance,
            f.max_distance
        );
    }
}

fn print_seams(r: &ClipReport) {
    for s in r.seams.iter().filter(|s| s.severity == Severity::Problem) {
        let at = match s.seam {
            Seam::Loop => "loop seam",
            Seam::PingPongStop => "ping-pong turn at stop",
            Seam::PingPongStart => "ping-pong turn at start",
        };
        println!(
            "  {at}: {} jumps {}",
            s.binding,
            describe_jump(s.measure, s.jump, s.slope_jump)
        );
    }
}

fn describe_non_finite(n: &NonFinite) -> String {
    format!(
        "curve {} {} [{}]: {:?} {} at index {}{}",
        n.curve,
        n.binding,
        n.component,
        n.what,
        n.value,
        n.first_index,
        if n.count > 1 {
            format!(" ({} in all)", n.count)
        } else {
            String::new()
        }
    )
}

/// The first few times, then how many more.
fn list_times(times: &[f32]) -> String {
    let shown: Vec<String> = times
        .iter()
        .take(STEP_TIMES_SHOWN)
        .map(|t| format!("{t}"))
        .collect();
    let more = times.len().saturating_sub(STEP_TIMES_SHOWN);
    if more > 0 {
        format!("{} (+{more} more)", shown.join(", "))
    } else {
        shown.join(", ")
    }
}
