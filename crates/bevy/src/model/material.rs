//! Unity materials, textures and sprites as Bevy materials, images and quads (`mesh.md`
//! §4, §5.4): the base colour (gamma space) and main texture with its UV scale and offset;
//! decoded RGBA8 images uploaded top row first; sprites as quads cut from their sheet.

use bevy::asset::RenderAssetUsages;
use bevy::image::{Image, ImageAddressMode, ImageSampler, ImageSamplerDescriptor};
use bevy::math::Affine2;
use bevy::mesh::{Indices, Mesh, PrimitiveTopology};
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

use super::data::{ModelMaterial, ModelSprite};
use clipscope_core::texture::RgbaImage;

/// A decoded texture as a Bevy image (sRGB colour, repeating like Unity's default wrap), or
/// `None` when its size does not match its pixels.
pub fn bevy_image(image: &RgbaImage) -> Option<Image> {
    let expected = (image.width as usize)
        .checked_mul(image.height as usize)?
        .checked_mul(4)?;
    if image.width == 0 || image.height == 0 || image.pixels.len() != expected {
        return None;
    }
    let mut out = Image::new(
        Extent3d {
            width: image.width,
            height: image.height,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        image.pixels.clone(),
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    );
    out.sampler = ImageSampler::Descriptor(ImageSamplerDescriptor {
        address_mode_u: ImageAddressMode::Repeat,
        address_mode_v: ImageAddressMode::Repeat,
        ..ImageSamplerDescriptor::linear()
    });
    Some(out)
}

/// A gamma-space RGBA colour as Bevy's.
pub fn color(c: [f32; 4]) -> Color {
    Color::srgba(c[0], c[1], c[2], c[3])
}

/// The material for `m` (its image already added as `texture`, where it decoded). Meshes
/// flip v for top-down images (see [`super::mesh`]), so Unity's `uv × scale + offset` in
/// flipped space is `(u·sx + ox, v·sy + 1 − sy − oy)`.
pub fn bevy_material(m: &ModelMaterial, texture: Option<Handle<Image>>) -> StandardMaterial {
    let uv_transform = match (&m.texture, &texture) {
        (Some(t), Some(_)) => {
            let [sx, sy] = t.scale;
            let [ox, oy] = t.offset;
            Affine2::from_scale_angle_translation(
                Vec2::new(sx, sy),
                0.0,
                Vec2::new(ox, 1.0 - sy - oy),
            )
        }
        _ => Affine2::IDENTITY,
    };
    StandardMaterial {
        base_color: color(m.color),
        base_color_texture: texture,
        uv_transform,
        perceptual_roughness: 0.8,
        metallic: 0.0,
        ..default()
    }
}

/// The material drawn where a slot's material is not loaded.
pub fn plain_material() -> StandardMaterial {
    StandardMaterial {
        base_color: color(super::data::PLAIN_GREY),
        perceptual_roughness: 0.8,
        metallic: 0.0,
        ..default()
    }
}

/// A sprite's quad in its joint's XY plane: `rect` pixels over `pixels_to_units`, the pivot
/// at the origin, UVs cut from the sheet (`size` pixels; none known: the whole unit square),
/// flipped as the renderer asks. Double-sided, facing +Z (Unity's −Z, towards the 2D camera).
pub fn sprite_quad(sprite: &ModelSprite, flip: [bool; 2]) -> Mesh {
    let d = &sprite.data;
    let [x, y, w, h] = d.texture_rect;
    let ppu = if d.pixels_to_units > 0.0 && d.pixels_to_units.is_finite() {
        d.pixels_to_units
    } else {
        100.0
    };
    let (width, height) = (w / ppu, h / ppu);
    let x0 = -d.pivot[0] * width;
    let y0 = -d.pivot[1] * height;
    let sign = |f: bool| if f { -1.0 } else { 1.0 };
    let (fx, fy) = (sign(flip[0]), sign(flip[1]));
    let corners = [
        [x0, y0],
        [x0 + width, y0],
        [x0 + width, y0 + height],
        [x0, y0 + height],
    ];
    let positions: Vec<[f32; 3]> = corners
        .iter()
        .map(|&[px, py]| [px * fx, py * fy, 0.0])
        .collect();
    let uvs: Vec<[f32; 2]> = match sprite.image.as_deref() {
        Some(img) if img.width > 0 && img.height > 0 => {
            let (sw, sh) = (img.width as f32, img.height as f32);
            let (u0, u1) = (x / sw, (x + w) / sw);
            // The rect's y counts up from the bottom row; the image is stored top row first.
            let (v_bottom, v_top) = (1.0 - y / sh, 1.0 - (y + h) / sh);
            vec![[u0, v_bottom], [u1, v_bottom], [u1, v_top], [u0, v_top]]
        }
        _ => vec![[0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]],
    };
    let finite = |v: &[f32]| v.iter().all(|c| c.is_finite());
    let positions = if positions.iter().all(|p| finite(p)) {
        positions
    } else {
        vec![[0.0; 3]; 4]
    };
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, vec![[0.0, 0.0, 1.0]; 4])
    .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
    .with_inserted_indices(Indices::U32(vec![0, 1, 2, 0, 2, 3]))
}

/// A sprite's material: its sheet (where decoded) tinted by the renderer's colour, unlit,
/// blended by alpha and seen from both sides.
pub fn sprite_material(tint: [f32; 4], texture: Option<Handle<Image>>) -> StandardMaterial {
    StandardMaterial {
        base_color: color(tint),
        base_color_texture: texture,
        unlit: true,
        alpha_mode: AlphaMode::Blend,
        double_sided: true,
        cull_mode: None,
        ..default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clipscope_core::mesh::renderer::SpriteData;
    use clipscope_core::workspace::ObjectRef;
    use std::sync::Arc;

    const NOWHERE: ObjectRef = ObjectRef {
        file: 0,
        path_id: 0,
    };

    fn sprite(image: Option<RgbaImage>) -> ModelSprite {
        ModelSprite {
            at: NOWHERE,
            data: SpriteData {
                name: "walk_1".into(),
                texture: Default::default(),
                texture_rect: [16.0, 0.0, 16.0, 16.0],
                pivot: [0.5, 0.0],
                pixels_to_units: 16.0,
            },
            texture: None,
            image: image.map(Arc::new),
        }
    }

    #[test]
    fn a_sprite_quad_is_its_rect_in_units_around_the_pivot_and_cuts_its_cell() {
        let sheet = RgbaImage {
            width: 224,
            height: 16,
            pixels: vec![0; 224 * 16 * 4],
        };
        let quad = sprite_quad(&sprite(Some(sheet)), [false, false]);
        let Some(bevy::mesh::VertexAttributeValues::Float32x3(p)) =
            quad.attribute(Mesh::ATTRIBUTE_POSITION)
        else {
            panic!("positions")
        };
        assert_eq!(p[0], [-0.5, 0.0, 0.0]);
        assert_eq!(p[2], [0.5, 1.0, 0.0]);
        let Some(bevy::mesh::VertexAttributeValues::Float32x2(uv)) =
            quad.attribute(Mesh::ATTRIBUTE_UV_0)
        else {
            panic!("uvs")
        };
        assert_eq!(uv[0], [16.0 / 224.0, 1.0]);
        assert_eq!(uv[2], [32.0 / 224.0, 0.0]);
        // Flipped in x: mirrored about the pivot.
        let flipped = sprite_quad(&sprite(None), [true, false]);
        let Some(bevy::mesh::VertexAttributeValues::Float32x3(q)) =
            flipped.attribute(Mesh::ATTRIBUTE_POSITION)
        else {
            panic!("positions")
        };
        assert_eq!(q[0], [0.5, 0.0, 0.0]);
    }

    #[test]
    fn texture_scale_and_offset_map_through_the_flipped_v() {
        let m = ModelMaterial {
            at: NOWHERE,
            name: "m".into(),
            color: [1.0; 4],
            texture: Some(super::super::data::ModelTexture {
                at: NOWHERE,
                image: None,
                scale: [2.0, 0.5],
                offset: [0.25, 0.1],
            }),
        };
        let mat = bevy_material(&m, Some(Handle::default()));
        // Unity UV (0.3, 0.4) → (0.85, 0.3), i.e. image row 1 − 0.3 from the top; the mesh
        // carries v' = 1 − 0.4.
        let got = mat.uv_transform.transform_point2(Vec2::new(0.3, 0.6));
        assert!(got.distance(Vec2::new(0.85, 0.7)) < 1e-6, "{got}");
        // A decoded image of the wrong size is refused.
        let bad = RgbaImage {
            width: 2,
            height: 2,
            pixels: vec![0; 15],
        };
        assert!(bevy_image(&bad).is_none());
    }
}
