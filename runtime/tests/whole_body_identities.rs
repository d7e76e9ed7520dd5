//! Identities of the whole-body control quantities on random states of Go2+Z1
//! (free-flyer, feet and gripper in contact, geared knees) and Z1 (fixed):
//! `J̇ v` against central differences of `J(q(t)) v` along `q(t) = q ⊕ t v`,
//! the contact solution against its constraints and the equation of motion,
//! `Y π` against RNEA, the armature as a diagonal of `M`, the centroidal rate
//! against `Ag a + dAg v`, `∂a/∂fext` against differences of `aba_fext`, and
//! run-time link parameters against a model with the payload built in.

mod common;

use common::{assert_close, load_model, random_q, random_vec};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen_runtime::{
    aba_dfext, aba_fext, ccrba, centroidal_momentum_rate, compute_joint_jacobians,
    compute_joint_jacobians_time_variation, contact_drift, contact_dynamics,
    contact_inverse_dynamics, contact_jacobian, crba, dccrba, frame_acceleration_drift,
    frame_jacobian, frame_jacobian_time_variation, integrate, joint_torque_regressor,
    link_parameters, minverse, nonlinear_effects, rnea, set_link_parameters, ContactKind, Data,
    Force, Inertia, Model, ModelError, ReferenceFrame,
};

/// Go2+Z1 on its feet with the gripper held, and armature on the knees and the arm.
fn go2_z1() -> Model {
    let mut model = load_model("models/go2_z1.urdf", true);
    for leg in ["FL", "FR", "RL", "RR"] {
        model
            .set_armature(&format!("{leg}_calf_joint"), 0.03)
            .unwrap();
        model
            .set_armature(&format!("{leg}_thigh_joint"), 0.01)
            .unwrap();
    }
    model.set_armature("joint2", 0.05).unwrap();
    use ContactKind::{Frame6d, Point};
    model
        .set_contacts(&[
            ("FL_foot", Point),
            ("FR_foot", Point),
            ("RL_foot", Point),
            ("RR_foot", Point),
            ("gripper_link", Frame6d),
        ])
        .unwrap();
    model
}

fn z1() -> Model {
    let mut model = load_model("models/z1.urdf", false);
    for (k, j) in ["joint1", "joint2", "joint3"].iter().enumerate() {
        model.set_armature(j, 0.1 * (k + 1) as f64).unwrap();
    }
    model
        .set_contacts(&[("gripperMover", ContactKind::Point)])
        .unwrap();
    model
}

fn rng() -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(0x7b0d)
}

#[test]
fn jacobian_time_variation_is_the_derivative_of_j_along_the_motion() {
    for model in [go2_z1(), z1()] {
        let mut rng = rng();
        let mut data = Data::new(&model);
        let h = 1e-6;
        for _ in 0..5 {
            let q = random_q(&model, &mut rng);
            let v = random_vec(model.nv, 1.0, &mut rng);
            let at = |t: f64| {
                integrate(&model, &q, &v.iter().map(|x| t * x).collect::<Vec<_>>()).unwrap()
            };
            let (q_plus, q_minus) = (at(h), at(-h));
            compute_joint_jacobians_time_variation(&model, &mut data, &q, &v).unwrap();
            for (id, frame) in model.body_frames() {
                for reference in ReferenceFrame::ALL {
                    let jdot = frame_jacobian_time_variation(&model, &data, id, reference).unwrap();
                    let mut dj = Data::new(&model);
                    compute_joint_jacobians(&model, &mut dj, &q_plus).unwrap();
                    let plus = frame_jacobian(&model, &dj, id, reference).unwrap();
                    compute_joint_jacobians(&model, &mut dj, &q_minus).unwrap();
                    let minus = frame_jacobian(&model, &dj, id, reference).unwrap();
                    let fd: Vec<f64> = plus
                        .iter()
                        .zip(&minus)
                        .map(|(p, m)| (p - m) / (2.0 * h))
                        .collect();
                    assert_close(&format!("J̇ {} {reference:?}", frame.name), &jdot, &fd, 1e-6);
                }
                // J̇ v: the spatial drift in LOCAL, the classical one in LOCAL_WORLD_ALIGNED.
                let nv = model.nv;
                let times_v = |m: &[f64]| -> Vec<f64> {
                    (0..6)
                        .map(|r| (0..nv).map(|c| m[r * nv + c] * v[c]).sum())
                        .collect()
                };
                let mut dd = Data::new(&model);
                let drift = frame_acceleration_drift(&model, &mut dd, &q, &v, id).unwrap();
                let local = frame_jacobian_time_variation(&model, &data, id, ReferenceFrame::Local)
                    .unwrap();
                assert_close(
                    "J̇_local v",
                    &drift.local.to_array(),
                    &times_v(&local),
                    1e-12,
                );
                let lwa = frame_jacobian_time_variation(
                    &model,
                    &data,
                    id,
                    ReferenceFrame::LocalWorldAligned,
                )
                .unwrap();
                assert_close(
                    "J̇_lwa v",
                    &drift.classical_local_world_aligned.to_array(),
                    &times_v(&lwa),
                    1e-12,
                );
            }
        }
    }
}

#[test]
fn contact_dynamics_satisfies_its_constraints_and_the_equation_of_motion() {
    for model in [go2_z1(), z1()] {
        let mut rng = rng();
        let mut data = Data::new(&model);
        let (nv, nc) = (model.nv, model.nc());
        let contacts = model.contacts.clone();
        for _ in 0..10 {
            let q = random_q(&model, &mut rng);
            let v = random_vec(nv, 1.0, &mut rng);
            let tau = random_vec(nv, 10.0, &mut rng);
            let (ddq, lambda) =
                contact_dynamics(&model, &mut data, &q, &v, &tau, &contacts, 0.0).unwrap();
            let j = contact_jacobian(&model, &mut data, &q, &contacts).unwrap();
            let gamma = contact_drift(&model, &mut data, &q, &v, &contacts).unwrap();
            let constraint: Vec<f64> = (0..nc)
                .map(|r| (0..nv).map(|k| j[r * nv + k] * ddq[k]).sum::<f64>() + gamma[r])
                .collect();
            assert_close("J a + γ", &constraint, &vec![0.0; nc], 1e-9);
            let m = crba(&model, &mut data, &q).unwrap().to_vec();
            let h = nonlinear_effects(&model, &mut data, &q, &v)
                .unwrap()
                .to_vec();
            let lhs: Vec<f64> = (0..nv)
                .map(|r| (0..nv).map(|k| m[r * nv + k] * ddq[k]).sum::<f64>() + h[r])
                .collect();
            let rhs: Vec<f64> = (0..nv)
                .map(|r| tau[r] + (0..nc).map(|c| j[c * nv + r] * lambda[c]).sum::<f64>())
                .collect();
            assert_close("M a + h = τ + Jᵀλ", &lhs, &rhs, 1e-9);
            let residual =
                contact_inverse_dynamics(&model, &mut data, &q, &v, &ddq, &lambda, &contacts)
                    .unwrap();
            assert_close("contact inverse dynamics", &residual, &tau, 1e-9);
            // Damping: J a + γ = -μ λ.
            let mu = 1e-3;
            let (ddq, lambda) =
                contact_dynamics(&model, &mut data, &q, &v, &tau, &contacts, mu).unwrap();
            let constraint: Vec<f64> = (0..nc)
                .map(|r| {
                    (0..nv).map(|k| j[r * nv + k] * ddq[k]).sum::<f64>() + gamma[r] + mu * lambda[r]
                })
                .collect();
            assert_close("J a + γ + μλ", &constraint, &vec![0.0; nc], 1e-9);
        }
    }
}

#[test]
fn regressor_armature_and_centroidal_rate_identities() {
    for model in [go2_z1(), z1()] {
        let mut rng = rng();
        let mut data = Data::new(&model);
        let nv = model.nv;
        let pi: Vec<f64> = model.joints[1..]
            .iter()
            .flat_map(|j| j.inertia.to_parameters())
            .collect();
        let mut plain = model.clone();
        plain.armature = vec![0.0; nv];
        let mut plain_data = Data::new(&plain);
        for _ in 0..5 {
            let q = random_q(&model, &mut rng);
            let v = random_vec(nv, 1.0, &mut rng);
            let a = random_vec(nv, 1.0, &mut rng);
            let y = joint_torque_regressor(&model, &mut data, &q, &v, &a).unwrap();
            let cols = pi.len();
            let y_pi: Vec<f64> = (0..nv)
                .map(|r| (0..cols).map(|k| y[r * cols + k] * pi[k]).sum::<f64>())
                .collect();
            let tau = rnea(&model, &mut data, &q, &v, &a).unwrap().to_vec();
            let expected: Vec<f64> = (0..nv).map(|k| tau[k] - model.armature[k] * a[k]).collect();
            assert_close("Y π = rnea - armature a", &y_pi, &expected, 1e-10);

            let m = crba(&model, &mut data, &q).unwrap().to_vec();
            let m0 = crba(&plain, &mut plain_data, &q).unwrap().to_vec();
            for r in 0..nv {
                for c in 0..nv {
                    let want = if r == c { model.armature[r] } else { 0.0 };
                    assert!((m[r * nv + c] - m0[r * nv + c] - want).abs() < 1e-12);
                }
            }

            let dhg = centroidal_momentum_rate(&model, &mut data, &q, &v, &a).unwrap();
            let (ag, _) = ccrba(&model, &mut data, &q, &v).unwrap();
            let ag = ag.to_vec();
            let dag = dccrba(&model, &mut data, &q, &v).unwrap().to_vec();
            let want: Vec<f64> = (0..6)
                .map(|r| {
                    (0..nv)
                        .map(|k| ag[r * nv + k] * a[k] + dag[r * nv + k] * v[k])
                        .sum()
                })
                .collect();
            assert_close("dhg = Ag a + dAg v", &dhg.to_array(), &want, 1e-10);
        }
    }
}

#[test]
fn aba_dfext_is_the_derivative_of_aba_fext() {
    let model = go2_z1();
    let mut rng = rng();
    let mut data = Data::new(&model);
    let (nv, n) = (model.nv, model.njoints());
    let q = random_q(&model, &mut rng);
    let v = random_vec(nv, 1.0, &mut rng);
    let tau = random_vec(nv, 1.0, &mut rng);
    let fext: Vec<Force<f64>> = (0..n)
        .map(|_| Force::from_slice(&random_vec(6, 1.0, &mut rng)))
        .collect();
    let d = aba_dfext(&model, &mut data, &q).unwrap();
    let cols = 6 * n;
    for i in 1..n {
        for k in 0..6 {
            let mut f = fext.clone();
            let mut w = f[i].to_array();
            w[k] += 1.0;
            f[i] = Force::from_slice(&w);
            let plus = aba_fext(&model, &mut data, &q, &v, &tau, &f)
                .unwrap()
                .to_vec();
            let base = aba_fext(&model, &mut data, &q, &v, &tau, &fext)
                .unwrap()
                .to_vec();
            let col: Vec<f64> = (0..nv).map(|r| d[r * cols + 6 * i + k]).collect();
            let diff: Vec<f64> = plus.iter().zip(&base).map(|(p, b)| p - b).collect();
            assert_close(&format!("∂a/∂fext[{i}][{k}]"), &col, &diff, 1e-9);
        }
    }
}

#[test]
fn link_parameters_as_inputs_match_a_model_with_the_payload_built_in() {
    let mut model = load_model("models/go2_z1.urdf", true);
    model.set_parameters(&["gripper_link"]).unwrap();
    let nominal = link_parameters(&model);
    assert_eq!(nominal.len(), 10);
    // A 1.5 kg point-like payload 8 cm ahead of the gripper frame.
    let payload = Inertia::from_com(
        1.5,
        rbdgen_runtime::Vector3([0.08, 0.0, 0.01]),
        rbdgen_runtime::Matrix3([[1e-3, 0.0, 0.0], [0.0, 1e-3, 0.0], [0.0, 0.0, 1e-3]]),
    );
    let with_payload: Vec<f64> = nominal
        .iter()
        .zip(payload.to_parameters())
        .map(|(a, b)| a + b)
        .collect();
    // The same payload built into the model's merged inertia.
    let mut built_in = model.clone();
    let frame = &model.frames[model.parameters[0]];
    built_in.joints[frame.parent_joint].inertia += payload.transformed(&frame.placement);
    let mut rng = rng();
    for _ in 0..5 {
        let q = random_q(&model, &mut rng);
        let v = random_vec(model.nv, 1.0, &mut rng);
        let a = random_vec(model.nv, 1.0, &mut rng);
        let mut data = Data::new(&model);
        let before = rnea(&model, &mut data, &q, &v, &a).unwrap().to_vec();
        set_link_parameters(&model, &mut data, &nominal).unwrap();
        assert_close(
            "nominal π",
            rnea(&model, &mut data, &q, &v, &a).unwrap(),
            &before,
            1e-12,
        );
        set_link_parameters(&model, &mut data, &with_payload).unwrap();
        let ours = rnea(&model, &mut data, &q, &v, &a).unwrap().to_vec();
        let minv = minverse(&model, &mut data, &q).unwrap().to_vec();
        let mut d2 = Data::new(&built_in);
        assert_close(
            "rnea with payload",
            &ours,
            rnea(&built_in, &mut d2, &q, &v, &a).unwrap(),
            1e-10,
        );
        assert_close(
            "M⁻¹ with payload",
            &minv,
            minverse(&built_in, &mut d2, &q).unwrap(),
            1e-10,
        );
        assert!(
            (ours[2] - before[2]).abs() > 1.0,
            "the payload changes the base force"
        );
    }
}

#[test]
fn bad_settings_are_errors_naming_the_item() {
    let mut model = load_model("models/go2_z1.urdf", true);
    let err = model.set_armature("knee", 0.1).unwrap_err();
    assert!(matches!(err, ModelError::UnknownName { .. }));
    assert!(err.to_string().contains("`knee`") && err.to_string().contains("FL_calf_joint"));
    let err = model.set_armature("FL_calf_joint", -0.1).unwrap_err();
    assert!(err.to_string().contains("FL_calf_joint") && err.to_string().contains("-0.1"));
    assert!(model.set_armature("FL_calf_joint", f64::NAN).is_err());
    assert!(model.set_armature("universe", 0.1).is_err());
    // One dof of a multi-dof joint.
    model.set_armature("root_joint[4]", 0.25).unwrap();
    assert_eq!(model.armature[..6], [0.0, 0.0, 0.0, 0.0, 0.25, 0.0]);
    let err = model.set_armature("root_joint[6]", 0.25).unwrap_err();
    assert!(err.to_string().contains("dofs 0 to 5"), "{err}");
    let err = model
        .set_contacts(&[("FL_toe", ContactKind::Point)])
        .unwrap_err();
    assert!(err.to_string().contains("`FL_toe`"));
    let err = model
        .set_contacts(&[
            ("FL_foot", ContactKind::Point),
            ("FL_foot", ContactKind::Frame6d),
        ])
        .unwrap_err();
    assert!(err.to_string().contains("twice"));
    assert!(model.set_parameters(&["gripper"]).is_err());
    let mut fixed = load_model("models/z1.urdf", false);
    let err = fixed
        .set_contacts(&[("world", ContactKind::Point)])
        .unwrap_err();
    assert!(err.to_string().contains("welded to the universe"), "{err}");
    let err = fixed.set_parameters(&["link00"]).unwrap_err();
    assert!(err.to_string().contains("link00"), "{err}");
}
