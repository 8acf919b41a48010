//! Controller problems a user would want to know before shipping: states with no motion,
//! transitions that can never fire (a condition on a parameter the controller lacks, a Bool
//! or Trigger compared as a number), motions whose clip is not loaded, and states nothing
//! leads to.

use std::collections::{BTreeSet, HashMap};

use super::model::*;

/// Every problem of a controller, one line each.
pub fn problems(c: &Controller) -> Vec<String> {
    let kinds: HashMap<&str, ParameterKind> = c
        .parameters
        .iter()
        .map(|p| (p.name.as_str(), p.kind))
        .collect();
    let mut out = Vec::new();
    for layer in &c.layers {
        let root = &layer.state_machine;
        for s in root.all_states() {
            match &s.motion {
                None => out.push(format!("state {}: no motion", s.full_path)),
                Some(m) => m.visit_clips(&mut |clip| {
                    if clip.resolved.is_none() {
                        out.push(format!(
                            "state {}: clip not loaded ({})",
                            s.full_path,
                            clip.source.describe()
                        ));
                    }
                }),
            }
            for t in &s.transitions {
                never_fires(&kinds, t, &s.full_path, &mut out);
            }
        }
        for m in root.all_machines() {
            let lists = [
                (&m.any_state_transitions, "Any State"),
                (&m.entry_transitions, "Entry"),
                (&m.exit_transitions, "Exit"),
            ];
            for (list, name) in lists {
                for t in list {
                    never_fires(&kinds, t, &format!("{} {name}", m.path), &mut out);
                }
            }
        }
        if layer.synced_layer.is_none() {
            for s in unreachable(root) {
                out.push(format!(
                    "state {s}: unreachable (no transition or entry leads to it)"
                ));
            }
        }
    }
    out
}

/// Why a transition can never fire, if it cannot.
fn never_fires(
    kinds: &HashMap<&str, ParameterKind>,
    t: &Transition,
    from: &str,
    out: &mut Vec<String>,
) {
    for cond in &t.conditions {
        let numeric = matches!(
            cond.mode,
            ConditionMode::Greater
                | ConditionMode::Less
                | ConditionMode::Equals
                | ConditionMode::NotEqual
        );
        let why = match kinds.get(cond.parameter.as_str()) {
            None => Some(format!(
                "its condition names parameter {:?}, which the controller lacks",
                cond.parameter
            )),
            Some(ParameterKind::Bool | ParameterKind::Trigger) if numeric => Some(format!(
                "its condition compares the {} {:?} with {}",
                kinds[cond.parameter.as_str()].name(),
                cond.parameter,
                cond.mode.name()
            )),
            _ => None,
        };
        if let Some(why) = why {
            out.push(format!(
                "transition {from} -> {}: can never fire: {why}",
                describe(&t.destination)
            ));
        }
    }
}

fn describe(d: &Destination) -> String {
    match d {
        Destination::State(p) => p.clone(),
        Destination::Machine(p) => format!("machine {p}"),
        Destination::Exit(p) => format!("exit of {p}"),
    }
}

/// Full paths of the states no path from the layer's Entry or Any State reaches.
fn unreachable(root: &StateMachine) -> Vec<String> {
    let machines: HashMap<&str, &StateMachine> = root
        .all_machines()
        .into_iter()
        .map(|m| (m.path.as_str(), m))
        .collect();
    let mut parents: HashMap<&str, &str> = HashMap::new();
    for m in root.all_machines() {
        for c in &m.state_machines {
            parents.insert(c.path.as_str(), m.path.as_str());
        }
    }
    let states: HashMap<&str, &State> = root
        .all_states()
        .into_iter()
        .map(|s| (s.full_path.as_str(), s))
        .collect();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut seen_machines: BTreeSet<String> = BTreeSet::new();
    let mut stack: Vec<Destination> = vec![Destination::Machine(root.path.clone())];
    for m in root.all_machines() {
        stack.extend(
            m.any_state_transitions
                .iter()
                .map(|t| t.destination.clone()),
        );
    }
    while let Some(d) = stack.pop() {
        match d {
            Destination::State(p) => {
                if let Some(s) = states.get(p.as_str())
                    && seen.insert(p.clone())
                {
                    stack.extend(s.transitions.iter().map(|t| t.destination.clone()));
                }
            }
            Destination::Machine(p) => {
                if let Some(m) = machines.get(p.as_str())
                    && seen_machines.insert(format!("entry {p}"))
                {
                    stack.extend(m.entry_transitions.iter().map(|t| t.destination.clone()));
                    stack.extend(m.default_state.clone().map(Destination::State));
                }
            }
            Destination::Exit(p) => {
                if !seen_machines.insert(format!("exit {p}")) {
                    continue;
                }
                if p == root.path {
                    stack.push(Destination::Machine(p));
                } else if let Some(m) = machines.get(p.as_str()) {
                    stack.extend(m.exit_transitions.iter().map(|t| t.destination.clone()));
                    if let Some(parent) = parents.get(p.as_str()).and_then(|q| machines.get(q)) {
                        stack.extend(parent.default_state.clone().map(Destination::State));
                    }
                }
            }
        }
    }
    root.all_states()
        .into_iter()
        .filter(|s| !seen.contains(&s.full_path))
        .map(|s| s.full_path.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(name: &str, transitions: Vec<Transition>) -> State {
        State {
            name: name.into(),
            full_path: format!("L.{name}"),
            transitions,
            ..State::default()
        }
    }

    #[test]
    fn finds_each_kind_of_problem() {
        let mut bad = Transition::to(Destination::State("L.B".into()), Vec::new());
        bad.conditions = vec![
            Condition {
                mode: ConditionMode::Greater,
                parameter: "Grounded".into(),
                threshold: 0.5,
            },
            Condition {
                mode: ConditionMode::If,
                parameter: "Missing".into(),
                threshold: 0.0,
            },
        ];
        let c = Controller {
            name: "c".into(),
            parameters: vec![Parameter {
                name: "Grounded".into(),
                kind: ParameterKind::Bool,
                default: 0.0,
            }],
            layers: vec![Layer {
                name: "L".into(),
                state_machine: StateMachine {
                    name: "L".into(),
                    path: "L".into(),
                    default_state: Some("L.A".into()),
                    states: vec![
                        state("A", vec![bad]),
                        state("B", vec![]),
                        state("C", vec![]),
                    ],
                    ..StateMachine::default()
                },
                ..Layer::default()
            }],
            warnings: Vec::new(),
        };
        let p = problems(&c);
        assert_eq!(
            p,
            [
                "state L.A: no motion",
                "transition L.A -> L.B: can never fire: its condition compares the bool \"Grounded\" with greater",
                "transition L.A -> L.B: can never fire: its condition names parameter \"Missing\", which the controller lacks",
                "state L.B: no motion",
                "state L.C: no motion",
                "state L.C: unreachable (no transition or entry leads to it)",
            ]
        );
    }
}
