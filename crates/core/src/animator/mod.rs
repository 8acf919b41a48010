//! AnimatorControllers: decoded into one plain model (built class 91 and text `.controller`
//! files alike), blend tree weights, and the state machine played frame by frame the way
//! Unity's Animator does (the rules are those of the project's animator spec).
//!
//! - [`model`]: the data model; [`raw`], [`built`], [`machines`]: class 91 as stored and its
//!   conversion; [`text`]: editor YAML; [`names`]: the string table.
//! - [`tree`], [`blend`]: blend tree leaves and weights; [`machine`]: the state machine per
//!   update; [`script`]: scripted runs; [`events`]: the clip events the leaves fire;
//!   [`root_motion`]: how far the leaves move the rig's root between updates.
//! - [`pose`]: the machine's output blended into joint transforms on a rig
//!   ([`pose::PoseBlender`]); [`mask`]: layer masks per joint and per human-pose value.
//!
//! Free of Bevy and of the workspace: clips are linked by [`model::ClipSource`] and resolved
//! by the caller into [`model::ResolvedClip`]s; pose blending takes the rig and the clips'
//! data from the caller.

pub mod avatar_mask;
pub mod blend;
pub mod built;
pub mod check;
pub mod events;
pub mod json;
mod layer_rules;
pub mod machine;
#[cfg(test)]
mod machine_tests;
pub mod machines;
pub mod mask;
pub mod model;
pub mod names;
pub mod owned;
pub mod params;
pub mod pose;
pub mod raw;
pub mod root_motion;
pub mod script;
pub mod text;
pub mod tree;

pub use model::Controller;

use crate::serialized::{ObjectInfo, SerializedFile};

/// Why a built controller could not be decoded.
#[derive(Debug, thiserror::Error)]
pub enum AnimatorError {
    #[error(
        "a Unity {version} editor controller (editor layout, not the built ControllerConstant): not supported; open the built controller of a player or bundle instead"
    )]
    Editor { version: String },
    #[error("{0}")]
    Read(#[from] crate::serialized::SerializedError),
}

/// Decodes the AnimatorController (class 91) `info` of `file` into the model.
pub fn read_built(file: &SerializedFile, info: &ObjectInfo) -> Result<Controller, AnimatorError> {
    let tree = file.type_tree(info)?;
    let built = tree.children.iter().any(|c| c.m_Name == "m_Controller");
    if !built {
        return Err(AnimatorError::Editor {
            version: file.effective_version.to_string(),
        });
    }
    let raw: raw::AnimatorController = file.read(info)?;
    Ok(built::from_raw(&raw))
}
