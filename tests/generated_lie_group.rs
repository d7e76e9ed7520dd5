//! Generated Lie-group functions (`integrate`, `difference`, `d_integrate_dq`,
//! `d_integrate_dv`, `d_difference_dq0`, `d_difference_dq1`, `NEUTRAL`) against
//! the generic runtime on random states, small and zero steps included, and
//! against Pinocchio's reference values: Go2+Z1 with a free-flyer (SE(3)) and
//! a fixed-base double pendulum with continuous joints (SO(2)).

#[path = "../runtime/tests/common/mod.rs"]
mod common;

use common::{assert_close, flat, random_q, random_vec, Reference};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen::runtime::{d_difference, d_integrate, difference, integrate, ArgumentPosition, Model};

rbdgen::robot_dynamics!(mod go2_z1, "models/go2_z1.urdf", floating_base, functions = [
    integrate, difference, d_integrate_dq, d_integrate_dv, d_difference_dq0, d_difference_dq1
]);

rbdgen::robot_dynamics!(mod pendulum, "models/double_pendulum_continuous.urdf", functions = [
    integrate, difference, d_integrate_dq, d_integrate_dv, d_difference_dq0, d_difference_dq1
]);

/// Generated against runtime: the same graph, evaluated in another order.
const TOL: f64 = 1e-12;

/// A generated function of two arrays, over slices, its output flattened.
type Binary = fn(&[f64], &[f64]) -> Vec<f64>;

/// One robot's generated module, as plain function pointers over slices.
struct Generated {
    neutral: Vec<f64>,
    integrate: Binary,
    difference: Binary,
    /// `[d_integrate_dq, d_integrate_dv]`.
    d_integrate: [Binary; 2],
    /// `[d_difference_dq0, d_difference_dq1]`.
    d_difference: [Binary; 2],
}

macro_rules! generated {
    ($m:ident) => {
        Generated {
            neutral: $m::NEUTRAL.to_vec(),
            integrate: |q, v| $m::integrate(q.try_into().unwrap(), v.try_into().unwrap()).to_vec(),
            difference: |a, b| {
                $m::difference(a.try_into().unwrap(), b.try_into().unwrap()).to_vec()
            },
            d_integrate: [
                |q, v| {
                    $m::d_integrate_dq(q.try_into().unwrap(), v.try_into().unwrap())
                        .as_flattened()
                        .to_vec()
                },
                |q, v| {
                    $m::d_integrate_dv(q.try_into().unwrap(), v.try_into().unwrap())
                        .as_flattened()
                        .to_vec()
                },
            ],
            d_difference: [
                |a, b| {
                    $m::d_difference_dq0(a.try_into().unwrap(), b.try_into().unwrap())
                        .as_flattened()
                        .to_vec()
                },
                |a, b| {
                    $m::d_difference_dq1(a.try_into().unwrap(), b.try_into().unwrap())
                        .as_flattened()
                        .to_vec()
                },
            ],
        }
    };
}

const ARGS: [ArgumentPosition; 2] = [ArgumentPosition::Arg0, ArgumentPosition::Arg1];

/// Every generated function at `(q, v)` and `(q, q1)` against the runtime.
fn compare(tag: &str, model: &Model, g: &Generated, q: &[f64], v: &[f64], q1: &[f64], tol: f64) {
    assert_close(
        &format!("{tag} integrate"),
        &(g.integrate)(q, v),
        &integrate(model, q, v).unwrap(),
        tol,
    );
    assert_close(
        &format!("{tag} difference"),
        &(g.difference)(q, q1),
        &difference(model, q, q1).unwrap(),
        tol,
    );
    for (k, arg) in ARGS.into_iter().enumerate() {
        assert_close(
            &format!("{tag} d_integrate {arg:?}"),
            &(g.d_integrate[k])(q, v),
            &d_integrate(model, q, v, arg).unwrap(),
            tol,
        );
        assert_close(
            &format!("{tag} d_difference {arg:?}"),
            &(g.d_difference[k])(q, q1),
            &d_difference(model, q, q1, arg).unwrap(),
            tol,
        );
    }
}

fn check_random_states(model: &Model, g: &Generated, seed: u64) {
    assert_eq!(g.neutral, model.neutral());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for k in 0..100 {
        let q = random_q(model, &mut rng);
        // Every tenth state takes tiny steps, where the series branches are chosen.
        let scale = if k % 10 == 9 { 1e-6 } else { 2.0 };
        let v = random_vec(model.nv, scale, &mut rng);
        let q1 = if k % 10 == 9 {
            integrate(model, &q, &random_vec(model.nv, 1e-6, &mut rng)).unwrap()
        } else {
            random_q(model, &mut rng)
        };
        compare(
            &format!("{} state {k}", model.name),
            model,
            g,
            &q,
            &v,
            &q1,
            TOL,
        );
    }
    // Exactly zero steps: no NaN from the branches not taken.
    let q = random_q(model, &mut rng);
    let zero = vec![0.0; model.nv];
    compare("zero step", model, g, &q, &zero, &q, TOL);
    let all_finite = (g.d_integrate[1])(&q, &zero)
        .into_iter()
        .chain((g.d_difference[0])(&q, &q))
        .chain((g.difference)(&q, &q))
        .all(f64::is_finite);
    assert!(all_finite, "{}: non-finite at a zero step", model.name);
}

fn check_pinocchio(name: &str, g: &Generated) {
    let reference = Reference::load(name);
    for (k, s) in reference.states().iter().enumerate() {
        let tag = |what: &str| format!("{name} state {k} {what}");
        let (q, w, q2) = (flat(&s["q"]), flat(&s["w"]), flat(&s["q2"]));
        assert_close(
            &tag("integrate"),
            &(g.integrate)(&q, &w),
            &flat(&s["integrate"]),
            1e-8,
        );
        assert_close(
            &tag("difference"),
            &(g.difference)(&q, &q2),
            &flat(&s["difference"]),
            1e-8,
        );
        for (i, key) in ["d0", "d1"].into_iter().enumerate() {
            assert_close(
                &tag(&format!("dintegrate.{key}")),
                &(g.d_integrate[i])(&q, &w),
                &flat(&s["dintegrate"][key]),
                1e-8,
            );
            assert_close(
                &tag(&format!("ddifference.{key}")),
                &(g.d_difference[i])(&q, &q2),
                &flat(&s["ddifference"][key]),
                1e-8,
            );
        }
    }
}

#[test]
fn go2_z1_matches_runtime_on_random_states() {
    let model = common::load_model("models/go2_z1.urdf", true);
    assert_eq!((go2_z1::NQ, go2_z1::NV), (model.nq, model.nv));
    check_random_states(&model, &generated!(go2_z1), 21);
}

#[test]
fn pendulum_matches_runtime_on_random_states() {
    let model = common::load_model("models/double_pendulum_continuous.urdf", false);
    assert_eq!((pendulum::NQ, pendulum::NV), (model.nq, model.nv));
    check_random_states(&model, &generated!(pendulum), 22);
}

#[test]
fn generated_matches_pinocchio() {
    check_pinocchio("go2_z1_floating", &generated!(go2_z1));
    check_pinocchio("double_pendulum_continuous_fixed", &generated!(pendulum));
}
