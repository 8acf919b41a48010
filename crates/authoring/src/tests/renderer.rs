//! Renderers written as cubes: every object reads back to its last byte, clipscope's own
//! decoders find the cube, its winding, the renderer's flags and the material's colour, and
//! the GameObjects list their components and keep their `m_IsActive`.

use super::super::renderer::cube;
use super::readback::read_bundle;
use super::*;
use clipscope_core::mesh;
use clipscope_core::resource::NoStreams;
use clipscope_core::serialized::SerializedFile as Decoded;

/// A root with two cubes: an enabled red one on the inactive `A`, a disabled green one on `B`.
fn cubes(target: UnityTarget) -> Bundle {
    let mut a = Joint::new("A", Some(0), [1.0, 0.0, 0.0]);
    a.active = false;
    let mut bundle = Bundle::new(target);
    bundle.rig = Some(RigSpec {
        joints: vec![
            Joint::new("Root", None, [0.0; 3]),
            a,
            Joint::new("B", Some(0), [0.0, 1.0, 0.0]),
        ],
        component: RigComponent::Animator,
        renderers: vec![
            RendererSpec {
                joint: 1,
                enabled: true,
                size: 0.5,
                color: [1.0, 0.0, 0.0, 1.0],
                name: "Red".into(),
                floats: Vec::new(),
                colors: Vec::new(),
            },
            RendererSpec {
                joint: 2,
                enabled: false,
                size: 2.0,
                color: [0.0, 1.0, 0.0, 0.5],
                name: "Green".into(),
                floats: Vec::new(),
                colors: Vec::new(),
            },
        ],
    });
    bundle
}

#[test]
fn every_renderer_object_reads_back_to_its_last_byte() {
    for target in TARGETS {
        let bundle = cubes(target);
        let back = read_bundle(&bundle);
        // Path ids: GameObjects 1–3, Transforms 4–6, Animator 7, (Avatar 8), then 9–16.
        let ids = PathIds::new(&bundle);
        let first = ids.renderer(0);
        assert_eq!(first.mesh, 9);
        let filter = back.object(first.filter, 33);
        assert_eq!(filter["m_Mesh"]["m_PathID"], first.mesh);
        assert_eq!(filter["m_GameObject"]["m_PathID"], ids.game_object(1));
        let renderer = back.object(first.renderer, 23);
        assert_eq!(renderer["m_Enabled"], true);
        assert_eq!(renderer["m_Materials"][0]["m_PathID"], first.material);
        assert_eq!(
            back.object(ids.renderer(1).renderer, 23)["m_Enabled"],
            false
        );
        back.object(first.mesh, 43);
        back.object(first.material, 21);
        let a = back.object(ids.game_object(1), 1);
        assert_eq!(a["m_IsActive"], false, "{target:?}");
        let components: Vec<i64> = a["m_Component"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|c| c["component"]["m_PathID"].as_i64())
            .collect();
        assert_eq!(components, [ids.transform(1), first.filter, first.renderer]);
        assert_eq!(back.object(ids.game_object(2), 1)["m_IsActive"], true);
    }
}

#[test]
fn clipscope_decodes_the_cube_its_winding_and_the_colour() {
    for target in TARGETS {
        let bundle = cubes(target);
        let file = Decoded::parse(write_serialized(&bundle).unwrap(), None).unwrap();
        let ids = PathIds::new(&bundle);
        let green = ids.renderer(1);
        let m = mesh::read(&file, file.object(green.mesh).unwrap(), &NoStreams).unwrap();
        let (positions, normals, indices) = cube(2.0);
        assert_eq!(m.positions, positions, "{target:?}");
        assert_eq!(m.normals, normals);
        assert_eq!(m.submeshes.len(), 1);
        let want: Vec<u32> = indices.iter().map(|&i| u32::from(i)).collect();
        assert_eq!(m.submeshes[0].indices, want);
        assert_eq!(m.local_aabb.extent, [1.0; 3]);
        assert_eq!(m.bounds(), Some(m.local_aabb));
        // Every triangle is clockwise seen from outside: in Unity's left-handed space,
        // (b − a) × (c − a) with the usual formula points out of the cube.
        for t in want.chunks(3) {
            let [a, b, c] = [0, 1, 2].map(|k| m.positions[t[k] as usize]);
            let (u, v) = (sub(b, a), sub(c, a));
            let n = [
                u[1] * v[2] - u[2] * v[1],
                u[2] * v[0] - u[0] * v[2],
                u[0] * v[1] - u[1] * v[0],
            ];
            let centre: [f32; 3] = std::array::from_fn(|k| (a[k] + b[k] + c[k]) / 3.0);
            let outward: f32 = (0..3).map(|k| n[k] * centre[k]).sum();
            assert!(outward > 0.0, "triangle {t:?} faces inwards");
        }
        let material =
            clipscope_core::material::read(&file, file.object(green.material).unwrap()).unwrap();
        assert_eq!(material.color, Some([0.0, 1.0, 0.0, 0.5]));
        assert_eq!(material.name, "Green");
    }
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    std::array::from_fn(|k| a[k] - b[k])
}

#[test]
fn a_renderer_on_a_joint_that_does_not_exist_is_an_invalid_rig() {
    let mut bundle = cubes(UnityTarget::Unity2020);
    bundle.rig.as_mut().unwrap().renderers[0].joint = 3;
    let err = write_bundle(&bundle).unwrap_err();
    assert!(matches!(err, AuthoringError::InvalidRig(_)), "{err}");
}
