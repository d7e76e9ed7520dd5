//! Random configurations, for checks that sample the configuration space.

use std::f64::consts::{PI, TAU};

use super::{JointKind, Model};

impl Model {
    /// A random configuration `[nq]` drawn from `unit`, a source of numbers
    /// uniform in `[0, 1)`: angles in `[-π, π)` rad, prismatic offsets in
    /// `[-0.5, 0.5)` m, `[cos θ, sin θ]` for unbounded revolutes, a
    /// free-flyer with its position in `[-1, 1)` m and a uniformly distributed
    /// unit quaternion `[x, y, z, w]` (Shoemake 1992, "Uniform random
    /// rotations"), such a quaternion for a spherical joint, and
    /// `[x, y, cos θ, sin θ]` with `x, y` in `[-1, 1)` m for a planar one.
    /// Like Pinocchio's `randomConfiguration` with fixed bounds.
    ///
    /// The draws are taken joint by joint in model order, so a seeded source
    /// gives the same configuration on every machine.
    pub fn random_configuration(&self, mut unit: impl FnMut() -> f64) -> Vec<f64> {
        let mut uniform = |lo: f64, hi: f64| lo + (hi - lo) * unit();
        let mut q = Vec::with_capacity(self.nq);
        for joint in self.joints.iter().filter(|j| j.mimic.is_none()) {
            match joint.kind {
                JointKind::Universe => {}
                JointKind::Revolute { .. } => q.push(uniform(-PI, PI)),
                JointKind::RevoluteUnbounded { .. } => {
                    let (s, c) = uniform(-PI, PI).sin_cos();
                    q.extend([c, s]);
                }
                JointKind::Prismatic { .. } => q.push(uniform(-0.5, 0.5)),
                JointKind::FreeFlyer => {
                    q.extend((0..3).map(|_| uniform(-1.0, 1.0)));
                    q.extend(random_quaternion(&mut uniform));
                }
                JointKind::Spherical => q.extend(random_quaternion(&mut uniform)),
                JointKind::Planar => {
                    q.extend((0..2).map(|_| uniform(-1.0, 1.0)));
                    let (s, c) = uniform(-PI, PI).sin_cos();
                    q.extend([c, s]);
                }
            }
        }
        q
    }
}

/// A uniformly distributed unit quaternion `[x, y, z, w]` (Shoemake 1992).
fn random_quaternion(uniform: &mut impl FnMut(f64, f64) -> f64) -> [f64; 4] {
    let (u1, u2, u3) = (uniform(0.0, 1.0), uniform(0.0, 1.0), uniform(0.0, 1.0));
    let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
    [
        a * (TAU * u2).sin(),
        a * (TAU * u2).cos(),
        b * (TAU * u3).sin(),
        b * (TAU * u3).cos(),
    ]
}

#[cfg(test)]
mod tests {
    use crate::Model;

    const URDF: &str = r#"<robot name="r">
        <link name="base"/><link name="a"/><link name="b"/>
        <joint name="j1" type="continuous"><parent link="base"/><child link="a"/><axis xyz="0 0 1"/></joint>
        <joint name="j2" type="prismatic"><parent link="a"/><child link="b"/><axis xyz="1 0 0"/>
          <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
    </robot>"#;

    /// Uniform numbers in [0, 1) from a fixed linear congruential sequence.
    fn unit() -> impl FnMut() -> f64 {
        let mut state = 12345u64;
        move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    #[test]
    fn random_configurations_are_valid() {
        let model = Model::from_urdf_str(URDF, true).unwrap();
        let mut source = unit();
        for _ in 0..100 {
            let q = model.random_configuration(&mut source);
            assert_eq!(q.len(), model.nq);
            assert_eq!(model.nq, 7 + 2 + 1);
            assert!(q[..3].iter().all(|x| (-1.0..1.0).contains(x)));
            let norm: f64 = q[3..7].iter().map(|x| x * x).sum();
            assert!((norm - 1.0).abs() < 1e-12, "quaternion norm² {norm}");
            assert!((q[7] * q[7] + q[8] * q[8] - 1.0).abs() < 1e-12);
            assert!((-0.5..0.5).contains(&q[9]));
        }
        // The same source gives the same configuration.
        assert_eq!(
            model.random_configuration(unit()),
            model.random_configuration(unit())
        );
    }
}
