// Without `strict`, an inertia that no rigid body has is a warning naming the
// link (a use of a deprecated item); the type error below only makes this a
// compile-fail case, so that the warning is part of the checked output.
rbdgen::robot_dynamics!(mod robot, "tests/bad_urdf/inertia_triangle.urdf", functions = [rnea]);

fn main() {
    let _: () = robot::NQ;
}
