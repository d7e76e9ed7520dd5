//! Dual-number derivatives of RNEA and ABA against Pinocchio's
//! `computeRNEADerivatives` / `computeABADerivatives` and against central
//! differences in the tangent space.

mod common;

use common::{assert_close, flat, random_q, random_vec, Reference};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen_runtime::{
    aba, aba_derivatives, integrate, rnea, rnea_derivatives, Data, DerivativeScalar, Model,
};

const TOL: f64 = 1e-8;

fn check(name: &str) {
    let r = Reference::load(name);
    let model = &r.model;
    let mut data = Data::<DerivativeScalar>::new(model);
    for (k, s) in r.states().iter().enumerate() {
        let tag = |what: &str| format!("{name} state {k} {what}");
        let (q, v, a, tau) = (flat(&s["q"]), flat(&s["v"]), flat(&s["a"]), flat(&s["tau"]));
        let d = rnea_derivatives(model, &mut data, &q, &v, &a);
        let want = &s["rnea_derivatives"];
        assert_close(&tag("dtau_dq"), &d.d_dq, &flat(&want["dtau_dq"]), TOL);
        assert_close(&tag("dtau_dv"), &d.d_dv, &flat(&want["dtau_dv"]), TOL);
        assert_close(&tag("dtau_da"), &d.d_du, &flat(&want["dtau_da"]), TOL);
        let d = aba_derivatives(model, &mut data, &q, &v, &tau);
        let want = &s["aba_derivatives"];
        assert_close(&tag("ddq_dq"), &d.d_dq, &flat(&want["ddq_dq"]), TOL);
        assert_close(&tag("ddq_dv"), &d.d_dv, &flat(&want["ddq_dv"]), TOL);
        assert_close(&tag("ddq_dtau"), &d.d_du, &flat(&want["ddq_dtau"]), TOL);
    }
}

#[test]
fn go2_z1_floating() {
    check("go2_z1_floating");
}

#[test]
fn go2_floating() {
    check("go2_floating");
}

#[test]
fn z1_fixed() {
    check("z1_fixed");
}

#[test]
fn panda_fixed() {
    check("panda_fixed");
}

#[test]
fn double_pendulum_continuous_fixed() {
    check("double_pendulum_continuous_fixed");
}

#[test]
fn continuous_chain_fixed() {
    check("continuous_chain_fixed");
}

/// Central differences of `f(q ⊕ h e_k, v, u)` against column k of `∂f/∂q`.
#[test]
fn tangent_space_central_differences() {
    let model = Model::from_urdf_file(common::root().join("models/go2_z1.urdf"), true).unwrap();
    let nv = model.nv;
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut dual = Data::<DerivativeScalar>::new(&model);
    let mut data = Data::<f64>::new(&model);
    for _ in 0..3 {
        let q = random_q(&model, &mut rng);
        let v = random_vec(nv, 1.0, &mut rng);
        let u = random_vec(nv, 1.0, &mut rng);
        let dr = rnea_derivatives(&model, &mut dual, &q, &v, &u);
        let da = aba_derivatives(&model, &mut dual, &q, &v, &u);
        let h = 1e-6;
        for k in 0..nv {
            let mut e = vec![0.0; nv];
            e[k] = h;
            let qp = integrate(&model, &q, &e);
            e[k] = -h;
            let qm = integrate(&model, &q, &e);
            let fd = |f: &mut dyn FnMut(&[f64]) -> Vec<f64>| -> Vec<f64> {
                let (p, m) = (f(&qp), f(&qm));
                p.iter().zip(&m).map(|(p, m)| (p - m) / (2.0 * h)).collect()
            };
            let col = |m: &[f64]| (0..nv).map(|i| m[i * nv + k]).collect::<Vec<_>>();
            let rnea_fd = fd(&mut |q| rnea(&model, &mut data, q, &v, &u).to_vec());
            assert_close(&format!("dtau_dq col {k}"), &col(&dr.d_dq), &rnea_fd, 1e-5);
            let aba_fd = fd(&mut |q| aba(&model, &mut data, q, &v, &u).to_vec());
            assert_close(&format!("ddq_dq col {k}"), &col(&da.d_dq), &aba_fd, 1e-5);
        }
    }
}
