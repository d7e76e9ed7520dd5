//! The run-time contact mask: every masked function on every subset of the
//! candidate contacts (the 16 of Go2's four feet, the 4 of G1's two soles)
//! against the same function on that subset alone, which is checked against
//! Pinocchio and central differences elsewhere. The masked rows add exact
//! zeros, so the two agree to rounding; an inactive contact's rows of `λ`,
//! the impulse and their derivatives are zero.

mod common;

use common::{assert_close, load_model, random_q, random_vec};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen_runtime::{
    actuated_dofs, contact_dynamics, contact_dynamics_derivatives,
    contact_dynamics_derivatives_masked, contact_dynamics_masked, contact_step_linearization,
    contact_step_linearization_forces_masked, contact_step_linearization_masked, impulse_dynamics,
    impulse_dynamics_derivatives, impulse_dynamics_derivatives_masked, impulse_dynamics_masked,
    Contact, ContactKind, Data, InputError, Model,
};

const TOL: f64 = 1e-12;

fn robot(path: &str, set: &[(&str, ContactKind)]) -> Model {
    let mut model = load_model(path, true);
    model.set_contacts(set).unwrap();
    model
}

/// The active subset of `all` for the bits of `bits`, the row mask, and the
/// rows of `all` each active row comes from.
fn subset(all: &[Contact], bits: usize) -> (Vec<Contact>, Vec<f64>, Vec<usize>) {
    let (mut active, mut mask, mut rows) = (Vec::new(), Vec::new(), Vec::new());
    let mut row = 0;
    for (k, c) in all.iter().enumerate() {
        let on = bits >> k & 1 == 1;
        if on {
            active.push(*c);
            rows.extend(row..row + c.kind.rows());
        }
        mask.extend(std::iter::repeat_n(f64::from(u8::from(on)), c.kind.rows()));
        row += c.kind.rows();
    }
    (active, mask, rows)
}

/// `full: [nc x cols]` row-major: its rows `rows` must be `part`, the others zero.
fn check_rows(what: &str, full: &[f64], part: &[f64], rows: &[usize], cols: usize) {
    let nc = full.len() / cols.max(1);
    let mut expected = vec![0.0; full.len()];
    for (k, &r) in rows.iter().enumerate() {
        expected[r * cols..(r + 1) * cols].copy_from_slice(&part[k * cols..(k + 1) * cols]);
    }
    assert_eq!(nc * cols, full.len(), "{what}: shape");
    assert_close(what, full, &expected, TOL);
}

fn check_model(name: &str, model: &Model) {
    let all = model.contacts.clone();
    let (nv, nu) = (model.nv, actuated_dofs(model).len());
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    let q = random_q(model, &mut rng);
    let v = random_vec(nv, 1.0, &mut rng);
    let tau = random_vec(nv, 5.0, &mut rng);
    let u = random_vec(nu, 5.0, &mut rng);
    let mut data = Data::new(model);
    let (mu, e, h) = (1e-9, 0.2, 0.01);
    for bits in 0..1 << all.len() {
        let (set, mask, rows) = subset(&all, bits);
        let tag = |w: &str| format!("{name} subset {bits:#06b} {w}");

        let (a, l) =
            contact_dynamics_masked(model, &mut data, &q, &v, &tau, &all, &mask, mu).unwrap();
        let (a0, l0) = contact_dynamics(model, &mut data, &q, &v, &tau, &set, mu).unwrap();
        assert_close(&tag("ddq"), &a, &a0, TOL);
        check_rows(&tag("lambda"), &l, &l0, &rows, 1);

        let d =
            contact_dynamics_derivatives_masked(model, &mut data, &q, &v, &tau, &all, &mask, mu)
                .unwrap();
        let d0 = contact_dynamics_derivatives(model, &mut data, &q, &v, &tau, &set, mu).unwrap();
        assert_close(&tag("ddq_dq"), &d.ddq_dq, &d0.ddq_dq, TOL);
        assert_close(&tag("ddq_dv"), &d.ddq_dv, &d0.ddq_dv, TOL);
        assert_close(&tag("ddq_dtau"), &d.ddq_dtau, &d0.ddq_dtau, TOL);
        check_rows(&tag("dlambda_dq"), &d.dlambda_dq, &d0.dlambda_dq, &rows, nv);
        check_rows(&tag("dlambda_dv"), &d.dlambda_dv, &d0.dlambda_dv, &rows, nv);
        check_rows(
            &tag("dlambda_dtau"),
            &d.dlambda_dtau,
            &d0.dlambda_dtau,
            &rows,
            nv,
        );

        let (vp, p) =
            impulse_dynamics_masked(model, &mut data, &q, &v, &all, &mask, e, mu).unwrap();
        let (vp0, p0) = impulse_dynamics(model, &mut data, &q, &v, &set, e, mu).unwrap();
        assert_close(&tag("v_plus"), &vp, &vp0, TOL);
        check_rows(&tag("impulse"), &p, &p0, &rows, 1);
        let i = impulse_dynamics_derivatives_masked(model, &mut data, &q, &v, &all, &mask, e, mu)
            .unwrap();
        let i0 = impulse_dynamics_derivatives(model, &mut data, &q, &v, &set, e, mu).unwrap();
        assert_close(&tag("dvplus_dq"), &i.dvplus_dq, &i0.dvplus_dq, TOL);
        assert_close(&tag("dvplus_dv"), &i.dvplus_dv, &i0.dvplus_dv, TOL);
        check_rows(
            &tag("dimpulse_dq"),
            &i.dimpulse_dq,
            &i0.dimpulse_dq,
            &rows,
            nv,
        );
        check_rows(
            &tag("dimpulse_dv"),
            &i.dimpulse_dv,
            &i0.dimpulse_dv,
            &rows,
            nv,
        );

        let s = contact_step_linearization_masked(model, &mut data, &q, &v, &u, h, &all, &mask, mu)
            .unwrap();
        let s0 = contact_step_linearization(model, &mut data, &q, &v, &u, h, &set, mu).unwrap();
        for (k, (x, y)) in [(&s.0, &s0.0), (&s.1, &s0.1), (&s.2, &s0.2), (&s.3, &s0.3)]
            .into_iter()
            .enumerate()
        {
            assert_close(&tag(&format!("step output {k}")), x, y, TOL);
        }
        check_step_forces(model, &mut data, (&q, &v, &u), &mask, &s, &tag);
    }
}

/// `contact_step_linearization_forces_masked`: the step's outputs, and `λ`,
/// `Λx = [∂λ/∂q | ∂λ/∂v]`, `Λu` (the actuated columns of `∂λ/∂τ`) as
/// `contact_dynamics_derivatives_masked` gives them at the step's torques;
/// `Λu` and the `∂λ/∂v` half of `Λx` against central differences of
/// `contact_dynamics_masked`'s `λ`.
fn check_step_forces(
    model: &Model,
    data: &mut Data<f64>,
    (q, v, u): (&[f64], &[f64], &[f64]),
    mask: &[f64],
    step: &(Vec<f64>, Vec<f64>, Vec<f64>, Vec<f64>),
    tag: &dyn Fn(&str) -> String,
) {
    let all = model.contacts.clone();
    let (nv, dofs) = (model.nv, actuated_dofs(model));
    let (mu, h) = (1e-9, 0.01);
    let f =
        contact_step_linearization_forces_masked(model, data, q, v, u, h, &all, mask, mu).unwrap();
    for (k, (x, y)) in [
        (&f.0, &step.0),
        (&f.1, &step.1),
        (&f.2, &step.2),
        (&f.3, &step.3),
    ]
    .into_iter()
    .enumerate()
    {
        assert_close(&tag(&format!("forces step output {k}")), x, y, TOL);
    }
    let mut tau = vec![0.0; nv];
    for (&k, &uk) in dofs.iter().zip(u) {
        tau[k] = uk;
    }
    let d = contact_dynamics_derivatives_masked(model, data, q, v, &tau, &all, mask, mu).unwrap();
    let nc = d.lambda.len();
    let lambda_x: Vec<f64> = (0..nc)
        .flat_map(|r| [&d.dlambda_dq[r * nv..][..nv], &d.dlambda_dv[r * nv..][..nv]].concat())
        .collect();
    let lambda_u: Vec<f64> = (0..nc)
        .flat_map(|r| {
            dofs.iter()
                .map(|&k| d.dlambda_dtau[r * nv + k])
                .collect::<Vec<_>>()
        })
        .collect();
    assert_close(&tag("forces lambda"), &f.4, &d.lambda, TOL);
    assert_close(&tag("forces Lambda_x"), &f.5, &lambda_x, TOL);
    assert_close(&tag("forces Lambda_u"), &f.6, &lambda_u, TOL);
    // Central differences: λ(τ ± ε e_k) for the actuated k, λ(v ± ε e_j).
    let eps = 1e-6;
    let mut lambda_at = |v: &[f64], tau: &[f64]| {
        contact_dynamics_masked(model, data, q, v, tau, &all, mask, mu)
            .unwrap()
            .1
    };
    for (j, &k) in dofs.iter().enumerate() {
        let (mut tp, mut tm) = (tau.clone(), tau.clone());
        tp[k] += eps;
        tm[k] -= eps;
        let (lp, lm) = (lambda_at(v, &tp), lambda_at(v, &tm));
        let fd: Vec<f64> = lp
            .iter()
            .zip(&lm)
            .map(|(a, b)| (a - b) / (2.0 * eps))
            .collect();
        let col: Vec<f64> = (0..nc).map(|r| f.6[r * dofs.len() + j]).collect();
        assert_close(
            &tag(&format!("Lambda_u column {j} (central differences)")),
            &col,
            &fd,
            1e-5,
        );
    }
    for j in 0..nv {
        let (mut vp, mut vm) = (v.to_vec(), v.to_vec());
        vp[j] += eps;
        vm[j] -= eps;
        let (lp, lm) = (lambda_at(&vp, &tau), lambda_at(&vm, &tau));
        let fd: Vec<f64> = lp
            .iter()
            .zip(&lm)
            .map(|(a, b)| (a - b) / (2.0 * eps))
            .collect();
        let col: Vec<f64> = (0..nc).map(|r| f.5[r * 2 * nv + nv + j]).collect();
        assert_close(
            &tag(&format!("Lambda_x v column {j} (central differences)")),
            &col,
            &fd,
            1e-5,
        );
    }
}

#[test]
fn go2_every_subset_of_the_feet() {
    use ContactKind::Point;
    let feet = [
        ("FL_foot", Point),
        ("FR_foot", Point),
        ("RL_foot", Point),
        ("RR_foot", Point),
    ];
    check_model("go2", &robot("models/go2.urdf", &feet));
}

#[test]
fn g1_every_subset_of_the_soles() {
    use ContactKind::Frame6d;
    let soles = [
        ("left_ankle_roll_link", Frame6d),
        ("right_ankle_roll_link", Frame6d),
    ];
    check_model("g1", &robot("models/g1_29dof.urdf", &soles));
}

#[test]
fn a_mask_of_the_wrong_length_is_an_error() {
    let model = robot("models/go2.urdf", &[("FL_foot", ContactKind::Point)]);
    let mut data = Data::new(&model);
    let q = model.neutral();
    let zeros = vec![0.0; model.nv];
    let all = model.contacts.clone();
    let err = contact_dynamics_masked(&model, &mut data, &q, &zeros, &zeros, &all, &[1.0], 0.0)
        .unwrap_err();
    assert!(
        matches!(
            err,
            InputError::Length {
                argument: "active",
                len: 1,
                expected: 3
            }
        ),
        "{err}"
    );
}
