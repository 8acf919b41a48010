//! Animator controllers on many rigs, headless (`cargo bench --bench animator`).
//!
//! 500 rigs, each running its own instance of one controller: layer 0 a Freeform
//! Directional 2D blend tree of five clips on (X, Y), layer 1 an Override layer at weight 0.5
//! masked to half the joints playing a sixth clip. Per rig and frame: the state machine's
//! update and output, then the pose blending of both layers. Compared with playing one
//! clip directly on each rig (`ClipPoser`), in the same run. The clips, rig and bundle are
//! written with the authoring module (streamed curves, as Unity builds them): 31 joints,
//! each clip animates every joint's rotation and the root's position.
//!
//! Goal (issue 19): 500 rigs at 60 frames a second or more on two cores, and a per-rig cost
//! at most 3 times that of one clip played directly.

use std::path::Path;
use std::time::{Duration, Instant};

use clipscope_authoring::{
    Binding, Bundle, ClipSpec, Frame, Joint, MecanimClip, RigComponent, RigSpec, UnityTarget,
    write_bundle,
};
use clipscope_core::animator::machine::Animator;
use clipscope_core::animator::model::*;
use clipscope_core::animator::pose::PoseBlender;
use clipscope_core::humanoid::{JointLocal, PoseOptions};
use clipscope_core::pose::{ClipPoser, TrackTarget};
use clipscope_core::workspace::ClipEntry;
use clipscope_core::{OpenOptions, Workspace, path_hash};
use criterion::{Criterion, black_box};
use rayon::prelude::*;

const RIGS: usize = 500;
const JOINTS: usize = 31;
const DT: f64 = 1.0 / 60.0;

fn joint_path(j: usize) -> String {
    (1..=j)
        .map(|k| format!("j{k}"))
        .collect::<Vec<_>>()
        .join("/")
}

/// A 1-second looping clip, streamed at 30 Hz: every joint turns about its own axis by
/// `amp·sin(2π(t + phase))`, the root moves along x.
fn clip(name: &str, amp: f32, phase: f32) -> ClipSpec {
    let mut bindings = vec![Binding::transform(path_hash(""), 1)];
    bindings.extend((0..JOINTS).map(|j| Binding::transform(path_hash(&joint_path(j)), 2)));
    let curves = 3 + 4 * JOINTS;
    let value = |c: usize, t: f32| -> f32 {
        if c < 3 {
            return if c == 0 { amp * t } else { 0.0 };
        }
        let (j, k) = ((c - 3) / 4, (c - 3) % 4);
        let angle = amp * (std::f32::consts::TAU * (t + phase + j as f32 * 0.03)).sin();
        let (s, co) = (angle / 2.0).sin_cos();
        let axis = j % 3;
        match k {
            3 => co,
            _ if k == axis => s,
            _ => 0.0,
        }
    };
    let n = 30;
    let mut frames = vec![Frame {
        time: -f32::MAX,
        keys: (0..curves)
            .map(|c| (c as i32, [0.0, 0.0, 0.0, value(c, 0.0)]))
            .collect(),
    }];
    for i in 0..=n {
        let t0 = i as f32 / n as f32;
        let t1 = (i + 1) as f32 / n as f32;
        frames.push(Frame {
            time: t0,
            keys: (0..curves)
                .map(|c| {
                    let (a, b) = (value(c, t0), value(c, t1));
                    (c as i32, [0.0, 0.0, (b - a) * n as f32, a])
                })
                .collect(),
        });
    }
    frames.push(Frame {
        time: f32::INFINITY,
        keys: Vec::new(),
    });
    ClipSpec::Mecanim(MecanimClip {
        name: name.into(),
        stop: 1.0,
        sample_rate: 30.0,
        loop_time: true,
        bindings,
        streamed_curve_count: curves as u32,
        frames,
        ..MecanimClip::default()
    })
}

fn workspace() -> Workspace {
    let mut bundle = Bundle::new(UnityTarget::Unity2020);
    let names = ["Idle", "Fwd", "Right", "Back", "Left", "Wave"];
    bundle.clips = names
        .iter()
        .enumerate()
        .map(|(i, n)| clip(n, 0.2 + 0.1 * i as f32, 0.13 * i as f32))
        .collect();
    let mut joints = vec![Joint::new("Root", None, [0.0; 3])];
    joints.extend((1..=JOINTS).map(|j| Joint::new(format!("j{j}"), Some(j - 1), [0.0, 0.1, 0.0])));
    bundle.rig = Some(RigSpec {
        joints,
        component: RigComponent::Animator,
        renderers: Vec::new(),
    });
    let bytes = write_bundle(&bundle).expect("the fixture writes");
    let ws = Workspace::open_bytes(Path::new("bench.bundle"), bytes, &OpenOptions::default());
    assert!(ws.errors.is_empty(), "{:?}", ws.errors);
    ws
}

fn leaf(entry: &ClipEntry) -> Motion {
    let data = entry.data.as_ref().expect("decodes");
    Motion::Clip(ClipMotion {
        source: ClipSource::Binary {
            file_id: 0,
            path_id: entry.at.path_id,
        },
        resolved: Some(ResolvedClip {
            name: entry.name.clone(),
            file: entry.at.file,
            path_id: entry.at.path_id,
            start: data.start,
            length: data.length(),
            looping: data.loop_time,
            cycle_offset: data.cycle_offset,
        }),
    })
}

fn machine(layer: &str, state: &str, motion: Motion) -> StateMachine {
    let path = format!("{layer}.{state}");
    StateMachine {
        name: layer.into(),
        path: layer.into(),
        default_state: Some(path.clone()),
        states: vec![State {
            name: state.into(),
            full_path: path,
            motion: Some(motion),
            ..State::default()
        }],
        ..StateMachine::default()
    }
}

/// The controller: a 2D Freeform Directional tree of five clips, and a masked Override
/// layer playing the sixth.
fn controller(ws: &Workspace) -> Controller {
    let positions = [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, -1.0], [-1.0, 0.0]];
    let children = positions
        .iter()
        .enumerate()
        .map(|(i, p)| BlendChild {
            motion: Some(leaf(&ws.clips[i])),
            threshold: 0.0,
            position: *p,
            time_scale: 1.0,
            cycle_offset: 0.0,
            direct_parameter: None,
            mirror: false,
        })
        .collect();
    let tree = Motion::BlendTree(BlendTree {
        name: "Locomotion".into(),
        kind: BlendKind::FreeformDirectional,
        parameter: Some("X".into()),
        parameter_y: Some("Y".into()),
        normalized: false,
        children,
    });
    let upper: Vec<(String, f32)> = (JOINTS / 2..=JOINTS)
        .map(|j| (joint_path(j), 1.0))
        .collect();
    let float = |name: &str| Parameter {
        name: name.into(),
        kind: ParameterKind::Float,
        default: 0.0,
    };
    Controller {
        name: "Bench".into(),
        parameters: vec![float("X"), float("Y")],
        layers: vec![
            Layer {
                name: "Base".into(),
                weight: 1.0,
                state_machine: machine("Base", "Locomotion", tree),
                ..Layer::default()
            },
            Layer {
                name: "Upper".into(),
                weight: 0.5,
                mask: upper,
                state_machine: machine("Upper", "Wave", leaf(&ws.clips[5])),
                ..Layer::default()
            },
        ],
        warnings: Vec::new(),
    }
}

/// One rig's animator and blender.
struct Rig<'a> {
    animator: Animator<'a>,
    blender: PoseBlender<'a>,
}

fn rigs<'a>(ws: &'a Workspace, c: &'a Controller) -> Vec<Rig<'a>> {
    let skeleton = &ws.rigs[0].skeleton;
    let clip = |r: &ResolvedClip| {
        ws.clip(clipscope_core::workspace::ObjectRef {
            file: r.file,
            path_id: r.path_id,
        })
        .and_then(|e| e.data.as_ref().ok())
    };
    let shared = PoseBlender::new(c, skeleton, None, &clip);
    (0..RIGS)
        .map(|i| {
            let mut animator = Animator::new(c);
            let a = i as f64 * 0.37;
            animator.params.set("X", 0.8 * a.cos()).unwrap();
            animator.params.set("Y", 0.8 * a.sin()).unwrap();
            Rig {
                animator,
                blender: shared.instance(),
            }
        })
        .collect()
}

fn step(rig: &mut Rig<'_>) -> f32 {
    rig.animator.update(DT);
    let out = rig.animator.output();
    rig.blender.blend(&out)[1].q[0]
}

/// One clip played directly with packed tracks: every track's value written to its joint.
fn play_packed(poser: &ClipPoser<'_>, t: f32, out: &mut [JointLocal]) {
    poser.sample_tracks(t, |j, target, v| {
        if let Some(o) = out.get_mut(j) {
            match target {
                TrackTarget::Position => o.t = [v[0], v[1], v[2]],
                TrackTarget::Rotation => o.q = v,
                TrackTarget::Scale => o.s = [v[0], v[1], v[2]],
            }
        }
    });
}

/// Seconds per frame for all rigs, best of `rounds` runs of `frames` frames.
fn per_frame(rounds: usize, frames: usize, mut frame: impl FnMut()) -> f64 {
    let mut best = Duration::MAX;
    for _ in 0..rounds {
        let start = Instant::now();
        for _ in 0..frames {
            frame();
        }
        best = best.min(start.elapsed());
    }
    best.as_secs_f64() / frames as f64
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        println!("animator: bench");
        return;
    }
    let ws = workspace();
    let c = controller(&ws);
    let skeleton = &ws.rigs[0].skeleton;
    let mut all = rigs(&ws, &c);
    assert!(all[0].blender.warnings().is_empty());
    let direct = ClipPoser::new(ws.clips[1].data.as_ref().unwrap(), skeleton, None);
    let options = PoseOptions::default();
    let mut t = 0.0f32;
    if std::env::args().any(|a| a == "--profile") {
        // One thread, many frames, nothing else: for a profiler.
        for _ in 0..300 {
            for rig in all.iter_mut() {
                black_box(step(rig));
            }
        }
        return;
    }

    let mut criterion = Criterion::default().configure_from_args();
    criterion.bench_function("one rig: controller update + two-layer pose", |b| {
        b.iter(|| step(black_box(&mut all[0])))
    });
    criterion.bench_function("one rig: one clip played directly", |b| {
        b.iter(|| {
            t = (t + DT as f32) % 1.0;
            direct.locals(black_box(t), &options)[1].q[0]
        })
    });

    let frames = 60;
    let serial = per_frame(3, frames, || {
        for rig in all.iter_mut() {
            black_box(step(rig));
        }
    });
    let parallel = per_frame(3, frames, || {
        all.par_iter_mut().for_each(|rig| {
            black_box(step(rig));
        })
    });
    let packed = ClipPoser::new(ws.clips[1].data.as_ref().unwrap(), skeleton, None).packed();
    let mut locals: Vec<JointLocal> = skeleton.joints.iter().map(JointLocal::rest).collect();
    let packed_serial = per_frame(3, frames, || {
        t = (t + DT as f32) % 1.0;
        for _ in 0..RIGS {
            play_packed(&packed, black_box(t), &mut locals);
            black_box(&locals);
        }
    });
    let direct_serial = per_frame(3, frames, || {
        t = (t + DT as f32) % 1.0;
        for _ in 0..RIGS {
            black_box(direct.locals(black_box(t), &options));
        }
    });
    let threads = rayon::current_num_threads();
    println!(
        "{RIGS} rigs x {} joints, controller with a 5-clip 2D tree + a masked Override layer:",
        JOINTS + 1
    );
    println!(
        "  one thread       : {:8.1} frames/s ({:.1} us per rig)",
        1.0 / serial,
        serial * 1e6 / RIGS as f64
    );
    println!(
        "  {threads} threads (rayon): {:8.1} frames/s",
        1.0 / parallel
    );
    println!(
        "  one clip directly: {:8.1} frames/s on one thread ({:.1} us per rig)",
        1.0 / direct_serial,
        direct_serial * 1e6 / RIGS as f64
    );
    println!(
        "  one clip directly, packed tracks (the sampling the blender uses): {:8.1} frames/s ({:.1} us per rig)",
        1.0 / packed_serial,
        packed_serial * 1e6 / RIGS as f64
    );
    println!(
        "  per-rig cost, controller / one clip directly: {:.2} (ClipPoser::locals), {:.2} (packed tracks)",
        serial / direct_serial,
        serial / packed_serial
    );
}
