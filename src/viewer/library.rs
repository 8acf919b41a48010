//! The files the viewer has opened, as one resource that the scene, the rig choice and the
//! panels read.
//!
//! A folder is opened as an index ([`Detail::Index`]): each clip's facts but not its curves,
//! meshes and textures without their vertices and pixels, which take most of a game's
//! memory. A clip is decoded from its file when it is shown (the last few are kept), and the
//! few files the shown rig draws from are opened again in full when it is shown, and kept
//! until another rig needs others.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use bevy::prelude::Resource;

use clipscope_core::clip::ClipData;
use clipscope_core::workspace::{Detail, Listed, ObjectRef, OpenOptions, Workspace};

/// How many decoded clips a library keeps (a controller's clips, a shown clip and its
/// reference).
const KEPT_CLIPS: usize = 64;

/// Clips decoded from their files, each with where it is.
type Decoded = Vec<(ObjectRef, Arc<ClipData>)>;

/// The opened files.
#[derive(Resource, Clone, Debug)]
pub struct Library {
    pub main: Arc<Workspace>,
    /// How `main` was opened (its detail says whether it holds vertices and pixels).
    options: OpenOptions,
    /// The last files opened in full for a rig.
    in_full: Arc<Mutex<Option<Reopened>>>,
    /// The clips decoded last (when `main` keeps only their facts), the newest last.
    decoded: Arc<Mutex<Decoded>>,
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
            decoded: Arc::default(),
        }
    }

    /// How `main` was opened.
    pub fn options(&self) -> &OpenOptions {
        &self.options
    }

    /// Whether `main` holds every clip's curves (else only their facts).
    pub fn holds_curves(&self) -> bool {
        matches!(self.options.detail, Detail::Full | Detail::Clips)
    }

    /// The clip at `at` in full, or `None` where it is not loaded or does not decode.
    pub fn clip(&self, at: ObjectRef) -> Option<Arc<ClipData>> {
        self.clips(&[at]).pop().flatten()
    }

    /// The clips at `wanted` in full, in order (`None` for one not loaded or that does not
    /// decode): `main`'s own when it holds curves, else decoded again from their files (one
    /// reading per file), the last [`KEPT_CLIPS`] kept for the next call. A clip that decoded
    /// when the files were opened and not now (its file changed) is logged.
    pub fn clips(&self, wanted: &[ObjectRef]) -> Vec<Option<Arc<ClipData>>> {
        if self.holds_curves() {
            return wanted
                .iter()
                .map(|&at| {
                    let data = self.main.clip(at)?.data.as_ref().ok()?;
                    Some(Arc::new(data.clone()))
                })
                .collect();
        }
        let mut kept = self.decoded.lock().unwrap_or_else(|e| e.into_inner());
        let find = |kept: &[(ObjectRef, Arc<ClipData>)], at: ObjectRef| {
            kept.iter()
                .find(|(k, _)| *k == at)
                .map(|(_, c)| Arc::clone(c))
        };
        let missing: Vec<ObjectRef> = wanted
            .iter()
            .copied()
            .filter(|&at| find(&kept, at).is_none())
            .filter(|&at| self.main.clip(at).is_some_and(|c| c.data.is_ok()))
            .collect();
        let decoded = self.main.decode_clips(&missing, &self.options);
        for (at, result) in missing.into_iter().zip(decoded) {
            match result {
                Ok(clip) => kept.push((at, Arc::new(clip))),
                Err(e) => bevy::log::warn!("{e}"),
            }
        }
        let out = wanted.iter().map(|&at| find(&kept, at)).collect();
        let over = kept.len().saturating_sub(KEPT_CLIPS.max(wanted.len()));
        kept.drain(..over);
        out
    }

    /// Files opened in full (tests).
    #[cfg(test)]
    pub fn full(main: Arc<Workspace>) -> Library {
        Library::new(main, OpenOptions::default())
    }

    /// `paths` opened as the viewer opens a folder: an index whose LZMA containers'
    /// decompressed clip files wait on disk for the clips' second reading
    /// ([`OpenOptions::index`]), `progress(done,
    /// total, file)` called as each file is read and `clips(file, names)` as each file's
    /// clips are taken in ([`Workspace::open_listing`]).
    pub fn open_index(
        paths: &[PathBuf],
        unity_version: Option<String>,
        progress: impl Fn(usize, usize, &std::path::Path) + Sync,
        mut clips: impl FnMut(&std::path::Path, &[&str]),
    ) -> Library {
        let options = OpenOptions::index(unity_version);
        let main = Workspace::open_listing(paths, &options, progress, |_, path, added| {
            if !added.clips.is_empty() {
                let names: Vec<&str> = added.clips.iter().map(|c| c.name.as_str()).collect();
                clips(path, &names);
            }
            Listed::Kept
        });
        Library::new(Arc::new(main), options)
    }

    /// Rig `rig` of `main` with the clips at `clips`, in a workspace that holds in full what
    /// the rig draws (meshes, materials, textures, sprites) and those clips' files, and the
    /// objects that `swapping` (a clip given in full: `main` may hold only its facts) swaps
    /// in through its PPtr curves: `main` when it was opened in full, else those files
    /// opened again ([`Workspace::sources_for`], [`Workspace::sources_of_decoded`]), the last
    /// such opening kept for the next call.
    pub fn in_full(
        &self,
        rig: usize,
        clips: &[ObjectRef],
        swapping: Option<(ObjectRef, &ClipData)>,
    ) -> Option<InFull> {
        let entry = self.main.rigs.get(rig)?;
        if self.options.detail == Detail::Full {
            return Some(InFull {
                ws: Arc::clone(&self.main),
                rig,
                clips: clips.to_vec(),
            });
        }
        let mut sources = self.main.sources_for(entry, clips);
        if let Some((at, clip)) = swapping {
            for source in self.main.sources_of_decoded(at, clip) {
                if !sources.contains(&source) {
                    sources.push(source);
                }
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::viewer::clip_index::ClipIndex;
    use clipscope_authoring::shared_data::data;
    use clipscope_core::export::clips_playing_on;

    /// A folder opened as the viewer opens it holds no clip's curves; each clip shown is
    /// decoded from its file equal to a full open's, and the clips' kinds, rigs and the
    /// clips an export of each rig takes are those a full open gives.
    #[test]
    fn clips_are_decoded_when_shown_as_a_full_open_holds_them() {
        let Some(binary) = data("binary") else {
            return;
        };
        let paths = [binary];
        let mut found = Vec::new();
        let library = Library::open_index(
            &paths,
            None,
            |_, _, _| {},
            |_, names| {
                found.extend(names.iter().map(|n| n.to_string()));
            },
        );
        let names: Vec<&str> = library.main.clips.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            found, names,
            "every clip listed as its file is read, in order"
        );
        let full = Workspace::open(&paths, &OpenOptions::default());
        assert!(!library.holds_curves());
        assert_eq!(library.main.clips.len(), full.clips.len());
        let mut decoded = 0;
        for (summary, whole) in library.main.clips.iter().zip(&full.clips) {
            assert_eq!(summary.at, whole.at);
            let Ok(expected) = &whole.data else {
                assert!(library.clip(summary.at).is_none(), "{}", whole.name);
                continue;
            };
            let kept = summary.data.as_ref().expect("its facts");
            assert!(
                kept.summary_only.is_some() && kept.curves.is_empty(),
                "{}",
                kept.name
            );
            let shown = library.clip(summary.at).expect("decoded when shown");
            assert_eq!(*shown, *expected, "{}", whole.name);
            decoded += 1;
        }
        assert!(decoded >= 10, "{decoded} clips");
        // Asked again, the kept copy is handed back.
        let at = full.clips[0].at;
        let (a, b) = (library.clip(at).unwrap(), library.clip(at).unwrap());
        assert!(Arc::ptr_eq(&a, &b));
        let (weighed, held) = (ClipIndex::weigh(&library), ClipIndex::new(&full));
        assert_eq!(weighed.kinds, held.kinds);
        assert_eq!(weighed.reach, held.reach);
        let mut played = 0;
        for rig in 0..full.rigs.len() {
            let expected: Vec<ObjectRef> =
                clips_playing_on(&full, rig).iter().map(|c| c.at).collect();
            let playing: Vec<ObjectRef> = weighed
                .playing_on(&library.main, rig)
                .into_iter()
                .map(|i| library.main.clips[i].at)
                .collect();
            assert_eq!(playing, expected, "{}", full.rigs[rig].name);
            played += playing.len();
        }
        assert!(played > 0);
    }
}
