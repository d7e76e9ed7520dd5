//! Differential tests of the egg simplifier: for every function of the table,
//! on Z1 (fixed base) and Go2+Z1 (free-flyer), the simplified graph evaluated
//! at random inputs equals the unsimplified trace, simplification never adds
//! operations, and simplifying twice gives identical graphs.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rbdgen_runtime::{Data, Model};
use rbdgen_symbolic::simplify::{simplify, Limits};
use rbdgen_symbolic::{trace, Expr, Function, Traced};

fn load(path: &str, floating_base: bool) -> Model {
    let path = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
    Model::from_urdf_file(&path, floating_base).unwrap()
}

fn trace_function(model: &Model, function: Function) -> Traced {
    let spec = function.spec();
    let lens: Vec<usize> = spec.args.iter().map(|(_, d)| d.len(model)).collect();
    // Per-frame functions: the deepest link frame (the longest chain).
    let frame = spec
        .per_frame
        .then(|| model.body_frames().map(|(id, _)| id).last().unwrap());
    trace(&lens, |x| {
        let mut data = Data::<Expr>::new(model);
        function.evaluate(model, &mut data, x, frame).unwrap()
    })
}

/// `a` and `b` agree to 1e-12 relative to the largest magnitude of the output
/// vector (rewrites exact in real arithmetic differ by rounding only); NaN
/// matches NaN (random inputs can leave a square root's domain).
fn assert_agree(what: &str, a: &[f64], b: &[f64]) {
    assert_eq!(a.len(), b.len(), "{what}");
    let scale = a
        .iter()
        .filter(|x| x.is_finite())
        .fold(1.0f64, |m, x| m.max(x.abs()));
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        let same = (x.is_nan() && y.is_nan()) || (x - y).abs() <= 1e-12 * scale || x == y;
        assert!(same, "{what}[{i}]: unsimplified {x}, simplified {y}");
    }
}

fn check(path: &str, floating_base: bool) {
    let model = load(path, floating_base);
    let limits = Limits::default();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (mut before, mut after) = (0, 0);
    for function in Function::ALL {
        let traced = trace_function(&model, function);
        let s = simplify(&traced.graph, &traced.outputs, &limits);
        let what = format!("{path} {}", function.name());
        let ops = traced.graph.op_counts(&traced.outputs).total();
        let new_ops = s.graph.op_counts(&s.outputs).total();
        assert!(new_ops <= ops, "{what}: {ops} -> {new_ops} ops");
        before += ops;
        after += new_ops;
        let n = traced
            .graph
            .nodes()
            .iter()
            .filter(|n| matches!(n, rbdgen_symbolic::Node::Input(_)))
            .count();
        for _ in 0..3 {
            let x: Vec<f64> = (0..n).map(|_| rng.gen_range(-1.0..1.0)).collect();
            let expected = traced.graph.eval(&x, &traced.outputs);
            assert_agree(&what, &expected, &s.graph.eval(&x, &s.outputs));
        }
        let again = simplify(&traced.graph, &traced.outputs, &limits);
        assert_eq!(
            again.graph.nodes(),
            s.graph.nodes(),
            "{what}: deterministic"
        );
        assert_eq!(again.outputs, s.outputs, "{what}: deterministic");
        assert_eq!(again.stops, s.stops, "{what}: deterministic");
        // One stop reason per window: a function with operations has a window.
        assert_eq!(s.stops.total() > 0, ops > 0, "{what}: {}", s.stops);
    }
    assert!(after < before, "{path}: {before} -> {after} ops");
}

#[test]
fn z1_every_function() {
    check("models/z1.urdf", false);
}

#[test]
fn go2_z1_every_function() {
    check("models/go2_z1.urdf", true);
}

/// A graph where rules apply: `sin²q + cos²q = 1` and factoring; with windows
/// of one operation each the rules see nothing and the graph stays as it was.
#[test]
fn small_windows_fold_identities() {
    let traced = trace(&[2], |x| {
        let (s, c) = rbdgen_runtime::Scalar::sin_cos(x[0][0]);
        let one = s * s + c * c;
        let y = x[0][1];
        vec![one * y, y * s + y * c]
    });
    let limits = Limits {
        window: 1,
        ..Limits::default()
    };
    for limits in [Limits::default(), limits] {
        let s = simplify(&traced.graph, &traced.outputs, &limits);
        let x = [0.3, -1.7];
        assert_agree(
            "identities",
            &traced.graph.eval(&x, &traced.outputs),
            &s.graph.eval(&x, &s.outputs),
        );
        let (before, after) = (
            traced.graph.op_counts(&traced.outputs).total(),
            s.graph.op_counts(&s.outputs).total(),
        );
        // One operation per window sees no identity: nothing to gain, nothing lost.
        if limits.window == 1 {
            assert_eq!(after, before);
        } else {
            assert!(after < before, "{before} -> {after}");
        }
    }
}
