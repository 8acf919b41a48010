//! The viewer renders a real clip offscreen under Xvfb with software Vulkan, and the image
//! shows the skeleton: joint-coloured pixels where the joints project.
#![cfg(feature = "viewer")]

mod common;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

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

#[test]
fn screenshot_shows_the_skeleton_where_the_joints_project() {
    let Some(bundle) = common::data("binary/lessscarymannequins/copy.bundle") else {
        return;
    };
    if !available("xvfb-run", "--help") {
        eprintln!("SKIP: xvfb-run is missing (.ci/run installs xvfb and mesa-vulkan-drivers)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("clipscope-shot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png_path = dir.join("shot.png");
    let runtime = dir.join("xdg");
    std::fs::create_dir_all(&runtime).unwrap();
    let started = Instant::now();
    let mut child = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_clipscope"))
        .arg("view")
        .arg(&bundle)
        .args(["--clip", "TestClip", "--at", "0.5", "--screenshot"])
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
    let (width, height, rgb) = read_png(&png_path);
    assert_eq!((width, height), (1280, 800));
    let sidecar: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("shot.png.joints.json")).unwrap())
            .unwrap();
    let joints = sidecar["joints"].as_array().unwrap();
    assert_eq!(joints.len(), 29);
    // Only joints in the 3D view between the panels can be seen.
    let visible: Vec<(i64, i64)> = joints
        .iter()
        .map(|j| {
            (
                j["x"].as_f64().unwrap() as i64,
                j["y"].as_f64().unwrap() as i64,
            )
        })
        .filter(|&(x, y)| (300..960).contains(&x) && (60..520).contains(&y))
        .collect();
    assert!(
        visible.len() >= 10,
        "only {} joints fall in the 3D view: {joints:?}",
        visible.len()
    );
    let pixel = |x: i64, y: i64| {
        let i = ((y.clamp(0, height as i64 - 1) * width as i64 + x.clamp(0, width as i64 - 1)) * 3)
            as usize;
        &rgb[i..i + 3]
    };
    let hits = visible
        .iter()
        .filter(|&&(x, y)| {
            (-4..=4).any(|dy| (-4..=4).any(|dx| is_joint_colour(pixel(x + dx, y + dy))))
        })
        .count();
    assert!(
        hits * 10 >= visible.len() * 8,
        "joint colour found at {hits} of {} projected joints",
        visible.len()
    );
    // And the background is not joint-coloured: the image is not one flat colour.
    assert!(!is_joint_colour(pixel(640, 790)) || !is_joint_colour(pixel(5, 5)));
    std::fs::remove_dir_all(&dir).ok();
}
