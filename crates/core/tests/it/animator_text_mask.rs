//! A text controller's layer names its AvatarMask by guid: the `.mask` asset found through
//! its `.meta` file gives the layer's skeleton mask and body mask; a guid no `.meta` file
//! names leaves the layer unmasked, says why, and the pose blender warns.

use crate::common;

use std::path::PathBuf;

use clipscope_core::animator::mask::body_words;
use clipscope_core::animator::pose::PoseBlender;
use clipscope_core::rig::Skeleton;
use clipscope_core::{OpenOptions, Workspace};

const GUID: &str = "0123456789abcdef0123456789abcdef";

const MASK: &str = "%YAML 1.1
%TAG !u! tag:unity3d.com,2011:
--- !u!319 &31900000
AvatarMask:
  m_ObjectHideFlags: 0
  m_Name: Upper
  m_Mask: 00000000000000000100000000000000000000000100000001000000000000000000000000000000000000000000000000000000
  m_Elements:
  - m_Path: 
    m_Weight: 1
  - m_Path: Cube
    m_Weight: 0.5
";

/// A project folder with Cube.controller whose second layer names `guid`'s mask, and
/// Upper.mask with its .meta.
fn project(tag: &str, guid: &str) -> Option<PathBuf> {
    let source = common::data("yaml/unitypackage-js/Cube.controller")?;
    let text = std::fs::read_to_string(source).unwrap();
    let at = text
        .rfind("m_Mask: {fileID: 0}")
        .expect("the second layer's mask");
    let text = format!(
        "{}m_Mask: {{fileID: 31900000, guid: {guid}, type: 2}}{}",
        &text[..at],
        &text[at + "m_Mask: {fileID: 0}".len()..]
    );
    let dir = std::env::temp_dir()
        .join(format!("clipscope-textmask-{tag}-{}", std::process::id()))
        .join("Assets");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("Cube.controller"), text).unwrap();
    std::fs::write(dir.join("Upper.mask"), MASK).unwrap();
    std::fs::write(
        dir.join("Upper.mask.meta"),
        format!("fileFormatVersion: 2\nguid: {GUID}\nNativeFormatImporter:\n  mainObjectFileID: 31900000\n"),
    )
    .unwrap();
    Some(dir.join("Cube.controller"))
}

#[test]
fn a_mask_asset_found_by_guid_masks_the_layer() {
    let Some(path) = project("found", GUID) else {
        return;
    };
    let ws = Workspace::open(std::slice::from_ref(&path), &OpenOptions::default());
    let c = ws.controllers[0].model.as_ref().expect("decodes");
    let layer = &c.layers[1];
    assert_eq!(layer.mask_asset, None);
    assert_eq!(
        layer.mask,
        [(String::new(), 1.0), ("Cube".to_string(), 0.5)]
    );
    // Head, LeftArm and RightArm on (parts 2, 5, 6).
    let mut parts = [0u32; 13];
    for p in [2, 5, 6] {
        parts[p] = 1;
    }
    assert_eq!(layer.body_mask, Some(body_words(&parts)));
    assert!(c.layers[0].mask.is_empty() && c.layers[0].body_mask.is_none());
    std::fs::remove_dir_all(path.parent().unwrap().parent().unwrap()).ok();
}

#[test]
fn a_mask_asset_not_found_leaves_the_layer_unmasked_with_a_warning() {
    let Some(path) = project("missing", "ffffffffffffffffffffffffffffffff") else {
        return;
    };
    let ws = Workspace::open(std::slice::from_ref(&path), &OpenOptions::default());
    let c = ws.controllers[0].model.as_ref().expect("decodes");
    let layer = &c.layers[1];
    assert!(layer.mask.is_empty() && layer.body_mask.is_none());
    let why = layer.mask_asset.as_deref().expect("the reason");
    assert!(
        why.contains("ffffffff") && why.contains("not found"),
        "{why}"
    );
    let skeleton = Skeleton::from_paths(["Cube"]);
    let blender = PoseBlender::new(c, &skeleton, None, &|_| None);
    assert!(
        blender
            .warnings()
            .iter()
            .any(|w| w.contains("plays unmasked")),
        "{:?}",
        blender.warnings()
    );
    std::fs::remove_dir_all(path.parent().unwrap().parent().unwrap()).ok();
}
