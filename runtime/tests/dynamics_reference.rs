//! The dynamics quantities of the eval format (nle, gravity, minv, com, jcom,
//! ag, hg, dag, energies, frame Jacobians) and RNEA with external forces
//! against Pinocchio's reference values, every reference file, every state, at
//! the format's tolerance; plus the identities that tie them together.

mod common;

use common::{assert_close, assert_quantity, flat, Reference};
use rbdgen_runtime::{
    ccrba, center_of_mass, compute_joint_jacobians, crba, dccrba, frame_jacobian,
    generalized_gravity, jacobian_center_of_mass, joint_jacobian, kinetic_energy, minverse,
    nonlinear_effects, potential_energy, rnea, rnea_fext, Data, Force, FrameKind, ReferenceFrame,
};

const TOL: f64 = 1e-8;

fn check(name: &str) {
    let r = Reference::load(name);
    let model = &r.model;
    let nv = model.nv;
    let mut data = Data::<f64>::new(model);
    for (k, s) in r.states().iter().enumerate() {
        let tag = |what: &str| format!("{name} state {k} {what}");
        let (q, v, a) = (flat(&s["q"]), flat(&s["v"]), flat(&s["a"]));

        let nle = nonlinear_effects(model, &mut data, &q, &v)
            .unwrap()
            .to_vec();
        assert_quantity(&tag, s, "nle", &nle);
        let gravity = generalized_gravity(model, &mut data, &q).unwrap().to_vec();
        assert_quantity(&tag, s, "gravity", &gravity);

        let minv = minverse(model, &mut data, &q).unwrap().to_vec();
        assert_quantity(&tag, s, "minv", &minv);
        // M M⁻¹ = I.
        let m = crba(model, &mut data, &q).unwrap().to_vec();
        let product: Vec<f64> = (0..nv * nv)
            .map(|e| {
                (0..nv)
                    .map(|l| m[e / nv * nv + l] * minv[l * nv + e % nv])
                    .sum()
            })
            .collect();
        let identity: Vec<f64> = (0..nv * nv)
            .map(|e| if e / nv == e % nv { 1.0 } else { 0.0 })
            .collect();
        assert_close(&tag("M minv"), &product, &identity, 1e-9);

        let com = center_of_mass(model, &mut data, &q).unwrap();
        assert_quantity(&tag, s, "com", &com.0);
        let jcom = jacobian_center_of_mass(model, &mut data, &q)
            .unwrap()
            .to_vec();
        assert_quantity(&tag, s, "jcom", &jcom);
        assert_close(&tag("com from jcom"), &data.com.0, &flat(&s["com"]), TOL);

        let (ag, hg) = ccrba(model, &mut data, &q, &v).unwrap();
        let ag = ag.to_vec();
        assert_quantity(&tag, s, "ag", &ag);
        assert_quantity(&tag, s, "hg", &hg.to_array());
        let dag = dccrba(model, &mut data, &q, &v).unwrap().to_vec();
        assert_quantity(&tag, s, "dag", &dag);
        assert_close(&tag("ag from dccrba"), &data.ag, &ag, 1e-14);

        let ke = kinetic_energy(model, &mut data, &q, &v).unwrap();
        assert_close(&tag("kinetic"), &[ke], &flat(&s["kinetic_energy"]), TOL);
        let pe = potential_energy(model, &mut data, &q).unwrap();
        assert_close(&tag("potential"), &[pe], &flat(&s["potential_energy"]), TOL);

        compute_joint_jacobians(model, &mut data, &q).unwrap();
        for (frame, value) in s["frames"].as_object().unwrap() {
            let id = model.frame_id(frame, FrameKind::Body).unwrap();
            for (reference, key) in [
                (ReferenceFrame::Local, "jacobian_local"),
                (ReferenceFrame::World, "jacobian_world"),
                (
                    ReferenceFrame::LocalWorldAligned,
                    "jacobian_local_world_aligned",
                ),
            ] {
                let ours = frame_jacobian(model, &data, id, reference).unwrap();
                assert_close(
                    &tag(&format!("{frame} {key}")),
                    &ours,
                    &flat(&value[key]),
                    TOL,
                );
                // A link frame at its joint's origin has the joint's Jacobian.
                let f = &model.frames[id];
                if f.parent_joint > 0 && f.placement == rbdgen_runtime::Transform::identity() {
                    let joint = joint_jacobian(model, &data, f.parent_joint, reference).unwrap();
                    assert_close(&tag(&format!("joint of {frame} {key}")), &joint, &ours, 0.0);
                }
            }
        }

        let fext: Vec<Force<f64>> = s["fext"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| Force::from_slice(&flat(row)))
            .collect();
        assert_eq!(fext.len(), model.njoints(), "{name}: fext rows");
        let tau = rnea_fext(model, &mut data, &q, &v, &a, &fext)
            .unwrap()
            .to_vec();
        assert_quantity(&tag, s, "rnea_fext", &tau);
        let zero = vec![Force::zero(); model.njoints()];
        let tau0 = rnea_fext(model, &mut data, &q, &v, &a, &zero)
            .unwrap()
            .to_vec();
        assert_eq!(
            tau0,
            rnea(model, &mut data, &q, &v, &a).unwrap(),
            "{name}: rnea_fext(0).unwrap() = rnea"
        );
    }
}

#[test]
fn every_reference_file() {
    common::check_every_reference(check);
}
