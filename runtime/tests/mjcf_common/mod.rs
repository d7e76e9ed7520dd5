//! Comparing the runtime on an MJCF model with Pinocchio's and MuJoCo's
//! reference files (`scripts/make_mjcf_reference.py`,
//! `scripts/make_mujoco_reference.py`): the largest relative error of every
//! quantity, for the tests (asserted) and for `scripts/conformance-mjcf`
//! (printed).
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::Path;

use rbdgen_runtime::{
    aba, aba_derivatives, ccrba, center_of_mass, compute_joint_jacobians, crba, d_difference,
    d_integrate, dccrba, difference, forward_kinematics, frame_jacobian, generalized_gravity,
    integrate, jacobian_center_of_mass, kinetic_energy, minverse, nonlinear_effects,
    potential_energy, rnea, rnea_derivatives, rnea_fext, update_frame_placements, ArgumentPosition,
    Data, Force, FrameKind, Model, ReferenceFrame,
};
use serde_json::Value;

use crate::common::{flat, root};

/// The eval format's tolerance: `|ours - ref| <= 1e-8 max(1, max|ref|)`.
pub const TOL: f64 = 1e-8;
/// Against central differences (step 1e-6): truncation and rounding.
pub const FD_TOL: f64 = 1e-6;

/// The largest relative error of each quantity and its tolerance.
#[derive(Default)]
pub struct Errors {
    /// Quantity → (largest `max|ours - ref| / max(1, max|ref|)`, tolerance, comparisons).
    pub worst: BTreeMap<String, (f64, f64, usize)>,
    /// What was skipped, and why.
    pub notes: Vec<String>,
}

impl Errors {
    /// Records `ours` against `reference` under `key`.
    pub fn record(&mut self, key: &str, ours: &[f64], reference: &[f64], tol: f64) {
        assert_eq!(ours.len(), reference.len(), "{key}: length");
        let scale = reference.iter().fold(1.0f64, |m, x| m.max(x.abs()));
        let worst = ours
            .iter()
            .zip(reference)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max)
            / scale;
        let worst = if ours.iter().chain(reference).any(|x| x.is_nan()) {
            f64::INFINITY
        } else {
            worst
        };
        let e = self.worst.entry(key.to_string()).or_insert((0.0, tol, 0));
        e.0 = e.0.max(worst);
        e.2 += 1;
    }

    /// The quantities beyond their tolerance.
    pub fn failures(&self) -> Vec<String> {
        self.worst
            .iter()
            .filter(|(_, (e, tol, _))| e.is_nan() || e > tol)
            .map(|(k, (e, tol, _))| format!("{k}: {e:e} > {tol:e}"))
            .collect()
    }

    /// Panics naming every quantity beyond its tolerance.
    pub fn assert_ok(&self, name: &str) {
        let failures = self.failures();
        assert!(failures.is_empty(), "{name}:\n  {}", failures.join("\n  "));
        assert!(!self.worst.is_empty(), "{name}: nothing compared");
    }
}

/// A reference file and the runtime's model of the MJCF file it names.
pub fn load(path: &Path) -> (Value, Model) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let json: Value = serde_json::from_str(&text).unwrap();
    let header = &json["model"];
    let floating = header["floating_base"].as_bool().unwrap_or(false);
    let model = match header.get("mjcf").and_then(Value::as_str) {
        Some(mjcf) => {
            let mjcf = root().join(mjcf);
            Model::from_mjcf_file(&mjcf, floating)
                .unwrap_or_else(|e| panic!("{}: {e}", mjcf.display()))
        }
        None => {
            // make_reference.py's URDF files: the header's armature, if any, is applied.
            let urdf = root().join(header["urdf"].as_str().unwrap());
            let mut model = Model::from_urdf_file(&urdf, floating)
                .unwrap_or_else(|e| panic!("{}: {e}", urdf.display()));
            if let Some(armature) = header.get("armature") {
                model.armature = flat(armature);
            }
            model
        }
    };
    (json, model)
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

fn names(model: &Model, kind: FrameKind) -> Vec<String> {
    model
        .frames
        .iter()
        .filter(|f| f.kind == kind)
        .map(|f| f.name.clone())
        .collect()
}

/// The `n x n` top-left block of a row-major `nv x nv` matrix, or the first
/// `n` columns of an `m x nv` one.
fn columns(m: &[f64], nv: usize, n: usize) -> Vec<f64> {
    m.chunks(nv).flat_map(|row| row[..n].to_vec()).collect()
}

fn block(m: &[f64], nv: usize, n: usize) -> Vec<f64> {
    columns(&m[..n * nv], nv, n)
}

/// Central difference of `f` along `integrate(q, ±h e_k).unwrap()`, row-major `m x nv`.
pub fn central_q(model: &Model, q: &[f64], f: &mut dyn FnMut(&[f64]) -> Vec<f64>) -> Vec<f64> {
    let (nv, h) = (model.nv, 1e-6);
    let cols: Vec<Vec<f64>> = (0..nv)
        .map(|k| {
            let mut e = vec![0.0; nv];
            e[k] = h;
            let plus = f(&integrate(model, q, &e).unwrap());
            e[k] = -h;
            let minus = f(&integrate(model, q, &e).unwrap());
            plus.iter()
                .zip(&minus)
                .map(|(p, m)| (p - m) / (2.0 * h))
                .collect()
        })
        .collect();
    let m = cols[0].len();
    (0..m * nv).map(|e| cols[e % nv][e / nv]).collect()
}

/// Central difference of `f` along `v ± h e_k`.
pub fn central_v(v: &[f64], f: &mut dyn FnMut(&[f64]) -> Vec<f64>) -> Vec<f64> {
    let (nv, h) = (v.len(), 1e-6);
    let cols: Vec<Vec<f64>> = (0..nv)
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
    let m = cols[0].len();
    (0..m * nv).map(|e| cols[e % nv][e / nv]).collect()
}

/// The runtime against a Pinocchio reference (`make_mjcf_reference.py`).
///
/// Pinocchio reads only the first top-level body: when our model has more
/// (dm_control's manipulator), its joints, `q`, `v` and frames are a prefix of
/// ours, the rest is held at neutral with zero velocity, and only the
/// quantities of that prefix are compared (not the centre of mass, the
/// centroidal momentum or the energies, which the other bodies change).
/// Pinocchio's joints are ours that carry a JOINT frame; its composite joint's
/// `oMi` and `fext` are the last sub-joint's. With composite joints, the RNEA
/// and ABA derivatives and `dAg` are compared with central differences of the
/// runtime's own functions (Pinocchio's are wrong there), and the kinetic
/// energy always with `½ vᵀ M v` (Pinocchio's leaves out the armature of
/// unaligned revolute joints).
pub fn against_pinocchio(json: &Value, model: &Model) -> Errors {
    let mut errors = Errors::default();
    let header = &json["model"];
    let (nq_ref, n) = (
        header["nq"].as_u64().unwrap() as usize,
        header["nv"].as_u64().unwrap() as usize,
    );
    let nv = model.nv;
    let prefix = n < nv;
    if prefix {
        errors.notes.push(format!(
            "Pinocchio reads the first top-level body only: nv {n} of our {nv} compared, \
             whole-model quantities (com, Ag, energies) skipped"
        ));
    }
    // Our joint of each of Pinocchio's: the one carrying the JOINT frame of
    // its name (a composite's is the last sub-joint), else the joint of that
    // name (a URDF free-flyer root has no JOINT frame here).
    let joint_names = strings(&header["joint_names"]);
    let joints: Vec<usize> = std::iter::once(0)
        .chain(joint_names.iter().map(|name| {
            model
                .frame_id(name, FrameKind::Joint)
                .map(|f| model.frames[f].parent_joint)
                .or_else(|| model.joint_id(name))
                .unwrap_or_else(|| panic!("no joint for Pinocchio's `{name}`"))
        }))
        .collect();
    assert!(
        joints.windows(2).all(|w| w[0] < w[1]),
        "joint order {joints:?}"
    );
    for (key, kind) in [("frames", FrameKind::Body), ("sites", FrameKind::Op)] {
        if header.get(key).is_none() {
            continue;
        }
        let theirs = strings(&header[key]);
        let ours = names(model, kind);
        assert!(ours.len() >= theirs.len(), "{key}");
        if prefix {
            assert_eq!(ours[..theirs.len()], theirs, "{key} order");
        } else if kind == FrameKind::Body {
            assert_eq!(ours, theirs, "{key} order");
        } else {
            assert_eq!(ours[..theirs.len()], theirs, "{key} order");
        }
    }
    if let Some(armature) = header.get("armature") {
        errors.record("armature", &model.armature[..n], &flat(armature), 0.0);
    }
    let composite = header["composite"].as_bool().unwrap_or(false);
    let neutral = model.neutral();
    let pad_q = |x: Vec<f64>| -> Vec<f64> {
        let mut q = x;
        q.extend_from_slice(&neutral[nq_ref..]);
        q
    };
    let pad_v = |x: Vec<f64>| -> Vec<f64> {
        let mut v = x;
        v.resize(nv, 0.0);
        v
    };
    let mut data = Data::<f64>::new(model);
    for s in json["states"].as_array().unwrap() {
        let q = pad_q(flat(&s["q"]));
        let (v, a, tau) = (
            pad_v(flat(&s["v"])),
            pad_v(flat(&s["a"])),
            pad_v(flat(&s["tau"])),
        );

        forward_kinematics(model, &mut data, &q).unwrap();
        for (i, omi) in s["omi"].as_array().unwrap().iter().enumerate() {
            let ours = data.o_mi[joints[i + 1]].to_homogeneous().concat();
            errors.record("oMi", &ours, &flat(omi), TOL);
        }
        update_frame_placements(model, &mut data).unwrap();
        compute_joint_jacobians(model, &mut data, &q).unwrap();
        for (key, kind) in [("frames", FrameKind::Body), ("sites", FrameKind::Op)] {
            let Some(frames) = s.get(key).and_then(Value::as_object) else {
                continue;
            };
            for (frame, value) in frames {
                let id = model.frame_id(frame, kind).unwrap();
                let ours = data.o_mf[id].to_homogeneous().concat();
                let what = if kind == FrameKind::Body {
                    "oMf body"
                } else {
                    "oMf site"
                };
                errors.record(what, &ours, &flat(&value["placement"]), TOL);
                for (reference, key) in [
                    (ReferenceFrame::Local, "jacobian_local"),
                    (ReferenceFrame::World, "jacobian_world"),
                    (
                        ReferenceFrame::LocalWorldAligned,
                        "jacobian_local_world_aligned",
                    ),
                ] {
                    let ours =
                        columns(&frame_jacobian(model, &data, id, reference).unwrap(), nv, n);
                    errors.record(&format!("frame {key}"), &ours, &flat(&value[key]), TOL);
                }
            }
        }

        errors.record(
            "rnea",
            &rnea(model, &mut data, &q, &v, &a).unwrap()[..n],
            &flat(&s["rnea"]),
            TOL,
        );
        errors.record(
            "nle",
            &nonlinear_effects(model, &mut data, &q, &v).unwrap()[..n],
            &flat(&s["nle"]),
            TOL,
        );
        errors.record(
            "gravity",
            &generalized_gravity(model, &mut data, &q).unwrap()[..n],
            &flat(&s["gravity"]),
            TOL,
        );
        let m = crba(model, &mut data, &q).unwrap().to_vec();
        errors.record("crba", &block(&m, nv, n), &flat(&s["crba"]), TOL);
        errors.record(
            "aba",
            &aba(model, &mut data, &q, &v, &tau).unwrap()[..n],
            &flat(&s["aba"]),
            TOL,
        );
        let minv = minverse(model, &mut data, &q).unwrap().to_vec();
        errors.record("minv", &block(&minv, nv, n), &flat(&s["minv"]), TOL);

        if !prefix {
            let com = center_of_mass(model, &mut data, &q).unwrap();
            errors.record("com", &com.0, &flat(&s["com"]), TOL);
            let jcom = jacobian_center_of_mass(model, &mut data, &q)
                .unwrap()
                .to_vec();
            errors.record("jcom", &jcom, &flat(&s["jcom"]), TOL);
            let (ag, hg) = ccrba(model, &mut data, &q, &v).unwrap();
            let ag = ag.to_vec();
            errors.record("ag", &ag, &flat(&s["ag"]), TOL);
            errors.record("hg", &hg.to_array(), &flat(&s["hg"]), TOL);
            let dag = dccrba(model, &mut data, &q, &v).unwrap().to_vec();
            if composite {
                let h = 1e-6;
                let plus: Vec<f64> = v.iter().map(|x| x * h).collect();
                let minus: Vec<f64> = v.iter().map(|x| -x * h).collect();
                let ag_plus = ccrba(model, &mut data, &integrate(model, &q, &plus).unwrap(), &v)
                    .unwrap()
                    .0
                    .to_vec();
                let ag_minus = ccrba(model, &mut data, &integrate(model, &q, &minus).unwrap(), &v)
                    .unwrap()
                    .0
                    .to_vec();
                let fd: Vec<f64> = ag_plus
                    .iter()
                    .zip(&ag_minus)
                    .map(|(p, m)| (p - m) / (2.0 * h))
                    .collect();
                errors.record("dag (central differences)", &dag, &fd, FD_TOL);
                errors.record(
                    "dag (Pinocchio's, wrong on composite joints)",
                    &dag,
                    &flat(&s["dag"]),
                    f64::INFINITY,
                );
            } else {
                errors.record("dag", &dag, &flat(&s["dag"]), TOL);
            }
            let ke = kinetic_energy(model, &mut data, &q, &v).unwrap();
            match s.get("kinetic_energy_crba") {
                Some(crba_ke) => {
                    errors.record("kinetic energy (½ vᵀ M v)", &[ke], &flat(crba_ke), TOL);
                    errors.record(
                        "kinetic energy (Pinocchio's, no armature on unaligned hinges)",
                        &[ke],
                        &flat(&s["kinetic_energy"]),
                        f64::INFINITY,
                    );
                }
                // make_reference.py's models have no unaligned hinge with armature.
                None => errors.record("kinetic energy", &[ke], &flat(&s["kinetic_energy"]), TOL),
            }
            let pe = potential_energy(model, &mut data, &q).unwrap();
            errors.record(
                "potential energy",
                &[pe],
                &flat(&s["potential_energy"]),
                TOL,
            );
        }

        let mut fext = vec![Force::zero(); model.njoints()];
        for (i, row) in s["fext"].as_array().unwrap().iter().enumerate().skip(1) {
            fext[joints[i]] = Force::from_slice(&flat(row));
        }
        let ours = rnea_fext(model, &mut data, &q, &v, &a, &fext)
            .unwrap()
            .to_vec();
        errors.record("rnea_fext", &ours[..n], &flat(&s["rnea_fext"]), TOL);

        let rd = rnea_derivatives(model, &mut data, &q, &v, &a).unwrap();
        let ad = aba_derivatives(model, &mut data, &q, &v, &tau).unwrap();
        let (rnea_ref, aba_ref) = (&s["rnea_derivatives"], &s["aba_derivatives"]);
        errors.record(
            "dtau_da",
            &block(&rd.d_du, nv, n),
            &flat(&rnea_ref["dtau_da"]),
            TOL,
        );
        errors.record(
            "ddq_dtau",
            &block(&ad.d_du, nv, n),
            &flat(&aba_ref["ddq_dtau"]),
            TOL,
        );
        if composite {
            let mut d = Data::<f64>::new(model);
            let fd = central_q(model, &q, &mut |x| {
                rnea(model, &mut d, x, &v, &a).unwrap().to_vec()
            });
            errors.record("dtau_dq (central differences)", &rd.d_dq, &fd, FD_TOL);
            let fd = central_v(&v, &mut |x| {
                rnea(model, &mut d, &q, x, &a).unwrap().to_vec()
            });
            errors.record("dtau_dv (central differences)", &rd.d_dv, &fd, FD_TOL);
            let fd = central_q(model, &q, &mut |x| {
                aba(model, &mut d, x, &v, &tau).unwrap().to_vec()
            });
            errors.record("ddq_dq (central differences)", &ad.d_dq, &fd, FD_TOL);
            let fd = central_v(&v, &mut |x| {
                aba(model, &mut d, &q, x, &tau).unwrap().to_vec()
            });
            errors.record("ddq_dv (central differences)", &ad.d_dv, &fd, FD_TOL);
            let wrong = "(Pinocchio's, wrong on composite joints)";
            errors.record(
                &format!("dtau_dq {wrong}"),
                &block(&rd.d_dq, nv, n),
                &flat(&rnea_ref["dtau_dq"]),
                f64::INFINITY,
            );
            errors.record(
                &format!("ddq_dq {wrong}"),
                &block(&ad.d_dq, nv, n),
                &flat(&aba_ref["ddq_dq"]),
                f64::INFINITY,
            );
        } else {
            errors.record(
                "dtau_dq",
                &block(&rd.d_dq, nv, n),
                &flat(&rnea_ref["dtau_dq"]),
                TOL,
            );
            errors.record(
                "dtau_dv",
                &block(&rd.d_dv, nv, n),
                &flat(&rnea_ref["dtau_dv"]),
                TOL,
            );
            errors.record(
                "ddq_dq",
                &block(&ad.d_dq, nv, n),
                &flat(&aba_ref["ddq_dq"]),
                TOL,
            );
            errors.record(
                "ddq_dv",
                &block(&ad.d_dv, nv, n),
                &flat(&aba_ref["ddq_dv"]),
                TOL,
            );
        }

        let (w, q2) = (pad_v(flat(&s["w"])), pad_q(flat(&s["q2"])));
        errors.record(
            "integrate",
            &integrate(model, &q, &w).unwrap()[..nq_ref],
            &flat(&s["integrate"]),
            TOL,
        );
        errors.record(
            "difference",
            &difference(model, &q, &q2).unwrap()[..n],
            &flat(&s["difference"]),
            TOL,
        );
        for (arg, key) in [
            (ArgumentPosition::Arg0, "d0"),
            (ArgumentPosition::Arg1, "d1"),
        ] {
            let ours = block(&d_integrate(model, &q, &w, arg).unwrap(), nv, n);
            errors.record(
                &format!("dintegrate {key}"),
                &ours,
                &flat(&s["dintegrate"][key]),
                TOL,
            );
            let ours = block(&d_difference(model, &q, &q2, arg).unwrap(), nv, n);
            errors.record(
                &format!("ddifference {key}"),
                &ours,
                &flat(&s["ddifference"][key]),
                TOL,
            );
        }
    }
    errors
}

/// The runtime against MuJoCo (`make_mujoco_reference.py`): body and site
/// placements, body masses, armature, M and the nonlinear effects.
pub fn against_mujoco(json: &Value, model: &Model) -> Errors {
    let mut errors = Errors::default();
    let header = &json["model"];
    assert_eq!(model.nq as u64, header["nq"].as_u64().unwrap(), "nq");
    assert_eq!(model.nv as u64, header["nv"].as_u64().unwrap(), "nv");
    errors.record("armature", &model.armature, &flat(&header["armature"]), 0.0);
    for (body, mass) in header["mass"].as_object().unwrap() {
        let id = model
            .frame_id(body, FrameKind::Body)
            .unwrap_or_else(|| panic!("no body frame {body}"));
        errors.record(
            "body mass",
            &[model.frames[id].inertia.mass],
            &[mass.as_f64().unwrap()],
            1e-12,
        );
    }
    let mut data = Data::<f64>::new(model);
    for s in json["states"].as_array().unwrap() {
        let (q, v) = (flat(&s["q"]), flat(&s["v"]));
        forward_kinematics(model, &mut data, &q).unwrap();
        update_frame_placements(model, &mut data).unwrap();
        for (key, kind) in [("bodies", FrameKind::Body), ("sites", FrameKind::Op)] {
            for (frame, placement) in s[key].as_object().unwrap() {
                let id = model
                    .frame_id(frame, kind)
                    .unwrap_or_else(|| panic!("no {kind:?} frame {frame}"));
                let ours = data.o_mf[id].to_homogeneous().concat();
                errors.record(
                    &format!("placement of {key}"),
                    &ours,
                    &flat(placement),
                    1e-9,
                );
            }
        }
        errors.record(
            "crba",
            crba(model, &mut data, &q).unwrap(),
            &flat(&s["crba"]),
            1e-9,
        );
        let nle = nonlinear_effects(model, &mut data, &q, &v)
            .unwrap()
            .to_vec();
        errors.record("nle", &nle, &flat(&s["nle"]), 1e-9);
    }
    errors
}
