rbdgen::robot_dynamics!(mod robot, "models/z1.urdf", armature = [joint1: 0.1, joint2: -0.05], functions = [crba]);

fn main() {}
