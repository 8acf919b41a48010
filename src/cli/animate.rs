//! `clipscope animate`: a controller run from its entry states under a parameter script; per
//! requested time, every layer's states, transition and leaf clips (weights and clip times),
//! as JSON.

use std::path::PathBuf;
use std::process::ExitCode;

use clipscope::animator::{json, script};

use super::Inputs;

#[derive(clap::Args)]
pub struct AnimateArgs {
    /// Unity files or folders holding the controller and its clips.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Name of the controller to run.
    #[arg(long)]
    controller: String,
    /// Parameter script: entries `SECONDS:ACTION` separated by `;`, ACTION one of
    /// `Name=VALUE` (float, int, true/false), `Name!` (set a trigger), `play LAYER.STATE[@NT]`,
    /// `crossfade LAYER.STATE SECONDS`. An action at time t applies before the update that
    /// reaches t. Example: "0:Speed=0.4;1.5:Jump!;2:Grounded=false".
    #[arg(long, default_value = "")]
    script: String,
    /// Comma-separated times in seconds to report (default: every update until one second
    /// after the script's last action).
    #[arg(long, value_delimiter = ',')]
    times: Option<Vec<f64>>,
    /// Updates per second.
    #[arg(long, default_value_t = 60.0)]
    fps: f64,
    /// Print JSON (the only output format).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    inputs: Inputs,
}

pub fn run(args: &AnimateArgs) -> ExitCode {
    if !(args.fps.is_finite() && args.fps > 0.0) {
        eprintln!("error: --fps must be a positive number");
        return ExitCode::from(2);
    }
    let actions = match script::parse(&args.script) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: --script: {e}");
            return ExitCode::from(2);
        }
    };
    let ws = args.inputs.open_summaries(&args.paths);
    let found: Vec<_> = ws
        .controllers
        .iter()
        .filter(|c| c.name == args.controller)
        .collect();
    let entry = match found.as_slice() {
        [one] => one,
        [] => {
            let code = super::report_problems(&ws);
            eprintln!("error: no controller named {:?}", args.controller);
            let names: Vec<&str> = ws.controllers.iter().map(|c| c.name.as_str()).collect();
            if !names.is_empty() {
                eprintln!("controllers there: {}", names.join(", "));
            }
            return if code == ExitCode::SUCCESS {
                ExitCode::from(2)
            } else {
                code
            };
        }
        [first, ..] => {
            eprintln!(
                "warning: {} controllers are named {:?}; running the first ({})",
                found.len(),
                args.controller,
                ws.files[first.at.file].location()
            );
            first
        }
    };
    let model = match &entry.model {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: controller {:?}: {e}", entry.name);
            return ExitCode::from(1);
        }
    };
    let times = args.times.clone().unwrap_or_default();
    let (frames, warnings) = script::run(model, &actions, args.fps, &times);
    println!(
        "{}",
        serde_json::to_string(&json::frames(&frames)).unwrap_or_default()
    );
    for w in ws.warnings.iter().chain(&warnings) {
        eprintln!("warning: {w}");
    }
    ExitCode::SUCCESS
}
