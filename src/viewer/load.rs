//! Loading files on a background thread with progress, the built-in demo, and files dropped
//! onto the window.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};

use bevy::prelude::*;
use bevy::window::FileDragAndDrop;

use super::ViewerOptions;
use super::clip_index::ClipIndex;
use super::scene::{Library, Selection};
use clipscope_core::demo::{DEMO, DEMO_FILE_NAME};
use clipscope_core::workspace::{OpenOptions, Workspace};

/// A load in progress.
#[derive(Resource)]
pub struct Loading {
    pub rx: Mutex<Receiver<LoadMessage>>,
    pub done: usize,
    pub total: usize,
    pub current: String,
    /// The clips of the files read so far, listed while the others are read.
    pub found: FoundSoFar,
}

/// The clip names of the files read so far.
#[derive(Default)]
pub struct FoundSoFar {
    /// The files that held clips, as shown.
    pub files: Vec<String>,
    /// (file in `files`, name, name in lower case for the search), in the files' order.
    pub clips: Vec<(usize, String, String)>,
}

impl FoundSoFar {
    /// The clips (indices into `clips`) whose names contain `filter`, in any case.
    pub fn matching(&self, filter: &str) -> Vec<usize> {
        let filter = filter.to_lowercase();
        (0..self.clips.len())
            .filter(|&i| self.clips[i].2.contains(&filter))
            .collect()
    }

    /// Takes in the clips of one file.
    fn add(&mut self, file: String, clips: Vec<String>) {
        let f = self.files.len();
        self.files.push(file);
        self.clips.extend(clips.into_iter().map(|name| {
            let lower = name.to_lowercase();
            (f, name, lower)
        }));
    }
}

/// What the loading thread reports.
pub enum LoadMessage {
    Progress {
        done: usize,
        total: usize,
        file: String,
    },
    /// The clips of one more file, as it is taken in.
    Found {
        file: String,
        clips: Vec<String>,
    },
    /// The clips' kinds and rigs are being weighed (their files read again).
    Weighing,
    Done {
        library: Library,
        index: ClipIndex,
    },
}

/// Starts loading the files the viewer was opened with (or the demo).
pub fn start_loading(mut commands: Commands, options: Res<ViewerOptions>) {
    commands.insert_resource(spawn_load(
        options.paths.clone(),
        options.workspace.clone(),
        options.unity_version.clone(),
    ));
}

/// Opens `paths` on a thread as an index ([`Library::open_index`]: clips are decoded when
/// shown, the shown rig's files opened in full when it is shown), then weighs every clip's
/// kind and rig ([`ClipIndex::weigh`]). The built-in demo is opened in full. Files the CLI
/// already opened and weighed (`opened`) are handed over at once, before the first frame, so
/// that the window's first frame lays its panels out with them (as the CLI's screenshots
/// expect).
pub fn spawn_load(
    paths: Vec<PathBuf>,
    opened: Option<(Library, ClipIndex)>,
    unity_version: Option<String>,
) -> Loading {
    let (tx, rx) = channel();
    let loading = |rx| Loading {
        rx: Mutex::new(rx),
        done: 0,
        total: 0,
        current: String::new(),
        found: FoundSoFar::default(),
    };
    if let Some((library, index)) = opened {
        let _ = tx.send(LoadMessage::Done { library, index });
        return loading(rx);
    }
    std::thread::spawn(move || {
        let library = if paths.is_empty() {
            let options = OpenOptions {
                unity_version,
                ..OpenOptions::default()
            };
            let demo = Workspace::open_bytes(Path::new(DEMO_FILE_NAME), DEMO.to_vec(), &options);
            Library::new(Arc::new(demo), options)
        } else {
            Library::open_index(
                &paths,
                unity_version,
                |done, total, file| {
                    let _ = tx.send(LoadMessage::Progress {
                        done,
                        total,
                        file: file.display().to_string(),
                    });
                },
                |file, clips| {
                    let _ = tx.send(LoadMessage::Found {
                        file: file.display().to_string(),
                        clips: clips.iter().map(|c| c.to_string()).collect(),
                    });
                },
            )
        };
        let _ = tx.send(LoadMessage::Weighing);
        let index = ClipIndex::weigh(&library);
        let _ = tx.send(LoadMessage::Done { library, index });
    });
    loading(rx)
}

/// Takes the loading thread's messages; when it is done, installs the library and selects a
/// clip.
pub fn poll_loading(
    mut commands: Commands,
    loading: Option<ResMut<Loading>>,
    options: Res<ViewerOptions>,
    mut selection: ResMut<Selection>,
) {
    let Some(mut loading) = loading else { return };
    let messages: Vec<LoadMessage> = match loading.rx.lock() {
        Ok(rx) => rx.try_iter().collect(),
        Err(_) => Vec::new(),
    };
    let mut finished = None;
    for message in messages {
        match message {
            LoadMessage::Progress { done, total, file } => {
                (loading.done, loading.total, loading.current) = (done, total, file);
            }
            LoadMessage::Found { file, clips } => loading.found.add(file, clips),
            LoadMessage::Weighing => {
                loading.current = "(reading the clips again for their kinds and rigs)".into();
            }
            LoadMessage::Done { library, index } => finished = Some((library, index)),
        }
    }
    let Some((library, index)) = finished else {
        return;
    };
    for e in &library.main.errors {
        error!("{e}");
    }
    selection.clip = match options.clip.as_deref() {
        Some(name) => super::scene::initial_clip(&library.main, Some(name)),
        None => index.first_look(&library.main),
    };
    if let (Some(name), None) = (&options.clip, selection.clip) {
        warn!("--clip {name}: no decoded clip has that name");
    }
    selection.reference = options.reference.as_deref().and_then(|name| {
        let found = super::scene::initial_reference(&library.main, name, selection.clip);
        if found.is_none() {
            warn!("--reference {name}: no other decoded clip has that name; nothing is pinned");
        }
        found
    });
    selection.joint = None;
    selection.rig = options.rig.find(&library.main);
    if options.rig.given() && selection.rig.is_none() {
        warn!("--rig: the opened files have no such rig; a rig is picked per clip");
    }
    selection.dirty = true;
    selection.scroll_to_clip = true;
    commands.insert_resource(index);
    commands.insert_resource(library);
    commands.remove_resource::<Loading>();
}

/// Opens files dropped onto the window.
pub fn dropped_files(
    mut commands: Commands,
    mut drops: MessageReader<FileDragAndDrop>,
    options: Res<ViewerOptions>,
) {
    let paths: Vec<PathBuf> = drops
        .read()
        .filter_map(|d| match d {
            FileDragAndDrop::DroppedFile { path_buf, .. } => Some(path_buf.clone()),
            _ => None,
        })
        .collect();
    if !paths.is_empty() {
        commands.insert_resource(spawn_load(paths, None, options.unity_version.clone()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The clips found so far keep their files' order and names; the search ignores case.
    #[test]
    fn the_clips_found_so_far_are_searched_in_any_case() {
        let mut found = FoundSoFar::default();
        found.add("a.bundle".into(), vec!["Idle".into(), "Walk".into()]);
        found.add("b.bundle".into(), vec!["WALK_fast".into()]);
        let names: Vec<(usize, &str)> = found
            .clips
            .iter()
            .map(|(f, n, _)| (*f, n.as_str()))
            .collect();
        assert_eq!(names, [(0, "Idle"), (0, "Walk"), (1, "WALK_fast")]);
        assert_eq!(found.matching("walk"), [1, 2]);
        assert_eq!(found.matching("Fast"), [2]);
        assert_eq!(found.matching(""), [0, 1, 2]);
        assert!(found.matching("run").is_empty());
    }
}
