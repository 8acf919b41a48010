//! The files the viewer has opened, as one resource that the scene, the rig choice and the
//! panels read.

use std::sync::Arc;

use bevy::prelude::Resource;

use clipscope_core::workspace::Workspace;

/// The opened files.
#[derive(Resource, Clone)]
pub struct Library {
    pub main: Arc<Workspace>,
}
