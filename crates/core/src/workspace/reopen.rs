//! Clips decoded again in full, one file on disk at a time. A workspace opened as an index
//! ([`Detail::Index`]) keeps each clip's facts but not its curves, so a whole game fits in
//! memory; a writer then decodes the clips of one file, writes them and drops them before
//! it takes the next file, and memory is bounded by the largest file, not by the folder.

use std::collections::BTreeMap;
use std::path::Path;

use super::objects::read_clip;
use super::{Detail, ObjectRef, OpenOptions, Workspace};
use crate::clip::{ClipData, decode_clip};
use crate::container;
use crate::error::Error;
use crate::serialized::SerializedFile;
use crate::unity::class;
use crate::yaml::GuidIndex;

impl Workspace {
    /// The clips at `wanted`, decoded in full from the files on disk they were read from
    /// (each file read once), in `wanted`'s order. `options` should be those the workspace
    /// was opened with (its assumed Unity version); its detail is ignored. A clip that
    /// cannot be decoded, or whose file can no longer be read, gets an error naming the file
    /// and the object.
    pub fn decode_clips(
        &self,
        wanted: &[ObjectRef],
        options: &OpenOptions,
    ) -> Vec<Result<ClipData, Error>> {
        let full = OpenOptions {
            detail: Detail::Full,
            ..options.clone()
        };
        let mut out: Vec<Option<Result<ClipData, Error>>> = wanted.iter().map(|_| None).collect();
        let mut by_source: BTreeMap<&Path, Vec<usize>> = BTreeMap::new();
        for (i, at) in wanted.iter().enumerate() {
            match self.files.get(at.file) {
                Some(f) => by_source.entry(f.source.as_path()).or_default().push(i),
                None => out[i] = Some(Err(self.clip_error(*at, "no such file is loaded"))),
            }
        }
        for (source, indices) in by_source {
            let ats: Vec<ObjectRef> = indices.iter().map(|&i| wanted[i]).collect();
            for (i, result) in indices
                .into_iter()
                .zip(self.decode_source(source, &ats, &full))
            {
                out[i] = Some(result);
            }
        }
        out.into_iter()
            .map(|r| r.expect("every clip is answered"))
            .collect()
    }

    /// The clips at `wanted`, all read from `source`.
    fn decode_source(
        &self,
        source: &Path,
        wanted: &[ObjectRef],
        options: &OpenOptions,
    ) -> Vec<Result<ClipData, Error>> {
        let fail = |why: &str| -> Vec<Result<ClipData, Error>> {
            wanted
                .iter()
                .map(|&at| Err(self.clip_error(at, why)))
                .collect()
        };
        let bytes = match std::fs::read(source) {
            Ok(bytes) => bytes,
            Err(e) => return fail(&format!("the file can no longer be read: {e}")),
        };
        if crate::yaml::is_yaml(&bytes) {
            return self.decode_text(source, &bytes, wanted);
        }
        let opened = match container::open(bytes) {
            Ok(opened) => opened,
            Err(e) => return fail(&format!("the file no longer opens: {e}")),
        };
        let mut out: Vec<Option<Result<ClipData, Error>>> = wanted.iter().map(|_| None).collect();
        for inner in opened.files {
            let here: Vec<usize> = (0..wanted.len())
                .filter(|&i| self.files[wanted[i].file].inner == inner.name)
                .collect();
            if here.is_empty() {
                continue;
            }
            let file = SerializedFile::parse_in(
                inner.bytes,
                options.unity_version.as_deref(),
                opened.unity_revision.as_deref(),
            );
            for i in here {
                let at = wanted[i];
                out[i] = Some(match &file {
                    Ok(file) => match file.object(at.path_id) {
                        Some(info) if info.class_id == class::ANIMATION_CLIP => {
                            read_clip(file, info, options)
                                .data
                                .map_err(|e| self.clip_error(at, &e))
                        }
                        _ => Err(self.clip_error(at, "no AnimationClip with that path id")),
                    },
                    Err(e) => Err(self.clip_error(at, &e.to_string())),
                });
            }
        }
        out.into_iter()
            .zip(wanted)
            .map(|(r, &at)| r.unwrap_or_else(|| Err(self.clip_error(at, "its inner file is gone"))))
            .collect()
    }

    /// The text clips at `wanted` in the text file `bytes` (its references need no guid
    /// index: clips keep them as written).
    fn decode_text(
        &self,
        source: &Path,
        bytes: &[u8],
        wanted: &[ObjectRef],
    ) -> Vec<Result<ClipData, Error>> {
        let text = String::from_utf8_lossy(bytes);
        let contents = crate::yaml::read_yaml_with_index(source, &text, &GuidIndex::default());
        wanted
            .iter()
            .map(|&at| {
                let contents = contents
                    .as_ref()
                    .map_err(|e| self.clip_error(at, &e.to_string()))?;
                let clip = contents
                    .clips
                    .iter()
                    .find(|c| c.file_id == at.path_id)
                    .ok_or_else(|| self.clip_error(at, "no clip with that file id"))?;
                let raw = clip
                    .clip
                    .as_ref()
                    .map_err(|e| self.clip_error(at, &e.to_string()))?;
                decode_clip(raw, &contents.unity_version)
                    .map_err(|e| self.clip_error(at, &e.to_string()))
            })
            .collect()
    }

    /// An error about the clip at `at`.
    fn clip_error(&self, at: ObjectRef, detail: &str) -> Error {
        Error::Object {
            location: self
                .files
                .get(at.file)
                .map_or_else(|| format!("file {}", at.file), |f| f.location()),
            path_id: at.path_id,
            class: "AnimationClip".into(),
            detail: detail.to_string(),
        }
    }
}
