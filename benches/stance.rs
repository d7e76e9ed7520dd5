//! The MPC derivatives of the generator's table (`mpc_functions!` of
//! benches/common/functions.rs) against the generic runtime, in ns per call,
//! on the robots standing: Go2+Z1 on its four feet (point contacts) and the
//! G1 humanoid on its two soles (6-D contacts), the per-frame functions on a
//! foot (FL_foot, left_ankle_roll_link).
//!
//! The method of benches/dynamics.rs (the machinery of
//! benches/common/harness.rs): 100 random states, each generated function
//! checked against the runtime on all of them before timing; zero `damping`
//! and `restitution`. A bench of its own, outside `cargo bench` and `cargo
//! test --all-targets` (`bench = false`, `test = false` in Cargo.toml),
//! because the contact dynamics derivatives of a floating-base robot are
//! about 10^5 operations each (Go2+Z1 about 100 000, G1 200 000): a minute
//! or more of release build. `scripts/bench
//! go2_z1_stance g1_stance` runs it beside the Pinocchio harness (the robot
//! keys `go2_z1_stance` and `g1_stance`; results in
//! `<target dir>/criterion/<robot>/<function>/{generated,runtime}/`).
//!
//! Benched: the functions of `stance_functions!`, the masked step with
//! every contact active (Pinocchio's side: `contactStepLinearization*` on
//! the same contacts). The others (`contact_drift_derivatives`, ...) would
//! add build time; add their names to both lists to bench them.

#[path = "../runtime/tests/common/mod.rs"]
#[allow(dead_code)]
mod common;
#[macro_use]
#[path = "common/functions.rs"]
mod functions;
#[macro_use]
#[path = "common/harness.rs"]
#[allow(dead_code)]
mod harness;

use criterion::Criterion;
use harness::*;
use rbdgen::runtime::ContactKind;
use rbdgen::symbolic::Function;

/// The generated module of a stance robot with the functions of [`STANCE`]
/// (repeated here: a macro's list cannot come from a `const`).
macro_rules! stance_module {
    ($($args:tt)*) => {
        rbdgen::robot_dynamics!(
            $($args)*,
            functions = [
                contact_dynamics_derivatives, centroidal_dynamics_derivatives,
                frame_velocity_derivatives_local, frame_acceleration_derivatives_local,
                impulse_dynamics_derivatives, contact_step_linearization_masked
            ]
        );
    };
}

/// The functions benched on each stance robot, as in [`stance_module!`].
macro_rules! stance_functions {
    ($m:ident ! ($($args:tt)*)) => {
        $m!($($args)*, [
            contact_dynamics_derivatives, centroidal_dynamics_derivatives,
            frame_velocity_derivatives_local, frame_acceleration_derivatives_local,
            impulse_dynamics_derivatives, contact_step_linearization_masked,
        ])
    };
}

stance_module!(
    mod go2_z1_stance,
    "models/go2_z1.urdf",
    floating_base,
    contacts = [FL_foot: point, FR_foot: point, RL_foot: point, RR_foot: point],
    frames = [FL_foot]
);
stance_module!(
    mod g1_stance,
    "models/g1_29dof.urdf",
    floating_base,
    contacts = [left_ankle_roll_link: 6d, right_ankle_roll_link: 6d],
    frames = [left_ankle_roll_link],
    // contact_dynamics_derivatives: about 200000 operations (35 dofs, 12 rows).
    max_ops = 300000
);
frame_by_value!(go2_z1_stance, g1_stance);

/// The contact sets of the modules above, for the runtime.
const GO2_Z1_FEET: &[(&str, ContactKind)] = &[
    ("FL_foot", ContactKind::Point),
    ("FR_foot", ContactKind::Point),
    ("RL_foot", ContactKind::Point),
    ("RR_foot", ContactKind::Point),
];
const G1_SOLES: &[(&str, ContactKind)] = &[
    ("left_ankle_roll_link", ContactKind::Frame6d),
    ("right_ankle_roll_link", ContactKind::Frame6d),
];

/// The functions of the table that the stance robots do not bench.
fn not_benched() -> Vec<Function> {
    let stance = stance_functions!(function_list!());
    Function::ALL
        .into_iter()
        .filter(|f| !stance.contains(f))
        .collect()
}

/// The benches, one group per robot (`<robot>/<function>/<generated|runtime>`).
fn benches(c: &mut Criterion) {
    let without = not_benched();
    stance_functions!(bench_robot!(
        c, go2_z1_stance, "models/go2_z1.urdf", true, GO2_Z1_FEET, frame Some("FL_foot"),
        without without
    ));
    stance_functions!(bench_robot!(
        c, g1_stance, "models/g1_29dof.urdf", true, G1_SOLES, frame Some("left_ankle_roll_link"),
        without without
    ));
}

/// Runs the benches with criterion's command line (`cargo bench --bench stance -- FILTER`).
fn main() {
    let mut c = Criterion::default().configure_from_args();
    benches(&mut c);
    c.final_summary();
}
