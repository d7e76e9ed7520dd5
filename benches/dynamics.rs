//! Generated functions (`robot_dynamics!`) against the generic runtime
//! (`rbdgen::runtime`), in ns per call, for Go2+Z1, Go2 and the G1 humanoid
//! (free-flyer roots) and the Z1 arm (fixed base).
//!
//! Go2+Z1, Z1 and G1 bench every function of the generator's table
//! (`rbdgen::symbolic::Function::ALL`, checked when the bench starts) but the
//! MPC derivatives (`mpc_functions!`), which benches/stance.rs benches on the
//! robots standing; Go2 the functions that Pinocchio's published figures
//! cover.
//!
//! Method, as the Pinocchio harness of `benches/pinocchio/`: one `Data` reused,
//! 100 random states cycled, `q = integrate(neutral, U[-1,1]^nv).unwrap()`, `v`, `a`,
//! `tau` in U[-1,1]^nv; the second configuration `q2` (of `difference`,
//! `d_difference_*`) drawn as `q`; `fext`: one wrench in U[-1,1]^6 per joint
//! (the universe's zero); `u`: U[-1,1] per actuated dof and a step `h` of
//! [`STEP`] s for `step_linearization`; the target of `pose_error`: the
//! bench frame's placement at `q2`; `lambda`: U[-1,1] per contact row, the
//! vertical ones offset by 50 N; zero `damping` and `height`. Per-frame
//! functions use the link frame at the end of the longest joint chain
//! ([`deepest_link_frame`]). Before timing, each generated function is checked
//! against the runtime on all 100 states, so a bench never times a wrong
//! function (and `cargo test --benches` runs the checks).
//!
//! Both sides derive from the generator's table: the arguments are laid out
//! by `Function::args`, the runtime side is the table's generic evaluation on
//! `f64` (`Function::evaluate`, which returns a `Vec`: one allocation per call
//! that the bare runtime call does not pay), and the generated function is
//! called through [`Call`] on the same flat arguments.
//!
//! Results land in `<target dir>/criterion/<robot>/<function>/{generated,runtime}/`;
//! `scripts/bench` runs this (built with `-C target-cpu=native`, as the
//! Pinocchio harness is with `-march=native`) together with Pinocchio and
//! prints the table. Every function of the table is benched: `core_functions!`
//! and `mpc_functions!` (`benches/common/functions.rs`) are the two blocks of
//! the table's list (`rbdgen::symbolic::for_each_function!`), and each
//! robot's group checks that it benched every function but
//! `mpc_functions!`. The machinery (states, calls, the robot's group) is
//! benches/common/harness.rs.

#[path = "../runtime/tests/common/mod.rs"]
mod common;
#[macro_use]
#[path = "common/functions.rs"]
mod functions;

#[macro_use]
#[path = "common/harness.rs"]
mod harness;

use criterion::Criterion;
use harness::*;
use rbdgen::runtime::ContactKind;
use rbdgen::symbolic::Function;

/// `robot_dynamics!(ARGS, functions = [NAME, ...])`, for the lists of
/// benches/common/functions.rs.
macro_rules! robot_dynamics_of {
    (($($args:tt)*), [$($f:ident),* $(,)?]) => {
        rbdgen::robot_dynamics!($($args)*, functions = [$($f),*]);
    };
}

// Go2+Z1, Z1 and G1: every function of the table but the MPC derivatives
// (`core_functions!`; those are benched by benches/stance.rs), the per-frame
// ones for the bench frame only ([`deepest_link_frame`]), the contact
// functions for the feet (point contacts of Go2+Z1, 6-D soles of G1) or the
// gripper (Z1).
core_functions!(robot_dynamics_of!((
    mod go2_z1,
    "models/go2_z1.urdf",
    floating_base,
    contacts = [FL_foot: point, FR_foot: point, RL_foot: point, RR_foot: point],
    frames = [link06]
)));
core_functions!(robot_dynamics_of!((
    mod z1,
    "models/z1.urdf",
    contacts = [gripperMover: 6d],
    frames = [gripperMover]
)));
// Go2: the functions that Pinocchio's published figures cover.
rbdgen::robot_dynamics!(
    mod go2,
    "models/go2.urdf",
    floating_base,
    functions = [
        rnea, crba, aba, frame_placement, nonlinear_effects, generalized_gravity, minverse,
        center_of_mass, jacobian_center_of_mass, ccrba, kinetic_energy, rnea_derivatives,
        aba_derivatives
    ]
);
core_functions!(robot_dynamics_of!((
    mod g1,
    "models/g1_29dof.urdf",
    floating_base,
    contacts = [left_ankle_roll_link: 6d, right_ankle_roll_link: 6d],
    frames = [left_wrist_yaw_link]
)));

/// The contact sets of the modules above, for the runtime.
const GO2_Z1_FEET: &[(&str, ContactKind)] = &[
    ("FL_foot", ContactKind::Point),
    ("FR_foot", ContactKind::Point),
    ("RL_foot", ContactKind::Point),
    ("RR_foot", ContactKind::Point),
];
const Z1_GRIPPER: &[(&str, ContactKind)] = &[("gripperMover", ContactKind::Frame6d)];
const G1_SOLES: &[(&str, ContactKind)] = &[
    ("left_ankle_roll_link", ContactKind::Frame6d),
    ("right_ankle_roll_link", ContactKind::Frame6d),
];

frame_by_value!(go2_z1, z1, go2, g1);

/// The benches, one group per robot (criterion's id `<robot>/<function>/<generated|runtime>`,
/// and `<robot>/<function>/into` for the `NAME_into` of the matrix-valued functions listed).
fn benches(c: &mut Criterion) {
    let mpc = mpc_functions!(function_list!());
    core_functions!(
        bench_robot!(c, go2_z1, "models/go2_z1.urdf", true, GO2_Z1_FEET, into [
        crba: crba_into, minverse: minverse_into, rnea_derivatives: rnea_derivatives_into,
        aba_derivatives: aba_derivatives_into,
    ], without mpc)
    );
    bench_robot!(c, go2, "models/go2.urdf", true, &[], into [
        crba: crba_into, minverse: minverse_into, rnea_derivatives: rnea_derivatives_into,
        aba_derivatives: aba_derivatives_into,
    ], without Function::ALL, [
        rnea, crba, aba, frame_placement, nonlinear_effects, generalized_gravity, minverse,
        center_of_mass, jacobian_center_of_mass, ccrba, kinetic_energy, rnea_derivatives,
        aba_derivatives,
    ]);
    core_functions!(bench_robot!(c, z1, "models/z1.urdf", false, Z1_GRIPPER, without mpc));
    core_functions!(
        bench_robot!(c, g1, "models/g1_29dof.urdf", true, G1_SOLES, into [
        crba: crba_into, minverse: minverse_into, rnea_derivatives: rnea_derivatives_into,
        aba_derivatives: aba_derivatives_into,
    ], without mpc)
    );
}

/// Runs the benches with criterion's command line (`cargo bench --bench dynamics -- FILTER`).
fn main() {
    let mut c = Criterion::default().configure_from_args();
    benches(&mut c);
    c.final_summary();
}
