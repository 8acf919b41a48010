//! The worked numbers of the animator spec §5.1–§5.5, to 1e-4 (the spec prints 4 decimals)
//! and to 1e-5 where the exact value is known.

use super::*;

fn close(got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= tol, "{got:?} vs {want:?}");
    }
}

const FIVE: [[f32; 2]; 5] = [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, -1.0], [-1.0, 0.0]];

#[test]
fn one_d_walk_run_and_equal_thresholds() {
    let t = [0.0, 0.5, 1.0, 1.5, 2.0];
    close(&simple_1d(&t, 1.2), &[0.0, 0.0, 0.6, 0.4, 0.0], 1e-5);
    close(&simple_1d(&t, -3.0), &[1.0, 0.0, 0.0, 0.0, 0.0], 1e-5);
    let eq = [0.0, 1.0, 1.0, 2.0];
    close(&simple_1d(&eq, 1.0), &[0.0, 1.0, 0.0, 0.0], 1e-5);
    close(&simple_1d(&eq, 1.5), &[0.0, 0.0, 0.5, 0.5], 1e-5);
    // Unsorted thresholds are sorted first; all equal gives the first child everything.
    close(&simple_1d(&[2.0, 0.0], 0.5), &[0.25, 0.75], 1e-5);
    close(&simple_1d(&[1.0, 1.0, 1.0], 7.0), &[1.0, 0.0, 0.0], 0.0);
    close(&simple_1d(&[3.0], 0.0), &[1.0], 0.0);
}

#[test]
fn simple_directional_inside_outside_and_without_center() {
    close(
        &simple_directional(&FIVE, [0.3, 0.6]),
        &[0.1, 0.6, 0.3, 0.0, 0.0],
        1e-5,
    );
    close(
        &simple_directional(&FIVE, [1.2, 1.2]),
        &[0.0, 0.5, 0.5, 0.0, 0.0],
        1e-5,
    );
    close(
        &simple_directional(&FIVE[1..], [0.3, 0.6]),
        &[0.625, 0.325, 0.025, 0.025],
        1e-5,
    );
    close(
        &simple_directional(&FIVE, [0.0, 0.0]),
        &[1.0, 0.0, 0.0, 0.0, 0.0],
        0.0,
    );
}

#[test]
fn freeform_directional_worked_numbers() {
    let mut six = FIVE.to_vec();
    six.push([0.0, 2.0]);
    close(
        &freeform_directional(&six, [0.3, 0.6]),
        &[0.2806, 0.4915, 0.2279, 0.0, 0.0, 0.0],
        1e-4,
    );
    close(
        &freeform_directional(&six, [0.0, 1.5]),
        &[0.0, 0.5, 0.0, 0.0, 0.0, 0.5],
        1e-5,
    );
    close(
        &freeform_directional(&six, [0.5, 0.0]),
        &[0.5, 0.0, 0.5, 0.0, 0.0, 0.0],
        1e-5,
    );
    close(
        &freeform_directional(&six, [0.0, 0.0]),
        &[1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        0.0,
    );
    let three = [[0.0, 0.0], [0.0, 1.0], [2.0, 0.0]];
    close(
        &freeform_directional(&three, [0.8, 0.8]),
        &[0.0194, 0.5059, 0.4747],
        1e-4,
    );
}

#[test]
fn freeform_cartesian_square_and_six_children() {
    let square = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]];
    close(
        &freeform_cartesian(&square, [0.25, 0.5]),
        &[1.0 / 3.0, 1.0 / 6.0, 1.0 / 3.0, 1.0 / 6.0],
        1e-5,
    );
    let mut six = FIVE.to_vec();
    six.push([0.0, 2.0]);
    close(
        &freeform_cartesian(&six, [0.3, 0.6]),
        &[0.3077, 0.4615, 0.2308, 0.0, 0.0, 0.0],
        1e-4,
    );
}

#[test]
fn direct_raw_and_normalised() {
    let v = [0.5, 0.25, 1.0, -0.25];
    close(&direct(&v, false), &v, 0.0);
    close(
        &direct(&v, true),
        &[1.0 / 3.0, 1.0 / 6.0, 2.0 / 3.0, -1.0 / 6.0],
        1e-5,
    );
    close(&direct(&[0.5, -0.5], true), &[0.0, 0.0], 0.0);
}

#[test]
fn non_finite_inputs_do_not_panic() {
    let w = simple_1d(&[0.0, f32::NAN, 1.0], 0.5);
    assert_eq!(w.len(), 3);
    let w = simple_1d(&[0.0, 1.0], f32::NAN);
    assert_eq!(w.len(), 2);
    for q in [[f32::NAN, 0.0], [f32::INFINITY, 1.0]] {
        assert_eq!(simple_directional(&FIVE, q).len(), 5);
        assert_eq!(freeform_directional(&FIVE, q).len(), 5);
        assert_eq!(freeform_cartesian(&FIVE, q).len(), 5);
    }
}
