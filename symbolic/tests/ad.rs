//! Automatic differentiation on the graph ([`rbdgen_symbolic::diff`],
//! `NAME_jacobian`), interpreted: the identities with the analytical
//! derivatives (the AD Jacobian of `rnea` is `rnea_derivatives`, of `aba`
//! `aba_derivatives`, of `center_of_mass` `jacobian_center_of_mass`, of
//! `frame_placement`'s translation the linear rows of
//! `frame_jacobian_local_world_aligned`, of `kinetic_energy` with respect to
//! `v` `M v`), forward mode against reverse mode, and central differences in
//! the tangent space for functions without an analytical derivative.

#[path = "../../runtime/tests/common/mod.rs"]
mod common;

use common::{assert_close, load_model, random_q, random_vec};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen_runtime::{integrate, Data, Model};
use rbdgen_symbolic::diff::{jacobian, Mode};
use rbdgen_symbolic::jacobian::{jacobian_output, trace_jacobian};
use rbdgen_symbolic::{trace, Expr, Function};

/// `function`'s AD Jacobian at `x`, interpreted, flat as emitted.
fn ad(model: &Model, function: Function, x: &[Vec<f64>], frame: Option<usize>) -> Vec<f64> {
    let traced = trace_jacobian(model, function, frame).unwrap();
    assert!(traced.graph.non_finite().is_none(), "{}", function.name());
    let inputs: Vec<f64> = x.concat();
    let out = traced.graph.eval(&inputs, &traced.outputs);
    assert_eq!(
        out.len(),
        jacobian_output(function, model).len(model),
        "{}: output length",
        function.name()
    );
    out
}

/// `function` evaluated by the runtime.
fn value(model: &Model, function: Function, x: &[Vec<f64>], frame: Option<usize>) -> Vec<f64> {
    let mut data = Data::new(model);
    function.evaluate(model, &mut data, x, frame).unwrap()
}

fn go2_z1() -> Model {
    load_model("models/go2_z1.urdf", true)
}

/// A random state for `function`'s arguments.
fn state(model: &Model, function: Function, rng: &mut ChaCha8Rng) -> Vec<Vec<f64>> {
    function
        .args(model)
        .iter()
        .map(|(_, dim)| match dim {
            rbdgen_symbolic::Dim::Nq => random_q(model, rng),
            d => random_vec(d.len(model), 1.0, rng),
        })
        .collect()
}

/// The blocks of a flat Jacobian, one per argument (`rows x cols` each).
fn blocks(model: &Model, function: Function, flat: &[f64]) -> Vec<Vec<f64>> {
    let rows = function.spec().output.len(model);
    let mut out = Vec::new();
    let mut at = 0;
    for (_, dim) in function.args(model) {
        let cols = match dim {
            rbdgen_symbolic::Dim::Nq => model.nv,
            d => d.len(model),
        };
        out.push(flat[at..at + rows * cols].to_vec());
        at += rows * cols;
    }
    assert_eq!(at, flat.len());
    out
}

#[test]
fn rnea_jacobian_is_rnea_derivatives() {
    let model = go2_z1();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..3 {
        let x = state(&model, Function::Rnea, &mut rng);
        let j = ad(&model, Function::Rnea, &x, None);
        let reference = value(&model, Function::RneaDerivatives, &x, None);
        assert_close("rnea_jacobian", &j, &reference, 1e-12);
    }
}

#[test]
fn aba_jacobian_is_aba_derivatives() {
    let model = go2_z1();
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let x = state(&model, Function::Aba, &mut rng);
    let j = ad(&model, Function::Aba, &x, None);
    let reference = value(&model, Function::AbaDerivatives, &x, None);
    assert_close("aba_jacobian", &j, &reference, 1e-12);
}

#[test]
fn center_of_mass_jacobian_is_jacobian_center_of_mass() {
    let model = go2_z1();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let x = state(&model, Function::CenterOfMass, &mut rng);
    let j = ad(&model, Function::CenterOfMass, &x, None);
    let reference = value(&model, Function::JacobianCenterOfMass, &x, None);
    assert_close("center_of_mass_jacobian", &j, &reference, 1e-12);
}

#[test]
fn frame_placement_translation_jacobian_is_the_linear_rows_of_the_frame_jacobian() {
    let model = go2_z1();
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let frame = model.link_frame("gripperMover").unwrap();
    let x = state(&model, Function::FramePlacement, &mut rng);
    let j = ad(&model, Function::FramePlacement, &x, Some(frame));
    let jacobian = value(
        &model,
        Function::FrameJacobianLocalWorldAligned,
        &x,
        Some(frame),
    );
    let nv = model.nv;
    // Rows 3, 7 and 11 of the flat 4 x 4 placement are the translation.
    let translation: Vec<f64> = [3, 7, 11]
        .iter()
        .flat_map(|&r| j[r * nv..(r + 1) * nv].to_vec())
        .collect();
    assert_close(
        "frame translation",
        &translation,
        &jacobian[..3 * nv],
        1e-12,
    );
}

#[test]
fn kinetic_energy_gradient_in_v_is_m_v() {
    let model = go2_z1();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let x = state(&model, Function::KineticEnergy, &mut rng);
    let j = ad(&model, Function::KineticEnergy, &x, None);
    let b = blocks(&model, Function::KineticEnergy, &j);
    let m = value(&model, Function::Crba, &x[..1], None);
    let mv = common::mat_vec(&m, &x[1]);
    assert_close("dT/dv", &b[1], &mv, 1e-12);
}

/// Central differences of `function` in the tangent space of each
/// configuration argument and along the others, flat as the Jacobian.
fn central_differences(
    model: &Model,
    function: Function,
    x: &[Vec<f64>],
    frame: Option<usize>,
) -> Vec<f64> {
    let h = 1e-6;
    let rows = function.spec().output.len(model);
    let mut out = Vec::new();
    for (k, (_, dim)) in function.args(model).iter().enumerate() {
        let cols = if *dim == rbdgen_symbolic::Dim::Nq {
            model.nv
        } else {
            dim.len(model)
        };
        let mut block = vec![0.0; rows * cols];
        for c in 0..cols {
            let moved = |s: f64| {
                let mut y = x.to_vec();
                if *dim == rbdgen_symbolic::Dim::Nq {
                    let mut d = vec![0.0; model.nv];
                    d[c] = s;
                    y[k] = integrate(model, &x[k], &d).unwrap();
                } else {
                    y[k][c] += s;
                }
                value(model, function, &y, frame)
            };
            let (p, m) = (moved(h), moved(-h));
            for r in 0..rows {
                block[r * cols + c] = (p[r] - m[r]) / (2.0 * h);
            }
        }
        out.extend(block);
    }
    out
}

#[test]
fn jacobians_without_an_analytical_form_match_central_differences() {
    let model = go2_z1();
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    for function in [
        Function::Ccrba,
        Function::KineticEnergy,
        Function::PotentialEnergy,
        Function::CentroidalMomentumRate,
        Function::Integrate,
        Function::Difference,
    ] {
        let x = state(&model, function, &mut rng);
        let j = ad(&model, function, &x, None);
        let fd = central_differences(&model, function, &x, None);
        assert_close(function.name(), &j, &fd, 1e-6);
    }
}

#[test]
fn forward_and_reverse_mode_agree() {
    let model = go2_z1();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let q = random_q(&model, &mut rng);
    let v = random_vec(model.nv, 1.0, &mut rng);
    let nq = model.nq;
    let traced = trace(&[nq, model.nv], |x| {
        let mut data = Data::<Expr>::new(&model);
        Function::Ccrba
            .evaluate(&model, &mut data, x, None)
            .unwrap()
    });
    let inputs: Vec<f64> = [q, v].concat();
    let mut values = Vec::new();
    for mode in [Mode::Forward, Mode::Reverse] {
        let mut graph = traced.graph.clone();
        let wrt: Vec<_> = (0..(nq + model.nv) as u32)
            .map(|k| graph.input(k).unwrap())
            .collect();
        let j = jacobian(&mut graph, &traced.outputs, &wrt, mode);
        let flat: Vec<_> = j.concat();
        values.push(graph.eval(&inputs, &flat));
    }
    assert_close("forward vs reverse", &values[0], &values[1], 1e-12);
}
