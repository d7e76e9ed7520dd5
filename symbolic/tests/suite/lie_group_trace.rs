//! Tracing the Lie-group functions: at constant inputs every node folds and no
//! constant is non-finite (zero rotation, identical configurations and
//! rotations by π included: the branch not taken must fold to a finite value
//! too), the folded constants equal the runtime's values, and the graph traced
//! on symbolic inputs evaluates to the runtime's values, zero steps included.

use crate::common;

use common::{assert_close, load_model, random_q, random_vec};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen_runtime::spatial::{exp6, jexp6, jlog3, jlog6, log3, log6};
use rbdgen_runtime::{
    d_difference, d_integrate, difference, integrate, ArgumentPosition, Data, JointKind, Matrix3,
    Model, Motion, Scalar, Transform,
};
use rbdgen_symbolic::{trace, Expr, Function, Traced};

const LIE_FUNCTIONS: [Function; 6] = [
    Function::Integrate,
    Function::Difference,
    Function::DIntegrateDq,
    Function::DIntegrateDv,
    Function::DDifferenceDq0,
    Function::DDifferenceDq1,
];

/// The runtime's value of a Lie-group function of the table.
fn runtime(model: &Model, function: Function, a: &[f64], b: &[f64]) -> Vec<f64> {
    match function {
        Function::Integrate => integrate(model, a, b).unwrap(),
        Function::Difference => difference(model, a, b).unwrap(),
        Function::DIntegrateDq => d_integrate(model, a, b, ArgumentPosition::Arg0).unwrap(),
        Function::DIntegrateDv => d_integrate(model, a, b, ArgumentPosition::Arg1).unwrap(),
        Function::DDifferenceDq0 => d_difference(model, a, b, ArgumentPosition::Arg0).unwrap(),
        Function::DDifferenceDq1 => d_difference(model, a, b, ArgumentPosition::Arg1).unwrap(),
        other => panic!("{other:?} is not a Lie-group function"),
    }
}

/// The second argument of `function` at a state: `v` for integrate, `q1` for difference.
fn second_argument(function: Function, v: &[f64], q1: &[f64]) -> Vec<f64> {
    match function {
        Function::Integrate | Function::DIntegrateDq | Function::DIntegrateDv => v.to_vec(),
        _ => q1.to_vec(),
    }
}

fn constants(x: &[f64]) -> Vec<Expr> {
    x.iter().map(|&v| Expr::constant(v)).collect()
}

/// The table's trace of `function` with constant arguments `a`, `b`.
fn trace_constant(model: &Model, function: Function, a: &[f64], b: &[f64]) -> Traced {
    trace(&[], |_| {
        let mut data = Data::<Expr>::new(model);
        function
            .evaluate(model, &mut data, &[constants(a), constants(b)], None)
            .unwrap()
    })
}

fn folded_values(traced: &Traced, what: &str) -> Vec<f64> {
    assert_eq!(traced.graph.non_finite(), None, "{what}");
    traced
        .outputs
        .iter()
        .map(|&o| {
            traced
                .graph
                .constant_value(o)
                .unwrap_or_else(|| panic!("{what}: output not folded"))
        })
        .collect()
}

fn robots() -> [(Model, u64); 3] {
    [
        (load_model("models/go2_z1.urdf", true), 1),
        (
            load_model("models/double_pendulum_continuous.urdf", false),
            2,
        ),
        (load_model("tests/urdf/continuous_chain.urdf", true), 3),
    ]
}

#[test]
fn constant_inputs_fold_to_finite_runtime_values() {
    for (model, seed) in robots() {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let neutral = model.neutral();
        let zero = vec![0.0; model.nv];
        let q = random_q(&model, &mut rng);
        let v = random_vec(model.nv, 1.0, &mut rng);
        let q1 = random_q(&model, &mut rng);
        let tiny = random_vec(model.nv, 1e-7, &mut rng);
        // A free-flyer turned by exactly π about x: quaternion [1, 0, 0, 0], w = 0.
        let mut half_turn = neutral.clone();
        if model.joints[1].kind == JointKind::FreeFlyer {
            half_turn[3..7].copy_from_slice(&[1.0, 0.0, 0.0, 0.0]);
        }
        let states = [
            (
                "neutral, zero step",
                neutral.clone(),
                zero.clone(),
                neutral.clone(),
            ),
            ("half turn", neutral.clone(), zero.clone(), half_turn),
            ("random q, zero step", q.clone(), zero.clone(), q.clone()),
            ("random", q.clone(), v, q1),
            (
                "tiny step",
                q.clone(),
                tiny.clone(),
                integrate(&model, &q, &tiny).unwrap(),
            ),
        ];
        for function in LIE_FUNCTIONS {
            for (name, a, v, q1) in &states {
                let b = second_argument(function, v, q1);
                let what = format!("{} {} at {name}", model.name, function.name());
                let traced = trace_constant(&model, function, a, &b);
                assert_close(
                    &what,
                    &folded_values(&traced, &what),
                    &runtime(&model, function, a, &b),
                    1e-14,
                );
            }
        }
    }
}

#[test]
fn symbolic_trace_evaluates_to_runtime_values() {
    for (model, seed) in robots() {
        let mut rng = ChaCha8Rng::seed_from_u64(seed + 10);
        for function in LIE_FUNCTIONS {
            let spec = function.spec();
            let lens: Vec<usize> = spec.args.iter().map(|(_, d)| d.len(&model)).collect();
            let traced = trace(&lens, |x| {
                let mut data = Data::<Expr>::new(&model);
                function.evaluate(&model, &mut data, x, None).unwrap()
            });
            assert_eq!(traced.graph.non_finite(), None);
            for k in 0..20 {
                let q = random_q(&model, &mut rng);
                let (v, q1) = match k % 4 {
                    0 => (vec![0.0; model.nv], q.clone()),
                    1 => {
                        let step = random_vec(model.nv, 1e-6, &mut rng);
                        let q1 = integrate(&model, &q, &step).unwrap();
                        (step, q1)
                    }
                    _ => (
                        random_vec(model.nv, 2.0, &mut rng),
                        random_q(&model, &mut rng),
                    ),
                };
                let b = second_argument(function, &v, &q1);
                let inputs: Vec<f64> = q.iter().chain(&b).copied().collect();
                let values = traced.graph.eval(&inputs, &traced.outputs);
                assert!(values.iter().all(|x| x.is_finite()));
                assert_close(
                    &format!("{} {} state {k}", model.name, function.name()),
                    &values,
                    &runtime(&model, function, &q, &b),
                    1e-12,
                );
            }
        }
    }
}

/// A transform of constants `R = diag(d)`, `p = (0.1, 0.2, 0.3)`.
fn diagonal_transform(d: [f64; 3]) -> Transform<Expr> {
    let mut r = Matrix3::<Expr>::zeros();
    for (i, &x) in d.iter().enumerate() {
        r.0[i][i] = Expr::constant(x);
    }
    Transform {
        rotation: r,
        translation: rbdgen_runtime::Vector3(constants(&[0.1, 0.2, 0.3]).try_into().unwrap()),
    }
}

#[test]
fn exp_log_of_constants_fold_finitely() {
    for d in [
        [1.0, 1.0, 1.0],
        [1.0, -1.0, -1.0],
        [-1.0, 1.0, -1.0],
        [-1.0, -1.0, 1.0],
    ] {
        let traced = trace(&[], |_| {
            let m = diagonal_transform(d);
            let (omega, theta) = log3(&m.rotation);
            let mut out: Vec<Expr> = omega.0.to_vec();
            out.push(theta);
            out.extend(log6(&m).to_array());
            out.extend(jlog6(&m).0.as_flattened());
            out
        });
        let what = format!("log3 / log6 / jlog6 of diag{d:?}");
        let values = folded_values(&traced, &what);
        assert!(values.iter().all(|x| x.is_finite()), "{what}");
    }
    let traced = trace(&[], |_| {
        let zero = Motion::<Expr>::zero();
        let mut out: Vec<Expr> = exp6(&zero).to_homogeneous().concat();
        out.extend(jexp6(&zero).0.as_flattened());
        // θ exactly 0, as no log produces it (they add ε² under the root).
        out.extend(jlog3(Expr::zero(), &zero.angular).0.as_flattened());
        out
    });
    let values = folded_values(&traced, "exp6 / jexp6 / jlog3 at zero");
    let mut want: Vec<f64> = Transform::<f64>::identity().to_homogeneous().concat();
    want.extend((0..36).map(|i| if i % 7 == 0 { 1.0 } else { 0.0 }));
    want.extend((0..9).map(|i| if i % 4 == 0 { 1.0 } else { 0.0 }));
    assert_close("exp6 / jexp6 / jlog3 at zero", &values, &want, 1e-15);
}
