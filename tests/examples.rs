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
