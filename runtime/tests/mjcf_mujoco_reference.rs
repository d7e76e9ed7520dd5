//! The runtime on MJCF models against MuJoCo 4.0 itself
//! (`scripts/make_mujoco_reference.py`, which maps MuJoCo's free-joint
//! velocity and quaternion order to rbdgen's): body and site placements, body
//! masses, armature, the mass matrix and the nonlinear effects. MuJoCo
//! compiles the file, so this checks what Pinocchio cannot: default classes
//! and `childclass`, `ref` in multi-joint bodies, euler sequences with fixed
//! axes, `xyaxes` / `zaxis` / `axisangle`, geom inertias (`mass` from a
//! default class, `fromto`, groups), `<option gravity>`, several top-level
//! bodies.

mod common;
mod mjcf_common;

use common::root;

fn check(name: &str) {
    let path = root().join(format!("tests/reference/mjcf/mujoco_{name}.json"));
    let (json, model) = mjcf_common::load(&path);
    mjcf_common::against_mujoco(&json, &model).assert_ok(name);
}

/// Every feature of the loader on one hand-made model (`tests/mjcf/features.xml`).
#[test]
fn features() {
    check("features");
}

/// A geom `mass` from the default class.
#[test]
fn acrobot() {
    check("acrobot");
}

/// Several top-level bodies, `ref` on multi-joint bodies, nested classes.
#[test]
fn manipulator() {
    check("manipulator");
}

/// A rotated free-flyer root and 62 dofs.
#[test]
fn humanoid_cmu() {
    check("humanoid_CMU");
}

/// Menagerie's Unitree Go2 (compiled by MuJoCo without its mesh geoms,
/// which are not committed: every body has an `<inertial>`).
#[test]
fn go2() {
    check("go2");
}

/// Menagerie's Unitree G1 (compiled by MuJoCo without its mesh geoms, as Go2).
#[test]
fn g1() {
    check("g1");
}
