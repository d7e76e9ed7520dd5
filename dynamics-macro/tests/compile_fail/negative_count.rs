// A count that is not a whole number is an error naming the option.
rbdgen::robot_dynamics!(mod robot, "models/z1.urdf", functions = [rnea], unroll_limit = -5);

fn main() {}
