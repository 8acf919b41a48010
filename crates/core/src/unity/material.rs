//! Material (class 21): the saved shader properties (`mesh.md` §4.1).
//!
//! The property maps are keyed by `FastPropertyName { name }` up to 5.5 and by plain strings
//! from 5.6; [`PropertyName`] reads both, and [`PropertyMap`] keeps the stored order.

use serde::Deserialize;
use serde::de::{Deserializer, MapAccess, Visitor};

use super::PPtr;
use super::math::{ColorRGBA, Vec2};

/// Unity's `Material`, field for field as its type tree names them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Material {
    pub m_Name: String,
    pub m_Shader: PPtr,
    /// Shader keywords: one space-separated string (5.1 to 2022.1) or a list (up to 5.0).
    pub m_ShaderKeywords: Keywords,
    /// The enabled keywords from 2022.1 (`m_InvalidKeywords` lists those the shader lacks).
    pub m_ValidKeywords: Vec<String>,
    /// The render queue the material overrides the shader's with; -1 (or absent before 4.x):
    /// the shader's own.
    pub m_CustomRenderQueue: Option<i32>,
    pub m_SavedProperties: PropertySheet,
}

/// Shader keywords, stored as one space-separated string or as a list of strings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Keywords(pub Vec<String>);

impl<'de> Deserialize<'de> for Keywords {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeywordsVisitor;
        impl<'de> Visitor<'de> for KeywordsVisitor {
            type Value = Keywords;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("shader keywords (a string or a list of strings)")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Keywords, E> {
                Ok(Keywords(v.split_whitespace().map(str::to_string).collect()))
            }
            fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<Keywords, E> {
                self.visit_str(&String::from_utf8_lossy(&v))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Keywords, A::Error> {
                let mut out = Vec::new();
                while let Some(k) = seq.next_element::<String>()? {
                    out.extend(k.split_whitespace().map(str::to_string));
                }
                Ok(Keywords(out))
            }
        }
        d.deserialize_any(KeywordsVisitor)
    }
}

/// `UnityPropertySheet`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PropertySheet {
    pub m_TexEnvs: PropertyMap<TexEnv>,
    /// Integer properties (2021.1 on).
    pub m_Ints: PropertyMap<i32>,
    pub m_Floats: PropertyMap<f32>,
    pub m_Colors: PropertyMap<ColorRGBA>,
}

/// `UnityTexEnv`: a texture slot with its UV scale and offset.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(default)]
pub struct TexEnv {
    pub m_Texture: PPtr,
    pub m_Scale: Vec2,
    pub m_Offset: Vec2,
}

/// A property name: a plain string, or `FastPropertyName { name }` before 5.6.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PropertyName(pub String);

#[derive(Deserialize)]
struct FastPropertyName {
    name: String,
}

impl<'de> Deserialize<'de> for PropertyName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct NameVisitor;
        impl<'de> Visitor<'de> for NameVisitor {
            type Value = PropertyName;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a property name")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<PropertyName, E> {
                Ok(PropertyName(v.to_string()))
            }
            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<PropertyName, E> {
                Ok(PropertyName(v))
            }
            fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<PropertyName, E> {
                Ok(PropertyName(String::from_utf8_lossy(&v).into_owned()))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<PropertyName, A::Error> {
                let fast = FastPropertyName::deserialize(
                    serde::de::value::MapAccessDeserializer::new(map),
                )?;
                Ok(PropertyName(fast.name))
            }
        }
        d.deserialize_any(NameVisitor)
    }
}

/// A property map in stored order (names may repeat in damaged files; the first wins).
#[derive(Clone, Debug, PartialEq)]
pub struct PropertyMap<V>(pub Vec<(String, V)>);

impl<V> Default for PropertyMap<V> {
    fn default() -> Self {
        PropertyMap(Vec::new())
    }
}

impl<V> PropertyMap<V> {
    /// The value of the first property named `name`.
    pub fn get(&self, name: &str) -> Option<&V> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for PropertyMap<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct MapVisitor<V>(std::marker::PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for MapVisitor<V> {
            type Value = PropertyMap<V>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a property map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some((PropertyName(name), value)) = map.next_entry::<PropertyName, V>()? {
                    out.push((name, value));
                }
                Ok(PropertyMap(out))
            }
        }
        d.deserialize_map(MapVisitor(std::marker::PhantomData))
    }
}
