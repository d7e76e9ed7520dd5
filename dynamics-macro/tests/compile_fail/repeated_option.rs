// An option given twice is an error at its second key (the first would
// otherwise be dropped without a word).
rbdgen::robot_dynamics!(mod robot, "models/z1.urdf", functions = [rnea], functions = [crba]);

fn main() {}
