//! Ground truth: the editor's keyframes of a clip against the same clip in a built player.
//!
//! `resetanimator/TestClip.anim` (Unity 4.6 editor keys) was built into the streamed clip of
//! its web player; `duckhunted/Rifle_*.anim` (Unity 3.5) into that web player's legacy clips.

use crate::common;

use clipscope_core::ClipData;
use clipscope_core::clip::Storage;
use common::{clip, curve_of, data, open};

/// Samples every bound curve of `built` and the editor clip's matching curve on a fine grid
/// (several steps per frame) and returns the largest difference, relative to magnitude.
fn max_difference(editor: &ClipData, built: &ClipData) -> (f32, usize) {
    let mut worst = 0.0f32;
    let mut compared = 0;
    for (i, c) in built.curves.iter().enumerate() {
        let b = built.binding_of(i).expect("built curve has a binding");
        let j =
            curve_of(editor, b.path, b.attribute, b.type_id, c.component).unwrap_or_else(|| {
                panic!(
                    "editor clip lacks {} component {}",
                    b.describe(),
                    c.component
                )
            });
        let steps = (built.length() * 240.0).ceil() as usize;
        for s in 0..=steps {
            let t = built.start + built.length() * s as f32 / steps.max(1) as f32;
            let (e, v) = (editor.curves[j].curve.sample(t), c.curve.sample(t));
            worst = worst.max((e - v).abs() / e.abs().max(1.0));
            compared += 1;
        }
    }
    (worst, compared)
}

#[test]
fn streamed_clip_matches_its_editor_keys() {
    let (Some(anim), Some(web)) = (
        data("binary/resetanimator/TestClip.anim"),
        data("binary/resetanimator/WebPlayer.unity3d"),
    ) else {
        return;
    };
    let editor_ws = open(&[anim]);
    let built_ws = open(&[web]);
    let editor = clip(&editor_ws, "TestClip");
    let built = clip(&built_ws, "TestClip");
    assert!(built.curves.iter().all(|c| c.storage == Storage::Streamed));
    assert_eq!(built.counts.streamed, 6);
    assert_eq!(built.bindings.len(), 2);
    // 3 position keys and 4 scale keys in the editor.
    let keys = |attribute| {
        editor.curves[curve_of(editor, 0, attribute, 4, 0).unwrap()]
            .curve
            .keys()
            .len()
    };
    assert_eq!((keys(1), keys(3)), (3, 4));
    assert!((built.length() - 1.8333).abs() < 1e-3);
    let (worst, compared) = max_difference(editor, built);
    assert!(compared > 2000);
    assert!(
        worst < 1e-4,
        "streamed clip differs from the editor keys by {worst}"
    );
}

#[test]
fn legacy_web_player_clips_match_their_editor_sources() {
    let Some(web) = data("binary/duckhunted/WebPlayer.unity3d") else {
        return;
    };
    let built_ws = open(&[web]);
    let expected_wrap = [("Fire", 0), ("Idle", 4), ("Reload", 1), ("Run", 2)];
    for (name, wrap) in expected_wrap {
        let Some(anim) = data(&format!("binary/duckhunted/Rifle_{name}.anim")) else {
            return;
        };
        let editor_ws = open(&[anim]);
        let editor = clip(&editor_ws, name);
        let built = clip(&built_ws, name);
        assert!(built.legacy && editor.legacy, "{name} is legacy");
        assert_eq!(built.wrap_mode_code, wrap, "{name} wrap mode");
        assert_eq!(
            built.bindings.len(),
            editor.bindings.len(),
            "{name} bindings"
        );
        assert!(built.length() > 0.0, "{name} has keys");
        assert_eq!(built.length(), editor.length(), "{name} length");
        let (worst, compared) = max_difference(editor, built);
        assert!(compared > 100, "{name}: only {compared} samples compared");
        assert!(
            worst < 1e-5,
            "{name}: built clip differs from the editor by {worst}"
        );
    }
}
