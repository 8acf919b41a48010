//! References to the scripts a clip's MonoBehaviour curves animate.
//!
//! In a project a script is its `.cs` file: a reference is `{fileID: 11500000, guid: G,
//! type: 3}` with the guid of the script's `.meta`. A build keeps the MonoScript (class,
//! namespace, assembly) but not that guid, so the guid written is derived from the script's
//! assembly and full class name (the same script gets the same guid from every source file),
//! and the report lists each script so its guid can be pointed at the project's own.

use serde::Serialize;

use super::emit::TextRef;
use super::{Target, guid, unloaded_guid};
use crate::behaviour::ScriptData;
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
    pub fn reference(&mut self, script: (i32, i64)) -> TextRef {
        let guid = match Target::of(self.ws, self.file, script) {
            Target::Null => return TextRef::Null,
            Target::Loaded(at) => match self.ws.script(at) {
                Some(entry) => self.loaded(&entry.data),
                None => self.unloaded(script),
            },
            Target::Unloaded(_) => self.unloaded(script),
        };
        TextRef::Asset {
            file_id: SCRIPT_FILE_ID,
            guid,
            kind: 3,
        }
    }

    /// The guid of a loaded script (from its assembly and class), reported once.
    fn loaded(&mut self, data: &ScriptData) -> String {
        let class = data.full_name();
        let assembly = data.m_AssemblyName.clone();
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

    /// A script not loaded (its file or its MonoScript): counted once, with the guid
    /// derived from the reference.
    fn unloaded(&mut self, script: (i32, i64)) -> String {
        if !self.unresolved.contains(&script) {
            self.unresolved.push(script);
        }
        unloaded_guid(self.ws, self.file, script)
    }
}
