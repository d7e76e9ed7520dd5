//! Generated code with NaN inputs: NaN in gives NaN out, without a panic.
//! With a NaN in one entry of q, v, a or tau, every output of `rnea`, `crba`
//! and `aba` that depends on that entry is NaN, and every output they return
//! finite does not depend on it (it is bit for bit the value computed with
//! other numbers there).

rbdgen::robot_dynamics!(mod pendulum, "models/double_pendulum_continuous.urdf", floating_base, functions = [rnea, crba, aba]);
rbdgen::robot_dynamics!(mod z1, "models/z1.urdf", functions = [rnea, crba, aba]);

/// The outputs of one module's functions on one state, concatenated.
macro_rules! outputs {
    ($m:ident) => {
        |s: &[Vec<f64>; 4]| -> Vec<f64> {
            let q: &[f64; $m::NQ] = s[0].as_slice().try_into().unwrap();
            let v: &[f64; $m::NV] = s[1].as_slice().try_into().unwrap();
            let a: &[f64; $m::NV] = s[2].as_slice().try_into().unwrap();
            let tau: &[f64; $m::NV] = s[3].as_slice().try_into().unwrap();
            let mut out = $m::rnea(q, v, a).to_vec();
            out.extend($m::crba(q).as_flattened());
            out.extend($m::aba(q, v, tau));
            out
        }
    };
}

/// The NaN property for every entry of every input of `state`: an output that
/// changes with the input is NaN when the input is; an output that is finite
/// then is the same for any value of the input. (Unlike the runtime, generated
/// code has folded away what no input reaches: a fixed base's first joint about
/// the vertical, or a free-flyer's position, changes none of these outputs.)
fn check(state: [Vec<f64>; 4], f: impl Fn(&[Vec<f64>; 4]) -> Vec<f64>) {
    let mut nans = 0;
    for which in 0..4 {
        for k in 0..state[which].len() {
            let with = |x: f64| {
                let mut s = state.clone();
                s[which][k] = x;
                f(&s)
            };
            let (nan, one, two) = (with(f64::NAN), with(0.25), with(-0.6));
            for (i, ((x, y), z)) in nan.iter().zip(&one).zip(&two).enumerate() {
                let what = format!("input {which}[{k}] = NaN: output {i} = {x}");
                if y.to_bits() != z.to_bits() {
                    assert!(x.is_nan(), "{what}, though it changes with the input");
                }
                if x.is_nan() {
                    nans += 1;
                } else {
                    assert_eq!(x.to_bits(), y.to_bits(), "{what}, {y} otherwise");
                }
            }
        }
    }
    assert!(nans > 0);
}

fn state(nq: usize, nv: usize, q: &[f64]) -> [Vec<f64>; 4] {
    let ramp = |n: usize, s: f64| (0..n).map(|i| s * (i as f64 + 1.0) / n as f64).collect();
    let mut q_full: Vec<f64> = q.to_vec();
    q_full.resize(nq, 0.3);
    [q_full, ramp(nv, 0.7), ramp(nv, -0.4), ramp(nv, 1.1)]
}

#[test]
fn double_pendulum_floating() {
    // Free-flyer [x y z qx qy qz qw], then two continuous joints [cos, sin].
    let (s1, c1) = 0.4f64.sin_cos();
    let (s2, c2) = (-1.1f64).sin_cos();
    let h = 0.5f64.sqrt();
    let q = [0.1, -0.2, 0.3, 0.0, h, 0.0, h, c1, s1, c2, s2];
    check(state(pendulum::NQ, pendulum::NV, &q), outputs!(pendulum));
}

#[test]
fn z1_fixed() {
    let q = [0.3, -0.5, 0.8, -0.2, 0.6, 1.0];
    check(state(z1::NQ, z1::NV, &q), outputs!(z1));
}
