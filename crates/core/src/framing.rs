//! What a view of a rig frames: the joints that make up the character, without the far
//! outliers (a weapon socket or a camera target hundreds of metres from the body), which
//! would otherwise shrink the figure to a dot. Decided per posed frame (a clip may park a
//! socket far away): the body is the human bones, or the joints carrying skinned vertices,
//! or every joint, less the far outliers; meshes and other joints count where they lie
//! near it. Free of Bevy: points are `[x, y, z]`.

/// A joint is a far outlier when it lies more than this many times the median joint's
/// distance from the rig's centre.
pub const FAR_FACTOR: f32 = 8.0;

/// Fewer points than this have no far outliers (only non-finite ones): among three or four
/// joints, the median distance says nothing of the body (hips and spine 5 cm apart would
/// make a head 75 cm above them an outlier).
pub const MIN_POINTS: usize = 5;

/// Distances below this (1 cm) count as this: a rig whose joints nearly coincide keeps
/// every joint that is not far from them in absolute terms either.
const MIN_SPREAD: f32 = 0.01;

/// The component-wise median of the finite points: the rig's centre, which a few far
/// joints do not move.
pub fn median_centre(points: &[[f32; 3]]) -> Option<[f32; 3]> {
    let finite: Vec<&[f32; 3]> = points
        .iter()
        .filter(|p| p.iter().all(|v| v.is_finite()))
        .collect();
    if finite.is_empty() {
        return None;
    }
    let axis = |i: usize| median(finite.iter().map(|p| p[i]).collect());
    Some([axis(0), axis(1), axis(2)])
}

/// For each point: true when it is a far outlier ([`FAR_FACTOR`] times the median distance
/// from [`median_centre`], or not finite). Under [`MIN_POINTS`] points, only the
/// non-finite ones are.
pub fn far_outliers(points: &[[f32; 3]]) -> Vec<bool> {
    if points.len() < MIN_POINTS {
        return points
            .iter()
            .map(|p| !p.iter().all(|v| v.is_finite()))
            .collect();
    }
    far_from(points, points)
}

/// For each of `points`: true when it lies farther from the centre of `reference` than
/// [`FAR_FACTOR`] times the median distance of `reference` from its centre (or is not
/// finite). A humanoid rig measures its other joints against its human bones this way.
pub fn far_from(reference: &[[f32; 3]], points: &[[f32; 3]]) -> Vec<bool> {
    let Some(centre) = median_centre(reference) else {
        return vec![true; points.len()];
    };
    let distance = |p: &[f32; 3]| {
        let d = [p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]];
        (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
    };
    let typical = median(
        reference
            .iter()
            .map(distance)
            .filter(|d| d.is_finite())
            .collect(),
    )
    .max(MIN_SPREAD);
    points
        .iter()
        .map(distance)
        .map(|d| !d.is_finite() || d > FAR_FACTOR * typical)
        .collect()
}

/// The joints that make up the body in one posed frame: the `marked` ones (human bones,
/// joints carrying skinned vertices) where any is marked, else every joint; less the far
/// outliers among them ([`far_outliers`]: a weapon socket parked 1 km away that carries a
/// weapon's vertices is no part of the body). True per joint in the body.
pub fn body_joints(points: &[[f32; 3]], marked: &[bool]) -> Vec<bool> {
    let any = marked.iter().any(|&m| m);
    let candidates: Vec<usize> = (0..points.len())
        .filter(|&j| !any || marked.get(j).copied().unwrap_or(false))
        .collect();
    let at: Vec<[f32; 3]> = candidates.iter().map(|&j| points[j]).collect();
    let far = far_outliers(&at);
    let mut out = vec![false; points.len()];
    for (k, &j) in candidates.iter().enumerate() {
        out[j] = !far[k];
    }
    out
}

/// What a view frames in one posed frame: the body's joints ([`body_joints`]), and those
/// of the `extra` points (the meshes' bounds, the other joints) that are not far from the
/// body ([`far_from`] it). Deciding this per posed frame, not only at rest, keeps out a
/// socket that the clip parks far away.
pub fn frame_points(joints: &[[f32; 3]], marked: &[bool], extra: &[[f32; 3]]) -> Vec<[f32; 3]> {
    let in_body = body_joints(joints, marked);
    let body: Vec<[f32; 3]> = joints
        .iter()
        .zip(&in_body)
        .filter(|(_, b)| **b)
        .map(|(p, _)| *p)
        .collect();
    let far = far_from(&body, extra);
    let near = extra
        .iter()
        .zip(&far)
        .filter(|(_, f)| !**f)
        .map(|(p, _)| *p);
    body.iter().copied().chain(near).collect()
}

/// The median of values (the mean of the two middle ones for an even count); 0 for none.
fn median(mut values: Vec<f32>) -> f32 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f32::total_cmp);
    let n = values.len();
    (values[(n - 1) / 2] + values[n / 2]) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_socket_ten_kilometres_away_is_a_far_outlier_and_the_body_is_not() {
        // A two-metre figure: hips, spine, head, hands, feet, and a socket 10 km away.
        let mut points = vec![
            [0.0, 1.0, 0.0],
            [0.0, 1.3, 0.0],
            [0.0, 1.8, 0.0],
            [-0.8, 1.4, 0.0],
            [0.8, 1.4, 0.0],
            [-0.2, 0.0, 0.0],
            [0.2, 0.0, 0.0],
        ];
        points.push([10_000.0, 0.0, 0.0]);
        let far = far_outliers(&points);
        assert_eq!(far.iter().filter(|&&f| f).count(), 1);
        assert!(far[7]);
        // The centre stays in the body.
        let c = median_centre(&points).unwrap();
        assert!(c[0].abs() < 1.0 && (0.0..2.0).contains(&c[1]), "{c:?}");
    }

    #[test]
    fn joints_at_one_point_and_non_finite_ones() {
        let points = [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.05, 1.0]];
        assert!(far_outliers(&points).iter().all(|&f| !f));
        let points = [[0.0, 0.0, 0.0], [f32::NAN, 0.0, 0.0], [0.0, 0.5, 0.0]];
        assert_eq!(far_outliers(&points), [false, true, false]);
        assert_eq!(median_centre(&[[f32::INFINITY, 0.0, 0.0]]), None);
        assert_eq!(far_outliers(&[[f32::INFINITY, 0.0, 0.0]]), [true]);
        assert!(far_outliers(&[]).is_empty());
    }

    #[test]
    fn the_marked_body_less_its_outliers_and_what_lies_near_it_are_framed() {
        // Six human bones (one a socket parked 1 km away by its clip), hair near the head,
        // a weapon box 30 km away.
        let joints = [
            [0.0, 1.0, 0.0],
            [0.0, 1.4, 0.0],
            [0.0, 1.8, 0.0],
            [-0.3, 0.0, 0.0],
            [0.3, 0.0, 0.0],
            [1000.0, 1.0, 0.0],
            [0.0, 1.9, -0.1],
        ];
        let marked = [true, true, true, true, true, true, false];
        assert_eq!(
            body_joints(&joints, &marked),
            [true, true, true, true, true, false, false]
        );
        let extra = [[0.0, 1.9, -0.1], [30_000.0, 0.0, 0.0], [0.2, 0.5, 0.1]];
        let framed = frame_points(&joints, &marked, &extra);
        assert_eq!(framed.len(), 5 + 2);
        assert!(framed.iter().all(|p| p[0].abs() < 1.0), "{framed:?}");
        // Nothing marked: every joint but the far one is the body.
        let all = body_joints(&joints, &[]);
        assert_eq!(all, [true, true, true, true, true, false, true]);
    }

    #[test]
    fn three_joints_have_no_far_outliers() {
        // Hips and spine 5 cm apart, the head 75 cm above: a tiny rig, all of it body.
        let points = [[0.0, 1.0, 0.0], [0.0, 1.05, 0.0], [0.0, 1.8, 0.0]];
        assert_eq!(far_outliers(&points), [false; 3]);
        assert_eq!(body_joints(&points, &[]), [true; 3]);
    }

    #[test]
    fn points_far_from_a_reference_body() {
        let body = [[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 2.0, 0.0]];
        // Median distance 1 m from the centre (0, 1, 0): 8 m is the limit.
        let others = [[0.0, 8.5, 0.0], [0.0, 9.5, 0.0], [f32::NAN, 0.0, 0.0]];
        assert_eq!(far_from(&body, &others), [false, true, true]);
        assert_eq!(far_from(&[], &others), [true, true, true]);
    }
}
