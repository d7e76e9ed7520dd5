//! Go2+Z1's generated dynamics, alone in their crate: the controller crate
//! (`../controller`) depends on this one, so editing the controller
//! recompiles the controller only, not the robot's generated module. Edit
//! this crate (the function list, the model) and both rebuild.

rbdgen::robot_dynamics!(
    pub mod go2_z1,
    "../../../models/go2_z1.urdf",
    floating_base,
    functions = [rnea, crba, aba, frame_placement]
);
