// A function with more operations than `max_ops` is an error naming it.
rbdgen::robot_dynamics!(mod robot, "models/z1.urdf", functions = [rnea, crba], max_ops = 100);

fn main() {}
