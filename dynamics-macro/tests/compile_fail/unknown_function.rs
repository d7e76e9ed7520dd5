rbdgen::robot_dynamics!(mod robot, "models/z1.urdf", functions = [rnea, inverse_dynamics]);

fn main() {}
