rbdgen::robot_dynamics!(mod robot, "tests/bad_urdf/malformed_unclosed.urdf");

fn main() {}
