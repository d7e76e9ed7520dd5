rbdgen::robot_dynamics!(mod robot, "models/z1.urdf", functions = [crba], armature = [joint1: 0.1, joint2: 0.3, joint1: 0.2]);

fn main() {}
