//! Spherical joints (MJCF `ball`, Pinocchio's `JointModelSpherical`) and
//! planar joints (URDF `planar`, `JointModelPlanar`) through every runtime
//! algorithm, on hand-made models (`tests/joints/`):
//!
//! - against Pinocchio 4.1.0 (`tests/reference/joints/*.json`: dynamics,
//!   frames, centroidal quantities, energies, derivatives, external forces,
//!   Lie-group operations; the whole-body keys run in `whole_body.rs`), and
//!   against MuJoCo for the MJCF models;
//! - the Lie-group identities and central differences of `d_integrate` /
//!   `d_difference` in the tangent space, at large and tiny steps;
//! - `integrate`, `difference` and their Jacobians at the angles where the
//!   formulas switch branches, against 60-digit values and Pinocchio
//!   (`lie_edge_cases.json`, `scripts/make_joint_lie_reference.py`).

mod common;
mod mjcf_common;

use common::{assert_close, flat, random_q, random_vec, root};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen_runtime::{
    aba, crba, d_difference, d_integrate, difference, integrate, rnea, ArgumentPosition, Data,
    JointKind, Model,
};
use serde_json::Value;

fn reference(name: &str) -> std::path::PathBuf {
    root().join(format!("tests/reference/joints/{name}.json"))
}

#[test]
fn against_pinocchio() {
    for name in [
        "planar_fixed",
        "planar_floating",
        "ball_fixed",
        "ball_floating",
        "ball_composite",
    ] {
        let (json, model) = mjcf_common::load(&reference(name));
        let errors = mjcf_common::against_pinocchio(&json, &model);
        assert!(errors.notes.is_empty(), "{name}: {:?}", errors.notes);
        errors.assert_ok(name);
    }
}

#[test]
fn against_mujoco() {
    for name in ["mujoco_ball", "mujoco_ball_composite"] {
        let (json, model) = mjcf_common::load(&reference(name));
        mjcf_common::against_mujoco(&json, &model).assert_ok(name);
    }
}

/// The models of this file with the kinds they hold.
fn models() -> Vec<(&'static str, Model)> {
    let planar = root().join("tests/joints/planar.urdf");
    let ball = root().join("tests/joints/ball.xml");
    let composite = root().join("tests/joints/ball_composite.xml");
    vec![
        ("planar", Model::from_urdf_file(&planar, false).unwrap()),
        (
            "planar floating",
            Model::from_urdf_file(&planar, true).unwrap(),
        ),
        ("ball", Model::from_mjcf_file(&ball, false).unwrap()),
        (
            "ball composite",
            Model::from_mjcf_file(&composite, false).unwrap(),
        ),
    ]
}

#[test]
fn the_models_hold_the_new_kinds() {
    let kinds = |m: &Model| -> Vec<&'static str> {
        m.joints[1..]
            .iter()
            .map(|j| match j.kind {
                JointKind::Spherical => "spherical",
                JointKind::Planar => "planar",
                JointKind::FreeFlyer => "free",
                _ => "1-dof",
            })
            .collect()
    };
    let m = models();
    assert_eq!(kinds(&m[0].1), ["planar", "1-dof", "planar", "1-dof"]);
    assert_eq!((m[0].1.nq, m[0].1.nv), (11, 8));
    assert_eq!(kinds(&m[2].1), ["spherical", "1-dof", "spherical"]);
    assert_eq!((m[2].1.nq, m[2].1.nv), (9, 7));
    assert_eq!(
        kinds(&m[3].1),
        [
            "free",
            "1-dof",
            "spherical",
            "spherical",
            "1-dof",
            "spherical"
        ]
    );
    assert_eq!(
        m[2].1.neutral(),
        [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]
    );
    assert_eq!(m[0].1.neutral()[..4], [0.0, 0.0, 1.0, 0.0]);
}

fn mat_mul(a: &[f64], b: &[f64], n: usize) -> Vec<f64> {
    (0..n * n)
        .map(|e| (0..n).map(|l| a[e / n * n + l] * b[l * n + e % n]).sum())
        .collect()
}

/// Column k of `(f(+h e_k) - f(-h e_k)) / 2h`, row-major `n x n`.
fn central(n: usize, f: &dyn Fn(&[f64]) -> Vec<f64>) -> Vec<f64> {
    let h = 1e-6;
    let cols: Vec<Vec<f64>> = (0..n)
        .map(|k| {
            let mut e = vec![0.0; n];
            e[k] = h;
            let plus = f(&e);
            e[k] = -h;
            let minus = f(&e);
            plus.iter()
                .zip(&minus)
                .map(|(p, m)| (p - m) / (2.0 * h))
                .collect()
        })
        .collect();
    (0..n * n).map(|e| cols[e % n][e / n]).collect()
}

/// `H1 D1 = I`, `H0 + H1 D0 = 0`, `difference(q, q ⊕ w).unwrap() = w`, and each
/// Jacobian against central differences in the tangent space.
#[test]
fn lie_group_identities_and_central_differences() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for (name, model) in models() {
        let n = model.nv;
        let identity: Vec<f64> = (0..n * n)
            .map(|e| if e / n == e % n { 1.0 } else { 0.0 })
            .collect();
        for scale in [1.5, 1e-3, 1e-6, 1e-10, 0.0] {
            for k in 0..4 {
                let tag = format!("{name} scale {scale} #{k}");
                let q = random_q(&model, &mut rng);
                let w = if scale == 0.0 {
                    vec![0.0; n]
                } else {
                    random_vec(n, scale, &mut rng)
                };
                let q1 = integrate(&model, &q, &w).unwrap();
                let d0 = d_integrate(&model, &q, &w, ArgumentPosition::Arg0).unwrap();
                let d1 = d_integrate(&model, &q, &w, ArgumentPosition::Arg1).unwrap();
                let h0 = d_difference(&model, &q, &q1, ArgumentPosition::Arg0).unwrap();
                let h1 = d_difference(&model, &q, &q1, ArgumentPosition::Arg1).unwrap();
                assert_close(
                    &format!("{tag}: H1 D1 = I"),
                    &mat_mul(&h1, &d1, n),
                    &identity,
                    1e-9,
                );
                let sum: Vec<f64> = h0
                    .iter()
                    .zip(mat_mul(&h1, &d0, n))
                    .map(|(a, b)| a + b)
                    .collect();
                assert_close(
                    &format!("{tag}: H0 + H1 D0 = 0"),
                    &sum,
                    &vec![0.0; n * n],
                    1e-9,
                );
                assert_close(
                    &format!("{tag}: difference(q, q ⊕ w).unwrap()"),
                    &difference(&model, &q, &q1).unwrap(),
                    &w,
                    1e-9,
                );
                let tangent = |a: &[f64], b: &[f64]| difference(&model, a, b).unwrap();
                let plus = |a: &[f64], e: &[f64]| integrate(&model, a, e).unwrap();
                let fd = central(n, &|e| {
                    let we: Vec<f64> = w.iter().zip(e).map(|(a, b)| a + b).collect();
                    tangent(&q1, &plus(&q, &we))
                });
                assert_close(&format!("{tag}: dintegrate d1"), &d1, &fd, 1e-7);
                let fd = central(n, &|e| tangent(&q1, &plus(&plus(&q, e), &w)));
                assert_close(&format!("{tag}: dintegrate d0"), &d0, &fd, 1e-7);
                let q2 = random_q(&model, &mut rng);
                let h1 = d_difference(&model, &q, &q2, ArgumentPosition::Arg1).unwrap();
                let fd = central(n, &|e| tangent(&q, &plus(&q2, e)));
                assert_close(&format!("{tag}: ddifference d1"), &h1, &fd, 1e-7);
                let h0 = d_difference(&model, &q, &q2, ArgumentPosition::Arg0).unwrap();
                let fd = central(n, &|e| tangent(&plus(&q, e), &q2));
                assert_close(&format!("{tag}: ddifference d0"), &h0, &fd, 1e-7);
            }
        }
    }
}

/// A model of one joint of the kind, for the edge cases.
fn single(kind: &str) -> Model {
    match kind {
        "spherical" => Model::from_mjcf_str(
            r#"<mujoco model="s"><worldbody><body name="b"><joint name="j" type="ball"/>
            <inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/></body></worldbody></mujoco>"#,
            false,
        )
        .unwrap(),
        _ => Model::from_urdf_str(
            r#"<robot name="p"><link name="a"/><link name="b"><inertial><mass value="1"/>
            <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
            <joint name="j" type="planar"><parent link="a"/><child link="b"/></joint></robot>"#,
            false,
        )
        .unwrap(),
    }
}

fn relative(a: &[f64], b: &[f64]) -> f64 {
    let scale = b.iter().fold(1.0f64, |m, x| m.max(x.abs()));
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
        / scale
}

/// At every branch point: ours within 1e-9 of the 60-digit values, and
/// within 1e-8 of Pinocchio wherever Pinocchio is itself within 1e-8 of
/// them. Pinocchio's SE(2) exponential switches to its series only below
/// |ω| = 1e-14 and loses the translation to cancellation above: 1.2e-5 at
/// |ω| = 1e-12, 2e-8 at 1e-9 (integrate and dIntegrate wrt q).
#[test]
fn edge_cases_against_exact_values_and_pinocchio() {
    let path = reference("lie_edge_cases");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut pinocchio_off = Vec::new();
    for kind in ["spherical", "planar"] {
        let model = single(kind);
        for (k, c) in json[kind].as_array().unwrap().iter().enumerate() {
            let (q0, v) = (flat(&c["q0"]), flat(&c["v"]));
            let mut ours: Vec<(&str, Vec<f64>)> = vec![
                ("integrate", integrate(&model, &q0, &v).unwrap()),
                (
                    "dintegrate_d0",
                    d_integrate(&model, &q0, &v, ArgumentPosition::Arg0).unwrap(),
                ),
                (
                    "dintegrate_d1",
                    d_integrate(&model, &q0, &v, ArgumentPosition::Arg1).unwrap(),
                ),
            ];
            if c.get("q1").is_some() {
                let q1 = flat(&c["q1"]);
                ours.push(("difference", difference(&model, &q0, &q1).unwrap()));
                ours.push((
                    "ddifference_d0",
                    d_difference(&model, &q0, &q1, ArgumentPosition::Arg0).unwrap(),
                ));
                ours.push((
                    "ddifference_d1",
                    d_difference(&model, &q0, &q1, ArgumentPosition::Arg1).unwrap(),
                ));
            }
            for (key, value) in ours {
                let tag = format!("{kind} case {k} (v = {v:?}) {key}");
                assert!(value.iter().all(|x| x.is_finite()), "{tag}: {value:?}");
                let exact = flat(&c[format!("{key}_exact")]);
                let pinocchio = flat(&c[key]);
                let e = relative(&value, &exact);
                assert!(
                    e <= 1e-9,
                    "{tag}: {e:e} from the exact value\n ours {value:?}\n exact {exact:?}"
                );
                if relative(&pinocchio, &exact) <= 1e-8 {
                    assert_close(&format!("{tag} (Pinocchio)"), &value, &pinocchio, 1e-8);
                } else {
                    let angle = match kind {
                        "spherical" => v.iter().map(|x| x * x).sum::<f64>().sqrt(),
                        _ => v[2].abs(),
                    };
                    pinocchio_off.push(format!("{kind} {key} |ω| = {angle:e}"));
                }
            }
        }
    }
    assert_eq!(
        pinocchio_off,
        [
            "planar integrate |ω| = 1e-12",
            "planar dintegrate_d0 |ω| = 1e-12",
            "planar integrate |ω| = 1e-9",
            "planar dintegrate_d0 |ω| = 1e-9",
        ]
    );
}

/// Dynamics on the new kinds with a NaN in q, v or tau: NaN out, no panic.
#[test]
fn nan_inputs_do_not_panic() {
    for (_, model) in models() {
        let mut data = Data::<f64>::new(&model);
        let mut q = model.neutral();
        q[2] = f64::NAN;
        let v = vec![0.1; model.nv];
        assert!(rnea(&model, &mut data, &q, &v, &v)
            .unwrap()
            .iter()
            .any(|x| x.is_nan()));
        // M does not depend on the root joint's configuration: no NaN needed there.
        let _ = crba(&model, &mut data, &q).unwrap();
        assert!(aba(&model, &mut data, &q, &v, &v)
            .unwrap()
            .iter()
            .any(|x| x.is_nan()));
        let _ = difference(&model, &q, &model.neutral()).unwrap();
        let _ = d_difference(&model, &q, &model.neutral(), ArgumentPosition::Arg0).unwrap();
    }
}
