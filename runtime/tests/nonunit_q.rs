//! Configurations off the manifold are used as given, as Pinocchio does: a
//! free-flyer quaternion that is not unit gives Pinocchio's numbers (1e-8) in
//! RNEA, CRBA, ABA and forward kinematics, which differ from those of the
//! normalised configuration. A continuous joint's `[cos θ, sin θ]` off the unit
//! circle gives Pinocchio's RNEA, ABA and placements, but not its CRBA: both
//! move inertias with formulas that hold for rotations only, and the formulas
//! differ (first-moment form here, centre-of-mass form in Pinocchio).
//! Reference: `tests/reference/nonunit/nonunit_q.json` (scripts/make_nonunit_reference.py).

mod common;

use common::{assert_close, flat, load_model};
use rbdgen_runtime::{aba, crba, forward_kinematics, rnea, Data};
use serde_json::Value;

const TOL: f64 = 1e-8;

#[test]
fn non_unit_configurations_match_pinocchio() {
    let path = common::root().join("tests/reference/nonunit/nonunit_q.json");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = json["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 4);
    for (k, case) in cases.iter().enumerate() {
        let model = load_model(
            case["urdf"].as_str().unwrap(),
            case["floating_base"].as_bool().unwrap(),
        );
        let [q, v, a, tau] = ["q", "v", "a", "tau"].map(|key| flat(&case[key]));
        let mut data = Data::new(&model);
        let what = |s: &str| format!("case {k}: {s}");
        let tau_ours = rnea(&model, &mut data, &q, &v, &a).unwrap().to_vec();
        assert_close(&what("rnea"), &tau_ours, &flat(&case["rnea"]), TOL);
        let off_circle = model
            .joints
            .iter()
            .any(|j| j.kind.nq() == 2 && (q[j.idx_q].hypot(q[j.idx_q + 1]) - 1.0).abs() > 1e-12);
        if !off_circle {
            assert_close(
                &what("crba"),
                crba(&model, &mut data, &q).unwrap(),
                &flat(&case["crba"]),
                TOL,
            );
        }
        assert_close(
            &what("aba"),
            aba(&model, &mut data, &q, &v, &tau).unwrap(),
            &flat(&case["aba"]),
            TOL,
        );
        forward_kinematics(&model, &mut data, &q).unwrap();
        for (i, omi) in case["omi"].as_array().unwrap().iter().enumerate() {
            let ours = data.o_mi[i + 1].to_homogeneous();
            assert_close(
                &what(&format!("oMi[{}]", i + 1)),
                ours.as_flattened(),
                &flat(omi),
                TOL,
            );
        }
        // The test means something: the normalised configuration gives other torques.
        let mut normalised = q.clone();
        for joint in &model.joints {
            let range = match joint.kind.nq() {
                7 => joint.idx_q + 3..joint.idx_q + 7,
                2 => joint.idx_q..joint.idx_q + 2,
                _ => continue,
            };
            let norm = normalised[range.clone()]
                .iter()
                .map(|x| x * x)
                .sum::<f64>()
                .sqrt();
            normalised[range].iter_mut().for_each(|x| *x /= norm);
        }
        let tau_unit = rnea(&model, &mut data, &normalised, &v, &a)
            .unwrap()
            .to_vec();
        let gap = tau_ours
            .iter()
            .zip(&tau_unit)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max);
        assert!(
            gap > 1e-3,
            "case {k}: normalising changes rnea by only {gap:e}"
        );
    }
}
