//! Parameter scripts (`"0:Speed=0.4;1.5:Jump!;2:play Base Layer.Idle@0.5"`) and a scripted
//! run of a controller: actions at time t apply before the update that reaches t.

use super::machine::{Animator, LayerOutput};
use super::model::Controller;
use super::params::Params;

/// Most updates one run makes (bounds the work a huge `--times` entry asks for).
pub const MAX_UPDATES: u64 = 10_000_000;
/// Most frames reported when no times are given.
pub const MAX_FRAMES: usize = 1_000_000;

/// One scripted action.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// `Name=VALUE` (float, int, `true`/`false`).
    Set(String, f64),
    /// `Name!`.
    Trigger(String),
    /// `play LAYER.STATE[@NT]`.
    Play(String, f64),
    /// `crossfade LAYER.STATE SECONDS`.
    Crossfade(String, f64),
}

/// Why a script could not be read or applied.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScriptError {
    #[error("script entry {0:?}: expected SECONDS:ACTION")]
    Entry(String),
    #[error("script entry {0:?}: {1}")]
    Action(String, String),
}

/// Parses `SECONDS:ACTION` entries separated by `;`, sorted by time (stable).
pub fn parse(script: &str) -> Result<Vec<(f64, Action)>, ScriptError> {
    let mut out = Vec::new();
    for entry in script.split(';').map(str::trim).filter(|e| !e.is_empty()) {
        let (time, action) = entry
            .split_once(':')
            .ok_or_else(|| ScriptError::Entry(entry.to_string()))?;
        let time: f64 = time
            .trim()
            .parse()
            .ok()
            .filter(|t: &f64| t.is_finite() && *t >= 0.0)
            .ok_or_else(|| ScriptError::Entry(entry.to_string()))?;
        let bad = |m: &str| ScriptError::Action(entry.to_string(), m.to_string());
        let action = action.trim();
        let parsed = if let Some(rest) = action.strip_prefix("play ") {
            let rest = rest.trim();
            match rest.rsplit_once('@') {
                Some((path, nt)) => Action::Play(
                    path.trim().to_string(),
                    nt.trim()
                        .parse()
                        .map_err(|_| bad("bad normalised time after @"))?,
                ),
                None => Action::Play(rest.to_string(), 0.0),
            }
        } else if let Some(rest) = action.strip_prefix("crossfade ") {
            let (path, secs) = rest
                .trim()
                .rsplit_once(' ')
                .ok_or_else(|| bad("expected crossfade LAYER.STATE SECONDS"))?;
            let secs: f64 = secs.parse().map_err(|_| bad("bad crossfade seconds"))?;
            Action::Crossfade(path.trim().to_string(), secs.max(0.0))
        } else if let Some(name) = action.strip_suffix('!') {
            Action::Trigger(name.trim().to_string())
        } else if let Some((name, value)) = action.split_once('=') {
            let value = match value.trim() {
                "true" => 1.0,
                "false" => 0.0,
                v => v
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| bad("value must be a number, true or false"))?,
            };
            Action::Set(name.trim().to_string(), value)
        } else {
            return Err(bad(
                "expected Name=VALUE, Name!, play LAYER.STATE[@NT] or crossfade LAYER.STATE SECONDS",
            ));
        };
        out.push((time, parsed));
    }
    out.sort_by(|a, b| a.0.total_cmp(&b.0));
    Ok(out)
}

/// Applies a parameter action (not play/crossfade) to parameters.
fn apply_param(params: &mut Params, action: &Action) -> Result<(), String> {
    match action {
        Action::Set(name, v) => params.set(name, *v).map_err(|e| e.to_string()),
        Action::Trigger(name) => params.set_trigger(name).map_err(|e| e.to_string()),
        _ => Ok(()),
    }
}

/// One output frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    pub time: f64,
    pub layers: Vec<LayerOutput>,
}

/// Runs `controller` from its entry states under `script`, updating at `fps`. Frames are
/// taken at `times` (each reached exactly, with a shorter last update when it is not on the
/// update grid) or, when `times` is empty, at every update up to the script's last time
/// plus one second. Actions that fail (unknown parameter or state) become warnings.
pub fn run(
    controller: &Controller,
    script: &[(f64, Action)],
    fps: f64,
    times: &[f64],
) -> (Vec<Frame>, Vec<String>) {
    run_observed(controller, script, fps, times, None)
}

/// What [`run_observed`] reports as it goes.
pub enum Step<'o> {
    /// The output after initialisation and after each update (every update, also the
    /// shorter ones that reach a requested time).
    Update(&'o [LayerOutput]),
    /// A frame was taken (at the state of the last `Update`).
    Frame,
}

/// [`run`], telling `observe` every update's output and every frame taken (pose blending
/// follows every update: a state without Write Defaults blends over the previous pose).
pub fn run_observed(
    controller: &Controller,
    script: &[(f64, Action)],
    fps: f64,
    times: &[f64],
    mut observe: Option<&mut dyn FnMut(Step<'_>)>,
) -> (Vec<Frame>, Vec<String>) {
    let dt = 1.0 / fps.max(1e-3);
    let mut warnings = Vec::new();
    let mut params = Params::new(controller);
    let mut next = 0;
    let mut deferred = Vec::new();
    while next < script.len() && script[next].0 <= 0.0 {
        match &script[next].1 {
            a @ (Action::Set(..) | Action::Trigger(_)) => {
                if let Err(e) = apply_param(&mut params, a) {
                    warnings.push(format!("at 0 s: {e}"));
                }
            }
            other => deferred.push(other.clone()),
        }
        next += 1;
    }
    let mut animator = Animator::with_params(controller, params);
    for a in deferred {
        apply_play(&mut animator, &a, 0.0, &mut warnings);
    }
    if let Some(f) = observe.as_mut() {
        f(Step::Update(&animator.output()));
    }
    let limit = MAX_UPDATES as f64 * dt;
    let targets: Vec<f64> = if times.is_empty() {
        let end = script.last().map_or(0.0, |(t, _)| *t) + 1.0;
        let n = (end / dt).ceil().min(MAX_FRAMES as f64) as usize;
        (0..=n).map(|k| k as f64 * dt).collect()
    } else {
        let mut t = times.to_vec();
        if t.iter()
            .any(|x| !(x.is_finite() && *x >= 0.0 && *x <= limit))
        {
            warnings.push(format!(
                "times outside 0 to {limit} s (at most {MAX_UPDATES} updates) are left out"
            ));
        }
        t.retain(|x| x.is_finite() && *x >= 0.0 && *x <= limit);
        t.sort_by(f64::total_cmp);
        t
    };
    let mut frames = Vec::new();
    let mut now = 0.0;
    let mut k: u64 = 0;
    // Updates on the grid advance by the constant 1/fps, as a game calling
    // `Animator.Update(1/fps)` does: states' times and transitions' progress accumulate the
    // same steps (differences of grid times would differ in the last bits, which moves a
    // boundary met exactly, such as p = 15 x (1/60)/0.25 = 1, by one update).
    let mut on_grid = true;
    for target in targets {
        loop {
            let grid = (k + 1) as f64 * dt;
            let step_to = if grid <= target + 1e-9 { grid } else { target };
            if step_to <= now + 1e-12 {
                break;
            }
            while next < script.len() && script[next].0 <= step_to + 1e-9 {
                let (t, a) = &script[next];
                match a {
                    Action::Set(..) | Action::Trigger(_) => {
                        if let Err(e) = apply_param(&mut animator.params, a) {
                            warnings.push(format!("at {t} s: {e}"));
                        }
                    }
                    _ => apply_play(&mut animator, a, *t, &mut warnings),
                }
                next += 1;
            }
            let step = if step_to == grid && on_grid {
                dt
            } else {
                step_to - now
            };
            animator.update(step);
            on_grid = step_to == grid;
            if let Some(f) = observe.as_mut() {
                f(Step::Update(&animator.output()));
            }
            now = step_to;
            if step_to == grid {
                k += 1;
            }
        }
        frames.push(Frame {
            time: target,
            layers: animator.output(),
        });
        if let Some(f) = observe.as_mut() {
            f(Step::Frame);
        }
    }
    warnings.extend(animator.warnings.iter().cloned());
    for name in &animator.params.missing {
        warnings.push(format!(
            "the controller reads parameter {name:?}, which it does not have (read as 0)"
        ));
    }
    (frames, warnings)
}

fn apply_play(animator: &mut Animator, action: &Action, t: f64, warnings: &mut Vec<String>) {
    let result = match action {
        Action::Play(path, nt) => animator.play(path, *nt),
        Action::Crossfade(path, secs) => animator.crossfade(path, *secs),
        _ => Ok(()),
    };
    if let Err(e) = result {
        warnings.push(format!("at {t} s: {e}"));
    }
}
