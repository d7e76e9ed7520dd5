//! Code generated with mimic joints (`robot_dynamics!(.., mimic)`, `rbdgen
//! generate --mimic`) for Panda (the second finger mimics the first) and a
//! hand-made chain of mimics on a free-flyer, against the generic runtime on
//! the same model (1e-10) and Panda's against Pinocchio's
//! `buildModelFromUrdf(.., mimic=True)` (`tests/reference/mimic/`, 1e-8).

#[path = "../runtime/tests/common/mod.rs"]
mod common;

use common::{assert_close, flat, random_q, random_vec, root};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen::runtime::{
    aba, aba_derivatives, compute_joint_jacobians, crba, difference, frame_jacobian,
    frame_placement, minverse, rnea, rnea_derivatives, Data, FrameKind, Model, ReferenceFrame,
};
use serde_json::Value;

rbdgen::robot_dynamics!(mod panda, "models/panda.urdf", mimic, functions = [
    rnea, crba, aba, minverse, frame_placement, frame_jacobian_local, rnea_derivatives,
    aba_derivatives, difference,
]);

rbdgen::robot_dynamics!(mod chain, "tests/urdf/mimic/chain.urdf", floating_base, mimic, functions = [
    rnea, crba, aba, minverse, frame_placement, frame_jacobian_local, rnea_derivatives,
    aba_derivatives, difference,
]);

/// Runs one generated module against the runtime's model loaded with mimic joints.
macro_rules! against_runtime {
    ($m:ident, $urdf:expr, $floating:expr) => {{
        let model = Model::from_urdf_file_mimic(root().join($urdf), $floating).unwrap();
        assert_eq!(($m::NQ, $m::NV), (model.nq, model.nv));
        assert_eq!($m::NEUTRAL.to_vec(), model.neutral());
        let mut data = Data::<f64>::new(&model);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let tol = 1e-10;
        for _ in 0..20 {
            let q = random_q(&model, &mut rng);
            let q2 = random_q(&model, &mut rng);
            let (v, a, tau) = (
                random_vec(model.nv, 1.0, &mut rng),
                random_vec(model.nv, 1.0, &mut rng),
                random_vec(model.nv, 1.0, &mut rng),
            );
            let (qa, q2a): (&[f64; $m::NQ], &[f64; $m::NQ]) =
                (q[..].try_into().unwrap(), q2[..].try_into().unwrap());
            let (va, aa, ta): (&[f64; $m::NV], &[f64; $m::NV], &[f64; $m::NV]) = (
                v[..].try_into().unwrap(),
                a[..].try_into().unwrap(),
                tau[..].try_into().unwrap(),
            );
            assert_close(
                "rnea",
                &$m::rnea(qa, va, aa),
                rnea(&model, &mut data, &q, &v, &a).unwrap(),
                tol,
            );
            assert_close(
                "crba",
                $m::crba(qa).as_flattened(),
                crba(&model, &mut data, &q).unwrap(),
                tol,
            );
            assert_close(
                "aba",
                &$m::aba(qa, va, ta),
                aba(&model, &mut data, &q, &v, &tau).unwrap(),
                tol,
            );
            assert_close(
                "minverse",
                $m::minverse(qa).as_flattened(),
                minverse(&model, &mut data, &q).unwrap(),
                tol,
            );
            let (dq, dv, da) = $m::rnea_derivatives(qa, va, aa);
            let want = rnea_derivatives(&model, &mut data, &q, &v, &a).unwrap();
            assert_close("dtau_dq", dq.as_flattened(), &want.d_dq, tol);
            assert_close("dtau_dv", dv.as_flattened(), &want.d_dv, tol);
            assert_close("dtau_da", da.as_flattened(), &want.d_du, tol);
            let (dq, dv, dtau) = $m::aba_derivatives(qa, va, ta);
            let want = aba_derivatives(&model, &mut data, &q, &v, &tau).unwrap();
            assert_close("ddq_dq", dq.as_flattened(), &want.d_dq, 1e-9);
            assert_close("ddq_dv", dv.as_flattened(), &want.d_dv, 1e-9);
            assert_close("ddq_dtau", dtau.as_flattened(), &want.d_du, tol);
            assert_close(
                "difference",
                &$m::difference(qa, q2a),
                &difference(&model, &q, &q2).unwrap(),
                tol,
            );
            compute_joint_jacobians(&model, &mut data, &q).unwrap();
            for frame in $m::Frame::ALL {
                let id = model.frame_id(frame.name(), FrameKind::Body).unwrap();
                let placement = frame_placement(&model, &data, id).unwrap().to_homogeneous();
                assert_close(
                    frame.name(),
                    $m::frame_placement(qa, frame).as_flattened(),
                    placement.as_flattened(),
                    tol,
                );
                assert_close(
                    frame.name(),
                    $m::frame_jacobian_local(qa, frame).as_flattened(),
                    &frame_jacobian(&model, &data, id, ReferenceFrame::Local).unwrap(),
                    tol,
                );
            }
        }
    }};
}

#[test]
fn panda_with_mimic_fingers_matches_the_runtime() {
    assert_eq!((panda::NQ, panda::NV), (8, 8));
    against_runtime!(panda, "models/panda.urdf", false);
}

#[test]
fn a_chain_of_mimics_on_a_free_flyer_matches_the_runtime() {
    assert_eq!((chain::NQ, chain::NV), (9, 8));
    against_runtime!(chain, "tests/urdf/mimic/chain.urdf", true);
}

/// Panda's generated functions against Pinocchio's values for the mimic model.
#[test]
fn panda_with_mimic_fingers_matches_pinocchio() {
    let path = root().join("tests/reference/mimic/panda_fixed.json");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let states = json["states"].as_array().unwrap();
    assert!(!states.is_empty());
    for s in states {
        let (q, v, a, tau) = (flat(&s["q"]), flat(&s["v"]), flat(&s["a"]), flat(&s["tau"]));
        let qa: &[f64; panda::NQ] = q[..].try_into().unwrap();
        let (va, aa, ta): (&[f64; panda::NV], &[f64; panda::NV], &[f64; panda::NV]) = (
            v[..].try_into().unwrap(),
            a[..].try_into().unwrap(),
            tau[..].try_into().unwrap(),
        );
        assert_close("rnea", &panda::rnea(qa, va, aa), &flat(&s["rnea"]), 1e-8);
        assert_close(
            "crba",
            panda::crba(qa).as_flattened(),
            &flat(&s["crba"]),
            1e-8,
        );
        assert_close("aba", &panda::aba(qa, va, ta), &flat(&s["aba"]), 1e-8);
        for frame in panda::Frame::ALL {
            let want = &s["frames"][frame.name()];
            let placement = panda::frame_placement(qa, frame);
            assert_close(
                frame.name(),
                placement.as_flattened(),
                &flat(&want["placement"]),
                1e-8,
            );
            let j = panda::frame_jacobian_local(qa, frame);
            assert_close(
                frame.name(),
                j.as_flattened(),
                &flat(&want["jacobian_local"]),
                1e-8,
            );
        }
    }
}
