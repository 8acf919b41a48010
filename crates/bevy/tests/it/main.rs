//! The Bevy plugin's integration tests, one binary: playback, models, Animators and exports
//! loaded back with Bevy's own glTF loader.

/// The shared real files (`../shared/data`).
mod common {
    pub use clipscope_authoring::shared_data::*;
}

mod bevy_animator;
mod bevy_model;
mod bevy_playback;
mod bevy_player;
mod export_bevy;
