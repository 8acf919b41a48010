//! Command-line parsing and dispatch. Exit codes: 0 done, 1 a file could not be read,
//! 2 usage.

mod list;
mod sample;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use clipscope::{OpenOptions, Workspace};

/// Open Unity's own files (AssetBundles, a built game's .assets/level files, web player
/// containers, editor .anim files), decode their AnimationClips exactly and evaluate them the
/// way Unity plays them.
#[derive(Parser)]
#[command(name = "clipscope", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List every clip, rig and controller in files or folders.
    List(list::ListArgs),
    /// Evaluate one clip's curves at given times (raw Unity values).
    Sample(sample::SampleArgs),
}

/// Options shared by every command that opens files.
#[derive(clap::Args, Clone)]
pub struct Inputs {
    /// Unity version to assume for files whose version string is stripped ("0.0.0").
    #[arg(long, value_name = "VERSION")]
    unity_version: Option<String>,
}

impl Inputs {
    fn open(&self, paths: &[PathBuf]) -> Workspace {
        let options = OpenOptions {
            unity_version: self.unity_version.clone(),
        };
        Workspace::open(paths, &options)
    }
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
        Command::List(args) => list::run(&args),
        Command::Sample(args) => sample::run(&args),
    }
}
