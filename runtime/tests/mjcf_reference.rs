//! The runtime on MJCF models (dm_control's cheetah, walker, humanoid,
//! Menagerie's Go2 and G1) against
//! Pinocchio 4.1.0's `buildModelFromMJCF` with MuJoCo's inertias
//! (`scripts/make_mjcf_reference.py` says what it corrects and why), every
//! committed state, at the eval format's tolerance.
//!
//! Pinocchio makes the several joints of one body a composite joint; rbdgen
//! makes consecutive joints. `q`, `v` and every frame are the same, so the
//! quantities indexed by them are compared as they are; a per-joint quantity
//! of Pinocchio's (`oMi`, `fext`) belongs to the joint that carries the JOINT
//! frame of Pinocchio's joint name (`Composite_<first>`: the last sub-joint).
//! Pinocchio's RNEA / ABA derivatives and `dccrba` are wrong on composite
//! joints, and its kinetic energy leaves the armature of unaligned revolute
//! joints out, so those are checked against central differences of the
//! runtime's own functions and against `0.5 vᵀ M v` with Pinocchio's `M`
//! (`mjcf_common::against_pinocchio`).

mod common;
mod mjcf_common;

use common::root;

fn check(name: &str) {
    let (json, model) =
        mjcf_common::load(&root().join(format!("tests/reference/mjcf/{name}.json")));
    let errors = mjcf_common::against_pinocchio(&json, &model);
    assert!(errors.notes.is_empty(), "{name}: {:?}", errors.notes);
    errors.assert_ok(name);
}

/// Composite slide-slide-hinge root, `settotalmass` (MuJoCo's inertias).
#[test]
fn cheetah() {
    check("cheetah");
}

/// Composite root, unaligned revolute joints, armature.
#[test]
fn walker() {
    check("walker");
}

/// A `<freejoint>` root, composite hips, ankles and shoulders, sites.
#[test]
fn humanoid() {
    check("humanoid");
}

/// Menagerie's Unitree Go2: `<freejoint>`, nested default classes, armature.
#[test]
fn go2() {
    check("go2");
}

/// Menagerie's Unitree G1: `<freejoint>`, 43 dofs (three-finger hands),
/// `childclass` defaults, armature.
#[test]
fn g1() {
    check("g1");
}
