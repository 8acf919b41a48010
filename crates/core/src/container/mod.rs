//! Unity's container formats: what kind of file a byte buffer is, and the serialized files
//! inside it.
//!
//! A file is a UnityFS AssetBundle, an old `UnityWeb`/`UnityRaw` web player container, or a
//! bare serialized file. Both containers are read here (`rabex`'s bundle reader misreads
//! version 6 archives and panics on web containers); their entries share one decompressed
//! buffer ([`Blob`]).

pub mod bundle;
pub mod codec;
#[cfg(test)]
mod codec_tests;
pub mod web;

pub use crate::blob::Blob;

use crate::serialized;

/// What kind of Unity file a buffer holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContainerKind {
    UnityFs,
    Web,
    Serialized,
    /// A text-serialized (YAML) project file.
    Yaml,
}

impl ContainerKind {
    pub fn name(self) -> &'static str {
        match self {
            ContainerKind::UnityFs => "UnityFS bundle",
            ContainerKind::Web => "web player container",
            ContainerKind::Serialized => "serialized file",
            ContainerKind::Yaml => "text (YAML) file",
        }
    }
}

/// A file found inside a container (or the file itself).
#[derive(Clone, Debug)]
pub struct InnerFile {
    /// Its name inside the container (`CAB-…`, `sharedassets0.assets`), empty for a bare file.
    pub name: String,
    pub bytes: Blob,
}

/// The serialized files of one container.
#[derive(Debug)]
pub struct Opened {
    pub kind: ContainerKind,
    /// The engine version the container names, used when a serialized file's is stripped.
    pub unity_revision: Option<String>,
    pub files: Vec<InnerFile>,
    /// Entries that are not serialized files: stream data (`.resS`) for meshes and textures.
    /// Audio and video (`.resource`) are left compressed and not listed.
    pub resources: Vec<InnerFile>,
    /// True when some of the data read was LZMA-compressed (a `UnityWeb` container, a
    /// bundle's LZMA blocks): slow to decompress again, compared with LZ4 or stored data.
    pub lzma: bool,
}

/// Why a container could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum ContainerError {
    #[error("not a Unity file ({0})")]
    NotUnity(String),
    #[error("encrypted bundle ({0}); clipscope does not decrypt bundles")]
    Encrypted(String),
    #[error("unsupported {what} version {version}")]
    UnsupportedVersion { what: &'static str, version: u32 },
    #[error("malformed {what}: {detail}")]
    Malformed { what: &'static str, detail: String },
    #[error(transparent)]
    Web(#[from] web::WebError),
}

/// Names the container kind of `bytes` from its signature.
pub fn detect(bytes: &[u8]) -> Option<ContainerKind> {
    if bytes.starts_with(b"UnityFS\0") {
        Some(ContainerKind::UnityFs)
    } else if web::WebContainer::is_web(bytes) {
        Some(ContainerKind::Web)
    } else if serialized::looks_serialized(bytes) {
        Some(ContainerKind::Serialized)
    } else if crate::yaml::is_yaml(bytes) {
        Some(ContainerKind::Yaml)
    } else {
        None
    }
}

/// True for the resources clipscope reads: stream data of meshes and textures (`.resS`),
/// not audio or video (`.resource`).
fn wanted_resource(name: &str) -> bool {
    !name.to_ascii_lowercase().ends_with(".resource")
}

/// Opens a container and returns the serialized files in it.
pub fn open(bytes: Vec<u8>) -> Result<Opened, ContainerError> {
    match detect(&bytes) {
        Some(ContainerKind::UnityFs) => bundle::open(bytes, wanted_resource),
        Some(ContainerKind::Web) => open_web(&bytes),
        Some(ContainerKind::Yaml) => Err(ContainerError::NotUnity(
            "a text-serialized (YAML) file: open it through a Workspace".into(),
        )),
        Some(ContainerKind::Serialized) => Ok(Opened {
            kind: ContainerKind::Serialized,
            unity_revision: None,
            files: vec![InnerFile {
                name: String::new(),
                bytes: Blob::from(bytes),
            }],
            resources: Vec::new(),
            lzma: false,
        }),
        None => Err(not_unity(&bytes)),
    }
}

fn open_web(bytes: &[u8]) -> Result<Opened, ContainerError> {
    let web = web::WebContainer::parse(bytes)?;
    let lzma = web.signature == "UnityWeb";
    let (files, resources) = split_serialized(web.entries.into_iter().map(|e| (e.name, e.data)));
    Ok(Opened {
        kind: ContainerKind::Web,
        unity_revision: Some(web.unity_revision),
        files,
        resources,
        lzma,
    })
}

/// Separates serialized files from resource blobs by their headers.
fn split_serialized(
    entries: impl Iterator<Item = (String, Blob)>,
) -> (Vec<InnerFile>, Vec<InnerFile>) {
    let mut files = Vec::new();
    let mut resources = Vec::new();
    for (name, bytes) in entries {
        if serialized::looks_serialized(&bytes) {
            files.push(InnerFile { name, bytes });
        } else if wanted_resource(&name) {
            resources.push(InnerFile { name, bytes });
        }
    }
    (files, resources)
}

/// Explains why bytes are not a Unity file, naming the formats that were tried.
fn not_unity(bytes: &[u8]) -> ContainerError {
    if bytes.is_empty() {
        return ContainerError::NotUnity("the file is empty".into());
    }
    if bytes.starts_with(b"UnityWebData") || bytes.starts_with(b"UnityArchive") {
        let sig: String = bytes
            .iter()
            .take(16)
            .take_while(|&&b| b != 0)
            .map(|&b| b as char)
            .collect();
        return ContainerError::NotUnity(format!("{sig} containers are not supported"));
    }
    match serialized::header_error(bytes) {
        Some(serialized::SerializedError::UnsupportedFormat(v)) => {
            ContainerError::UnsupportedVersion {
                what: "serialized file format",
                version: v,
            }
        }
        _ => ContainerError::NotUnity(
            "no UnityFS, UnityWeb or UnityRaw signature and no serialized file header".into(),
        ),
    }
}
