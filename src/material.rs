//! Materials (class 21) reduced to what a preview draws: the main texture with its UV scale
//! and offset, and the main colour (`mesh.md` §4.1). Shaders name these differently; the
//! first property found in Unity's usual order wins.

use crate::serialized::{ObjectInfo, SerializedError, SerializedFile};
use crate::unity::PPtr;
use crate::unity::material::Material;

/// Texture properties that hold the base colour map, in lookup order: URP, HDRP, built-in
/// pipeline (and HDRP's copy), a common custom name.
pub const MAIN_TEXTURE_NAMES: [&str; 4] = ["_BaseMap", "_BaseColorMap", "_MainTex", "_BaseTexture"];

/// Colour properties that hold the base colour, in lookup order.
pub const MAIN_COLOR_NAMES: [&str; 2] = ["_BaseColor", "_Color"];

/// What a preview needs of a material.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MaterialData {
    pub name: String,
    pub shader: PPtr,
    /// The first base-colour texture slot that references a texture.
    pub main_texture: Option<TextureSlot>,
    /// The base colour (RGBA as stored, gamma space), when the material has one.
    pub color: Option<[f32; 4]>,
}

/// A texture property: Unity UV' = UV × `scale` + `offset`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TextureSlot {
    pub property: String,
    pub texture: PPtr,
    pub scale: [f32; 2],
    pub offset: [f32; 2],
}

/// Reads the Material `info` of `file`.
pub fn read(file: &SerializedFile, info: &ObjectInfo) -> Result<MaterialData, SerializedError> {
    let m: Material = file.read(info)?;
    Ok(from_unity(&m))
}

/// The preview facts of a read Material.
pub fn from_unity(m: &Material) -> MaterialData {
    let props = &m.m_SavedProperties;
    let main_texture = MAIN_TEXTURE_NAMES.iter().find_map(|&name| {
        let env = props.m_TexEnvs.get(name)?;
        (!env.m_Texture.is_null()).then(|| TextureSlot {
            property: name.to_string(),
            texture: env.m_Texture,
            scale: [env.m_Scale.x, env.m_Scale.y],
            offset: [env.m_Offset.x, env.m_Offset.y],
        })
    });
    let color = MAIN_COLOR_NAMES
        .iter()
        .find_map(|&name| props.m_Colors.get(name))
        .map(|c| [c.r, c.g, c.b, c.a]);
    MaterialData {
        name: m.m_Name.clone(),
        shader: m.m_Shader,
        main_texture,
        color,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unity::Int;
    use crate::unity::material::{PropertyMap, TexEnv};
    use crate::unity::math::{ColorRGBA, Vec2};

    fn texture(path_id: i64) -> TexEnv {
        TexEnv {
            m_Texture: PPtr {
                m_FileID: Int(0),
                m_PathID: Int(path_id),
            },
            m_Scale: Vec2 { x: 2.0, y: 3.0 },
            m_Offset: Vec2 { x: 0.5, y: 0.25 },
        }
    }

    #[test]
    fn urp_names_win_and_empty_slots_are_skipped() {
        let mut m = Material::default();
        m.m_SavedProperties.m_TexEnvs = PropertyMap(vec![
            ("_MainTex".into(), texture(7)),
            ("_BaseMap".into(), texture(0)),
            ("_BumpMap".into(), texture(9)),
        ]);
        let color = |r| ColorRGBA {
            r,
            g: 0.5,
            b: 0.25,
            a: 1.0,
        };
        m.m_SavedProperties.m_Colors = PropertyMap(vec![
            ("_Color".into(), color(1.0)),
            ("_BaseColor".into(), color(0.1)),
        ]);
        let data = from_unity(&m);
        let slot = data.main_texture.unwrap();
        assert_eq!(
            (slot.property.as_str(), slot.texture.path_id()),
            ("_MainTex", 7)
        );
        assert_eq!((slot.scale, slot.offset), ([2.0, 3.0], [0.5, 0.25]));
        assert_eq!(data.color, Some([0.1, 0.5, 0.25, 1.0]));
    }

    #[test]
    fn a_material_without_known_properties_has_neither() {
        let mut m = Material::default();
        m.m_SavedProperties.m_TexEnvs = PropertyMap(vec![("_Colour2".into(), texture(3))]);
        let data = from_unity(&m);
        assert_eq!((data.main_texture, data.color), (None, None));
    }
}
