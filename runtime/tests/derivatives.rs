//! The analytical derivatives of RNEA and ABA against Pinocchio's
//! `computeRNEADerivatives` / `computeABADerivatives`, against forward-mode
//! differentiation of the runtime's own RNEA and ABA on dual numbers, and
//! against central differences in the tangent space.

mod common;

use common::{assert_close, flat, random_q, random_vec, Reference};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen_runtime::{
    aba, aba_derivatives, aba_derivatives_stage, integrate, mass_factors, rnea,
    rnea_derivative_column, rnea_derivatives, rnea_derivatives_fext, rnea_derivatives_stage,
    rnea_fext, solve_mass_column, Data, DerivativeColumns, Dual, Force, InputError, Model,
};

const TOL: f64 = 1e-8;

fn check(name: &str) {
    let r = Reference::load(name);
    let model = &r.model;
    let mut data = Data::<f64>::new(model);
    for (k, s) in r.states().iter().enumerate() {
        let tag = |what: &str| format!("{name} state {k} {what}");
        let (q, v, a, tau) = (flat(&s["q"]), flat(&s["v"]), flat(&s["a"]), flat(&s["tau"]));
        let d = rnea_derivatives(model, &mut data, &q, &v, &a).unwrap();
        let want = &s["rnea_derivatives"];
        assert_close(&tag("dtau_dq"), &d.d_dq, &flat(&want["dtau_dq"]), TOL);
        assert_close(&tag("dtau_dv"), &d.d_dv, &flat(&want["dtau_dv"]), TOL);
        assert_close(&tag("dtau_da"), &d.d_du, &flat(&want["dtau_da"]), TOL);
        let d = aba_derivatives(model, &mut data, &q, &v, &tau).unwrap();
        let want = &s["aba_derivatives"];
        assert_close(&tag("ddq_dq"), &d.d_dq, &flat(&want["ddq_dq"]), TOL);
        assert_close(&tag("ddq_dv"), &d.d_dv, &flat(&want["ddq_dv"]), TOL);
        assert_close(&tag("ddq_dtau"), &d.d_du, &flat(&want["ddq_dtau"]), TOL);
        // The acceleration it was evaluated at, left in `data.ddq`: Pinocchio's `aba`.
        assert_close(&tag("ddq"), &data.ddq, &flat(&s["aba"]), TOL);
        // In two stages, the solve column by column (as loops of generated code run it).
        let stage = aba_derivatives_stage(model, &mut data, &q, &v, &tau, None).unwrap();
        assert_close(
            &tag("stage minv"),
            &stage.minv,
            &flat(&want["ddq_dtau"]),
            TOL,
        );
        // `M⁻¹` as the solve of `-I`, from the factors alone.
        let factors = mass_factors(model, &mut data, &q).unwrap();
        assert_close(&tag("mass_factors"), &factors, &stage.factors, TOL);
        let minv = flat(&want["ddq_dtau"]);
        for c in 0..model.nv {
            let minus_e: Vec<f64> = (0..model.nv)
                .map(|i| if i == c { -1.0 } else { 0.0 })
                .collect();
            let x = solve_mass_column(model, &factors, &minus_e).unwrap();
            let want: Vec<f64> = (0..model.nv).map(|i| minv[i * model.nv + c]).collect();
            assert_close(&tag(&format!("minv column {c}")), &x, &want, TOL);
        }
        for (b, block) in [(&stage.dtau_dq, "ddq_dq"), (&stage.dtau_dv, "ddq_dv")] {
            let want = flat(&want[block]);
            let nv = model.nv;
            for c in 0..nv {
                let column: Vec<f64> = (0..nv).map(|i| b[i * nv + c]).collect();
                let x = solve_mass_column(model, &stage.factors, &column).unwrap();
                let want: Vec<f64> = (0..nv).map(|i| want[i * nv + c]).collect();
                assert_close(&tag(&format!("stage {block} column {c}")), &x, &want, TOL);
            }
        }
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

/// The robots of the random-state checks: fixed and floating bases, a
/// continuous joint, a humanoid.
const ROBOTS: [(&str, bool); 6] = [
    ("models/go2_z1.urdf", true),
    ("models/z1.urdf", false),
    ("models/g1_29dof.urdf", true),
    ("models/double_pendulum_continuous.urdf", false),
    ("models/panda.urdf", true),
    ("models/go2.urdf", false),
];

/// A random `q`, `v`, `u` and external forces (one per joint).
fn random_state(
    model: &Model,
    rng: &mut ChaCha8Rng,
) -> (Vec<f64>, Vec<f64>, Vec<f64>, Vec<Force<f64>>) {
    let nv = model.nv;
    let q = random_q(model, rng);
    let v = random_vec(nv, 1.0, rng);
    let u = random_vec(nv, 1.0, rng);
    let fext = (0..model.njoints())
        .map(|_| Force::from_slice(&random_vec(6, 2.0, rng)))
        .collect();
    (q, v, u, fext)
}

/// `∂τ/∂q` and `∂τ/∂v` of `columns`, column by column as generated code
/// loops them ([`rnea_derivative_column`] on each column's input), `[nv x
/// nv]` row-major each.
fn by_columns(model: &Model, columns: &DerivativeColumns) -> [Vec<f64>; 2] {
    let nv = model.nv;
    let len = columns.dq.len() / nv;
    let mut out = [vec![0.0; nv * nv], vec![0.0; nv * nv]];
    for (g, chain) in model.topology().dof_chains().into_iter().enumerate() {
        for c in chain {
            for (w, m) in [&columns.dq, &columns.dv].into_iter().zip(out.iter_mut()) {
                let input: Vec<f64> = (0..len).map(|k| w[k * nv + c]).collect();
                let x = rnea_derivative_column(model, g, &columns.factors, &input).unwrap();
                for (i, x) in x.into_iter().enumerate() {
                    m[i * nv + c] = x;
                }
            }
        }
    }
    out
}

/// The derivatives column by column (the runtime's form of the generated
/// loops) equal the whole passes, with and without external forces, on
/// every robot; the ABA derivatives' columns then solve to `ddq_dq`, `ddq_dv`.
#[test]
fn derivatives_column_by_column() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for (urdf, floating) in ROBOTS {
        let model = common::load_model(urdf, floating);
        let nv = model.nv;
        let mut data = Data::<f64>::new(&model);
        let (q, v, u, fext) = random_state(&model, &mut rng);
        for fext in [None, Some(fext.as_slice())] {
            let tag = |what: &str| format!("{urdf} fext {} {what}", fext.is_some());
            let whole = match fext {
                None => rnea_derivatives(&model, &mut data, &q, &v, &u),
                Some(f) => rnea_derivatives_fext(&model, &mut data, &q, &v, &u, f),
            }
            .unwrap();
            let (columns, mass) =
                rnea_derivatives_stage(&model, &mut data, &q, &v, &u, fext).unwrap();
            let [dq, dv] = by_columns(&model, &columns);
            assert_close(&tag("dtau_dq"), &dq, &whole.d_dq, 1e-12);
            assert_close(&tag("dtau_dv"), &dv, &whole.d_dv, 1e-12);
            assert_close(&tag("dtau_da"), &mass, &whole.d_du, 1e-12);
        }
        let whole = aba_derivatives(&model, &mut data, &q, &v, &u).unwrap();
        let stage = aba_derivatives_stage(&model, &mut data, &q, &v, &u, None).unwrap();
        let [dq, dv] = by_columns(&model, stage.columns.as_ref().unwrap());
        assert_close("stage dtau_dq", &dq, &stage.dtau_dq, 1e-12);
        assert_close("stage dtau_dv", &dv, &stage.dtau_dv, 1e-12);
        for (b, want) in [(&dq, &whole.d_dq), (&dv, &whole.d_dv)] {
            for c in 0..nv {
                let column: Vec<f64> = (0..nv).map(|i| b[i * nv + c]).collect();
                let x = solve_mass_column(&model, &stage.factors, &column).unwrap();
                let want: Vec<f64> = (0..nv).map(|i| want[i * nv + c]).collect();
                assert_close(&format!("{urdf} aba column {c}"), &x, &want, 1e-9);
            }
        }
    }
}

/// The column form's errors: a chain the model does not have, inputs of the
/// wrong length, a model with mimic joints.
#[test]
fn derivative_column_errors() {
    let model = common::load_model("models/go2_z1.urdf", true);
    let nv = model.nv;
    let mut data = Data::<f64>::new(&model);
    let (q, z) = (model.neutral(), vec![0.0; nv]);
    let (columns, _) = rnea_derivatives_stage(&model, &mut data, &q, &z, &z, None).unwrap();
    let w = vec![0.0; columns.dq.len() / nv];
    let chains = model.topology().dof_chains().len();
    assert_eq!(
        rnea_derivative_column(&model, chains, &columns.factors, &w),
        Err(InputError::Index {
            argument: "chain",
            index: chains,
            count: chains
        })
    );
    assert!(matches!(
        rnea_derivative_column(&model, 0, &columns.factors, &w[1..]),
        Err(InputError::Length { argument: "w", .. })
    ));
    let path = common::root().join("tests/urdf/mimic/chain.urdf");
    let mimic = Model::from_urdf_file_mimic(path, false).unwrap();
    let mut data = Data::<f64>::new(&mimic);
    let (q, z) = (mimic.neutral(), vec![0.0; mimic.nv]);
    let mimic_error = Err(InputError::Mimic {
        function: "rnea_derivatives_stage",
    });
    assert_eq!(
        rnea_derivatives_stage(&mimic, &mut data, &q, &z, &z, None),
        mimic_error
    );
    let stage = aba_derivatives_stage(&mimic, &mut data, &q, &z, &z, None).unwrap();
    assert_eq!(stage.columns, None);
}

/// Central differences of `f(q ⊕ h e_k, v, u)` against column k of `∂f/∂q`.
#[test]
fn tangent_space_central_differences() {
    let model = Model::from_urdf_file(common::root().join("models/go2_z1.urdf"), true).unwrap();
    let nv = model.nv;
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut ws = Data::<f64>::new(&model);
    let mut data = Data::<f64>::new(&model);
    for _ in 0..3 {
        let q = random_q(&model, &mut rng);
        let v = random_vec(nv, 1.0, &mut rng);
        let u = random_vec(nv, 1.0, &mut rng);
        let dr = rnea_derivatives(&model, &mut ws, &q, &v, &u).unwrap();
        let da = aba_derivatives(&model, &mut ws, &q, &v, &u).unwrap();
        let h = 1e-6;
        for k in 0..nv {
            let mut e = vec![0.0; nv];
            e[k] = h;
            let qp = integrate(&model, &q, &e).unwrap();
            e[k] = -h;
            let qm = integrate(&model, &q, &e).unwrap();
            let fd = |f: &mut dyn FnMut(&[f64]) -> Vec<f64>| -> Vec<f64> {
                let (p, m) = (f(&qp), f(&qm));
                p.iter().zip(&m).map(|(p, m)| (p - m) / (2.0 * h)).collect()
            };
            let col = |m: &[f64]| (0..nv).map(|i| m[i * nv + k]).collect::<Vec<_>>();
            let rnea_fd = fd(&mut |q| rnea(&model, &mut data, q, &v, &u).unwrap().to_vec());
            assert_close(&format!("dtau_dq col {k}"), &col(&dr.d_dq), &rnea_fd, 1e-5);
            let aba_fd = fd(&mut |q| aba(&model, &mut data, q, &v, &u).unwrap().to_vec());
            assert_close(&format!("ddq_dq col {k}"), &col(&da.d_dq), &aba_fd, 1e-5);
        }
    }
}

/// `f(q ⊕ δ, v, u)` differentiated at zero on dual numbers, one direction per
/// lane: `(∂f/∂δ, ∂f/∂v, ∂f/∂u)`, each `[nv x nv]` row-major.
fn dual_jacobians(
    model: &Model,
    q: &[f64],
    v: &[f64],
    u: &[f64],
    f: impl Fn(&mut Data<Dual<1>>, &[Dual<1>], &[Dual<1>], &[Dual<1>]) -> Vec<Dual<1>>,
) -> [Vec<f64>; 3] {
    let nv = model.nv;
    let lift = |x: &[f64]| x.iter().map(|&x| Dual::new(x)).collect::<Vec<_>>();
    let (q0, v0, u0) = (lift(q), lift(v), lift(u));
    let mut data = Data::<Dual<1>>::new(model);
    let mut out = [vec![0.0; nv * nv], vec![0.0; nv * nv], vec![0.0; nv * nv]];
    for (block, jac) in out.iter_mut().enumerate() {
        for k in 0..nv {
            let mut seed = vec![Dual::new(0.0); nv];
            seed[k] = Dual::variable(0.0, 0);
            let add = |x: &[Dual<1>]| {
                x.iter()
                    .zip(&seed)
                    .map(|(a, b)| *a + *b)
                    .collect::<Vec<_>>()
            };
            let y = match block {
                0 => f(&mut data, &integrate(model, &q0, &seed).unwrap(), &v0, &u0),
                1 => f(&mut data, &q0, &add(&v0), &u0),
                _ => f(&mut data, &q0, &v0, &add(&u0)),
            };
            for (i, yi) in y.iter().enumerate() {
                jac[i * nv + k] = yi.eps[0];
            }
        }
    }
    out
}

/// On every robot of the references, fixed and floating, with random external
/// forces: the analytical derivatives equal forward-mode differentiation of the
/// runtime's RNEA and ABA.
#[test]
fn analytical_equals_dual_numbers() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for (urdf, floating) in ROBOTS {
        let model = common::load_model(urdf, floating);
        let mut data = Data::<f64>::new(&model);
        let (q, v, u, fext) = random_state(&model, &mut rng);
        let lifted: Vec<Force<Dual<1>>> = fext
            .iter()
            .map(|f| Force::from_slice(&f.to_array().map(Dual::new)))
            .collect();
        let checks = [
            (
                "rnea",
                rnea_derivatives(&model, &mut data, &q, &v, &u).unwrap(),
                dual_jacobians(&model, &q, &v, &u, |d, q, v, a| {
                    rnea(&model, d, q, v, a).unwrap().to_vec()
                }),
            ),
            (
                "rnea_fext",
                rnea_derivatives_fext(&model, &mut data, &q, &v, &u, &fext).unwrap(),
                dual_jacobians(&model, &q, &v, &u, |d, q, v, a| {
                    rnea_fext(&model, d, q, v, a, &lifted).unwrap().to_vec()
                }),
            ),
            (
                "aba",
                aba_derivatives(&model, &mut data, &q, &v, &u).unwrap(),
                dual_jacobians(&model, &q, &v, &u, |d, q, v, tau| {
                    aba(&model, d, q, v, tau).unwrap().to_vec()
                }),
            ),
        ];
        for (name, got, [dq, dv, du]) in checks {
            let tag = |what: &str| format!("{urdf} {name} {what}");
            assert_close(&tag("d_dq"), &got.d_dq, &dq, 1e-10);
            assert_close(&tag("d_dv"), &got.d_dv, &dv, 1e-10);
            assert_close(&tag("d_du"), &got.d_du, &du, 1e-10);
        }
    }
}
