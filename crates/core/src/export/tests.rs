//! Export of a hand-built character: a three-joint rig with a skinned, textured quad with
//! two blend shapes, and a clip with Hermite position and rotation tracks, stepped scale
//! keys, a blend shape curve and an activity curve. The file is read back with the `gltf`
//! crate (with its validation) and every channel compared with clipscope's evaluation.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::evaluate::{Interpolation, Keys, Path, angle_between, distance, max_abs_diff};
use super::*;
use crate::clip::{ClipCurve, GenericBinding, LegacyKind, Storage};
use crate::curve::{Curve, Key};
use crate::hash::{attribute_hash, path_hash};
use crate::material::{MaterialData, TextureSlot};
use crate::mesh::renderer::SubMeshRange;
use crate::mesh::{
    Aabb, BlendShapeChannel, BlendShapeDelta, BlendShapeFrame, MeshData, SubMeshData,
    VertexWeights, matrix,
};
use crate::rig::{Joint, RigComponent};
use crate::texture::RgbaImage;
use crate::unity::{Int, PPtr};
use crate::workspace::{
    MaterialEntry, MeshEntry, MeshFacts, MeshSource, RendererKind, TextureEntry,
};

use clipscope_authoring::gltf_validator;

fn at(path_id: i64) -> ObjectRef {
    ObjectRef { file: 0, path_id }
}

fn joint(name: &str, path: &str, parent: Option<usize>, position: [f32; 3]) -> Joint {
    Joint {
        name: name.into(),
        path: path.into(),
        path_hash: path_hash(path),
        parent,
        position,
        rotation: [0.0, 0.0, 0.0, 1.0],
        scale: [1.0; 3],
        transform_id: 0,
    }
}

fn quad() -> MeshData {
    let delta = |index, y| BlendShapeDelta {
        index,
        position: [0.0, y, 0.0],
        normal: [0.0; 3],
        tangent: [0.0; 3],
    };
    MeshData {
        name: "quad".into(),
        positions: vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.5],
            [0.0, 1.0, 0.0],
        ],
        normals: vec![[0.0, 0.0, -1.0]; 4],
        uv0: vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]],
        submeshes: vec![SubMeshData {
            indices: vec![0, 1, 2, 0, 2, 3],
            index_count: 6,
            vertex_count: 4,
            ..SubMeshData::default()
        }],
        skin: vec![
            VertexWeights {
                bones: [0, 0, 0, 0],
                weights: [1.0, 0.0, 0.0, 0.0],
            },
            VertexWeights {
                bones: [1, 0, 0, 0],
                weights: [1.0, 0.0, 0.0, 0.0],
            },
            VertexWeights {
                bones: [0, 1, 0, 0],
                weights: [0.5, 0.5, 0.0, 0.0],
            },
            // Bone 5 is past the two bind poses: cut.
            VertexWeights {
                bones: [0, 5, 0, 0],
                weights: [0.5, 0.5, 0.0, 0.0],
            },
        ],
        bind_poses: vec![
            matrix::from_trs([0.0, -1.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]),
            matrix::from_trs([0.0, -2.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]),
        ],
        blend_shapes: vec![
            BlendShapeChannel {
                name: "smile".into(),
                name_hash: attribute_hash("smile"),
                frames: vec![BlendShapeFrame {
                    weight: 100.0,
                    vertices: vec![delta(0, 1.0)],
                }],
            },
            BlendShapeChannel {
                name: "blink".into(),
                name_hash: attribute_hash("blink"),
                frames: vec![
                    BlendShapeFrame {
                        weight: 50.0,
                        vertices: vec![delta(1, 0.5)],
                    },
                    BlendShapeFrame {
                        weight: 100.0,
                        vertices: vec![delta(1, 2.0)],
                    },
                ],
            },
        ],
        ..MeshData::default()
    }
}

fn pptr(path_id: i64) -> PPtr {
    PPtr {
        m_FileID: Int(0),
        m_PathID: Int(path_id),
    }
}

fn transform_binding(path: &str, attribute: u32) -> GenericBinding {
    GenericBinding {
        path: path_hash(path),
        attribute,
        type_id: 4,
        custom_type: 0,
        is_pptr: false,
        is_int: false,
        script: (0, 0),
        path_name: Some(path.into()),
        attribute_name: None,
    }
}

/// θ(t) about Y as Hermite keys of the four quaternion components at `times`.
fn turning(times: &[f32]) -> [Curve; 4] {
    let angle = |t: f32| 0.9 * t * t;
    let d_angle = |t: f32| 1.8 * t;
    let comp = |f: &dyn Fn(f32) -> (f32, f32)| {
        Curve::from_keys(
            times
                .iter()
                .map(|&t| {
                    let (v, d) = f(t);
                    Key::new(t, v, d, d)
                })
                .collect(),
        )
    };
    [
        Curve::constant(0.0),
        comp(&|t| {
            (
                (angle(t) / 2.0).sin(),
                (angle(t) / 2.0).cos() * d_angle(t) / 2.0,
            )
        }),
        Curve::constant(0.0),
        comp(&|t| {
            (
                (angle(t) / 2.0).cos(),
                -(angle(t) / 2.0).sin() * d_angle(t) / 2.0,
            )
        }),
    ]
}

fn clip() -> ClipData {
    let mut bindings = vec![
        transform_binding("Hips", crate::clip::attribute::POSITION),
        transform_binding("Hips/Spine", crate::clip::attribute::ROTATION),
        transform_binding("Hips/Spine", crate::clip::attribute::SCALE),
    ];
    let mut shape = transform_binding("Hips", attribute_hash("blendShape.smile"));
    (shape.type_id, shape.custom_type) = (137, crate::clip::CUSTOM_TYPE_BLEND_SHAPE);
    bindings.push(shape);
    let mut active = transform_binding("Hips", attribute_hash("m_IsActive"));
    (active.type_id, active.attribute_name) = (1, Some("m_IsActive".into()));
    bindings.push(active);
    let x = Curve::from_keys(vec![
        Key::new(0.0, 0.0, 0.0, 2.0),
        Key::new(0.7, 1.0, 0.5, 0.5),
        Key::new(2.0, -0.5, 0.0, 0.0),
    ]);
    let y = Curve::from_keys(vec![
        Key::new(0.0, 1.0, 0.0, 0.0),
        Key::new(1.3, 1.5, 1.0, 1.0),
        Key::new(2.0, 1.0, 0.0, 0.0),
    ]);
    let step = Curve::from_keys(vec![
        Key::step(0.0, 1.0),
        Key::step(0.5, 2.0),
        Key::step(1.5, 1.5),
        Key::new(2.0, 1.5, 0.0, 0.0),
    ]);
    let smile = Curve::from_keys(vec![
        Key::new(0.0, 0.0, 0.0, 0.0),
        Key::new(2.0, 100.0, 0.0, 0.0),
    ]);
    let legacy = Storage::Legacy(LegacyKind::Float);
    let mut curves = Vec::new();
    let mut add = |curve: Curve, binding: usize, component: u8| {
        curves.push(ClipCurve {
            curve,
            storage: legacy,
            binding: Some(binding),
            component,
        })
    };
    add(x, 0, 0);
    add(y, 0, 1);
    add(Curve::constant(0.25), 0, 2);
    for (i, c) in turning(&[0.0, 0.6, 1.2, 2.0]).into_iter().enumerate() {
        add(c, 1, i as u8);
    }
    for i in 0..3 {
        add(step.clone(), 2, i);
    }
    add(smile, 3, 0);
    add(Curve::constant(1.0), 4, 0);
    let tracks = crate::clip::build_tracks(bindings.len(), &curves);
    bindings.shrink_to_fit();
    ClipData {
        name: "Synthetic".into(),
        legacy: false,
        keyframed: true,
        start: 0.0,
        stop: 2.0,
        sample_rate: 30.0,
        wrap_mode_code: 0,
        loop_time: true,
        cycle_offset: 0.0,
        settings: Default::default(),
        counts: Default::default(),
        bindings,
        curves,
        tracks,
        pptr_mapping: Vec::new(),
        events: Vec::new(),
        warnings: Vec::new(),
        summary_only: None,
    }
}

fn workspace() -> Workspace {
    let mut ws = Workspace::default();
    let mesh = quad();
    ws.meshes.push(MeshEntry {
        at: at(10),
        name: "quad".into(),
        facts: Ok(MeshFacts {
            vertices: 4,
            submeshes: vec![6],
            bones: 2,
            blend_shapes: 2,
            skinned: true,
            bounds: None,
        }),
        shape_names: mesh
            .blend_shapes
            .iter()
            .map(|s| (s.name_hash, s.name.clone()))
            .collect(),
        data: Some(Arc::new(mesh)),
    });
    ws.textures.push(TextureEntry {
        at: at(30),
        name: "checker".into(),
        format: 4,
        width: 2,
        height: 2,
        error: None,
        image: Some(Arc::new(RgbaImage {
            width: 2,
            height: 2,
            pixels: vec![
                255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255,
            ],
        })),
    });
    ws.materials.push(MaterialEntry {
        at: at(20),
        data: MaterialData {
            name: "skin".into(),
            shader: PPtr::default(),
            main_texture: Some(TextureSlot {
                property: "_MainTex".into(),
                texture: pptr(30),
                scale: [1.0, 1.0],
                offset: [0.0, 0.0],
            }),
            color: Some([1.0, 0.5, 0.25, 1.0]),
            alpha: crate::material::AlphaMode::Mask { cutoff: 0.3 },
            properties: Default::default(),
        },
    });
    ws.rigs.push(RigEntry {
        at: at(1),
        name: "Doll".into(),
        component: RigComponent::Animator,
        skeleton: Arc::new(Skeleton {
            joints: vec![
                joint("Doll", "", None, [0.0; 3]),
                joint("Hips", "Hips", Some(0), [0.0, 1.0, 0.0]),
                joint("Spine", "Hips/Spine", Some(1), [0.0, 1.0, 0.0]),
            ],
        }),
        tos: Arc::new(BTreeMap::new()),
        avatar: None,
        humanoid: None,
        humanoid_error: None,
        clips: vec![at(40)],
        unresolved_clips: 0,
        controller: None,
        renderers: vec![RendererEntry {
            at: at(50),
            joint: 1,
            enabled: true,
            active: true,
            active_in_hierarchy: true,
            inactive_joints: Vec::new(),
            kind: RendererKind::Skinned {
                bones: vec![Some(1), Some(2)],
                root_bone: Some(1),
                blend_shape_weights: vec![25.0, 0.0],
                bounds: Aabb::default(),
            },
            mesh: MeshSource::Loaded(at(10)),
            materials: vec![Some(at(20))],
            submeshes: SubMeshRange::default(),
        }],
        apply_root_motion: false,
    });
    ws
}

/// Channels read back from a GLB by the `gltf` crate (which validates it).
fn read_back(glb: &[u8]) -> (gltf::Gltf, Vec<(usize, Path, Keys)>) {
    let gltf = gltf::Gltf::from_slice(glb).expect("parses and validates");
    for view in gltf.views() {
        assert_eq!(view.offset() % 4, 0);
    }
    let blob = gltf.blob.clone().expect("binary chunk");
    let mut out = Vec::new();
    for anim in gltf.animations() {
        for ch in anim.channels() {
            assert!(ch.sampler().input().min().is_some() && ch.sampler().input().max().is_some());
            let reader = ch.reader(|_| Some(&blob[..]));
            let times: Vec<f32> = reader.read_inputs().unwrap().collect();
            use gltf::animation::util::ReadOutputs;
            let (path, values) = match reader.read_outputs().unwrap() {
                ReadOutputs::Translations(v) => (Path::Translation, v.flatten().collect()),
                ReadOutputs::Rotations(v) => (Path::Rotation, v.into_f32().flatten().collect()),
                ReadOutputs::Scales(v) => (Path::Scale, v.flatten().collect()),
                ReadOutputs::MorphTargetWeights(v) => {
                    (Path::Weights, v.into_f32().collect::<Vec<f32>>())
                }
            };
            let interpolation = match ch.sampler().interpolation() {
                gltf::animation::Interpolation::Linear => Interpolation::Linear,
                gltf::animation::Interpolation::Step => Interpolation::Step,
                gltf::animation::Interpolation::CubicSpline => Interpolation::CubicSpline,
            };
            let groups = if interpolation == Interpolation::CubicSpline {
                3
            } else {
                1
            };
            let width = values.len() / (groups * times.len());
            out.push((
                ch.target().node().index(),
                path,
                Keys {
                    interpolation,
                    times,
                    values,
                    width,
                },
            ));
        }
    }
    (gltf, out)
}

fn exported(mode: Mode) -> (Workspace, Exported) {
    let ws = workspace();
    let data = clip();
    let options = ExportOptions {
        mode,
        ..ExportOptions::default()
    };
    let out = export(
        &ws,
        &ExportRig::of(&ws.rigs[0]),
        &[ExportClip {
            at: at(40),
            clip: &data,
        }],
        &options,
    )
    .expect("exports");
    gltf_validator::validator(&out.glb);
    (ws, out)
}

#[test]
fn the_character_validates_with_its_skin_morph_targets_and_texture() {
    let (ws, out) = exported(Mode::Linear);
    let (gltf, _) = read_back(&out.glb);
    let mesh = gltf.meshes().next().expect("a mesh");
    let prim = mesh.primitives().next().unwrap();
    assert_eq!(prim.get(&gltf::Semantic::Positions).unwrap().count(), 4);
    assert_eq!(prim.morph_targets().count(), 2);
    let extras: serde_json::Value =
        serde_json::from_str(mesh.extras().as_ref().unwrap().get()).unwrap();
    assert_eq!(extras["targetNames"], serde_json::json!(["smile", "blink"]));
    assert_eq!(mesh.weights(), Some(&[0.25, 0.0][..]));
    let skin = gltf.skins().next().unwrap();
    let joints: Vec<usize> = skin.joints().map(|j| j.index()).collect();
    assert_eq!(joints, [1, 2]);
    // Positions mirrored in X; the texture is the 2×2 image, as PNG.
    let blob = gltf.blob.clone().unwrap();
    let reader = prim.reader(|_| Some(&blob[..]));
    let p: Vec<[f32; 3]> = reader.read_positions().unwrap().collect();
    assert_eq!(p[2], [-1.0, 1.0, 0.5]);
    let indices: Vec<u32> = reader.read_indices().unwrap().into_u32().collect();
    assert_eq!(indices, [0, 2, 1, 0, 3, 2], "winding reversed");
    // The material's alpha mode and cut-off.
    assert_eq!(
        prim.material().alpha_mode(),
        gltf::material::AlphaMode::Mask
    );
    assert_eq!(prim.material().alpha_cutoff(), Some(0.3));
    let tex = prim
        .material()
        .pbr_metallic_roughness()
        .base_color_texture()
        .unwrap();
    let gltf::image::Source::View { view, mime_type } = tex.texture().source().source() else {
        panic!("embedded")
    };
    assert_eq!(mime_type, "image/png");
    let png = &blob[view.offset()..view.offset() + view.length()];
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let info = decoder.read_info().unwrap();
    assert_eq!((info.info().width, info.info().height), (2, 2));
    // Node names and extras.
    let spine = gltf.nodes().nth(2).unwrap();
    assert_eq!(spine.name(), Some("Spine"));
    let extras: serde_json::Value =
        serde_json::from_str(spine.extras().as_ref().unwrap().get()).unwrap();
    assert_eq!(extras["unity_path"], "Hips/Spine");
    assert_eq!(extras["unity_path_hash"], path_hash("Hips/Spine"));
    let report = &out.report;
    assert_eq!(report.meshes[0].influences_cut, 1);
    assert_eq!(report.meshes[0].inbetween_frames_dropped, 1);
    assert!(ws.rigs[0].renderers.len() == 1);
}

#[test]
fn renderers_unity_does_not_draw_are_left_out_and_reported() {
    for (enabled, active_in_hierarchy, why) in [
        (false, true, "the renderer is disabled"),
        (true, false, "its GameObject is inactive"),
    ] {
        let mut ws = workspace();
        let r = &mut ws.rigs[0].renderers[0];
        r.enabled = enabled;
        r.active_in_hierarchy = active_in_hierarchy;
        let data = clip();
        let out = export(
            &ws,
            &ExportRig::of(&ws.rigs[0]),
            &[ExportClip {
                at: at(40),
                clip: &data,
            }],
            &ExportOptions::default(),
        )
        .expect("exports");
        let (gltf, _) = read_back(&out.glb);
        assert_eq!(gltf.meshes().count(), 0, "{why}");
        assert!(out.report.meshes.is_empty());
        assert!(
            out.report
                .warnings
                .iter()
                .any(|w| w.contains("not drawn at rest") && w.contains(why)),
            "{:?}",
            out.report.warnings
        );
    }
}

#[test]
fn activity_curves_are_dropped_and_listed() {
    let (_, out) = exported(Mode::Linear);
    let dropped = &out.report.clips[0].dropped;
    assert_eq!(dropped.len(), 1, "{dropped:?}");
    assert!(dropped[0].reason.contains("activity"), "{dropped:?}");
}

#[test]
fn stepped_keys_are_a_step_channel_and_exact_mode_writes_unitys_hermite_as_cubic() {
    let (_, linear) = exported(Mode::Linear);
    let (_, exact) = exported(Mode::Exact);
    let (_, channels) = read_back(&linear.glb);
    let scale = channels.iter().find(|c| c.1 == Path::Scale).unwrap();
    assert_eq!(scale.2.interpolation, Interpolation::Step);
    assert_eq!(scale.2.times, [0.0, 0.5, 1.5, 2.0]);
    let (_, channels) = read_back(&exact.glb);
    for path in [Path::Translation, Path::Rotation] {
        let c = channels.iter().find(|c| c.1 == path).unwrap();
        assert_eq!(c.2.interpolation, Interpolation::CubicSpline, "{path:?}");
    }
    let r = &exact.report.clips[0];
    assert!(
        r.max_translation_error < 1e-5 && r.max_rotation_error_rad < 1e-5,
        "{r:?}"
    );
    let l = &linear.report.clips[0];
    assert!(l.max_translation_error > r.max_translation_error, "{l:?}");
    assert!(l.keys_out > 0 && l.channels == 4, "{l:?}");
}

#[test]
fn every_channel_read_back_matches_clipscope_within_the_reported_error() {
    for mode in [Mode::Linear, Mode::Exact] {
        let (ws, out) = exported(mode);
        let report = &out.report.clips[0];
        let (_, channels) = read_back(&out.glb);
        let data = clip();
        let rig = &ws.rigs[0];
        let poser = crate::pose::ClipPoser::new(&data, &rig.skeleton, None);
        let options = crate::humanoid::PoseOptions::default();
        for i in 0..30 {
            let t = 2.0 * i as f32 / 29.0;
            let l = poser.locals(t, &options);
            for (node, path, keys) in &channels {
                let got = keys.evaluate(*path, t);
                let (err, allowed) = match path {
                    Path::Translation => (
                        distance(&got, &space::point(l[*node].t)),
                        report.max_translation_error,
                    ),
                    Path::Rotation => (
                        angle_between(&got, &space::rotation(l[*node].q)),
                        report.max_rotation_error_rad,
                    ),
                    Path::Scale => (max_abs_diff(&got, &l[*node].s), report.max_scale_error),
                    Path::Weights => {
                        let smile = data.sample_curve(10, t).unwrap() / 100.0;
                        (max_abs_diff(&got, &[smile, 0.0]), report.max_weight_error)
                    }
                };
                assert!(
                    err <= allowed + 1e-5,
                    "{mode:?} {path:?} at {t}: {got:?}, error {err}"
                );
            }
        }
    }
}

#[test]
fn broken_clips_are_skipped_or_written_without_panicking() {
    let ws = workspace();
    let mut endless = clip();
    endless.stop = 1e9;
    let mut nan = clip();
    nan.curves[0].curve = Curve::from_keys(vec![
        Key::new(0.0, f32::NAN, 0.0, 0.0),
        Key::new(2.0, 1.0, 0.0, 0.0),
    ]);
    nan.name = "NaN".into();
    let clips = [
        ExportClip {
            at: at(40),
            clip: &endless,
        },
        ExportClip {
            at: at(41),
            clip: &nan,
        },
    ];
    for mode in [Mode::Linear, Mode::Exact] {
        let options = ExportOptions {
            mode,
            ..ExportOptions::default()
        };
        let out = export(&ws, &ExportRig::of(&ws.rigs[0]), &clips, &options).unwrap();
        assert!(
            out.report.warnings.iter().any(|w| w.contains("samples")),
            "{:?}",
            out.report.warnings
        );
        assert_eq!(out.animations(), 1);
        let (gltf, _) = read_back(&out.glb);
        assert_eq!(gltf.animations().next().unwrap().name(), Some("NaN"));
    }
}
