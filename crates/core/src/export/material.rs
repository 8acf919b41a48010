//! Materials reduced to glTF's base colour: the material's colour (Unity stores it in gamma
//! space; glTF's factor is linear), its main texture embedded as PNG, and its alpha mode
//! (from its keywords, properties or render queue; opaque when none says). Each material and
//! texture is written once however many primitives use it.

use std::collections::HashMap;

use gltf_json as json;
use json::validation::Checked;

use super::document::Document;
use crate::material::AlphaMode;
use crate::workspace::{MaterialEntry, ObjectRef, Workspace};

/// Written materials and textures by their Unity object.
#[derive(Default)]
pub struct Materials {
    materials: HashMap<ObjectRef, json::Index<json::Material>>,
    textures: HashMap<ObjectRef, Option<json::Index<json::Texture>>>,
    sampler: Option<json::Index<json::texture::Sampler>>,
}

/// Gamma to linear (the sRGB curve).
fn linear(c: f32) -> f32 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

impl Materials {
    /// The glTF material of a Unity material (written on first use).
    pub fn material(
        &mut self,
        doc: &mut Document,
        ws: &Workspace,
        at: ObjectRef,
        warnings: &mut Vec<String>,
    ) -> Option<json::Index<json::Material>> {
        if let Some(&i) = self.materials.get(&at) {
            return Some(i);
        }
        let entry = ws.material(at)?;
        let texture = self.texture(doc, ws, entry, warnings);
        let color = entry.data.color.unwrap_or(if texture.is_some() {
            [1.0; 4]
        } else {
            [0.7, 0.7, 0.7, 1.0]
        });
        let color = [
            linear(color[0]),
            linear(color[1]),
            linear(color[2]),
            color[3],
        ]
        .map(|c| {
            if c.is_finite() {
                c.clamp(0.0, 1.0)
            } else {
                1.0
            }
        });
        let index = doc.root.push(json::Material {
            name: Some(entry.data.name.clone()),
            pbr_metallic_roughness: json::material::PbrMetallicRoughness {
                base_color_factor: json::material::PbrBaseColorFactor(color),
                base_color_texture: texture.map(|index| json::texture::Info {
                    index,
                    tex_coord: 0,
                    extensions: None,
                    extras: None,
                }),
                metallic_factor: json::material::StrengthFactor(0.0),
                roughness_factor: json::material::StrengthFactor(1.0),
                ..Default::default()
            },
            alpha_mode: Checked::Valid(match entry.data.alpha {
                AlphaMode::Opaque => json::material::AlphaMode::Opaque,
                AlphaMode::Mask { .. } => json::material::AlphaMode::Mask,
                AlphaMode::Blend => json::material::AlphaMode::Blend,
            }),
            alpha_cutoff: match entry.data.alpha {
                AlphaMode::Mask { cutoff } => {
                    Some(json::material::AlphaCutoff(cutoff.clamp(0.0, 1.0)))
                }
                _ => None,
            },
            ..Default::default()
        });
        self.materials.insert(at, index);
        Some(index)
    }

    fn texture(
        &mut self,
        doc: &mut Document,
        ws: &Workspace,
        material: &MaterialEntry,
        warnings: &mut Vec<String>,
    ) -> Option<json::Index<json::Texture>> {
        let slot = material.data.main_texture.as_ref()?;
        let at = ws.resolve(material.at.file, slot.texture)?;
        if let Some(done) = self.textures.get(&at) {
            return *done;
        }
        if slot.scale != [1.0, 1.0] || slot.offset != [0.0, 0.0] {
            warnings.push(format!(
                "material {}: the texture's tiling {:?} and offset {:?} are left out",
                material.data.name, slot.scale, slot.offset
            ));
        }
        let written = ws.texture(at).and_then(|t| {
            let image = t.image.as_ref()?;
            let mut png = Vec::new();
            if let Err(e) = image.write_png(&mut png) {
                warnings.push(format!("texture {}: {e}", t.name));
                return None;
            }
            let source = doc.png(&png, &t.name);
            let sampler = *self.sampler.get_or_insert_with(|| {
                doc.root.push(json::texture::Sampler {
                    wrap_s: Checked::Valid(json::texture::WrappingMode::Repeat),
                    wrap_t: Checked::Valid(json::texture::WrappingMode::Repeat),
                    ..Default::default()
                })
            });
            Some(doc.root.push(json::Texture {
                name: Some(t.name.clone()),
                sampler: Some(sampler),
                source,
                extensions: None,
                extras: None,
            }))
        });
        if written.is_none() {
            warnings.push(format!(
                "material {}: its texture is not loaded or did not decode; base colour only",
                material.data.name
            ));
        }
        self.textures.insert(at, written);
        written
    }
}
