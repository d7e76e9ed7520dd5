//! The table's evaluation on dual numbers (`Function::evaluate::<Dual<1>>`):
//! the derivatives of a function, column by column, equal the function of
//! the table that returns them (evaluated on `f64`), on a floating-base
//! quadruped and a fixed-base arm. Derivatives with respect to a
//! configuration are taken in the tangent space (`integrate(q, δ).unwrap()`).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rbdgen_runtime::{integrate, Data, Dual, Model};
use rbdgen_symbolic::{Dim, Function, Output};

/// `(f, argument, g, member)`: `∂f/∂(argument)` is member `member` of `g`'s output.
const CHECKS: [(Function, usize, Function, usize); 20] = [
    (Function::Rnea, 0, Function::RneaDerivatives, 0),
    (Function::Rnea, 1, Function::RneaDerivatives, 1),
    (Function::Rnea, 2, Function::RneaDerivatives, 2),
    (Function::Rnea, 2, Function::Crba, 0),
    (Function::NonlinearEffects, 1, Function::RneaDerivatives, 1),
    (Function::Aba, 0, Function::AbaDerivatives, 0),
    (Function::Aba, 1, Function::AbaDerivatives, 1),
    (Function::Aba, 2, Function::AbaDerivatives, 2),
    (Function::Aba, 2, Function::Minverse, 0),
    (Function::RneaFext, 0, Function::RneaDerivativesFext, 0),
    (Function::RneaFext, 1, Function::RneaDerivativesFext, 1),
    (Function::RneaFext, 2, Function::RneaDerivativesFext, 2),
    (Function::AbaFext, 0, Function::AbaDerivativesFext, 0),
    (Function::AbaFext, 1, Function::AbaDerivativesFext, 1),
    (Function::AbaFext, 2, Function::AbaDerivativesFext, 2),
    (Function::AbaFext, 3, Function::AbaDfext, 0),
    (Function::CenterOfMass, 0, Function::JacobianCenterOfMass, 0),
    (Function::CentroidalMomentumRate, 2, Function::Ccrba, 0),
    (Function::Difference, 0, Function::DDifferenceDq0, 0),
    (Function::Difference, 1, Function::DDifferenceDq1, 0),
];

fn load(path: &str, floating_base: bool) -> Model {
    let path = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
    Model::from_urdf_file(&path, floating_base).unwrap()
}

/// A random state: every argument of the functions of [`CHECKS`] by name.
struct State {
    q: Vec<f64>,
    q2: Vec<f64>,
    v: Vec<f64>,
    a: Vec<f64>,
    tau: Vec<f64>,
    fext: Vec<f64>,
}

impl State {
    fn random(model: &Model, rng: &mut ChaCha8Rng) -> State {
        let mut uniform =
            |n: usize| -> Vec<f64> { (0..n).map(|_| rng.gen_range(-1.0..1.0)).collect() };
        let (dq, dq2) = (uniform(model.nv), uniform(model.nv));
        let fext = [vec![0.0; 6], uniform(6 * (model.njoints() - 1))].concat();
        State {
            q: integrate(model, &model.neutral(), &dq).unwrap(),
            q2: integrate(model, &model.neutral(), &dq2).unwrap(),
            v: uniform(model.nv),
            a: uniform(model.nv),
            tau: uniform(model.nv),
            fext,
        }
    }

    fn arguments(&self, function: Function) -> Vec<Vec<f64>> {
        function
            .spec()
            .args
            .iter()
            .map(|&(name, _)| match name {
                "q" | "q0" => self.q.clone(),
                "q1" => self.q2.clone(),
                "v" => self.v.clone(),
                "a" => self.a.clone(),
                "tau" => self.tau.clone(),
                "fext" => self.fext.clone(),
                other => panic!("no value for `{other}`"),
            })
            .collect()
    }
}

/// `∂ f(x) / ∂ x[arg]`, row-major `[outputs x columns]`, by evaluating `f`
/// on dual numbers once per column; a configuration is perturbed in the
/// tangent space, `integrate(q, δ).unwrap()`, so its columns are the `nv` of `δ`.
fn dual_jacobian(model: &Model, f: Function, x: &[Vec<f64>], arg: usize) -> Vec<f64> {
    let tangent = f.spec().args[arg].1 == Dim::Nq;
    let columns = if tangent { model.nv } else { x[arg].len() };
    let mut data = Data::<Dual<1>>::new(model);
    let mut by_column: Vec<Vec<f64>> = Vec::with_capacity(columns);
    for k in 0..columns {
        let mut xd: Vec<Vec<Dual<1>>> = x
            .iter()
            .map(|a| a.iter().map(|&v| Dual::new(v)).collect())
            .collect();
        if tangent {
            let mut delta = vec![Dual::new(0.0); model.nv];
            delta[k] = Dual::variable(0.0, 0);
            xd[arg] = integrate(model, &xd[arg], &delta).unwrap();
        } else {
            xd[arg][k] = Dual::variable(x[arg][k], 0);
        }
        let out = f.evaluate(model, &mut data, &xd, None).unwrap();
        by_column.push(out.iter().map(|d| d.eps[0]).collect());
    }
    let rows = by_column.first().map_or(0, Vec::len);
    (0..rows)
        .flat_map(|r| by_column.iter().map(move |c| c[r]))
        .collect()
}

/// Member `member` of `g`'s flat output (the whole output when it is not a tuple).
fn member(model: &Model, g: Function, out: &[f64], member: usize) -> Vec<f64> {
    match g.spec().output {
        Output::Tuple(parts) => {
            let start: usize = parts[..member].iter().map(|p| p.len(model)).sum();
            out[start..start + parts[member].len(model)].to_vec()
        }
        _ => out.to_vec(),
    }
}

#[test]
fn dual_derivatives_equal_the_tables_derivative_functions() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for (model, name) in [
        (load("models/go2.urdf", true), "go2"),
        (load("models/z1.urdf", false), "z1"),
    ] {
        let mut data = Data::<f64>::new(&model);
        for _ in 0..2 {
            let state = State::random(&model, &mut rng);
            for (f, arg, g, k) in CHECKS {
                let ours = dual_jacobian(&model, f, &state.arguments(f), arg);
                let out = g
                    .evaluate(&model, &mut data, &state.arguments(g), None)
                    .unwrap();
                let reference = member(&model, g, &out, k);
                assert_eq!(ours.len(), reference.len(), "{name}: d{}/dx{arg}", f.name());
                let scale = reference.iter().fold(1.0f64, |m, x| m.max(x.abs()));
                let error = ours
                    .iter()
                    .zip(&reference)
                    .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
                assert!(
                    error <= 1e-9 * scale,
                    "{name}: d{}/dx{arg} against {}[{k}]: {error:e} (scale {scale:e})",
                    f.name(),
                    g.name()
                );
            }
        }
    }
}
