//! Identical objects met in several files, held once. A game's bundles repeat what they
//! share (an Avatar and its character's rig copied into every bundle that uses them, the same
//! rig in every level), so a whole game's index keeps one decoded copy of each and every entry
//! that has it points to that one: the index grows with what differs, not with the files.

use std::collections::HashMap;
use std::sync::Arc;

use super::{FileVersion, PathNames};
use crate::avatar::AvatarData;
use crate::behaviour::ScriptData;
use crate::humanoid::HumanoidRig;
use crate::material::PropertyNames;
use crate::rig::Skeleton;
use crate::serialized::External;

/// A serialized file's list of external files, as a workspace keeps it.
type Externals = Arc<[External]>;

/// The shared copies met so far, found by a cheap key and confirmed equal in full.
#[derive(Default)]
pub(super) struct Shared {
    avatars: HashMap<(String, usize, usize), Vec<Arc<AvatarData>>>,
    names: HashMap<(usize, Option<u32>), Vec<PathNames>>,
    skeletons: HashMap<(usize, Option<u32>), Vec<Arc<Skeleton>>>,
    /// Materials' property names, by how many there are and the first float's name.
    properties: HashMap<(usize, Option<String>), Vec<Arc<PropertyNames>>>,
    /// Lists of the files that files' references point into, by length and last name.
    externals: HashMap<(usize, Option<String>), Vec<Externals>>,
    /// Unity versions as written and as used, by the written text.
    versions: HashMap<Box<str>, Vec<Arc<FileVersion>>>,
    /// MonoScripts (every bundle whose behaviours run a script holds its own copy).
    scripts: HashMap<String, Vec<Arc<ScriptData>>>,
    /// Humanoid rigs by the addresses of the shared avatar and skeleton they bind (both
    /// held in the buckets above for as long as this lives, so no address is reused).
    humanoids: HashMap<(usize, usize), Arc<HumanoidRig>>,
}

/// A humanoid rig's key: the addresses of its shared avatar and skeleton.
fn key(avatar: &Arc<AvatarData>, skeleton: &Arc<Skeleton>) -> (usize, usize) {
    (Arc::as_ptr(avatar) as usize, Arc::as_ptr(skeleton) as usize)
}

/// The copy in `bucket` equal to `value`, else `value` itself, now kept there.
fn share<T: PartialEq + ?Sized>(bucket: &mut Vec<Arc<T>>, value: Arc<T>) -> Arc<T> {
    match bucket.iter().find(|x| ***x == *value) {
        Some(x) => Arc::clone(x),
        None => {
            bucket.push(Arc::clone(&value));
            value
        }
    }
}

impl Shared {
    /// One copy of each equal decoded Avatar.
    pub fn avatar(&mut self, data: AvatarData) -> Arc<AvatarData> {
        let key = (data.name.clone(), data.skeleton.nodes.len(), data.tos.len());
        share(self.avatars.entry(key).or_default(), Arc::new(data))
    }

    /// One copy of each equal path table (`m_TOS`).
    pub fn names(&mut self, names: PathNames) -> PathNames {
        let key = (names.len(), names.keys().next_back().copied());
        share(self.names.entry(key).or_default(), names)
    }

    /// One copy of each equal skeleton.
    pub fn skeleton(&mut self, skeleton: Arc<Skeleton>) -> Arc<Skeleton> {
        let key = (
            skeleton.joints.len(),
            skeleton.joints.last().map(|j| j.path_hash),
        );
        share(self.skeletons.entry(key).or_default(), skeleton)
    }

    /// One copy of each equal list of a material's property names.
    pub fn properties(&mut self, names: Arc<PropertyNames>) -> Arc<PropertyNames> {
        let count = names.floats.len() + names.ints.len() + names.colors.len();
        let key = (count + names.textures.len(), names.floats.first().cloned());
        share(self.properties.entry(key).or_default(), names)
    }

    /// One copy of each equal list of external files.
    pub fn externals(&mut self, list: Externals) -> Externals {
        let key = (list.len(), list.last().map(|e| e.path.clone()));
        share(self.externals.entry(key).or_default(), list)
    }

    /// One copy of each Unity version (as written, as used): a game's files repeat one.
    pub fn version(&mut self, version: Arc<FileVersion>) -> Arc<FileVersion> {
        match self.versions.get_mut(&*version.written) {
            Some(bucket) => share(bucket, version),
            None => {
                let written = version.written.clone();
                self.versions.insert(written, vec![Arc::clone(&version)]);
                version
            }
        }
    }

    /// One copy of each equal MonoScript.
    pub fn script(&mut self, script: ScriptData) -> Arc<ScriptData> {
        let key = script.m_ClassName.clone();
        share(self.scripts.entry(key).or_default(), Arc::new(script))
    }

    /// The humanoid rig already bound from this avatar to this skeleton (both shared
    /// copies, compared by address).
    pub fn humanoid(
        &self,
        avatar: &Arc<AvatarData>,
        skeleton: &Arc<Skeleton>,
    ) -> Option<Arc<HumanoidRig>> {
        self.humanoids.get(&key(avatar, skeleton)).cloned()
    }

    /// Keeps a humanoid rig bound from `avatar` to `skeleton` for the next rig like it.
    pub fn keep_humanoid(
        &mut self,
        avatar: &Arc<AvatarData>,
        skeleton: &Arc<Skeleton>,
        rig: &Arc<HumanoidRig>,
    ) {
        self.humanoids
            .insert(key(avatar, skeleton), Arc::clone(rig));
    }
}
