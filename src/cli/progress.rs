//! A progress bar on stderr while files load, only when stderr is a terminal (scripts and
//! pipes see nothing).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use clipscope_core::workspace::{Added, Listed};
use clipscope_core::{OpenOptions, Workspace};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Opens `paths`, drawing a bar while more than one file loads.
pub fn open(paths: &[PathBuf], options: &OpenOptions) -> Workspace {
    open_listing(paths, options, |_, _, _| Listed::Kept)
}

/// [`open`], handing what each file added to `taken` as the file is taken in
/// ([`Workspace::open_listing`]).
pub fn open_listing(
    paths: &[PathBuf],
    options: &OpenOptions,
    taken: impl FnMut(&Workspace, &Path, Added<'_>) -> Listed,
) -> Workspace {
    if !std::io::stderr().is_terminal() {
        return Workspace::open_listing(paths, options, |_, _, _| {}, taken);
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{spinner} {pos}/{len} files {wide_msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let progress = |done, total, file: &Path| {
        if total < 2 {
            return;
        }
        bar.set_length(total as u64);
        bar.set_position(done as u64);
        if let Some(name) = file.file_name() {
            bar.set_message(name.to_string_lossy().into_owned());
        }
    };
    let ws = Workspace::open_listing(paths, options, progress, taken);
    bar.finish_and_clear();
    ws
}

/// A bar for `total` items of work (`unit`: "clips"), with a message (bytes written), the
/// rate and the time left; hidden when stderr is not a terminal. Print through
/// [`ProgressBar::println`] while it runs.
pub fn work(total: usize, unit: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() || total < 2 {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    let template =
        format!("{{bar:30}} {{pos}}/{{len}} {unit}, {{msg}} ({{per_sec}}, {{eta}} left)");
    bar.set_style(
        ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}
