//! `clipscope export`: a rig, its meshes and the clips that play on it as one glTF 2.0
//! binary (`.glb`), with a fidelity report of the measured error per clip.

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::ExitCode;

use clipscope_core::check::RigReach;
use clipscope_core::export::{ClipReach, ExportOptions, ExportRig, Mode, decoded_clips, export};
use clipscope_core::workspace::ObjectRef;
use clipscope_core::{OpenOptions, Workspace};

use super::Inputs;

#[derive(clap::Args)]
pub struct ExportArgs {
    /// Unity files or folders holding the rig and the clips.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Name of the rig (an Animator's or Animation's GameObject). Without it: the rig `pose`
    /// would pick for the first --clip, else the rig most clips play on.
    #[arg(long)]
    rig: Option<String>,
    /// Path id of the rig's component, when several rigs share the name.
    #[arg(long, allow_negative_numbers = true)]
    rig_path_id: Option<i64>,
    /// A clip to export (repeatable). Without it: every clip that plays on the rig (its
    /// own, generic clips matching its paths, every humanoid clip on a humanoid rig).
    #[arg(long = "clip", value_name = "NAME")]
    clips: Vec<String>,
    /// linear: sampled and reduced keys every glTF player plays alike; exact: Unity's
    /// Hermite curves as CUBICSPLINE where a channel allows (Blender drops cubic tangents:
    /// use linear there).
    #[arg(long, default_value = "linear", value_parser = ["linear", "exact"])]
    mode: String,
    /// Least sampling rate of linear channels (default: each clip's own sample rate).
    /// Source key times are always sampled too, and samples are added where the path
    /// between two leaves the tolerance (down to 25 µs apart).
    #[arg(long)]
    fps: Option<f32>,
    /// Rotation tolerance of the written path in radians, under slerp (glTF, Bevy,
    /// three.js) and Blender's per-component interpolation alike: the most any joint may
    /// turn off. A joint whose turn would move the body below it farther than the
    /// translation tolerance is sampled tighter.
    #[arg(long, default_value_t = 1e-3)]
    tolerance_rad: f32,
    /// Translation tolerance as a fraction of the rig's size (the largest extent of its body
    /// at rest: a humanoid's human bones, else its joints less sockets parked far away),
    /// for every translation channel and every joint's world position near the body; also
    /// the tolerance of scales and blend shape weights.
    #[arg(long, default_value_t = 1e-4)]
    tolerance_size: f32,
    /// Leave the meshes (and materials and textures) out.
    #[arg(long)]
    no_mesh: bool,
    /// Keep humanoid bodies over the origin, facing forward.
    #[arg(long)]
    no_root_motion: bool,
    /// Mirror humanoid clips (left and right swapped, as Unity's Mirror does): on, off, or
    /// clip (each clip's own `m_Mirror`, as Unity plays it).
    #[arg(long, default_value = "clip", value_parser = super::pose::parse_mirror)]
    mirror: clipscope_core::clip::MirrorMode,
    /// The .glb to write.
    #[arg(short = 'o', long = "output", value_name = "OUT.glb")]
    output: PathBuf,
    /// Also write the fidelity report as JSON.
    #[arg(long, value_name = "REPORT.json")]
    report: Option<PathBuf>,
    #[command(flatten)]
    inputs: Inputs,
}

pub fn run(args: &ExportArgs) -> ExitCode {
    if args.fps.is_some_and(|f| !(f > 0.0 && f.is_finite())) {
        eprintln!("error: --fps must be a positive number");
        return ExitCode::from(2);
    }
    for (name, v) in [
        ("--tolerance-rad", args.tolerance_rad),
        ("--tolerance-size", args.tolerance_size),
    ] {
        if !(v > 0.0 && v.is_finite()) {
            eprintln!("error: {name} must be a positive number");
            return ExitCode::from(2);
        }
    }
    // An index of every file says which rig and clips to export; then only the files
    // they lie in (and what the rig draws) are opened in full.
    let (index, open_options) = args.inputs.open_index(&args.paths);
    let mut said = HashSet::new();
    report_new(&index, &mut said);
    let plan = match plan(&index, &open_options, args) {
        Ok(p) => p,
        Err(code) => return code,
    };
    drop(open_options);
    if plan.clips.is_empty() {
        eprintln!("error: no clip to export (none decoded, or none plays on the rig)");
        return ExitCode::from(1);
    }
    let sources = match plan.rig {
        Some(i) => index.sources_for(&index.rigs[i], &plan.clips),
        None => index.sources_of(&plan.clips),
    };
    let ws = args.inputs.open(&sources);
    report_new(&ws, &mut said);
    let rig = plan.rig.and_then(|i| {
        let at = ws.same_object(&index, index.rigs[i].at)?;
        ws.rigs.iter().position(|r| r.at == at)
    });
    if plan.rig.is_some() && rig.is_none() {
        eprintln!("error: the rig could not be opened again from its files");
        return ExitCode::from(1);
    }
    let wanted: Vec<ObjectRef> = plan
        .clips
        .iter()
        .filter_map(|&at| ws.same_object(&index, at))
        .collect();
    let clips = decoded_clips(&ws, &wanted);
    if clips.len() < plan.clips.len() {
        eprintln!(
            "warning: {} of the chosen clips could not be decoded again; left out",
            plan.clips.len() - clips.len()
        );
    }
    let target = match rig {
        Some(i) => ExportRig::of(&ws.rigs[i]),
        None => {
            eprintln!(
                "warning: no rig in the files fits the clip: joints stand in for its bound paths"
            );
            // Named from every rig's path table, which the index holds.
            ExportRig::stand_in(&index, &clips)
        }
    };
    let options = ExportOptions {
        mode: if args.mode == "exact" {
            Mode::Exact
        } else {
            Mode::Linear
        },
        fps: args.fps,
        tolerance_rad: args.tolerance_rad,
        tolerance_size: args.tolerance_size,
        meshes: !args.no_mesh,
        root_motion: !args.no_root_motion,
        mirror: args.mirror,
    };
    let exported = match export(&ws, &target, &clips, &options) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let animations = exported.animations();
    let mut report = exported.report;
    report.file = args
        .paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    for w in &report.warnings {
        eprintln!("warning: {w}");
    }
    if animations == 0 {
        for clip in &report.clips {
            for d in &clip.dropped {
                eprintln!("  {}: {} ({})", clip.name, d.binding, d.reason);
            }
        }
        let skipped = clips.len().saturating_sub(report.clips.len());
        if skipped > 0 {
            eprintln!("error: no clip could be exported: {skipped} skipped (see the warnings)");
        } else {
            eprintln!("error: no clip could be exported: nothing in them moves the rig");
        }
        return ExitCode::from(1);
    }
    if let Err(e) = clipscope_core::output_file::write(&args.output, &exported.glb) {
        eprintln!("error: writing {}: {e}", args.output.display());
        return ExitCode::from(1);
    }
    for clip in &report.clips {
        println!("{}", clip.summary());
    }
    println!(
        "wrote {} ({} bytes): rig {}, {} animations, {} meshes",
        args.output.display(),
        exported.glb.len(),
        if report.rig.is_empty() {
            "(stand-in)"
        } else {
            &report.rig
        },
        animations,
        report.meshes.len()
    );
    if let Some(path) = &args.report {
        let text = serde_json::to_string_pretty(&report).unwrap_or_default();
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("error: writing {}: {e}", path.display());
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}

/// Prints the workspace's warnings and errors that were not said yet (the full opening of
/// a few files repeats what the index of them said).
fn report_new(ws: &Workspace, said: &mut HashSet<String>) {
    for w in &ws.warnings {
        if said.insert(format!("warning: {w}")) {
            eprintln!("warning: {w}");
        }
    }
    for e in &ws.errors {
        let e = e.to_string();
        if said.insert(format!("error: {e}")) {
            eprintln!("error: {e}");
        }
    }
}

/// The rig and clips to export, chosen on an index of the files.
struct Plan {
    /// The rig's index; `None`: no rig fits (stand-ins).
    rig: Option<usize>,
    /// The clips, each decoded when the index was made.
    clips: Vec<ObjectRef>,
}

/// `--clip` and `--rig` as asked, else the rig most clips are picked for and every clip
/// that plays on it. Each clip's reach is weighed from its curves one file at a time
/// ([`Workspace::map_clips`]), so a whole game's clips are never held at once.
fn plan(index: &Workspace, options: &OpenOptions, args: &ExportArgs) -> Result<Plan, ExitCode> {
    let named = named_clips(index, &args.clips)?;
    let given = given_rig(index, args)?;
    let reach = RigReach::of(&index.rigs, None);
    let weigh = |wanted: &[ObjectRef]| {
        let bar = super::progress::work(wanted.len(), "clips weighed");
        let reaches = index.map_clips(wanted, options, |_, e| {
            bar.inc(1);
            e.data
                .as_ref()
                .ok()
                .map(|clip| ClipReach::of(&reach, &index.rigs, e.at, clip))
        });
        bar.finish_and_clear();
        reaches
    };
    if let Some(first) = named.first() {
        let rig = given.or_else(|| weigh(std::slice::from_ref(first))[0].and_then(|r| r.picked));
        return Ok(Plan { rig, clips: named });
    }
    let decoded: Vec<ObjectRef> = index
        .clips
        .iter()
        .filter(|e| e.data.is_ok())
        .map(|e| e.at)
        .collect();
    let reaches = weigh(&decoded);
    let rig = match given {
        Some(rig) => Some(rig),
        None => most_picked(index, &reaches)?,
    };
    let clips = match rig {
        Some(i) => {
            let r = &index.rigs[i];
            decoded
                .iter()
                .zip(&reaches)
                .filter(|(at, reach)| reach.is_some_and(|c| c.plays_on(i, r, r.clips.contains(at))))
                .map(|(at, _)| *at)
                .collect()
        }
        None => decoded,
    };
    Ok(Plan { rig, clips })
}

/// The clips named by `--clip` that decoded (all of them when several share a name), or
/// exit code 2 when a name matches none.
fn named_clips(ws: &Workspace, names: &[String]) -> Result<Vec<ObjectRef>, ExitCode> {
    let mut out = Vec::new();
    for name in names {
        let found: Vec<_> = ws.clips.iter().filter(|c| &c.name == name).collect();
        if found.is_empty() {
            eprintln!("error: no clip named {name:?}");
            let all: Vec<&str> = ws.clips.iter().map(|c| c.name.as_str()).collect();
            if !all.is_empty() {
                eprintln!("clips there: {}", all.join(", "));
            }
            return Err(ExitCode::from(2));
        }
        for entry in found {
            match &entry.data {
                Ok(_) => out.push(entry.at),
                Err(e) => eprintln!("warning: clip {name}: {e}; skipped"),
            }
        }
    }
    Ok(out)
}

/// The rig `--rig` (and `--rig-path-id`) names: `None` when neither is given.
fn given_rig(ws: &Workspace, args: &ExportArgs) -> Result<Option<usize>, ExitCode> {
    if let Some(name) = &args.rig {
        let found: Vec<usize> = (0..ws.rigs.len())
            .filter(|&i| &ws.rigs[i].name == name)
            .filter(|&i| {
                args.rig_path_id
                    .is_none_or(|id| ws.rigs[i].at.path_id == id)
            })
            .collect();
        return match found.as_slice() {
            [one] => Ok(Some(*one)),
            [] => {
                eprintln!("error: no rig named {name:?}");
                let names: Vec<&str> = ws.rigs.iter().map(|r| r.name.as_str()).collect();
                if !names.is_empty() {
                    eprintln!("rigs there: {}", names.join(", "));
                }
                Err(ExitCode::from(if ws.rigs.is_empty() { 1 } else { 2 }))
            }
            many => {
                eprintln!(
                    "error: {} rigs are named {name:?}; pick one with --rig-path-id:",
                    many.len()
                );
                for &i in many {
                    eprintln!("  --rig-path-id {}", ws.rigs[i].at.path_id);
                }
                Err(ExitCode::from(2))
            }
        };
    }
    if let Some(id) = args.rig_path_id {
        return match ws.rigs.iter().position(|r| r.at.path_id == id) {
            Some(i) => Ok(Some(i)),
            None => {
                eprintln!("error: no rig with path id {id}");
                Err(ExitCode::from(2))
            }
        };
    }
    Ok(None)
}

/// The rig most decoded clips are picked for (the first of equals); `None`: none is.
fn most_picked(ws: &Workspace, reaches: &[Option<ClipReach>]) -> Result<Option<usize>, ExitCode> {
    let mut votes = vec![0usize; ws.rigs.len()];
    for i in reaches.iter().flatten().filter_map(|r| r.picked) {
        if let Some(v) = votes.get_mut(i) {
            *v += 1;
        }
    }
    let best = (0..votes.len())
        .filter(|&i| votes[i] > 0)
        .max_by_key(|&i| (votes[i], std::cmp::Reverse(i)));
    if ws.rigs.is_empty() && ws.clips.iter().all(|c| c.data.is_err()) {
        eprintln!("error: no rig and no clip in the files");
        return Err(ExitCode::from(1));
    }
    Ok(best)
}
