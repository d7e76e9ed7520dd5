// `strict` turns an inertia that no rigid body has into an error.
rbdgen::robot_dynamics!(mod robot, "tests/bad_urdf/inertia_triangle.urdf", functions = [rnea], strict);

fn main() {}
