rbdgen::robot_dynamics!(robot, "models/z1.urdf");

fn main() {}
