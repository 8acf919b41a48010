//! What clips change on a spawned model: blend shape weights through each channel's frames,
//! and the sprite a sprite renderer shows.

use bevy::mesh::morph::MorphWeights;
use bevy::prelude::*;

use super::build::MorphFrames;
use super::data::ClipObjects;
use super::spawn::SpriteSwap;
use crate::scene::blend_shape_keys;
use crate::{UnityProperties, property_key};
use clipscope_core::hash::attribute_hash;
use clipscope_core::unity::class;

/// What the morph weights of a model's skinned renderer are set from.
type MorphView = (
    &'static UnityProperties,
    &'static MorphFrames,
    &'static mut MorphWeights,
);
/// Renderer joints whose weights may have changed.
type MorphChanged = Or<(Changed<UnityProperties>, Added<MorphFrames>)>;

/// Sets the morph target weights of a model's skinned renderer from its joint's blend shape
/// weights (animated, else the renderer's stored ones), blending multi-frame channels as
/// Unity does and scaling by each frame's own weight. Runs after the name-matching driver
/// (`scene::apply_blend_shapes`), which knows only one frame at weight 100.
pub fn apply_blend_shape_frames(mut renderers: Query<MorphView, MorphChanged>) {
    for (props, frames, mut morph) in &mut renderers {
        let channels: Vec<f32> = frames
            .mesh
            .blend_shapes
            .iter()
            .enumerate()
            .map(|(c, channel)| {
                blend_shape_keys(&channel.name)
                    .iter()
                    .find_map(|key| props.values.get(key).copied())
                    .or_else(|| frames.rest.get(c).copied())
                    .unwrap_or(0.0)
            })
            .collect();
        let weights = frames.layout.weights(&frames.mesh, &channels);
        if morph.weights() != weights.as_slice() && morph.weights().len() == weights.len() {
            morph.weights_mut().copy_from_slice(&weights);
        }
    }
}

/// The keys a SpriteRenderer's sprite curve is stored under: attribute 0 (built clips) or the
/// CRC-32 of `m_Sprite` (text clips).
pub fn sprite_keys() -> [u64; 2] {
    [
        property_key(class::SPRITE_RENDERER, 0),
        property_key(class::SPRITE_RENDERER, attribute_hash("m_Sprite")),
    ]
}

/// Shows the sprite a sprite curve selects: its value indexes the rig root's
/// [`ClipObjects`]; a sprite the model has replaces the quad's mesh and material.
pub fn swap_sprites(
    mut quads: Query<(
        &SpriteSwap,
        &mut Mesh3d,
        &mut MeshMaterial3d<StandardMaterial>,
    )>,
    props: Query<&UnityProperties>,
    objects: Query<&ClipObjects>,
) {
    for (swap, mut mesh, mut material) in &mut quads {
        let Some(value) = props
            .get(swap.joint)
            .ok()
            .and_then(|p| sprite_keys().iter().find_map(|k| p.values.get(k).copied()))
        else {
            continue;
        };
        if !(value >= 0.0 && value < u32::MAX as f32) {
            continue;
        }
        let Some(at) = objects
            .get(swap.root)
            .ok()
            .and_then(|o| o.0.get(value.round() as usize).copied().flatten())
        else {
            continue;
        };
        if let Some(frame) = swap.frames.iter().find(|f| f.sprite == at) {
            if mesh.0 != frame.mesh {
                mesh.0 = frame.mesh.clone();
            }
            if material.0 != frame.material {
                material.0 = frame.material.clone();
            }
        }
    }
}
