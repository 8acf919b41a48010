//! A controller's state machines decoded again from its file. A workspace that outlines its
//! controllers ([`OpenOptions::outline_controllers`]) keeps of a binary file's controller its
//! name, parameters, clips and override pairs, not its layers, which a whole game's index
//! would otherwise hold until every controller is written; a writer decodes each again as
//! it writes it.

use super::{ObjectRef, OpenOptions, Workspace};
use crate::animator::model::{ClipSource, Controller};
use crate::container::{self, ContainerKind};
use crate::serialized::SerializedFile;
use crate::unity::{Int, PPtr, class};

impl Workspace {
    /// Controller `index`'s model in full: for a binary file's AnimatorController, decoded
    /// again from the file (from the spill where the index kept it there) with its leaves
    /// resolved to the loaded clips as when the files were opened; as kept for a text
    /// file's controller, which is kept whole, and for an override controller, whose model
    /// is its base's with its clips replaced (only an outline where the workspace outlines
    /// controllers: decode its base). `options` should be those the workspace was opened
    /// with. An error names the file and the object; a controller that did not decode
    /// gives the reason it was kept with.
    pub fn decode_controller(
        &self,
        index: usize,
        options: &OpenOptions,
    ) -> Result<Controller, String> {
        let mut out = None;
        self.each_controller_in_order(&[index], options, |_, m| m, |_, m| out = Some(m));
        out.unwrap_or_else(|| Err(format!("no controller {index} is loaded")))
    }

    /// Calls `f(i, model)` for the model of each controller `wanted[i]`
    /// ([`Self::decode_controller`]) on every core, each serialized file read once for its
    /// controllers, and hands each result to `take(i, result)` on the calling thread in
    /// `wanted`'s order as soon as it and those before it are done: what is held at once
    /// is the files and models in flight, not every model.
    pub fn each_controller_in_order<T: Send>(
        &self,
        wanted: &[usize],
        options: &OpenOptions,
        f: impl Fn(usize, Result<Controller, String>) -> T + Sync,
        take: impl FnMut(usize, T),
    ) {
        // Runs of controllers of one serialized file, in `wanted`'s order.
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let file_of = |i: usize| self.controllers.get(wanted[i]).map(|c| c.at.file);
        for i in 0..wanted.len() {
            match groups.last_mut() {
                Some(g) if file_of(g[0]) == file_of(i) => g.push(i),
                _ => groups.push(vec![i]),
            }
        }
        let run = |group: &Vec<usize>, emit: &mut dyn FnMut(usize, T)| {
            let indices: Vec<usize> = group.iter().map(|&i| wanted[i]).collect();
            for (&i, model) in group.iter().zip(self.decode_group(&indices, options)) {
                emit(i, f(i, model));
            }
        };
        super::ordered::par_in_order(rayon::current_num_threads(), groups.iter(), run, take);
    }

    /// The models of the controllers `indices`, all of one serialized file, which is read
    /// again once if any of them is a binary AnimatorController.
    fn decode_group(
        &self,
        indices: &[usize],
        options: &OpenOptions,
    ) -> Vec<Result<Controller, String>> {
        let again = |index: usize| {
            let entry = self.controllers.get(index)?;
            let binary = self.files[entry.at.file].kind != ContainerKind::Yaml;
            (binary && entry.overrides.is_none() && entry.model.is_ok()).then_some(entry)
        };
        let serialized = indices
            .iter()
            .find_map(|&i| again(i))
            .map(|entry| self.serialized_of(entry.at.file, options));
        indices
            .iter()
            .map(|&index| {
                let Some(entry) = self.controllers.get(index) else {
                    return Err(format!("no controller {index} is loaded"));
                };
                if again(index).is_none() {
                    return entry.model.clone();
                }
                let fail = |why: &str| {
                    let at = self.files[entry.at.file].location();
                    format!("{at} (path id {}): {why}", entry.at.path_id)
                };
                match &serialized {
                    Some(Ok(file)) => self.built_model(file, entry.at).map_err(|e| fail(&e)),
                    Some(Err(e)) => Err(fail(e)),
                    None => Err(fail("its file was not read again")),
                }
            })
            .collect()
    }

    /// The AnimatorController at `at` in `file`, its leaves resolved to the loaded clips.
    fn built_model(&self, file: &SerializedFile, at: ObjectRef) -> Result<Controller, String> {
        let info = file
            .object(at.path_id)
            .filter(|info| info.class_id == class::ANIMATOR_CONTROLLER)
            .ok_or("no AnimatorController with that path id")?;
        let mut model = crate::animator::read_built(file, info).map_err(|e| e.to_string())?;
        model.visit_clips_mut(&mut |leaf| {
            leaf.resolved = match &leaf.source {
                ClipSource::Binary { file_id, path_id } => {
                    let pptr = PPtr {
                        m_FileID: Int(*file_id),
                        m_PathID: Int(*path_id),
                    };
                    self.resolve(at.file, pptr)
                        .and_then(|c| self.resolved_clip(c))
                }
                ClipSource::Text { .. } | ClipSource::Missing(_) => None,
            };
        });
        Ok(model)
    }

    /// Serialized file `file` read again: from the spill where the index kept it, else from
    /// its file on disk (its container opened again).
    fn serialized_of(&self, file: usize, options: &OpenOptions) -> Result<SerializedFile, String> {
        let f = &self.files[file];
        let (bytes, revision) = match options
            .spill
            .as_ref()
            .and_then(|spill| spill.take(&f.source, &f.inner))
        {
            Some(taken) => (taken.bytes, taken.revision),
            None => {
                let bytes = std::fs::read(&f.source)
                    .map_err(|e| format!("the file can no longer be read: {e}"))?;
                let opened =
                    container::open(bytes).map_err(|e| format!("the file no longer opens: {e}"))?;
                let inner = opened
                    .files
                    .into_iter()
                    .find(|i| *i.name == *f.inner)
                    .ok_or("its inner file is gone")?;
                (inner.bytes, opened.unity_revision)
            }
        };
        SerializedFile::parse_in(bytes, options.unity_version.as_deref(), revision.as_deref())
            .map_err(|e| e.to_string())
    }
}
