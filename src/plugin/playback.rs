//! The playhead component: Unity's wrap modes drive a paused Bevy animation's seek time, and
//! the clip's events fire as messages when the playhead crosses them.
//!
//! Bevy's own player has no ping-pong and its "finished" state is not Unity's Once, so each
//! frame [`drive_playback`] advances the [`Playhead`] and sets the (paused) animation's seek
//! time; Bevy's `animate_targets` still samples paused animations.

use bevy::animation::AnimationPlayer;
use bevy::animation::graph::AnimationNodeIndex;
use bevy::prelude::*;

use crate::clip::ClipData;
use crate::playhead::Playhead;

/// How one rig plays one clip.
#[derive(Component, Clone, Debug)]
pub struct UnityPlayback {
    /// The clip's node in the rig's animation graph.
    pub node: AnimationNodeIndex,
    pub playhead: Playhead,
}

impl UnityPlayback {
    /// Playback of `clip` at its node, with the clip's own wrap mode, from its start.
    pub fn new(clip: &ClipData, node: AnimationNodeIndex) -> Self {
        UnityPlayback {
            node,
            playhead: Playhead::new(clip),
        }
    }
}

/// Fired when the playhead crosses one of the clip's `m_Events`.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct UnityClipEvent {
    /// The rig root playing the clip.
    pub entity: Entity,
    pub function: String,
    pub data: String,
    pub float: f32,
    pub int: i32,
    /// The event's clip time.
    pub time: f32,
}

/// Advances every playhead and sets its animation's seek time.
pub fn drive_playback(
    time: Res<Time>,
    mut rigs: Query<(Entity, &mut UnityPlayback, &mut AnimationPlayer)>,
    mut events: MessageWriter<UnityClipEvent>,
) {
    let dt = time.delta_secs();
    for (entity, mut playback, mut player) in &mut rigs {
        for e in playback.playhead.advance(dt) {
            events.write(UnityClipEvent {
                entity,
                function: e.function,
                data: e.data,
                float: e.float,
                int: e.int,
                time: e.time,
            });
        }
        let t = playback.playhead.clip_time();
        let node = playback.node;
        if !player.is_playing_animation(node) {
            player.stop_all();
        }
        player.play(node).pause().set_seek_time(t);
    }
}
