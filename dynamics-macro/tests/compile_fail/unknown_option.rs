rbdgen::robot_dynamics!(mod robot, "models/z1.urdf", fixed_base);

fn main() {}
