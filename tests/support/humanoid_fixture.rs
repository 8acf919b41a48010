//! Shared pieces of the humanoid tests: the morbman avatar and rig, the humanoid clips, and
//! a second humanoid avatar derived from morbman.
//!
//! The shared data holds one humanoid avatar only: copy.bundle's `quinnAvatar` is empty
//! (596 bytes: no skeleton, no human, no human description). The retargeting tests therefore
//! build a second avatar the way a different model would have produced it: every human
//! node's joint frame turned by its own rotation (a different bone-axis convention) and the
//! bones lengthened, with the human scale and `m_RootX` recomputed from the new T-pose.
#![allow(dead_code)]

use std::path::PathBuf;

use clipscope::avatar::{AvatarData, HumanBone, Xform};
use clipscope::humanoid::body::{tpose_body, tpose_positions};
use clipscope::humanoid::math::{Q, V3};
use clipscope::humanoid::{HumanPose, HumanoidRig, JointLocal, PoseOptions};
use clipscope::rig::Skeleton;
use clipscope::workspace::Workspace;
use clipscope::{ClipData, OpenOptions};

use crate::common::data;

/// The morbman avatar and its rig's skeleton.
pub struct Morbman {
    pub avatar: AvatarData,
    pub skeleton: Skeleton,
}

/// The only Avatar of a workspace, decoded.
pub fn only_avatar(ws: &Workspace) -> AvatarData {
    assert_eq!(ws.avatars.len(), 1, "expected one Avatar");
    let data = ws.avatars[0].data.as_ref().expect("avatar decodes");
    AvatarData::clone(data)
}

pub fn morbman() -> Option<Morbman> {
    let path = data("binary/wetboys_plateupemotesapi/morbman")?;
    let ws = Workspace::open(&[path], &OpenOptions::default());
    assert!(ws.errors.is_empty(), "{:?}", ws.errors);
    let avatar = only_avatar(&ws);
    let rig = ws.rigs.iter().find(|r| r.name == "morbman").expect("rig");
    Some(Morbman {
        avatar,
        skeleton: rig.skeleton.clone(),
    })
}

/// Every humanoid clip of the shared binary data.
pub fn humanoid_clips() -> Option<Vec<ClipData>> {
    let paths: Option<Vec<PathBuf>> = [
        "binary/wetboys_plateupemotesapi/moisture_animationreplacements",
        "binary/wetboys_plateupemotesapi/customemotespackage",
    ]
    .iter()
    .map(|p| data(p))
    .collect();
    let ws = Workspace::open(&paths?, &OpenOptions::default());
    assert!(ws.errors.is_empty(), "{:?}", ws.errors);
    let clips: Vec<ClipData> = ws
        .clips
        .into_iter()
        .filter_map(|c| c.data.ok())
        .filter(|c| clipscope::humanoid::ClipMuscles::new(c).is_humanoid())
        .collect();
    let names: Vec<&str> = clips.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names.len(), 4, "{names:?}");
    Some(clips)
}

/// Posed locals and world transforms of a rig.
pub fn pose_of(rig: &HumanoidRig, pose: &HumanPose, root_motion: bool) -> Vec<JointLocal> {
    let mut locals = vec![JointLocal::IDENTITY; rig.joint_count()];
    rig.pose(pose, &PoseOptions { root_motion }, &mut locals);
    rig.world(&locals)
}

pub fn v3(a: [f32; 3]) -> V3 {
    V3::new(a[0].into(), a[1].into(), a[2].into())
}

pub fn q4(a: [f32; 4]) -> Q {
    Q::from_f32(a).normalize()
}

/// The rotation angle between two rotations, in radians.
pub fn angle_between(a: Q, b: Q) -> f64 {
    (a.conj() * b).angle()
}

/// A deterministic, different rotation per node (node 0, the Animator root, keeps its frame).
fn frame_turn(node: usize) -> Q {
    if node == 0 {
        return Q::IDENTITY;
    }
    let k = node as f64;
    let axis = V3::new((1.3 * k).sin(), (0.7 * k).cos(), 0.5).normalize();
    Q::axis_angle(axis, 0.4 + 0.9 * k)
}

/// morbman's avatar as another model would have built it: each human node's joint frame
/// turned by [`frame_turn`] (when `turn`) and each bone's offset from its parent multiplied by
/// `stretch(bone or None)`. The T-pose keeps every world position (times the stretch)
/// and every world axes frame; `m_Scale` and `m_RootX` are recomputed from it. The
/// avatar's name becomes `name`.
pub fn rebuilt(
    source: &AvatarData,
    name: &str,
    turn: bool,
    stretch: impl Fn(Option<HumanBone>) -> f64,
) -> AvatarData {
    let frame_turn = |node: usize| if turn { frame_turn(node) } else { Q::IDENTITY };
    let mut av = source.clone();
    av.name = name.to_string();
    let bone_of = |node: usize| {
        source
            .mapped_bones()
            .find(|&(_, h)| h == node)
            .map(|(b, _)| b)
    };
    let h = &mut av.human;
    for (i, x) in h.tpose.iter_mut().enumerate() {
        let parent = source.human.skeleton.nodes[i].parent;
        let rp = parent.map_or(Q::IDENTITY, frame_turn);
        let r = frame_turn(i);
        let t = rp.conj().rotate(v3(x.t)) * stretch(bone_of(i));
        let q = rp.conj() * q4(x.q) * r;
        *x = Xform {
            t: t.to_f32(),
            q: q.to_f32(),
            s: [1.0; 3],
        };
        if let Some(axes_index) = source.human.skeleton.nodes[i].axes {
            let a = &mut h.skeleton.axes[axes_index];
            a.pre_q = (rp.conj() * q4(a.pre_q)).to_f32();
            a.post_q = (r.conj() * q4(a.post_q)).to_f32();
            a.length *= stretch(bone_of(i)) as f32;
        }
    }
    // Stand the T-pose as the source stands, its ankles as high above the floor as the
    // source's times the foot's stretch (the lengthened legs would sink them).
    let foot = av.bone_human_node(HumanBone::LeftFoot).expect("foot");
    let ankle = |a: &AvatarData| tpose_positions(a)[foot].y;
    let lift = ankle(source) * stretch(Some(HumanBone::LeftFoot)) - ankle(&av);
    let hips = av.bone_human_node(HumanBone::Hips).expect("hips");
    assert_eq!(
        av.human.skeleton.nodes[hips].parent,
        Some(0),
        "hips under the root"
    );
    av.human.tpose[hips].t[1] += lift as f32;
    let (com, q) = tpose_body(&av).expect("humanoid");
    av.human.root_x = Xform {
        t: com.to_f32(),
        q: q.to_f32(),
        s: [1.0; 3],
    };
    // Unity's stored scale is 0.03 % off the centre-of-mass formula on morbman: keep that
    // residual, so a uniformly stretched copy scales exactly.
    let (source_com, _) = tpose_body(source).expect("humanoid");
    av.human.scale = (f64::from(source.human.scale) * com.y / source_com.y) as f32;
    av
}

/// The mirror image of a position (Unity space: x negated).
pub fn mirror(v: V3) -> V3 {
    V3::new(-v.x, v.y, v.z)
}
