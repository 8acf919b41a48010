//! References to the scripts a clip's MonoBehaviour curves animate.
//!
//! In a project a script is its `.cs` file: a reference is `{fileID: 11500000, guid: G,
//! type: 3}` with the guid of the script's `.meta`. A build keeps the MonoScript (class,
//! namespace, assembly) but not that guid, so the guid written is derived from the script's
//! assembly and full class name (the same script gets the same guid from every source file),
//! and the report lists each script so its guid can be pointed at the project's own.

use serde::Serialize;

use super::emit::TextRef;
use super::{guid, source_key};
use crate::unity::{Int, PPtr};
use crate::workspace::Workspace;

/// The file id of a script's MonoScript inside its `.cs` asset.
pub const SCRIPT_FILE_ID: i64 = 11_500_000;

/// A script a written clip references.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ScriptReport {
    /// The guid written: replace it with the guid in the project's `<Class>.cs.meta`.
    pub guid: String,
    /// `Namespace.ClassName`.
    pub class: String,
    /// The assembly it is compiled into (`Assembly-CSharp.dll`).
    pub assembly: String,
}

/// The script references of one clip, with what the report says of them.
pub(super) struct ScriptRefs<'a> {
    ws: &'a Workspace,
    file: usize,
    /// The scripts referenced, once each, in first-use order.
    pub scripts: Vec<ScriptReport>,
    /// MonoScripts referenced that are not loaded, once each.
    unresolved: Vec<(i32, i64)>,
}

impl<'a> ScriptRefs<'a> {
    pub fn new(ws: &'a Workspace, file: usize) -> Self {
        ScriptRefs {
            ws,
            file,
            scripts: Vec::new(),
            unresolved: Vec::new(),
        }
    }

    /// How many scripts referenced are not loaded.
    pub fn unresolved(&self) -> usize {
        self.unresolved.len()
    }

    /// The reference for a binding's `script` (file id, path id) in the clip's file.
    pub fn reference(&mut self, (file_id, path_id): (i32, i64)) -> TextRef {
        let pptr = PPtr {
            m_FileID: Int(i64::from(file_id)),
            m_PathID: Int(path_id),
        };
        if pptr.is_null() {
            return TextRef::Null;
        }
        let script = self
            .ws
            .resolve(self.file, pptr)
            .and_then(|at| self.ws.script(at));
        let guid = match script {
            Some(entry) => {
                let class = entry.data.full_name();
                let assembly = entry.data.m_AssemblyName.clone();
                let guid = guid::derived_guid(&format!("script:{assembly}:{class}"), 0);
                if !self.scripts.iter().any(|s| s.guid == guid) {
                    self.scripts.push(ScriptReport {
                        guid: guid.clone(),
                        class,
                        assembly,
                    });
                }
                guid
            }
            None => {
                if !self.unresolved.contains(&(file_id, path_id)) {
                    self.unresolved.push((file_id, path_id));
                }
                let key = format!("{}#{file_id}", source_key(self.ws, self.file));
                guid::derived_guid(&key, path_id)
            }
        };
        TextRef::Asset {
            file_id: SCRIPT_FILE_ID,
            guid,
            kind: 3,
        }
    }
}
