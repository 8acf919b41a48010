//! The `clipscope` binary: output shape, values and exit codes.

use crate::common;

use common::{clipscope, data};
use serde_json::Value;

#[test]
fn sample_prints_exactly_the_documented_object() {
    let Some(path) = data("binary/resetanimator/WebPlayer.unity3d") else {
        return;
    };
    let path = path.to_str().unwrap();
    let (code, out, err) = clipscope(&[
        "sample",
        path,
        "--clip",
        "TestClip",
        "--times",
        "0,0.5,2.5",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    let mut expected = [
        "clip",
        "legacy",
        "start",
        "stop",
        "sample_rate",
        "wrap",
        "times",
        "curves",
        "warnings",
    ];
    expected.sort_unstable();
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, expected);
    assert_eq!(v["clip"], "TestClip");
    assert_eq!(v["legacy"], false);
    // Loop Time is off: the Animator plays the clip once and holds its last frame.
    assert_eq!(v["wrap"], "clamp");
    assert_eq!(v["times"], serde_json::json!([0.0, 0.5, 2.5]));
    let curves = v["curves"].as_array().unwrap();
    assert_eq!(curves.len(), 6);
    let y = &curves[1];
    assert_eq!(
        (
            y["storage"].as_str(),
            y["path"].as_u64(),
            y["type_id"].as_i64(),
            y["attribute"].as_u64(),
            y["component"].as_i64()
        ),
        (Some("streamed"), Some(0), Some(4), Some(1), Some(1))
    );
    let ys: Vec<f64> = y["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    // Position y starts at 5; past the end the clip holds its value at the stop time.
    assert_eq!(ys[0], 5.0);
    assert!(ys[1] < 5.0);
    let stop = v["stop"].as_f64().unwrap().to_string();
    let at = |time: &str, wrap: &str| -> f64 {
        let (code, out, err) = clipscope(&[
            "sample", path, "--clip", "TestClip", "--times", time, "--wrap", wrap,
        ]);
        assert_eq!(code, 0, "{err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        v["curves"][1]["values"][0].as_f64().unwrap()
    };
    let held = at(&stop, "clip");
    assert_ne!(held, 5.0);
    assert_eq!(ys[2], held);
    // An explicit `once` keeps the legacy rule: from the stop on, the start shows.
    assert_eq!(at("2.5", "once"), 5.0);
    assert_eq!(at(&stop, "once"), 5.0);
}

#[test]
fn sample_wrap_modes_map_times_like_unity() {
    let Some(path) = data("binary/duckhunted/WebPlayer.unity3d") else {
        return;
    };
    let path = path.to_str().unwrap();
    // Idle is a ping-pong legacy clip of 1.0833 s.
    let run = |wrap: &str| -> Vec<f64> {
        let (code, out, err) = clipscope(&[
            "sample",
            path,
            "--clip",
            "Idle",
            "--times",
            "0.25,1.9166667,2.4166667",
            "--wrap",
            wrap,
        ]);
        assert_eq!(code, 0, "{err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        v["curves"][0]["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    let own = run("clip");
    let ping = run("pingpong");
    assert_eq!(own, ping, "the clip's own mode is ping-pong");
    // 1.9166667 = 2L - 0.25 mirrors 0.25; 2.4166667 = 2L + 0.25 repeats it.
    assert!(
        (ping[0] - ping[1]).abs() < 1e-5 && (ping[0] - ping[2]).abs() < 1e-5,
        "{ping:?}"
    );
    let clamp = run("clamp");
    assert_eq!(clamp[1], clamp[2], "clamp forever holds the end");
}

#[test]
fn default_times_are_every_frame_then_the_stop() {
    let Some(path) = data("binary/duckhunted/WebPlayer.unity3d") else {
        return;
    };
    let (code, out, _) = clipscope(&["sample", path.to_str().unwrap(), "--clip", "Run"]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    let times: Vec<f64> = v["times"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    let stop = v["stop"].as_f64().unwrap();
    assert_eq!(
        times.len(),
        41,
        "40 frames at 60 Hz in 0.667 s, then the stop"
    );
    assert!((times[1] - 1.0 / 60.0).abs() < 1e-12);
    assert_eq!(*times.last().unwrap(), stop);
}

#[test]
fn list_reports_every_file_in_the_shared_data() {
    let Some(path) = data("binary") else { return };
    let (code, out, err) = clipscope(&["list", path.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let clips = v["clips"].as_array().unwrap();
    assert_eq!(clips.len(), 19);
    assert!(clips.iter().all(|c| c.get("error").is_none()), "{clips:?}");
    let names: Vec<&str> = clips.iter().map(|c| c["name"].as_str().unwrap()).collect();
    for name in [
        "Default Dance",
        "Floss",
        "Dab",
        "nobones",
        "TestClip",
        "Idle",
        "Walk",
        "Fire",
        "Reload",
        "Run",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    assert!(
        v["rigs"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["name"] == "morbman" && r["joints"] == 38)
    );
    let (code, table, _) = clipscope(&["list", path.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(table.contains("Default Dance") && table.contains("Rigs ("));
}

#[test]
fn errors_name_the_file_and_use_the_documented_exit_codes() {
    let dir = std::env::temp_dir().join(format!("clipscope-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let junk = dir.join("junk.bin");
    std::fs::write(&junk, b"hello, this is not a Unity file").unwrap();
    let (code, _, err) = clipscope(&["list", junk.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        err.contains("junk.bin") && err.contains("not a Unity file"),
        "{err}"
    );
    let encrypted = dir.join("enc.bundle");
    let mut bytes = b"UnityFS\0".to_vec();
    bytes.extend(6u32.to_be_bytes());
    bytes.extend(b"5.x.x\0" as &[u8]);
    bytes.extend(b"2019.4.0f1\0" as &[u8]);
    bytes.extend(200i64.to_be_bytes());
    bytes.extend(10u32.to_be_bytes());
    bytes.extend(10u32.to_be_bytes());
    bytes.extend(0x243u32.to_be_bytes());
    bytes.resize(200, 0);
    std::fs::write(&encrypted, &bytes).unwrap();
    let (code, _, err) = clipscope(&["list", encrypted.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        err.contains("enc.bundle") && err.contains("encrypted"),
        "{err}"
    );
    let future = dir.join("future.bundle");
    bytes[8..12].copy_from_slice(&9u32.to_be_bytes());
    std::fs::write(&future, &bytes).unwrap();
    let (code, _, err) = clipscope(&["list", future.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        err.contains("unsupported UnityFS archive version 9"),
        "{err}"
    );
    let (code, _, _) = clipscope(&["list"]);
    assert_eq!(code, 2);
    let (code, _, _) = clipscope(&["sample", junk.to_str().unwrap()]);
    assert_eq!(code, 2, "missing --clip is a usage error");
    std::fs::remove_dir_all(&dir).ok();
}

#[cfg(feature = "viewer")]
#[test]
fn view_fps_wants_seconds_above_zero() {
    for bad in ["0", "-1", "soon", "NaN"] {
        let (code, _, err) = clipscope(&["view", "--fps", bad]);
        assert_eq!(code, 2, "--fps {bad}");
        assert!(err.contains("not a number of seconds above zero"), "{err}");
    }
}

/// A reader that stops early (`clipscope pose FILE ... | head -1`) ends the command quietly:
/// killed by SIGPIPE as other Unix tools are, never a panic about a failed print. The output
/// (a table per time, 2,000 times) is far larger than a pipe's buffer.
#[cfg(unix)]
#[test]
fn output_into_a_closed_pipe_ends_without_a_panic() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};

    let demo =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/core/assets/demo.unity3d");
    let times: Vec<String> = (0..2000)
        .map(|i| format!("{}", f64::from(i) / 1000.0))
        .collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .args([
            "pose",
            demo.to_str().unwrap(),
            "--clip",
            "Walk",
            "--times",
            &times.join(","),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(!first.is_empty());
    // The reader is gone (dropped above); the rest of the output cannot be written.
    let out = child.wait_with_output().expect("ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.signal(), Some(13), "{:?}: {stderr}", out.status);
}
