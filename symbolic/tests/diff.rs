//! Differentiation on the graph against central differences and against the
//! runtime's dual numbers.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rbdgen_runtime::{rnea, Data, Dual, Model, Scalar};
use rbdgen_symbolic::{at_zero, fresh_inputs, jacobian, trace, Expr};

fn central_difference(f: impl Fn(f64) -> f64, x: f64) -> f64 {
    let h = 1e-6;
    (f(x + h) - f(x - h)) / (2.0 * h)
}

/// Each operator's rule, in a composite expression of two variables.
#[test]
fn operator_rules_match_central_differences() {
    let f = |x: Expr, y: Expr| -> Vec<Expr> {
        let (s, c) = x.sin_cos();
        vec![
            x * y - y / x,
            s * c + (x * x + y * y).sqrt(),
            y.atan2(x),
            -(x / (Expr::one() + y * y)),
            Expr::select(x - y, x * x, y * y * y),
        ]
    };
    let t = trace(&[2], |v| {
        let out = f(v[0][0], v[0][1]);
        let jac = jacobian(&out, &v[0]);
        jac.into_iter().flatten().collect()
    });
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..20 {
        let (x, y) = (rng.gen_range(0.3..2.0), rng.gen_range(-2.0..2.0));
        let jac = t.graph.eval(&[x, y], &t.outputs);
        let value = |x: f64, y: f64| {
            let t = trace(&[2], |v| f(v[0][0], v[0][1]));
            t.graph.eval(&[x, y], &t.outputs)
        };
        for k in 0..5 {
            let dx = central_difference(|s| value(s, y)[k], x);
            let dy = central_difference(|s| value(x, s)[k], y);
            assert!(
                (jac[2 * k] - dx).abs() < 1e-6,
                "output {k} d/dx: {} vs {dx}",
                jac[2 * k]
            );
            assert!(
                (jac[2 * k + 1] - dy).abs() < 1e-6,
                "output {k} d/dy: {} vs {dy}",
                jac[2 * k + 1]
            );
        }
    }
}

/// `d rnea / d v` of a real arm from the graph equals the dual-number runtime.
#[test]
fn rnea_jacobian_matches_dual_numbers() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../models/z1.urdf");
    let model = Model::from_urdf_file(path, false).unwrap();
    let nv = model.nv;
    let t = trace(&[model.nq, nv, nv], |x| {
        let mut data = Data::<Expr>::new(&model);
        let tau = rnea(&model, &mut data, &x[0], &x[1], &x[2]).to_vec();
        jacobian(&tau, &x[1]).into_iter().flatten().collect()
    });
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut data = Data::<Dual<1>>::new(&model);
    for _ in 0..5 {
        let x: Vec<f64> = (0..model.nq + 2 * nv)
            .map(|_| rng.gen_range(-1.0..1.0))
            .collect();
        let jac = t.graph.eval(&x, &t.outputs);
        let (q, rest) = x.split_at(model.nq);
        let (v, a) = rest.split_at(nv);
        let lift = |s: &[f64]| s.iter().map(|&x| Dual::<1>::new(x)).collect::<Vec<_>>();
        for k in 0..nv {
            let mut vd = lift(v);
            vd[k] = Dual::variable(v[k], 0);
            let tau = rnea(&model, &mut data, &lift(q), &vd, &lift(a)).to_vec();
            for (i, t) in tau.iter().enumerate() {
                assert!(
                    (jac[i * nv + k] - t.eps[0]).abs() < 1e-12,
                    "dtau[{i}]/dv[{k}]"
                );
            }
        }
    }
}

/// Differentiating with respect to an internal variable and setting it to zero
/// leaves no trace of it in the result.
#[test]
fn derivative_at_zero_drops_the_variable() {
    let t = trace(&[1], |x| {
        let d = fresh_inputs(1);
        let y = (x[0][0] + d[0]).sin_cos().0 * (x[0][0] + d[0]);
        let dy = jacobian(&[y], &d)[0][0];
        at_zero(&[dy], &d)
    });
    let x = 0.7;
    let value = t.graph.eval(&[x, f64::NAN], &t.outputs)[0];
    assert!((value - (x.cos() * x + x.sin())).abs() < 1e-15);
}
