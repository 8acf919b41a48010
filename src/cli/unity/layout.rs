//! Where `unity` writes each source file's assets: the source's folders below the path it
//! was found under, mirrored in the output, then a folder named after the file.

use std::path::{Component, Path, PathBuf};

use clipscope_core::yaml_write::file_name::safe_file_name;

/// The output folder and the folders given on the command line, which sources are found
/// below.
pub(super) struct Layout {
    output: PathBuf,
    roots: Vec<PathBuf>,
}

impl Layout {
    /// Files found below a folder of `paths` keep their place below it; a file given by
    /// itself goes straight into `output`.
    pub(super) fn new(output: &Path, paths: &[PathBuf]) -> Self {
        let roots = paths.iter().filter(|p| p.is_dir()).cloned().collect();
        Layout {
            output: output.to_path_buf(),
            roots,
        }
    }

    /// `OUTPUT/<source's folders below its root>/<source file name>`: a game's copies or
    /// builds of one file in different folders each get a folder of their own (in one
    /// folder, a whole game's same-named files made folders of thousands of files, slower
    /// to add to with every file). Each part is made safe for every file system.
    pub(super) fn folder(&self, source: &Path) -> PathBuf {
        let below = self
            .roots
            .iter()
            .filter_map(|root| source.strip_prefix(root).ok())
            .min_by_key(|rel| rel.components().count());
        let mut dir = self.output.clone();
        if let Some(parent) = below.and_then(Path::parent) {
            for part in parent.components() {
                if let Component::Normal(name) = part {
                    dir.push(safe_file_name(&name.to_string_lossy()));
                }
            }
        }
        let name = source
            .file_name()
            .map_or_else(|| "source".into(), |n| safe_file_name(&n.to_string_lossy()));
        dir.push(name);
        dir
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_source_keeps_its_folders_below_the_folder_it_was_found_in() {
        let game = std::env::temp_dir().join(format!("clipscope-layout-{}", std::process::id()));
        let nested = game.join("StreamingAssets").join("aa");
        std::fs::create_dir_all(&nested).unwrap();
        let layout = Layout::new(Path::new("out"), std::slice::from_ref(&game));
        let bundle = nested.join("hero.bundle");
        assert_eq!(
            layout.folder(&bundle),
            Path::new("out/StreamingAssets/aa/hero.bundle")
        );
        assert_eq!(layout.folder(&game.join("level0")), Path::new("out/level0"));
        // Given by itself (not below a folder given), a file's folder is its name alone.
        assert_eq!(
            layout.folder(Path::new("elsewhere/x/walk.anim")),
            Path::new("out/walk.anim")
        );
        // Of two folders given, one inside the other, the inner one is the root.
        let both = Layout::new(Path::new("out"), &[game.clone(), nested.clone()]);
        assert_eq!(both.folder(&bundle), Path::new("out/hero.bundle"));
        // A name no file system allows is made safe, part by part.
        let odd = game.join("a:b").join("c?.assets");
        assert_eq!(layout.folder(&odd), Path::new("out/a_b/c_.assets"));
        std::fs::remove_dir_all(&game).unwrap();
    }
}
