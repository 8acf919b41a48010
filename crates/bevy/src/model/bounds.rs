//! Where a model's meshes are in a pose, without rendering: for framing a camera over a
//! clip. Skinned meshes give points spanning the box Unity bounds them by
//! ([`clipscope_core::mesh::posed_points`]: each bone's box corners placed by the bone, not
//! the corners of the whole box), rigid meshes their box on their joint, sprites their quad.

use bevy::math::Affine3A;
use bevy::prelude::*;

use super::data::UnityModel;
use super::mesh::matrix_to_bevy;
use crate::{DirectClip, rest_transform};
use clipscope_core::mesh::{Aabb, Mat4 as UnityMat4, posed_points};
use clipscope_core::rig::Skeleton;
use clipscope_core::workspace::RendererKind;

/// The joints' world transforms (Bevy space, skeleton order) in the rest pose, or posed by
/// `clip` at time `t`.
pub fn posed_joints(skeleton: &Skeleton, clip: Option<&DirectClip>, t: f32) -> Vec<Affine3A> {
    let mut world: Vec<GlobalTransform> = Vec::with_capacity(skeleton.joints.len());
    for joint in &skeleton.joints {
        let mut local = rest_transform(joint);
        if let Some(tracks) = clip.and_then(|c| c.tracks.get(&joint.path_hash)) {
            for track in tracks.iter() {
                track.apply(t, &mut local, None);
            }
        }
        let global = match joint.parent.and_then(|p| world.get(p)) {
            Some(parent) => parent.mul_transform(local),
            None => GlobalTransform::from(local),
        };
        world.push(global);
    }
    world.into_iter().map(|g| g.affine()).collect()
}

/// A Bevy-space world matrix as Unity's (row-major, Unity space): the mirror is its own
/// inverse, so the conversion is the same conjugation.
fn to_unity(m: &Affine3A) -> UnityMat4 {
    let rows = Mat4::from(*m).transpose().to_cols_array();
    matrix_to_bevy(&rows).transpose().to_cols_array()
}

/// The corners of a Unity-space box, in Bevy's space.
fn corners(b: &Aabb) -> impl Iterator<Item = Vec3> {
    b.corners().into_iter().map(|[x, y, z]| Vec3::new(x, y, -z))
}

/// Points whose box holds everything `model` draws with its joints at `world` (from
/// [`posed_joints`]). Blend shapes are not included.
pub fn model_points(model: &UnityModel, world: &[Affine3A]) -> Vec<Vec3> {
    let mut out = Vec::new();
    for r in &model.renderers {
        let Some(at) = world.get(r.joint) else {
            continue;
        };
        match (&r.kind, &r.mesh) {
            (RendererKind::Skinned { bones, .. }, Some(mesh)) if mesh.is_skinned() => {
                let bone_world: Vec<UnityMat4> = (0..mesh.bind_poses.len())
                    .map(|i| {
                        bones
                            .get(i)
                            .copied()
                            .flatten()
                            .and_then(|j| world.get(j))
                            .map_or(clipscope_core::mesh::matrix::IDENTITY, to_unity)
                    })
                    .collect();
                out.extend(
                    posed_points(mesh, &bone_world)
                        .into_iter()
                        .map(|[x, y, z]| Vec3::new(x, y, -z)),
                );
            }
            (RendererKind::Sprite { sprite, .. }, _) => {
                if let Some(s) = sprite.and_then(|s| model.sprite(s)) {
                    let d = &s.data;
                    let ppu = if d.pixels_to_units > 0.0 {
                        d.pixels_to_units
                    } else {
                        100.0
                    };
                    let (w, h) = (d.texture_rect[2] / ppu, d.texture_rect[3] / ppu);
                    let (x0, y0) = (-d.pivot[0] * w, -d.pivot[1] * h);
                    for (x, y) in [(x0, y0), (x0 + w, y0 + h)] {
                        out.push(at.transform_point3(Vec3::new(x, y, 0.0)));
                    }
                }
            }
            (_, Some(mesh)) => {
                if let Some(b) = mesh.bounds() {
                    out.extend(corners(&b).map(|p| at.transform_point3(p)));
                }
            }
            (_, None) => {}
        }
    }
    out.retain(|p| p.is_finite());
    out
}

/// Points bounding `model` over `clip` (`samples` + 1 poses from its start to its stop) and
/// in its rest pose.
pub fn model_points_over(model: &UnityModel, clip: &DirectClip, samples: usize) -> Vec<Vec3> {
    let mut out = model_points(model, &posed_joints(&model.skeleton, None, 0.0));
    let (start, stop) = (clip.clip.start, clip.clip.stop);
    if start.is_finite() && stop.is_finite() && stop >= start {
        for i in 0..=samples {
            let t = start + (stop - start) * i as f32 / samples.max(1) as f32;
            out.extend(model_points(
                model,
                &posed_joints(&model.skeleton, Some(clip), t),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unity_conversion_round_trips_a_bevy_matrix() {
        let t = Transform {
            translation: Vec3::new(1.0, 2.0, -3.0),
            rotation: Quat::from_rotation_y(0.7) * Quat::from_rotation_x(0.2),
            scale: Vec3::splat(0.5),
        };
        let affine = GlobalTransform::from(t).affine();
        let unity = to_unity(&affine);
        // Unity's translation is the mirrored one, in elements 3, 7, 11.
        assert_eq!([unity[3], unity[7], unity[11]], [1.0, 2.0, 3.0]);
        let back = matrix_to_bevy(&unity);
        assert!(back.abs_diff_eq(Mat4::from(affine), 1e-6));
    }
}
