//! `clipscope sample`: one clip's curves evaluated at given times, as JSON.

use std::path::PathBuf;
use std::process::ExitCode;

use clipscope::WrapMode;
use clipscope::sample::{frame_times, sample_clip};

use super::{Inputs, report_problems};

#[derive(clap::Args)]
pub struct SampleArgs {
    /// A Unity file or folder holding the clip.
    path: PathBuf,
    /// Name of the clip to sample.
    #[arg(long)]
    clip: String,
    /// Path id of the clip, when several clips share the name.
    #[arg(long, allow_negative_numbers = true)]
    path_id: Option<i64>,
    /// Comma-separated times in seconds (default: every frame at the clip's sample rate,
    /// then the stop time).
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
    times: Option<Vec<f64>>,
    /// Wrap mode applied to each time: once, loop, pingpong, clamp, default, or clip (the
    /// clip's own: legacy m_WrapMode; Mecanim loop if Loop Time, else clamp forever, since the
    /// Animator holds a finished clip's last frame).
    #[arg(long, default_value = "clip")]
    wrap: String,
    /// Print JSON (the only output format; accepted for symmetry with `list`).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    inputs: Inputs,
}

pub fn run(args: &SampleArgs) -> ExitCode {
    let ws = args.inputs.open(std::slice::from_ref(&args.path));
    let candidates: Vec<_> = ws
        .clips
        .iter()
        .filter(|c| c.name == args.clip && args.path_id.is_none_or(|id| id == c.at.path_id))
        .collect();
    let entry = match candidates.as_slice() {
        [one] => one,
        [] => {
            report_problems(&ws);
            eprintln!(
                "error: no clip named {:?}{} in {}",
                args.clip,
                args.path_id
                    .map(|id| format!(" with path id {id}"))
                    .unwrap_or_default(),
                args.path.display()
            );
            let names: Vec<&str> = ws.clips.iter().map(|c| c.name.as_str()).collect();
            if !names.is_empty() {
                eprintln!("clips there: {}", names.join(", "));
            }
            return if ws.errors.is_empty() {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            };
        }
        many => {
            eprintln!(
                "error: {} clips are named {:?}; pick one with --path-id:",
                many.len(),
                args.clip
            );
            for c in many {
                eprintln!(
                    "  --path-id {}  ({})",
                    c.at.path_id,
                    ws.files[c.at.file].location()
                );
            }
            return ExitCode::from(2);
        }
    };
    let clip = match &entry.data {
        Ok(clip) => clip,
        Err(e) => {
            report_problems(&ws);
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let wrap = match args.wrap.as_str() {
        "clip" => clip.wrap_mode(),
        other => match other.parse::<WrapMode>() {
            Ok(w) => w,
            Err(e) => {
                eprintln!("error: --wrap: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let times = args.times.clone().unwrap_or_else(|| frame_times(clip));
    let report = sample_clip(clip, &times, wrap);
    println!("{}", serde_json::to_string(&report).unwrap_or_default());
    for w in &ws.warnings {
        eprintln!("warning: {w}");
    }
    ExitCode::SUCCESS
}
