rbdgen::robot_dynamics!(mod robot, "models/z1.urdf", contacts = [world: point], functions = [contact_jacobian]);

fn main() {}
