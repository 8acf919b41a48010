//! The files the viewer has opened, as one resource that the scene, the rig choice and the
//! panels read.
//!
//! Files are opened with every clip in full but without meshes' vertices and textures'
//! pixels ([`Detail::Clips`]), which take most of a game's memory; the few files the shown
//! rig draws from are opened again in full when it is shown, and kept until another rig
//! needs others.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use bevy::prelude::Resource;

use clipscope_core::workspace::{Detail, ObjectRef, OpenOptions, Workspace};

/// The opened files.
#[derive(Resource, Clone, Debug)]
pub struct Library {
    pub main: Arc<Workspace>,
    /// How `main` was opened (its detail says whether it holds vertices and pixels).
    options: OpenOptions,
    /// The last files opened in full for a rig.
    in_full: Arc<Mutex<Option<Reopened>>>,
}

/// Files opened again in full: which, and what they hold.
#[derive(Debug)]
struct Reopened {
    sources: Vec<PathBuf>,
    ws: Arc<Workspace>,
}

/// A rig of [`Library::main`] and some of its clips in a workspace that holds their files
/// in full (`main` itself when it was opened so).
pub struct InFull {
    pub ws: Arc<Workspace>,
    /// The rig's index in `ws`.
    pub rig: usize,
    /// The clips asked for, as objects of `ws` (in their order; any not found left out).
    pub clips: Vec<ObjectRef>,
}

impl Library {
    /// The files `main`, opened with `options`.
    pub fn new(main: Arc<Workspace>, options: OpenOptions) -> Library {
        Library {
            main,
            options,
            in_full: Arc::default(),
        }
    }

    /// Files opened in full (tests).
    #[cfg(test)]
    pub fn full(main: Arc<Workspace>) -> Library {
        Library::new(main, OpenOptions::default())
    }

    /// Rig `rig` of `main` with the clips at `clips`, in a workspace that holds in full what
    /// the rig draws (meshes, materials, textures, sprites) and those clips' files: `main`
    /// when it was opened in full, else those files opened again
    /// ([`Workspace::sources_for`]), the last such opening kept for the next call.
    pub fn in_full(&self, rig: usize, clips: &[ObjectRef]) -> Option<InFull> {
        let entry = self.main.rigs.get(rig)?;
        if self.options.detail == Detail::Full {
            return Some(InFull {
                ws: Arc::clone(&self.main),
                rig,
                clips: clips.to_vec(),
            });
        }
        let sources = self.main.sources_for(entry, clips);
        let ws = {
            let mut kept = self.in_full.lock().unwrap_or_else(|e| e.into_inner());
            match &*kept {
                Some(r) if r.sources == sources => Arc::clone(&r.ws),
                _ => {
                    // The old opening is dropped before the new one is made.
                    *kept = None;
                    let options = OpenOptions {
                        detail: Detail::Full,
                        spill: None,
                        ..self.options.clone()
                    };
                    let ws = Arc::new(Workspace::open(&sources, &options));
                    *kept = Some(Reopened {
                        sources,
                        ws: Arc::clone(&ws),
                    });
                    ws
                }
            }
        };
        let at = ws.same_object(&self.main, entry.at)?;
        let rig = ws.rigs.iter().position(|r| r.at == at)?;
        let clips = clips
            .iter()
            .filter_map(|&at| ws.same_object(&self.main, at))
            .collect();
        Some(InFull { ws, rig, clips })
    }
}
