rbdgen::robot_dynamics!(mod robot, "tests/bad_urdf/non_numeric_mass.urdf", floating_base);

fn main() {}
