//! `rbdgen::na` on generated code (feature `nalgebra`): Go2+Z1's `rnea`,
//! `crba`, `aba` and `frame_placement` called on `SVector`s, their results as
//! `SMatrix` and `Isometry3`, against the identities they must satisfy.

use rbdgen::na::nalgebra::{SMatrix, SVector};
use rbdgen::na::{self, array_ref};

rbdgen::robot_dynamics!(
    mod go2_z1,
    "models/go2_z1.urdf",
    floating_base,
    functions = [rnea, crba, aba, frame_placement]
);

use go2_z1::{Frame, NQ, NV};

/// A configuration with a rotated, displaced base (unit quaternion) and bent joints.
fn configuration() -> SVector<f64, NQ> {
    let mut q = na::vector(go2_z1::NEUTRAL);
    let base = na::nalgebra::Isometry3::new(
        na::nalgebra::Vector3::new(0.1, -0.2, 0.35),
        na::nalgebra::Vector3::new(0.2, -0.1, 0.4),
    );
    na::set_base_placement(q.as_mut_slice(), &base);
    for k in 7..NQ {
        q[k] = 0.1 * (k as f64 - 15.0);
    }
    q
}

#[test]
fn dynamics_through_nalgebra() {
    let q = configuration();
    let v = SVector::<f64, NV>::from_fn(|k, _| 0.3 - 0.05 * k as f64);
    let tau = SVector::<f64, NV>::from_fn(|k, _| (k as f64).sin());
    let zero = SVector::<f64, NV>::zeros();
    let h = na::vector(go2_z1::rnea(array_ref(&q), array_ref(&v), array_ref(&zero)));
    let m: SMatrix<f64, NV, NV> = na::matrix(&go2_z1::crba(array_ref(&q)));
    let a = na::vector(go2_z1::aba(array_ref(&q), array_ref(&v), array_ref(&tau)));
    // M(q) a + h(q, v) = tau.
    assert!((m * a + h - tau).norm() < 1e-9 * tau.norm().max(1.0));
    // The symmetric mass matrix: the zero-copy transposition and the view are it.
    let rows = go2_z1::crba(array_ref(&q));
    assert_eq!(na::transposed(rows), m);
    assert_eq!(na::transposed_view(&rows), m);
    assert_eq!(na::rows(&m), rows);
    // The same solve from the Cholesky factor of M.
    let a_chol = m.cholesky().unwrap().solve(&(tau - h));
    assert!((a_chol - a).norm() < 1e-9 * a.norm().max(1.0));
}

#[test]
fn placements_through_nalgebra() {
    let q = configuration();
    let base = na::isometry(&go2_z1::frame_placement(array_ref(&q), Frame::Base));
    let expected = na::base_placement(q.as_slice());
    assert!((base.to_homogeneous() - expected.to_homogeneous()).norm() < 1e-12);
    let gripper = go2_z1::frame_placement(array_ref(&q), Frame::GripperLink);
    assert_eq!(
        na::homogeneous(&na::isometry(&gripper))[3],
        [0.0, 0.0, 0.0, 1.0]
    );
    let back = na::homogeneous(&na::isometry(&gripper));
    for (row, row_back) in gripper.iter().zip(back) {
        for (x, y) in row.iter().zip(row_back) {
            assert!((x - y).abs() < 1e-12);
        }
    }
}
