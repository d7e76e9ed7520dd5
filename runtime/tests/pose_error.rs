//! `pose_error`: `e = log6(oMf⁻¹ · target)` is zero at the target, and its
//! Jacobian `J_e` matches central differences of `e(q ⊕ δq)` in the tangent
//! space, on Go2+Z1 (floating base) and Z1 (fixed).

mod common;

use common::{assert_close, random_q};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen_runtime::{
    forward_kinematics, frame_placement, integrate, pose_error, Data, FrameKind, Model, Transform,
};

fn check(urdf: &str, floating: bool, frame_name: &str) {
    let model = Model::from_urdf_file(common::root().join(urdf), floating).unwrap();
    let frame = model.frame_id(frame_name, FrameKind::Body).unwrap();
    let nv = model.nv;
    let mut data = Data::<f64>::new(&model);
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    for _ in 0..4 {
        let q_target = random_q(&model, &mut rng);
        forward_kinematics(&model, &mut data, &q_target).unwrap();
        let target: Transform<f64> = frame_placement(&model, &data, frame).unwrap();
        let (e, _) = pose_error(&model, &mut data, &q_target, frame, &target).unwrap();
        assert_close("e at the target", &e, &[0.0; 6], 1e-12);
        let q = random_q(&model, &mut rng);
        let (e, j_e) = pose_error(&model, &mut data, &q, frame, &target).unwrap();
        assert!(
            e.iter().map(|x| x * x).sum::<f64>() > 1e-4,
            "a distinct pose"
        );
        let h = 1e-6;
        for k in 0..nv {
            let mut d = vec![0.0; nv];
            d[k] = h;
            let qp = integrate(&model, &q, &d).unwrap();
            d[k] = -h;
            let qm = integrate(&model, &q, &d).unwrap();
            let (ep, _) = pose_error(&model, &mut data, &qp, frame, &target).unwrap();
            let (em, _) = pose_error(&model, &mut data, &qm, frame, &target).unwrap();
            let fd: Vec<f64> = ep
                .iter()
                .zip(&em)
                .map(|(p, m)| (p - m) / (2.0 * h))
                .collect();
            let col: Vec<f64> = (0..6).map(|r| j_e[r * nv + k]).collect();
            assert_close(&format!("{urdf} J_e col {k}"), &col, &fd, 1e-6);
        }
    }
}

#[test]
fn go2_z1_gripper_central_differences() {
    check("models/go2_z1.urdf", true, "gripper_link");
}

#[test]
fn z1_central_differences() {
    check("models/z1.urdf", false, "link06");
}
