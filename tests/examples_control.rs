//! The control examples' numbers, asserted: the null-space hierarchy
//! (`examples/nullspace_hierarchy.rs`), the one-step whole-body QP
//! (`examples/wbc_qp.rs`) and the debugging routine
//! (`examples/debugging_routine.rs`). Each example's core is a function its
//! `main` prints and plots and this test checks; each test also writes the
//! example's pictures and reads them back.

// Each example includes the plot helpers as a module of its own.
#![allow(clippy::duplicate_mod)]

#[path = "../examples/nullspace_hierarchy.rs"]
mod nullspace_hierarchy;

#[path = "../examples/wbc_qp.rs"]
mod wbc_qp;

#[path = "../examples/debugging_routine.rs"]
mod debugging_routine;

#[path = "common/png.rs"]
mod png;

use nullspace_hierarchy::Pinv;

/// The priority property: with exact projectors (SVD truncation, adaptive
/// damping while inactive, fixed damping confined to the tasks' solutions)
/// no level's task velocity changes when the lower levels are added or
/// replaced by random ones; fixed damping inside the projectors loses it. The
/// null spaces have the expected dimensions, G1's dual-hand Jacobian has rank
/// 12 (null space nv - 12 = 23), and the IK reaches its targets.
#[test]
fn nullspace_hierarchy_priority() {
    let s = nullspace_hierarchy::run(60);
    let dir = png::dir("nullspace_hierarchy");
    for p in [
        nullspace_hierarchy::plot_go2(&s, &dir),
        nullspace_hierarchy::plot_g1(&s, &dir),
    ] {
        png::assert_drawn(&p.expect("the plot is written"), 400, 16);
    }
    let exact = |m: &Pinv| !matches!(m, Pinv::Fixed { .. });
    for (m, run) in &s.go2_reach {
        if exact(m) {
            assert_eq!(run.null_dims, [12, 6, 0], "{m:?}");
            assert!(
                run.leakage[0] < 1e-9 && run.leakage[1] < 1e-9,
                "{m:?} {:?}",
                run.leakage
            );
            let first = run.trace[0];
            let last = run.trace.last().unwrap();
            assert!(last.errors[0] < 1e-5, "feet drift {m:?} {last:?}");
            assert!(
                last.errors[1] < 0.5 * first.errors[1],
                "gripper {m:?} {last:?}"
            );
        } else {
            assert!(
                run.leakage[0] > 1e-3,
                "fixed damping leaks: {:?}",
                run.leakage
            );
        }
    }
    for (m, (one, two)) in &s.go2_perturbation {
        if exact(m) {
            assert!(*one < 1e-9 && *two < 1e-9, "{m:?}: {one} {two}");
        } else {
            assert!(*one > 1e-3, "{m:?}: {one}");
        }
    }
    // Out of reach: the feet keep their priority for every exact method.
    for (m, run) in &s.go2_far {
        if exact(m) {
            assert!(run.leakage[0] < 1e-6, "{m:?} {:?}", run.leakage);
        }
    }
    for (m, run) in &s.g1 {
        if exact(m) {
            assert_eq!(run.null_dims, [23, 11, 0], "{m:?}");
            assert!(
                run.leakage[0] < 1e-9 && run.leakage[1] < 1e-9,
                "{m:?} {:?}",
                run.leakage
            );
            assert!(run.trace.last().unwrap().errors[0] < 1e-5, "{m:?}");
        }
    }
    let bent = s
        .g1_sweep
        .iter()
        .min_by(|a, b| (a.elbow - 0.9).abs().total_cmp(&(b.elbow - 0.9).abs()))
        .unwrap();
    assert_eq!(
        (bent.rank, bent.null_dim, bent.projected_rank),
        (12, 23, 12)
    );
    assert!(!s.g1_singular.is_empty());
    for near in &s.g1_singular {
        assert!(near.sigma_min[1] < 1e-3, "{near:?}");
        assert!(near.sigma_min[0] > 1e-2 && near.rank == 12, "{near:?}");
    }
    let (count, _, _) = nullspace_hierarchy::svd_statistics();
    assert!(count > 0);
}

fn check_step(step: &wbc_qp::Step, what: &str) {
    assert!(step.tau.iter().all(|t| t.is_finite()), "{what}: {step:?}");
    assert!(step.residual.1 < 1e-6, "{what}: dynamics {step:?}");
    assert!(step.contact_residual < 1e-6, "{what}: contacts {step:?}");
    assert!(step.gripper_residual < 1e-6, "{what}: gripper {step:?}");
    assert!(
        step.a[..6].iter().all(|x| x.abs() < 1e-6),
        "{what}: base {step:?}"
    );
    for foot in 0..4 {
        let f = &step.lambda[3 * foot..3 * foot + 3];
        assert!(
            f[0].hypot(f[1]) <= wbc_qp::MU * f[2] + 1e-6,
            "{what}: foot {foot} outside its cone {step:?}"
        );
    }
    assert!(
        step.torque_ratio.0 <= 1.0 + 1e-6 && step.torque_ratio.1 <= 1.0 + 1e-6,
        "{what}: torque limits {step:?}"
    );
}

/// The QP's solution satisfies its constraints (dynamics, contacts, the held
/// base and gripper, friction cones, torque limits) at a few pushes, standing
/// and moving; a push the robot cannot hold is infeasible; the sweep finds the
/// front feet at their cones' edge before the limit.
#[test]
fn wbc_qp_constraints() {
    let q = wbc_qp::standing();
    for push in [0.0, 20.0, 40.0, 65.0] {
        let (status, step) = wbc_qp::solve(&q, &[0.0; 24], wbc_qp::wall(push));
        let step = step.unwrap_or_else(|| panic!("{push} N: {status:?}"));
        check_step(&step, &format!("standing, {push} N"));
    }
    let (q, v) = wbc_qp::moving();
    let (status, step) = wbc_qp::solve(&q, &v, wbc_qp::wall(20.0));
    check_step(
        &step.unwrap_or_else(|| panic!("{status:?}")),
        "moving, 20 N",
    );
    let (_, step) = wbc_qp::solve(&wbc_qp::standing(), &[0.0; 24], wbc_qp::wall(200.0));
    assert!(step.is_none(), "200 N cannot be held");

    let s = wbc_qp::run();
    let p = wbc_qp::plot(&s, &png::dir("wbc_qp")).expect("the plot is written");
    png::assert_drawn(&p, 400, 16);
    assert!(s.limit.0 > 60.0 && s.limit.0 < 80.0, "{:?}", s.limit);
    let (push, foot) = s.first_at_cone.expect("a foot reaches its cone");
    assert!(foot < 2 && push < s.limit.0, "{push} {foot}");
    for (push, step) in &s.sweep {
        check_step(step, &format!("sweep, {push} N"));
    }
}

/// The debugging routine: the generated code and the runtime pass every
/// step with the same numbers; a zero link mass is caught by the weight check
/// only, a massless end body also by `M`'s Cholesky and the energy check.
#[test]
fn debugging_routine_catches_the_bugs() {
    let reports = debugging_routine::run();
    let p = debugging_routine::plot(&reports[0], &png::dir("debugging_routine"))
        .expect("the plot is written");
    png::assert_drawn(&p, 400, 16);
    let [generated, runtime, bug_a, bug_b] = &reports[..] else {
        panic!("four models")
    };
    for r in [generated, runtime] {
        assert!(
            r.static_ok() && r.jtf_ok() && r.mass_ok() && r.energy_ok(),
            "{r:?}"
        );
        assert!((r.order - 1.0).abs() < 0.05, "{r:?}");
        let [fz, my, shoulder, elbow, legs] = r.jtf_up;
        assert!(
            (fz - 1.0).abs() < 1e-12 && my < 0.0 && shoulder < 0.0 && elbow < 0.0,
            "{r:?}"
        );
        assert_eq!(legs, 0.0);
    }
    for (a, b) in generated.drift.iter().zip(&runtime.drift) {
        assert!((a.1 - b.1).abs() < 1e-8 * a.1.max(1.0), "{a:?} {b:?}");
    }
    assert!(!bug_a.static_ok() && bug_a.jtf_ok() && bug_a.mass_ok() && bug_a.energy_ok());
    assert!(
        (bug_a.weight_error + 0.56404563 * 9.81).abs() < 1e-6,
        "{bug_a:?}"
    );
    assert!(
        bug_a.static_h.0 < 1e-10,
        "h(q, 0) = g(q) holds for the wrong model too"
    );
    assert!(!bug_b.static_ok() && bug_b.jtf_ok() && !bug_b.mass_ok() && !bug_b.energy_ok());
    assert!(!bug_b.cholesky);
}
