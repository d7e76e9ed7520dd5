rbdgen::robot_dynamics!(mod robot, "models/z1.urdf", contacts = [gripperMover: 6d, link06: edge], functions = [contact_jacobian]);

fn main() {}
