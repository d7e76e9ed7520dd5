//! Generated `step_linearization` and `pose_error` on Go2+Z1 (floating base):
//! against the runtime (1e-10) and against central differences of the
//! generated functions themselves in the tangent space.

#[path = "../runtime/tests/common/mod.rs"]
mod common;

use common::{assert_close, random_q, random_vec};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen::runtime::{
    actuated_dofs, forward_kinematics, frame_placement, pose_error, step_linearization, Data,
    FrameKind, Model, Transform,
};

rbdgen::robot_dynamics!(mod go2_z1, "models/go2_z1.urdf", floating_base, functions = [step_linearization, pose_error, integrate, difference]);

use go2_z1::{Frame, NQ, NU, NV};

fn model() -> Model {
    Model::from_urdf_file(common::root().join("models/go2_z1.urdf"), true).unwrap()
}

fn array<const N: usize>(x: &[f64]) -> [f64; N] {
    x.try_into().unwrap()
}

#[test]
fn actuation_constants() {
    let model = model();
    assert_eq!(NU, 18);
    assert_eq!(go2_z1::ACTUATED_DOFS.to_vec(), actuated_dofs(&model));
}

#[test]
fn step_linearization_matches_runtime_and_central_differences() {
    let model = model();
    let mut dual = Data::<f64>::new(&model);
    let mut rng = ChaCha8Rng::seed_from_u64(51);
    let n2 = 2 * NV;
    for h in [1e-3, 1e-2, 5e-2] {
        let q: [f64; NQ] = array(&random_q(&model, &mut rng));
        let v: [f64; NV] = array(&random_vec(NV, 1.0, &mut rng));
        let u: [f64; NU] = array(&random_vec(NU, 5.0, &mut rng));
        let (q1, v1, a, b) = go2_z1::step_linearization(&q, &v, &u, h);
        let (q_want, v_want, a_want, b_want) =
            step_linearization(&model, &mut dual, &q, &v, &u, h).unwrap();
        assert_close("q+", &q1, &q_want, 1e-10);
        assert_close("v+", &v1, &v_want, 1e-10);
        assert_close("A", a.as_flattened(), &a_want, 1e-10);
        assert_close("B", b.as_flattened(), &b_want, 1e-10);
        // Central differences of the generated step, mapped through difference.
        let error = |dx: &[f64], du: &[f64]| -> Vec<f64> {
            let qp = go2_z1::integrate(&q, &array(&dx[..NV]));
            let vp: [f64; NV] = core::array::from_fn(|i| v[i] + dx[NV + i]);
            let up: [f64; NU] = core::array::from_fn(|i| u[i] + du[i]);
            let (qn, vn, _, _) = go2_z1::step_linearization(&qp, &vp, &up, h);
            let dq = go2_z1::difference(&q1, &qn);
            dq.iter()
                .copied()
                .chain((0..NV).map(|i| vn[i] - v1[i]))
                .collect()
        };
        let eps = 1e-6;
        let unit = |n: usize, k: usize, s: f64| -> Vec<f64> {
            let mut e = vec![0.0; n];
            e[k] = s;
            e
        };
        let central = |p: Vec<f64>, m: Vec<f64>| -> Vec<f64> {
            p.iter()
                .zip(&m)
                .map(|(p, m)| (p - m) / (2.0 * eps))
                .collect()
        };
        for k in 0..n2 {
            let fd = central(
                error(&unit(n2, k, eps), &[0.0; NU]),
                error(&unit(n2, k, -eps), &[0.0; NU]),
            );
            let col: Vec<f64> = a.iter().map(|row| row[k]).collect();
            assert_close(&format!("h = {h}: A col {k}"), &col, &fd, 1e-6);
        }
        for k in 0..NU {
            let fd = central(
                error(&[0.0; 48], &unit(NU, k, eps)),
                error(&[0.0; 48], &unit(NU, k, -eps)),
            );
            let col: Vec<f64> = b.iter().map(|row| row[k]).collect();
            assert_close(&format!("h = {h}: B col {k}"), &col, &fd, 1e-6);
        }
    }
}

#[test]
fn pose_error_matches_runtime_and_central_differences() {
    let model = model();
    let mut data = Data::<f64>::new(&model);
    let mut rng = ChaCha8Rng::seed_from_u64(52);
    let frame = model.frame_id("gripper_link", FrameKind::Body).unwrap();
    for _ in 0..4 {
        forward_kinematics(&model, &mut data, &random_q(&model, &mut rng)).unwrap();
        let target: Transform<f64> = frame_placement(&model, &data, frame).unwrap();
        let target_h = target.to_homogeneous();
        let q: [f64; NQ] = array(&random_q(&model, &mut rng));
        let (e, j) = go2_z1::pose_error(&q, &target_h, Frame::GripperLink);
        let (e_want, j_want) = pose_error(&model, &mut data, &q, frame, &target).unwrap();
        assert_close("e", &e, &e_want, 1e-10);
        assert_close("J_e", j.as_flattened(), &j_want, 1e-10);
        let h = 1e-6;
        for k in 0..NV {
            let mut d = [0.0; NV];
            d[k] = h;
            let (ep, _) =
                go2_z1::pose_error(&go2_z1::integrate(&q, &d), &target_h, Frame::GripperLink);
            d[k] = -h;
            let (em, _) =
                go2_z1::pose_error(&go2_z1::integrate(&q, &d), &target_h, Frame::GripperLink);
            let fd: Vec<f64> = ep
                .iter()
                .zip(&em)
                .map(|(p, m)| (p - m) / (2.0 * h))
                .collect();
            let col: Vec<f64> = (0..6).map(|r| j[r][k]).collect();
            assert_close(&format!("J_e col {k}"), &col, &fd, 1e-6);
        }
    }
}
