//! Materials (class 21) reduced to what a preview draws: the main texture with its UV scale
//! and offset, and the main colour (`mesh.md` §4.1). Shaders name these differently; the
//! first property found in Unity's usual order wins.

use std::sync::Arc;

use crate::serialized::{ObjectInfo, SerializedError, SerializedFile};
use crate::unity::PPtr;
use crate::unity::material::{Material, PropertyMap, PropertySheet};

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
    /// How the material treats alpha, where its keywords, properties or render queue say.
    pub alpha: AlphaMode,
    /// The names of its saved shader properties: what clips may animate on its renderer.
    /// Shared in a workspace by every material that saves the same names (those of one
    /// shader, typically): a game holds thousands of materials and a few shaders.
    pub properties: Arc<PropertyNames>,
}

/// The names of a material's saved shader properties, by kind, in stored order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PropertyNames {
    pub floats: Vec<String>,
    /// Integer properties (2021.1 on).
    pub ints: Vec<String>,
    /// Colours and vectors (Unity saves both in `m_Colors`).
    pub colors: Vec<String>,
    pub textures: Vec<String>,
}

impl PropertyNames {
    /// The names in a read property sheet.
    pub fn of(sheet: &PropertySheet) -> PropertyNames {
        fn names<V>(map: &PropertyMap<V>) -> Vec<String> {
            map.0.iter().map(|(name, _)| name.clone()).collect()
        }
        PropertyNames {
            floats: names(&sheet.m_Floats),
            ints: names(&sheet.m_Ints),
            colors: names(&sheet.m_Colors),
            textures: names(&sheet.m_TexEnvs),
        }
    }

    /// The attribute names a clip gives these properties on the material's renderer:
    /// `material.NAME` for floats and ints, `material.NAME.r` to `.a` for colours and
    /// `.x` to `.w` for vectors (both for every `m_Colors` entry: the sheet does not say
    /// which it is), `material.NAME_ST.x` to `.w` for a texture's scale and offset.
    pub fn animated(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .floats
            .iter()
            .chain(&self.ints)
            .map(|n| format!("material.{n}"))
            .collect();
        for n in &self.colors {
            out.extend(
                ["r", "g", "b", "a", "x", "y", "z", "w"].map(|c| format!("material.{n}.{c}")),
            );
        }
        for n in &self.textures {
            out.extend(["x", "y", "z", "w"].map(|c| format!("material.{n}_ST.{c}")));
        }
        out
    }
}

/// How a material uses its colour's alpha (glTF's three modes).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum AlphaMode {
    /// Alpha ignored: also what an unknown shader gets.
    #[default]
    Opaque,
    /// Alpha tested: pixels under `cutoff` are discarded.
    Mask { cutoff: f32 },
    /// Alpha blended (transparent).
    Blend,
}

/// Keywords the built-in Standard shader and URP/HDRP Lit set for cut-out materials.
const MASK_KEYWORDS: [&str; 2] = ["_ALPHATEST_ON", "_ALPHACLIP_ON"];
/// Keywords they set for transparent ones.
const BLEND_KEYWORDS: [&str; 3] = [
    "_ALPHABLEND_ON",
    "_ALPHAPREMULTIPLY_ON",
    "_SURFACE_TYPE_TRANSPARENT",
];

/// The alpha mode of a material: its keywords first (what the shader compiled), then the
/// Standard shader's `_Mode` (1 cut-out, 2 fade, 3 transparent) and URP's `_Surface` (1
/// transparent) and `_AlphaClip`, then a custom render queue (2450 to 2999 alpha test, 3000
/// and up transparent), else opaque. The cut-off is `_Cutoff` (0.5 without it).
pub fn alpha_mode(m: &Material) -> AlphaMode {
    let props = &m.m_SavedProperties;
    let cutoff = props
        .m_Floats
        .get("_Cutoff")
        .copied()
        .filter(|c| c.is_finite())
        .unwrap_or(0.5);
    let mask = AlphaMode::Mask { cutoff };
    let keywords = || m.m_ShaderKeywords.0.iter().chain(&m.m_ValidKeywords);
    if keywords().any(|k| BLEND_KEYWORDS.contains(&k.as_str())) {
        return AlphaMode::Blend;
    }
    if keywords().any(|k| MASK_KEYWORDS.contains(&k.as_str())) {
        return mask;
    }
    let float = |name: &str| props.m_Floats.get(name).copied();
    match float("_Mode") {
        Some(1.0) => return mask,
        Some(2.0 | 3.0) => return AlphaMode::Blend,
        _ => {}
    }
    if float("_Surface") == Some(1.0) {
        return AlphaMode::Blend;
    }
    if float("_AlphaClip") == Some(1.0) {
        return mask;
    }
    match m.m_CustomRenderQueue {
        Some(q) if q >= 3000 => AlphaMode::Blend,
        Some(q) if q >= 2450 => mask,
        _ => AlphaMode::Opaque,
    }
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
        alpha: alpha_mode(m),
        properties: Arc::new(PropertyNames::of(props)),
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
    fn alpha_comes_from_keywords_then_properties_then_the_render_queue() {
        let with = |f: &dyn Fn(&mut Material)| {
            let mut m = Material::default();
            f(&mut m);
            alpha_mode(&m)
        };
        assert_eq!(with(&|_| {}), AlphaMode::Opaque);
        // Keywords: a 2020 string, a 2022 list; blend wins over a cut-out keyword.
        assert_eq!(
            with(&|m| m.m_ShaderKeywords.0 = vec!["_ALPHATEST_ON".into()]),
            AlphaMode::Mask { cutoff: 0.5 }
        );
        assert_eq!(
            with(&|m| {
                m.m_ValidKeywords = vec!["_ALPHATEST_ON".into(), "_ALPHAPREMULTIPLY_ON".into()]
            }),
            AlphaMode::Blend
        );
        // The Standard shader's _Mode and its _Cutoff; URP's _Surface.
        let floats = |pairs: &[(&str, f32)]| {
            PropertyMap(pairs.iter().map(|(n, v)| (n.to_string(), *v)).collect())
        };
        assert_eq!(
            with(&|m| m.m_SavedProperties.m_Floats = floats(&[("_Mode", 1.0), ("_Cutoff", 0.3)])),
            AlphaMode::Mask { cutoff: 0.3 }
        );
        assert_eq!(
            with(&|m| m.m_SavedProperties.m_Floats = floats(&[("_Mode", 3.0)])),
            AlphaMode::Blend
        );
        assert_eq!(
            with(&|m| m.m_SavedProperties.m_Floats = floats(&[("_Surface", 1.0)])),
            AlphaMode::Blend
        );
        // The render queue: -1 is the shader's own (unknown: opaque).
        for (queue, mode) in [
            (-1, AlphaMode::Opaque),
            (2000, AlphaMode::Opaque),
            (2450, AlphaMode::Mask { cutoff: 0.5 }),
            (3000, AlphaMode::Blend),
        ] {
            assert_eq!(
                with(&|m| m.m_CustomRenderQueue = Some(queue)),
                mode,
                "{queue}"
            );
        }
    }

    #[test]
    fn a_material_without_known_properties_has_neither() {
        let mut m = Material::default();
        m.m_SavedProperties.m_TexEnvs = PropertyMap(vec![("_Colour2".into(), texture(3))]);
        let data = from_unity(&m);
        assert_eq!((data.main_texture, data.color), (None, None));
    }

    #[test]
    fn every_saved_property_gives_its_animated_names() {
        let mut m = Material::default();
        let props = &mut m.m_SavedProperties;
        props.m_TexEnvs = PropertyMap(vec![("_Noise".into(), texture(3))]);
        props.m_Ints = PropertyMap(vec![("_Steps".into(), 4)]);
        props.m_Floats = PropertyMap(vec![("_Dissolve".into(), 0.5)]);
        props.m_Colors = PropertyMap(vec![(
            "_RimColor".into(),
            ColorRGBA {
                r: 1.0,
                g: 1.0,
                b: 1.0,
                a: 1.0,
            },
        )]);
        let names = from_unity(&m).properties.animated();
        let expected: Vec<String> = [
            "_Dissolve",
            "_Steps",
            "_RimColor.r",
            "_RimColor.g",
            "_RimColor.b",
            "_RimColor.a",
            "_RimColor.x",
            "_RimColor.y",
            "_RimColor.z",
            "_RimColor.w",
            "_Noise_ST.x",
            "_Noise_ST.y",
            "_Noise_ST.z",
            "_Noise_ST.w",
        ]
        .iter()
        .map(|n| format!("material.{n}"))
        .collect();
        assert_eq!(names, expected);
    }
}
