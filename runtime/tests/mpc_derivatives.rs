//! The derivatives of an MPC with the feet down (frame velocities and
//! accelerations, contact drift, contact and impulse dynamics, contact
//! inverse dynamics, centroidal momentum, the stance step) against central
//! differences in the tangent space, and the identities they must satisfy
//! (`dv_dv` is the frame Jacobian, `dhdot_da` is `Ag`, ...), on Go2+Z1 with
//! four point feet, with a 6-D gripper contact added, and on a fixed Z1.

mod common;

use common::{assert_close, load_model, random_q, random_vec};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen_runtime::{
    actuated_dofs, ccrba, centroidal_dynamics_derivatives, centroidal_momentum_rate,
    compute_joint_jacobians, contact_drift, contact_drift_derivatives, contact_dynamics,
    contact_dynamics_derivatives, contact_inverse_dynamics, contact_inverse_dynamics_derivatives,
    contact_jacobian, contact_step_linearization, difference, frame_acceleration,
    frame_acceleration_derivatives, frame_jacobian, frame_velocity, frame_velocity_derivatives,
    impulse_dynamics, impulse_dynamics_derivatives, integrate, ContactKind, Data, Model,
    ReferenceFrame,
};

/// Central-difference step and the tolerance relative to each matrix's largest entry.
const EPS: f64 = 1e-6;
const TOL: f64 = 2e-6;

/// `[rows x nv]` row-major: central differences of `f` in the tangent space of `q`.
fn fd_q(model: &Model, q: &[f64], f: impl Fn(&[f64]) -> Vec<f64>) -> Vec<f64> {
    let columns: Vec<Vec<f64>> = (0..model.nv)
        .map(|k| {
            let mut d = vec![0.0; model.nv];
            d[k] = EPS;
            let plus = f(&integrate(model, q, &d).unwrap());
            d[k] = -EPS;
            let minus = f(&integrate(model, q, &d).unwrap());
            plus.iter()
                .zip(&minus)
                .map(|(p, m)| (p - m) / (2.0 * EPS))
                .collect()
        })
        .collect();
    transpose(&columns)
}

/// `[rows x len]` row-major: central differences of `f` in each entry of `x`.
fn fd(x: &[f64], f: impl Fn(&[f64]) -> Vec<f64>) -> Vec<f64> {
    let columns: Vec<Vec<f64>> = (0..x.len())
        .map(|k| {
            let mut y = x.to_vec();
            y[k] = x[k] + EPS;
            let plus = f(&y);
            y[k] = x[k] - EPS;
            let minus = f(&y);
            plus.iter()
                .zip(&minus)
                .map(|(p, m)| (p - m) / (2.0 * EPS))
                .collect()
        })
        .collect();
    transpose(&columns)
}

fn transpose(columns: &[Vec<f64>]) -> Vec<f64> {
    let rows = columns[0].len();
    (0..rows)
        .flat_map(|r| columns.iter().map(move |c| c[r]))
        .collect()
}

/// Go2+Z1 on its four feet; with `gripper`, the gripper held as a 6-D contact too.
fn go2_z1(gripper: bool) -> Model {
    let mut model = load_model("models/go2_z1.urdf", true);
    let mut set = vec![
        ("FL_foot", ContactKind::Point),
        ("FR_foot", ContactKind::Point),
        ("RL_foot", ContactKind::Point),
        ("RR_foot", ContactKind::Point),
    ];
    if gripper {
        set.push(("gripper_link", ContactKind::Frame6d));
    }
    model.set_contacts(&set).unwrap();
    model
}

fn z1_gripper() -> Model {
    let mut model = load_model("models/z1.urdf", false);
    model
        .set_contacts(&[("gripperMover", ContactKind::Frame6d)])
        .unwrap();
    model
}

struct State {
    q: Vec<f64>,
    v: Vec<f64>,
    a: Vec<f64>,
    tau: Vec<f64>,
}

fn states(model: &Model, seed: u64) -> Vec<State> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..2)
        .map(|_| State {
            q: random_q(model, &mut rng),
            v: random_vec(model.nv, 1.0, &mut rng),
            a: random_vec(model.nv, 1.0, &mut rng),
            tau: random_vec(model.nv, 5.0, &mut rng),
        })
        .collect()
}

fn models() -> Vec<(&'static str, Model)> {
    vec![
        ("go2_z1 feet", go2_z1(false)),
        ("go2_z1 feet+gripper", go2_z1(true)),
        ("z1 gripper", z1_gripper()),
    ]
}

#[test]
fn frame_velocity_and_acceleration_derivatives() {
    for (name, model) in models() {
        let mut data = Data::new(&model);
        let frames = [
            model.contacts[0].frame,
            model
                .link_frame(if name.starts_with("z1") {
                    "link03"
                } else {
                    "base"
                })
                .unwrap(),
        ];
        for (k, s) in states(&model, 1).iter().enumerate() {
            for &frame in &frames {
                for reference in [
                    ReferenceFrame::Local,
                    ReferenceFrame::LocalWorldAligned,
                    ReferenceFrame::World,
                ] {
                    let tag = |w: &str| format!("{name} state {k} frame {frame} {reference:?} {w}");
                    let (dv_dq, dv_dv) =
                        frame_velocity_derivatives(&model, &mut data, &s.q, &s.v, frame, reference)
                            .unwrap();
                    let vel = |q: &[f64], v: &[f64]| {
                        let mut d = Data::new(&model);
                        frame_velocity(&model, &mut d, q, v, frame, reference)
                            .unwrap()
                            .to_array()
                            .to_vec()
                    };
                    assert_close(
                        &tag("dv_dq"),
                        &dv_dq,
                        &fd_q(&model, &s.q, |q| vel(q, &s.v)),
                        TOL,
                    );
                    assert_close(&tag("dv_dv"), &dv_dv, &fd(&s.v, |v| vel(&s.q, v)), TOL);
                    compute_joint_jacobians(&model, &mut data, &s.q).unwrap();
                    let j = frame_jacobian(&model, &data, frame, reference).unwrap();
                    assert_close(&tag("dv_dv = J"), &dv_dv, &j, 1e-12);
                    let (da_dq, da_dv, da_da) = frame_acceleration_derivatives(
                        &model, &mut data, &s.q, &s.v, &s.a, frame, reference,
                    )
                    .unwrap();
                    let acc = |q: &[f64], v: &[f64], a: &[f64]| {
                        let mut d = Data::new(&model);
                        frame_acceleration(&model, &mut d, q, v, a, frame, reference)
                            .unwrap()
                            .to_array()
                            .to_vec()
                    };
                    let fdq = fd_q(&model, &s.q, |q| acc(q, &s.v, &s.a));
                    assert_close(&tag("da_dq"), &da_dq, &fdq, TOL);
                    assert_close(
                        &tag("da_dv"),
                        &da_dv,
                        &fd(&s.v, |v| acc(&s.q, v, &s.a)),
                        TOL,
                    );
                    assert_close(&tag("da_da = J"), &da_da, &j, 1e-12);
                }
            }
        }
    }
}

#[test]
fn contact_drift_and_inverse_dynamics_derivatives() {
    for (name, model) in models() {
        let mut data = Data::new(&model);
        let c = &model.contacts;
        for (k, s) in states(&model, 2).iter().enumerate() {
            let tag = |w: &str| format!("{name} state {k} {w}");
            let (dg_dq, dg_dv) =
                contact_drift_derivatives(&model, &mut data, &s.q, &s.v, c).unwrap();
            let drift = |q: &[f64], v: &[f64]| {
                contact_drift(&model, &mut Data::new(&model), q, v, c).unwrap()
            };
            assert_close(
                &tag("dgamma_dq"),
                &dg_dq,
                &fd_q(&model, &s.q, |q| drift(q, &s.v)),
                TOL,
            );
            assert_close(
                &tag("dgamma_dv"),
                &dg_dv,
                &fd(&s.v, |v| drift(&s.q, v)),
                TOL,
            );

            let nc = dg_dq.len() / model.nv;
            let lambda: Vec<f64> = (0..nc).map(|r| 10.0 + r as f64).collect();
            let (dq, dv, da, dl) = contact_inverse_dynamics_derivatives(
                &model, &mut data, &s.q, &s.v, &s.a, &lambda, c,
            )
            .unwrap();
            let id = |q: &[f64], v: &[f64], a: &[f64], l: &[f64]| {
                contact_inverse_dynamics(&model, &mut Data::new(&model), q, v, a, l, c).unwrap()
            };
            let fdq = fd_q(&model, &s.q, |q| id(q, &s.v, &s.a, &lambda));
            assert_close(&tag("dtau_dq"), &dq, &fdq, TOL);
            assert_close(
                &tag("dtau_dv"),
                &dv,
                &fd(&s.v, |v| id(&s.q, v, &s.a, &lambda)),
                TOL,
            );
            assert_close(
                &tag("dtau_da"),
                &da,
                &fd(&s.a, |a| id(&s.q, &s.v, a, &lambda)),
                TOL,
            );
            // ∂τ/∂λ = -J_cᵀ.
            let jc = contact_jacobian(&model, &mut data, &s.q, c).unwrap();
            let minus_jt: Vec<f64> = (0..model.nv * nc)
                .map(|k| -jc[(k % nc) * model.nv + k / nc])
                .collect();
            assert_close(&tag("dtau_dlambda = -Jᵀ"), &dl, &minus_jt, 1e-12);
        }
    }
}

#[test]
fn contact_dynamics_derivatives_against_central_differences() {
    for (name, model) in models() {
        let mut data = Data::new(&model);
        let c = &model.contacts;
        for damping in [0.0, 1e-3] {
            for (k, s) in states(&model, 3).iter().enumerate() {
                let tag = |w: &str| format!("{name} damping {damping} state {k} {w}");
                let d =
                    contact_dynamics_derivatives(&model, &mut data, &s.q, &s.v, &s.tau, c, damping)
                        .unwrap();
                let solve = |q: &[f64], v: &[f64], tau: &[f64]| {
                    contact_dynamics(&model, &mut Data::new(&model), q, v, tau, c, damping).unwrap()
                };
                let ddq = |q: &[f64], v: &[f64], t: &[f64]| solve(q, v, t).0;
                let lambda = |q: &[f64], v: &[f64], t: &[f64]| solve(q, v, t).1;
                let (q, v, t) = (&s.q, &s.v, &s.tau);
                assert_close(
                    &tag("ddq_dq"),
                    &d.ddq_dq,
                    &fd_q(&model, q, |q| ddq(q, v, t)),
                    TOL,
                );
                assert_close(&tag("ddq_dv"), &d.ddq_dv, &fd(v, |v| ddq(q, v, t)), TOL);
                assert_close(&tag("ddq_dtau"), &d.ddq_dtau, &fd(t, |t| ddq(q, v, t)), TOL);
                let fdq = fd_q(&model, q, |q| lambda(q, v, t));
                assert_close(&tag("dlambda_dq"), &d.dlambda_dq, &fdq, TOL);
                assert_close(
                    &tag("dlambda_dv"),
                    &d.dlambda_dv,
                    &fd(v, |v| lambda(q, v, t)),
                    TOL,
                );
                let fdt = fd(t, |t| lambda(q, v, t));
                assert_close(&tag("dlambda_dtau"), &d.dlambda_dtau, &fdt, TOL);
                // ∂v̇/∂τ = M⁻¹ - X Λ⁻¹ Xᵀ is symmetric.
                let nv = model.nv;
                let transposed: Vec<f64> = (0..nv * nv)
                    .map(|k| d.ddq_dtau[(k % nv) * nv + k / nv])
                    .collect();
                assert_close(&tag("ddq_dtau symmetric"), &d.ddq_dtau, &transposed, 1e-10);
            }
        }
    }
}

#[test]
fn impulse_dynamics_and_derivatives() {
    for (name, model) in models() {
        let mut data = Data::new(&model);
        let c = &model.contacts;
        for (restitution, damping) in [(0.0, 0.0), (0.5, 0.0), (0.0, 1e-3)] {
            for (k, s) in states(&model, 4).iter().enumerate() {
                let tag = |w: &str| format!("{name} e {restitution} μ {damping} state {k} {w}");
                let (v_plus, impulse) =
                    impulse_dynamics(&model, &mut data, &s.q, &s.v, c, restitution, damping)
                        .unwrap();
                // J v⁺ = -e J v and M (v⁺ - v) = Jᵀ Λ: the contact rows of
                // contact_inverse_dynamics at (v⁺ - v, Λ) without the velocity terms.
                let jc = contact_jacobian(&model, &mut data, &s.q, c).unwrap();
                let nv = model.nv;
                let jv = |x: &[f64]| -> Vec<f64> {
                    jc.chunks(nv)
                        .map(|r| r.iter().zip(x).map(|(a, b)| a * b).sum())
                        .collect()
                };
                let want: Vec<f64> = jv(&s.v)
                    .iter()
                    .zip(&impulse)
                    .map(|(x, l)| -restitution * x - damping * l)
                    .collect();
                assert_close(&tag("J v+ = -e J v - μ Λ"), &jv(&v_plus), &want, 1e-10);
                let jump: Vec<f64> = v_plus.iter().zip(&s.v).map(|(a, b)| a - b).collect();
                let zero = vec![0.0; nv];
                let mut d0 = Data::new(&model);
                let g = contact_inverse_dynamics(
                    &model,
                    &mut d0,
                    &s.q,
                    &zero,
                    &zero,
                    &zero_l(&impulse),
                    c,
                )
                .unwrap();
                let mj = contact_inverse_dynamics(&model, &mut d0, &s.q, &zero, &jump, &impulse, c)
                    .unwrap();
                let residual: Vec<f64> = mj.iter().zip(&g).map(|(a, b)| a - b).collect();
                assert_close(&tag("M (v+ - v) = Jᵀ Λ"), &residual, &zero, 1e-8);

                let d = impulse_dynamics_derivatives(
                    &model,
                    &mut data,
                    &s.q,
                    &s.v,
                    c,
                    restitution,
                    damping,
                )
                .unwrap();
                let solve = |q: &[f64], v: &[f64]| {
                    impulse_dynamics(
                        &model,
                        &mut Data::new(&model),
                        q,
                        v,
                        c,
                        restitution,
                        damping,
                    )
                    .unwrap()
                };
                let (q, v) = (&s.q, &s.v);
                let fdq = fd_q(&model, q, |q| solve(q, v).0);
                assert_close(&tag("dvplus_dq"), &d.dvplus_dq, &fdq, TOL);
                assert_close(
                    &tag("dvplus_dv"),
                    &d.dvplus_dv,
                    &fd(v, |v| solve(q, v).0),
                    TOL,
                );
                let fdq = fd_q(&model, q, |q| solve(q, v).1);
                assert_close(&tag("dimpulse_dq"), &d.dimpulse_dq, &fdq, TOL);
                assert_close(
                    &tag("dimpulse_dv"),
                    &d.dimpulse_dv,
                    &fd(v, |v| solve(q, v).1),
                    TOL,
                );
            }
        }
    }
}

/// Zero forces of the length of `lambda`.
fn zero_l(lambda: &[f64]) -> Vec<f64> {
    vec![0.0; lambda.len()]
}

#[test]
fn centroidal_dynamics_derivatives_against_central_differences() {
    for (name, model) in models() {
        let mut data = Data::new(&model);
        for (k, s) in states(&model, 5).iter().enumerate() {
            let tag = |w: &str| format!("{name} state {k} {w}");
            let d = centroidal_dynamics_derivatives(&model, &mut data, &s.q, &s.v, &s.a).unwrap();
            let hg = |q: &[f64]| {
                ccrba(&model, &mut Data::new(&model), q, &s.v)
                    .unwrap()
                    .1
                    .to_array()
                    .to_vec()
            };
            let dhg = |q: &[f64], v: &[f64], a: &[f64]| {
                centroidal_momentum_rate(&model, &mut Data::new(&model), q, v, a)
                    .unwrap()
                    .to_array()
                    .to_vec()
            };
            let (q, v, a) = (&s.q, &s.v, &s.a);
            assert_close(&tag("dh_dq"), &d.dh_dq, &fd_q(&model, q, hg), TOL);
            let fdq = fd_q(&model, q, |q| dhg(q, v, a));
            assert_close(&tag("dhdot_dq"), &d.dhdot_dq, &fdq, TOL);
            assert_close(&tag("dhdot_dv"), &d.dhdot_dv, &fd(v, |v| dhg(q, v, a)), TOL);
            let ag = ccrba(&model, &mut data, q, v).unwrap().0.to_vec();
            assert_close(&tag("dhdot_da = Ag"), &d.dhdot_da, &ag, 1e-12);
        }
    }
}

#[test]
fn contact_step_linearization_against_central_differences() {
    let (h, damping) = (0.01, 1e-6);
    for (name, model) in models() {
        let mut data = Data::new(&model);
        let c = &model.contacts;
        let nu = actuated_dofs(&model).len();
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        for (k, s) in states(&model, 6).iter().enumerate() {
            let tag = |w: &str| format!("{name} state {k} {w}");
            let u = random_vec(nu, 5.0, &mut rng);
            let (q_next, v_next, a, b) =
                contact_step_linearization(&model, &mut data, &s.q, &s.v, &u, h, c, damping)
                    .unwrap();
            let step = |q: &[f64], v: &[f64], u: &[f64]| -> Vec<f64> {
                let (qn, vn, _, _) = contact_step_linearization(
                    &model,
                    &mut Data::new(&model),
                    q,
                    v,
                    u,
                    h,
                    c,
                    damping,
                )
                .unwrap();
                // The error map of the linearization: (q⁺ ⊖ q⁺_nominal, v⁺).
                let mut x = difference(&model, &q_next, &qn).unwrap();
                x.extend(vn);
                x
            };
            let nv = model.nv;
            let fdq = fd_q(&model, &s.q, |q| step(q, &s.v, &u));
            let fdv = fd(&s.v, |v| step(&s.q, v, &u));
            let want_a: Vec<f64> = (0..2 * nv)
                .flat_map(|r| {
                    fdq[r * nv..(r + 1) * nv]
                        .iter()
                        .chain(&fdv[r * nv..(r + 1) * nv])
                        .copied()
                        .collect::<Vec<_>>()
                })
                .collect();
            assert_close(&tag("A"), &a, &want_a, 1e-5);
            assert_close(&tag("B"), &b, &fd(&u, |u| step(&s.q, &s.v, u)), 1e-5);
            assert_eq!(v_next.len(), nv);
        }
    }
}
