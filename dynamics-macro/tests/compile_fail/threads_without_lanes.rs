rbdgen::robot_dynamics!(mod robot, "models/z1.urdf", functions = [rnea], threads);

fn main() {}
