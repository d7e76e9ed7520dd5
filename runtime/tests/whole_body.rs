//! The whole-body control quantities (armature, external forces in forward
//! dynamics, Jacobian time variation and acceleration drifts, centroidal
//! momentum rate, torque regressor, contact Jacobian, drift and dynamics,
//! and the MPC derivatives: frame velocity and acceleration, centroidal,
//! contact and impulse dynamics)
//! against Pinocchio's values in `tests/reference/wbc/` and
//! `tests/reference/joints/`, each made with an armature (random, or the
//! MJCF file's) and a contact set written in its header.

mod common;

use common::{assert_close, assert_quantity, flat, Reference};
use rbdgen_runtime::{
    aba, aba_derivatives, aba_derivatives_fext, aba_fext, centroidal_dynamics_derivatives,
    centroidal_momentum_rate, compute_joint_jacobians_time_variation, contact_drift,
    contact_dynamics, contact_dynamics_derivatives, contact_jacobian, crba,
    frame_acceleration_derivatives, frame_acceleration_drift, frame_jacobian_time_variation,
    frame_velocity_derivatives, impulse_dynamics, impulse_dynamics_derivatives,
    joint_torque_regressor, kinetic_energy, minverse, rnea, rnea_derivatives, rnea_fext,
    ContactKind, Data, Force, FrameKind, ReferenceFrame,
};
use serde_json::Value;

const TOL: f64 = 1e-8;

const FILES: [&str; 9] = [
    "wbc/go2_z1_floating",
    "wbc/go2_z1_floating_gripper",
    "wbc/go2_floating",
    "wbc/z1_fixed",
    "wbc/double_pendulum_continuous_fixed",
    // Planar and spherical joints (tests/joints/, runtime/tests/joint_kinds.rs).
    "joints/planar_fixed",
    "joints/planar_floating",
    "joints/ball_fixed",
    "joints/ball_floating",
];

/// The files of [`FILES`] with the MPC derivative quantities
/// (`make_reference.py --mpc`): every state has the centroidal and per-frame
/// keys, and the contact ones when the header has contacts.
const MPC_FILES: [&str; 5] = [
    "wbc/go2_z1_floating",
    "wbc/go2_z1_floating_gripper",
    "wbc/go2_floating",
    "wbc/z1_fixed",
    "wbc/double_pendulum_continuous_fixed",
];

/// `value[key]` of a reference state, which must be there.
fn key<'a>(value: &'a Value, key: &str, tag: &str) -> &'a Value {
    value
        .get(key)
        .unwrap_or_else(|| panic!("{tag}: the reference has no `{key}`"))
}

/// The reference with its header's armature and contact set applied.
fn load(name: &str) -> Reference {
    let mut r = Reference::load(name);
    let header = r.json["model"].clone();
    if let Some(arm) = header.get("armature") {
        r.model.armature = flat(arm);
        assert!(
            r.model.armature.iter().any(|&a| a > 0.0),
            "{name}: armature"
        );
    }
    if let Some(contacts) = header.get("contacts").and_then(Value::as_array) {
        let set: Vec<(&str, ContactKind)> = contacts
            .iter()
            .map(|c| {
                let kind = ContactKind::from_name(c["type"].as_str().unwrap()).unwrap();
                (c["frame"].as_str().unwrap(), kind)
            })
            .collect();
        r.model.set_contacts(&set).unwrap();
    }
    r
}

fn fext_of(s: &Value) -> Vec<Force<f64>> {
    s["fext"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| Force::from_slice(&flat(w)))
        .collect()
}

#[test]
fn armature_and_fext_against_pinocchio() {
    for name in FILES {
        let r = load(name);
        let model = &r.model;
        let mut data = Data::<f64>::new(model);
        for (k, s) in r.states().iter().enumerate() {
            let tag = |what: &str| format!("{name} state {k} {what}");
            let (q, v, a, tau) = (flat(&s["q"]), flat(&s["v"]), flat(&s["a"]), flat(&s["tau"]));
            let fext = fext_of(s);
            assert_quantity(&tag, s, "rnea", rnea(model, &mut data, &q, &v, &a).unwrap());
            assert_quantity(&tag, s, "crba", crba(model, &mut data, &q).unwrap());
            assert_quantity(&tag, s, "aba", aba(model, &mut data, &q, &v, &tau).unwrap());
            assert_quantity(&tag, s, "minv", minverse(model, &mut data, &q).unwrap());
            let t = kinetic_energy(model, &mut data, &q, &v).unwrap();
            assert_quantity(&tag, s, "kinetic_energy", &[t]);
            let d = rnea_derivatives(model, &mut data, &q, &v, &a).unwrap();
            let rd = &s["rnea_derivatives"];
            assert_close(&tag("dtau_dq"), &d.d_dq, &flat(&rd["dtau_dq"]), TOL);
            assert_close(&tag("dtau_da"), &d.d_du, &flat(&rd["dtau_da"]), TOL);
            let d = aba_derivatives(model, &mut data, &q, &v, &tau).unwrap();
            let ad = &s["aba_derivatives"];
            assert_close(&tag("ddq_dq"), &d.d_dq, &flat(&ad["ddq_dq"]), TOL);
            assert_close(&tag("ddq_dv"), &d.d_dv, &flat(&ad["ddq_dv"]), TOL);
            assert_close(&tag("ddq_dtau"), &d.d_du, &flat(&ad["ddq_dtau"]), TOL);
            assert_quantity(
                &tag,
                s,
                "rnea_fext",
                rnea_fext(model, &mut data, &q, &v, &a, &fext).unwrap(),
            );
            assert_quantity(
                &tag,
                s,
                "aba_fext",
                aba_fext(model, &mut data, &q, &v, &tau, &fext).unwrap(),
            );
            let d = aba_derivatives_fext(model, &mut data, &q, &v, &tau, &fext).unwrap();
            let ad = &s["aba_derivatives_fext"];
            assert_close(&tag("fext ddq_dq"), &d.d_dq, &flat(&ad["ddq_dq"]), TOL);
            assert_close(&tag("fext ddq_dv"), &d.d_dv, &flat(&ad["ddq_dv"]), TOL);
            assert_close(&tag("fext ddq_dtau"), &d.d_du, &flat(&ad["ddq_dtau"]), TOL);
        }
    }
}

#[test]
fn frame_accelerations_against_pinocchio() {
    for name in FILES {
        let r = load(name);
        let model = &r.model;
        let mut data = Data::<f64>::new(model);
        for (k, s) in r.states().iter().enumerate() {
            let (q, v) = (flat(&s["q"]), flat(&s["v"]));
            compute_joint_jacobians_time_variation(model, &mut data, &q, &v).unwrap();
            let mut drift_data = Data::<f64>::new(model);
            for (frame, value) in s["frames"].as_object().unwrap() {
                let tag = |what: &str| format!("{name} state {k} {frame} {what}");
                let id = model.frame_id(frame, FrameKind::Body).unwrap();
                for (reference, key) in [
                    (ReferenceFrame::Local, "jacobian_time_variation_local"),
                    (ReferenceFrame::World, "jacobian_time_variation_world"),
                    (
                        ReferenceFrame::LocalWorldAligned,
                        "jacobian_time_variation_local_world_aligned",
                    ),
                ] {
                    let ours = frame_jacobian_time_variation(model, &data, id, reference).unwrap();
                    assert_close(&tag(key), &ours, &flat(&value[key]), TOL);
                }
                let drift = frame_acceleration_drift(model, &mut drift_data, &q, &v, id).unwrap();
                for (ours, key) in [
                    (drift.local, "acceleration_drift_local"),
                    (
                        drift.local_world_aligned,
                        "acceleration_drift_local_world_aligned",
                    ),
                    (
                        drift.classical_local_world_aligned,
                        "classical_acceleration_drift_local_world_aligned",
                    ),
                ] {
                    assert_close(&tag(key), &ours.to_array(), &flat(&value[key]), TOL);
                }
            }
        }
    }
}

#[test]
fn centroidal_rate_and_regressor_against_pinocchio() {
    for name in FILES {
        let r = load(name);
        let model = &r.model;
        let mut data = Data::<f64>::new(model);
        for (k, s) in r.states().iter().enumerate() {
            let tag = |what: &str| format!("{name} state {k} {what}");
            let (q, v, a) = (flat(&s["q"]), flat(&s["v"]), flat(&s["a"]));
            let dhg = centroidal_momentum_rate(model, &mut data, &q, &v, &a).unwrap();
            assert_quantity(&tag, s, "dhg", &dhg.to_array());
            let y = joint_torque_regressor(model, &mut data, &q, &v, &a).unwrap();
            assert_quantity(&tag, s, "regressor", &y);
        }
    }
}

#[test]
fn contacts_against_pinocchio() {
    for name in FILES {
        let r = load(name);
        let model = &r.model;
        if model.contacts.is_empty() {
            continue;
        }
        let mut data = Data::<f64>::new(model);
        for (k, s) in r.states().iter().enumerate() {
            let tag = |what: &str| format!("{name} state {k} {what}");
            let (q, v, tau) = (flat(&s["q"]), flat(&s["v"]), flat(&s["tau"]));
            let c = &model.contacts;
            let j = contact_jacobian(model, &mut data, &q, c).unwrap();
            assert_quantity(&tag, s, "contact_jacobian", &j);
            let g = contact_drift(model, &mut data, &q, &v, c).unwrap();
            assert_quantity(&tag, s, "contact_drift", &g);
            let (ddq, lambda) = contact_dynamics(model, &mut data, &q, &v, &tau, c, 0.0).unwrap();
            let cd = &s["contact_dynamics"];
            assert_close(&tag("contact ddq"), &ddq, &flat(&cd["ddq"]), TOL);
            assert_close(&tag("contact lambda"), &lambda, &flat(&cd["lambda"]), TOL);
        }
    }
}

#[test]
fn frame_velocity_and_acceleration_derivatives_against_pinocchio() {
    for name in MPC_FILES {
        let r = load(name);
        let model = &r.model;
        let mut data = Data::<f64>::new(model);
        for (k, s) in r.states().iter().enumerate() {
            let (q, v, a) = (flat(&s["q"]), flat(&s["v"]), flat(&s["a"]));
            for (frame, value) in s["frames"].as_object().unwrap() {
                let tag = |what: &str| format!("{name} state {k} {frame} {what}");
                let id = model.frame_id(frame, FrameKind::Body).unwrap();
                for (reference, suffix) in [
                    (ReferenceFrame::Local, "local"),
                    (ReferenceFrame::LocalWorldAligned, "local_world_aligned"),
                ] {
                    let vk = format!("velocity_derivatives_{suffix}");
                    let refv = key(value, &vk, &tag(""));
                    let (dv_dq, dv_dv) =
                        frame_velocity_derivatives(model, &mut data, &q, &v, id, reference)
                            .unwrap();
                    for (ours, part) in [(dv_dq, "dv_dq"), (dv_dv, "dv_dv")] {
                        let t = tag(&format!("{vk}.{part}"));
                        assert_close(&t, &ours, &flat(key(refv, part, &t)), TOL);
                    }
                    let ak = format!("acceleration_derivatives_{suffix}");
                    let refa = key(value, &ak, &tag(""));
                    let (da_dq, da_dv, da_da) =
                        frame_acceleration_derivatives(model, &mut data, &q, &v, &a, id, reference)
                            .unwrap();
                    for (ours, part) in [(da_dq, "da_dq"), (da_dv, "da_dv"), (da_da, "da_da")] {
                        let t = tag(&format!("{ak}.{part}"));
                        assert_close(&t, &ours, &flat(key(refa, part, &t)), TOL);
                    }
                }
            }
        }
    }
}

#[test]
fn centroidal_dynamics_derivatives_against_pinocchio() {
    for name in MPC_FILES {
        let r = load(name);
        let model = &r.model;
        let mut data = Data::<f64>::new(model);
        for (k, s) in r.states().iter().enumerate() {
            let tag =
                |what: &str| format!("{name} state {k} centroidal_dynamics_derivatives.{what}");
            let (q, v, a) = (flat(&s["q"]), flat(&s["v"]), flat(&s["a"]));
            let d = centroidal_dynamics_derivatives(model, &mut data, &q, &v, &a).unwrap();
            let rd = key(s, "centroidal_dynamics_derivatives", &tag(""));
            for (ours, part) in [
                (&d.dh_dq, "dh_dq"),
                (&d.dhdot_dq, "dhdot_dq"),
                (&d.dhdot_dv, "dhdot_dv"),
                (&d.dhdot_da, "dhdot_da"),
            ] {
                assert_close(&tag(part), ours, &flat(key(rd, part, &tag(part))), TOL);
            }
        }
    }
}

#[test]
fn contact_and_impulse_dynamics_derivatives_against_pinocchio() {
    let mut checked = 0;
    for name in MPC_FILES {
        let r = load(name);
        let model = &r.model;
        if model.contacts.is_empty() {
            continue;
        }
        let mut data = Data::<f64>::new(model);
        let c = &model.contacts;
        for (k, s) in r.states().iter().enumerate() {
            let tag = |what: &str| format!("{name} state {k} {what}");
            let (q, v, tau) = (flat(&s["q"]), flat(&s["v"]), flat(&s["tau"]));
            let d = contact_dynamics_derivatives(model, &mut data, &q, &v, &tau, c, 0.0).unwrap();
            let rd = key(s, "contact_dynamics_derivatives", &tag(""));
            for (ours, part) in [
                (&d.ddq_dq, "ddq_dq"),
                (&d.ddq_dv, "ddq_dv"),
                (&d.ddq_dtau, "ddq_dtau"),
                (&d.dlambda_dq, "dlambda_dq"),
                (&d.dlambda_dv, "dlambda_dv"),
                (&d.dlambda_dtau, "dlambda_dtau"),
            ] {
                let t = tag(&format!("contact_dynamics_derivatives.{part}"));
                assert_close(&t, ours, &flat(key(rd, part, &t)), TOL);
            }
            let (v_plus, impulse) =
                impulse_dynamics(model, &mut data, &q, &v, c, 0.0, 0.0).unwrap();
            let ri = key(s, "impulse_dynamics", &tag(""));
            for (ours, part) in [(&v_plus, "dv_plus"), (&impulse, "impulse")] {
                let t = tag(&format!("impulse_dynamics.{part}"));
                assert_close(&t, ours, &flat(key(ri, part, &t)), TOL);
            }
            let d = impulse_dynamics_derivatives(model, &mut data, &q, &v, c, 0.0, 0.0).unwrap();
            let rd = key(s, "impulse_dynamics_derivatives", &tag(""));
            for (ours, part) in [
                (&d.dvplus_dq, "dvplus_dq"),
                (&d.dvplus_dv, "dvplus_dv"),
                (&d.dimpulse_dq, "dimpulse_dq"),
                (&d.dimpulse_dv, "dimpulse_dv"),
            ] {
                let t = tag(&format!("impulse_dynamics_derivatives.{part}"));
                assert_close(&t, ours, &flat(key(rd, part, &t)), TOL);
            }
            checked += 1;
        }
    }
    assert!(checked > 0, "no reference file with contacts");
}
