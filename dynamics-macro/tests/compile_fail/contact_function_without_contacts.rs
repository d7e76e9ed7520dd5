rbdgen::robot_dynamics!(mod robot, "models/z1.urdf", functions = [contact_dynamics]);

fn main() {}
