//! Automatic differentiation on the graph ([`rbdgen_symbolic::diff`],
//! `NAME_jacobian`), interpreted: the identities with the analytical
//! derivatives (the AD Jacobian of `rnea` is `rnea_derivatives`, of `aba`
//! `aba_derivatives`, of `center_of_mass` `jacobian_center_of_mass`, of
//! `frame_placement`'s translation the linear rows of
//! `frame_jacobian_local_world_aligned`, of `kinetic_energy` with respect to
//! `v` `M v`), forward mode against reverse mode, and central differences in
//! the tangent space for functions without an analytical derivative.

use crate::common;

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

/// A swing-foot and centre-of-mass residual: the front-left foot's height
/// above `target[0]`, and the centre of mass's horizontal offset from
/// `target[1..3]`.
fn swing_residual<S: rbdgen_runtime::Scalar>(
    model: &Model,
    data: &mut Data<S>,
    x: &[Vec<S>],
) -> Result<Vec<S>, rbdgen_runtime::InputError> {
    let c = rbdgen_runtime::center_of_mass(model, data, &x[0])?;
    let foot = model.link_frame("FL_foot").expect("Go2 has FL_foot");
    let placement = rbdgen_runtime::frame_placement(model, data, foot)?;
    Ok(vec![
        placement.translation.0[2] - x[1][0],
        c.0[0] - x[1][1],
        c.0[1] - x[1][2],
    ])
}

/// Half the squared residual: a scalar cost.
fn swing_cost<S: rbdgen_runtime::Scalar>(
    model: &Model,
    data: &mut Data<S>,
    x: &[Vec<S>],
) -> Result<Vec<S>, rbdgen_runtime::InputError> {
    let r = swing_residual(model, data, x)?;
    let half = S::constant(0.5);
    Ok(vec![half * (r[0] * r[0] + r[1] * r[1] + r[2] * r[2])])
}

fn interpret(traced: &rbdgen_symbolic::Traced, x: &[Vec<f64>]) -> Vec<f64> {
    assert!(traced.graph.non_finite().is_none());
    traced.graph.eval(&x.concat(), &traced.outputs)
}

/// `f(integrate(q, δ))` along each tangent direction, by central differences.
fn tangent_differences(model: &Model, q: &[f64], f: impl Fn(&[f64]) -> Vec<f64>) -> Vec<Vec<f64>> {
    let h = 1e-6;
    (0..model.nv)
        .map(|k| {
            let mut d = vec![0.0; model.nv];
            d[k] = h;
            let p = f(&integrate(model, q, &d).unwrap());
            d[k] = -h;
            let m = f(&integrate(model, q, &d).unwrap());
            p.iter().zip(m).map(|(p, m)| (p - m) / (2.0 * h)).collect()
        })
        .collect()
}

#[test]
fn user_function_gradient_hessian_and_gauss_newton_match_central_differences() {
    use rbdgen_symbolic::{Dim, Output, UserFunction, UserItem};
    let model = go2_z1();
    let cost = UserFunction::new("swing_cost", Output::Scalar, swing_cost::<Expr>)
        .input("q", Dim::Nq)
        .input("target", Dim::Fixed(3))
        .gradient(&["q"])
        .hessian(&["q"]);
    let residual = UserFunction::new(
        "swing_residual",
        Output::Vector(Dim::Fixed(3)),
        swing_residual::<Expr>,
    )
    .input("q", Dim::Nq)
    .input("target", Dim::Fixed(3))
    .jacobian(&["q", "target"])
    .gauss_newton(&["q"]);
    cost.check().unwrap();
    residual.check().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let q = random_q(&model, &mut rng);
    let target = vec![0.1, 0.05, -0.02];
    let x = vec![q.clone(), target.clone()];
    let runtime_cost = |q: &[f64]| {
        let mut data = Data::new(&model);
        swing_cost(&model, &mut data, &[q.to_vec(), target.clone()]).unwrap()
    };
    // The value against the runtime.
    let value = interpret(&UserItem::Value.trace(&cost, &model).unwrap(), &x);
    assert_close("swing_cost", &value, &runtime_cost(&q), 1e-14);
    // The gradient against central differences of the runtime's cost.
    let gradient = interpret(&UserItem::Gradient.trace(&cost, &model).unwrap(), &x);
    let fd: Vec<f64> = tangent_differences(&model, &q, runtime_cost).concat();
    assert_close("gradient", &gradient, &fd, 1e-7);
    // The Hessian of δ ↦ f(integrate(q, δ)) at 0 (the local model of a
    // Newton step), against second central differences of the runtime's cost.
    let hessian = interpret(&UserItem::Hessian.trace(&cost, &model).unwrap(), &x);
    let nv = model.nv;
    let h = 1e-4;
    let at = |i: usize, si: f64, j: usize, sj: f64| {
        let mut d = vec![0.0; nv];
        d[i] += si * h;
        d[j] += sj * h;
        runtime_cost(&integrate(&model, &q, &d).unwrap())[0]
    };
    let fd: Vec<f64> = (0..nv)
        .flat_map(|i| {
            (0..nv)
                .map(|j| {
                    (at(i, 1.0, j, 1.0) - at(i, 1.0, j, -1.0) - at(i, -1.0, j, 1.0)
                        + at(i, -1.0, j, -1.0))
                        / (4.0 * h * h)
                })
                .collect::<Vec<_>>()
        })
        .collect();
    assert_close("hessian", &hessian, &fd, 1e-5);
    for i in 0..nv {
        for j in 0..nv {
            assert_eq!(hessian[i * nv + j], hessian[j * nv + i]);
        }
    }
    // Gauss-Newton: c = ½|r|², g = Jᵀ r (the cost's gradient), H = Jᵀ J.
    let gn = interpret(&UserItem::GaussNewton.trace(&residual, &model).unwrap(), &x);
    assert_eq!(gn.len(), 1 + nv + nv * nv);
    assert_close("c", &gn[..1], &value, 1e-14);
    assert_close("g", &gn[1..1 + nv], &gradient, 1e-12);
    let jac = interpret(&UserItem::Jacobian.trace(&residual, &model).unwrap(), &x);
    assert_eq!(jac.len(), 3 * nv + 3 * 3);
    let jq = &jac[..3 * nv];
    let jtj: Vec<f64> = (0..nv)
        .flat_map(|a| (0..nv).map(move |b| (0..3).map(|r| jq[r * nv + a] * jq[r * nv + b]).sum()))
        .collect();
    assert_close("H", &gn[1 + nv..], &jtj, 1e-12);
    // The target block: -1 on the diagonal.
    assert_eq!(
        &jac[3 * nv..],
        &[-1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, -1.0]
    );
}

#[test]
fn user_function_declarations_are_checked() {
    use rbdgen_symbolic::{Dim, Output, UserFunction};
    let base = || {
        UserFunction::new("cost", Output::Scalar, swing_cost::<Expr>)
            .input("q", Dim::Nq)
            .input("target", Dim::Fixed(3))
    };
    let cases = [
        (
            UserFunction {
                name: "not a name".into(),
                ..base()
            },
            "not a Rust identifier",
        ),
        (
            UserFunction {
                name: "rnea".into(),
                ..base()
            },
            "built-in",
        ),
        (
            UserFunction {
                name: "sincos4".into(),
                ..base()
            },
            "private helper",
        ),
        (
            UserFunction {
                name: "aba_derivatives_o1_column3".into(),
                ..base()
            },
            "built-in function",
        ),
        (
            UserFunction {
                name: "crba_stage".into(),
                ..base()
            },
            "built-in function",
        ),
        (
            UserFunction {
                name: "aba_derivatives_columns".into(),
                ..base()
            },
            "built-in function",
        ),
        (
            UserFunction {
                name: "crba_into".into(),
                ..base()
            },
            "built-in function",
        ),
        (base().gradient(&["v"]), "`v`, not an input"),
        (base().gauss_newton(&["q"]), "residual vector"),
        (base().input("q", Dim::Nv), "named twice"),
        (
            UserFunction::new("r", Output::Vector(Dim::Fixed(3)), swing_residual::<Expr>)
                .input("q", Dim::Nq)
                .gradient(&["q"]),
            "scalar output",
        ),
    ];
    for (f, expected) in cases {
        let e = f.check().unwrap_err();
        assert!(e.contains(expected), "{e}");
    }
    // A name that only starts like a built-in function's is the user's.
    for name in ["rnea_residual", "crba_stages", "aba_o1_column", "sincos"] {
        let f = UserFunction {
            name: name.into(),
            ..base()
        };
        assert_eq!(f.check(), Ok(()), "{name}");
    }
    // Through the generator: the error names the function.
    let urdf = std::fs::read_to_string(common::root().join("models/go2_z1.urdf")).unwrap();
    let options = rbdgen_symbolic::Options {
        floating_base: true,
        functions: [Function::CenterOfMass].into_iter().collect(),
        user_functions: vec![base().gradient(&["v"])],
        ..Default::default()
    };
    let e = rbdgen_symbolic::generate(&urdf, &options).unwrap_err();
    assert_eq!(
        e.to_string(),
        "user function `cost`: differentiated with respect to `v`, not an input"
    );
    // Two user functions whose items would share a name: `cost`'s
    // `cost_into` and a function of that name.
    let into = UserFunction {
        name: "cost_into".into(),
        ..base()
    };
    let options = rbdgen_symbolic::Options {
        user_functions: vec![base(), into],
        ..options
    };
    let e = rbdgen_symbolic::generate(&urdf, &options).unwrap_err();
    assert_eq!(
        e.to_string(),
        "user function `cost_into`: `cost_into` would be generated for it and for user \
         function `cost`"
    );
    // An output of another length than declared.
    let wrong = UserFunction::new(
        "wrong",
        Output::Vector(Dim::Fixed(2)),
        swing_residual::<Expr>,
    )
    .input("q", Dim::Nq)
    .input("target", Dim::Fixed(3));
    let options = rbdgen_symbolic::Options {
        user_functions: vec![wrong],
        ..options
    };
    let e = rbdgen_symbolic::generate(&urdf, &options).unwrap_err();
    assert!(e.to_string().contains("wrong"), "{e}");
    assert!(e.to_string().contains("3"), "{e}");
}
