//! The controller model as JSON, in the shape `clipscope controller --json` prints.

use serde_json::{Value, json};

use super::model::*;

/// The whole controller. `file` and `path_id` say where it was read.
pub fn controller(c: &Controller, file: &str, path_id: i64) -> Value {
    json!({
        "name": c.name,
        "file": file,
        "path_id": path_id,
        "parameters": c.parameters.iter().map(|p| json!({
            "name": p.name,
            "type": p.kind.name(),
            "default": default_value(p),
        })).collect::<Vec<_>>(),
        "layers": c.layers.iter().map(|l| json!({
            "name": l.name,
            "blending": l.blending.name(),
            "weight": l.weight,
            "synced_layer": l.synced_layer,
            "synced_layer_affects_timing": l.synced_affects_timing,
            "ik_pass": l.ik_pass,
            "state_machine": machine(&l.state_machine),
        })).collect::<Vec<_>>(),
        "warnings": c.warnings,
        "problems": super::check::problems(c),
    })
}

fn default_value(p: &Parameter) -> Value {
    match p.kind {
        ParameterKind::Float => json!(p.default),
        ParameterKind::Int => json!(p.default as i64),
        ParameterKind::Bool | ParameterKind::Trigger => json!(p.default != 0.0),
    }
}

fn machine(m: &StateMachine) -> Value {
    json!({
        "name": m.name,
        "path": m.path,
        "default_state": m.default_state,
        "states": m.states.iter().map(state).collect::<Vec<_>>(),
        "any_state_transitions": m.any_state_transitions.iter().map(transition).collect::<Vec<_>>(),
        "entry_transitions": m.entry_transitions.iter().map(transition).collect::<Vec<_>>(),
        "exit_transitions": m.exit_transitions.iter().map(transition).collect::<Vec<_>>(),
        "state_machines": m.state_machines.iter().map(machine).collect::<Vec<_>>(),
    })
}

fn state(s: &State) -> Value {
    json!({
        "name": s.name,
        "full_path": s.full_path,
        "speed": s.speed,
        "speed_parameter": s.speed_parameter,
        "cycle_offset": s.cycle_offset,
        "cycle_offset_parameter": s.cycle_offset_parameter,
        "mirror": s.mirror,
        "mirror_parameter": s.mirror_parameter,
        "time_parameter": s.time_parameter,
        "write_defaults": s.write_defaults,
        "foot_ik": s.foot_ik,
        "tag": s.tag,
        "loop": state_loops(s),
        "motion": s.motion.as_ref().map(motion),
        "transitions": s.transitions.iter().map(transition).collect::<Vec<_>>(),
    })
}

/// `m_Loop`: stored in built controllers; for text ones true when every leaf clip loops
/// (a state without motion and a clip that is not loaded count as looping, §6.5).
pub fn state_loops(s: &State) -> bool {
    s.stored_loop.unwrap_or_else(|| {
        let mut all = true;
        if let Some(m) = &s.motion {
            m.visit_clips(&mut |c| all &= c.resolved.as_ref().is_none_or(|r| r.looping));
        }
        all
    })
}

/// A destination: `{"kind", "path"}` (`null` path for an exit).
pub fn destination(d: &Destination) -> Value {
    let path = match d {
        Destination::State(p) | Destination::Machine(p) => Some(p),
        Destination::Exit(_) => None,
    };
    json!({"kind": d.kind(), "path": path})
}

fn transition(t: &Transition) -> Value {
    json!({
        "destination": destination(&t.destination),
        "conditions": t.conditions.iter().map(|c| json!({
            "mode": c.mode.name(),
            "parameter": c.parameter,
            "threshold": c.threshold,
        })).collect::<Vec<_>>(),
        "has_exit_time": t.has_exit_time,
        "exit_time": t.exit_time,
        "duration": t.duration,
        "fixed_duration": t.fixed_duration,
        "offset": t.offset,
        "interruption": t.interruption.name(),
        "ordered_interruption": t.ordered_interruption,
        "can_transition_to_self": t.can_transition_to_self,
    })
}

/// A motion: a clip (`{"clip", "path_id", "start", "stop", "looping", "clip_cycle_offset"}`,
/// or `{"clip": null, "path_id": null, "reference"}` when not loaded) or a blend tree (its
/// slots' `threshold` only for 1D trees, `position` only for 2D ones, `null` otherwise).
pub fn motion(m: &Motion) -> Value {
    match m {
        Motion::Clip(c) => match &c.resolved {
            Some(r) => json!({
                "clip": r.name,
                "path_id": r.path_id,
                "start": r.start,
                "stop": r.start + r.length,
                "looping": r.looping,
                "clip_cycle_offset": r.cycle_offset,
            }),
            None => json!({"clip": null, "path_id": null, "reference": c.source.describe()}),
        },
        Motion::BlendTree(t) => json!({
            "name": t.name,
            "blend_tree": t.kind.name(),
            "parameter": t.parameter,
            "parameter_y": t.parameter_y,
            "normalized": t.normalized,
            "children": t.children.iter().map(|c| json!({
                "motion": c.motion.as_ref().map(motion),
                "threshold": (t.kind == BlendKind::Simple1D).then_some(c.threshold),
                "position": t.kind.is_2d().then_some(c.position),
                "time_scale": c.time_scale,
                "duration": c.duration_factor(),
                "cycle_offset": c.cycle_offset,
                "direct_parameter": c.direct_parameter,
                "mirror": c.mirror,
            })).collect::<Vec<_>>(),
        }),
    }
}

/// A scripted run's frames, in the shape `clipscope animate --json` prints.
pub fn frames(frames: &[super::script::Frame]) -> Value {
    Value::Array(
        frames
            .iter()
            .map(|f| {
                json!({
                    "time": f.time,
                    "layers": f.layers.iter().map(layer_output).collect::<Vec<_>>(),
                })
            })
            .collect(),
    )
}

fn layer_output(l: &super::machine::LayerOutput) -> Value {
    json!({
        "name": l.name,
        "weight": l.weight,
        "mode": l.mode.name(),
        "transition": l.transition.as_ref().map(|t| json!({
            "from": t.from, "to": t.to, "progress": t.progress, "duration": t.duration,
        })),
        "states": l.states.iter().map(|s| {
            let mut v = json!({
                "path": s.path,
                "normalized_time": s.normalized_time,
                "weight": s.weight,
                "speed": s.speed,
                "length": s.length,
                "leaves": s.leaves.iter().map(|x| json!({
                    "clip": x.clip,
                    "path_id": x.path_id,
                    "tree_weight": x.tree_weight,
                    "weight": x.weight,
                    "phase": x.phase,
                    "clip_time": x.clip_time,
                    "looping": x.looping,
                    "mirror": x.mirror,
                })).collect::<Vec<_>>(),
            });
            if s.frozen {
                v["frozen"] = json!(true);
            }
            v
        }).collect::<Vec<_>>(),
    })
}
