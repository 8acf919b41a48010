//! Reading a serialized file's Transforms and GameObjects into a [`Hierarchy`]: the rig model
//! knows no file format, so the workspace fills it from the file's objects.

use std::collections::HashMap;

use crate::rig::Hierarchy;
use crate::serialized::SerializedFile;
use crate::unity::class;
use crate::unity::rig::{GameObject, Transform};

impl Hierarchy {
    /// Reads every Transform, RectTransform and GameObject of a file; objects that fail to
    /// read are left out and reported.
    pub fn read(file: &SerializedFile, problems: &mut Vec<String>) -> Hierarchy {
        let mut h = Hierarchy {
            transforms: HashMap::new(),
            game_objects: HashMap::new(),
        };
        for info in &file.objects {
            match info.class_id {
                class::TRANSFORM | class::RECT_TRANSFORM => match file.read::<Transform>(info) {
                    Ok(t) => {
                        h.transforms.insert(info.path_id, t);
                    }
                    Err(e) => problems.push(format!("Transform {}: {e}", info.path_id)),
                },
                class::GAME_OBJECT => match file.read::<GameObject>(info) {
                    Ok(g) => {
                        h.game_objects.insert(info.path_id, g);
                    }
                    Err(e) => problems.push(format!("GameObject {}: {e}", info.path_id)),
                },
                _ => {}
            }
        }
        h
    }
}
