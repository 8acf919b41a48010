//! Comparing clipscope's JSON with the independent reference in
//! `../shared/data/animator-reference/` (its README's tolerances): shared by the reference
//! test and the controller writer's test.

use serde_json::Value;

/// Keys only clipscope prints (the reference has no IK Pass or Foot IK).
const OURS_ONLY: &[&str] = &["problems", "reference", "ik_pass", "foot_ik"];

/// The tolerance of a number under `key` (README): weights and progress 1e-5, normalized and
/// clip times 1e-4; every other number 1e-5 relative to its size (f32 values printed as f64).
pub fn tolerance(key: &str, value: f64) -> f64 {
    match key {
        "weight" | "tree_weight" | "progress" => 1e-5,
        "normalized_time" | "phase" | "clip_time" => 1e-4,
        _ => 1e-5 * value.abs().max(1.0),
    }
}

/// Compares `ours` with `expected` under `path`, pushing every difference.
pub fn compare(
    path: &str,
    key: &str,
    expected: &Value,
    ours: &Value,
    skip: &[&str],
    out: &mut Vec<String>,
) {
    match (expected, ours) {
        (Value::Object(e), Value::Object(o)) => compare_objects(path, e, o, skip, out),
        (Value::Array(e), Value::Array(o)) => {
            if e.len() != o.len() {
                out.push(format!(
                    "{path}: {} entries, clipscope {}",
                    e.len(),
                    o.len()
                ));
            }
            for (i, (a, b)) in e.iter().zip(o).enumerate() {
                compare(&format!("{path}[{i}]"), key, a, b, skip, out);
            }
        }
        (Value::Number(a), Value::Number(b)) => {
            if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
                if x != y {
                    out.push(format!("{path}: {x}, clipscope {y}"));
                }
                return;
            }
            let (x, y) = (
                a.as_f64().unwrap_or(f64::NAN),
                b.as_f64().unwrap_or(f64::NAN),
            );
            // NaN on either side is a mismatch too.
            let within = (x - y).abs() <= tolerance(key, x);
            if !within {
                out.push(format!(
                    "{path}: {x}, clipscope {y} (off by {:e})",
                    (x - y).abs()
                ));
            }
        }
        (Value::String(e), Value::Object(o)) if key == "destination" => {
            let ours = o.get("path").cloned().unwrap_or(Value::Null);
            compare(path, key, &Value::String(e.clone()), &ours, skip, out);
        }
        (e, o) if e == o => {}
        (e, o) => out.push(format!("{path}: {e}, clipscope {o}")),
    }
}

fn compare_objects(
    path: &str,
    e: &serde_json::Map<String, Value>,
    o: &serde_json::Map<String, Value>,
    skip: &[&str],
    out: &mut Vec<String>,
) {
    let in_transition = e.contains_key("destination");
    // A transition's `name` is not compared; every other `name` is.
    let skipped = |k: &str| skip.contains(&k) || (in_transition && k == "name");
    for (k, v) in e {
        if skipped(k) {
            continue;
        }
        let at = format!("{path}.{k}");
        match o.get(k) {
            Some(ours) => compare(&at, k, v, ours, skip, out),
            None => out.push(format!("{at}: {v}, clipscope has no such field")),
        }
    }
    for (k, v) in o {
        if !e.contains_key(k) && !OURS_ONLY.contains(&k.as_str()) && !skipped(k) {
            out.push(format!("{path}.{k}: not in the reference, clipscope {v}"));
        }
    }
}
