//! The few files of a whole game that one rig and some clips need. An index of the game
//! ([`super::Detail::Index`]) says which they are; opening only those in full then takes the
//! memory of what is exported, not of the game.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::{MeshSource, ObjectRef, RendererKind, RigEntry, Workspace};

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

    /// Adds the files of the clips at `clips` and of what their PPtr curves swap in.
    fn add_clip_files(&self, clips: &[ObjectRef], files: &mut BTreeSet<usize>) {
        for &at in clips {
            files.insert(at.file);
            // The objects its PPtr curves swap in (sprites and their textures), where the
            // clip is held in full.
            let Some(Ok(clip)) = self.clip(at).map(|c| c.data.as_ref()) else {
                continue;
            };
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
    }

    /// The files on disk the serialized files `files` were read from, each once.
    fn sources(&self, files: BTreeSet<usize>) -> Vec<PathBuf> {
        let mut seen = BTreeSet::new();
        files
            .into_iter()
            .filter_map(|f| self.files.get(f))
            .filter(|f| seen.insert(&f.source))
            .map(|f| f.source.clone())
            .collect()
    }

    /// The file read from `source` whose name inside it is `inner`.
    pub fn file_at(&self, source: &Path, inner: &str) -> Option<usize> {
        self.files
            .iter()
            .position(|f| f.source == source && f.inner == inner)
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
