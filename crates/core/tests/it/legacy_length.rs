//! A legacy clip lasts as long as its keys (`unity-semantics.md`, "Legacy clip length"), in
//! editor files too: an editor `.anim` whose `m_AnimationClipSettings` say 0 to 1 s (what a
//! Unity 5.0 model import writes on a take whose keys run to 5.6 s) plays to its last key,
//! as the same clip built into a bundle does.

use std::path::Path;

use clipscope_authoring::{
    Bundle, ClipSpec, EditorSettings, KeySpec, LegacyClip, PathCurve, UnityTarget,
    legacy_anim_yaml, write_bundle,
};
use clipscope_core::sample::frame_times;
use clipscope_core::{ClipData, OpenOptions, Workspace};

/// A take whose position keys run to `last` seconds, rising 1 m a second on `Hips`.
fn take(name: &str, last: f32) -> LegacyClip {
    let keys = vec![
        KeySpec::new(0.0, [0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0]),
        KeySpec::new(last, [0.0, last, 0.0], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0]),
    ];
    LegacyClip {
        position: vec![PathCurve::new("Hips", keys)],
        sample_rate: 30.0,
        ..LegacyClip::new(name)
    }
}

/// The one clip of `ws`, decoded.
fn only_clip(ws: &Workspace) -> &ClipData {
    assert!(ws.errors.is_empty(), "{:?}", ws.errors);
    assert_eq!(ws.clips.len(), 1);
    ws.clips[0].data.as_ref().expect("the clip decodes")
}

/// The editor file of `clip` with settings `start`..`stop`, opened.
fn editor(clip: &LegacyClip, start: f32, stop: f32) -> Workspace {
    let settings = EditorSettings {
        start,
        stop,
        ..EditorSettings::default()
    };
    let text = legacy_anim_yaml(clip, &settings);
    Workspace::open_bytes(
        Path::new(&format!("{}.anim", clip.name)),
        text.into_bytes(),
        &OpenOptions::default(),
    )
}

/// The value on `Hips` position y at `t`.
fn height(clip: &ClipData, t: f32) -> f32 {
    let curve = (0..clip.curves.len())
        .find(|&i| {
            let b = clip.binding_of(i).expect("bound");
            b.path == clipscope_core::path_hash("Hips") && clip.curves[i].component == 1
        })
        .expect("a Hips position y curve");
    clip.sample_curve(curve, t).unwrap()
}

#[test]
fn an_editor_legacy_clip_spans_its_keys_not_its_settings() {
    let long = take("Take 001", 5.6);
    let ws = editor(&long, 0.0, 1.0);
    let clip = only_clip(&ws);
    assert!(clip.legacy && clip.keyframed);
    assert_eq!(
        (clip.start, clip.stop),
        (0.0, 5.6),
        "the keys' span, not 0..1"
    );
    // The last frame plays the last key (5.6 m up), not a value near the settings' stop.
    let last = *frame_times(clip).last().unwrap() as f32;
    assert_eq!(last, 5.6);
    assert!(
        (height(clip, last) - 5.6).abs() < 1e-5,
        "{}",
        height(clip, last)
    );

    // Keys ending just past the settings' 0.2 s: the last frame is the last key, which the
    // settings' stop would snap back to the first frame under loop.
    let short = take("Blink", 0.200_000_28);
    let ws = editor(&short, 0.0, 0.2);
    let clip = only_clip(&ws);
    assert_eq!(clip.stop, 0.200_000_28);
    assert_eq!(clip.length(), 0.200_000_28);
}

#[test]
fn a_built_legacy_clip_and_its_editor_file_last_alike() {
    let long = take("Take 001", 5.6);
    let mut bundle = Bundle::new(UnityTarget::Unity2020);
    bundle.clips.push(ClipSpec::Legacy(long.clone()));
    let built = Workspace::open_bytes(
        Path::new("take.bundle"),
        write_bundle(&bundle).expect("the bundle writes"),
        &OpenOptions::default(),
    );
    let text = editor(&long, 0.0, 1.0);
    let (built, text) = (only_clip(&built), only_clip(&text));
    assert_eq!((built.start, built.stop), (0.0, 5.6));
    assert_eq!((text.start, text.stop), (built.start, built.stop));
    for t in [0.0, 1.0, 2.5, 5.6] {
        assert_eq!(height(text, t), height(built, t), "at {t} s");
    }
}
