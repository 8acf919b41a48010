//! The core's integration tests, one binary: a module per subject, reading the shared real
//! Unity files and fixtures written by `clipscope-authoring`.

/// The shared real files (`../shared/data`).
mod common {
    pub use clipscope_authoring::shared_data::*;
}
mod unity_writer;

mod animator_cases;
mod animator_files;
mod animator_fixture;
mod animator_humanoid;
mod animator_override;
mod animator_text_built;
mod animator_text_mask;
mod animator_zero_length;
mod bundle_archives;
mod bundle_layouts;
mod edge_cases;
mod editor_pairs;
mod export;
mod export_blender;
mod humanoid;
mod humanoid_body;
mod humanoid_scale;
mod legacy_length;
mod mecanim_files;
mod mesh_fixtures;
mod meshes;
mod mirror;
mod scene_files;
mod textures;
mod unity_write;
mod workspace_index;
mod yaml_files;
