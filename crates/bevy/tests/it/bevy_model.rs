//! Headless Bevy: `spawn_model` on the shared skinned characters (`copy.bundle`'s quinn,
//! `morbman`) and the 2D sprite rig of `day65platformer2d`: entities per sub-mesh, skins
//! bound to the rig's joints in bind-pose order, morph targets driven by blend shape weights,
//! and Bevy's skinning of the mirrored data landing where Unity's formula puts each vertex.
#![cfg(feature = "model")]

use crate::common;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use bevy::animation::AnimationPlugin;
use bevy::asset::io::memory::{Dir, MemoryAssetReader};
use bevy::asset::io::{AssetSourceBuilder, AssetSourceId};
use bevy::camera::visibility::{DynamicSkinnedMeshBounds, NoFrustumCulling};
use bevy::ecs::system::SystemState;
use bevy::mesh::morph::{MeshMorphWeights, MorphWeights};
use bevy::mesh::skinning::{SkinnedMesh, SkinnedMeshInverseBindposes};
use bevy::mesh::{Indices, VertexAttributeValues};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy::transform::TransformPlugin;
use clipscope_bevy::model::{ModelMesh, SpriteSwap, spawn_model};
use clipscope_bevy::scene::blend_shape_keys;
use clipscope_bevy::*;
use clipscope_core::mesh::matrix::{self, from_trs};
use clipscope_core::workspace::{RendererKind, RigEntry};
use clipscope_core::{Workspace, path_hash};

fn app() -> App {
    app_reading(None)
}

/// The app, with `dir` as the default asset source when given.
fn app_reading(dir: Option<Dir>) -> App {
    let mut app = App::new();
    if let Some(dir) = dir {
        app.register_asset_source(
            AssetSourceId::Default,
            AssetSourceBuilder::new(move || Box::new(MemoryAssetReader { root: dir.clone() })),
        );
    }
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin::default(),
        AnimationPlugin,
        TransformPlugin,
        ClipscopePlugin,
    ))
    .init_asset::<Mesh>()
    .init_asset::<StandardMaterial>()
    .init_asset::<Image>()
    .init_asset::<SkinnedMeshInverseBindposes>()
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(
        1.0 / 30.0,
    )));
    app
}

/// Spawns `model` and applies the commands; returns the rig root.
fn spawn(app: &mut App, model: &UnityModel) -> Entity {
    let world = app.world_mut();
    let mut state: SystemState<(Commands, ModelAssets)> = SystemState::new(world);
    let (mut commands, mut assets) = state.get_mut(world).expect("asset collections");
    let root = spawn_model(&mut commands, &mut assets, model);
    state.apply(world);
    app.update();
    root
}

fn rig<'a>(ws: &'a Workspace, name: &str) -> &'a RigEntry {
    ws.rigs.iter().find(|r| r.name == name).expect("rig")
}

/// The model's mesh entities (in spawn order) with their components.
fn parts(app: &mut App, root: Entity) -> Vec<Entity> {
    let mut q = app.world_mut().query::<(Entity, &ModelMesh)>();
    let mut out: Vec<(usize, usize, Entity)> = q
        .iter(app.world())
        .filter(|(_, m)| m.root == root)
        .map(|(e, m)| (m.renderer, m.submesh, e))
        .collect();
    out.sort();
    out.into_iter().map(|(_, _, e)| e).collect()
}

fn mesh_of(app: &App, part: Entity) -> &Mesh {
    let handle = &app.world().get::<Mesh3d>(part).unwrap().0;
    app.world().resource::<Assets<Mesh>>().get(handle).unwrap()
}

/// Unity's world matrices of the skeleton's joints in its stored pose, computed in Unity's
/// space from the joints' local transforms.
fn unity_world(rig: &RigEntry) -> Vec<matrix::Mat4> {
    let mut world: Vec<matrix::Mat4> = Vec::new();
    for j in &rig.skeleton.joints {
        let local = from_trs(j.position, j.rotation, j.scale);
        let global = match j.parent.and_then(|p| world.get(p)) {
            Some(parent) => matrix::mul(parent, &local),
            None => local,
        };
        world.push(global);
    }
    world
}

/// Checks one skinned character: part count, joints in bind-pose order, morph targets, and
/// that Bevy's skinning (joint `GlobalTransform` × inverse bind pose, weighted) of each Bevy
/// vertex is the mirror of Unity's skinning of the same vertex.
fn check_skinned(path: &Path, rig_name: &str, submeshes: usize, bones: usize, morphs: usize) {
    let ws = common::open(&[path.to_path_buf()]);
    let rig = rig(&ws, rig_name);
    let model = UnityModel::from_workspace(&ws, rig, |_| None);
    assert_eq!(model.renderers.len(), 1, "{:?}", model.warnings);
    let renderer = &model.renderers[0];
    let mesh = renderer.mesh.clone().expect("decoded mesh");
    let RendererKind::Skinned {
        bones: bone_joints, ..
    } = &renderer.kind
    else {
        panic!("a skinned renderer")
    };
    let mut app = app();
    let root = spawn(&mut app, &model);
    let joints = app.world().get::<RigRoot>(root).unwrap().joints.clone();
    let parts = parts(&mut app, root);
    assert_eq!(parts.len(), submeshes);
    let unity_world = unity_world(rig);
    let bone_world: Vec<matrix::Mat4> = bone_joints
        .iter()
        .map(|j| unity_world[j.expect("every bone is a joint")])
        .collect();
    let unity_skinned = clipscope_core::mesh::skin_positions(&mesh, &bone_world);
    for (s, &part) in parts.iter().enumerate() {
        let skin = app.world().get::<SkinnedMesh>(part).unwrap().clone();
        assert_eq!(skin.joints.len(), bones);
        for (i, &joint) in skin.joints.iter().enumerate() {
            // Bind-pose order: bone i is the joint the renderer's m_Bones[i] names, and the
            // mesh's own bone name hash i is that joint's path hash.
            assert_eq!(joint, joints[bone_joints[i].unwrap()]);
            let path = &app.world().get::<RigJoint>(joint).unwrap().path;
            assert_eq!(
                mesh.bone_name_hashes[i],
                path_hash(path),
                "bone {i}: {path}"
            );
        }
        let bevy = mesh_of(&app, part);
        assert_eq!(
            bevy.morph_targets().map_or(0, |t| t.len()),
            morphs * bevy.count_vertices()
        );
        let inverse = app
            .world()
            .resource::<Assets<SkinnedMeshInverseBindposes>>()
            .get(&skin.inverse_bindposes)
            .unwrap();
        let joint_matrix: Vec<Mat4> = skin
            .joints
            .iter()
            .zip(inverse.iter())
            .map(|(&j, ib)| app.world().get::<GlobalTransform>(j).unwrap().to_matrix() * *ib)
            .collect();
        let (
            Some(VertexAttributeValues::Float32x3(pos)),
            Some(VertexAttributeValues::Uint16x4(idx)),
            Some(VertexAttributeValues::Float32x4(w)),
        ) = (
            bevy.attribute(Mesh::ATTRIBUTE_POSITION),
            bevy.attribute(Mesh::ATTRIBUTE_JOINT_INDEX),
            bevy.attribute(Mesh::ATTRIBUTE_JOINT_WEIGHT),
        )
        else {
            panic!("skinned attributes")
        };
        let first = *mesh.submeshes[s].indices.iter().min().unwrap() as usize;
        let size = unity_skinned
            .iter()
            .flatten()
            .fold(0f32, |a, &b| a.max(b.abs()));
        let mut worst = 0f32;
        for v in 0..pos.len() {
            let p = Vec3::from_array(pos[v]);
            let skinned: Vec3 = (0..4)
                .map(|k| w[v][k] * joint_matrix[idx[v][k] as usize].transform_point3(p))
                .sum();
            let [x, y, z] = unity_skinned[first + v];
            worst = worst.max(skinned.distance(Vec3::new(x, y, -z)));
        }
        assert!(
            worst <= 1e-5 * size,
            "sub-mesh {s}: off by {worst} (size {size})"
        );
        // Front faces (counter-clockwise in Bevy) face the way the normals point.
        let (Some(Indices::U32(tri)), Some(VertexAttributeValues::Float32x3(n))) =
            (bevy.indices(), bevy.attribute(Mesh::ATTRIBUTE_NORMAL))
        else {
            panic!("indices and normals")
        };
        let agree = tri
            .chunks_exact(3)
            .filter(|t| {
                let [a, b, c] = [t[0], t[1], t[2]].map(|i| Vec3::from_array(pos[i as usize]));
                let normal: Vec3 = t.iter().map(|&i| Vec3::from_array(n[i as usize])).sum();
                (b - a).cross(c - a).dot(normal) > 0.0
            })
            .count();
        assert!(
            agree * 100 >= tri.len() / 3 * 95,
            "{agree} of {} faces",
            tri.len() / 3
        );
    }
}

#[test]
fn quinn_spawns_two_sub_meshes_skinned_to_26_joints_in_bind_pose_order_with_one_morph_target() {
    let Some(path) = common::data("binary/lessscarymannequins/copy.bundle") else {
        return;
    };
    check_skinned(&path, "quinn", 2, 26, 1);
}

#[test]
fn morbman_spawns_one_sub_mesh_skinned_to_23_joints_in_its_stored_pose() {
    let Some(path) = common::data("binary/wetboys_plateupemotesapi/morbman") else {
        return;
    };
    check_skinned(&path, "morbman", 1, 23, 0);
}

#[test]
fn blend_shape_weights_drive_the_morph_target_and_culling_follows_the_pose() {
    let Some(path) = common::data("binary/lessscarymannequins/copy.bundle") else {
        return;
    };
    let ws = common::open(&[path]);
    let model = UnityModel::from_workspace(&ws, rig(&ws, "quinn"), |_| None);
    let RendererKind::Skinned {
        blend_shape_weights,
        ..
    } = &model.renderers[0].kind
    else {
        panic!("skinned")
    };
    let stored = blend_shape_weights[0];
    let mut app = app();
    let root = spawn(&mut app, &model);
    let parts = parts(&mut app, root);
    let Some(MeshMorphWeights::Reference(joint)) =
        app.world().get::<MeshMorphWeights>(parts[0]).cloned()
    else {
        panic!("parts refer to their joint's weights")
    };
    let names = mesh_of(&app, parts[0])
        .morph_target_names()
        .unwrap()
        .to_vec();
    assert_eq!(names, ["leg_up"]);
    assert_eq!(
        app.world().get::<MorphWeights>(joint).unwrap().weights(),
        [stored / 100.0]
    );
    // A blend shape curve's value (0–100) lands in the joint's properties.
    let key = blend_shape_keys("leg_up")[0];
    app.world_mut()
        .get_mut::<UnityProperties>(joint)
        .unwrap()
        .values
        .insert(key, 40.0);
    app.update();
    let w = app.world().get::<MorphWeights>(joint).unwrap().weights()[0];
    assert!((w - 0.4).abs() < 1e-6, "{w}");
    // Morph targets move vertices outside per-joint boxes: that mesh is never culled.
    assert!(app.world().get::<NoFrustumCulling>(parts[0]).is_some());
}

#[test]
fn morbman_bounds_follow_its_joints() {
    let Some(path) = common::data("binary/wetboys_plateupemotesapi/morbman") else {
        return;
    };
    let ws = common::open(&[path]);
    let model = UnityModel::from_workspace(&ws, rig(&ws, "morbman"), |_| None);
    let mut app = app();
    let root = spawn(&mut app, &model);
    let part = parts(&mut app, root)[0];
    assert!(app.world().get::<DynamicSkinnedMeshBounds>(part).is_some());
    assert!(mesh_of(&app, part).skinned_mesh_bounds().is_some());
}

#[test]
fn sprite_curves_swap_the_quad_of_the_2d_rig_even_without_its_texture() {
    let Some(path) = common::data("binary/day65platformer2d") else {
        return;
    };
    let ws = Workspace::open(&[path], &clipscope_core::OpenOptions::default());
    let rig = rig(&ws, "PlayerModel");
    let clip = ws.clips.iter().find(|c| c.name == "Walk").unwrap();
    let data = clip.data.as_ref().unwrap();
    let model = UnityModel::from_workspace(&ws, rig, |at| (at == clip.at).then(|| "Walk".into()));
    // The sprite sheet's pixels are in a .resS the shared data lacks: plain quads.
    assert!(!model.sprites.is_empty());
    assert!(model.sprites.iter().all(|s| s.image.is_none()));
    let objects = model
        .clip_objects
        .get("Walk")
        .expect("Walk's PPtr targets")
        .clone();
    assert_eq!(objects.0.len(), data.pptr_mapping.len());
    let mut app = app();
    let root = spawn(&mut app, &model);
    let quad = parts(&mut app, root)[0];
    assert_eq!(
        app.world().get::<SpriteSwap>(quad).unwrap().frames.len(),
        model.sprites.len()
    );
    let handle = app
        .world_mut()
        .resource_mut::<Assets<AnimationClip>>()
        .add(DirectClip::new(Arc::new(data.clone())).bevy_clip());
    let loaded = LoadedClip::new(
        "Walk".into(),
        "Walk".into(),
        0,
        Arc::new(data.clone()),
        handle,
    );
    {
        let world = app.world_mut();
        let mut commands = world.commands();
        play_clip_direct(&mut commands, root, &loaded);
        commands.entity(root).insert(objects);
        world.flush();
    }
    let mut shown = Vec::new();
    let frames = (data.stop * 30.0).ceil() as usize + 2;
    for _ in 0..frames {
        app.update();
        let mesh = app.world().get::<Mesh3d>(quad).unwrap().0.id();
        if !shown.contains(&mesh) {
            shown.push(mesh);
        }
    }
    let distinct = data
        .pptr_mapping
        .iter()
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    assert!(distinct >= 2, "Walk swaps between {distinct} sprites");
    assert_eq!(
        shown.len(),
        distinct,
        "the quad showed {} sprites",
        shown.len()
    );
}

#[test]
fn the_asset_loader_yields_a_model_per_rig_that_draws() {
    let Some(path) = common::data("binary/lessscarymannequins/copy.bundle") else {
        return;
    };
    let dir = Dir::default();
    dir.insert_asset(Path::new("copy.bundle"), std::fs::read(path).unwrap());
    let mut app = app_reading(Some(dir));
    let handle: Handle<UnityFile> = app.world().resource::<AssetServer>().load("copy.bundle");
    for _ in 0..400 {
        if app
            .world()
            .resource::<AssetServer>()
            .is_loaded_with_dependencies(&handle)
        {
            break;
        }
        app.update();
        std::thread::sleep(Duration::from_millis(5));
    }
    let file = app
        .world()
        .resource::<Assets<UnityFile>>()
        .get(&handle)
        .expect("loaded");
    let (label, _) = file.rigs.iter().find(|(l, _)| l.contains("quinn")).unwrap();
    let model = file.model(label).expect("quinn's model").clone();
    let models = app.world().resource::<Assets<UnityModel>>();
    let model = models.get(&model).unwrap();
    assert_eq!(model.renderers.len(), 1);
    assert_eq!(model.renderers[0].parts.len(), 2);
    assert_eq!(model.skeleton.joints.len(), 29);
}

#[test]
fn rigid_meshes_follow_their_joints_with_their_decoded_textures() {
    let Some(path) = common::data("binary/duckhunted/WebPlayer.unity3d") else {
        return;
    };
    let ws = common::open(&[path]);
    let rig = rig(&ws, "Model");
    let model = UnityModel::from_workspace(&ws, rig, |_| None);
    let textured: Vec<_> = model
        .renderers
        .iter()
        .flat_map(|r| &r.parts)
        .filter_map(|p| p.material.as_ref()?.texture.as_ref()?.image.clone())
        .collect();
    assert!(
        !textured.is_empty(),
        "a textured material: {:?}",
        model.warnings
    );
    let mut app = app();
    let root = spawn(&mut app, &model);
    let joints = app.world().get::<RigRoot>(root).unwrap().joints.clone();
    let parts = parts(&mut app, root);
    let drawn: usize = model.renderers.iter().map(|r| r.parts.len()).sum();
    assert_eq!(parts.len(), drawn);
    let mut images = Vec::new();
    for &part in &parts {
        let m = app.world().get::<ModelMesh>(part).unwrap();
        let joint = joints[model.renderers[m.renderer].joint];
        assert_eq!(app.world().get::<ChildOf>(part).unwrap().parent(), joint);
        assert!(app.world().get::<SkinnedMesh>(part).is_none());
        // A rigid mesh sits on its joint: its world box is the mesh's box moved by the joint.
        let global = app.world().get::<GlobalTransform>(part).unwrap();
        assert_eq!(global, app.world().get::<GlobalTransform>(joint).unwrap());
        let material = &app
            .world()
            .get::<MeshMaterial3d<StandardMaterial>>(part)
            .unwrap()
            .0;
        let material = app
            .world()
            .resource::<Assets<StandardMaterial>>()
            .get(material)
            .unwrap();
        if let Some(image) = &material.base_color_texture {
            let image = app.world().resource::<Assets<Image>>().get(image).unwrap();
            images.push((image.width(), image.height(), image.data.clone().unwrap()));
        }
    }
    // Every decoded texture a part draws with is uploaded as decoded: same size, same bytes.
    for t in &textured {
        assert!(
            images
                .iter()
                .any(|(w, h, data)| (*w, *h) == (t.width, t.height) && *data == t.pixels),
            "a {}x{} texture is not uploaded",
            t.width,
            t.height
        );
    }
}

#[test]
fn a_spawned_humanoid_model_is_posed_by_humanoid_clips() {
    use clipscope_core::humanoid::PoseOptions;
    let (Some(morbman), Some(emotes)) = (
        common::data("binary/wetboys_plateupemotesapi/morbman"),
        common::data("binary/wetboys_plateupemotesapi/customemotespackage"),
    ) else {
        return;
    };
    let ws = common::open(&[morbman, emotes]);
    let entry = rig(&ws, "morbman");
    let model = UnityModel::from_workspace(&ws, entry, |_| None);
    let humanoid = model
        .humanoid
        .clone()
        .expect("morbman's model keeps its Avatar");
    let clip = ws
        .clips
        .iter()
        .filter_map(|c| c.data.as_ref().ok())
        .find(|c| c.name == "Default Dance")
        .expect("Default Dance");
    let mut app = app();
    let root = spawn(&mut app, &model);
    assert!(app.world().get::<UnityHumanoid>(root).is_some());
    let handle = app
        .world_mut()
        .resource_mut::<Assets<AnimationClip>>()
        .add(bevy_clip(clip).0);
    let loaded = LoadedClip::new(
        clip.name.clone(),
        clip.name.clone(),
        0,
        Arc::new(clip.clone()),
        handle,
    );
    let world = app.world_mut();
    play_clip_direct(&mut world.commands(), root, &loaded);
    world.flush();
    world
        .get_mut::<UnityPlayback>(root)
        .unwrap()
        .playhead
        .seek(1.0);
    world
        .get_mut::<UnityPlayback>(root)
        .unwrap()
        .playhead
        .paused = true;
    app.update();
    app.update();
    // The joints stand where the Avatar poses them at 1 s, as with a bare rig.
    let want = humanoid_posed_positions(
        &humanoid,
        &model.skeleton,
        clip,
        1.0,
        &PoseOptions::default(),
    );
    let joints = app.world().get::<RigRoot>(root).unwrap().joints.clone();
    let mut moved = 0;
    let rest = world_positions(&model.skeleton, rest_transform);
    for (j, &e) in joints.iter().enumerate() {
        let at = app.world().get::<GlobalTransform>(e).unwrap().translation();
        assert!(
            at.distance(want[j]) < 1e-3,
            "{}: at {at}, posed at {}",
            model.skeleton.joints[j].path,
            want[j]
        );
        moved += usize::from(at.distance(rest[j]) > 0.02);
    }
    assert!(moved >= 10, "only {moved} joints left their rest pose");
    // And the skinned mesh is still bound to those joints.
    let part = parts(&mut app, root)[0];
    let skin = app.world().get::<SkinnedMesh>(part).unwrap();
    assert!(skin.joints.iter().all(|e| joints.contains(e)));
}

use clipscope_authoring::fixtures::renderer as renderer_fixture;

#[test]
fn inactive_objects_and_disabled_renderers_spawn_hidden_and_an_is_active_curve_shows_them() {
    use bevy::camera::visibility::Visibility;
    use clipscope_bevy::model::InactiveObject;
    let path = renderer_fixture::write("bevy", true);
    let ws = common::open(std::slice::from_ref(&path));
    std::fs::remove_dir_all(path.parent().unwrap()).ok();
    let model = UnityModel::from_workspace(&ws, rig(&ws, renderer_fixture::ROOT), |_| None);
    assert_eq!(model.renderers.len(), 4, "{:?}", model.warnings);
    let clip = common::clip(&ws, renderer_fixture::CLIP);
    let mut app = app();
    let root = spawn(&mut app, &model);
    let joints = app.world().get::<RigRoot>(root).unwrap().joints.clone();
    let joint = |path: &str| {
        let j = model.skeleton.joints.iter().position(|j| j.path == path);
        joints[j.unwrap_or_else(|| panic!("no joint {path}"))]
    };
    let visibility = |app: &App, e: Entity| *app.world().get::<Visibility>(e).unwrap();
    let inactive = |app: &App, e: Entity| app.world().get::<InactiveObject>(e).is_some();
    // At rest: the inactive GameObjects are hidden (and everything under them with them),
    // the disabled renderer's mesh is hidden, the rest inherit.
    for path in ["Hidden", "Parent"] {
        assert_eq!(visibility(&app, joint(path)), Visibility::Hidden, "{path}");
        assert!(inactive(&app, joint(path)), "{path}");
    }
    for path in ["Drawn", "Disabled", "Parent/Under"] {
        assert_ne!(visibility(&app, joint(path)), Visibility::Hidden, "{path}");
        assert!(!inactive(&app, joint(path)), "{path}");
    }
    let parts = parts(&mut app, root);
    assert_eq!(parts.len(), 4);
    for &part in &parts {
        let m = app.world().get::<ModelMesh>(part).unwrap().clone();
        let cube = &renderer_fixture::CUBES[m.renderer];
        let parent = app.world().get::<ChildOf>(part).unwrap().parent();
        assert_eq!(parent, joint(cube.path));
        assert_eq!(m.enabled, cube.enabled, "{}", cube.path);
        let want = if cube.enabled {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        assert_eq!(visibility(&app, part), want, "{}", cube.path);
    }
    // ShowHidden keeps Hidden inactive before 0.5 s and turns it on after.
    let handle = app
        .world_mut()
        .resource_mut::<Assets<AnimationClip>>()
        .add(bevy_clip(clip).0);
    let loaded = LoadedClip::new(
        clip.name.clone(),
        clip.name.clone(),
        0,
        Arc::new(clip.clone()),
        handle,
    );
    play_clip_direct(&mut app.world_mut().commands(), root, &loaded);
    app.world_mut().flush();
    for (t, want) in [
        (0.25, Visibility::Hidden),
        (0.75, Visibility::Inherited),
        (0.25, Visibility::Hidden),
    ] {
        let mut playback = app.world_mut().get_mut::<UnityPlayback>(root).unwrap();
        playback.playhead.seek(t);
        playback.playhead.paused = true;
        app.update();
        app.update();
        assert_eq!(visibility(&app, joint("Hidden")), want, "at {t} s");
        // Parent's activity is not animated: it stays hidden, and Under with it.
        assert_eq!(visibility(&app, joint("Parent")), Visibility::Hidden);
    }
}
