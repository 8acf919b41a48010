//! The few files of a whole game that one rig and some clips need. An index of the game
//! ([`super::Detail::Index`]) says which they are; opening only those in full then takes the
//! memory of what is exported, not of the game.

use std::collections::BTreeSet;
use std::path::PathBuf;

use super::{MeshSource, ObjectRef, RendererKind, RigEntry, Workspace};
use crate::clip::ClipData;

impl Workspace {
    /// The files on disk (in the order they were opened, each once) that hold `rig`, its
    /// avatar, what it draws (meshes, materials and their main textures, sprites and
    /// theirs), the clips at `clips` and, of those held in full, the sprites their PPtr
    /// curves swap in: opened together, they give the same rig and clips as the whole
    /// workspace does.
    pub fn sources_for(&self, rig: &RigEntry, clips: &[ObjectRef]) -> Vec<PathBuf> {
        let mut files = BTreeSet::new();
        files.insert(rig.at.file);
        files.extend(rig.avatar.map(|a| a.file));
        for r in &rig.renderers {
            files.insert(r.at.file);
            if let MeshSource::Loaded(at) = r.mesh {
                files.insert(at.file);
            }
            for material in r
                .materials
                .iter()
                .flatten()
                .filter_map(|&at| self.material(at))
            {
                files.insert(material.at.file);
                files.extend(self.material_texture(material).map(|t| t.at.file));
            }
            if let RendererKind::Sprite {
                sprite: Some(at), ..
            } = r.kind
            {
                files.insert(at.file);
                let texture = self.sprite(at).and_then(|s| self.sprite_texture(s));
                files.extend(texture.map(|t| t.at.file));
            }
        }
        self.add_clip_files(clips, &mut files);
        self.sources(files)
    }

    /// The files on disk that hold the clips at `clips` and, of those held in full, the
    /// sprites their PPtr curves swap in, in the order they were opened, each once.
    pub fn sources_of(&self, clips: &[ObjectRef]) -> Vec<PathBuf> {
        let mut files = BTreeSet::new();
        self.add_clip_files(clips, &mut files);
        self.sources(files)
    }

    /// The files on disk that hold `clip`, the clip at `at` given in full, and the objects
    /// its PPtr curves swap in (sprites and their textures): what [`Self::sources_of`] gives
    /// for a clip this workspace holds in full, for one it keeps only the facts of (an index,
    /// whose clips are decoded again when shown).
    pub fn sources_of_decoded(&self, at: ObjectRef, clip: &ClipData) -> Vec<PathBuf> {
        let mut files = BTreeSet::from([at.file]);
        self.add_swapped(at, clip, &mut files);
        self.sources(files)
    }

    /// Adds the files of the clips at `clips` and, where they are held in full, of what
    /// their PPtr curves swap in.
    fn add_clip_files(&self, clips: &[ObjectRef], files: &mut BTreeSet<usize>) {
        for &at in clips {
            files.insert(at.file);
            if let Some(Ok(clip)) = self.clip(at).map(|c| c.data.as_ref()) {
                self.add_swapped(at, clip, files);
            }
        }
    }

    /// Adds the files of the objects that `clip`, the clip at `at`, swaps in through its
    /// PPtr curves (sprites and their textures).
    fn add_swapped(&self, at: ObjectRef, clip: &ClipData, files: &mut BTreeSet<usize>) {
        for &(file_id, path_id) in &clip.pptr_mapping {
            let pptr = crate::unity::PPtr {
                m_FileID: crate::unity::Int(file_id.into()),
                m_PathID: crate::unity::Int(path_id),
            };
            let Some(target) = self.resolve(at.file, pptr) else {
                continue;
            };
            files.insert(target.file);
            let texture = self.sprite(target).and_then(|s| self.sprite_texture(s));
            files.extend(texture.map(|t| t.at.file));
        }
    }

    /// The files on disk the serialized files `files` were read from, each once.
    fn sources(&self, files: BTreeSet<usize>) -> Vec<PathBuf> {
        let mut seen = BTreeSet::new();
        files
            .into_iter()
            .filter_map(|f| self.files.get(f))
            .filter(|f| seen.insert(&f.source))
            .map(|f| f.source.to_path_buf())
            .collect()
    }

    /// The object `at` of workspace `other` in this one: the same path id in the same file,
    /// where this workspace loaded that file.
    pub fn same_object(&self, other: &Workspace, at: ObjectRef) -> Option<ObjectRef> {
        let file = other.files.get(at.file)?;
        Some(ObjectRef {
            file: self.file_at(&file.source, &file.inner)?,
            path_id: at.path_id,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::container::ContainerKind;
    use crate::demo::{DEMO, DEMO_FILE_NAME};
    use crate::mesh::renderer::SpriteData;
    use crate::serialized::External;
    use crate::unity::{Int, PPtr};
    use crate::workspace::SpriteEntry;
    use crate::workspace::{ClipEntry, FileSummary, FileVersion, LoadedFile, OpenOptions};
    use crate::workspace::{TextureEntry, Workspace};

    /// A serialized file `game/NAME` whose references point into `externals`.
    fn file(name: &str, externals: &[&str]) -> LoadedFile {
        LoadedFile {
            source: Path::new("game").join(name).into(),
            inner: Box::default(),
            kind: ContainerKind::Serialized,
            summary: Some(FileSummary {
                format: 22,
                version: std::sync::Arc::new(FileVersion {
                    written: "2022.3.0f1".into(),
                    used: "2022.3.0f1".parse().unwrap(),
                }),
                version_assumed: false,
                target_platform: 19,
                objects: 1,
                externals: externals
                    .iter()
                    .map(|p| External {
                        path: p.to_string(),
                    })
                    .collect(),
            }),
        }
    }

    /// A clip in `level0` swaps in a sprite of `sharedassets0.assets` whose texture lies in
    /// `sharedassets1.assets`: the clip's files are all three, not the fourth beside them.
    #[test]
    fn a_clips_files_take_in_the_sprites_it_swaps_in_and_their_textures() {
        let demo = Workspace::open_bytes(
            Path::new(DEMO_FILE_NAME),
            DEMO.to_vec(),
            &OpenOptions::default(),
        );
        let mut data = demo.clips[0].data.as_ref().unwrap().clone();
        data.pptr_mapping = vec![(1, 42)];
        let summary = data.clone().into_summary();
        let pptr = |file_id: i64, path_id: i64| PPtr {
            m_FileID: Int(file_id),
            m_PathID: Int(path_id),
        };
        let at = |file: usize, path_id: i64| ObjectRef { file, path_id };
        let ws = Workspace {
            files: vec![
                file("level0", &["library/sharedassets0.assets"]),
                file("sharedassets0.assets", &["sharedassets1.assets"]),
                file("sharedassets1.assets", &[]),
                file("sharedassets2.assets", &[]),
            ],
            clips: vec![ClipEntry {
                at: at(0, 5),
                name: data.name.clone(),
                data: Ok(data),
            }],
            sprites: vec![SpriteEntry {
                at: at(1, 42),
                data: SpriteData {
                    texture: pptr(1, 9),
                    ..SpriteData::default()
                },
            }],
            textures: vec![TextureEntry {
                at: at(2, 9),
                name: "Atlas".into(),
                format: 4,
                width: 1,
                height: 1,
                error: None,
                image: None,
            }],
            ..Workspace::default()
        };
        let sources = ws.sources_of(&[at(0, 5)]);
        let names: Vec<_> = sources.iter().map(|p| p.display().to_string()).collect();
        assert_eq!(
            names,
            [
                "game/level0",
                "game/sharedassets0.assets",
                "game/sharedassets1.assets"
            ]
        );
        // A clip kept only as a summary names no swapped objects: its own file alone; given
        // in full (decoded again), it names them all.
        let mut ws = ws;
        let full = std::mem::replace(&mut ws.clips[0].data, Ok(summary)).unwrap();
        assert_eq!(ws.sources_of(&[at(0, 5)]), [Path::new("game/level0")]);
        assert_eq!(ws.sources_of_decoded(at(0, 5), &full), sources);
    }
}
