//! Mimic joints (`Model::from_urdf_str_mimic`): Pinocchio 4.1.0's
//! `buildModelFromUrdf(.., mimic=True)` on Panda's fingers and on a hand-made
//! chain of mimics (gains ≠ 1, offsets ≠ 0, a mimic of a mimic, a mimic in
//! another branch, unaligned axes), and the identities with the model loaded
//! without mimics, `q_full = G q + offset`, `v_full = G v`: `τ = Gᵀ τ_full`,
//! `M = Gᵀ M_full G`, `J = J_full G`, `Ag = Ag_full G`.

mod common;

use common::{assert_close, assert_quantity, flat, root};
use rand::{rngs::StdRng, SeedableRng};
use rbdgen_runtime::{
    aba, aba_derivatives, aba_derivatives_fext, aba_dfext, aba_fext, actuated_dofs, ccrba,
    center_of_mass, centroidal_momentum_rate, compute_joint_jacobians,
    compute_joint_jacobians_time_variation, contact_drift, contact_dynamics,
    contact_inverse_dynamics, contact_jacobian, crba, dccrba, difference, frame_acceleration_drift,
    frame_jacobian, frame_jacobian_time_variation, integrate, jacobian_center_of_mass,
    joint_torque_regressor, kinetic_energy, minverse, potential_energy, rnea, rnea_derivatives,
    rnea_derivatives_fext, rnea_fext, step, step_linearization, update_frame_placements,
    ContactKind, Data, Force, FrameKind, Model, ModelError, ReferenceFrame,
};
use serde_json::Value;

const TOL: f64 = 1e-8;

const CHAIN: &str = "tests/urdf/mimic/chain.urdf";

fn load_mimic(relative: &str, floating: bool) -> Model {
    Model::from_urdf_file_mimic(root().join(relative), floating).unwrap()
}

fn check_reference(name: &str) {
    let path = root()
        .join("tests/reference/mimic")
        .join(format!("{name}.json"));
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let header = &json["model"];
    let floating = header["floating_base"].as_bool().unwrap();
    let model = &load_mimic(header["urdf"].as_str().unwrap(), floating);
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
    for (joint, want) in model.joints[1..]
        .iter()
        .zip(header["joints"].as_array().unwrap())
    {
        assert_eq!(joint.name, want["name"].as_str().unwrap(), "{name}");
        assert_eq!(
            joint.idx_q as u64,
            want["idx_q"].as_u64().unwrap(),
            "{name} {}",
            joint.name
        );
        assert_eq!(
            joint.idx_v as u64,
            want["idx_v"].as_u64().unwrap(),
            "{name} {}",
            joint.name
        );
        match (&joint.mimic, want.get("mimic")) {
            (None, None) => {}
            (Some(m), Some(w)) => {
                assert_eq!(model.joints[m.primary].mimic, None);
                assert_close(
                    &format!("{name} {} mimic", joint.name),
                    &[m.gain, m.offset],
                    &[
                        w["scaling"].as_f64().unwrap(),
                        w["offset"].as_f64().unwrap(),
                    ],
                    1e-15,
                );
            }
            (ours, theirs) => panic!("{name} {}: {ours:?} vs {theirs:?}", joint.name),
        }
    }
    assert_eq!(
        model.joints.len() - 1,
        header["joints"].as_array().unwrap().len()
    );
    assert_close(
        &format!("{name} neutral"),
        &model.neutral(),
        &flat(&header["neutral"]),
        0.0,
    );
    assert_eq!(model.lower_position_limit.len(), model.nq);
    assert_eq!(model.effort_limit.len(), model.nv);
    assert_eq!(model.armature.len(), model.nv);

    let mut data = Data::<f64>::new(model);
    let states = json["states"].as_array().unwrap();
    assert!(!states.is_empty());
    for (k, s) in states.iter().enumerate() {
        let tag = |what: &str| format!("{name} state {k} {what}");
        let (q, v, a, tau) = (flat(&s["q"]), flat(&s["v"]), flat(&s["a"]), flat(&s["tau"]));
        let zero = vec![0.0; model.nv];
        assert_quantity(&tag, s, "rnea", rnea(model, &mut data, &q, &v, &a).unwrap());
        assert_quantity(
            &tag,
            s,
            "nle",
            rnea(model, &mut data, &q, &v, &zero).unwrap(),
        );
        let gravity = rnea(model, &mut data, &q, &zero, &zero).unwrap();
        assert_quantity(&tag, s, "gravity", gravity);
        assert_quantity(&tag, s, "crba", crba(model, &mut data, &q).unwrap());
        assert_quantity(&tag, s, "minv", minverse(model, &mut data, &q).unwrap());
        assert_quantity(&tag, s, "aba", aba(model, &mut data, &q, &v, &tau).unwrap());
        let com = center_of_mass(model, &mut data, &q).unwrap();
        assert_quantity(&tag, s, "com", &com.0);
        let jcom = jacobian_center_of_mass(model, &mut data, &q).unwrap();
        assert_quantity(&tag, s, "jcom", jcom);
        let (ag, hg) = ccrba(model, &mut data, &q, &v).unwrap();
        assert_quantity(&tag, s, "ag", ag);
        assert_quantity(&tag, s, "hg", &hg.to_array());
        let dhg = centroidal_momentum_rate(model, &mut data, &q, &v, &a).unwrap();
        assert_quantity(&tag, s, "dhg", &dhg.to_array());
        let kinetic = kinetic_energy(model, &mut data, &q, &v).unwrap();
        assert_close(
            &tag("kinetic"),
            &[kinetic],
            &flat(&s["kinetic_energy"]),
            TOL,
        );
        let potential = potential_energy(model, &mut data, &q).unwrap();
        assert_close(
            &tag("potential"),
            &[potential],
            &flat(&s["potential_energy"]),
            TOL,
        );

        compute_joint_jacobians(model, &mut data, &q).unwrap();
        update_frame_placements(model, &mut data).unwrap();
        let frames = s["frames"].as_object().unwrap();
        assert_eq!(frames.len(), model.body_frames().count());
        for (frame, value) in frames {
            let id = model.frame_id(frame, FrameKind::Body).unwrap();
            let placement: Vec<f64> = data.o_mf[id].to_homogeneous().concat();
            assert_close(
                &tag(&format!("oMf[{frame}]")),
                &placement,
                &flat(&value["placement"]),
                TOL,
            );
            for (key, rf) in [
                ("jacobian_local", ReferenceFrame::Local),
                ("jacobian_world", ReferenceFrame::World),
                (
                    "jacobian_local_world_aligned",
                    ReferenceFrame::LocalWorldAligned,
                ),
            ] {
                let j = frame_jacobian(model, &data, id, rf).unwrap();
                assert_close(&tag(&format!("{frame} {key}")), &j, &flat(&value[key]), TOL);
            }
        }
    }
}

#[test]
fn panda_fingers_match_pinocchio() {
    check_reference("panda_fixed");
}

#[test]
fn a_chain_of_mimics_matches_pinocchio_on_its_composed_equivalent() {
    check_reference("chain_fixed");
}

#[test]
fn a_chain_of_mimics_under_a_free_flyer_matches_pinocchio() {
    check_reference("chain_floating");
}

/// The chain and its composed equivalent build the same model.
#[test]
fn a_chain_is_composed_at_load() {
    for floating in [false, true] {
        let chain = load_mimic(CHAIN, floating);
        let flat = load_mimic("tests/urdf/mimic/chain_flat.urdf", floating);
        assert_eq!(chain.nq, flat.nq);
        for (a, b) in chain.joints.iter().zip(&flat.joints) {
            assert_eq!((a.idx_q, a.idx_v), (b.idx_q, b.idx_v), "{}", a.name);
            let (ma, mb) = (
                a.mimic.unwrap_or_default_for_test(),
                b.mimic.unwrap_or_default_for_test(),
            );
            assert_eq!(ma.0, mb.0, "{}", a.name);
            assert!(
                (ma.1 - mb.1).abs() < 1e-15 && (ma.2 - mb.2).abs() < 1e-15,
                "{}",
                a.name
            );
        }
    }
}

trait MimicParts {
    fn unwrap_or_default_for_test(self) -> (usize, f64, f64);
}

impl MimicParts for Option<rbdgen_runtime::model::Mimic> {
    fn unwrap_or_default_for_test(self) -> (usize, f64, f64) {
        self.map_or((0, 1.0, 0.0), |m| (m.primary, m.gain, m.offset))
    }
}

/// The map from the mimic model's coordinates to the full model's: `G [nv_full
/// x nv]`, and `q_full = G q + offset` (every joint of the chain is 1-dof
/// or the free-flyer, whose q and v map one to one).
struct Reduction {
    g: Vec<f64>,
    nv_full: usize,
    nv: usize,
}

impl Reduction {
    fn new(model: &Model, full: &Model) -> Reduction {
        let (nv_full, nv) = (full.nv, model.nv);
        let mut g = vec![0.0; nv_full * nv];
        for (j, fj) in model.joints.iter().zip(&full.joints).skip(1) {
            let gain = j.mimic.map_or(1.0, |m| m.gain);
            for k in 0..j.kind.nv() {
                g[(fj.idx_v + k) * nv + j.idx_v + k] = gain;
            }
        }
        Reduction { g, nv_full, nv }
    }

    fn q_full(&self, model: &Model, full: &Model, q: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; full.nq];
        for (j, fj) in model.joints.iter().zip(&full.joints).skip(1) {
            for k in 0..j.kind.nq() {
                out[fj.idx_q + k] = match j.mimic {
                    None => q[j.idx_q + k],
                    Some(m) => m.gain * q[j.idx_q] + m.offset,
                };
            }
        }
        out
    }

    /// `G x`.
    fn expand(&self, x: &[f64]) -> Vec<f64> {
        (0..self.nv_full)
            .map(|r| (0..self.nv).map(|c| self.g[r * self.nv + c] * x[c]).sum())
            .collect()
    }

    /// `A G` for a row-major `[rows x nv_full]` matrix.
    fn right(&self, a: &[f64], rows: usize) -> Vec<f64> {
        let mut out = vec![0.0; rows * self.nv];
        for r in 0..rows {
            for c in 0..self.nv {
                out[r * self.nv + c] = (0..self.nv_full)
                    .map(|k| a[r * self.nv_full + k] * self.g[k * self.nv + c])
                    .sum();
            }
        }
        out
    }

    /// `Gᵀ A` for a row-major `[nv_full x cols]` matrix.
    fn left(&self, a: &[f64], cols: usize) -> Vec<f64> {
        let mut out = vec![0.0; self.nv * cols];
        for r in 0..self.nv {
            for c in 0..cols {
                out[r * cols + c] = (0..self.nv_full)
                    .map(|k| self.g[k * self.nv + r] * a[k * cols + c])
                    .sum();
            }
        }
        out
    }
}

/// Every supported algorithm on the mimic model is the full model's, mapped
/// by G, at random states of the chain (fixed and floating) and of Panda.
#[test]
fn results_are_the_full_models_reduced_by_g() {
    let mut rng = StdRng::seed_from_u64(7);
    for (urdf, floating) in [(CHAIN, false), (CHAIN, true), ("models/panda.urdf", false)] {
        let model = &load_mimic(urdf, floating);
        let full = &Model::from_urdf_file(root().join(urdf), floating).unwrap();
        let g = Reduction::new(model, full);
        let (mut d, mut df) = (Data::<f64>::new(model), Data::<f64>::new(full));
        for k in 0..5 {
            let tag = |what: &str| format!("{urdf} {floating} state {k} {what}");
            let q = common::random_q(model, &mut rng);
            let v = common::random_vec(model.nv, 1.0, &mut rng);
            let a = common::random_vec(model.nv, 1.0, &mut rng);
            let qf = g.q_full(model, full, &q);
            let (vf, af) = (g.expand(&v), g.expand(&a));
            let tau_full = rnea(full, &mut df, &qf, &vf, &af).unwrap().to_vec();
            let tau = rnea(model, &mut d, &q, &v, &a).unwrap().to_vec();
            assert_close(&tag("rnea"), &tau, &g.left(&tau_full, 1), 1e-12);
            let m_full = crba(full, &mut df, &qf).unwrap().to_vec();
            let m = crba(model, &mut d, &q).unwrap().to_vec();
            assert_close(
                &tag("crba"),
                &m,
                &g.right(&g.left(&m_full, g.nv_full), g.nv),
                1e-12,
            );
            // Forward dynamics inverts inverse dynamics, also with external forces.
            let fext: Vec<Force<f64>> = (0..model.njoints())
                .map(|_| Force::from_slice(&common::random_vec(6, 1.0, &mut rng)))
                .collect();
            let acc = aba_fext(model, &mut d, &q, &v, &tau, &fext)
                .unwrap()
                .to_vec();
            let back = rnea_fext(model, &mut d, &q, &v, &acc, &fext)
                .unwrap()
                .to_vec();
            assert_close(&tag("rnea_fext(aba_fext).unwrap()"), &back, &tau, 1e-10);
            assert_close(
                &tag("aba(rnea).unwrap()"),
                aba(model, &mut d, &q, &v, &tau).unwrap(),
                &a,
                1e-9,
            );
            compute_joint_jacobians(model, &mut d, &q).unwrap();
            compute_joint_jacobians(full, &mut df, &qf).unwrap();
            update_frame_placements(model, &mut d).unwrap();
            update_frame_placements(full, &mut df).unwrap();
            for (id, frame) in model.body_frames() {
                for rf in ReferenceFrame::ALL {
                    let j = frame_jacobian(model, &d, id, rf).unwrap();
                    let jf = frame_jacobian(full, &df, id, rf).unwrap();
                    assert_close(
                        &tag(&format!("{} {rf:?}", frame.name)),
                        &j,
                        &g.right(&jf, 6),
                        1e-12,
                    );
                }
            }
            let ag = ccrba(model, &mut d, &q, &v).unwrap().0.to_vec();
            let ag_full = ccrba(full, &mut df, &qf, &vf).unwrap().0.to_vec();
            assert_close(&tag("ag"), &ag, &g.right(&ag_full, 6), 1e-12);
            let dag = dccrba(model, &mut d, &q, &v).unwrap().to_vec();
            let dag_full = dccrba(full, &mut df, &qf, &vf).unwrap().to_vec();
            assert_close(&tag("dag"), &dag, &g.right(&dag_full, 6), 1e-12);
            // The Lie-group operations act on the independent coordinates only.
            let q2 = integrate(model, &q, &v).unwrap();
            assert_close(
                &tag("difference"),
                &difference(model, &q, &q2).unwrap(),
                &v,
                1e-12,
            );
        }
    }
}

/// A URDF without mimic tags loads to the same model with or without the option.
#[test]
fn without_mimic_tags_the_option_changes_nothing() {
    for urdf in ["models/z1.urdf", "models/go2.urdf"] {
        let path = root().join(urdf);
        for floating in [false, true] {
            assert_eq!(
                Model::from_urdf_file_mimic(&path, floating).unwrap(),
                Model::from_urdf_file(&path, floating).unwrap(),
                "{urdf}"
            );
        }
    }
}

fn chain_with(from: &str, to: &str) -> Result<Model, ModelError> {
    let text = std::fs::read_to_string(root().join(CHAIN)).unwrap();
    assert!(text.contains(from));
    Model::from_urdf_str_mimic(&text.replace(from, to), false)
}

#[test]
fn the_topology_is_a_chain_of_dofs_and_its_fingerprint_covers_the_mimics() {
    // Joints shoulder, elbow (mimic), slider (mimic), wrist, z_side (mimic):
    // the mimics share dofs 0 and 1, and never become their own dof's parent.
    let model = load_mimic(CHAIN, false);
    let tree = model.topology();
    assert_eq!(tree.dof_parents(), [None, Some(0)]);
    for k in 0..model.nv {
        assert_eq!(tree.dof_subtree(k), k..model.nv, "dof {k}");
        let mut branch = Vec::new();
        tree.branch_dofs(k, &mut branch);
        assert_eq!(branch, (0..model.nv).collect::<Vec<_>>(), "dof {k}");
    }
    let data = Data::<f64>::new(&model);
    assert_eq!(data.check(&load_mimic(CHAIN, false)), Ok(()));
    // Another multiplier: the same sizes and bodies, another robot.
    let other = chain_with("multiplier=\"-2.0\"", "multiplier=\"-1.5\"").unwrap();
    assert_eq!((other.nq, other.nv), (model.nq, model.nv));
    let e = data.check(&other).unwrap_err();
    assert!(e.to_string().contains("fingerprint"), "{e}");
}

#[test]
fn a_mimicking_joint_has_no_armature_of_its_own() {
    let mut model = load_mimic(CHAIN, false);
    let e = model.set_armature("elbow", 0.1).unwrap_err();
    assert!(e.to_string().contains("mimics `shoulder`"), "{e}");
    model.set_armature("shoulder", 0.1).unwrap();
    assert_eq!(model.armature, [0.1, 0.0]);
}

#[test]
fn bad_mimics_are_errors_naming_the_joint() {
    let cases = [
        // The primary comes later in joint order.
        (
            r#"<mimic joint="shoulder""#,
            r#"<mimic joint="z_side""#,
            "does not come before",
        ),
        (
            r#"<mimic joint="shoulder""#,
            r#"<mimic joint="nowhere""#,
            "`nowhere`",
        ),
        // Itself.
        (
            r#"<mimic joint="shoulder""#,
            r#"<mimic joint="elbow""#,
            "mimic of joint `elbow`",
        ),
        (
            r#"multiplier="1.7""#,
            r#"multiplier="1e400""#,
            "must be finite",
        ),
        (
            r#"<joint name="shoulder" type="revolute">"#,
            r#"<joint name="shoulder" type="continuous">"#,
            "must be revolute or prismatic",
        ),
    ];
    for (from, to, want) in cases {
        let e = chain_with(from, to).unwrap_err();
        assert!(matches!(e, ModelError::InvalidSetting { .. }), "{e}");
        assert!(e.to_string().contains(want), "{e}");
    }
}

/// `[f(x + h e_k) - f(x - h e_k)] / 2h` as the columns of an `[m x n]`
/// row-major matrix, for `f: [n] -> [m]`.
fn central_difference(n: usize, f: impl Fn(&[f64]) -> Vec<f64>) -> Vec<f64> {
    let h = 1e-6;
    let columns: Vec<Vec<f64>> = (0..n)
        .map(|k| {
            let mut e = vec![0.0; n];
            e[k] = h;
            let minus: Vec<f64> = e.iter().map(|x| -x).collect();
            let (p, m) = (f(&e), f(&minus));
            p.iter().zip(&m).map(|(a, b)| (a - b) / (2.0 * h)).collect()
        })
        .collect();
    let rows = columns[0].len();
    (0..rows * n).map(|i| columns[i % n][i / n]).collect()
}

/// The tangent-space derivatives of RNEA and ABA, with and without external
/// forces, and `∂a/∂fext`, against central differences and against the full
/// model's derivatives reduced by G (`Gᵀ ∂τ_full G`).
#[test]
fn derivatives_match_central_differences_and_the_full_model() {
    let mut rng = StdRng::seed_from_u64(8);
    for (urdf, floating) in [(CHAIN, false), (CHAIN, true), ("models/panda.urdf", false)] {
        let model = &load_mimic(urdf, floating);
        let full = &Model::from_urdf_file(root().join(urdf), floating).unwrap();
        let g = Reduction::new(model, full);
        let nv = model.nv;
        let (mut d, mut df) = (Data::<f64>::new(model), Data::<f64>::new(full));
        for k in 0..3 {
            let tag = |what: &str| format!("{urdf} {floating} state {k} {what}");
            let q = common::random_q(model, &mut rng);
            let v = common::random_vec(nv, 1.0, &mut rng);
            let a = common::random_vec(nv, 1.0, &mut rng);
            let tau = common::random_vec(nv, 1.0, &mut rng);
            let fext: Vec<Force<f64>> = (0..model.njoints())
                .map(|_| Force::from_slice(&common::random_vec(6, 1.0, &mut rng)))
                .collect();
            let data = std::cell::RefCell::new(Data::<f64>::new(model));
            let rnea_at = |q: &[f64], v: &[f64], a: &[f64]| {
                rnea_fext(model, &mut data.borrow_mut(), q, v, a, &fext)
                    .unwrap()
                    .to_vec()
            };
            let aba_at = |q: &[f64], v: &[f64], tau: &[f64]| {
                aba_fext(model, &mut data.borrow_mut(), q, v, tau, &fext)
                    .unwrap()
                    .to_vec()
            };
            let plus =
                |x: &[f64], dx: &[f64]| x.iter().zip(dx).map(|(a, b)| a + b).collect::<Vec<_>>();

            let ours = rnea_derivatives_fext(model, &mut d, &q, &v, &a, &fext).unwrap();
            let fd_q =
                central_difference(nv, |dq| rnea_at(&integrate(model, &q, dq).unwrap(), &v, &a));
            let fd_v = central_difference(nv, |dv| rnea_at(&q, &plus(&v, dv), &a));
            let fd_a = central_difference(nv, |da| rnea_at(&q, &v, &plus(&a, da)));
            assert_close(&tag("dtau_dq"), &ours.d_dq, &fd_q, 1e-7);
            assert_close(&tag("dtau_dv"), &ours.d_dv, &fd_v, 1e-7);
            assert_close(&tag("dtau_da"), &ours.d_du, &fd_a, 1e-7);

            let ours = aba_derivatives_fext(model, &mut d, &q, &v, &tau, &fext).unwrap();
            let fd_q = central_difference(nv, |dq| {
                aba_at(&integrate(model, &q, dq).unwrap(), &v, &tau)
            });
            let fd_v = central_difference(nv, |dv| aba_at(&q, &plus(&v, dv), &tau));
            let fd_tau = central_difference(nv, |dt| aba_at(&q, &v, &plus(&tau, dt)));
            assert_close(&tag("ddq_dq"), &ours.d_dq, &fd_q, 1e-6);
            assert_close(&tag("ddq_dv"), &ours.d_dv, &fd_v, 1e-6);
            assert_close(&tag("ddq_dtau"), &ours.d_du, &fd_tau, 1e-6);

            let dfext = aba_dfext(model, &mut d, &q).unwrap();
            let flat_fext: Vec<f64> = fext.iter().flat_map(|f| f.to_array()).collect();
            let fd_fext = central_difference(flat_fext.len(), |df| {
                let f: Vec<Force<f64>> = plus(&flat_fext, df)
                    .chunks(6)
                    .map(Force::from_slice)
                    .collect();
                aba_fext(model, &mut data.borrow_mut(), &q, &v, &tau, &f)
                    .unwrap()
                    .to_vec()
            });
            // The universe's wrench (entry 0) is ignored: zero columns on both sides.
            assert_close(&tag("aba_dfext"), &dfext, &fd_fext, 1e-6);

            // Without fext, the full model's derivatives reduced by G.
            let ours = rnea_derivatives(model, &mut d, &q, &v, &a).unwrap();
            let qf = g.q_full(model, full, &q);
            let theirs =
                rnea_derivatives(full, &mut df, &qf, &g.expand(&v), &g.expand(&a)).unwrap();
            let reduce = |m: &[f64]| g.right(&g.left(m, g.nv_full), g.nv);
            assert_close(
                &tag("dtau_dq = G' full G"),
                &ours.d_dq,
                &reduce(&theirs.d_dq),
                1e-12,
            );
            assert_close(
                &tag("dtau_dv = G' full G"),
                &ours.d_dv,
                &reduce(&theirs.d_dv),
                1e-12,
            );
            assert_close(
                &tag("dtau_da = G' full G"),
                &ours.d_du,
                &reduce(&theirs.d_du),
                1e-12,
            );
            let ours = aba_derivatives(model, &mut d, &q, &v, &tau).unwrap();
            let fd_q = central_difference(nv, |dq| {
                aba(
                    model,
                    &mut data.borrow_mut(),
                    &integrate(model, &q, dq).unwrap(),
                    &v,
                    &tau,
                )
                .unwrap()
                .to_vec()
            });
            assert_close(&tag("ddq_dq without fext"), &ours.d_dq, &fd_q, 1e-6);
        }
    }
}

/// The regressor reproduces RNEA: `Y π = rnea(q, v, a).unwrap()` with the links'
/// parameters (no armature), and equals `Gᵀ Y_full`.
#[test]
fn the_regressor_reproduces_rnea() {
    let mut rng = StdRng::seed_from_u64(9);
    for (urdf, floating) in [(CHAIN, false), (CHAIN, true), ("models/panda.urdf", false)] {
        let model = &load_mimic(urdf, floating);
        let full = &Model::from_urdf_file(root().join(urdf), floating).unwrap();
        let g = Reduction::new(model, full);
        let (mut d, mut df) = (Data::<f64>::new(model), Data::<f64>::new(full));
        let q = common::random_q(model, &mut rng);
        let v = common::random_vec(model.nv, 1.0, &mut rng);
        let a = common::random_vec(model.nv, 1.0, &mut rng);
        let y = joint_torque_regressor(model, &mut d, &q, &v, &a).unwrap();
        let pi: Vec<f64> = model.joints[1..]
            .iter()
            .flat_map(|j| j.inertia.to_parameters())
            .collect();
        let cols = pi.len();
        let y_pi: Vec<f64> = (0..model.nv)
            .map(|r| (0..cols).map(|c| y[r * cols + c] * pi[c]).sum())
            .collect();
        assert_close(
            &format!("{urdf} Y pi"),
            &y_pi,
            rnea(model, &mut d, &q, &v, &a).unwrap(),
            1e-12,
        );
        let qf = g.q_full(model, full, &q);
        let y_full =
            joint_torque_regressor(full, &mut df, &qf, &g.expand(&v), &g.expand(&a)).unwrap();
        assert_close(
            &format!("{urdf} Y = G' Y_full"),
            &y,
            &g.left(&y_full, cols),
            1e-12,
        );
    }
}

/// `J̇` of every link frame against a central difference of `J` along the
/// motion `integrate(q, t v).unwrap()`, and against the model without mimics
/// (`J̇_full G`); the acceleration drifts are `J̇ v`.
#[test]
fn jacobian_time_variations_and_drifts() {
    let mut rng = StdRng::seed_from_u64(10);
    for (urdf, floating) in [(CHAIN, false), (CHAIN, true), ("models/panda.urdf", false)] {
        let model = &load_mimic(urdf, floating);
        let full = &Model::from_urdf_file(root().join(urdf), floating).unwrap();
        let g = Reduction::new(model, full);
        let (mut d, mut df) = (Data::<f64>::new(model), Data::<f64>::new(full));
        let q = common::random_q(model, &mut rng);
        let v = common::random_vec(model.nv, 1.0, &mut rng);
        compute_joint_jacobians_time_variation(model, &mut d, &q, &v).unwrap();
        let qf = g.q_full(model, full, &q);
        compute_joint_jacobians_time_variation(full, &mut df, &qf, &g.expand(&v)).unwrap();
        let data = std::cell::RefCell::new(Data::<f64>::new(model));
        for (id, frame) in model.body_frames() {
            let tag = |what: &str| format!("{urdf} {floating} {} {what}", frame.name);
            for rf in ReferenceFrame::ALL {
                let dj = frame_jacobian_time_variation(model, &d, id, rf).unwrap();
                let fd = central_difference(1, |t| {
                    let dq: Vec<f64> = v.iter().map(|x| x * t[0]).collect();
                    let mut data = data.borrow_mut();
                    compute_joint_jacobians(model, &mut data, &integrate(model, &q, &dq).unwrap())
                        .unwrap();
                    frame_jacobian(model, &data, id, rf).unwrap()
                });
                assert_close(
                    &tag(&format!("{rf:?} J̇ vs central difference")),
                    &dj,
                    &fd,
                    1e-7,
                );
                let theirs = frame_jacobian_time_variation(full, &df, id, rf).unwrap();
                assert_close(
                    &tag(&format!("{rf:?} J̇ = J̇_full G")),
                    &dj,
                    &g.right(&theirs, 6),
                    1e-12,
                );
            }
            let drift =
                frame_acceleration_drift(model, &mut data.borrow_mut(), &q, &v, id).unwrap();
            let times_v = |m: &[f64]| -> Vec<f64> {
                (0..6)
                    .map(|r| (0..model.nv).map(|c| m[r * model.nv + c] * v[c]).sum())
                    .collect()
            };
            let local =
                frame_jacobian_time_variation(model, &d, id, ReferenceFrame::Local).unwrap();
            assert_close(
                &tag("local drift"),
                &drift.local.to_array(),
                &times_v(&local),
                1e-12,
            );
            let lwa =
                frame_jacobian_time_variation(model, &d, id, ReferenceFrame::LocalWorldAligned)
                    .unwrap();
            let classical = drift.classical_local_world_aligned.to_array();
            assert_close(&tag("classical drift"), &classical, &times_v(&lwa), 1e-12);
        }
    }
}

/// Contact dynamics keeps the contacts still (`J_c v̇ + γ = 0`) and satisfies
/// `M v̇ + h = τ + J_cᵀ λ`.
#[test]
fn contact_dynamics_on_a_mimic_model() {
    let mut rng = StdRng::seed_from_u64(11);
    for (urdf, floating, contacts) in [
        (CHAIN, true, vec![("tip", ContactKind::Frame6d)]),
        (
            "models/panda.urdf",
            false,
            vec![("panda_rightfinger", ContactKind::Point)],
        ),
    ] {
        let mut model = load_mimic(urdf, floating);
        model.set_contacts(&contacts).unwrap();
        let model = &model;
        let mut d = Data::<f64>::new(model);
        let q = common::random_q(model, &mut rng);
        let v = common::random_vec(model.nv, 1.0, &mut rng);
        let tau = common::random_vec(model.nv, 1.0, &mut rng);
        let (ddq, lambda) =
            contact_dynamics(model, &mut d, &q, &v, &tau, &model.contacts, 0.0).unwrap();
        let jc = contact_jacobian(model, &mut d, &q, &model.contacts).unwrap();
        let gamma = contact_drift(model, &mut d, &q, &v, &model.contacts).unwrap();
        let nc = gamma.len();
        let residual: Vec<f64> = (0..nc)
            .map(|r| {
                (0..model.nv)
                    .map(|c| jc[r * model.nv + c] * ddq[c])
                    .sum::<f64>()
                    + gamma[r]
            })
            .collect();
        assert_close(&format!("{urdf} J v̇ + γ"), &residual, &vec![0.0; nc], 1e-10);
        let lhs = contact_inverse_dynamics(model, &mut d, &q, &v, &ddq, &lambda, &model.contacts)
            .unwrap();
        assert_close(&format!("{urdf} rnea - J'λ"), &lhs, &tau, 1e-10);
    }
}

/// `step_linearization`'s `A` and `B` against central differences of `step`.
#[test]
fn step_linearization_matches_central_differences() {
    let mut rng = StdRng::seed_from_u64(12);
    for (urdf, floating) in [(CHAIN, true), ("models/panda.urdf", false)] {
        let model = &load_mimic(urdf, floating);
        let nv = model.nv;
        let nu = actuated_dofs(model).len();
        let mut d = Data::<f64>::new(model);
        let q = common::random_q(model, &mut rng);
        let v = common::random_vec(nv, 1.0, &mut rng);
        let u = common::random_vec(nu, 1.0, &mut rng);
        let h = 0.01;
        let (q_next, v_next, a, b) = step_linearization(model, &mut d, &q, &v, &u, h).unwrap();
        let data = std::cell::RefCell::new(Data::<f64>::new(model));
        let error = |q2: &[f64], v2: &[f64]| -> Vec<f64> {
            let dq = difference(model, &q_next, q2).unwrap();
            let dv = v2.iter().zip(&v_next).map(|(x, y)| x - y);
            dq.into_iter().chain(dv).collect()
        };
        let fd_a = central_difference(2 * nv, |dx| {
            let qp = integrate(model, &q, &dx[..nv]).unwrap();
            let vp: Vec<f64> = v.iter().zip(&dx[nv..]).map(|(x, y)| x + y).collect();
            let (q2, v2) = step(model, &mut data.borrow_mut(), &qp, &vp, &u, h).unwrap();
            error(&q2, &v2)
        });
        assert_close(&format!("{urdf} A"), &a, &fd_a, 1e-7);
        let fd_b = central_difference(nu, |du| {
            let up: Vec<f64> = u.iter().zip(du).map(|(x, y)| x + y).collect();
            let (q2, v2) = step(model, &mut data.borrow_mut(), &q, &v, &up, h).unwrap();
            error(&q2, &v2)
        });
        assert_close(&format!("{urdf} B"), &b, &fd_b, 1e-7);
    }
}
