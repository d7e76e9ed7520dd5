//! The rewrite rules, in one named table. The table is small and targeted:
//! commutativity and associativity would let the e-graph grow without bound, so
//! rules that need an operand on either side of `+` or `·` are written out for
//! both orders instead. Every rule is exact in real arithmetic; in floating
//! point, factoring (`a·b + a·c = a·(b + c)`) and `sin² + cos² = 1` differ by
//! rounding only. No rule introduces a division: `a · (1/b)` stays a product
//! by a reciprocal computed once (a division costs several multiplications,
//! and the algorithms share each reciprocal among many products).

use egg::{rewrite as rw, EGraph, Id, Rewrite, Subst, Var};

use super::{ConstantFold, Math};

/// A rule condition: the e-class bound to `var` is a known constant.
fn is_const(var: &str) -> impl Fn(&mut EGraph<Math, ConstantFold>, Id, &Subst) -> bool {
    let var: Var = var.parse().expect("a pattern variable");
    move |egraph, _, subst| egraph[subst[var]].data.is_some()
}

/// Every rule, by name (`start => goal`; the name says what it does).
pub fn rules() -> Vec<Rewrite<Math, ConstantFold>> {
    vec![
        rw!("mul-one"; "(* ?a 1)" => "?a"),
        rw!("one-mul"; "(* 1 ?a)" => "?a"),
        rw!("mul-zero"; "(* ?a 0)" => "0"),
        rw!("zero-mul"; "(* 0 ?a)" => "0"),
        rw!("add-zero"; "(+ ?a 0)" => "?a"),
        rw!("zero-add"; "(+ 0 ?a)" => "?a"),
        rw!("sub-zero"; "(- ?a 0)" => "?a"),
        rw!("sub-self"; "(- ?a ?a)" => "0"),
        rw!("neg-neg"; "(neg (neg ?a))" => "?a"),
        rw!("neg-mul"; "(* (neg ?a) ?b)" => "(neg (* ?a ?b))"),
        rw!("mul-neg"; "(* ?a (neg ?b))" => "(neg (* ?a ?b))"),
        rw!("sub-neg"; "(- ?a (neg ?b))" => "(+ ?a ?b)"),
        rw!("add-neg"; "(+ ?a (neg ?b))" => "(- ?a ?b)"),
        rw!("neg-add"; "(+ (neg ?a) ?b)" => "(- ?b ?a)"),
        rw!("neg-sub"; "(neg (- ?a ?b))" => "(- ?b ?a)"),
        rw!("add-sub-cancel"; "(+ (- ?a ?b) ?b)" => "?a"),
        rw!("factor-ll"; "(+ (* ?a ?b) (* ?a ?c))" => "(* ?a (+ ?b ?c))"),
        rw!("factor-rr"; "(+ (* ?b ?a) (* ?c ?a))" => "(* ?a (+ ?b ?c))"),
        rw!("factor-lr"; "(+ (* ?a ?b) (* ?c ?a))" => "(* ?a (+ ?b ?c))"),
        rw!("factor-rl"; "(+ (* ?b ?a) (* ?a ?c))" => "(* ?a (+ ?b ?c))"),
        rw!("factor-sub-ll"; "(- (* ?a ?b) (* ?a ?c))" => "(* ?a (- ?b ?c))"),
        rw!("factor-sub-rr"; "(- (* ?b ?a) (* ?c ?a))" => "(* ?a (- ?b ?c))"),
        rw!("factor-sub-lr"; "(- (* ?a ?b) (* ?c ?a))" => "(* ?a (- ?b ?c))"),
        rw!("factor-sub-rl"; "(- (* ?b ?a) (* ?a ?c))" => "(* ?a (- ?b ?c))"),
        rw!("sin2-cos2"; "(+ (* (sin ?x) (sin ?x)) (* (cos ?x) (cos ?x)))" => "1"),
        rw!("cos2-sin2"; "(+ (* (cos ?x) (cos ?x)) (* (sin ?x) (sin ?x)))" => "1"),
        rw!("div-one"; "(/ ?a 1)" => "?a"),
        rw!("select-same"; "(select ?c ?a ?a)" => "?a"),
        // Constants first in products, so that constant factors meet and fold.
        rw!("const-first"; "(* ?x ?k)" => "(* ?k ?x)" if is_const("?k")),
        rw!("const-mul-assoc"; "(* ?a (* ?b ?x))" => "(* (* ?a ?b) ?x)"
            if is_const("?a") if is_const("?b")),
        rw!("neg-const-mul"; "(neg (* ?k ?x))" => "(* (neg ?k) ?x)" if is_const("?k")),
    ]
}

#[cfg(test)]
mod tests {
    use egg::{RecExpr, Runner};

    use super::*;

    /// Asserts that the rules prove `start` equal to `goal`.
    fn proves(start: &str, goal: &str) {
        let start: RecExpr<Math> = start.parse().unwrap();
        let goal: RecExpr<Math> = goal.parse().unwrap();
        let runner = Runner::<Math, ConstantFold>::default()
            .with_iter_limit(8)
            .with_node_limit(10_000)
            .with_time_limit(std::time::Duration::from_secs(u64::MAX / 4))
            .with_expr(&start)
            .run(&rules());
        let id = runner.egraph.find(runner.roots[0]);
        assert_eq!(
            runner
                .egraph
                .lookup_expr(&goal)
                .map(|g| runner.egraph.find(g)),
            Some(id),
            "{start} => {goal}"
        );
    }

    macro_rules! rule_test {
        ($name:ident, $start:literal => $goal:literal) => {
            #[test]
            fn $name() {
                proves($start, $goal);
            }
        };
    }

    rule_test!(mul_one, "(* x 1)" => "x");
    rule_test!(one_mul, "(* 1 x)" => "x");
    rule_test!(mul_zero, "(* x 0)" => "0");
    rule_test!(zero_mul, "(* 0 x)" => "0");
    rule_test!(add_zero, "(+ x 0)" => "x");
    rule_test!(zero_add, "(+ 0 x)" => "x");
    rule_test!(sub_zero, "(- x 0)" => "x");
    rule_test!(sub_self, "(- (* x y) (* x y))" => "0");
    rule_test!(neg_neg, "(neg (neg x))" => "x");
    rule_test!(neg_mul, "(* (neg x) y)" => "(neg (* x y))");
    rule_test!(mul_neg, "(* x (neg y))" => "(neg (* x y))");
    rule_test!(sub_neg, "(- x (neg y))" => "(+ x y)");
    rule_test!(add_neg, "(+ x (neg y))" => "(- x y)");
    rule_test!(neg_add, "(+ (neg x) y)" => "(- y x)");
    rule_test!(neg_sub, "(neg (- x y))" => "(- y x)");
    rule_test!(add_sub_cancel, "(+ (- x y) y)" => "x");
    rule_test!(factor_ll, "(+ (* a b) (* a c))" => "(* a (+ b c))");
    rule_test!(factor_rr, "(+ (* b a) (* c a))" => "(* a (+ b c))");
    rule_test!(factor_lr, "(+ (* a b) (* c a))" => "(* a (+ b c))");
    rule_test!(factor_rl, "(+ (* b a) (* a c))" => "(* a (+ b c))");
    rule_test!(factor_sub_ll, "(- (* a b) (* a c))" => "(* a (- b c))");
    rule_test!(factor_sub_rr, "(- (* b a) (* c a))" => "(* a (- b c))");
    rule_test!(factor_sub_lr, "(- (* a b) (* c a))" => "(* a (- b c))");
    rule_test!(factor_sub_rl, "(- (* b a) (* a c))" => "(* a (- b c))");
    rule_test!(sin2_cos2, "(+ (* (sin q) (sin q)) (* (cos q) (cos q)))" => "1");
    rule_test!(cos2_sin2, "(+ (* (cos q) (cos q)) (* (sin q) (sin q)))" => "1");
    rule_test!(div_one, "(/ x 1)" => "x");
    rule_test!(select_same, "(select c x x)" => "x");
    rule_test!(const_first, "(* x 2)" => "(* 2 x)");
    rule_test!(const_mul_assoc, "(* 2 (* 3 x))" => "(* 6 x)");
    rule_test!(const_mul_assoc_any_order, "(* (* x 3) 2)" => "(* 6 x)");
    rule_test!(neg_const_mul, "(neg (* 2 x))" => "(* -2 x)");
    rule_test!(constant_fold, "(+ (* 2 3) (neg 1.5))" => "4.5");
    rule_test!(fold_then_factor, "(+ (* a (- 2 1)) (* a 0))" => "a");
}
