//! The names of every function of the generator's table
//! (`rbdgen::symbolic::Function::ALL`), for macros that need them as
//! identifiers: the benches call each generated function by name.
//! `tests/function_table.rs` checks the list against the table.

/// Calls `$m!(ARGS, [NAME, ...])` with every function of the table, in
/// table order.
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
        ])
    };
}
