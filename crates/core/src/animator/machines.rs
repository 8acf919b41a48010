//! Rebuilding the tree of sub-machines of a built layer, whose states are stored in one flat
//! list: a state `"Layer.Sub.Inner.State"` lies in machine `"Layer.Sub.Inner"`, itself in
//! `"Layer.Sub"`, in the layer's root machine `"Layer"`.

use super::model::{State, StateMachine};
use super::names::name_hash;

/// Most sub-machine levels created from one path.
const MAX_DEPTH: usize = 64;

/// A layer's root machine being filled.
pub struct MachineTree {
    root: StateMachine,
}

impl MachineTree {
    /// An empty root machine at `root_path`.
    pub fn new(root_path: &str) -> MachineTree {
        MachineTree {
            root: StateMachine {
                name: root_path.to_string(),
                path: root_path.to_string(),
                ..StateMachine::default()
            },
        }
    }

    /// The machine a state of that full path and short name lies in.
    fn parent_of(&self, full: &str, short: &str) -> String {
        full.strip_suffix(short)
            .and_then(|p| p.strip_suffix('.'))
            .filter(|p| !p.is_empty())
            .unwrap_or(&self.root.path)
            .to_string()
    }

    /// Makes sure the machine holding this state exists.
    pub fn add_state_path(&mut self, full: &str, short: &str) {
        let parent = self.parent_of(full, short);
        self.add_machine(&parent);
    }

    /// Creates the machine at `path` and the machines between it and the root.
    pub fn add_machine(&mut self, path: &str) {
        self.machine_mut(path);
    }

    /// The machine at `path`, created if missing. A path outside the root's becomes a direct
    /// child of the root.
    pub fn machine_mut(&mut self, path: &str) -> &mut StateMachine {
        let root_path = self.root.path.clone();
        if path == root_path {
            return &mut self.root;
        }
        let relative = path
            .strip_prefix(root_path.as_str())
            .and_then(|p| p.strip_prefix('.'));
        let parts: Vec<&str> = match relative {
            Some(r) => r.split('.').take(MAX_DEPTH).collect(),
            None => vec![path],
        };
        let mut machine = &mut self.root;
        let mut prefix = if relative.is_some() {
            root_path
        } else {
            String::new()
        };
        for part in parts {
            prefix = if prefix.is_empty() {
                part.to_string()
            } else {
                format!("{prefix}.{part}")
            };
            let index = match machine.state_machines.iter().position(|m| m.path == prefix) {
                Some(i) => i,
                None => {
                    machine.state_machines.push(StateMachine {
                        name: part.to_string(),
                        path: prefix.clone(),
                        ..StateMachine::default()
                    });
                    machine.state_machines.len() - 1
                }
            };
            machine = &mut machine.state_machines[index];
        }
        machine
    }

    /// The path of the machine whose path hashes to `hash`.
    pub fn path_for_hash(&self, hash: u32) -> Option<String> {
        self.root
            .all_machines()
            .into_iter()
            .find(|m| name_hash(&m.path) == hash)
            .map(|m| m.path.clone())
    }

    /// Puts a state into its machine.
    pub fn push_state(&mut self, state: State) {
        let parent = self.parent_of(&state.full_path, &state.name);
        self.machine_mut(&parent).states.push(state);
    }

    /// The filled root machine.
    pub fn finish(mut self) -> StateMachine {
        self.root.shrink_to_fit();
        self.root
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_paths_make_nested_machines() {
        let mut tree = MachineTree::new("Base Layer");
        for (full, short) in [
            ("Base Layer.Idle", "Idle"),
            ("Base Layer.Loco.Walk", "Walk"),
            ("Base Layer.Loco.Fast.Run", "Run"),
            ("0x12345678", "0x00000001"),
        ] {
            tree.push_state(State {
                name: short.into(),
                full_path: full.into(),
                ..State::default()
            });
        }
        assert_eq!(
            tree.path_for_hash(name_hash("Base Layer.Loco.Fast"))
                .as_deref(),
            Some("Base Layer.Loco.Fast")
        );
        let root = tree.finish();
        assert_eq!(root.states.len(), 2, "Idle and the unnamed state");
        assert_eq!(root.state_machines.len(), 1);
        let loco = &root.state_machines[0];
        assert_eq!(
            (loco.name.as_str(), loco.path.as_str()),
            ("Loco", "Base Layer.Loco")
        );
        assert_eq!(loco.states[0].name, "Walk");
        assert_eq!(
            loco.state_machines[0].states[0].full_path,
            "Base Layer.Loco.Fast.Run"
        );
        // The machines hold no spare room (a whole game's index holds thousands).
        let mut stack = vec![&root];
        while let Some(m) = stack.pop() {
            assert_eq!(m.states.capacity(), m.states.len(), "{}", m.path);
            assert_eq!(m.state_machines.capacity(), m.state_machines.len());
            stack.extend(&m.state_machines);
        }
    }
}
