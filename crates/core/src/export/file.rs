//! One rig written to a `.glb` file with every clip that plays on it: what the viewer's
//! "Export glTF" action calls (the viewer only passes the rig, the path and the options).

use std::path::{Path, PathBuf};

use super::{
    ExportClip, ExportError, ExportOptions, ExportRig, Report, clips_from_playing_on, export,
};
use crate::workspace::Workspace;

/// Why a rig could not be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("no rig {0} in the files")]
    NoRig(usize),
    #[error("no clip plays on rig {0}: nothing to export")]
    NoClip(String),
    #[error("no clip could be exported: nothing in them moves rig {0}")]
    NothingMoves(String),
    #[error(transparent)]
    Export(#[from] ExportError),
    #[error("writing {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The default file name for a rig: `RIGNAME.glb`, with characters that paths treat
/// specially replaced by `_` (`rig.glb` for a rig without a name).
pub fn default_file_name(rig: &str) -> String {
    let name: String = rig
        .trim()
        .chars()
        .map(|c| match c {
            '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|' => '_',
            c if c.is_control() => '_',
            c => c,
        })
        .collect();
    let name = name.trim_matches('.');
    if name.is_empty() {
        "rig.glb".into()
    } else {
        format!("{name}.glb")
    }
}

/// Exports rig `index` of `rigs` with every clip of `clips` that plays on it (`clips` may be
/// `rigs` itself, or the files the clips were opened from when the rig comes from others)
/// and writes the `.glb` to `path`. Returns the report; nothing is written on error.
pub fn write_rig(
    rigs: &Workspace,
    index: usize,
    clips: &Workspace,
    path: &Path,
    options: &ExportOptions,
) -> Result<Report, WriteError> {
    rigs.rigs.get(index).ok_or(WriteError::NoRig(index))?;
    let playing = clips_from_playing_on(clips, rigs, index);
    write_clips(rigs, index, &playing, path, options)
}

/// Exports rig `index` of `rigs` with the clips `clips` (chosen by the caller: the viewer
/// chooses them on every opened file, then writes from the few files opened in full) and
/// writes the `.glb` to `path`, as [`write_rig`] does.
pub fn write_clips(
    rigs: &Workspace,
    index: usize,
    clips: &[ExportClip<'_>],
    path: &Path,
    options: &ExportOptions,
) -> Result<Report, WriteError> {
    let rig = rigs.rigs.get(index).ok_or(WriteError::NoRig(index))?;
    if clips.is_empty() {
        return Err(WriteError::NoClip(rig.name.clone()));
    }
    let exported = export(rigs, &ExportRig::of(rig), clips, options)?;
    if exported.animations() == 0 {
        return Err(WriteError::NothingMoves(rig.name.clone()));
    }
    crate::output_file::write(path, &exported.glb).map_err(|source| WriteError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let mut report = exported.report;
    report.file = path.display().to_string();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo::{DEMO, DEMO_FILE_NAME};
    use crate::workspace::OpenOptions;

    fn demo() -> Workspace {
        Workspace::open_bytes(
            Path::new(DEMO_FILE_NAME),
            DEMO.to_vec(),
            &OpenOptions::default(),
        )
    }

    fn temp(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("clipscope-write-rig-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn the_demo_rig_is_written_with_its_clips_and_reads_back() {
        let ws = demo();
        assert_eq!(ws.rigs.len(), 1);
        let rig = &ws.rigs[0];
        let dir = temp("demo");
        let path = dir.join(default_file_name(&rig.name));
        let report = write_rig(&ws, 0, &ws, &path, &ExportOptions::default()).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        let gltf = gltf::Gltf::from_slice(&bytes).expect("parses and validates");
        assert_eq!(report.file, path.display().to_string());
        assert_eq!(report.rig, rig.name);
        // Every decoded clip of the demo plays on its one rig, one animation each.
        let clips: Vec<&str> = ws
            .clips
            .iter()
            .filter(|c| c.data.is_ok())
            .map(|c| c.name.as_str())
            .collect();
        assert_eq!(clips.len(), 7);
        let mut names: Vec<&str> = gltf.animations().filter_map(|a| a.name()).collect();
        let mut want = clips.clone();
        names.sort();
        want.sort();
        assert_eq!(names, want);
        assert_eq!(report.clips.len(), 7);
        assert!(report.clips.iter().all(|c| c.channels > 0), "{report:?}");
        assert_eq!(gltf.nodes().count(), rig.skeleton.joints.len());
        assert_eq!(gltf.nodes().next().unwrap().name(), Some(rig.name.as_str()));
    }

    #[test]
    fn what_cannot_be_written_is_an_error_and_writes_nothing() {
        let ws = demo();
        let dir = temp("errors");
        let path = dir.join("out.glb");
        let options = ExportOptions::default();
        assert!(matches!(
            write_rig(&ws, 5, &ws, &path, &options),
            Err(WriteError::NoRig(5))
        ));
        // No clip: the clips come from files that hold none.
        let empty = Workspace::default();
        let err = write_rig(&ws, 0, &empty, &path, &options).unwrap_err();
        assert!(matches!(err, WriteError::NoClip(_)), "{err}");
        assert!(!path.exists());
        let missing = dir.join("no such folder").join("out.glb");
        let err = write_rig(&ws, 0, &ws, &missing, &options).unwrap_err();
        assert!(
            matches!(err, WriteError::Io { .. }) && err.to_string().contains("no such folder"),
            "{err}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn default_names_are_file_names() {
        assert_eq!(default_file_name("morbman"), "morbman.glb");
        assert_eq!(default_file_name("a/b:c"), "a_b_c.glb");
        assert_eq!(default_file_name(" .. "), "rig.glb");
        assert_eq!(default_file_name(""), "rig.glb");
    }
}
