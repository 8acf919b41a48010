//! `clipscope sample`: one clip's curves evaluated at given times, as JSON.

use std::path::PathBuf;
use std::process::ExitCode;

use clipscope_core::sample::{frame_times, sample_clip};

use super::Inputs;

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
    let (clip, wrap) = match super::find_clip(&ws, &args.clip, args.path_id, &args.path)
        .and_then(|entry| super::wrap_for(entry, &args.wrap))
    {
        Ok(found) => found,
        Err(code) => return code,
    };
    let times = args.times.clone().unwrap_or_else(|| frame_times(clip));
    let report = sample_clip(clip, &times, wrap);
    println!("{}", serde_json::to_string(&report).unwrap_or_default());
    for w in &ws.warnings {
        eprintln!("warning: {w}");
    }
    ExitCode::SUCCESS
}
