//! The primitive meshes of Unity's `library/unity default resources`, generated: files only
//! reference them (`m_Mesh: {m_FileID: N, m_PathID: 10202}` with external N naming that
//! library), so a preview builds its own. Sizes follow Unity's primitives (cube 1, sphere
//! diameter 1, cylinder and capsule diameter 1 and height 2, plane 10×10, quad 1×1); the
//! tessellation is our own. Triangles use Unity's winding: clockwise seen from the front, i.e.
//! `(b − a) × (c − a)` points along the outward normal.

use super::{Aabb, MeshData, SubMeshData, Topology};

/// Path ids of the built-in meshes generated here, with their names. 10202 (Cube) and 10207
/// (Sphere) are confirmed by project files (`mesh.md` §1), 10209 (Plane) by the `Plane`
/// GameObject of `resetanimator`; 10206, 10208 and 10210 follow the numbering commonly seen
/// in scene files (unverified here). 10205 (used by a Unity 3.5 `Graphics` object) is not
/// known and not generated.
pub const BUILTIN_MESHES: [(i64, &str); 6] = [
    (10202, "Cube"),
    (10206, "Cylinder"),
    (10207, "Sphere"),
    (10208, "Capsule"),
    (10209, "Plane"),
    (10210, "Quad"),
];

/// True when an external file name is Unity's built-in resource library.
pub fn is_default_resources(file_name: &str) -> bool {
    let name = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
    name.eq_ignore_ascii_case("unity default resources")
}

/// The built-in mesh with this path id, or `None` when it is not one generated here.
pub fn builtin(path_id: i64) -> Option<MeshData> {
    let (_, name) = BUILTIN_MESHES.iter().find(|(id, _)| *id == path_id)?;
    let mut b = Builder::default();
    match path_id {
        10202 => cube(&mut b),
        10206 => b.lathe(&cylinder_profile(), 24),
        10207 => b.lathe(&sphere_profile(0.0, 16), 24),
        10208 => b.lathe(&capsule_profile(), 24),
        10209 => grid(&mut b, 10.0, 10),
        10210 => quad(&mut b),
        _ => return None,
    }
    Some(b.finish(name))
}

/// Vertices and a triangle list under construction.
#[derive(Default)]
struct Builder {
    positions: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
    uv0: Vec<[f32; 2]>,
    indices: Vec<u32>,
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

impl Builder {
    fn vertex(&mut self, p: [f32; 3], n: [f32; 3], uv: [f32; 2]) -> u32 {
        self.positions.push(p);
        self.normals.push(n);
        self.uv0.push(uv);
        (self.positions.len() - 1) as u32
    }

    /// Adds a triangle in Unity's winding (flipping it when needed); zero-area ones are dropped.
    fn triangle(&mut self, a: u32, b: u32, c: u32) {
        let p = |i: u32| self.positions[i as usize];
        let n = |i: u32| self.normals[i as usize];
        let face = cross(sub(p(b), p(a)), sub(p(c), p(a)));
        if dot(face, face) < 1e-12 {
            return;
        }
        let normal = [0, 1, 2].map(|k| n(a)[k] + n(b)[k] + n(c)[k]);
        if dot(face, normal) >= 0.0 {
            self.indices.extend([a, b, c]);
        } else {
            self.indices.extend([a, c, b]);
        }
    }

    /// A quad `a b c d` around its edge loop.
    fn quad(&mut self, a: u32, b: u32, c: u32, d: u32) {
        self.triangle(a, b, c);
        self.triangle(a, c, d);
    }

    /// A surface of revolution about Y: each profile point is (radius, y, normal radius,
    /// normal y, v), swept in `segments` steps.
    fn lathe(&mut self, profile: &[[f32; 5]], segments: usize) {
        let start = self.positions.len() as u32;
        let ring = segments as u32 + 1;
        for &[r, y, nr, ny, v] in profile {
            for s in 0..=segments {
                let u = s as f32 / segments as f32;
                let (sin, cos) = (u * std::f32::consts::TAU).sin_cos();
                self.vertex([r * cos, y, r * sin], [nr * cos, ny, nr * sin], [u, v]);
            }
        }
        for p in 0..profile.len().saturating_sub(1) as u32 {
            for s in 0..segments as u32 {
                let a = start + p * ring + s;
                let (b, c, d) = (a + 1, a + ring + 1, a + ring);
                self.quad(a, b, c, d);
            }
        }
    }

    fn finish(self, name: &str) -> MeshData {
        let local_aabb = Aabb::around(&self.positions).unwrap_or_default();
        let vertex_count = self.positions.len() as u32;
        MeshData {
            name: name.to_string(),
            positions: self.positions,
            normals: self.normals,
            uv0: self.uv0,
            submeshes: vec![SubMeshData {
                topology: Topology::Triangles,
                index_count: self.indices.len() as u32,
                first_vertex: 0,
                vertex_count,
                indices: self.indices,
            }],
            local_aabb,
            ..MeshData::default()
        }
    }
}

/// A sphere of radius 0.5 from pole to pole, centred at `y` offsets of ±`half_gap` for the
/// upper and lower halves (0 for a sphere; a capsule stretches them apart).
fn sphere_profile(half_gap: f32, rings: usize) -> Vec<[f32; 5]> {
    let mut out = Vec::new();
    for i in 0..=rings {
        let theta = i as f32 / rings as f32 * std::f32::consts::PI;
        let (sin, cos) = theta.sin_cos();
        let shift = if i * 2 <= rings { half_gap } else { -half_gap };
        out.push([
            0.5 * sin,
            0.5 * cos + shift,
            sin,
            cos,
            1.0 - i as f32 / rings as f32,
        ]);
        if i * 2 == rings && half_gap != 0.0 {
            out.push([0.5 * sin, 0.5 * cos - shift, sin, cos, 0.5]);
        }
    }
    out
}

/// Radius 0.5, height 2: hemispheres centred at y = ±0.5 joined by a cylinder.
fn capsule_profile() -> Vec<[f32; 5]> {
    sphere_profile(0.5, 16)
}

/// Radius 0.5, height 2, with flat caps.
fn cylinder_profile() -> Vec<[f32; 5]> {
    vec![
        [0.0, 1.0, 0.0, 1.0, 1.0],
        [0.5, 1.0, 0.0, 1.0, 1.0],
        [0.5, 1.0, 1.0, 0.0, 1.0],
        [0.5, -1.0, 1.0, 0.0, 0.0],
        [0.5, -1.0, 0.0, -1.0, 0.0],
        [0.0, -1.0, 0.0, -1.0, 0.0],
    ]
}

/// A unit cube centred on the origin, four vertices per face.
fn cube(b: &mut Builder) {
    for axis in 0..3 {
        for sign in [1.0f32, -1.0] {
            let mut n = [0.0; 3];
            n[axis] = sign;
            let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
            let corners = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)].map(|(cu, cv)| {
                let mut p = [0.0; 3];
                p[axis] = 0.5 * sign;
                p[u] = cu;
                p[v] = cv;
                b.vertex(p, n, [cu + 0.5, cv + 0.5])
            });
            b.quad(corners[0], corners[1], corners[2], corners[3]);
        }
    }
}

/// A `size` × `size` plane in XZ facing +Y, `cells` × `cells` quads.
fn grid(b: &mut Builder, size: f32, cells: usize) {
    let start = b.positions.len() as u32;
    for j in 0..=cells {
        for i in 0..=cells {
            let (u, v) = (i as f32 / cells as f32, j as f32 / cells as f32);
            b.vertex(
                [(u - 0.5) * size, 0.0, (v - 0.5) * size],
                [0.0, 1.0, 0.0],
                [u, v],
            );
        }
    }
    let row = cells as u32 + 1;
    for j in 0..cells as u32 {
        for i in 0..cells as u32 {
            let a = start + j * row + i;
            b.quad(a, a + 1, a + row + 1, a + row);
        }
    }
}

/// A 1 × 1 quad in XY facing −Z (towards a default camera).
fn quad(b: &mut Builder) {
    let n = [0.0, 0.0, -1.0];
    let c = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
        .map(|(x, y)| b.vertex([x, y, 0.0], n, [x + 0.5, y + 0.5]));
    b.quad(c[0], c[1], c[2], c[3]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mesh(id: i64) -> MeshData {
        builtin(id).expect("a generated built-in")
    }

    #[test]
    fn primitives_have_unitys_sizes() {
        let ext = |id| mesh(id).bounds().unwrap().extent;
        assert_eq!(ext(10202), [0.5, 0.5, 0.5]);
        assert_eq!(ext(10209), [5.0, 0.0, 5.0]);
        assert_eq!(ext(10210), [0.5, 0.5, 0.0]);
        for (id, half_height) in [(10206, 1.0), (10207, 0.5), (10208, 1.0)] {
            let e = ext(id);
            assert!(
                (e[0] - 0.5).abs() < 1e-6 && (e[2] - 0.5).abs() < 1e-6,
                "{id}: {e:?}"
            );
            assert!((e[1] - half_height).abs() < 1e-6, "{id}: {e:?}");
        }
        assert!(builtin(10205).is_none());
        for p in &mesh(10207).positions {
            let r = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
            assert!((r - 0.5).abs() < 1e-6);
        }
    }

    #[test]
    fn triangles_wind_clockwise_seen_from_outside_like_unitys_quad() {
        // Unity's own quad (vertices (−½,−½), (½,−½), (−½,½), (½,½), triangles 0 3 1, 3 0 2,
        // normal −Z) satisfies (b − a) × (c − a) ∥ normal; so must every generated triangle.
        let unity = [
            [-0.5, -0.5, 0.0],
            [0.5, -0.5, 0.0],
            [-0.5, 0.5, 0.0],
            [0.5, 0.5, 0.0f32],
        ];
        let face = cross(sub(unity[3], unity[0]), sub(unity[1], unity[0]));
        assert!(dot(face, [0.0, 0.0, -1.0]) > 0.0);
        for (id, _) in BUILTIN_MESHES {
            let m = mesh(id);
            let tris = &m.submeshes[0].indices;
            assert!(tris.len() >= 6 && tris.len().is_multiple_of(3));
            for t in tris.chunks_exact(3) {
                let p = |i: u32| m.positions[i as usize];
                let face = cross(sub(p(t[1]), p(t[0])), sub(p(t[2]), p(t[0])));
                let n = m.normals[t[0] as usize];
                assert!(dot(face, n) > 0.0, "{id}: triangle {t:?} faces inwards");
            }
            assert_eq!(m.bounds(), Some(m.local_aabb));
        }
    }

    #[test]
    fn default_resources_are_recognised_by_file_name() {
        assert!(is_default_resources("library/unity default resources"));
        assert!(is_default_resources("Library/Unity Default Resources"));
        assert!(!is_default_resources("resources/unity_builtin_extra"));
    }
}
