//! The names of every function of the generator's table
//! (`rbdgen::symbolic::Function::ALL`), for macros that need them as
//! identifiers: the benches call each generated function by name.
//! `cli/tests/function_table.rs` checks the list against the table.

/// Calls `$m!(ARGS, [NAME, ...])` with every function of the table, in
/// table order: [`core_functions!`], then [`mpc_functions!`].
#[allow(unused_macros)]
macro_rules! every_function {
    ($m:ident ! ($($args:tt)*)) => {
        $m!($($args)*, [
            rnea, crba, aba, frame_placement, nonlinear_effects, generalized_gravity, minverse,
            center_of_mass, jacobian_center_of_mass, ccrba, dccrba, kinetic_energy,
            potential_energy, frame_jacobian_local, frame_jacobian_world,
            frame_jacobian_local_world_aligned, rnea_fext, rnea_derivatives, aba_derivatives,
            rnea_derivatives_fext, step_linearization, pose_error, integrate, difference,
            d_integrate_dq, d_integrate_dv, d_difference_dq0, d_difference_dq1, aba_fext,
            aba_derivatives_fext, aba_dfext, frame_jacobian_time_variation_local,
            frame_jacobian_time_variation_world,
            frame_jacobian_time_variation_local_world_aligned, frame_acceleration_drift,
            centroidal_momentum_rate, joint_torque_regressor, contact_jacobian, contact_drift,
            contact_dynamics, contact_inverse_dynamics, center_of_pressure,
            frame_velocity_derivatives_local, frame_velocity_derivatives_local_world_aligned,
            frame_acceleration_derivatives_local,
            frame_acceleration_derivatives_local_world_aligned, centroidal_dynamics_derivatives,
            contact_drift_derivatives, contact_dynamics_derivatives,
            contact_inverse_dynamics_derivatives, impulse_dynamics, impulse_dynamics_derivatives,
            contact_step_linearization, contact_dynamics_masked,
            contact_dynamics_derivatives_masked, impulse_dynamics_masked,
            impulse_dynamics_derivatives_masked, contact_step_linearization_masked,
            contact_step_linearization_forces_masked,
        ])
    };
}

/// Calls `$m! { ARGS, [NAME, ...] }` (braces: it also makes items) with the functions that
/// benches/dynamics.rs benches on every robot (Go2+Z1, Z1, G1): the table
/// but the MPC derivatives of [`mpc_functions!`], whose generated code takes
/// minutes to compile for the floating-base robots.
#[allow(unused_macros)]
macro_rules! core_functions {
    ($m:ident ! ($($args:tt)*)) => {
        $m! { $($args)*, [
            rnea, crba, aba, frame_placement, nonlinear_effects, generalized_gravity, minverse,
            center_of_mass, jacobian_center_of_mass, ccrba, dccrba, kinetic_energy,
            potential_energy, frame_jacobian_local, frame_jacobian_world,
            frame_jacobian_local_world_aligned, rnea_fext, rnea_derivatives, aba_derivatives,
            rnea_derivatives_fext, step_linearization, pose_error, integrate, difference,
            d_integrate_dq, d_integrate_dv, d_difference_dq0, d_difference_dq1, aba_fext,
            aba_derivatives_fext, aba_dfext, frame_jacobian_time_variation_local,
            frame_jacobian_time_variation_world,
            frame_jacobian_time_variation_local_world_aligned, frame_acceleration_drift,
            centroidal_momentum_rate, joint_torque_regressor, contact_jacobian, contact_drift,
            contact_dynamics, contact_inverse_dynamics, center_of_pressure,
        ] }
    };
}

/// Calls `$m!(ARGS, [NAME, ...])` with the MPC derivatives of the table (the
/// rest of [`every_function!`]): benched on the stance robots of
/// benches/stance.rs (`scripts/bench go2_z1_stance g1_stance`).
#[allow(unused_macros)]
macro_rules! mpc_functions {
    ($m:ident ! ($($args:tt)*)) => {
        $m!($($args)*, [
            frame_velocity_derivatives_local, frame_velocity_derivatives_local_world_aligned,
            frame_acceleration_derivatives_local,
            frame_acceleration_derivatives_local_world_aligned, centroidal_dynamics_derivatives,
            contact_drift_derivatives, contact_dynamics_derivatives,
            contact_inverse_dynamics_derivatives, impulse_dynamics, impulse_dynamics_derivatives,
            contact_step_linearization, contact_dynamics_masked,
            contact_dynamics_derivatives_masked, impulse_dynamics_masked,
            impulse_dynamics_derivatives_masked, contact_step_linearization_masked,
            contact_step_linearization_forces_masked,
        ])
    };
}
