rbdgen::robot_dynamics!(mod robot, "models/z1.urdf", parameters = [gripper], functions = [rnea]);

fn main() {}
