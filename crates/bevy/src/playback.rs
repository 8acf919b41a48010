//! The playhead component: Unity's wrap modes drive a paused Bevy animation's seek time, and
//! the clip's events fire as messages when the playhead crosses them.
//!
//! Bevy's own player has no ping-pong and its "finished" state is not Unity's Once, so each
//! frame [`drive_playback`] advances the [`Playhead`] and sets the (paused) animation's seek
//! time; Bevy's `animate_targets` still samples paused animations. Rigs that play directly
//! read the playhead themselves.

use bevy::animation::AnimationPlayer;
use bevy::animation::graph::AnimationNodeIndex;
use bevy::prelude::*;

use clipscope_core::clip::ClipData;
use clipscope_core::playhead::Playhead;

/// How one rig plays one clip.
#[derive(Component, Clone, Debug)]
pub struct UnityPlayback {
    /// The clip's node in the rig's animation graph; `None` when the rig plays the clip
    /// directly (see [`super::DirectClip`]).
    pub node: Option<AnimationNodeIndex>,
    pub playhead: Playhead,
}

impl UnityPlayback {
    /// Playback of `clip` (at its graph node, if any), with the clip's own wrap mode, from its
    /// start.
    pub fn new(clip: &ClipData, node: Option<AnimationNodeIndex>) -> Self {
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
    /// The weight of the clip that fired it: 1 for a clip played alone, the leaf's weight in
    /// its layer for a [`super::UnityAnimator`]'s clips.
    pub weight: f32,
}

/// Advances every playhead and sets its animation's seek time (graph playback), or stops the
/// player's animations (direct playback, which reads the playhead itself).
pub fn drive_playback(
    time: Res<Time>,
    mut rigs: Query<(Entity, &mut UnityPlayback, Option<&mut AnimationPlayer>)>,
    mut events: MessageWriter<UnityClipEvent>,
) {
    let dt = time.delta_secs();
    for (entity, mut playback, player) in &mut rigs {
        for e in playback.playhead.advance(dt) {
            events.write(UnityClipEvent {
                entity,
                function: e.function,
                data: e.data,
                float: e.float,
                int: e.int,
                time: e.time,
                weight: 1.0,
            });
        }
        let Some(mut player) = player else {
            continue;
        };
        let Some(node) = playback.node else {
            player.stop_all();
            continue;
        };
        if !player.is_playing_animation(node) {
            player.stop_all();
        }
        let t = playback.playhead.clip_time();
        player.play(node).pause().set_seek_time(t);
    }
}
