//! The check of tests/generated_mpc_derivatives.rs (a small robot, in the
//! README's test command) and tests/whole_robot_mpc_derivatives.rs (Go2+Z1,
//! in `scripts/test-long`): every MPC derivative of a generated module with
//! point contacts (frame velocity and acceleration derivatives in LOCAL and
//! LOCAL_WORLD_ALIGNED, centroidal dynamics derivatives, contact drift,
//! contact, contact inverse and impulse dynamics derivatives, the stance
//! step) against the runtime's functions of the same names on three random
//! states, to `TOL` relative.

/// `against_the_runtime!(module, model, seed)`: the body of a `#[test]`;
/// `model` is the runtime's model with the module's contact set.
macro_rules! against_the_runtime {
    ($module:ident, $model:expr, $seed:expr) => {{
        use $module as g;
        let model = $model;
        let c = &model.contacts;
        let mut data = Data::new(&model);
        let mut rng = ChaCha8Rng::seed_from_u64($seed);
        for _ in 0..3 {
            let q = random_q(&model, &mut rng);
            let v = random_vec(model.nv, 1.0, &mut rng);
            let a = random_vec(model.nv, 1.0, &mut rng);
            let tau = random_vec(model.nv, 5.0, &mut rng);
            let lambda = random_vec(g::NC, 50.0, &mut rng);
            let u = random_vec(g::NU, 5.0, &mut rng);
            let qa: &[f64; g::NQ] = q.as_slice().try_into().unwrap();
            let va: &[f64; g::NV] = v.as_slice().try_into().unwrap();
            let aa: &[f64; g::NV] = a.as_slice().try_into().unwrap();
            let ta: &[f64; g::NV] = tau.as_slice().try_into().unwrap();
            let la: &[f64; g::NC] = lambda.as_slice().try_into().unwrap();
            let ua: &[f64; g::NU] = u.as_slice().try_into().unwrap();

            for frame in g::Frame::ALL {
                let id = model.frame_id(frame.name(), FrameKind::Body).unwrap();
                for (reference, (dq, dv), (adq, adv, ada)) in [
                    (
                        ReferenceFrame::Local,
                        g::frame_velocity_derivatives_local(qa, va, frame),
                        g::frame_acceleration_derivatives_local(qa, va, aa, frame),
                    ),
                    (
                        ReferenceFrame::LocalWorldAligned,
                        g::frame_velocity_derivatives_local_world_aligned(qa, va, frame),
                        g::frame_acceleration_derivatives_local_world_aligned(qa, va, aa, frame),
                    ),
                ] {
                    let tag = |w: &str| format!("{frame:?} {reference:?} {w}");
                    let (wq, wv) =
                        frame_velocity_derivatives(&model, &mut data, &q, &v, id, reference)
                            .unwrap();
                    assert_close(&tag("dv_dq"), dq.as_flattened(), &wq, TOL);
                    assert_close(&tag("dv_dv"), dv.as_flattened(), &wv, TOL);
                    let (wq, wv, wa) = frame_acceleration_derivatives(
                        &model, &mut data, &q, &v, &a, id, reference,
                    )
                    .unwrap();
                    assert_close(&tag("da_dq"), adq.as_flattened(), &wq, TOL);
                    assert_close(&tag("da_dv"), adv.as_flattened(), &wv, TOL);
                    assert_close(&tag("da_da"), ada.as_flattened(), &wa, TOL);
                }
            }

            let (dh_dq, dhdot_dq, dhdot_dv, dhdot_da) =
                g::centroidal_dynamics_derivatives(qa, va, aa);
            let w = centroidal_dynamics_derivatives(&model, &mut data, &q, &v, &a).unwrap();
            assert_close("dh_dq", dh_dq.as_flattened(), &w.dh_dq, TOL);
            assert_close("dhdot_dq", dhdot_dq.as_flattened(), &w.dhdot_dq, TOL);
            assert_close("dhdot_dv", dhdot_dv.as_flattened(), &w.dhdot_dv, TOL);
            assert_close("dhdot_da", dhdot_da.as_flattened(), &w.dhdot_da, TOL);

            let (gq, gv) = g::contact_drift_derivatives(qa, va);
            let (wq, wv) = contact_drift_derivatives(&model, &mut data, &q, &v, c).unwrap();
            assert_close("dgamma_dq", gq.as_flattened(), &wq, TOL);
            assert_close("dgamma_dv", gv.as_flattened(), &wv, TOL);

            for damping in [0.0, 1e-6] {
                let ours = g::contact_dynamics_derivatives(qa, va, ta, damping);
                let w = contact_dynamics_derivatives(&model, &mut data, &q, &v, &tau, c, damping)
                    .unwrap();
                assert_close("ddq_dq", ours.0.as_flattened(), &w.ddq_dq, TOL);
                assert_close("ddq_dv", ours.1.as_flattened(), &w.ddq_dv, TOL);
                assert_close("ddq_dtau", ours.2.as_flattened(), &w.ddq_dtau, TOL);
                assert_close("dlambda_dq", ours.3.as_flattened(), &w.dlambda_dq, TOL);
                assert_close("dlambda_dv", ours.4.as_flattened(), &w.dlambda_dv, TOL);
                assert_close("dlambda_dtau", ours.5.as_flattened(), &w.dlambda_dtau, TOL);
            }

            let ours = g::contact_inverse_dynamics_derivatives(qa, va, aa, la);
            let w = contact_inverse_dynamics_derivatives(&model, &mut data, &q, &v, &a, &lambda, c)
                .unwrap();
            assert_close("dtau_dq", ours.0.as_flattened(), &w.0, TOL);
            assert_close("dtau_dv", ours.1.as_flattened(), &w.1, TOL);
            assert_close("dtau_da", ours.2.as_flattened(), &w.2, TOL);
            assert_close("dtau_dlambda", ours.3.as_flattened(), &w.3, TOL);

            for restitution in [0.0, 0.3] {
                let (v_plus, impulse) = g::impulse_dynamics(qa, va, restitution, 0.0);
                let w = impulse_dynamics(&model, &mut data, &q, &v, c, restitution, 0.0).unwrap();
                assert_close("v+", &v_plus, &w.0, TOL);
                assert_close("impulse", &impulse, &w.1, TOL);
                let ours = g::impulse_dynamics_derivatives(qa, va, restitution, 0.0);
                let w =
                    impulse_dynamics_derivatives(&model, &mut data, &q, &v, c, restitution, 0.0)
                        .unwrap();
                assert_close("dvplus_dq", ours.0.as_flattened(), &w.dvplus_dq, TOL);
                assert_close("dvplus_dv", ours.1.as_flattened(), &w.dvplus_dv, TOL);
                assert_close("dimpulse_dq", ours.2.as_flattened(), &w.dimpulse_dq, TOL);
                assert_close("dimpulse_dv", ours.3.as_flattened(), &w.dimpulse_dv, TOL);
            }

            let (q_next, v_next, a_mat, b_mat) =
                g::contact_step_linearization(qa, va, ua, 0.01, 1e-8);
            let w =
                contact_step_linearization(&model, &mut data, &q, &v, &u, 0.01, c, 1e-8).unwrap();
            assert_close("q+", &q_next, &w.0, TOL);
            assert_close("v+", &v_next, &w.1, TOL);
            assert_close("A", a_mat.as_flattened(), &w.2, TOL);
            assert_close("B", b_mat.as_flattened(), &w.3, TOL);
        }
    }};
}
pub(crate) use against_the_runtime;
