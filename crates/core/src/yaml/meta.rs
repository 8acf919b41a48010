//! `.meta` files: the guid Unity gives each asset, and the project's Unity version.
//!
//! Every asset `X` of a Unity project has `X.meta` beside it, whose `guid:` line is what
//! references from other files (`{fileID: N, guid: G, type: T}`) name the asset by.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Most `.meta` bytes read: the guid is on the second line.
const META_READ_LIMIT: u64 = 64 * 1024;
/// Most directory entries visited when indexing a project.
const MAX_ENTRIES: usize = 500_000;
/// Deepest folder nesting visited.
const MAX_FOLDER_DEPTH: usize = 64;

/// The guid in `<asset>.meta`, lowercase, or `None` when that file is missing or holds none.
pub fn meta_guid(asset_path: &Path) -> Option<String> {
    let mut meta = asset_path.as_os_str().to_owned();
    meta.push(".meta");
    read_guid(Path::new(&meta))
}

fn read_guid(meta: &Path) -> Option<String> {
    let mut text = String::new();
    let file = std::fs::File::open(meta).ok()?;
    file.take(META_READ_LIMIT).read_to_string(&mut text).ok()?;
    text.lines().find_map(|line| {
        let guid = line.strip_prefix("guid:")?.trim();
        let valid = !guid.is_empty() && guid.bytes().all(|b| b.is_ascii_hexdigit());
        valid.then(|| guid.to_ascii_lowercase())
    })
}

/// Asset paths by guid, from the `.meta` files below a folder.
#[derive(Clone, Debug, Default)]
pub struct GuidIndex {
    paths: HashMap<String, PathBuf>,
}

impl GuidIndex {
    /// Indexes every `.meta` file below `root` (not following links; bounded in entries and
    /// depth). The first asset found for a guid wins.
    pub fn build(root: &Path) -> GuidIndex {
        let mut index = GuidIndex::default();
        let mut stack = vec![(root.to_path_buf(), 0)];
        let mut visited = 0;
        while let Some((dir, depth)) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                visited += 1;
                if visited > MAX_ENTRIES {
                    return index;
                }
                let Ok(kind) = entry.file_type() else {
                    continue;
                };
                let path = entry.path();
                if kind.is_dir() && depth < MAX_FOLDER_DEPTH {
                    stack.push((path, depth + 1));
                } else if kind.is_file() {
                    index.add_meta(&path);
                }
            }
        }
        index
    }

    fn add_meta(&mut self, path: &Path) {
        if path.extension().is_none_or(|e| e != "meta") {
            return;
        }
        if let Some(guid) = read_guid(path) {
            self.paths
                .entry(guid)
                .or_insert_with(|| path.with_extension(""));
        }
    }

    /// The asset a guid names.
    pub fn get(&self, guid: &str) -> Option<&Path> {
        self.paths
            .get(&guid.to_ascii_lowercase())
            .map(PathBuf::as_path)
    }

    /// How many assets are indexed.
    pub fn len(&self) -> usize {
        self.paths.len()
    }

    /// True when no asset is indexed.
    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }
}

/// Where the assets an asset references are looked for: its project's `Assets` folder when
/// it is inside one, else its own folder.
pub fn search_root(asset_path: &Path) -> PathBuf {
    let folder = asset_path.parent().unwrap_or(Path::new("."));
    folder
        .ancestors()
        .find(|a| a.file_name().is_some_and(|n| n == "Assets"))
        .unwrap_or(folder)
        .to_path_buf()
}

/// The Unity version of the project an asset belongs to, from
/// `ProjectSettings/ProjectVersion.txt` (`m_EditorVersion: 2021.3.5f1`) in a folder above it.
/// Read with the same rule as every other version (China suffixes kept); a stripped or
/// malformed `m_EditorVersion` counts as no version.
pub fn project_version(asset_path: &Path) -> Option<crate::version::UnityVersion> {
    asset_path.ancestors().skip(1).find_map(|dir| {
        let file = dir.join("ProjectSettings").join("ProjectVersion.txt");
        let mut text = String::new();
        std::fs::File::open(file)
            .ok()?
            .take(META_READ_LIMIT)
            .read_to_string(&mut text)
            .ok()?;
        let version = text
            .lines()
            .find_map(|l| l.strip_prefix("m_EditorVersion:"))?;
        version.trim().parse().ok()
    })
}
