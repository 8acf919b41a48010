//! Reading written files back with rabex, each object from exactly its own bytes.

use std::collections::BTreeMap;
use std::io::Cursor;

use rabex::files::SerializedFile;
use rabex::files::bundlefile::{BundleFileReader, ExtractionConfig};
use rabex::files::serializedfile::Endianness;
use rabex::serde_typetree::from_reader_endianed;
use serde_json::Value;

use super::super::{Bundle, UnityTarget, embedded_tpk, write_bundle};

/// What a written file holds: its Unity version and every object by path id.
pub(super) struct ReadBack {
    pub version: String,
    pub type_trees: bool,
    pub objects: BTreeMap<i64, (i32, Value)>,
}

impl ReadBack {
    /// The object at `path_id`, which must be of class `class_id`.
    pub fn object(&self, path_id: i64, class_id: i32) -> &Value {
        let (class, value) = &self.objects[&path_id];
        assert_eq!(*class, class_id, "class of object {path_id}");
        value
    }
}

/// Opens a bundle: checks its header, returns its storage block flags and its one file.
pub(super) fn open_bundle(bytes: &[u8], target: UnityTarget) -> (Vec<u32>, Vec<u8>) {
    let mut reader =
        BundleFileReader::from_reader(Cursor::new(bytes), &ExtractionConfig::default())
            .expect("rabex opens the bundle");
    assert_eq!(reader.header().version, target.bundle_format());
    let revision = reader
        .header()
        .unity_revision
        .as_ref()
        .map(|v| v.to_string());
    assert_eq!(revision.as_deref(), Some(target.version()));
    assert_eq!(reader.files().len(), 1);
    assert!(reader.files()[0].path.starts_with("CAB-"));
    let flags = reader.blocks().iter().map(|block| block.flags).collect();
    let mut file = reader.next_serialized().expect("one serialized file");
    (flags, file.read().expect("file data").to_vec())
}

/// Parses a serialized file and decodes every object to JSON, each from exactly its own bytes.
pub(super) fn read_serialized(data: &[u8]) -> ReadBack {
    let reader = &mut Cursor::new(data);
    let file = SerializedFile::from_reader(reader).expect("rabex parses the serialized file");
    let mut objects = BTreeMap::new();
    for info in file.objects() {
        let object = file
            .get_object::<Value>(info.m_PathID, embedded_tpk())
            .expect("object");
        let raw = object.get_raw_data(reader).expect("raw object data");
        let mut bytes = Cursor::new(raw.as_slice());
        let tree = object.typetree().expect("type tree");
        let value: Value = from_reader_endianed(&mut bytes, tree, Endianness::Little)
            .unwrap_or_else(|e| panic!("object {} does not decode: {e}", info.m_PathID));
        assert_eq!(
            bytes.position() as usize,
            raw.len(),
            "object {} size",
            info.m_PathID
        );
        objects.insert(info.m_PathID, (info.m_ClassID.0, value));
    }
    ReadBack {
        version: file.m_UnityVersion.as_ref().expect("version").to_string(),
        type_trees: file.m_EnableTypeTree,
        objects,
    }
}

pub(super) fn read_bundle(bundle: &Bundle) -> ReadBack {
    let bytes = write_bundle(bundle).expect("bundle writes");
    let (_, data) = open_bundle(&bytes, bundle.target);
    read_serialized(&data)
}

pub(super) fn f(value: &Value) -> f32 {
    value
        .as_f64()
        .unwrap_or_else(|| panic!("not a number: {value}")) as f32
}

pub(super) fn floats(value: &Value) -> Vec<f32> {
    value.as_array().expect("array").iter().map(f).collect()
}

pub(super) fn words(value: &Value) -> Vec<u32> {
    let array = value.as_array().expect("array");
    array
        .iter()
        .map(|w| w.as_u64().expect("u32") as u32)
        .collect()
}
