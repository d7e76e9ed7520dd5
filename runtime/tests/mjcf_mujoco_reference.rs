//! The runtime on MJCF models against MuJoCo 4.0 itself
//! (`scripts/make_mujoco_reference.py`, which maps MuJoCo's free-joint
//! velocity and quaternion order to rbdgen's): body and site placements, body
//! masses, armature, the mass matrix and the nonlinear effects. MuJoCo
//! compiles the file, so this checks what Pinocchio cannot: default classes
//! and `childclass`, `ref` in multi-joint bodies, euler sequences with fixed
//! axes, `xyaxes` / `zaxis` / `axisangle`, geom inertias (`mass` from a
//! default class, `fromto`, groups), `<option gravity>`, several top-level
//! bodies.

mod common;

use common::{assert_close, flat, root};
use rbdgen_runtime::{
    crba, forward_kinematics, nonlinear_effects, update_frame_placements, Data, FrameKind, Model,
};
use serde_json::Value;

const TOL: f64 = 1e-9;

fn check(name: &str) {
    let path = root().join(format!("tests/reference/mjcf/mujoco_{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let json: Value = serde_json::from_str(&text).unwrap();
    let header = &json["model"];
    let model =
        Model::from_mjcf_file(root().join(header["mjcf"].as_str().unwrap()), false).unwrap();
    let model = &model;
    assert_eq!(
        model.nq as u64,
        header["nq"].as_u64().unwrap(),
        "{name}: nq"
    );
    assert_eq!(
        model.nv as u64,
        header["nv"].as_u64().unwrap(),
        "{name}: nv"
    );
    assert_close(
        &format!("{name} armature"),
        &model.armature,
        &flat(&header["armature"]),
        0.0,
    );
    for (body, mass) in header["mass"].as_object().unwrap() {
        let id = model
            .frame_id(body, FrameKind::Body)
            .unwrap_or_else(|| panic!("{name}: no body frame {body}"));
        let ours = model.frames[id].inertia.mass;
        assert_close(
            &format!("{name} mass of {body}"),
            &[ours],
            &[mass.as_f64().unwrap()],
            1e-12,
        );
    }
    let mut data = Data::<f64>::new(model);
    for (k, s) in json["states"].as_array().unwrap().iter().enumerate() {
        let tag = |what: &str| format!("{name} state {k} {what}");
        let (q, v) = (flat(&s["q"]), flat(&s["v"]));
        forward_kinematics(model, &mut data, &q);
        update_frame_placements(model, &mut data);
        for (key, kind) in [("bodies", FrameKind::Body), ("sites", FrameKind::Op)] {
            for (frame, placement) in s[key].as_object().unwrap() {
                let id = model
                    .frame_id(frame, kind)
                    .unwrap_or_else(|| panic!("{name}: no {kind:?} frame {frame}"));
                let ours = data.o_mf[id].to_homogeneous().concat();
                assert_close(
                    &tag(&format!("{key} {frame}")),
                    &ours,
                    &flat(placement),
                    TOL,
                );
            }
        }
        assert_close(
            &tag("crba"),
            crba(model, &mut data, &q),
            &flat(&s["crba"]),
            TOL,
        );
        let nle = nonlinear_effects(model, &mut data, &q, &v).to_vec();
        assert_close(&tag("nle"), &nle, &flat(&s["nle"]), TOL);
    }
}

/// Every feature of the loader on one hand-made model (`tests/mjcf/features.xml`).
#[test]
fn features() {
    check("features");
}

/// A geom `mass` from the default class.
#[test]
fn acrobot() {
    check("acrobot");
}

/// Several top-level bodies, `ref` on multi-joint bodies, nested classes.
#[test]
fn manipulator() {
    check("manipulator");
}

/// A rotated free-flyer root and 62 dofs.
#[test]
fn humanoid_cmu() {
    check("humanoid_CMU");
}
