//! Held channels: every animation of a file keys every node and path any of them moves.
//! glTF leaves a node that an animation does not target to the player, and players (Bevy,
//! three.js) leave it where the last animation put it; Unity's Animator writes its default
//! instead. A channel holding the rest value makes each animation play the same whatever
//! played before it.

use std::collections::BTreeSet;

use super::bindings::MorphNode;
use super::channels::Channel;
use super::evaluate::{Interpolation, Keys, Path};
use super::source::Transform;

/// Per animation (`moved`: each one's channels), the channels it lacks that another one
/// has: one STEP key at 0 holding the joint's `rest` value (glTF space), or a morph node's
/// rest weights.
pub fn held_channels(
    moved: &[&[Channel]],
    rest: &[Transform],
    morphs: &[MorphNode],
) -> Vec<Vec<Channel>> {
    let key = |c: &Channel| (c.node, c.path);
    let all: BTreeSet<(usize, Path)> = moved
        .iter()
        .flat_map(|channels| channels.iter().map(key))
        .collect();
    moved
        .iter()
        .map(|channels| {
            let own: BTreeSet<(usize, Path)> = channels.iter().map(key).collect();
            all.difference(&own)
                .filter_map(|&(node, path)| held(node, path, rest, morphs))
                .collect()
        })
        .collect()
}

/// The channel holding `node`'s rest value of `path`, when it has one.
fn held(node: usize, path: Path, rest: &[Transform], morphs: &[MorphNode]) -> Option<Channel> {
    let values: Vec<f32> = match path {
        Path::Weights => morphs.iter().find(|m| m.joint == node)?.rest.clone(),
        _ => rest.get(node)?.part(path).to_vec(),
    };
    let width = values.len();
    (width > 0).then(|| Channel {
        node,
        path,
        keys: Keys {
            interpolation: Interpolation::Step,
            times: vec![0.0],
            values,
            width,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn channel(node: usize, path: Path, values: Vec<f32>) -> Channel {
        let width = values.len();
        Channel {
            node,
            path,
            keys: Keys {
                interpolation: Interpolation::Linear,
                times: vec![0.0],
                values,
                width,
            },
        }
    }

    #[test]
    fn each_animation_holds_the_rest_of_what_only_another_moves() {
        let rest = vec![
            Transform {
                t: [0.0; 3],
                q: [0.0, 0.0, 0.0, 1.0],
                s: [1.0; 3],
            },
            Transform {
                t: [0.0, 1.0, 0.0],
                q: [0.0, 0.6, 0.0, 0.8],
                s: [2.0; 3],
            },
        ];
        let morphs = vec![MorphNode {
            joint: 0,
            names: vec!["smile".into()],
            full_weight: vec![100.0],
            rest: vec![0.25],
        }];
        let a = vec![channel(1, Path::Rotation, vec![0.0, 0.0, 0.0, 1.0])];
        let b = vec![
            channel(1, Path::Translation, vec![0.0, 2.0, 0.0]),
            channel(0, Path::Weights, vec![1.0]),
        ];
        let held = held_channels(&[&a, &b], &rest, &morphs);
        // `a` holds the translation and weights `b` moves; `b` holds the rotation.
        assert_eq!(held[0].len(), 2);
        let t = held[0]
            .iter()
            .find(|c| c.path == Path::Translation)
            .unwrap();
        assert_eq!(
            (t.node, t.keys.values.as_slice()),
            (1, &[0.0, 1.0, 0.0][..])
        );
        assert_eq!(t.keys.interpolation, Interpolation::Step);
        let w = held[0].iter().find(|c| c.path == Path::Weights).unwrap();
        assert_eq!(w.keys.values, [0.25]);
        assert_eq!(held[1].len(), 1);
        assert_eq!(held[1][0].keys.values, [0.0, 0.6, 0.0, 0.8]);
        // One animation alone holds nothing.
        assert!(held_channels(&[&a], &rest, &morphs)[0].is_empty());
    }
}
