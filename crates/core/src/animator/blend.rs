//! Blend tree weights for the five blend types, exactly as the animator spec (§3) gives them.
//! Inputs are the f32 values Unity stores; weights are computed in f64.

use std::f64::consts::PI;

type V2 = [f64; 2];

fn v2(p: [f32; 2]) -> V2 {
    [p[0] as f64, p[1] as f64]
}
fn sub(a: V2, b: V2) -> V2 {
    [a[0] - b[0], a[1] - b[1]]
}
fn dot(a: V2, b: V2) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}
fn cross(a: V2, b: V2) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}
fn len(a: V2) -> f64 {
    dot(a, a).sqrt()
}
fn is_zero(a: V2) -> bool {
    a[0] == 0.0 && a[1] == 0.0
}
/// Unsigned angle between two vectors in [0, π]; 0 when either is zero.
fn ang(a: V2, b: V2) -> f64 {
    if is_zero(a) || is_zero(b) {
        0.0
    } else {
        cross(a, b).abs().atan2(dot(a, b))
    }
}

/// 1D (§3.2): stable sort by threshold, clamp, first non-degenerate segment holding `v`;
/// every threshold equal → the first child (in sorted order) gets 1.
pub fn simple_1d(thresholds: &[f32], v: f32) -> Vec<f64> {
    let n = thresholds.len();
    let mut w = vec![0.0; n];
    if n == 0 {
        return w;
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| thresholds[a].total_cmp(&thresholds[b]));
    let t = |k: usize| thresholds[order[k]] as f64;
    // max/min, not clamp: a NaN threshold must not panic.
    let v = (v as f64).max(t(0)).min(t(n - 1));
    for k in 0..n - 1 {
        if t(k) < t(k + 1) && v <= t(k + 1) {
            let a = (v - t(k)) / (t(k + 1) - t(k));
            w[order[k]] = 1.0 - a;
            w[order[k + 1]] = a;
            return w;
        }
    }
    w[order[0]] = 1.0;
    w
}

/// 2D Simple Directional (§3.3).
pub fn simple_directional(positions: &[[f32; 2]], q: [f32; 2]) -> Vec<f64> {
    let n = positions.len();
    let mut w = vec![0.0; n];
    if n == 0 {
        return w;
    }
    let p: Vec<V2> = positions.iter().map(|&p| v2(p)).collect();
    let q = v2(q);
    let center = p.iter().position(|&p| is_zero(p));
    if is_zero(q) {
        match center {
            Some(c) => w[c] = 1.0,
            None => w.iter_mut().for_each(|x| *x = 1.0 / n as f64),
        }
        return w;
    }
    // The best child on each side of q: (index, d).
    let mut a: Option<(usize, f64)> = None;
    let mut b: Option<(usize, f64)> = None;
    for (i, &pi) in p.iter().enumerate() {
        if is_zero(pi) {
            continue;
        }
        let u = [pi[0] / len(pi), pi[1] / len(pi)];
        let d = dot(u, q);
        let s = cross(u, q);
        let slot = if s > 0.0 { &mut a } else { &mut b };
        if slot.is_none_or(|(_, best)| d > best) {
            *slot = Some((i, d));
        }
    }
    let mut c = 1.0;
    if let (Some((ia, _)), Some((ib, _))) = (a, b) {
        let det = cross(p[ia], p[ib]);
        if det != 0.0 {
            let mut wa = cross(q, p[ib]) / det;
            let mut wb = cross(p[ia], q) / det;
            c = 1.0 - wa - wb;
            if c < 0.0 {
                let sum = wa + wb;
                wa /= sum;
                wb /= sum;
                c = 0.0;
            } else if c > 1.0 {
                wa = 0.0;
                wb = 0.0;
                c = 1.0;
            }
            w[ia] = wa;
            w[ib] = wb;
        }
    }
    match center {
        Some(ci) => w[ci] += c,
        None => w.iter_mut().for_each(|x| *x += c / n as f64),
    }
    w
}

/// The first child exactly at `q`, which then takes all the weight (§6.9).
fn exact_hit(p: &[V2], q: V2) -> Option<Vec<f64>> {
    let i = p.iter().position(|&pi| pi == q)?;
    let mut w = vec![0.0; p.len()];
    w[i] = 1.0;
    Some(w)
}

/// Normalises influences; all zero → uniform.
fn normalise(h: Vec<f64>) -> Vec<f64> {
    let sum: f64 = h.iter().sum();
    let n = h.len() as f64;
    if sum > 0.0 {
        h.into_iter().map(|x| x / sum).collect()
    } else {
        h.into_iter().map(|_| 1.0 / n).collect()
    }
}

/// Gradient band influence of child `i` from its pair values (`None` = pair skipped):
/// `min(1, min h_ij)`, 0 when any is negative.
fn influence(pairs: impl Iterator<Item = Option<f64>>) -> f64 {
    let mut h: f64 = 1.0;
    for hij in pairs.flatten() {
        if hij < 0.0 {
            return 0.0;
        }
        h = h.min(hij);
    }
    h
}

/// 2D Freeform Cartesian (§3.4): gradient bands.
pub fn freeform_cartesian(positions: &[[f32; 2]], q: [f32; 2]) -> Vec<f64> {
    let p: Vec<V2> = positions.iter().map(|&p| v2(p)).collect();
    let q = v2(q);
    if p.is_empty() {
        return Vec::new();
    }
    if let Some(w) = exact_hit(&p, q) {
        return w;
    }
    let h = (0..p.len())
        .map(|i| {
            influence((0..p.len()).filter(|&j| j != i).map(|j| {
                let d = sub(p[j], p[i]);
                let dd = dot(d, d);
                (dd != 0.0).then(|| 1.0 - dot(sub(q, p[i]), d) / dd)
            }))
        })
        .collect();
    normalise(h)
}

/// 2D Freeform Directional (§3.5): gradient bands in polar space, α = 2 for pairs off the
/// origin and 1 for pairs with a child at the origin.
pub fn freeform_directional(positions: &[[f32; 2]], q: [f32; 2]) -> Vec<f64> {
    let p: Vec<V2> = positions.iter().map(|&p| v2(p)).collect();
    let q = v2(q);
    if p.is_empty() {
        return Vec::new();
    }
    if let Some(w) = exact_hit(&p, q) {
        return w;
    }
    let mq = len(q);
    let h = (0..p.len())
        .map(|i| {
            influence(
                (0..p.len())
                    .filter(|&j| j != i)
                    .map(|j| polar_pair(p[i], p[j], q, mq)),
            )
        })
        .collect();
    normalise(h)
}

/// `h_ij` of one ordered pair in polar space, `None` when the pair is skipped.
fn polar_pair(pi: V2, pj: V2, q: V2, mq: f64) -> Option<f64> {
    let (mi, mj) = (len(pi), len(pj));
    let mu = (mi + mj) / 2.0;
    if mu == 0.0 {
        return None;
    }
    let (alpha, tij, tiq) = if is_zero(pi) {
        (1.0, ang(q, pj), 0.0)
    } else if is_zero(pj) {
        let t = ang(q, pi);
        (1.0, t, t)
    } else {
        let tij = ang(pi, pj);
        let tiq = if tij == 0.0 {
            0.0
        } else if is_zero(q) {
            tij
        } else {
            let a = ang(pi, q);
            if tij < 0.99 * PI && cross(pi, q) * cross(pi, pj) < 0.0 {
                -a
            } else {
                a
            }
        };
        (2.0, tij, tiq)
    };
    let vij = [alpha * tij, (mj - mi) / mu];
    let viq = [alpha * tiq, (mq - mi) / mu];
    let dd = dot(vij, vij);
    (dd != 0.0).then(|| 1.0 - dot(viq, vij) / dd)
}

/// Direct (§3.6): the parameter values as weights, divided by their sum when normalised
/// (all 0 when the sum is 0).
pub fn direct(values: &[f64], normalized: bool) -> Vec<f64> {
    if !normalized {
        return values.to_vec();
    }
    let sum: f64 = values.iter().sum();
    if sum == 0.0 {
        vec![0.0; values.len()]
    } else {
        values.iter().map(|v| v / sum).collect()
    }
}

#[cfg(test)]
mod tests;
