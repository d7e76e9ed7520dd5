rbdgen::robot_dynamics!(mod robot, "models/no_such_robot.urdf");

fn main() {}
