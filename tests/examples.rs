//! The examples' numbers, asserted: each example's core is a function the
//! example's `main` prints and this test checks.

// Each example includes the plot helpers as a module of its own.
#![allow(clippy::duplicate_mod)]

#[path = "../examples/standing_wbc.rs"]
mod standing_wbc;

/// The whole-body loop on generated code: the plant's contact dynamics return
/// the controller's own `(a, λ)`, the contacts do not accelerate, nothing acts
/// on the base, the robot's weight rests on its feet, and the arm reaches home.
#[test]
fn standing_wbc_loop() {
    let s = standing_wbc::run(500, 0.3);
    assert!(s.worst_plant_mismatch < 1e-8, "{s:?}");
    assert!(s.worst_contact_acceleration < 1e-8, "{s:?}");
    assert!(s.worst_base_residual < 1e-7, "{s:?}");
    assert!(s.arm_error.0 > 0.29 && s.arm_error.1 < 1e-3, "{s:?}");
    let (fz, weight) = s.vertical_force;
    assert!((fz - weight).abs() < 0.05 * weight, "{s:?}");
    assert!(s.min_foot_force > 0.0, "a foot pulls on the ground: {s:?}");
    let (cop, com) = s.cop_and_com;
    assert!((cop[0] - com[0]).hypot(cop[1] - com[1]) < 0.02, "{s:?}");
}

// The example's threads need rbdgen's rayon feature (its required-features).
#[cfg(feature = "rayon")]
#[path = "../examples/mpc_linearization.rs"]
mod mpc_linearization;

/// The horizon's linearizations through lanes match the scalar ones (the
/// lanes' vectorised sine and cosine are within one unit in the last place),
/// and the threaded batch equals the single-thread batch bit for bit.
#[cfg(feature = "rayon")]
#[test]
fn mpc_linearization_lanes_and_threads_equal_scalar() {
    let c = mpc_linearization::compare(1);
    assert!(c.worst_difference.0 <= 1e-13, "{:e}", c.worst_difference.0);
    assert_eq!(c.worst_difference.1, 0.0);
}

#[cfg(feature = "rayon")]
#[path = "../examples/stance_mpc.rs"]
mod stance_mpc;

#[cfg(feature = "rayon")]
#[path = "common/png.rs"]
mod png;

/// The stance MPC at reduced size (a horizon of 8 knots, 0.3 s of the arm's
/// swing): the lanes and threads match the scalar linearization, `A` and
/// `B` match central differences of the stance step, the base stays within
/// a millimetre and a tenth of a degree, every foot stays in compression, the
/// arm follows its swing, and the plot is drawn.
#[cfg(feature = "rayon")]
#[test]
fn stance_mpc_holds_the_base() {
    let model = stance_mpc::model();
    let u_static = stance_mpc::static_torques(&model);
    let c = stance_mpc::compare(1, &u_static);
    assert!(c.worst_difference.0 <= 1e-13, "{c:?}");
    assert_eq!(c.worst_difference.1, 0.0, "{c:?}");
    let fd = stance_mpc::fd_check(&model, &u_static, 7, 1e-6);
    assert!(
        fd.relative_error.0 < 1e-6 && fd.relative_error.1 < 1e-6,
        "{fd:?}"
    );
    let r = stance_mpc::run(&model, &u_static, 30, 8);
    let summary = |r: &stance_mpc::Run| {
        format!(
            "drift {:e} m, tilt {:e} rad, arm error {:e} rad, excursion {:e} rad, forces {:?} N, feet {:e} m",
            r.max_base_drift,
            r.max_base_tilt,
            r.max_arm_error,
            r.max_arm_excursion,
            r.vertical_force_range,
            r.max_feet_drift
        )
    };
    assert!(r.max_base_drift < 1e-3, "{}", summary(&r));
    assert!(r.max_base_tilt < 0.1f64.to_radians(), "{}", summary(&r));
    assert!(r.vertical_force_range.0 > 0.0, "{}", summary(&r));
    assert!(r.max_arm_excursion > 0.15, "{}", summary(&r));
    assert!(r.max_arm_error < 0.05, "{}", summary(&r));
    assert!(r.max_feet_drift < 1e-3, "{}", summary(&r));
    let dir = png::dir("stance_mpc");
    png::assert_drawn(
        &stance_mpc::plot(&r, &dir).expect("the plot is written"),
        400,
        16,
    );
}
