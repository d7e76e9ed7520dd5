//! The expression graph: folding on construction, hash-consing, evaluation.

use rbdgen_runtime::Scalar;
use rbdgen_symbolic::{trace, Expr, Node};

fn constant_of(t: &rbdgen_symbolic::Traced, k: usize) -> Option<f64> {
    t.graph.constant_value(t.outputs[k])
}

#[test]
fn neutral_elements_fold_away() {
    let t = trace(&[1], |x| {
        let a = x[0][0];
        let (zero, one) = (Expr::zero(), Expr::one());
        vec![a * zero, a * one, a + zero, zero - a, a - a, -(-a), a / one]
    });
    let input = t
        .graph
        .nodes()
        .iter()
        .position(|n| matches!(n, Node::Input(0)))
        .unwrap();
    assert_eq!(constant_of(&t, 0), Some(0.0));
    assert_eq!(t.outputs[1].0 as usize, input);
    assert_eq!(t.outputs[2].0 as usize, input);
    assert!(matches!(t.graph.node(t.outputs[3]), Node::Neg(_)));
    assert_eq!(constant_of(&t, 4), Some(0.0));
    assert_eq!(t.outputs[5].0 as usize, input);
    assert_eq!(t.outputs[6].0 as usize, input);
}

#[test]
fn constants_fold_and_nodes_are_shared() {
    let t = trace(&[2], |x| {
        let (a, b) = (x[0][0], x[0][1]);
        let c = Expr::constant(2.0) * Expr::constant(3.5) - Expr::constant(1.0);
        vec![
            c,
            a * b,
            b * a,
            a + b,
            b + a,
            Expr::constant(0.5).sin_cos().0,
        ]
    });
    assert_eq!(constant_of(&t, 0), Some(6.0));
    assert_eq!(t.outputs[1], t.outputs[2]);
    assert_eq!(t.outputs[3], t.outputs[4]);
    assert_eq!(constant_of(&t, 5), Some(0.5f64.sin()));
}

#[test]
fn negations_are_absorbed() {
    let t = trace(&[2], |x| {
        let (a, b) = (x[0][0], x[0][1]);
        vec![a + (-b), a - (-b), (-a) * (-b), Expr::constant(3.0) * (-a)]
    });
    assert!(matches!(t.graph.node(t.outputs[0]), Node::Sub(..)));
    assert!(matches!(t.graph.node(t.outputs[1]), Node::Add(..)));
    assert!(matches!(t.graph.node(t.outputs[2]), Node::Mul(..)));
    let value = t.graph.eval(&[2.0, 5.0], &t.outputs);
    assert_eq!(value, vec![-3.0, 7.0, 10.0, -6.0]);
}

#[test]
fn select_with_constant_condition_folds() {
    let t = trace(&[1], |x| {
        let a = x[0][0];
        vec![
            Expr::select(Expr::constant(1.0), a, Expr::zero()),
            Expr::select(Expr::constant(-1.0), a, Expr::zero()),
            Expr::select(a, Expr::one(), Expr::constant(2.0)),
        ]
    });
    assert!(matches!(t.graph.node(t.outputs[0]), Node::Input(0)));
    assert_eq!(constant_of(&t, 1), Some(0.0));
    assert_eq!(t.graph.eval(&[0.5], &t.outputs[2..]), vec![1.0]);
    assert_eq!(t.graph.eval(&[-0.5], &t.outputs[2..]), vec![2.0]);
}

#[test]
fn division_by_zero_constant_is_reported() {
    let t = trace(&[0], |_| vec![Expr::one() / Expr::zero()]);
    assert!(t.graph.non_finite().is_some());
}

#[test]
fn op_counts_count_only_what_outputs_reach() {
    let t = trace(&[2], |x| {
        let (a, b) = (x[0][0], x[0][1]);
        let _unused = a / b;
        let (s, c) = a.sin_cos();
        vec![a * b + s * c]
    });
    let n = t.graph.op_counts(&t.outputs);
    assert_eq!((n.add, n.mul, n.div, n.trig), (1, 2, 0, 2));
}
