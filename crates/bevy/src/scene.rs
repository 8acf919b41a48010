//! Animated properties that Bevy's own scene components show (feature `scene`): a
//! GameObject's `m_IsActive` drives the joint's `Visibility`, and a SkinnedMeshRenderer's
//! blend shape weights drive `MorphWeights` where a mesh with named morph targets is attached.
//!
//! The values themselves always land in [`UnityProperties`]; these systems only copy them out,
//! after Bevy's animation systems and before visibility propagates.

use bevy::camera::visibility::Visibility;
use bevy::mesh::Mesh;
use bevy::mesh::morph::MorphWeights;
use bevy::prelude::*;

use super::properties::{UnityProperties, property_key};
use clipscope_core::hash::attribute_hash;

/// Unity's class id of `SkinnedMeshRenderer`, the owner of blend shape bindings.
const SKINNED_MESH_RENDERER: i32 = 137;

/// The two keys a blend shape named `shape` is bound by: the CRC-32 of the shape name alone
/// (what a built clip stores) and of `blendShape.<shape>` (text and legacy clips).
pub fn blend_shape_keys(shape: &str) -> [u64; 2] {
    [
        property_key(SKINNED_MESH_RENDERER, attribute_hash(shape)),
        property_key(
            SKINNED_MESH_RENDERER,
            attribute_hash(&format!("blendShape.{shape}")),
        ),
    ]
}

/// An animated `m_IsActive` shows (`Inherited`) or hides (`Hidden`) the joint and, as in
/// Unity, everything below it. Joints whose activity is not animated keep their visibility.
pub fn apply_active(
    mut joints: Query<(&UnityProperties, &mut Visibility), Changed<UnityProperties>>,
) {
    for (props, mut visibility) in &mut joints {
        if let Some(active) = props.active() {
            visibility.set_if_neq(if active {
                Visibility::Inherited
            } else {
                Visibility::Hidden
            });
        }
    }
}

/// Animated blend shape weights (Unity's 0–100) set the matching morph target weights
/// (Bevy's 0–1), matched by the names of the mesh's morph targets. Targets with no animated
/// weight keep theirs.
pub fn apply_blend_shapes(
    meshes: Option<Res<Assets<Mesh>>>,
    mut renderers: Query<(&UnityProperties, &mut MorphWeights), Changed<UnityProperties>>,
) {
    let Some(meshes) = meshes else {
        return;
    };
    for (props, mut morph) in &mut renderers {
        let Some(names) = morph
            .first_mesh()
            .and_then(|mesh| meshes.get(mesh))
            .and_then(|mesh| mesh.morph_target_names())
        else {
            continue;
        };
        let animated: Vec<Option<f32>> = names
            .iter()
            .map(|name| {
                blend_shape_keys(name)
                    .iter()
                    .find_map(|key| props.values.get(key))
                    .map(|weight| weight / 100.0)
            })
            .collect();
        if animated.iter().all(Option::is_none) {
            continue;
        }
        for (weight, value) in morph.weights_mut().iter_mut().zip(animated) {
            if let Some(value) = value {
                *weight = value;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blend_shape_keys_match_built_and_text_clips() {
        // BSSTAnimation.anim's m_ClipBindingConstant stores 1052778082 for shape_0; its
        // keyframes name `blendShape.shape_0`.
        let [built, text] = blend_shape_keys("shape_0");
        assert_eq!(built, (137u64 << 32) | 1_052_778_082);
        assert_eq!(text, (137u64 << 32) | 3_195_315_790);
    }
}
