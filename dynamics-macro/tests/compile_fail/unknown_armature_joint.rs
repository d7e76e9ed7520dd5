rbdgen::robot_dynamics!(mod robot, "models/z1.urdf", armature = [elbow: 0.1], functions = [crba]);

fn main() {}
