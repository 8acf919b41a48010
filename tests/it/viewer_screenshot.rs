//! The viewer renders a real clip offscreen under Xvfb with software Vulkan, and the image
//! shows the skeleton: joint-coloured pixels where the joints project; the skinned
//! character: its mesh covers the joints and far more of the view than the skeleton alone;
//! a humanoid clip on the humanoid rig puts every joint where the rig posed directly
//! puts it; characters with weapons parked kilometres away fill the view with their body,
//! seen from the front; `--rig NAME` names a rig as `pose` does. With `CLIPSCOPE_SHOTS` set
//! to a folder, each shot is also copied there.
#![cfg(feature = "viewer")]

use crate::common;

use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use bevy::math::Vec3;

/// True when `program` runs.
fn available(program: &str, arg: &str) -> bool {
    Command::new(program).arg(arg).output().is_ok()
}

/// Pixels of the image as RGB rows.
fn read_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let rgb = buf[..info.buffer_size()]
        .chunks(channels)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    (info.width, info.height, rgb)
}

/// A pixel of the joint spheres' colour (a warm yellow).
fn is_joint_colour(p: &[u8]) -> bool {
    p[0] > 170 && p[1] > 120 && p[2] < 120
}

/// The 3D view between the panels, in pixels: x, then y.
const VIEW: (std::ops::Range<i64>, std::ops::Range<i64>) = (430..950, 60..520);

/// A rendered frame: size, RGB pixels, and the joints the viewer projected.
struct Shot {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
    /// Each joint's name, pixel position and world position.
    joints: Vec<serde_json::Value>,
    /// The whole sidecar: the shown clip and the pinned reference too.
    sidecar: serde_json::Value,
}

impl Shot {
    fn pixel(&self, x: i64, y: i64) -> &[u8] {
        let (w, h) = (self.width as i64, self.height as i64);
        let i = ((y.clamp(0, h - 1) * w + x.clamp(0, w - 1)) * 3) as usize;
        &self.rgb[i..i + 3]
    }

    /// Every joint's pixel position.
    fn points(&self) -> Vec<(i64, i64)> {
        self.joints
            .iter()
            .map(|j| {
                (
                    j["x"].as_f64().unwrap() as i64,
                    j["y"].as_f64().unwrap() as i64,
                )
            })
            .collect()
    }

    /// The projected joints that fall in the 3D view.
    fn visible(&self) -> Vec<(i64, i64)> {
        let (xs, ys) = VIEW;
        self.points()
            .into_iter()
            .filter(|(x, y)| xs.contains(x) && ys.contains(y))
            .collect()
    }

    /// How many of `points` have joint-coloured pixels within 4 pixels.
    fn hits(&self, points: &[(i64, i64)]) -> usize {
        points
            .iter()
            .filter(|&&(x, y)| {
                (-4..=4).any(|dy| (-4..=4).any(|dx| is_joint_colour(self.pixel(x + dx, y + dy))))
            })
            .count()
    }

    /// Pixels of the whole window that satisfy `test`.
    fn count(&self, test: impl Fn(&[u8]) -> bool) -> usize {
        self.rgb.chunks_exact(3).filter(|p| test(p)).count()
    }

    /// Pixels of the 3D view that satisfy `test`.
    fn count_in_view(&self, test: impl Fn(&[u8]) -> bool) -> usize {
        let (xs, ys) = VIEW;
        ys.flat_map(|y| xs.clone().map(move |x| (x, y)))
            .filter(|&(x, y)| test(self.pixel(x, y)))
            .count()
    }
}

/// Runs `clipscope view ARGS --screenshot` under Xvfb; `None` (with the reason printed) when
/// Xvfb is missing.
fn shoot(name: &str, args: &[&std::ffi::OsStr]) -> Option<Shot> {
    if !available("xvfb-run", "--help") {
        eprintln!("SKIP: xvfb-run is missing (.ci/run installs xvfb and mesa-vulkan-drivers)");
        return None;
    }
    let dir = std::env::temp_dir().join(format!("clipscope-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png_path = dir.join("shot.png");
    let runtime = dir.join("xdg");
    std::fs::create_dir_all(&runtime).unwrap();
    let started = Instant::now();
    let mut child = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_clipscope"))
        .arg("view")
        .args(args)
        .arg("--screenshot")
        .arg(&png_path)
        .env("XDG_RUNTIME_DIR", &runtime)
        .env("WGPU_BACKEND", "vulkan")
        .spawn()
        .expect("xvfb-run starts");
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(600) {
            let _ = child.kill();
            panic!("the viewer did not finish its screenshot within 10 minutes");
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(status.success(), "viewer exited with {status}");
    // For looking at (and for the README's picture): a copy of each shot where asked.
    if let Some(keep) = std::env::var_os("CLIPSCOPE_SHOTS") {
        let keep = std::path::PathBuf::from(keep);
        std::fs::create_dir_all(&keep).unwrap();
        std::fs::copy(&png_path, keep.join(format!("{name}.png"))).unwrap();
    }
    let (width, height, rgb) = read_png(&png_path);
    assert_eq!((width, height), (1280, 800));
    let sidecar: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("shot.png.joints.json")).unwrap())
            .unwrap();
    let joints = sidecar["joints"].as_array().unwrap().clone();
    std::fs::remove_dir_all(&dir).ok();
    Some(Shot {
        width,
        height,
        rgb,
        joints,
        sidecar,
    })
}

/// `copy.bundle`'s TestClip at 0.5 s on quinn, rendered once per test run with or without
/// meshes; `None` when the data or Xvfb is missing.
fn shot(no_mesh: bool) -> Option<&'static Shot> {
    static MESH: OnceLock<Option<Shot>> = OnceLock::new();
    static BARE: OnceLock<Option<Shot>> = OnceLock::new();
    let cell = if no_mesh { &BARE } else { &MESH };
    cell.get_or_init(|| {
        let bundle = common::data("binary/lessscarymannequins/copy.bundle")?;
        let mut args = vec![bundle.into_os_string()];
        args.extend(["--clip", "TestClip", "--at", "0.5", "--joints"].map(Into::into));
        if no_mesh {
            args.push("--no-mesh".into());
        }
        let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
        shoot(if no_mesh { "bare" } else { "mesh" }, &args)
    })
    .as_ref()
}

/// Most projected joints in the 3D view show the joint colour, and the image is not flat.
fn assert_joints_drawn(shot: &Shot, at_least: usize) {
    let visible = shot.visible();
    assert!(
        visible.len() >= at_least,
        "only {} joints fall in the 3D view: {:?}",
        visible.len(),
        shot.joints
    );
    let hits = shot.hits(&visible);
    assert!(
        hits * 10 >= visible.len() * 8,
        "joint colour found at {hits} of {} projected joints",
        visible.len()
    );
    // And the background is not joint-coloured: the image is not one flat colour.
    assert!(!is_joint_colour(shot.pixel(640, 790)) || !is_joint_colour(shot.pixel(5, 5)));
}

#[test]
fn screenshot_shows_the_skeleton_where_the_joints_project() {
    // The skeleton is drawn over the mesh.
    let Some(shot) = shot(false) else { return };
    assert_eq!(shot.joints.len(), 29);
    assert_joints_drawn(shot, 10);
}

#[test]
fn humanoid_clip_renders_on_morbman_where_the_pose_projects() {
    use clipscope_bevy::{humanoid_posed_positions, rest_transform, world_positions};
    use clipscope_core::humanoid::PoseOptions;
    let (Some(morbman), Some(emotes)) = (
        common::data("binary/wetboys_plateupemotesapi/morbman"),
        common::data("binary/wetboys_plateupemotesapi/customemotespackage"),
    ) else {
        return;
    };
    // Default Dance at 1 s, on the rig the viewer picks: morbman, the only humanoid rig.
    let ws = common::open(&[morbman.clone(), emotes.clone()]);
    let rig = ws.rigs.iter().find(|r| r.humanoid.is_some()).unwrap();
    let clip = common::clip(&ws, "Default Dance");
    let t = 1.0;
    let humanoid = rig.humanoid.as_ref().unwrap();
    let want = humanoid_posed_positions(humanoid, &rig.skeleton, clip, t, &PoseOptions::default());
    let args = ["--clip", "Default Dance", "--at", "1.0", "--joints"].map(std::ffi::OsStr::new);
    let mut all = vec![morbman.as_os_str(), emotes.as_os_str()];
    all.extend(args);
    let Some(shot) = shoot("humanoid", &all) else {
        return;
    };
    assert_eq!(shot.joints.len(), rig.skeleton.joints.len());
    // Every joint stands where the rig posed at 1 s puts it (not its rest pose).
    let rest = world_positions(&rig.skeleton, rest_transform);
    let mut moved = 0;
    for joint in &shot.joints {
        let name = joint["name"].as_str().unwrap();
        let index = rig
            .skeleton
            .joints
            .iter()
            .position(|j| j.name == name)
            .unwrap_or_else(|| panic!("joint {name} is not morbman's"));
        let world: Vec<f32> = joint["world"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap() as f32)
            .collect();
        let at = Vec3::from_slice(&world);
        assert!(
            at.distance(want[index]) < 1e-3,
            "{name}: drawn at {at}, posed at {}",
            want[index]
        );
        if at.distance(rest[index]) > 0.02 {
            moved += 1;
        }
    }
    assert!(moved >= 10, "only {moved} joints left their rest pose");
    assert_joints_drawn(&shot, 15);
}

/// A pixel of quinn's lit mesh, whose materials are untextured and colourless: an even
/// grey. The clear colour, the grid, the bones and the joints are all tinted.
fn is_mesh_colour(p: &[u8]) -> bool {
    let (lo, hi) = (p.iter().min().unwrap(), p.iter().max().unwrap());
    *lo > 50 && hi - lo <= 4
}

/// A pixel of the clear colour (28, 31, 36) or the grid over it: blue by 5–12 over red,
/// green within 3 of red.
fn is_background(p: &[u8]) -> bool {
    let (r, g, b) = (p[0] as i32, p[1] as i32, p[2] as i32);
    (r + 5..=r + 12).contains(&b) && (g - r).abs() <= 3
}

/// A pixel of the skeleton: a joint or a bone (light blue).
fn is_skeleton_colour(p: &[u8]) -> bool {
    is_joint_colour(p) || (p[2] > 180 && p[1] > 140 && p[0] < 150)
}

#[test]
fn the_skinned_mesh_covers_the_joints_and_far_more_than_the_skeleton() {
    let (Some(mesh), Some(bare)) = (shot(false), shot(true)) else {
        return;
    };
    let sorted = |s: &Shot| {
        let mut j = s.points();
        j.sort();
        j
    };
    assert_eq!(sorted(mesh), sorted(bare), "both frames show the same pose");
    let visible = mesh.visible();
    // The joint spheres, drawn over the mesh, hide it within about 8 pixels of a joint.
    let covered = |shot: &Shot, (x, y): (i64, i64)| {
        (-10..=10).any(|dy| (-10..=10).any(|dx| is_mesh_colour(shot.pixel(x + dx, y + dy))))
    };
    let on_mesh = visible.iter().filter(|&&j| covered(mesh, j)).count();
    let on_bare = visible.iter().filter(|&&j| covered(bare, j)).count();
    let mesh_pixels = mesh.count_in_view(is_mesh_colour);
    let skeleton_pixels = bare.count_in_view(is_skeleton_colour);
    let figure = |s: &Shot| s.count_in_view(|p| !is_background(p));
    let (with_mesh, skeleton_alone) = (figure(mesh), figure(bare));
    eprintln!(
        "joints on the mesh: {on_mesh} of {}; mesh pixels {mesh_pixels}, skeleton pixels \
         {skeleton_pixels}; figure {with_mesh} with the mesh, {skeleton_alone} without",
        visible.len()
    );
    assert!(
        on_mesh * 10 >= visible.len() * 9,
        "mesh at {on_mesh} of {} joints",
        visible.len()
    );
    assert_eq!(on_bare, 0, "the skeleton alone has no mesh colour");
    assert_eq!(bare.count_in_view(is_mesh_colour), 0);
    assert!(
        mesh_pixels > skeleton_pixels,
        "{mesh_pixels} vs {skeleton_pixels}"
    );
    assert!(
        with_mesh > 2 * skeleton_alone,
        "{with_mesh} vs {skeleton_alone}"
    );
}

use clipscope_authoring::fixtures::avatar as avatar_fixtures;
use clipscope_authoring::fixtures::humanoid as humanoid_fixture;

#[test]
fn a_rig_with_a_socket_ten_kilometres_away_is_framed_by_its_body() {
    use avatar_fixtures::{Case, fixture};
    let (Some(m), Some(emotes)) = (
        humanoid_fixture::morbman(),
        common::data("binary/wetboys_plateupemotesapi/moisture_animationreplacements"),
    ) else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("clipscope-socket-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let socket = dir.join("socket.bundle");
    std::fs::write(&socket, fixture(Case::Socket, &m.avatar, &m.skeleton).bytes).unwrap();
    let args = ["--clip", "Floss", "--at", "1.0"].map(std::ffi::OsStr::new);
    let mut all = vec![socket.as_os_str(), emotes.as_os_str()];
    all.extend(args);
    let shot = shoot("socket", &all);
    std::fs::remove_dir_all(&dir).ok();
    let Some(shot) = shot else { return };
    // The socket is drawn far outside the view; the body fills it.
    let (xs, ys) = VIEW;
    if let Some(socket) = shot.joints.iter().find(|j| j["name"] == "Socket") {
        let (x, y) = (socket["x"].as_f64().unwrap(), socket["y"].as_f64().unwrap());
        assert!(
            !(xs.contains(&(x as i64)) && ys.contains(&(y as i64))),
            "the socket projects into the view at ({x}, {y})"
        );
    }
    assert_joints_drawn(&shot, 15);
    // The figure (everything but the background) spans at least a tenth of the 3D view.
    let (mut lo, mut hi) = ((i64::MAX, i64::MAX), (i64::MIN, i64::MIN));
    for y in ys.clone() {
        for x in xs.clone() {
            if !is_background(shot.pixel(x, y)) {
                lo = (lo.0.min(x), lo.1.min(y));
                hi = (hi.0.max(x), hi.1.max(y));
            }
        }
    }
    let figure = (hi.0 - lo.0 + 1).max(0) * (hi.1 - lo.1 + 1).max(0);
    let view = (xs.end - xs.start) * (ys.end - ys.start);
    eprintln!("figure {lo:?}..{hi:?}: {figure} of {view} pixels");
    assert!(
        figure * 10 >= view,
        "the figure spans {figure} of {view} pixels"
    );
}

/// `view Floss.anim BUNDLE --clip Floss --reference Floss` shows the text clip with its build
/// pinned as the reference, compared exactly as `clipscope diff` compares them.
#[test]
fn the_build_pinned_as_reference_is_compared_with_the_text_clip() {
    let (Some(text), Some(bundle)) = (
        common::data("yaml/plateupemotesapi/Floss.anim"),
        common::data("binary/wetboys_plateupemotesapi/moisture_animationreplacements"),
    ) else {
        return;
    };
    let ws = common::open(&[text.clone(), bundle.clone()]);
    let floss: Vec<_> = ws.clips.iter().filter(|c| c.name == "Floss").collect();
    assert_eq!(floss.len(), 2);
    let data = |n: usize| floss[n].data.as_ref().unwrap();
    let want = clipscope_core::diff::diff_clips(data(0), data(1));
    let mut args = vec![text.as_os_str(), bundle.as_os_str()];
    args.extend(
        [
            "--clip",
            "Floss",
            "--reference",
            "Floss",
            "--at",
            "0.5",
            "--no-mesh",
        ]
        .map(std::ffi::OsStr::new),
    );
    let Some(shot) = shoot("reference", &args) else {
        return;
    };
    let (shown, pinned) = (&shot.sidecar["clip"], &shot.sidecar["reference"]);
    assert_eq!(shown["name"], "Floss");
    assert!(
        shown["file"].as_str().unwrap().ends_with("Floss.anim"),
        "{shown}"
    );
    assert_eq!(pinned["clip"]["name"], "Floss");
    assert!(
        pinned["clip"]["file"]
            .as_str()
            .unwrap()
            .ends_with("moisture_animationreplacements")
    );
    assert_eq!(pinned["curves"], want.curves.len());
    assert_eq!(pinned["only_in_shown"], 0);
    assert_eq!(pinned["only_in_reference"], 0);
    assert_eq!(pinned["max_abs"].as_f64().unwrap(), want.max_abs);
    assert!(want.max_abs > 0.0);
}

use clipscope_authoring::fixtures::renderer as renderer_fixture;

/// The fixture cubes' lit colours: one channel (or two, for magenta) well above the others.
fn cube_colour(p: &[u8]) -> Option<usize> {
    let [r, g, b] = [p[0], p[1], p[2]].map(i32::from);
    let strong = |c: i32| c > 60;
    let weak = |c: i32, of: i32| 2 * c < of;
    if strong(g) && weak(r, g) && weak(b, g) {
        Some(0) // Drawn, green
    } else if strong(r) && strong(b) && weak(g, r.min(b)) {
        Some(2) // Disabled, magenta
    } else if strong(r) && weak(g, r) && weak(b, r) {
        Some(1) // Hidden, red
    } else if strong(b) && weak(r, b) && weak(g, b) {
        Some(3) // Parent/Under, blue
    } else {
        None
    }
}

/// The renderer fixture with `ShowHidden` at `at` seconds: the pixels of each cube's colour
/// in the 3D view (drawn, hidden, disabled, under), and the shot.
fn cubes_at(at: &str) -> Option<([usize; 4], Shot)> {
    let path = renderer_fixture::write(&format!("shot{at}"), true);
    let args = [
        path.as_os_str(),
        "--clip".as_ref(),
        renderer_fixture::CLIP.as_ref(),
        "--at".as_ref(),
        at.as_ref(),
    ];
    let shot = shoot(&format!("cubes{at}"), &args);
    std::fs::remove_dir_all(path.parent().unwrap()).ok();
    let shot = shot?;
    let counts = std::array::from_fn(|i| shot.count_in_view(|p| cube_colour(p) == Some(i)));
    eprintln!(
        "at {at} s, pixels of each cube's colour (drawn, hidden, disabled, under): {counts:?}"
    );
    Some((counts, shot))
}

/// How many pixels of cube `i`'s colour lie within half the cubes' spacing of its joint.
fn around(shot: &Shot, i: usize) -> usize {
    let at = |name: &str| {
        let j = shot.joints.iter().find(|j| j["name"] == name).unwrap();
        (
            j["x"].as_f64().unwrap() as i64,
            j["y"].as_f64().unwrap() as i64,
        )
    };
    let name = renderer_fixture::CUBES[i].path.rsplit('/').next().unwrap();
    let (x, y) = at(name);
    let (dx, _) = at("Drawn");
    let (hx, _) = at("Hidden");
    let radius = (hx - dx).abs() / 2;
    (-radius..=radius)
        .flat_map(|dy| (-radius..=radius).map(move |dx| (x + dx, y + dy)))
        .filter(|&(px, py)| cube_colour(shot.pixel(px, py)) == Some(i))
        .count()
}

#[test]
fn only_the_active_enabled_cube_is_drawn_until_a_clip_turns_an_inactive_one_on() {
    // At 0.25 s ShowHidden still holds Hidden inactive: only Drawn shows.
    let Some((counts, shot)) = cubes_at("0.25") else {
        return;
    };
    assert!(
        counts[0] > 500,
        "the drawn cube covers {} pixels",
        counts[0]
    );
    assert_eq!(counts[1..], [0, 0, 0], "only the drawn cube's colour shows");
    let near = around(&shot, 0);
    assert!(
        near * 10 >= counts[0] * 9,
        "{near} of {} green pixels around Drawn",
        counts[0]
    );
    // At 0.75 s its m_IsActive is 1: Hidden shows too, where its joint projects.
    let Some((counts, shot)) = cubes_at("0.75") else {
        return;
    };
    assert!(counts[0] > 500 && counts[1] > 500, "{counts:?}");
    assert_eq!(
        counts[2..],
        [0, 0],
        "the disabled cube and the one under Parent stay hidden"
    );
    let near = around(&shot, 1);
    assert!(
        near * 10 >= counts[1] * 9,
        "{near} of {} red pixels around Hidden",
        counts[1]
    );
}

/// A screenshot of files with no clip to play (only a rig), or with a `--clip` name that
/// names none, ends with an error instead of waiting for a scene that is never built.
#[test]
fn a_screenshot_with_nothing_to_show_fails_instead_of_waiting() {
    if !available("xvfb-run", "--help") {
        eprintln!("SKIP: xvfb-run is missing (.ci/run installs xvfb and mesa-vulkan-drivers)");
        return;
    }
    let path = renderer_fixture::write("noclip", false);
    let dir = path.parent().unwrap().to_path_buf();
    let runtime = dir.join("xdg");
    std::fs::create_dir_all(&runtime).unwrap();
    let output = Command::new("timeout")
        .arg("600")
        .arg("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_clipscope"))
        .arg("view")
        .arg(&path)
        .arg("--screenshot")
        .arg(dir.join("shot.png"))
        .env("XDG_RUNTIME_DIR", &runtime)
        .env("WGPU_BACKEND", "vulkan")
        .output()
        .expect("xvfb-run starts");
    let stderr = String::from_utf8_lossy(&output.stderr).to_string()
        + &String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("nothing to show"), "{stderr}");
    assert!(!dir.join("shot.png").exists());
    std::fs::remove_dir_all(&dir).ok();
}

/// The demo bundle and the renderer fixture (rig `Cubes`) as files in a fresh folder.
fn demo_and_cubes(name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let cubes = renderer_fixture::write(name, true);
    let demo = cubes
        .parent()
        .unwrap()
        .join(clipscope_core::demo::DEMO_FILE_NAME);
    std::fs::write(&demo, clipscope_core::demo::DEMO).unwrap();
    (demo, cubes)
}

/// `view --clip NAME` and `--reference NAME` naming no decoded clip are usage errors listing
/// the clip names there, before any window opens (never a silent fallback to another clip).
#[test]
fn view_clip_naming_nothing_is_an_error_listing_the_clips() {
    let demo = std::env::temp_dir().join(format!("clipscope-clipname-{}", std::process::id()));
    std::fs::create_dir_all(&demo).unwrap();
    let demo = demo.join(clipscope_core::demo::DEMO_FILE_NAME);
    std::fs::write(&demo, clipscope_core::demo::DEMO).unwrap();
    let ws = common::open(std::slice::from_ref(&demo));
    let first = ws.clips[0].name.clone();
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_clipscope"))
            .arg("view")
            .arg(&demo)
            .args(extra)
            .output()
            .expect("runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (code, stderr) = run(&["--clip", "Nope"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("--clip: no decoded clip is named \"Nope\""),
        "{stderr}"
    );
    for clip in &ws.clips {
        assert!(
            stderr.contains(&clip.name),
            "{} not listed: {stderr}",
            clip.name
        );
    }
    // The demo has each clip once: pinning the shown one as its own reference names nothing.
    let (code, stderr) = run(&["--clip", &first, "--reference", &first]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("--reference: no decoded clip other than the shown one"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(demo.parent().expect("the demo's folder"));
}

/// `view --rig NAME` names a rig as `pose --rig NAME` does: a name (or path id) no rig has
/// is a usage error listing the rigs there, before any window opens.
#[test]
fn view_rig_naming_nothing_is_an_error_listing_the_rigs() {
    let (demo, cubes) = demo_and_cubes("rigname");
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_clipscope"))
            .arg("view")
            .arg(&demo)
            .arg(&cubes)
            .args(extra)
            .output()
            .expect("runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let demo_rig = clipscope_core::Workspace::open_bytes(
        Path::new(clipscope_core::demo::DEMO_FILE_NAME),
        clipscope_core::demo::DEMO.to_vec(),
        &clipscope_core::OpenOptions::default(),
    )
    .rigs[0]
        .name
        .clone();
    let (code, stderr) = run(&["--rig", "bandit"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("no rig named \"bandit\""), "{stderr}");
    assert!(stderr.contains("rigs there:"), "{stderr}");
    assert!(stderr.contains(&format!("{demo_rig} (path id")), "{stderr}");
    assert!(stderr.contains("Cubes (path id"), "{stderr}");
    let (code, stderr) = run(&["--rig", "Cubes", "--rig-path-id", "987654321"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("with path id 987654321"), "{stderr}");
    std::fs::remove_dir_all(demo.parent().unwrap()).ok();
}

/// `view --rig Cubes` plays a demo clip on the rig named, not on the demo's own rig.
#[test]
fn view_rig_plays_the_clips_on_the_rig_named() {
    let (demo, cubes) = demo_and_cubes("rigpick");
    let ws = clipscope_core::Workspace::open_bytes(
        Path::new(clipscope_core::demo::DEMO_FILE_NAME),
        clipscope_core::demo::DEMO.to_vec(),
        &clipscope_core::OpenOptions::default(),
    );
    let clip = ws.clips[0].name.clone();
    let joint_names = |shot: &Shot| {
        let mut names: Vec<String> = shot
            .joints
            .iter()
            .map(|j| j["name"].as_str().unwrap().to_string())
            .collect();
        names.sort();
        names
    };
    let base = [
        demo.as_os_str(),
        cubes.as_os_str(),
        "--clip".as_ref(),
        clip.as_ref(),
    ];
    let mut named = base.to_vec();
    named.extend(["--rig", "Cubes"].map(std::ffi::OsStr::new));
    let shots = (shoot("rigauto", &base), shoot("rignamed", &named));
    std::fs::remove_dir_all(demo.parent().unwrap()).ok();
    let (Some(auto), Some(shot)) = shots else {
        return;
    };
    assert_eq!(auto.sidecar["rig"], ws.rigs[0].name.as_str());
    assert_eq!(shot.sidecar["rig"], "Cubes");
    assert!(joint_names(&shot).contains(&"Drawn".to_string()));
    assert_ne!(joint_names(&shot), joint_names(&auto));
}

use clipscope_authoring::fixtures::framing as framing_fixture;

/// The 3D view's rectangle in the shot: (min x, min y, max x, max y).
fn view_rect(shot: &Shot) -> [f64; 4] {
    let v = shot.sidecar["view"].as_array().unwrap();
    std::array::from_fn(|i| v[i].as_f64().unwrap())
}

/// The pixel position of the joint named `name`.
fn joint_at(shot: &Shot, name: &str) -> (f64, f64) {
    let j = shot
        .joints
        .iter()
        .find(|j| j["name"] == name)
        .unwrap_or_else(|| panic!("no joint {name}"));
    (j["x"].as_f64().unwrap(), j["y"].as_f64().unwrap())
}

/// The share of the 3D view's height the `body` joints' screen box covers, after checking
/// that every one of them lies in the view and that none of `far` does.
fn body_share(shot: &Shot, body: &[String], far: &[&str]) -> f64 {
    let [x0, y0, x1, y1] = view_rect(shot);
    let inside = |(x, y): (f64, f64)| (x0..=x1).contains(&x) && (y0..=y1).contains(&y);
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for name in body {
        let at = joint_at(shot, name);
        assert!(
            inside(at),
            "{name} at {at:?} is outside the view {x0}..{x1}, {y0}..{y1}"
        );
        (lo, hi) = (lo.min(at.1), hi.max(at.1));
    }
    for name in far {
        let at = joint_at(shot, name);
        assert!(
            !inside(at),
            "{name}, parked far away, projects into the view at {at:?}"
        );
    }
    let share = (hi - lo) / (y1 - y0);
    eprintln!("the body spans {lo:.0}..{hi:.0} of the view's {y0:.0}..{y1:.0}: {share:.2}");
    share
}

/// A generic character with a weapon socket parked 30 km away (carrying a cube) and one the
/// clip parks 1 km away, under a rotated, scaled Armature: its 2 m body fills the view,
/// seen from its front (its left hand on the screen's right), the sockets out of it.
#[test]
fn a_generic_body_with_weapons_parked_far_away_fills_the_view_from_its_front() {
    let path = framing_fixture::write("shot");
    let args = [
        path.as_os_str(),
        "--clip".as_ref(),
        framing_fixture::CLIP.as_ref(),
        "--at".as_ref(),
        "0.5".as_ref(),
    ];
    let shot = shoot("parked", &args);
    std::fs::remove_dir_all(path.parent().unwrap()).ok();
    let Some(shot) = shot else { return };
    let body: Vec<String> = framing_fixture::BODY
        .iter()
        .map(|b| b.0.to_string())
        .collect();
    let share = body_share(&shot, &body, &["WeaponParked30km", "WeaponHand"]);
    assert!(
        share >= 0.4,
        "the body covers {share:.2} of the view's height"
    );
    let (left, right) = (joint_at(&shot, "LeftHand"), joint_at(&shot, "RightHand"));
    assert!(
        left.0 > right.0,
        "seen from behind: left hand {left:?}, right {right:?}"
    );
}

/// The same on a humanoid rig (morbman's avatar under a rotated, scaled Armature, weapon
/// sockets parked 1 km and 30 km away), playing Floss: its human bones fill the view,
/// seen from the front.
#[test]
fn a_humanoid_body_with_weapons_parked_far_away_fills_the_view_from_its_front() {
    use avatar_fixtures::{Case, PARKED, fixture};
    use clipscope_core::avatar::HumanBone;
    let (Some(m), Some(emotes)) = (
        humanoid_fixture::morbman(),
        common::data("binary/wetboys_plateupemotesapi/moisture_animationreplacements"),
    ) else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("clipscope-parked-h-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let parked = dir.join("parked.bundle");
    std::fs::write(&parked, fixture(Case::Parked, &m.avatar, &m.skeleton).bytes).unwrap();
    let ws = common::open(std::slice::from_ref(&parked));
    let rig = &ws.rigs[0];
    let humanoid = rig.humanoid.as_ref().expect("the fixture is humanoid");
    let name = |j: usize| rig.skeleton.joints[j].name.clone();
    let body: Vec<String> = (0..rig.skeleton.joints.len())
        .filter(|&j| humanoid.joint_bone(j).is_some())
        .map(name)
        .collect();
    let bone = |b| name(humanoid.bone_joint(b).unwrap());
    let args = ["--clip", "Floss", "--at", "0.0"].map(std::ffi::OsStr::new);
    let mut all = vec![parked.as_os_str(), emotes.as_os_str()];
    all.extend(args);
    let shot = shoot("parked-humanoid", &all);
    std::fs::remove_dir_all(&dir).ok();
    let Some(shot) = shot else { return };
    let far: Vec<&str> = PARKED.iter().map(|p| p.0).collect();
    let share = body_share(&shot, &body, &far);
    assert!(
        share >= 0.4,
        "the body covers {share:.2} of the view's height"
    );
    // The hips, which a dance does not cross: the left one on the screen's right.
    let left = joint_at(&shot, &bone(HumanBone::LeftUpperLeg));
    let right = joint_at(&shot, &bone(HumanBone::RightUpperLeg));
    assert!(
        left.0 > right.0,
        "seen from behind: left hip {left:?}, right {right:?}"
    );
}

use clipscope_authoring::fixtures::mirror as mirror_fixture;

/// A mirrored humanoid clip plays mirrored in the viewer: on morbman, every human bone of
/// `Wave Mirrored` is drawn where its other side's bone of `Wave` is drawn, mirrored about
/// the body's plane (x = 0 of the rig's space, the root at the origin).
#[test]
fn the_viewer_plays_a_mirrored_clip_as_the_mirror_image_of_its_twin() {
    use clipscope_core::avatar::HumanBone;
    use clipscope_core::humanoid::body::mass_parts;
    let Some(morbman) = common::data("binary/wetboys_plateupemotesapi/morbman") else {
        return;
    };
    let wave = mirror_fixture::fixture("shot");
    let shot_of = |clip: &str, name: &str| {
        let args = [
            morbman.as_os_str(),
            wave.as_os_str(),
            "--clip".as_ref(),
            clip.as_ref(),
            "--at".as_ref(),
            "0.5".as_ref(),
        ];
        shoot(name, &args)
    };
    let shots = (
        shot_of("Wave", "wave"),
        shot_of("Wave Mirrored", "mirrored"),
    );
    std::fs::remove_dir_all(wave.parent().unwrap()).ok();
    let (Some(twin), Some(mirrored)) = shots else {
        return;
    };
    let ws = common::open(std::slice::from_ref(&morbman));
    let rig = ws.rigs.iter().find(|r| r.name == "morbman").unwrap();
    let humanoid = rig.humanoid.as_ref().unwrap();
    // Positions in the rig root's frame (where the viewer stands it, at its rest transform).
    let root = clipscope_bevy::rest_transform(&rig.skeleton.joints[0])
        .compute_affine()
        .inverse();
    let world = |shot: &Shot, joint: usize| {
        let name = &rig.skeleton.joints[joint].name;
        let j = shot
            .joints
            .iter()
            .find(|j| j["name"] == name.as_str())
            .unwrap();
        let w: Vec<f32> = j["world"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap() as f32)
            .collect();
        root.transform_point3(Vec3::from_slice(&w))
    };
    // Unity's centre of mass is not mirror-symmetric (its left forearm centre is
    // mid(LeftUpperArm, LeftHand), `humanoid::body::mass_parts`), so each pose stands
    // w/2 × (LeftUpperArm − LeftLowerArm) off where a symmetric table would put it (w the
    // forearm's mass fraction). Undone on both shots, they are mirror images.
    let avatar = ws
        .avatars
        .iter()
        .find_map(|a| a.data.clone().filter(|d| d.is_human()))
        .expect("morbman's avatar");
    let total: f64 = mass_parts(&avatar).iter().map(|p| p.mass).sum();
    let w = (f64::from(avatar.bone_mass(HumanBone::LeftLowerArm)) / total) as f32;
    let offset = |shot: &Shot| {
        let at = |b: HumanBone| world(shot, humanoid.bone_joint(b).expect("mapped"));
        (at(HumanBone::LeftUpperArm) - at(HumanBone::LeftLowerArm)) * (w / 2.0)
    };
    let (dm, dt) = (offset(&mirrored), offset(&twin));
    let (mut worst, mut placed) = (0.0f32, 0.0f32);
    let mut bones = 0;
    for bone in HumanBone::all() {
        let (Some(a), Some(b)) = (
            humanoid.bone_joint(bone),
            humanoid.bone_joint(bone.mirror()),
        ) else {
            continue;
        };
        let (p, q) = (world(&mirrored, a), world(&twin, b));
        placed = placed.max(p.distance(Vec3::new(-q.x, q.y, q.z)));
        let (p, q) = (p + dm, q + dt);
        worst = worst.max(p.distance(Vec3::new(-q.x, q.y, q.z)));
        bones += 1;
    }
    eprintln!(
        "{bones} human bones; the largest distance from the mirror image: {worst} m with the \
         centre-of-mass asymmetry undone, {placed} m as drawn"
    );
    assert!(bones >= 19);
    assert!(
        worst < 1e-4,
        "a bone is drawn {worst} m from its mirror image"
    );
    // As drawn, no more than the two offsets: w × upper arm = 3.9 mm on morbman.
    assert!(placed < 3.9e-3, "{placed}");
}

/// The play range's marker green (`ui/timeline.rs`), within a little anti-aliasing.
fn is_range_colour(p: &[u8]) -> bool {
    let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).abs();
    d(p[0], 80) + d(p[1], 220) + d(p[2], 120) <= 30
}

/// `view copy.bundle --clip TestClip --range 0.25..0.75`: the looping clip plays inside its
/// markers, wrapping at the out marker back to the in marker (the clip times the playhead
/// showed on each frame before the shot), and the timeline draws the markers.
#[test]
fn the_play_range_loops_inside_its_markers() {
    let Some(bundle) = common::data("binary/lessscarymannequins/copy.bundle") else {
        return;
    };
    let args = [
        bundle.as_os_str(),
        "--clip".as_ref(),
        "TestClip".as_ref(),
        "--range".as_ref(),
        "0.25..0.75".as_ref(),
        "--no-mesh".as_ref(),
    ];
    let Some(shot) = shoot("range", &args) else {
        return;
    };
    let playhead = &shot.sidecar["playhead"];
    let range: Vec<f64> = serde_json::from_value(playhead["range"].clone()).unwrap();
    assert_eq!(range, [0.25, 0.75]);
    let times: Vec<f64> = serde_json::from_value(playhead["times"].clone()).unwrap();
    assert!(times.len() >= 100, "{} frames traced", times.len());
    assert!(
        times.iter().all(|t| (0.25..=0.75).contains(t)),
        "a time outside the range: {times:?}"
    );
    // It plays (times move forward) and wraps at the out marker at least once.
    let forward = times.windows(2).filter(|w| w[1] > w[0]).count();
    let wraps = times.windows(2).filter(|w| w[1] < w[0]).count();
    assert!(forward * 2 >= times.len(), "{times:?}");
    assert!(wraps >= 1, "never wrapped: {times:?}");
    // Markers in the timeline: two green brackets, none without a range.
    let green = shot.count(is_range_colour);
    let bare = shot_green_without_range();
    assert!(green >= 30, "{green} marker pixels");
    assert!(
        bare.is_none_or(|b| b < green / 4),
        "{bare:?} without a range"
    );
}

/// The marker-green pixels of the shot without a range (`None` without data or Xvfb).
fn shot_green_without_range() -> Option<usize> {
    shot(true).map(|s| s.count(is_range_colour))
}

/// A JSON `[x, y, z]` as a vector.
fn vec3(v: &serde_json::Value) -> Vec3 {
    let a: Vec<f32> = serde_json::from_value(v.clone()).unwrap();
    Vec3::from_slice(&a)
}

/// `view morbman emotes --clip "Default Dance" --at 1.0 --onion 2 --onion-step 6 --path
/// Hand.R`: the onion poses (skeletons, and translucent copies of the mesh) are the clip's
/// poses 6 and 12 frames either side of 1 s, and the
/// motion path is Hand.R's position at every frame, as the Bevy side poses them
/// (`humanoid_posed_positions`, composed apart from the viewer's core poser).
#[test]
fn onion_skins_and_the_motion_path_are_the_clips_poses() {
    let Some(dance) = Dance::open() else {
        return;
    };
    let posed = |t: f32| dance.posed(t);
    let mut args = dance.files();
    args.extend(
        [
            "--clip",
            "Default Dance",
            "--at",
            "1.0",
            "--onion",
            "2",
            "--onion-step",
            "6",
            "--path",
            "Hand.R",
        ]
        .map(std::ffi::OsStr::new),
    );
    let Some(shot) = shoot("onion", &args) else {
        return;
    };
    let onion = shot.sidecar["onion"].as_array().unwrap();
    let mut times: Vec<f32> = onion
        .iter()
        .map(|o| o["time"].as_f64().unwrap() as f32)
        .collect();
    times.sort_by(f32::total_cmp);
    let want = [0.6, 0.8, 1.2, 1.4];
    for (t, w) in times.iter().zip(want) {
        assert!((t - w).abs() < 1e-5, "onion times {times:?}");
    }
    assert_eq!(times.len(), 4);
    // Every joint of a drawn pose where the clip puts it at that pose's time.
    let assert_posed = |what: &str, drawn: &serde_json::Value| {
        let t = drawn["time"].as_f64().unwrap() as f32;
        let joints = drawn["joints"].as_array().unwrap();
        let expected = posed(t);
        assert_eq!(joints.len(), expected.len());
        for (j, (got, want)) in joints.iter().zip(&expected).enumerate() {
            let got = vec3(got);
            assert!(
                got.distance(*want) < 1e-3,
                "{what} at {t}, joint {}: {got} against {want}",
                dance.rig().skeleton.joints[j].name
            );
        }
        expected
    };
    let mut moved = 0.0f32;
    for o in onion {
        let expected = assert_posed("onion", o);
        moved = moved.max(expected[24].distance(posed(1.0)[24]));
    }
    assert!(
        moved > 0.05,
        "the onion poses differ from the shown one by {moved} m"
    );
    // Over the mesh, each onion pose is also a translucent copy of the character, its
    // joints where the clip puts them at that time; the copies' joints are not the rig's.
    let copies = shot.sidecar["onion_meshes"].as_array().unwrap();
    assert_eq!(copies.len(), 4, "a mesh copy per onion pose");
    for (copy, w) in copies.iter().zip(want) {
        let t = copy["time"].as_f64().unwrap() as f32;
        assert!((t - w).abs() < 1e-5, "copy at {t}, not {w}");
        assert_posed("mesh copy", copy);
    }
    assert_eq!(shot.joints.len(), dance.rig().skeleton.joints.len());
    // The past copies tint the view red by the thousand pixels (the past skeletons alone
    // are thin lines).
    let [x0, y0, x1, y1] = view_rect(&shot).map(|v| v as i64);
    let red = (y0..y1)
        .flat_map(|y| (x0..x1).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let p = shot.pixel(x, y);
            let (r, g, b) = (p[0] as i32, p[1] as i32, p[2] as i32);
            r > g + 60 && r > b + 60
        })
        .count();
    assert!(red > 6000, "{red} red pixels");

    let hand = dance
        .rig()
        .skeleton
        .joints
        .iter()
        .position(|j| j.name == "Hand.R")
        .unwrap();
    let path = &shot.sidecar["path"];
    assert_eq!(path["joint"].as_u64(), Some(hand as u64));
    let points = path["points"].as_array().unwrap();
    // Every frame of the 6.8 s clip at 30 Hz.
    assert_eq!(points.len(), 205);
    for p in points {
        let t = p["time"].as_f64().unwrap() as f32;
        let got = vec3(&p["world"]);
        let want = posed(t)[hand];
        assert!(
            got.distance(want) < 1e-3,
            "path at {t}: {got} against {want}"
        );
    }
    // A humanoid hand has no curves of its own: the path marks the keys of the curves
    // plotted (the clip's first track, as the timeline shows them), where the hand is then.
    let clip = common::clip(&dance.ws, "Default Dance");
    let want = clipscope_core::timeline::key_marks(clip, &clip.tracks[0].curves);
    let keys = path["keys"].as_array().unwrap();
    assert!(!want.is_empty());
    assert_eq!(keys.len(), want.len());
    for (k, t) in keys.iter().zip(want) {
        assert_eq!(k["time"].as_f64().unwrap() as f32, t);
        let (got, want) = (vec3(&k["world"]), posed(t)[hand]);
        assert!(
            got.distance(want) < 1e-3,
            "key at {t}: {got} against {want}"
        );
    }
}

/// `view morbman emotes replacements --clip "Default Dance" --reference Floss --at 1.0`: the
/// white ghost is Floss posed on the same rig at the same clip time (mapped by Floss's own
/// wrap), and the joints listed as posed apart most are the largest of those distances.
#[test]
fn the_reference_ghost_is_the_reference_clips_pose() {
    use clipscope_bevy::humanoid_posed_positions;
    use clipscope_core::humanoid::PoseOptions;
    let (Some(morbman), Some(emotes), Some(replacements)) = (
        common::data("binary/wetboys_plateupemotesapi/morbman"),
        common::data("binary/wetboys_plateupemotesapi/customemotespackage"),
        common::data("binary/wetboys_plateupemotesapi/moisture_animationreplacements"),
    ) else {
        return;
    };
    let ws = common::open(&[morbman.clone(), emotes.clone(), replacements.clone()]);
    let rig = ws.rigs.iter().find(|r| r.humanoid.is_some()).unwrap();
    let humanoid = rig.humanoid.as_ref().unwrap();
    let posed = |name: &str, t: f32| {
        let clip = common::clip(&ws, name);
        humanoid_posed_positions(humanoid, &rig.skeleton, clip, t, &PoseOptions::default())
    };
    let mut args = vec![
        morbman.as_os_str(),
        emotes.as_os_str(),
        replacements.as_os_str(),
    ];
    args.extend(
        [
            "--clip",
            "Default Dance",
            "--reference",
            "Floss",
            "--at",
            "1.0",
        ]
        .map(std::ffi::OsStr::new),
    );
    let Some(shot) = shoot("reference-ghost", &args) else {
        return;
    };
    let ghost = &shot.sidecar["reference_pose"];
    let t = ghost["time"].as_f64().unwrap() as f32;
    // Floss is longer than a second and loops: clip time 1.0 is its own 1.0.
    assert!((t - 1.0).abs() < 1e-4, "reference time {t}");
    let joints = ghost["joints"].as_array().unwrap();
    let theirs = posed("Floss", t);
    let ours = posed("Default Dance", 1.0);
    assert_eq!(joints.len(), theirs.len());
    for (j, (got, want)) in joints.iter().zip(&theirs).enumerate() {
        let got = vec3(got);
        assert!(
            got.distance(*want) < 1e-3,
            "ghost joint {}: {got} against {want}",
            rig.skeleton.joints[j].name
        );
    }
    let mut apart: Vec<f32> = ours
        .iter()
        .zip(&theirs)
        .map(|(a, b)| a.distance(*b))
        .collect();
    apart.sort_by(|a, b| b.total_cmp(a));
    let worst = ghost["worst"].as_array().unwrap();
    assert_eq!(worst.len(), 5);
    for (w, want) in worst.iter().zip(&apart) {
        let got = w["distance"].as_f64().unwrap() as f32;
        assert!(
            (got - want).abs() < 1e-3,
            "worst {worst:?} against {apart:?}"
        );
        let j = w["joint"].as_u64().unwrap() as usize;
        assert!((ours[j].distance(theirs[j]) - got).abs() < 1e-3);
    }
    assert!(apart[0] > 0.1, "the two dances differ by {} m", apart[0]);
    // Over the mesh, without --joints, the joints get no markers: the bones alone.
    let visible = shot.visible();
    let hits = shot.hits(&visible);
    assert!(
        hits * 5 < visible.len(),
        "joint colour at {hits} of {} joints over the mesh",
        visible.len()
    );
}

/// `view ../shared/data` (every shared file: 2D games, props, two humanoid avatars) opens on
/// what a user would pick first: the skinned character most clips play on (morbman, with
/// its four emotes), one of its looping clips, posed on it (the rig `check` picks, not the
/// first rig of the folder).
#[test]
fn a_folder_opens_on_its_skinned_character_and_a_looping_clip() {
    let Some(root) = common::data("") else {
        return;
    };
    let Some(shot) = shoot(
        "folder",
        &[root.as_os_str(), "--at".as_ref(), "1.0".as_ref()],
    ) else {
        return;
    };
    assert_eq!(shot.sidecar["rig"], "morbman", "{}", shot.sidecar["rig"]);
    let name = shot.sidecar["clip"]["name"].as_str().unwrap().to_string();
    let ws = common::open(&[root]);
    let entry = ws.clips.iter().find(|c| c.name == name).unwrap();
    let clip = entry.data.as_ref().unwrap();
    assert_eq!(
        clip.wrap_mode(),
        clipscope_core::curve::WrapMode::Loop,
        "{name}"
    );
    let (rig, why) = clipscope_core::check::pick_rig(&ws.rigs, entry.at, clip).unwrap();
    assert_eq!(ws.rigs[rig].name, "morbman", "{name}: {why:?}");
    // Posed on the character: most of its joints land in the view.
    assert!(
        shot.visible().len() >= 20,
        "{} joints in view",
        shot.visible().len()
    );
}

/// morbman and its emotes (the shared humanoid character and its clips), opened, and the
/// clip "Default Dance" posed on it as the Bevy side poses it.
struct Dance {
    files: [std::path::PathBuf; 2],
    ws: clipscope_core::Workspace,
}

impl Dance {
    fn open() -> Option<Dance> {
        let files = [
            common::data("binary/wetboys_plateupemotesapi/morbman")?,
            common::data("binary/wetboys_plateupemotesapi/customemotespackage")?,
        ];
        let ws = common::open(&files);
        Some(Dance { files, ws })
    }

    fn files(&self) -> Vec<&std::ffi::OsStr> {
        self.files.iter().map(|f| f.as_os_str()).collect()
    }

    fn rig(&self) -> &clipscope_core::workspace::RigEntry {
        self.ws.rigs.iter().find(|r| r.humanoid.is_some()).unwrap()
    }

    fn humanoid(&self) -> &clipscope_core::humanoid::HumanoidRig {
        self.rig().humanoid.as_ref().unwrap()
    }

    /// Every joint's world position at `t`, root motion on.
    fn posed(&self, t: f32) -> Vec<Vec3> {
        let clip = common::clip(&self.ws, "Default Dance");
        let options = clipscope_core::humanoid::PoseOptions::default();
        let rig = self.rig();
        clipscope_bevy::humanoid_posed_positions(self.humanoid(), &rig.skeleton, clip, t, &options)
    }
}

/// `view morbman emotes --clip "Default Dance" --at 1.0 --trajectory`: a marker under each
/// foot, bright where the foot is down (within 2% of the body's height of the lowest it goes
/// in the clip), and the Hips' trajectory on the ground at every frame, each with the way
/// the body faces; all as the Bevy side poses the clip.
#[test]
fn the_feet_markers_and_the_trajectory_are_the_clips_poses() {
    use clipscope_core::avatar::HumanBone;
    let Some(dance) = Dance::open() else {
        return;
    };
    let humanoid = dance.humanoid();
    let posed = |t: f32| dance.posed(t);
    let mut args = dance.files();
    args.extend(
        [
            "--clip",
            "Default Dance",
            "--at",
            "1.0",
            "--trajectory",
            "--end-paths",
        ]
        .map(std::ffi::OsStr::new),
    );
    let Some(shot) = shoot("ground", &args) else {
        return;
    };
    let now = posed(1.0);
    let (lo, hi) = now.iter().fold((f32::MAX, f32::MIN), |(lo, hi), p| {
        (lo.min(p.y), hi.max(p.y))
    });
    let height = hi - lo;
    let feet = shot.sidecar["feet"].as_array().unwrap();
    let want: Vec<usize> = [HumanBone::LeftFoot, HumanBone::RightFoot]
        .iter()
        .filter_map(|&b| humanoid.bone_joint(b))
        .collect();
    assert_eq!(feet.len(), want.len(), "{feet:?}");
    let frames: Vec<Vec<Vec3>> = (0..=204).map(|f| posed(f as f32 / 30.0)).collect();
    for (foot, &j) in feet.iter().zip(&want) {
        assert_eq!(foot["joint"].as_u64(), Some(j as u64));
        let ground = vec3(&foot["ground"]);
        let p = now[j];
        assert!(
            ground.distance(Vec3::new(p.x, 0.0, p.z)) < 1e-3,
            "{ground} under {p}"
        );
        let lowest = frames.iter().map(|f| f[j].y).fold(f32::MAX, f32::min);
        let above = p.y - lowest;
        if (above - 0.02 * height).abs() > 1e-3 {
            assert_eq!(
                foot["touching"].as_bool(),
                Some(above < 0.02 * height),
                "joint {j}: {above} m above its lowest, body {height} m"
            );
        }
    }
    let hips = humanoid.bone_joint(HumanBone::Hips).unwrap();
    let trajectory = &shot.sidecar["trajectory"];
    assert_eq!(trajectory["joint"].as_u64(), Some(hips as u64));
    let points = trajectory["points"].as_array().unwrap();
    assert_eq!(points.len(), 205);
    for p in points {
        let t = p["time"].as_f64().unwrap() as f32;
        let h = posed(t)[hips];
        let ground = vec3(&p["ground"]);
        assert!(
            ground.distance(Vec3::new(h.x, 0.0, h.z)) < 1e-3,
            "trajectory at {t}: {ground} under {h}"
        );
        let facing = vec3(&p["facing"]);
        assert!(
            (facing.length() - 1.0).abs() < 1e-3 && facing.y == 0.0,
            "{facing}"
        );
    }
    // --end-paths: the head's, hands' and feet's paths at every frame.
    let ends: Vec<usize> = [
        HumanBone::Head,
        HumanBone::LeftHand,
        HumanBone::RightHand,
        HumanBone::LeftFoot,
        HumanBone::RightFoot,
    ]
    .iter()
    .filter_map(|&b| humanoid.bone_joint(b))
    .collect();
    let paths = shot.sidecar["end_paths"].as_array().unwrap();
    let joints: Vec<usize> = paths
        .iter()
        .map(|p| p["joint"].as_u64().unwrap() as usize)
        .collect();
    assert_eq!(joints, ends);
    for path in paths {
        let j = path["joint"].as_u64().unwrap() as usize;
        let points = path["points"].as_array().unwrap();
        assert_eq!(points.len(), 205);
        for p in points {
            let t = p["time"].as_f64().unwrap() as f32;
            let (got, want) = (vec3(&p["world"]), frames[(t * 30.0).round() as usize][j]);
            assert!(
                got.distance(want) < 1e-3,
                "joint {j} at {t}: {got} against {want}"
            );
        }
    }
}

/// `view day65platformer2d --at 0.2`: a 2D rig (a SpriteRenderer on a one-joint rig) is seen
/// from the front, level, framed by its sprite: the sprite (white: its texture's pixels live
/// in a `.resS` the shared data lacks) is a square, centred, filling most of the view's height.
#[test]
fn a_sprite_rig_is_framed_by_its_sprite_from_the_front() {
    let Some(player) = common::data("binary/day65platformer2d") else {
        return;
    };
    let Some(shot) = shoot(
        "sprite",
        &[player.as_os_str(), "--at".as_ref(), "0.2".as_ref()],
    ) else {
        return;
    };
    assert_eq!(shot.sidecar["rig"], "PlayerModel");
    let view: Vec<i64> = shot.sidecar["view"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap() as i64)
        .collect();
    let white = |p: &[u8]| p.iter().all(|&c| c > 240);
    let (mut lo, mut hi) = ((i64::MAX, i64::MAX), (i64::MIN, i64::MIN));
    for y in view[1]..view[3] {
        for x in view[0]..view[2] {
            if white(shot.pixel(x, y)) {
                lo = (lo.0.min(x), lo.1.min(y));
                hi = (hi.0.max(x), hi.1.max(y));
            }
        }
    }
    let (w, h) = (hi.0 - lo.0 + 1, hi.1 - lo.1 + 1);
    let view_h = view[3] - view[1];
    eprintln!("sprite {lo:?}..{hi:?} in {view:?}");
    assert!(
        h * 10 >= view_h * 7,
        "the sprite is {h} of {view_h} pixels high"
    );
    // From the front, level: a square sprite stays square.
    assert!((w - h).abs() * 20 <= h, "the sprite is {w}x{h}");
    let centre = ((lo.0 + hi.0) / 2, (lo.1 + hi.1) / 2);
    let view_centre = ((view[0] + view[2]) / 2, (view[1] + view[3]) / 2);
    assert!(
        (centre.0 - view_centre.0).abs() * 20 <= view[2] - view[0]
            && (centre.1 - view_centre.1).abs() * 20 <= view_h,
        "the sprite's centre {centre:?}, the view's {view_centre:?}"
    );
}

/// A looping walk (an editor `.anim`): the joint at `path` goes 1 m along +X over its 1 s
/// loop, 1 m up.
fn walk_file(dir: &Path, path: &str) -> std::path::PathBuf {
    use clipscope_authoring::{EditorSettings, KeySpec, LegacyClip, PathCurve, legacy_anim_yaml};
    let slope = [1.0, 0.0, 0.0];
    let keys = vec![
        KeySpec::new(0.0, [0.0, 1.0, 0.0], slope, slope),
        KeySpec::new(1.0, [1.0, 1.0, 0.0], slope, slope),
    ];
    let walk = LegacyClip {
        position: vec![PathCurve::new(path, keys)],
        sample_rate: 30.0,
        wrap_mode: 2,
        ..LegacyClip::new("Walk")
    };
    let settings = EditorSettings {
        loop_time: true,
        ..EditorSettings::default()
    };
    let path = dir.join("Walk.anim");
    std::fs::write(&path, legacy_anim_yaml(&walk, &settings)).unwrap();
    path
}

/// `view Walk.anim ARGS` on the walk of [`walk_file`] whose joint at `path` walks.
fn shoot_walk(name: &str, path: &str, args: &[&str]) -> Option<Shot> {
    let dir = std::env::temp_dir().join(format!("clipscope-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let walk = walk_file(&dir, path);
    let mut all = vec![walk.as_os_str()];
    all.extend(args.iter().map(std::ffi::OsStr::new));
    let shot = shoot(name, &all);
    let _ = std::fs::remove_dir_all(&dir);
    shot
}

/// The walk's trajectory: a point per frame of its 1 s loop, `along` + t metres along X.
fn assert_walk_trajectory(shot: &Shot, along: f32) {
    let points = shot.sidecar["trajectory"]["points"].as_array().unwrap();
    assert_eq!(points.len(), 31, "a point per frame of the 1 s loop");
    for p in points {
        let t = p["time"].as_f64().unwrap() as f32;
        let ground = vec3(&p["ground"]);
        assert!(
            ground.distance(Vec3::new(along + t, 0.0, 0.0)) < 1e-3,
            "trajectory at {t}: {ground}"
        );
    }
}

/// `view Walk.anim --root-motion accumulate --at 2.5 --trajectory --path Hips`: two loops
/// have played, so the walk has gone on from where each loop ended (Hips 2.5 m along, where
/// loop and reset would put it back at 0.5 m), and the trajectory is this loop's, 2 m on;
/// the Hips' path marks its two keys (0 and 1 s) where the Hips is at those times.
#[test]
fn accumulated_root_motion_goes_on_from_where_each_loop_ended() {
    let args = [
        "--root-motion",
        "accumulate",
        "--at",
        "2.5",
        "--trajectory",
        "--path",
        "Hips",
    ];
    let Some(shot) = shoot_walk("accumulate", "Hips", &args) else {
        return;
    };
    let hips = shot
        .joints
        .iter()
        .find(|j| j["name"] == "Hips")
        .expect("the Hips joint is drawn");
    let at = vec3(&hips["world"]);
    assert!(
        at.distance(Vec3::new(2.5, 1.0, 0.0)) < 1e-3,
        "Hips at {at} after two loops and a half"
    );
    assert_walk_trajectory(&shot, 2.0);
    let keys: Vec<(f32, Vec3)> = shot.sidecar["path"]["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| (k["time"].as_f64().unwrap() as f32, vec3(&k["world"])))
        .collect();
    assert_eq!(keys.len(), 2, "{keys:?}");
    for ((t, at), want) in keys.iter().zip([0.0, 1.0]) {
        assert_eq!(*t, want);
        assert!(
            at.distance(Vec3::new(2.0 + want, 1.0, 0.0)) < 1e-3,
            "key at {t}: {at}"
        );
    }
    // The Hips stays in view: the camera has followed it.
    let (x, y) = (hips["x"].as_f64().unwrap(), hips["y"].as_f64().unwrap());
    let view = view_rect(&shot);
    assert!(
        (view[0]..view[2]).contains(&x) && (view[1]..view[3]).contains(&y),
        "Hips at ({x}, {y}), out of the view {view:?}"
    );
}

/// `view Walk.anim --at 0.5 --trajectory --onion 1 --onion-step 6` where the walk moves the
/// rig's root itself (path ""): the trajectory and the onion poses put the root where the
/// clip puts it at their own times, not where it stands now.
#[test]
fn a_clip_moving_the_root_is_drawn_at_each_time() {
    let args = [
        "--at",
        "0.5",
        "--trajectory",
        "--onion",
        "1",
        "--onion-step",
        "6",
    ];
    let Some(shot) = shoot_walk("root-walk", "", &args) else {
        return;
    };
    assert_eq!(shot.sidecar["trajectory"]["joint"].as_u64(), Some(0));
    assert_walk_trajectory(&shot, 0.0);
    let onion = shot.sidecar["onion"].as_array().unwrap();
    assert_eq!(onion.len(), 2);
    for o in onion {
        let t = o["time"].as_f64().unwrap() as f32;
        let root = vec3(&o["joints"][0]);
        assert!(
            root.distance(Vec3::new(t, 1.0, 0.0)) < 1e-3,
            "onion root at {t}: {root}"
        );
    }
}

/// The first look at a dancing character (`view morbman emotes --clip "Default Dance" --at
/// 2.9`, from the front in three-quarter view, framed over the whole dance): its mesh spans
/// 0.80 of the 3D view's height and its human bones 0.41, every one of them in the view. The
/// framing counts points on the mesh, not the corners of its box: those, seen from three
/// quarters, pushed the camera back (0.72 and 0.30 before).
#[test]
fn the_first_look_at_a_dancing_character_fills_most_of_the_view() {
    let Some(dance) = Dance::open() else {
        return;
    };
    let mut args = dance.files();
    args.extend(["--clip", "Default Dance", "--at", "2.9"].map(std::ffi::OsStr::new));
    let Some(shot) = shoot("first-look", &args) else {
        return;
    };
    let [x0, y0, x1, y1] = view_rect(&shot).map(|v| v as i64);
    let rows: Vec<i64> = (y0..y1)
        .filter(|&y| {
            (x0..x1)
                .filter(|&x| is_mesh_colour(shot.pixel(x, y)))
                .count()
                >= 3
        })
        .collect();
    let (top, bottom) = (rows.first().unwrap(), rows.last().unwrap());
    let share = (bottom - top) as f64 / (y1 - y0) as f64;
    assert!(
        share >= 0.76,
        "the mesh spans {share:.3} of the view's height"
    );
    let humanoid = dance.humanoid();
    let skeleton = &dance.rig().skeleton;
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for bone in clipscope_core::avatar::HumanBone::all() {
        let Some(j) = humanoid.bone_joint(bone) else {
            continue;
        };
        let (x, y) = joint_at(&shot, &skeleton.joints[j].name);
        assert!(
            (x0 as f64..x1 as f64).contains(&x) && (y0 as f64..y1 as f64).contains(&y),
            "{bone:?} at ({x}, {y}) outside the view"
        );
        (lo, hi) = (lo.min(y), hi.max(y));
    }
    let bones = (hi - lo) / (y1 - y0) as f64;
    assert!(
        bones >= 0.38,
        "the human bones span {bones:.3} of the view's height"
    );
}
