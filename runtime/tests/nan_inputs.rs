//! NaN in gives NaN out, without a panic: RNEA, CRBA and ABA with a NaN in one
//! entry of q, v, a or tau return NaN in some outputs, and every output they
//! return finite does not depend on that entry (it is bit for bit the value
//! computed with another number in its place).

mod common;

use common::{load_model, random_q, random_vec};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen_runtime::{aba, crba, rnea, Data, Model};

/// The three algorithms on one state, outputs concatenated with labels.
fn outputs(model: &Model, q: &[f64], v: &[f64], a: &[f64], tau: &[f64]) -> Vec<(String, Vec<f64>)> {
    let mut data = Data::new(model);
    vec![
        (
            "rnea".into(),
            rnea(model, &mut data, q, v, a).unwrap().to_vec(),
        ),
        ("crba".into(), crba(model, &mut data, q).unwrap().to_vec()),
        (
            "aba".into(),
            aba(model, &mut data, q, v, tau).unwrap().to_vec(),
        ),
    ]
}

/// For input `which` (0 = q, 1 = v, 2 = a, 3 = tau) and entry `k`: NaN there
/// gives at least one NaN, and the finite outputs equal those with `other` there.
fn check(model: &Model, state: &[Vec<f64>; 4], which: usize, k: usize, other: f64) {
    let with = |x: f64| {
        let mut s = state.clone();
        s[which][k] = x;
        outputs(model, &s[0], &s[1], &s[2], &s[3])
    };
    let (nan, reference) = (with(f64::NAN), with(other));
    let names = ["q", "v", "a", "tau"];
    let mut any_nan = false;
    for ((name, out), (_, r)) in nan.iter().zip(&reference) {
        for (i, (x, y)) in out.iter().zip(r).enumerate() {
            if x.is_nan() {
                any_nan = true;
            } else {
                assert_eq!(
                    x.to_bits(),
                    y.to_bits(),
                    "{}[{k}] = NaN: {name}[{i}] = {x}, but {y} with {other}",
                    names[which]
                );
            }
        }
    }
    assert!(any_nan, "{}[{k}] = NaN gave no NaN", names[which]);
}

fn run(urdf: &str, floating_base: bool) {
    let model = load_model(urdf, floating_base);
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let state = [
        random_q(&model, &mut rng),
        random_vec(model.nv, 1.0, &mut rng),
        random_vec(model.nv, 1.0, &mut rng),
        random_vec(model.nv, 1.0, &mut rng),
    ];
    for which in 0..4 {
        for k in 0..state[which].len() {
            check(&model, &state, which, k, 0.25);
        }
    }
}

#[test]
fn z1_fixed() {
    run("models/z1.urdf", false);
}

#[test]
fn double_pendulum_continuous_floating() {
    run("models/double_pendulum_continuous.urdf", true);
}

#[test]
fn go2_z1_floating() {
    run("models/go2_z1.urdf", true);
}
