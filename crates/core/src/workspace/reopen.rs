//! Clips decoded again in full, one file on disk at a time. A workspace opened as an index
//! ([`Detail::Index`]) keeps each clip's facts but not its curves, so a whole game fits in
//! memory; a writer then decodes the clips of one file, writes them and drops them before
//! it takes the next file, and memory is bounded by the largest file, not by the folder.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use super::objects::read_clip;
use super::{ClipEntry, Detail, ObjectRef, OpenOptions, Workspace};
use crate::blob::Blob;
use crate::clip::{ClipData, decode_clip};
use crate::container;
use crate::error::Error;
use crate::serialized::SerializedFile;
use crate::unity::class;
use crate::yaml::GuidIndex;

impl Workspace {
    /// Calls `f(i, clip)` for each clip `wanted[i]`, in full, on every core, one file on
    /// disk at a time per core: a clip the workspace keeps only as a summary
    /// ([`Detail::Index`]) is decoded again with `options` (those the workspace was opened
    /// with), handed to `f` and dropped before that core takes the next file, so memory
    /// follows the largest file, not the folder. A clip that cannot be decoded comes as an
    /// entry whose `data` is the error. The results are in `wanted`'s order.
    pub fn map_clips<T: Send>(
        &self,
        wanted: &[ObjectRef],
        options: &OpenOptions,
        f: impl Fn(usize, &ClipEntry) -> T + Sync,
    ) -> Vec<T> {
        let mut out = Vec::with_capacity(wanted.len());
        self.each_clip_in_order(wanted, options, f, |_, t| out.push(t));
        out
    }

    /// [`Self::map_clips`], each result handed to `take(i, result)` on the calling thread
    /// in `wanted`'s order as soon as it and those before it are done: what is held at once
    /// is the files in flight and the few results finished ahead of an earlier one, not
    /// every result (a whole game's reports, printed as they come).
    pub fn each_clip_in_order<T: Send>(
        &self,
        wanted: &[ObjectRef],
        options: &OpenOptions,
        f: impl Fn(usize, &ClipEntry) -> T + Sync,
        take: impl FnMut(usize, T),
    ) {
        let cores = rayon::current_num_threads();
        self.each_clip_in_order_on(cores, wanted, options, f, take);
    }

    /// [`Self::each_clip_in_order`] on `threads` threads at once rather than one a core: for
    /// work that waits for the disk as well as computing, such as writing each clip's file,
    /// where a thread more than the cores keeps them busy while another waits. Each thread
    /// holds its own file's clips, so memory follows the largest file times `threads`.
    pub fn each_clip_in_order_on<T: Send>(
        &self,
        threads: usize,
        wanted: &[ObjectRef],
        options: &OpenOptions,
        f: impl Fn(usize, &ClipEntry) -> T + Sync,
        take: impl FnMut(usize, T),
    ) {
        // One group per file on disk, taken in the order of its first clip.
        let mut by_source: HashMap<&Path, usize> = HashMap::new();
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for (i, at) in wanted.iter().enumerate() {
            let source = self.files.get(at.file).map_or(Path::new(""), |f| &f.source);
            let g = *by_source.entry(source).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[g].push(i);
        }
        let run = |group: &Vec<usize>, emit: &mut dyn FnMut(usize, T)| {
            for (i, t) in self.map_group(wanted, group, options, &f) {
                emit(i, t);
            }
        };
        super::ordered::par_in_order(threads, groups.iter(), run, take);
    }

    /// [`Self::map_clips`] over the clips `group` (indices into `wanted`) of one file.
    fn map_group<T>(
        &self,
        wanted: &[ObjectRef],
        group: &[usize],
        options: &OpenOptions,
        f: &impl Fn(usize, &ClipEntry) -> T,
    ) -> Vec<(usize, T)> {
        // The entry to hand over as it is: a listed clip decoded in full.
        let kept = |at: ObjectRef| {
            self.clip(at)
                .filter(|e| !matches!(&e.data, Ok(d) if d.summary_only.is_some()))
        };
        let again: Vec<ObjectRef> = group
            .iter()
            .map(|&i| wanted[i])
            .filter(|&at| kept(at).is_none())
            .collect();
        let mut decoded = self.decode_clips(&again, options).into_iter();
        group
            .iter()
            .map(|&i| {
                let at = wanted[i];
                let result = match kept(at) {
                    Some(entry) => f(i, entry),
                    None => {
                        let data = decoded.next().unwrap_or_else(|| {
                            Err(self.clip_error(at, "no AnimationClip is listed there"))
                        });
                        let name = self.clip_name(at).unwrap_or_default().to_string();
                        f(i, &ClipEntry { at, name, data })
                    }
                };
                (i, result)
            })
            .collect()
    }

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
                Some(f) => by_source.entry(&*f.source).or_default().push(i),
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
        // Kept decompressed at the index (an LZMA container's clip files): taken from the
        // spill; any that cannot be taken send the reading back to the container.
        if let Some(spill) = &options.spill {
            let inners: BTreeSet<&str> = wanted
                .iter()
                .map(|at| &*self.files[at.file].inner)
                .collect();
            let kept: Option<Vec<_>> = inners
                .into_iter()
                .map(|inner| {
                    let t = spill.take(source, inner)?;
                    Some((inner.to_string(), t.bytes, t.revision))
                })
                .collect();
            if let Some(kept) = kept {
                return self.decode_inners(wanted, kept.into_iter(), options);
            }
        }
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
        let revision = opened.unity_revision;
        let inners = opened
            .files
            .into_iter()
            .map(|f| (f.name, f.bytes, revision.clone()));
        self.decode_inners(wanted, inners, options)
    }

    /// The clips at `wanted` in the serialized files `inners` (name, bytes, the container's
    /// engine version) of one file on disk.
    fn decode_inners(
        &self,
        wanted: &[ObjectRef],
        inners: impl Iterator<Item = (String, Blob, Option<String>)>,
        options: &OpenOptions,
    ) -> Vec<Result<ClipData, Error>> {
        let mut out: Vec<Option<Result<ClipData, Error>>> = wanted.iter().map(|_| None).collect();
        for (name, bytes, revision) in inners {
            let here: Vec<usize> = (0..wanted.len())
                .filter(|&i| *self.files[wanted[i].file].inner == *name)
                .collect();
            if here.is_empty() {
                continue;
            }
            let file = SerializedFile::parse_in(
                bytes,
                options.unity_version.as_deref(),
                revision.as_deref(),
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
