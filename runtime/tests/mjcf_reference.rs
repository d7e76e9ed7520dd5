//! The runtime on MJCF models (dm_control's cheetah, walker, humanoid) against
//! Pinocchio 4.1.0's `buildModelFromMJCF` with MuJoCo's inertias
//! (`scripts/make_mjcf_reference.py` says what it corrects and why), every
//! committed state, at the eval format's tolerance.
//!
//! Pinocchio makes the several joints of one body a composite joint; rbdgen
//! makes consecutive joints. `q`, `v` and every frame are the same, so the
//! quantities indexed by them are compared as they are; a per-joint quantity
//! of Pinocchio's (`oMi`, `fext`) belongs to the joint that carries the JOINT
//! frame of Pinocchio's joint name (`Composite_<first>`: the last sub-joint).
//! Pinocchio's RNEA / ABA derivatives and `dccrba` are wrong on composite
//! joints, and its kinetic energy leaves the armature of unaligned revolute
//! joints out, so those are checked against central differences of the
//! runtime's own functions and against `0.5 vᵀ M v` with Pinocchio's `M`.

mod common;

use common::{assert_close, flat, root};
use rbdgen_runtime::{
    aba, aba_derivatives, ccrba, center_of_mass, compute_joint_jacobians, crba, d_difference,
    d_integrate, dccrba, difference, forward_kinematics, frame_jacobian, generalized_gravity,
    integrate, jacobian_center_of_mass, kinetic_energy, minverse, nonlinear_effects,
    potential_energy, rnea, rnea_derivatives, rnea_fext, update_frame_placements, ArgumentPosition,
    Data, Force, FrameKind, Model, ReferenceFrame,
};
use serde_json::Value;

const TOL: f64 = 1e-8;

/// The reference and the model of the MJCF file it names.
fn load(name: &str) -> (Value, Model) {
    let path = root().join(format!("tests/reference/mjcf/{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let json: Value = serde_json::from_str(&text).unwrap();
    let header = &json["model"];
    let mjcf = root().join(header["mjcf"].as_str().unwrap());
    let floating = header["floating_base"].as_bool().unwrap();
    let model = Model::from_mjcf_file(&mjcf, floating).unwrap();
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
    let names = |kind: FrameKind| -> Vec<&str> {
        model
            .frames
            .iter()
            .filter(|f| f.kind == kind)
            .map(|f| f.name.as_str())
            .collect()
    };
    let strings = |key: &str| -> Vec<String> {
        header[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        names(FrameKind::Body),
        strings("frames"),
        "{name}: body frames"
    );
    // Sites of <worldbody> itself come last in ours; Pinocchio has none.
    let sites = strings("sites");
    assert_eq!(names(FrameKind::Op)[..sites.len()], sites, "{name}: sites");
    // Pinocchio's joints are ours that carry a JOINT frame, in the same order.
    assert_eq!(
        names(FrameKind::Joint),
        strings("joint_names"),
        "{name}: joints"
    );
    assert_close(
        &format!("{name}: armature"),
        &model.armature,
        &flat(&header["armature"]),
        0.0,
    );
    (json, model)
}

/// Our joint id of each of Pinocchio's joints (index 0: the universe).
fn pinocchio_joints(model: &Model) -> Vec<usize> {
    std::iter::once(0)
        .chain(
            model
                .frames
                .iter()
                .filter(|f| f.kind == FrameKind::Joint)
                .map(|f| f.parent_joint),
        )
        .collect()
}

/// Central difference of `f` along `integrate(q, ±h e_k)` (tangent space),
/// row-major `m x nv`.
fn central_q(model: &Model, q: &[f64], f: &mut dyn FnMut(&[f64]) -> Vec<f64>) -> Vec<f64> {
    let (nv, h) = (model.nv, 1e-6);
    let columns: Vec<Vec<f64>> = (0..nv)
        .map(|k| {
            let mut e = vec![0.0; nv];
            e[k] = h;
            let plus = f(&integrate(model, q, &e));
            e[k] = -h;
            let minus = f(&integrate(model, q, &e));
            plus.iter()
                .zip(&minus)
                .map(|(p, m)| (p - m) / (2.0 * h))
                .collect()
        })
        .collect();
    let m = columns[0].len();
    (0..m * nv).map(|e| columns[e % nv][e / nv]).collect()
}

/// Central difference of `f` along `v ± h e_k`.
fn central_v(v: &[f64], f: &mut dyn FnMut(&[f64]) -> Vec<f64>) -> Vec<f64> {
    let (nv, h) = (v.len(), 1e-6);
    let columns: Vec<Vec<f64>> = (0..nv)
        .map(|k| {
            let mut x = v.to_vec();
            x[k] += h;
            let plus = f(&x);
            x[k] -= 2.0 * h;
            let minus = f(&x);
            plus.iter()
                .zip(&minus)
                .map(|(p, m)| (p - m) / (2.0 * h))
                .collect()
        })
        .collect();
    let m = columns[0].len();
    (0..m * nv).map(|e| columns[e % nv][e / nv]).collect()
}

fn check(name: &str) {
    let (json, model) = load(name);
    let model = &model;
    let nv = model.nv;
    let composite = json["model"]["composite"].as_bool().unwrap();
    let joints = pinocchio_joints(model);
    let mut data = Data::<f64>::new(model);
    for (k, s) in json["states"].as_array().unwrap().iter().enumerate() {
        let tag = |what: &str| format!("{name} state {k} {what}");
        let (q, v, a, tau) = (flat(&s["q"]), flat(&s["v"]), flat(&s["a"]), flat(&s["tau"]));

        forward_kinematics(model, &mut data, &q);
        for (i, omi) in s["omi"].as_array().unwrap().iter().enumerate() {
            let ours = data.o_mi[joints[i + 1]].to_homogeneous().concat();
            assert_close(&tag(&format!("oMi[{}]", i + 1)), &ours, &flat(omi), TOL);
        }
        update_frame_placements(model, &mut data);
        compute_joint_jacobians(model, &mut data, &q);
        for (key, kind) in [("frames", FrameKind::Body), ("sites", FrameKind::Op)] {
            for (frame, value) in s[key].as_object().unwrap() {
                let id = model.frame_id(frame, kind).unwrap();
                let ours = data.o_mf[id].to_homogeneous().concat();
                assert_close(
                    &tag(&format!("oMf[{frame}]")),
                    &ours,
                    &flat(&value["placement"]),
                    TOL,
                );
                for (reference, key) in [
                    (ReferenceFrame::Local, "jacobian_local"),
                    (ReferenceFrame::World, "jacobian_world"),
                    (
                        ReferenceFrame::LocalWorldAligned,
                        "jacobian_local_world_aligned",
                    ),
                ] {
                    let ours = frame_jacobian(model, &data, id, reference);
                    assert_close(
                        &tag(&format!("{frame} {key}")),
                        &ours,
                        &flat(&value[key]),
                        TOL,
                    );
                }
            }
        }

        let zero = vec![0.0; nv];
        assert_close(
            &tag("rnea"),
            rnea(model, &mut data, &q, &v, &a),
            &flat(&s["rnea"]),
            TOL,
        );
        assert_close(
            &tag("nle"),
            nonlinear_effects(model, &mut data, &q, &v),
            &flat(&s["nle"]),
            TOL,
        );
        assert_close(
            &tag("gravity"),
            generalized_gravity(model, &mut data, &q),
            &flat(&s["gravity"]),
            TOL,
        );
        let g = generalized_gravity(model, &mut data, &q).to_vec();
        assert_eq!(
            rnea(model, &mut data, &q, &zero, &zero),
            g,
            "{name}: rnea(q, 0, 0)"
        );
        let m = crba(model, &mut data, &q).to_vec();
        assert_close(&tag("crba"), &m, &flat(&s["crba"]), TOL);
        assert_close(
            &tag("aba"),
            aba(model, &mut data, &q, &v, &tau),
            &flat(&s["aba"]),
            TOL,
        );
        assert_close(
            &tag("minv"),
            minverse(model, &mut data, &q),
            &flat(&s["minv"]),
            TOL,
        );

        let com = center_of_mass(model, &mut data, &q);
        assert_close(&tag("com"), &com.0, &flat(&s["com"]), TOL);
        let jcom = jacobian_center_of_mass(model, &mut data, &q).to_vec();
        assert_close(&tag("jcom"), &jcom, &flat(&s["jcom"]), TOL);
        let (ag, hg) = ccrba(model, &mut data, &q, &v);
        let ag = ag.to_vec();
        assert_close(&tag("ag"), &ag, &flat(&s["ag"]), TOL);
        assert_close(&tag("hg"), &hg.to_array(), &flat(&s["hg"]), TOL);
        let dag = dccrba(model, &mut data, &q, &v).to_vec();
        if composite {
            // dAg = d/dt Ag(q(t)) along q̇ = v.
            let h = 1e-6;
            let plus: Vec<f64> = v.iter().map(|x| x * h).collect();
            let minus: Vec<f64> = v.iter().map(|x| -x * h).collect();
            let ag_plus = ccrba(model, &mut data, &integrate(model, &q, &plus), &v)
                .0
                .to_vec();
            let ag_minus = ccrba(model, &mut data, &integrate(model, &q, &minus), &v)
                .0
                .to_vec();
            let fd: Vec<f64> = ag_plus
                .iter()
                .zip(&ag_minus)
                .map(|(p, m)| (p - m) / (2.0 * h))
                .collect();
            assert_close(&tag("dag by central differences"), &dag, &fd, 1e-6);
        } else {
            assert_close(&tag("dag"), &dag, &flat(&s["dag"]), TOL);
        }

        let ke = kinetic_energy(model, &mut data, &q, &v);
        assert_close(
            &tag("kinetic = ½ vᵀ M v"),
            &[ke],
            &flat(&s["kinetic_energy_crba"]),
            TOL,
        );
        let pe = potential_energy(model, &mut data, &q);
        assert_close(&tag("potential"), &[pe], &flat(&s["potential_energy"]), TOL);

        // fext per Pinocchio joint → the joint carrying its frame; zero elsewhere.
        let mut fext = vec![Force::zero(); model.njoints()];
        for (i, row) in s["fext"].as_array().unwrap().iter().enumerate().skip(1) {
            fext[joints[i]] = Force::from_slice(&flat(row));
        }
        let ours = rnea_fext(model, &mut data, &q, &v, &a, &fext).to_vec();
        assert_close(&tag("rnea_fext"), &ours, &flat(&s["rnea_fext"]), TOL);

        let rd = rnea_derivatives(model, &mut data, &q, &v, &a);
        let ad = aba_derivatives(model, &mut data, &q, &v, &tau);
        let (rnea_ref, aba_ref) = (&s["rnea_derivatives"], &s["aba_derivatives"]);
        assert_close(&tag("dtau_da"), &rd.d_du, &flat(&rnea_ref["dtau_da"]), TOL);
        assert_close(&tag("ddq_dtau"), &ad.d_du, &flat(&aba_ref["ddq_dtau"]), TOL);
        if composite {
            let mut d = Data::<f64>::new(model);
            let fd = central_q(model, &q, &mut |x| rnea(model, &mut d, x, &v, &a).to_vec());
            assert_close(&tag("dtau_dq by central differences"), &rd.d_dq, &fd, 1e-6);
            let fd = central_v(&v, &mut |x| rnea(model, &mut d, &q, x, &a).to_vec());
            assert_close(&tag("dtau_dv by central differences"), &rd.d_dv, &fd, 1e-6);
            let fd = central_q(model, &q, &mut |x| aba(model, &mut d, x, &v, &tau).to_vec());
            assert_close(&tag("ddq_dq by central differences"), &ad.d_dq, &fd, 1e-6);
            let fd = central_v(&v, &mut |x| aba(model, &mut d, &q, x, &tau).to_vec());
            assert_close(&tag("ddq_dv by central differences"), &ad.d_dv, &fd, 1e-6);
        } else {
            assert_close(&tag("dtau_dq"), &rd.d_dq, &flat(&rnea_ref["dtau_dq"]), TOL);
            assert_close(&tag("dtau_dv"), &rd.d_dv, &flat(&rnea_ref["dtau_dv"]), TOL);
            assert_close(&tag("ddq_dq"), &ad.d_dq, &flat(&aba_ref["ddq_dq"]), TOL);
            assert_close(&tag("ddq_dv"), &ad.d_dv, &flat(&aba_ref["ddq_dv"]), TOL);
        }

        let (w, q2) = (flat(&s["w"]), flat(&s["q2"]));
        assert_close(
            &tag("integrate"),
            &integrate(model, &q, &w),
            &flat(&s["integrate"]),
            TOL,
        );
        assert_close(
            &tag("difference"),
            &difference(model, &q, &q2),
            &flat(&s["difference"]),
            TOL,
        );
        for (arg, key) in [
            (ArgumentPosition::Arg0, "d0"),
            (ArgumentPosition::Arg1, "d1"),
        ] {
            let ours = d_integrate(model, &q, &w, arg);
            assert_close(
                &tag(&format!("dintegrate {key}")),
                &ours,
                &flat(&s["dintegrate"][key]),
                TOL,
            );
            let ours = d_difference(model, &q, &q2, arg);
            assert_close(
                &tag(&format!("ddifference {key}")),
                &ours,
                &flat(&s["ddifference"][key]),
                TOL,
            );
        }
    }
}

/// Composite slide-slide-hinge root, `settotalmass` (MuJoCo's inertias).
#[test]
fn cheetah() {
    check("cheetah");
}

/// Composite root, unaligned revolute joints, armature.
#[test]
fn walker() {
    check("walker");
}

/// A `<freejoint>` root, composite hips, ankles and shoulders, sites.
#[test]
fn humanoid() {
    check("humanoid");
}
