//! Command-line parsing and dispatch. Exit codes: 0 done, 1 a file could not be read,
//! 2 usage, 3 a problem `check --strict` or `diff --tolerance` was asked to fail on.

mod animate;
mod check;
mod controller;
mod diff;
mod export;
mod list;
mod pose;
mod progress;
mod sample;
mod texture;
mod unity;
#[cfg(feature = "viewer")]
mod view;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use clipscope_core::workspace::{Added, Listed};
use clipscope_core::{Detail, OpenOptions, Workspace};

/// Open Unity's own files (AssetBundles, a built game's .assets/level files, web player
/// containers, editor .anim files), decode their AnimationClips exactly and play them the way
/// Unity does. With no command, the viewer opens on a built-in demo rig and clips.
#[derive(Parser)]
#[command(name = "clipscope", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// List every clip, rig and controller in files or folders.
    List(list::ListArgs),
    /// Evaluate one clip's curves at given times (raw Unity values).
    Sample(sample::SampleArgs),
    /// Pose every joint of a rig by a clip (generic or humanoid) at given times.
    Pose(pose::PoseArgs),
    /// Check clips for loop seams, steps, non-finite values and binding problems.
    Check(check::CheckArgs),
    /// Compare two clips curve by curve (a text .anim against its build, two builds, two
    /// mods): largest and RMS difference per curve, curves on one side only, differing facts.
    Diff(diff::DiffArgs),
    /// Write a texture (mip 0, decoded to RGBA8) as a PNG.
    Texture(texture::TextureArgs),
    /// Export a rig, its meshes and its clips as glTF 2.0 (.glb), with a fidelity report.
    Export(export::ExportArgs),
    /// Show AnimatorControllers: parameters, layers, state machines, transitions, blend trees.
    Controller(controller::ControllerArgs),
    /// Run an AnimatorController under a parameter script and print its states and clip
    /// weights over time (JSON).
    Animate(animate::AnimateArgs),
    /// Write clips as editable Unity .anim files (exact keys, Unity's names, a measured
    /// error per file) and controllers as .controller files with their .mask files, to drop
    /// into a Unity project.
    ///
    /// Keys come from the built curves, not resampled: streamed segments as Hermite keys,
    /// dense frames as linear keys, constants as one key, steps as constant tangents.
    /// Transform curves go to Unity's position, rotation, Euler and scale lists; humanoid
    /// curves keep Unity's muscle names; paths are named through the rigs and Avatars of the
    /// opened files (open the character beside the clips), unknown ones written as
    /// `unresolved/0x…` and reported. Files go to DIR/<source file name>/<clip>.anim (a
    /// file found below a folder given keeps its folders below it: DIR/<folders>/<source
    /// file name>/) with a .meta whose guid is derived from (source file, path id). Each
    /// file's keys are measured against the built clip (--read-back reads its text back):
    /// the console line and --report give the measured error.
    /// Controllers go to DIR/<source file name>/<controller>.controller, bringing the clips
    /// they play (written beside them) and their layers' masks (.mask files); names their
    /// string table lacks stay in hex and are reported. Override controllers go to
    /// <name>.overrideController, naming their base controller (written too) and the clips
    /// they replace by guid.
    /// Exit 0 when every asked-for file is written, 1 when some are not.
    Unity(unity::UnityArgs),
    /// Open files or folders in the viewer (drop more onto its window).
    #[cfg(feature = "viewer")]
    View(view::ViewArgs),
}

/// Options shared by every command that opens files.
#[derive(clap::Args, Clone)]
pub struct Inputs {
    /// Unity version to assume for files whose version string is stripped ("0.0.0", empty or
    /// not a version), e.g. 2020.3.48f1 or 2020.3.26f1c1. Without it, a bundle's header version
    /// is used, else 2022.3.0f1.
    #[arg(long, value_name = "VERSION", value_parser = parse_unity_version)]
    unity_version: Option<String>,
}

/// Accepts a usable Unity version (the same rule as for versions read from files).
fn parse_unity_version(text: &str) -> Result<String, String> {
    text.parse::<clipscope_core::version::UnityVersion>()
        .map(|v| v.to_string())
        .map_err(|e| format!("the version {e}"))
}

impl Inputs {
    /// Opens the paths with every clip's curves.
    fn open(&self, paths: &[PathBuf]) -> Workspace {
        self.open_with(paths, Detail::Full)
    }

    /// Opens the paths keeping each clip's facts but not its curves.
    fn open_summaries(&self, paths: &[PathBuf]) -> Workspace {
        self.open_with(paths, Detail::Summary)
    }

    /// Opens the paths keeping only what `list` prints ([`Detail::List`]), each file's
    /// clips, meshes and textures handed to `taken` as the file is read
    /// ([`Workspace::open_listing`]).
    fn open_listing(
        &self,
        paths: &[PathBuf],
        taken: impl FnMut(&Workspace, &std::path::Path, Added<'_>) -> Listed,
    ) -> Workspace {
        progress::open_listing(paths, &self.options(Detail::List), taken)
    }

    /// Opens the paths as an index: each clip's facts, its curves decoded again when
    /// needed ([`Workspace::decode_clips`]), with the options to decode them with. The
    /// LZMA containers' decompressed clip files wait on disk for that second reading
    /// ([`OpenOptions::index`]; where no spill can be made, they are decompressed again).
    fn open_index(&self, paths: &[PathBuf]) -> (Workspace, OpenOptions) {
        let options = OpenOptions::index(self.unity_version.clone());
        (progress::open(paths, &options), options)
    }

    fn open_with(&self, paths: &[PathBuf], detail: Detail) -> Workspace {
        progress::open(paths, &self.options(detail))
    }

    fn options(&self, detail: Detail) -> OpenOptions {
        OpenOptions {
            unity_version: self.unity_version.clone(),
            detail,
            spill: None,
            outline_controllers: false,
            scene_as_names: false,
        }
    }
}

/// The one decoded clip named `name` (and with `path_id`, when given), or the exit code after
/// saying why there is none: 2 when no clip or several match, 1 when it did not decode or a
/// file could not be read.
fn find_clip<'a>(
    ws: &'a Workspace,
    name: &str,
    path_id: Option<i64>,
    path: &std::path::Path,
) -> Result<&'a clipscope_core::workspace::ClipEntry, ExitCode> {
    let candidates: Vec<_> = ws
        .clips
        .iter()
        .filter(|c| c.name == name && path_id.is_none_or(|id| id == c.at.path_id))
        .collect();
    match candidates.as_slice() {
        [one] => Ok(one),
        [] => {
            report_problems(ws);
            eprintln!(
                "error: no clip named {name:?}{} in {}",
                path_id
                    .map(|id| format!(" with path id {id}"))
                    .unwrap_or_default(),
                path.display()
            );
            let names: Vec<&str> = ws.clips.iter().map(|c| c.name.as_str()).collect();
            if !names.is_empty() {
                eprintln!("clips there: {}", names.join(", "));
            }
            Err(ExitCode::from(if ws.errors.is_empty() { 2 } else { 1 }))
        }
        many => {
            eprintln!(
                "error: {} clips are named {name:?}; pick one with --path-id:",
                many.len()
            );
            for c in many {
                eprintln!(
                    "  --path-id {}  ({})",
                    c.at.path_id,
                    ws.files[c.at.file].location()
                );
            }
            Err(ExitCode::from(2))
        }
    }
}

/// The decoded clip and the wrap mode `--wrap` names (`clip`: the clip's own).
fn wrap_for<'a>(
    entry: &'a clipscope_core::workspace::ClipEntry,
    wrap: &str,
) -> Result<(&'a clipscope_core::ClipData, clipscope_core::WrapMode), ExitCode> {
    let clip = entry.data.as_ref().map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::from(1)
    })?;
    let mode = match wrap {
        "clip" => clip.wrap_mode(),
        other => other.parse().map_err(|e| {
            eprintln!("error: --wrap: {e}");
            ExitCode::from(2)
        })?,
    };
    Ok((clip, mode))
}

/// Prints the workspace's warnings and errors to stderr; the exit code is 1 when a file
/// could not be read.
fn report_problems(ws: &Workspace) -> ExitCode {
    for w in &ws.warnings {
        eprintln!("warning: {w}");
    }
    for e in &ws.errors {
        eprintln!("error: {e}");
    }
    if ws.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Parses arguments and runs the command.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::List(args)) => list::run(&args),
        Some(Command::Sample(args)) => sample::run(&args),
        Some(Command::Pose(args)) => pose::run(&args),
        Some(Command::Check(args)) => check::run(&args),
        Some(Command::Diff(args)) => diff::run(&args),
        Some(Command::Texture(args)) => texture::run(&args),
        Some(Command::Export(args)) => export::run(&args),
        Some(Command::Controller(args)) => controller::run(&args),
        Some(Command::Animate(args)) => animate::run(&args),
        Some(Command::Unity(args)) => unity::run(&args),
        #[cfg(feature = "viewer")]
        Some(Command::View(args)) => view::run(&args),
        None => no_command(),
    }
}

/// Without a command: the viewer on the built-in demo (or the help, when built without it).
#[cfg(feature = "viewer")]
fn no_command() -> ExitCode {
    view::run_demo()
}

#[cfg(not(feature = "viewer"))]
fn no_command() -> ExitCode {
    use clap::CommandFactory;
    let _ = Cli::command().print_help();
    ExitCode::SUCCESS
}
