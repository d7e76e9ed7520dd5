//! RNEA derivatives with external forces held fixed (`rnea_derivatives_fext`)
//! against Pinocchio's `computeRNEADerivatives(model, data, q, v, a, fext)`
//! (tests/reference/fext_derivatives/, made by
//! scripts/make_fext_derivative_reference.py), against `rnea_derivatives` at
//! `fext = 0`, and against central differences in the tangent space.

mod common;

use common::{assert_close, flat, random_q, random_vec, Reference};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen_runtime::{
    integrate, rnea_derivatives, rnea_derivatives_fext, rnea_fext, Data, Force, Model,
};

/// The wrenches of a state's `fext` (njoints rows of `[linear; angular]`).
fn wrenches(rows: &[f64]) -> Vec<Force<f64>> {
    rows.chunks(6).map(Force::from_slice).collect()
}

fn random_wrenches(model: &Model, rng: &mut ChaCha8Rng) -> Vec<Force<f64>> {
    wrenches(&random_vec(6 * model.njoints(), 2.0, rng))
}

fn check_pinocchio(name: &str) {
    let r = Reference::load(&format!("fext_derivatives/{name}"));
    let model = &r.model;
    let mut data = Data::<f64>::new(model);
    assert_eq!(r.states().len(), 3);
    for (k, s) in r.states().iter().enumerate() {
        let tag = |what: &str| format!("{name} state {k} {what}");
        let (q, v, a) = (flat(&s["q"]), flat(&s["v"]), flat(&s["a"]));
        let fext = wrenches(&flat(&s["fext"]));
        let d = rnea_derivatives_fext(model, &mut data, &q, &v, &a, &fext).unwrap();
        assert_close(&tag("dtau_dq"), &d.d_dq, &flat(&s["dtau_dq"]), 1e-8);
        assert_close(&tag("dtau_dv"), &d.d_dv, &flat(&s["dtau_dv"]), 1e-8);
        assert_close(&tag("dtau_da"), &d.d_du, &flat(&s["dtau_da"]), 1e-8);
        // The forces matter: without them dtau_dq differs.
        let plain = rnea_derivatives(model, &mut data, &q, &v, &a).unwrap();
        let gap = plain
            .d_dq
            .iter()
            .zip(&d.d_dq)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max);
        assert!(gap > 1e-3, "{name}: fext changes dtau_dq by only {gap}");
    }
}

#[test]
fn go2_z1_floating_matches_pinocchio() {
    check_pinocchio("go2_z1_floating");
}

#[test]
fn z1_fixed_matches_pinocchio() {
    check_pinocchio("z1_fixed");
}

#[test]
fn zero_fext_is_rnea_derivatives() {
    let model = Model::from_urdf_file(common::root().join("models/go2_z1.urdf"), true).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut data = Data::<f64>::new(&model);
    let zero = vec![Force::zero(); model.njoints()];
    for _ in 0..3 {
        let q = random_q(&model, &mut rng);
        let v = random_vec(model.nv, 1.0, &mut rng);
        let a = random_vec(model.nv, 1.0, &mut rng);
        let want = rnea_derivatives(&model, &mut data, &q, &v, &a).unwrap();
        let got = rnea_derivatives_fext(&model, &mut data, &q, &v, &a, &zero).unwrap();
        assert_close("dtau_dq", &got.d_dq, &want.d_dq, 1e-14);
        assert_close("dtau_dv", &got.d_dv, &want.d_dv, 1e-14);
        assert_close("dtau_da", &got.d_du, &want.d_du, 1e-14);
    }
}

/// Central differences of `rnea_fext(q ⊕ h e_k, v, a, fext).unwrap()`, `(q, v + h e_k,
/// a)` and `(q, v, a + h e_k)` against column k of each Jacobian.
#[test]
fn tangent_space_central_differences() {
    let model = Model::from_urdf_file(common::root().join("models/go2_z1.urdf"), true).unwrap();
    let nv = model.nv;
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let mut ws = Data::<f64>::new(&model);
    let mut data = Data::<f64>::new(&model);
    for _ in 0..2 {
        let q = random_q(&model, &mut rng);
        let v = random_vec(nv, 1.0, &mut rng);
        let a = random_vec(nv, 1.0, &mut rng);
        let fext = random_wrenches(&model, &mut rng);
        let d = rnea_derivatives_fext(&model, &mut ws, &q, &v, &a, &fext).unwrap();
        let h = 1e-6;
        let mut tau = |q: &[f64], v: &[f64], a: &[f64]| {
            rnea_fext(&model, &mut data, q, v, a, &fext)
                .unwrap()
                .to_vec()
        };
        for k in 0..nv {
            let step = |x: &[f64], s: f64| -> Vec<f64> {
                let mut y = x.to_vec();
                y[k] += s;
                y
            };
            let mut e = vec![0.0; nv];
            e[k] = h;
            let qp = integrate(&model, &q, &e).unwrap();
            e[k] = -h;
            let qm = integrate(&model, &q, &e).unwrap();
            let central = |p: Vec<f64>, m: Vec<f64>| -> Vec<f64> {
                p.iter().zip(&m).map(|(p, m)| (p - m) / (2.0 * h)).collect()
            };
            let col = |m: &[f64]| (0..nv).map(|i| m[i * nv + k]).collect::<Vec<_>>();
            let fd_q = central(tau(&qp, &v, &a), tau(&qm, &v, &a));
            assert_close(&format!("dtau_dq col {k}"), &col(&d.d_dq), &fd_q, 1e-5);
            let fd_v = central(tau(&q, &step(&v, h), &a), tau(&q, &step(&v, -h), &a));
            assert_close(&format!("dtau_dv col {k}"), &col(&d.d_dv), &fd_v, 1e-5);
            let fd_a = central(tau(&q, &v, &step(&a, h)), tau(&q, &v, &step(&a, -h)));
            assert_close(&format!("dtau_da col {k}"), &col(&d.d_du), &fd_a, 1e-5);
        }
    }
}
