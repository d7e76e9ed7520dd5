rbdgen::robot_dynamics!(mod robot, "models/z1.urdf", functions = []);

fn main() {}
