//! `clipscope controller`: AnimatorControllers decoded (parameters, layers, state machines,
//! transitions, blend trees), as an indented outline or JSON.

use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clipscope_core::Workspace;
use clipscope_core::animator::json;
use clipscope_core::animator::model::*;
use clipscope_core::workspace::ControllerEntry;

use super::Inputs;

#[derive(clap::Args)]
pub struct ControllerArgs {
    /// Unity files or folders holding controllers (and the clips they play).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Only the controller(s) with this name.
    #[arg(long)]
    name: Option<String>,
    /// Print JSON: one object per controller, in an array.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    inputs: Inputs,
}

pub fn run(args: &ControllerArgs) -> ExitCode {
    let ws = args.inputs.open_summaries(&args.paths);
    let chosen: Vec<&ControllerEntry> = ws
        .controllers
        .iter()
        .filter(|c| args.name.as_ref().is_none_or(|n| *n == c.name))
        .collect();
    if chosen.is_empty() {
        let code = super::report_problems(&ws);
        let names: Vec<&str> = ws.controllers.iter().map(|c| c.name.as_str()).collect();
        match &args.name {
            Some(n) => eprintln!("error: no controller named {n:?}"),
            None => eprintln!("error: no controller in the given paths"),
        }
        if !names.is_empty() {
            eprintln!("controllers there: {}", names.join(", "));
        }
        return if code == ExitCode::SUCCESS {
            ExitCode::from(2)
        } else {
            code
        };
    }
    let mut failed = false;
    if args.json {
        let all: Vec<serde_json::Value> = chosen
            .iter()
            .filter_map(|c| match &c.model {
                Ok(m) => Some(controller_json(&ws, c, m)),
                Err(e) => {
                    eprintln!("error: {}: controller {:?}: {e}", location(&ws, c), c.name);
                    failed = true;
                    None
                }
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&all).unwrap_or_default());
    } else {
        for c in &chosen {
            match &c.model {
                Ok(m) => print!("{}", outline(m, &location(&ws, c), c.at.path_id)),
                Err(e) => {
                    eprintln!("error: {}: controller {:?}: {e}", location(&ws, c), c.name);
                    failed = true;
                }
            }
        }
    }
    for w in &ws.warnings {
        eprintln!("warning: {w}");
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// `json::controller` with the Unity version of the file it was read from (`null` for text
/// files, which do not store one).
fn controller_json(ws: &Workspace, c: &ControllerEntry, m: &Controller) -> serde_json::Value {
    let mut v = json::controller(m, &location(ws, c), c.at.path_id);
    let version = ws.files[c.at.file]
        .summary
        .as_ref()
        .map(|s| s.unity_version().to_string());
    v["unity_version"] = serde_json::json!(version);
    v
}

fn location(ws: &Workspace, c: &ControllerEntry) -> String {
    ws.files[c.at.file].location()
}

/// The indented outline of a controller.
pub fn outline(c: &Controller, file: &str, path_id: i64) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{}  ({file}, path id {path_id})", c.name);
    if !c.parameters.is_empty() {
        let _ = writeln!(s, "  parameters:");
        for p in &c.parameters {
            let _ = writeln!(s, "    {} {} = {}", p.kind.name(), p.name, p.default);
        }
    }
    for (i, l) in c.layers.iter().enumerate() {
        let synced = l
            .synced_layer
            .map(|k| format!(", synced to layer {k}"))
            .unwrap_or_default();
        let _ = writeln!(
            s,
            "  layer {i} {:?}: {}, weight {}{synced}",
            l.name,
            l.blending.name(),
            l.weight
        );
        machine(&mut s, &l.state_machine, 2);
    }
    for w in &c.warnings {
        let _ = writeln!(s, "  warning: {w}");
    }
    s
}

fn machine(s: &mut String, m: &StateMachine, depth: usize) {
    let pad = "  ".repeat(depth);
    let _ = writeln!(
        s,
        "{pad}machine {:?} (default {})",
        m.name,
        m.default_state.as_deref().unwrap_or("none")
    );
    for t in &m.entry_transitions {
        let _ = writeln!(s, "{pad}  entry {}", transition(t));
    }
    for t in &m.any_state_transitions {
        let _ = writeln!(s, "{pad}  any state {}", transition(t));
    }
    for t in &m.exit_transitions {
        let _ = writeln!(s, "{pad}  on exit {}", transition(t));
    }
    for st in &m.states {
        let speed = match &st.speed_parameter {
            Some(p) => format!("speed {} x {p}", st.speed),
            None => format!("speed {}", st.speed),
        };
        let _ = writeln!(s, "{pad}  state {:?} ({speed})", st.name);
        if let Some(mo) = &st.motion {
            motion(s, mo, depth + 2);
        }
        for t in &st.transitions {
            let _ = writeln!(s, "{pad}    {}", transition(t));
        }
    }
    for sub in &m.state_machines {
        machine(s, sub, depth + 1);
    }
}

fn motion(s: &mut String, m: &Motion, depth: usize) {
    let pad = "  ".repeat(depth);
    match m {
        Motion::Clip(c) => {
            let _ = match &c.resolved {
                Some(r) => writeln!(s, "{pad}clip {:?} (path id {})", r.name, r.path_id),
                None => writeln!(s, "{pad}clip not loaded ({})", c.source.describe()),
            };
        }
        Motion::BlendTree(t) => {
            let params = [&t.parameter, &t.parameter_y]
                .into_iter()
                .flatten()
                .cloned()
                .collect::<Vec<_>>()
                .join(", ");
            let _ = writeln!(s, "{pad}blend tree {} ({params})", t.kind.name());
            for c in &t.children {
                let at = match t.kind {
                    BlendKind::Simple1D => format!("at {}", c.threshold),
                    BlendKind::Direct => {
                        format!("by {}", c.direct_parameter.as_deref().unwrap_or("-"))
                    }
                    _ => format!("at ({}, {})", c.position[0], c.position[1]),
                };
                let _ = writeln!(s, "{pad}  {at}:");
                match &c.motion {
                    Some(m) => motion(s, m, depth + 2),
                    None => {
                        let _ = writeln!(s, "{pad}    none");
                    }
                }
            }
        }
    }
}

fn transition(t: &Transition) -> String {
    let to = match &t.destination {
        Destination::State(p) => p.clone(),
        Destination::Machine(p) => format!("machine {p}"),
        Destination::Exit(_) => "exit".to_string(),
    };
    let mut parts: Vec<String> = t
        .conditions
        .iter()
        .map(|c| match c.mode {
            ConditionMode::If => c.parameter.clone(),
            ConditionMode::IfNot => format!("!{}", c.parameter),
            mode => format!("{} {} {}", c.parameter, mode.name(), c.threshold),
        })
        .collect();
    if t.has_exit_time {
        parts.push(format!("exit time {}", t.exit_time));
    }
    let when = if parts.is_empty() {
        String::new()
    } else {
        format!(" when {}", parts.join(" and "))
    };
    let unit = if t.fixed_duration { " s" } else { "" };
    format!("-> {to}{when} (duration {}{unit})", t.duration)
}
