//! The glTF document being written: the `gltf-json` root and its one binary buffer, with
//! helpers that append typed data 4-byte aligned and describe it by accessors (with `min`
//! and `max`, which glTF requires for positions and animation inputs).

use gltf_json as json;
use json::accessor::{ComponentType, GenericComponentType, Type};
use json::buffer::Target;
use json::validation::{Checked, USize64};
use json::{Index, Root};
use serde_json::Value;

/// A glTF document under construction.
#[derive(Default)]
pub struct Document {
    pub root: Root,
    pub bin: Vec<u8>,
}

/// How many floats an element of `ty` holds.
fn width(ty: Type) -> usize {
    match ty {
        Type::Scalar => 1,
        Type::Vec2 => 2,
        Type::Vec3 => 3,
        Type::Vec4 | Type::Mat2 => 4,
        Type::Mat3 => 9,
        Type::Mat4 => 16,
    }
}

fn extremes(data: &[f32], n: usize) -> (Value, Value) {
    let mut lo = vec![f32::INFINITY; n];
    let mut hi = vec![f32::NEG_INFINITY; n];
    for chunk in data.chunks_exact(n) {
        for (i, &v) in chunk.iter().enumerate() {
            lo[i] = lo[i].min(v);
            hi[i] = hi[i].max(v);
        }
    }
    let to = |v: Vec<f32>| Value::from(v.into_iter().map(f64::from).collect::<Vec<_>>());
    (to(lo), to(hi))
}

impl Document {
    /// Appends `bytes` at a 4-byte boundary as a buffer view.
    pub fn view(&mut self, bytes: &[u8], target: Option<Target>) -> Index<json::buffer::View> {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.root.push(json::buffer::View {
            buffer: Index::new(0),
            byte_length: USize64::from(bytes.len()),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: None,
            name: None,
            target: target.map(Checked::Valid),
            extensions: None,
            extras: None,
        })
    }

    fn accessor(
        &mut self,
        view: Index<json::buffer::View>,
        count: usize,
        component: ComponentType,
        ty: Type,
        bounds: Option<(Value, Value)>,
    ) -> Index<json::Accessor> {
        let (min, max) = bounds.unzip();
        self.root.push(json::Accessor {
            buffer_view: Some(view),
            byte_offset: None,
            count: USize64::from(count),
            component_type: Checked::Valid(GenericComponentType(component)),
            extensions: None,
            extras: None,
            type_: Checked::Valid(ty),
            min,
            max,
            name: None,
            normalized: false,
            sparse: None,
        })
    }

    /// Floats as elements of `ty`, with `min`/`max` when `bounds`.
    pub fn floats(
        &mut self,
        data: &[f32],
        ty: Type,
        bounds: bool,
        target: Option<Target>,
    ) -> Index<json::Accessor> {
        let n = width(ty);
        let bytes: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
        let view = self.view(&bytes, target);
        let b = bounds.then(|| extremes(data, n));
        self.accessor(view, data.len() / n, ComponentType::F32, ty, b)
    }

    /// Triangle indices (u16 when they fit, else u32).
    pub fn indices(&mut self, data: &[u32]) -> Index<json::Accessor> {
        let small = data.iter().all(|&i| i < u32::from(u16::MAX));
        let (bytes, component): (Vec<u8>, _) = if small {
            let b = data
                .iter()
                .flat_map(|&i| (i as u16).to_le_bytes())
                .collect();
            (b, ComponentType::U16)
        } else {
            let b = data.iter().flat_map(|i| i.to_le_bytes()).collect();
            (b, ComponentType::U32)
        };
        let view = self.view(&bytes, Some(Target::ElementArrayBuffer));
        self.accessor(view, data.len(), component, Type::Scalar, None)
    }

    /// Joint indices, four per vertex, as u16.
    pub fn joints(&mut self, data: &[[u16; 4]]) -> Index<json::Accessor> {
        let bytes: Vec<u8> = data
            .iter()
            .flatten()
            .flat_map(|j| j.to_le_bytes())
            .collect();
        let view = self.view(&bytes, Some(Target::ArrayBuffer));
        self.accessor(view, data.len(), ComponentType::U16, Type::Vec4, None)
    }

    /// An embedded image.
    pub fn png(&mut self, bytes: &[u8], name: &str) -> Index<json::Image> {
        let view = self.view(bytes, None);
        self.root.push(json::Image {
            buffer_view: Some(view),
            mime_type: Some(json::image::MimeType("image/png".into())),
            name: Some(name.to_string()),
            uri: None,
            extensions: None,
            extras: None,
        })
    }

    /// The finished document as GLB bytes (the buffer declared last, padded to 4 bytes).
    pub fn into_glb(mut self) -> Result<Vec<u8>, json::Error> {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        if !self.bin.is_empty() {
            self.root.buffers = vec![json::Buffer {
                byte_length: USize64::from(self.bin.len()),
                name: None,
                uri: None,
                extensions: None,
                extras: None,
            }];
        }
        let text = self.root.to_vec()?;
        Ok(super::glb::write(&text, &self.bin))
    }
}

/// A JSON value as glTF `extras`.
pub fn extras(value: &Value) -> json::Extras {
    serde_json::value::to_raw_value(value).ok()
}
