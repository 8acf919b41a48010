//! Errors that name the file (and object) they concern.

use std::path::PathBuf;

use crate::container::ContainerError;
use crate::serialized::SerializedError;

/// Something in a file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {source}", path.display())]
    Container {
        path: PathBuf,
        source: ContainerError,
    },
    /// A text-serialized (YAML) file that could not be read; the message names the file and
    /// the document.
    #[error("{source}")]
    Text {
        path: PathBuf,
        source: crate::yaml::YamlError,
    },
    /// `location` is the file, plus the inner file's name for containers.
    #[error("{location}: {source}")]
    Serialized {
        location: String,
        source: SerializedError,
    },
    #[error("{location}: object {path_id} ({class}): {detail}")]
    Object {
        location: String,
        path_id: i64,
        class: String,
        detail: String,
    },
}
