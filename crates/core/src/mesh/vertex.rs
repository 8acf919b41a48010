//! Vertex attributes out of `m_VertexData`: the channel list, the stream layout (fixed in 3.5,
//! serialised in 4.x, computed from 5.0) and each channel's components (`mesh.md` §2.3), or
//! the plain arrays of Unity 3.4 and older.

use std::borrow::Cow;

use super::format::{Attribute, Format};
use super::{Layout, MeshError, VertexWeights};
use crate::binary::Endian;
use crate::resource::StreamSource;
use crate::unity::mesh::{ChannelInfo, Mesh, StreamInfo, VertexData};

/// The decoded vertex attributes; every non-empty array has `count` entries.
#[derive(Debug, Default)]
pub(super) struct Vertices {
    pub count: usize,
    pub positions: Vec<[f32; 3]>,
    pub normals: Vec<[f32; 3]>,
    pub tangents: Vec<[f32; 4]>,
    pub uv0: Vec<[f32; 2]>,
    pub uv1: Vec<[f32; 2]>,
    pub colors: Vec<[f32; 4]>,
    /// Blend weights channel (2018.2+) and how many components it stores.
    pub weights: Vec<[f32; 4]>,
    pub weight_dims: usize,
    /// Blend indices channel (2018.2+) and how many components it stores.
    pub bone_indices: Vec<[u32; 4]>,
    pub index_dims: usize,
    /// A compressed mesh's complete skin.
    pub packed_skin: Vec<VertexWeights>,
}

/// One interleaved stream of the vertex blob.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Stream {
    offset: usize,
    stride: usize,
    /// Channels present in the stream, when the file stores it (3.5, 4.x).
    mask: Option<u32>,
}

/// One channel, resolved: where its components are and how they are stored.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Channel {
    /// `None` for a channel index the version's table does not name (still takes room).
    attribute: Option<Attribute>,
    stream: usize,
    offset: usize,
    format: Format,
    dims: usize,
}

fn bad(detail: impl Into<String>) -> MeshError {
    MeshError::VertexData(detail.into())
}

pub(super) fn decode(
    mesh: &Mesh,
    layout: Layout,
    streams: &dyn StreamSource,
) -> Result<Vertices, MeshError> {
    let Some(vd) = &mesh.m_VertexData else {
        return Ok(from_arrays(mesh));
    };
    let count = usize::try_from(vd.m_VertexCount.0)
        .map_err(|_| bad(format!("vertex count {} is negative", vd.m_VertexCount.0)))?;
    let data = vertex_bytes(mesh, vd, streams)?;
    let (channels, streams) = if vd.m_Streams0.is_some() {
        fixed_layout(vd)
    } else {
        let channels = channels(&vd.m_Channels, layout)?;
        let streams = match &vd.m_Streams {
            Some(list) if !list.is_empty() => list.iter().map(stored_stream).collect(),
            _ => computed_streams(&channels, count)?,
        };
        (channels, streams)
    };
    let mut out = Vertices {
        count,
        ..Vertices::default()
    };
    for (index, channel) in channels {
        let stream = *streams.get(channel.stream).ok_or_else(|| {
            bad(format!(
                "channel {index} names missing stream {}",
                channel.stream
            ))
        })?;
        if stream
            .mask
            .is_some_and(|m| index >= 32 || m & (1 << index) == 0)
        {
            continue;
        }
        check_fits(index, &channel, &stream, count, data.len())?;
        assign(&mut out, &channel, &stream, &data, layout)?;
    }
    Ok(out)
}

/// The vertex blob: inline, or `m_StreamData`'s range of a resource.
fn vertex_bytes<'a>(
    mesh: &Mesh,
    vd: &'a VertexData,
    streams: &dyn StreamSource,
) -> Result<Cow<'a, [u8]>, MeshError> {
    match &mesh.m_StreamData {
        Some(s) if vd.m_DataSize.is_empty() && !s.path.is_empty() && s.size.0 > 0 => {
            // Stored unsigned (u32, or u64 from 2020.1): reinterpret, the source checks range.
            let (offset, size) = (s.offset.0 as u64, s.size.0 as u64);
            Ok(Cow::Owned(streams.read(&s.path, offset, size)?))
        }
        _ => Ok(Cow::Borrowed(&vd.m_DataSize)),
    }
}

/// Channels with a non-zero dimension, each with its channel index.
fn channels(list: &[ChannelInfo], layout: Layout) -> Result<Vec<(usize, Channel)>, MeshError> {
    let mut out = Vec::new();
    for (index, ch) in list.iter().enumerate() {
        let mut dims = (ch.dimension & 0x0F) as usize;
        if dims == 0 {
            continue;
        }
        let attribute = Attribute::of_channel(index, layout);
        let format = Format::from_byte(ch.format, layout).ok_or_else(|| {
            bad(format!(
                "channel {index}: unknown vertex format {}",
                ch.format
            ))
        })?;
        // Before 2018 a colour channel in the Color format is four bytes whatever is stored.
        if !layout.at_least(2018, 0) && attribute == Some(Attribute::Color) && ch.format == 2 {
            dims = 4;
        }
        out.push((
            index,
            Channel {
                attribute,
                stream: ch.stream as usize,
                offset: ch.offset as usize,
                format,
                dims,
            },
        ));
    }
    Ok(out)
}

fn stored_stream(s: &StreamInfo) -> Stream {
    Stream {
        offset: usize::try_from(s.offset.0).unwrap_or(usize::MAX),
        stride: usize::try_from(s.stride.0).unwrap_or(usize::MAX),
        mask: Some(s.channelMask.u32()),
    }
}

/// Unity 5.0+: streams one after another, each padded to 16 bytes, strides from the channels.
fn computed_streams(channels: &[(usize, Channel)], count: usize) -> Result<Vec<Stream>, MeshError> {
    let stream_count = channels
        .iter()
        .map(|(_, c)| c.stream + 1)
        .max()
        .unwrap_or(0);
    let mut out = Vec::with_capacity(stream_count);
    let mut offset = 0usize;
    for s in 0..stream_count {
        let stride: usize = channels
            .iter()
            .filter(|(_, c)| c.stream == s)
            .map(|(_, c)| c.dims * c.format.size())
            .sum();
        out.push(Stream {
            offset,
            stride,
            mask: None,
        });
        offset = count
            .checked_mul(stride)
            .and_then(|n| n.checked_add(offset))
            .and_then(|n| n.checked_next_multiple_of(16))
            .ok_or_else(|| bad(format!("{count} vertices overflow the stream layout")))?;
    }
    Ok(out)
}

/// Unity 3.5: four stored streams and six fixed channels, packed in channel order.
fn fixed_layout(vd: &VertexData) -> (Vec<(usize, Channel)>, Vec<Stream>) {
    use Attribute::*;
    const FIXED: [(Attribute, Format, usize); 6] = [
        (Position, Format::Float32, 3),
        (Normal, Format::Float32, 3),
        (Color, Format::UNorm8, 4),
        (Uv(0), Format::Float32, 2),
        (Uv(1), Format::Float32, 2),
        (Tangent, Format::Float32, 4),
    ];
    let stored = [
        &vd.m_Streams0,
        &vd.m_Streams1,
        &vd.m_Streams2,
        &vd.m_Streams3,
    ];
    let streams: Vec<Stream> = stored
        .iter()
        .map(|s| {
            s.as_ref().map(stored_stream).unwrap_or(Stream {
                offset: 0,
                stride: 0,
                mask: Some(0),
            })
        })
        .collect();
    let mut channels = Vec::new();
    for (s, stream) in streams.iter().enumerate() {
        let mut offset = 0;
        for (index, &(attribute, format, dims)) in FIXED.iter().enumerate() {
            if stream.mask.unwrap_or(0) & (1 << index) != 0 {
                channels.push((
                    index,
                    Channel {
                        attribute: Some(attribute),
                        stream: s,
                        offset,
                        format,
                        dims,
                    },
                ));
                offset += dims * format.size();
            }
        }
    }
    (channels, streams)
}

/// Checks that every vertex's components of `channel` lie inside the blob.
fn check_fits(
    index: usize,
    channel: &Channel,
    stream: &Stream,
    count: usize,
    len: usize,
) -> Result<(), MeshError> {
    let width = channel.dims * channel.format.size();
    if channel.offset + width > stream.stride {
        return Err(bad(format!(
            "channel {index} ({width} bytes at offset {}) does not fit the stream stride {}",
            channel.offset, stream.stride
        )));
    }
    if count == 0 {
        return Ok(());
    }
    let end = (count - 1)
        .checked_mul(stream.stride)
        .and_then(|n| n.checked_add(stream.offset))
        .and_then(|n| n.checked_add(channel.offset + width));
    match end {
        Some(end) if end <= len => Ok(()),
        _ => Err(bad(format!(
            "channel {index}: {count} vertices of stride {} from offset {} need more than the {len} bytes of vertex data",
            stream.stride, stream.offset
        ))),
    }
}

/// Reads one channel into its attribute array.
fn assign(
    out: &mut Vertices,
    channel: &Channel,
    stream: &Stream,
    data: &[u8],
    layout: Layout,
) -> Result<(), MeshError> {
    let Some(attribute) = channel.attribute else {
        return Ok(());
    };
    let c = Components {
        channel,
        stream,
        data,
        layout,
    };
    let n = out.count;
    match attribute {
        Attribute::Position => out.positions = c.floats(n, [0.0; 3])?,
        Attribute::Normal => out.normals = c.floats(n, [0.0; 3])?,
        Attribute::Tangent => out.tangents = c.floats(n, [0.0, 0.0, 0.0, 1.0])?,
        Attribute::Color => out.colors = c.floats(n, [0.0, 0.0, 0.0, 1.0])?,
        Attribute::Uv(0) => out.uv0 = c.floats(n, [0.0; 2])?,
        Attribute::Uv(1) => out.uv1 = c.floats(n, [0.0; 2])?,
        Attribute::Uv(_) => {}
        Attribute::BlendWeight => {
            out.weights = c.floats(n, [0.0; 4])?;
            out.weight_dims = channel.dims.min(4);
        }
        Attribute::BlendIndices => {
            out.bone_indices = c.each(n, [0u32; 4], Format::read_index)?;
            out.index_dims = channel.dims.min(4);
        }
    }
    Ok(())
}

/// One channel's components in the vertex blob (already checked to fit).
struct Components<'a> {
    channel: &'a Channel,
    stream: &'a Stream,
    data: &'a [u8],
    layout: Layout,
}

impl Components<'_> {
    /// The first `N` components of every vertex through `read`; components beyond `N` are
    /// dropped, missing ones keep `fill`'s value.
    fn each<T: Copy, const N: usize>(
        &self,
        count: usize,
        fill: [T; N],
        read: fn(Format, &[u8], Endian) -> T,
    ) -> Result<Vec<[T; N]>, MeshError> {
        let (format, size) = (self.channel.format, self.channel.format.size());
        let mut out = Vec::with_capacity(count);
        for v in 0..count {
            let base = self.stream.offset + v * self.stream.stride + self.channel.offset;
            let mut item = fill;
            for (d, slot) in item.iter_mut().enumerate().take(self.channel.dims) {
                let at = base + d * size;
                let bytes = self
                    .data
                    .get(at..at + size)
                    .ok_or_else(|| bad(format!("vertex {v} lies outside the vertex data")))?;
                *slot = read(format, bytes, self.layout.endian);
            }
            out.push(item);
        }
        Ok(out)
    }

    fn floats<const N: usize>(
        &self,
        count: usize,
        fill: [f32; N],
    ) -> Result<Vec<[f32; N]>, MeshError> {
        self.each(count, fill, Format::read)
    }
}

/// Unity 3.4 and older: plain arrays (one whose length is not the vertex count is dropped).
fn from_arrays(mesh: &Mesh) -> Vertices {
    let count = mesh.m_Vertices.len();
    fn all<T, U>(items: &[T], count: usize, f: impl Fn(&T) -> U) -> Vec<U> {
        if items.len() == count {
            items.iter().map(f).collect()
        } else {
            Vec::new()
        }
    }
    Vertices {
        count,
        positions: all(&mesh.m_Vertices, count, |v| v.to_array()),
        normals: all(&mesh.m_Normals, count, |v| v.to_array()),
        tangents: all(&mesh.m_Tangents, count, |t| [t.x, t.y, t.z, t.w]),
        uv0: all(&mesh.m_UV, count, |t| [t.x, t.y]),
        uv1: all(&mesh.m_UV1, count, |t| [t.x, t.y]),
        colors: all(&mesh.m_Colors, count, |c| {
            c.rgba.to_le_bytes().map(|b| b as f32 / 255.0)
        }),
        ..Vertices::default()
    }
}
