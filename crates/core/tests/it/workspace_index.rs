//! A workspace opened as an index (`Detail::Index`, what `clipscope unity` opens a whole
//! game with): every clip keeps its facts but not its curves, meshes and textures keep no
//! vertices or pixels, and `Workspace::decode_clips` decodes the clips again from their
//! files, equal to a full open's; the text written from them is the same, and the cheap
//! `Measure::Keys` measures what the read-back measures.

use crate::common;

use std::collections::HashMap;
use std::path::PathBuf;

use clipscope_core::workspace::{MeshSource, ObjectRef, RendererKind, Spill, Workspace};
use clipscope_core::yaml_write::{Measure, NameBook, WriteOptions, write_anim, write_anim_of};
use clipscope_core::{ClipData, Detail, OpenOptions};

/// The shared binary and text files.
fn shared() -> Option<Vec<PathBuf>> {
    Some(vec![common::data("binary")?, common::data("yaml")?])
}

fn open(paths: &[PathBuf], detail: Detail) -> Workspace {
    Workspace::open(
        paths,
        &OpenOptions {
            detail,
            ..OpenOptions::default()
        },
    )
}

/// Each decoded clip by (file location, path id), the key both opens agree on.
fn by_location(ws: &Workspace) -> HashMap<(String, i64), ObjectRef> {
    ws.clips
        .iter()
        .map(|c| ((ws.files[c.at.file].location(), c.at.path_id), c.at))
        .collect()
}

#[test]
fn an_index_decodes_every_clip_again_as_a_full_open_does() {
    let Some(paths) = shared() else { return };
    let full = open(&paths, Detail::Full);
    let index = open(&paths, Detail::Index);
    assert_eq!(full.clips.len(), index.clips.len());
    assert!(full.clips.len() >= 40, "{} clips", full.clips.len());
    // Nothing heavy is kept, and what writing needs of other files is.
    assert!(index.meshes.iter().all(|m| m.data.is_none()));
    assert!(index.textures.iter().all(|t| t.image.is_none()));
    assert!(full.meshes.iter().any(|m| m.data.is_some()));
    assert_eq!(index.behaviours.len(), full.behaviours.len());
    assert_eq!(index.materials.len(), full.materials.len());
    let shapes = |ws: &Workspace| -> Vec<(u32, String)> {
        ws.meshes
            .iter()
            .flat_map(|m| m.shape_names.clone())
            .collect()
    };
    assert!(!shapes(&index).is_empty());
    assert_eq!(shapes(&index), shapes(&full));

    let wanted: Vec<ObjectRef> = index.clips.iter().map(|c| c.at).collect();
    let decoded = index.decode_clips(&wanted, &OpenOptions::default());
    let full_at = by_location(&full);
    let mut compared = 0;
    for (entry, again) in index.clips.iter().zip(decoded) {
        let key = (index.files[entry.at.file].location(), entry.at.path_id);
        let original = &full.clip(full_at[&key]).expect("the same clip").data;
        match (original, again) {
            (Ok(a), Ok(b)) => {
                let facts: &ClipData = entry.data.as_ref().expect("facts");
                assert!(facts.curves.is_empty() && facts.summary_only.is_some());
                assert_eq!(facts.curve_count(), a.curves.len(), "{key:?}");
                assert_eq!(*a, b, "{key:?}");
                compared += 1;
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            (a, b) => panic!("{key:?}: full {:?}, again {:?}", a.is_ok(), b.is_ok()),
        }
    }
    assert!(compared >= 40, "{compared} clips compared");

    // The same text from either, measured the same by the keys as by reading it back.
    let (names_full, names_index) = (NameBook::build(&full), NameBook::build(&index));
    let read_back = WriteOptions::default();
    let keys = WriteOptions {
        measure: Measure::Keys,
        ..WriteOptions::default()
    };
    let decoded = index.decode_clips(&wanted, &OpenOptions::default());
    for (at, clip) in wanted.iter().zip(decoded) {
        let Ok(clip) = clip else { continue };
        let key = (index.files[at.file].location(), at.path_id);
        let a = write_anim(&full, &names_full, full_at[&key], &read_back).expect("writes");
        let b = write_anim_of(&index, &names_index, *at, &clip, &keys).expect("writes");
        assert_eq!(a.text, b.text, "{key:?}");
        assert_eq!(a.guid, b.guid, "{key:?}");
        assert_eq!(b.report.measured, Measure::Keys);
        assert_eq!(a.report.max_error, b.report.max_error, "{key:?}");
        assert_eq!(
            a.report.max_error_beyond_time_rounding, b.report.max_error_beyond_time_rounding,
            "{key:?}"
        );
    }
    // An index clip is not written as if it were whole.
    let err = write_anim(&index, &names_index, wanted[0], &keys).unwrap_err();
    assert!(err.to_string().contains("decode_clips"), "{err}");
}

#[test]
fn a_file_gone_since_the_index_is_an_error_naming_it() {
    let Some(source) =
        common::data("binary/wetboys_plateupemotesapi/moisture_animationreplacements")
    else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("clipscope-index-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let copy = dir.join("moisture");
    std::fs::copy(&source, &copy).unwrap();
    let index = open(std::slice::from_ref(&copy), Detail::Index);
    let wanted: Vec<ObjectRef> = index.clips.iter().map(|c| c.at).collect();
    assert_eq!(wanted.len(), 3);
    std::fs::write(&copy, b"not a unity file any more").unwrap();
    let decoded = index.decode_clips(&wanted, &OpenOptions::default());
    std::fs::remove_dir_all(&dir).unwrap();
    for (at, result) in wanted.iter().zip(decoded) {
        let e = result.expect_err("the file changed").to_string();
        assert!(
            e.contains("moisture")
                && e.contains(&at.path_id.to_string())
                && e.contains("AnimationClip"),
            "{e}"
        );
    }
}

/// With a spill, the index keeps each LZMA container's decompressed clip files on disk, and
/// the second reading takes them from there: the clips decode equal to a full open's even
/// after their containers have been overwritten. An LZ4 bundle (`copy.bundle`, as cheap to
/// decompress again as to keep) and bare files are not kept, and the spill's file is in no
/// folder from the start (a killed process leaves nothing behind).
#[test]
fn a_spill_serves_the_second_reading_without_decompressing_again() {
    let Some(source) = common::data("binary") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("clipscope-spill-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let files = [
        "wetboys_plateupemotesapi/customemotespackage",
        "wetboys_plateupemotesapi/moisture_animationreplacements",
        "duckhunted/WebPlayer.unity3d",
    ];
    let lz4 = "lessscarymannequins/copy.bundle";
    for name in files.iter().chain([&lz4]) {
        let to = dir.join("in").join(name);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(source.join(name), &to).unwrap();
    }
    let spill = std::sync::Arc::new(Spill::new_in(&dir).expect("a spill folder"));
    let spill_file = spill.path().to_path_buf();
    assert!(spill_file.starts_with(&dir), "{spill_file:?}");
    assert!(!spill_file.exists(), "the spill's file is unlinked at once");
    let options = OpenOptions {
        detail: Detail::Index,
        spill: Some(std::sync::Arc::clone(&spill)),
        ..OpenOptions::default()
    };
    let index = Workspace::open(&[dir.join("in")], &options);
    let full = open(&[dir.join("in")], Detail::Full);
    // The two bundles' CABs and the web player's file that holds clips.
    assert_eq!(spill.len(), 3, "{spill:?}");
    let kept = spill.bytes();
    assert!(kept > 300_000, "{kept} bytes kept");
    for name in files {
        std::fs::write(dir.join("in").join(name), b"overwritten").unwrap();
    }
    let wanted: Vec<ObjectRef> = index
        .clips
        .iter()
        .filter(|c| !index.files[c.at.file].source.ends_with(lz4))
        .map(|c| c.at)
        .collect();
    assert!(wanted.len() >= 8, "{} clips", wanted.len());
    let full_at = by_location(&full);
    for (at, again) in wanted.iter().zip(index.decode_clips(&wanted, &options)) {
        let key = (index.files[at.file].location(), at.path_id);
        let original = full.clip(full_at[&key]).expect("the same clip");
        assert_eq!(original.data.as_ref().ok(), again.as_ref().ok(), "{key:?}");
        assert!(again.is_ok(), "{key:?}: {again:?}");
    }
    // The LZ4 bundle is read again from where it lies.
    std::fs::write(dir.join("in").join(lz4), b"overwritten").unwrap();
    let at = index
        .clips
        .iter()
        .find(|c| index.files[c.at.file].source.ends_with(lz4))
        .expect("a clip in copy.bundle")
        .at;
    let again = index.decode_clips(&[at], &options).remove(0);
    assert!(again.is_err(), "copy.bundle was not kept");
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "only `in` is left"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A character copied into several files (as a game's bundles repeat what they share) is held
/// once: every copy's rig points to one skeleton, one humanoid binding and one decoded Avatar,
/// while each keeps its own file, references and clips; a different character shares nothing
/// with it. Files are numbered in the folder's order whatever thread opened them first.
#[test]
fn a_character_copied_into_several_files_is_held_once() {
    use std::sync::Arc;
    let (Some(morbman), Some(mannequin)) = (
        common::data("binary/wetboys_plateupemotesapi/morbman"),
        common::data("binary/lessscarymannequins/copy.bundle"),
    ) else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("clipscope-shared-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for copy in ["a", "b", "c"] {
        std::fs::create_dir_all(dir.join(copy)).expect("a folder");
        std::fs::copy(&morbman, dir.join(copy).join("morbman")).expect("a copy");
    }
    std::fs::copy(&mannequin, dir.join("b").join("copy.bundle")).expect("a copy");
    for detail in [
        Detail::Full,
        Detail::Clips,
        Detail::Index,
        Detail::Summary,
        Detail::List,
    ] {
        let ws = open(std::slice::from_ref(&dir), detail);
        let sources: Vec<String> = ws
            .files
            .iter()
            .map(|f| {
                let rel = f.source.strip_prefix(&dir).expect("below the folder");
                rel.display().to_string()
            })
            .collect();
        let mut sorted = sources.clone();
        sorted.sort();
        assert_eq!(sources, sorted, "{detail:?}: files in the folder's order");
        let of = |name: &str| -> Vec<_> {
            ws.rigs
                .iter()
                .filter(|r| ws.files[r.at.file].source.ends_with(name))
                .collect()
        };
        let (copies, other) = (of("morbman"), of("copy.bundle"));
        assert_eq!(copies.len(), 3, "{detail:?}: one rig per copy");
        assert!(!other.is_empty(), "{detail:?}: the mannequin's rigs");
        let first = copies[0];
        for r in &copies[1..] {
            assert_ne!(
                r.at.file, first.at.file,
                "{detail:?}: each copy its own file"
            );
            assert!(Arc::ptr_eq(&r.skeleton, &first.skeleton), "{detail:?}");
            let (a, b) = (r.humanoid.as_ref(), first.humanoid.as_ref());
            assert!(Arc::ptr_eq(a.unwrap(), b.unwrap()), "{detail:?}");
            assert!(Arc::ptr_eq(&r.tos, &first.tos), "{detail:?}");
            let avatar = |r: &clipscope_core::workspace::RigEntry| {
                let at = r.avatar.expect("its avatar");
                assert_eq!(at.file, r.at.file, "{detail:?}: its own file's avatar");
                ws.avatar(at).and_then(|a| a.data.clone()).expect("decoded")
            };
            assert!(Arc::ptr_eq(&avatar(r), &avatar(first)), "{detail:?}");
        }
        for o in other {
            assert!(!Arc::ptr_eq(&o.skeleton, &first.skeleton), "{detail:?}");
            assert_ne!(*o.skeleton, *first.skeleton);
        }
        // Each copy's serialized files name the same external files: one list, held once.
        // The other file's version, as written and as used, is the copies' own.
        let version = |f: &clipscope_core::workspace::LoadedFile| {
            let s = f.summary.as_ref().unwrap();
            Arc::clone(&s.version)
        };
        let (first, mannequin) = (
            ws.files
                .iter()
                .find(|f| f.source.ends_with("morbman"))
                .unwrap(),
            ws.files
                .iter()
                .find(|f| f.source.ends_with("copy.bundle"))
                .unwrap(),
        );
        let (a, b) = (version(first), version(mannequin));
        assert_eq!(Arc::ptr_eq(&a, &b), a == b, "{detail:?}");
        let copied: Vec<_> = ws
            .files
            .iter()
            .filter(|f| f.source.ends_with("morbman"))
            .collect();
        assert!(copied.len() >= 3, "{detail:?}");
        for f in &copied {
            let twin = copied
                .iter()
                .find(|o| o.source != f.source && o.inner == f.inner)
                .expect("the same file in another copy");
            let (a, b) = (f.summary.as_ref().unwrap(), twin.summary.as_ref().unwrap());
            assert!(!a.externals.is_empty(), "{detail:?}: {}", f.inner);
            assert!(Arc::ptr_eq(&a.externals, &b.externals), "{detail:?}");
            // And the Unity version they all write, held once.
            assert!(Arc::ptr_eq(&a.version, &b.version));
        }
        // Each copy's materials and scripts hold one shared list of property names and one
        // shared script.
        if !detail.facts_only() {
            let in_copies = |file: usize| ws.files[file].source.ends_with("morbman");
            let materials: Vec<_> = ws
                .materials
                .iter()
                .filter(|m| in_copies(m.at.file))
                .collect();
            assert!(materials.len() >= 3, "{detail:?}: {}", materials.len());
            for m in &materials {
                let twin = materials
                    .iter()
                    .find(|o| o.at.file != m.at.file && o.data.name == m.data.name);
                let twin = twin.expect("the same material in another copy");
                assert!(
                    Arc::ptr_eq(&m.data.properties, &twin.data.properties),
                    "{detail:?}"
                );
            }
            let scripts: Vec<_> = ws.scripts.iter().filter(|s| in_copies(s.at.file)).collect();
            for s in &scripts {
                let twin = scripts
                    .iter()
                    .find(|o| o.at.file != s.at.file && o.data == s.data);
                assert!(
                    Arc::ptr_eq(&s.data, &twin.expect("another copy").data),
                    "{detail:?}"
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two built games in one folder, each a `level0` naming its own `sharedassets0.assets`: a
/// reference resolves into the file beside the one it was read in, not into the other
/// game's file of the same name.
#[test]
fn a_reference_resolves_into_the_file_beside_it() {
    let Some(game) = common::data("binary/day65platformer2d") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("clipscope-beside-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for copy in ["a", "b"] {
        std::fs::create_dir_all(dir.join(copy)).expect("a folder");
        for file in ["level0", "sharedassets0.assets", "globalgamemanagers"] {
            std::fs::copy(game.join(file), dir.join(copy).join(file)).expect("a copy");
        }
    }
    let ws = open(std::slice::from_ref(&dir), Detail::Summary);
    let folder = |file: usize| ws.files[file].source.parent().map(|p| p.to_path_buf());
    let mut reached = 0;
    for rig in &ws.rigs {
        for clip in &rig.clips {
            assert_eq!(folder(clip.file), folder(rig.at.file), "{}", rig.name);
            reached += 1;
        }
    }
    assert!(
        reached >= 4,
        "the two games' rigs reach their clips ({reached})"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `check` over a whole game opens it as an index and decodes each file's clips again as it
/// checks them: every report equals the one a full open gives, in the same order.
#[test]
fn checking_an_index_reports_what_a_full_open_does() {
    use clipscope_core::check::{Thresholds, check_clips, check_workspace};
    use std::sync::atomic::{AtomicUsize, Ordering};
    let Some(paths) = shared() else { return };
    let full = open(&paths, Detail::Full);
    let index = open(&paths, Detail::Index);
    let want = serde_json::to_value(check_workspace(&full, None)).expect("json");
    let counted = AtomicUsize::new(0);
    let options = OpenOptions {
        detail: Detail::Index,
        ..OpenOptions::default()
    };
    let got = check_clips(&index, None, &Thresholds::default(), &options, &|| {
        counted.fetch_add(1, Ordering::Relaxed);
    });
    assert_eq!(counted.load(Ordering::Relaxed), index.clips.len());
    let got = serde_json::to_value(got).expect("json");
    let (want, got) = (want.as_array().unwrap(), got.as_array().unwrap());
    assert!(want.len() >= 40, "{} reports", want.len());
    assert_eq!(want.len(), got.len());
    for (w, g) in want.iter().zip(got) {
        assert_eq!(w, g, "{}", w["name"]);
    }
}

/// The clips of a whole game handed over one at a time, in the order asked for, as soon as
/// those before are done (how `check` prints as it goes): every clip once, each the one
/// asked for, from the calling thread and from inside rayon's pool alike.
#[test]
fn clips_come_in_the_order_asked_for() {
    let Some(paths) = shared() else { return };
    let index = open(&paths, Detail::Index);
    // Newest file first: the order asked for is not the files' order.
    let mut wanted: Vec<ObjectRef> = index.clips.iter().map(|c| c.at).collect();
    wanted.reverse();
    let run = || {
        let mut next = 0;
        index.each_clip_in_order(
            &wanted,
            &OpenOptions::default(),
            |i, entry| {
                (
                    i,
                    entry.at,
                    entry.data.as_ref().ok().map(|d| d.curves.len()),
                )
            },
            |i, (j, at, curves)| {
                assert_eq!((i, j), (next, next));
                assert_eq!(at, wanted[i]);
                if let Some(curves) = curves {
                    assert_eq!(
                        curves,
                        index.clips[index.clips.len() - 1 - i]
                            .data
                            .as_ref()
                            .unwrap()
                            .curve_count()
                    );
                }
                next += 1;
            },
        );
        next
    };
    assert_eq!(run(), wanted.len());
    assert_eq!(rayon::scope(|_| run()), wanted.len());
}

/// `Detail::Clips`, what the viewer opens files with: every clip as a full open decodes it,
/// every mesh and texture with its facts but without its vertices or pixels (most of a
/// game's memory). The files a rig needs, opened again in full, give back its meshes, and
/// hold the objects its clip's PPtr curves swap in.
#[test]
fn clips_come_in_full_without_vertices_or_pixels_and_a_rigs_files_give_them_back() {
    let Some(paths) = shared() else {
        return;
    };
    let full = open(&paths, Detail::Full);
    let ws = open(&paths, Detail::Clips);
    assert_eq!(full.clips.len(), ws.clips.len());
    for (a, b) in full.clips.iter().zip(&ws.clips) {
        assert_eq!(a.at, b.at);
        assert_eq!(a.data.as_ref().ok(), b.data.as_ref().ok(), "{}", a.name);
    }
    assert_eq!(full.meshes.len(), ws.meshes.len());
    assert!(full.meshes.iter().any(|m| m.data.is_some()));
    for (a, b) in full.meshes.iter().zip(&ws.meshes) {
        assert!(b.data.is_none(), "{}", b.name);
        assert_eq!(a.facts, b.facts, "{}", a.name);
    }
    assert!(full.textures.iter().any(|t| t.image.is_some()));
    assert!(ws.textures.iter().all(|t| t.image.is_none()));

    let rig = ws
        .rigs
        .iter()
        .find(|r| r.name == "morbman" && !r.renderers.is_empty())
        .expect("morbman with its meshes");
    let again = open(&ws.sources_for(rig, &[]), Detail::Full);
    let at = again.same_object(&ws, rig.at).expect("the rig's file");
    let shown = again.rigs.iter().find(|r| r.at == at).expect("the rig");
    let mut meshes = 0;
    for r in &shown.renderers {
        if let MeshSource::Loaded(m) = r.mesh {
            assert!(again.mesh(m).and_then(|m| m.data.as_ref()).is_some());
            meshes += 1;
        }
    }
    assert!(meshes > 0);

    // A clip that swaps sprites: the files of what it swaps in are among its rig's (in the
    // shared 2D game they lie in the clip's own file).
    let swapping = ws
        .clips
        .iter()
        .find(|c| c.data.as_ref().is_ok_and(|d| !d.pptr_mapping.is_empty()))
        .expect("a clip with PPtr curves");
    let data = swapping.data.as_ref().unwrap();
    let sources = ws.sources_for(&ws.rigs[0], &[swapping.at]);
    let mut targets = 0;
    for &(file_id, path_id) in &data.pptr_mapping {
        let pptr = clipscope_core::unity::PPtr {
            m_FileID: clipscope_core::unity::Int(file_id.into()),
            m_PathID: clipscope_core::unity::Int(path_id),
        };
        if let Some(target) = ws.resolve(swapping.at.file, pptr) {
            assert!(sources.contains(&ws.files[target.file].source.to_path_buf()));
            targets += 1;
        }
    }
    assert!(targets > 0, "{}: its swaps resolve", swapping.name);
}

/// An index that outlines its controllers ([`OpenOptions::outline_controllers`], as `unity`
/// opens a whole game) keeps of each binary file's controller its name, parameters,
/// warnings, clips and override pairs but no layers, and decodes each again, from the spill
/// for an LZMA container (the web player's, overwritten on disk since) or from its file
/// (the bundle's, the level's), as the model an index keeps whole: the same layers, states,
/// blend trees and leaves resolved to the same clips, names and times. Text controllers and
/// override controllers come as kept. Taken in the order asked for, each file read once.
#[test]
fn an_outlined_controller_decodes_again_as_the_one_kept_whole() {
    let Some(paths) = shared() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("clipscope-outline-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let spill = std::sync::Arc::new(Spill::new_in(&dir).expect("a spill folder"));
    let outlined_options = OpenOptions {
        detail: Detail::Index,
        spill: Some(spill),
        outline_controllers: true,
        ..OpenOptions::default()
    };
    let outlined = Workspace::open(&paths, &outlined_options);
    let whole = open(&paths, Detail::Index);
    assert_eq!(outlined.controllers.len(), whole.controllers.len());
    let wanted: Vec<usize> = (0..outlined.controllers.len()).rev().collect();
    let mut seen = Vec::new();
    outlined.each_controller_in_order(
        &wanted,
        &outlined_options,
        |i, m| (i, m),
        |i, (j, m)| {
            assert_eq!(i, j);
            seen.push((wanted[i], m));
        },
    );
    assert_eq!(seen.len(), wanted.len(), "every controller, in order");
    let mut decoded_again = 0;
    for (index, again) in seen {
        let (o, w) = (&outlined.controllers[index], &whole.controllers[index]);
        assert_eq!((o.at, &o.name, &o.clips), (w.at, &w.name, &w.clips));
        let binary =
            outlined.files[o.at.file].kind != clipscope_core::container::ContainerKind::Yaml;
        match (&o.model, &w.model) {
            (Ok(kept), Ok(model)) => {
                assert_eq!(kept.parameters, model.parameters, "{}", o.name);
                assert_eq!(kept.warnings, model.warnings, "{}", o.name);
                if binary && o.overrides.is_none() {
                    assert!(kept.layers.is_empty(), "{}: outlined", o.name);
                    assert!(!model.layers.is_empty(), "{}", o.name);
                    decoded_again += 1;
                }
                assert_eq!(again.as_ref(), Ok(model), "{}", o.name);
                assert_eq!(
                    outlined
                        .decode_controller(index, &outlined_options)
                        .as_ref(),
                    Ok(model)
                );
            }
            (Err(kept), Err(reason)) => {
                assert_eq!(kept, reason);
                assert_eq!(again.as_ref(), Err(reason), "{}", o.name);
            }
            (kept, model) => panic!("{}: {kept:?} against {model:?}", o.name),
        }
    }
    assert!(
        decoded_again >= 4,
        "{decoded_again} binary controllers decoded again"
    );
    // The web player's controller (an LZMA container) comes from the spill once its file
    // is overwritten.
    let copy = dir.join("WebPlayer.unity3d");
    std::fs::copy(paths[0].join("resetanimator/WebPlayer.unity3d"), &copy).unwrap();
    let at_copy = Workspace::open(std::slice::from_ref(&copy), &outlined_options);
    let copy_whole = open(std::slice::from_ref(&copy), Detail::Index);
    std::fs::write(&copy, b"overwritten").unwrap();
    let index = (0..at_copy.controllers.len())
        .find(|&i| at_copy.controllers[i].model.is_ok())
        .expect("a controller");
    let again = at_copy.decode_controller(index, &outlined_options);
    assert!(
        again.as_ref().is_ok_and(|m| !m.layers.is_empty()),
        "{again:?}"
    );
    assert_eq!(again, copy_whole.controllers[index].model, "from the spill");
    // Without the spill, the overwritten file is an error naming it.
    let no_spill = OpenOptions {
        spill: None,
        ..outlined_options.clone()
    };
    let gone = at_copy.decode_controller(index, &no_spill).unwrap_err();
    assert!(gone.contains("WebPlayer.unity3d"), "{gone}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An index that keeps its scene as names ([`OpenOptions::scene_as_names`], as `unity`
/// opens a whole game) keeps no meshes, textures, materials, sprites, behaviours or rig
/// renderers, only their names, each once; it names the clips' hashes as the index that keeps
/// them does (the same [`NameBook`]), and says the same warnings and errors.
#[test]
fn an_index_of_scene_names_names_the_clips_as_one_of_scene_objects() {
    let Some(paths) = shared() else {
        return;
    };
    let whole = open(&paths, Detail::Index);
    let names = Workspace::open(
        &paths,
        &OpenOptions {
            detail: Detail::Index,
            scene_as_names: true,
            ..OpenOptions::default()
        },
    );
    assert!(names.meshes.is_empty() && names.textures.is_empty() && names.sprites.is_empty());
    assert!(names.materials.is_empty() && names.behaviours.is_empty());
    assert!(names.rigs.iter().all(|r| r.renderers.is_empty()));
    assert!(whole.rigs.iter().any(|r| !r.renderers.is_empty()));
    assert!(whole.scene_names.blend_shapes.is_empty());
    let scene = &names.scene_names;
    let shapes = whole.meshes.iter().flat_map(|m| &m.shape_names).count();
    assert!(!scene.blend_shapes.is_empty() && scene.blend_shapes.len() <= shapes);
    assert!(
        !scene.material_properties.is_empty(),
        "{} materials",
        whole.materials.len()
    );
    assert!(
        !scene.behaviour_fields.is_empty(),
        "{} behaviours",
        whole.behaviours.len()
    );
    let unique: std::collections::HashSet<_> = scene.material_properties.iter().collect();
    assert_eq!(unique.len(), scene.material_properties.len());
    assert_eq!(NameBook::build(&names), NameBook::build(&whole));
    assert_eq!(names.warnings, whole.warnings);
    let errors = |ws: &Workspace| ws.errors.iter().map(|e| e.to_string()).collect::<Vec<_>>();
    assert_eq!(errors(&names), errors(&whole));
    assert_eq!(names.rigs.len(), whole.rigs.len());
    assert_eq!(names.clips.len(), whole.clips.len());
    assert_eq!(names.scripts.len(), whole.scripts.len());
    assert_eq!(names.controllers.len(), whole.controllers.len());
}

/// A list ([`Detail::List`]) keeps each rig's renderers as `list` shows them (kind, mesh,
/// joint, activity), as an index does, without their bones, weights or materials.
#[test]
fn a_list_keeps_renderers_without_their_bones() {
    let Some(paths) = shared() else {
        return;
    };
    let (list, index) = (open(&paths, Detail::List), open(&paths, Detail::Index));
    assert_eq!(list.rigs.len(), index.rigs.len());
    let mut skinned = 0;
    for (l, i) in list.rigs.iter().zip(&index.rigs) {
        assert_eq!((l.at, l.renderers.len()), (i.at, i.renderers.len()));
        for (a, b) in l.renderers.iter().zip(&i.renderers) {
            assert_eq!(
                (a.at, a.joint, a.drawn(), &a.mesh),
                (b.at, b.joint, b.drawn(), &b.mesh)
            );
            assert!(a.materials.is_empty());
            match (&a.kind, &b.kind) {
                (RendererKind::Skinned { bones, .. }, RendererKind::Skinned { bones: all, .. }) => {
                    assert!(bones.is_empty());
                    skinned += usize::from(!all.is_empty());
                }
                (RendererKind::Rigid, RendererKind::Rigid) => {}
                (RendererKind::Sprite { .. }, RendererKind::Sprite { .. }) => {}
                (a, b) => panic!("{a:?} against {b:?}"),
            }
        }
    }
    assert!(
        skinned >= 2,
        "{skinned} skinned renderers with bones in the index"
    );
}

/// Every list of entries is in the order of its files, which lookups rely on (they halve to
/// a file, then look within it): each entry is found by its own reference, at every detail,
/// and a reference to nothing loaded is found nowhere.
#[test]
fn every_entry_is_found_by_its_reference_in_file_order() {
    let Some(paths) = shared() else { return };
    for detail in [
        Detail::Full,
        Detail::Index,
        Detail::Clips,
        Detail::Summary,
        Detail::List,
    ] {
        let ws = open(&paths, detail);
        // Each entry of `ws.$list`, in its files' order, is what `ws.$get` finds at its `at`.
        macro_rules! found_by_reference {
            ($list:ident, $get:ident) => {
                let refs: Vec<ObjectRef> = ws.$list.iter().map(|e| e.at).collect();
                let what = stringify!($list);
                assert!(
                    refs.is_sorted_by_key(|at| at.file),
                    "{detail:?}: {what} out of their files' order"
                );
                for at in refs {
                    assert!(
                        ws.$get(at).is_some_and(|e| e.at == at),
                        "{detail:?}: {what}"
                    );
                }
            };
        }
        found_by_reference!(clips, clip);
        found_by_reference!(avatars, avatar);
        found_by_reference!(meshes, mesh);
        found_by_reference!(textures, texture);
        found_by_reference!(materials, material);
        found_by_reference!(sprites, sprite);
        found_by_reference!(scripts, script);
        let controllers: Vec<ObjectRef> = ws.controllers.iter().map(|c| c.at).collect();
        assert!(controllers.is_sorted_by_key(|at| at.file), "{detail:?}");
        let all = ws.clip_refs();
        assert!(all.len() >= 40, "{detail:?}: {} clips", all.len());
        assert!(
            all.iter()
                .all(|&at| ws.has_clip(at) && ws.clip_name(at).is_some())
        );
        for file in [0, ws.files.len() - 1] {
            let nothing = ObjectRef {
                file,
                path_id: i64::MAX,
            };
            assert!(!ws.has_clip(nothing) && ws.avatar(nothing).is_none());
        }
    }
}
