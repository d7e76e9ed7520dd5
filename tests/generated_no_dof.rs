//! A model without degrees of freedom (`tests/urdf/no_dof/rock.urdf`: one
//! link, nq = nv = 0): every function that is defined for it generates
//! `[f64; 0]`-shaped code that compiles and matches the runtime, and the ones
//! that need moving mass (centre of mass, centroidal momentum) are errors that
//! say so, not panics.

#[path = "../runtime/tests/common/mod.rs"]
mod common;

use std::collections::BTreeSet;

use common::{assert_close, root};
use rbdgen::runtime::{
    aba, crba, forward_kinematics, frame_placement, kinetic_energy, minverse, potential_energy,
    rnea, Data, FrameKind, Model,
};
use rbdgen::symbolic::{generate_module, Function, Options};

const URDF: &str = "tests/urdf/no_dof/rock.urdf";

rbdgen::robot_dynamics!(mod rock, "tests/urdf/no_dof/rock.urdf", functions = [
    rnea, crba, aba, minverse, frame_placement, kinetic_energy, potential_energy,
    frame_jacobian_local, rnea_derivatives, aba_derivatives, integrate, difference,
    step_linearization, joint_torque_regressor,
]);

#[test]
fn generated_functions_match_the_runtime() {
    assert_eq!((rock::NQ, rock::NV), (0, 0));
    let model = Model::from_urdf_file(root().join(URDF), false).unwrap();
    let mut data = Data::<f64>::new(&model);
    let (q, v) = ([0.0; 0], [0.0; 0]);
    assert!(rnea(&model, &mut data, &q, &v, &v).unwrap().is_empty());
    assert!(rock::rnea(&q, &v, &v).is_empty());
    assert!(crba(&model, &mut data, &q).unwrap().is_empty());
    assert!(rock::crba(&q).is_empty());
    assert!(aba(&model, &mut data, &q, &v, &v).unwrap().is_empty());
    assert!(rock::aba(&q, &v, &v).is_empty());
    assert!(minverse(&model, &mut data, &q).unwrap().is_empty());
    assert!(rock::minverse(&q).is_empty());
    assert!(rock::integrate(&q, &v).is_empty());
    assert!(rock::difference(&q, &q).is_empty());
    let (dq, dv, da) = rock::rnea_derivatives(&q, &v, &v);
    assert!(dq.is_empty() && dv.is_empty() && da.is_empty());
    let (dq, dv, dtau) = rock::aba_derivatives(&q, &v, &v);
    assert!(dq.is_empty() && dv.is_empty() && dtau.is_empty());
    assert_eq!(
        rock::frame_jacobian_local(&q, rock::Frame::Rock),
        [[0.0; 0]; 6]
    );
    assert_close(
        "kinetic_energy",
        &[rock::kinetic_energy(&q, &v)],
        &[kinetic_energy(&model, &mut data, &q, &v).unwrap()],
        1e-12,
    );
    // The fixed link is not a moving body: no potential energy either.
    assert_close(
        "potential_energy",
        &[rock::potential_energy(&q)],
        &[potential_energy(&model, &mut data, &q).unwrap()],
        1e-12,
    );
    forward_kinematics(&model, &mut data, &q).unwrap();
    let id = model.frame_id("rock", FrameKind::Body).unwrap();
    let placement = frame_placement(&model, &data, id).unwrap().to_homogeneous();
    assert_close(
        "frame_placement",
        rock::frame_placement(&q, rock::Frame::Rock).as_flattened(),
        placement.as_flattened(),
        0.0,
    );
}

#[test]
fn functions_that_need_moving_mass_are_errors_that_say_so() {
    let urdf = std::fs::read_to_string(root().join(URDF)).unwrap();
    for function in [
        Function::CenterOfMass,
        Function::JacobianCenterOfMass,
        Function::Ccrba,
        Function::Dccrba,
        Function::CentroidalMomentumRate,
    ] {
        let options = Options {
            functions: BTreeSet::from([function]),
            ..Options::default()
        };
        let e = generate_module(&urdf, &options, |_| {})
            .unwrap_err()
            .to_string();
        assert!(e.contains(function.name()), "{e}");
        assert!(e.contains("the moving bodies have no mass"), "{e}");
    }
}
