//! A small whole-body control loop on generated code: Go2 + Z1 standing on
//! its four feet (point contacts), geared knees (armature), the arm driven
//! back to its home posture from an offset.
//!
//! Each control step (TSID-like, without inequality constraints):
//!
//! 1. posture task `a* = Kp (q_ref ⊖ q) - Kd v`, projected onto the contact
//!    constraints: `a = a* - J⁺ (J a* + γ)` (`contact_jacobian`, `contact_drift`);
//! 2. contact forces from the unactuated base rows, `J_bᵀ λ = M_b a + h_b`
//!    (least norm), and torques `τ = M a + h - Jᵀ λ` on the actuated rows;
//! 3. the plant: `contact_dynamics(q, v, τ)`, which must return the same
//!    `(a, λ)` (the KKT solution is unique for a full-rank `J`), and
//!    `contact_inverse_dynamics(q, v, a, λ)` whose base rows must vanish;
//!    then semi-implicit Euler, `v += h a`, `q = integrate(q, h v)`.
//!
//! Run with `cargo run --release --example standing_wbc`. Its test (at the
//! end of this file) runs 500 steps and asserts that the plant returns the
//! controller's `(a, λ)`, the feet do not accelerate, nothing acts on the
//! base, the weight rests on the feet and the arm reaches home.

use nalgebra::{DMatrix, DVector};

#[path = "common/plot.rs"]
mod plot;

rbdgen::robot_dynamics!(
    mod go2_z1,
    "models/go2_z1.urdf",
    floating_base,
    armature = [FL_calf_joint: 0.02, FR_calf_joint: 0.02, RL_calf_joint: 0.02, RR_calf_joint: 0.02],
    contacts = [FL_foot: point, FR_foot: point, RL_foot: point, RR_foot: point],
    frames = [FL_foot],
    functions = [
        crba, nonlinear_effects, contact_jacobian, contact_drift, contact_dynamics,
        contact_inverse_dynamics, center_of_pressure, center_of_mass, difference, integrate,
        frame_placement,
    ]
);

use go2_z1::{NC, NQ, NV};

/// Control period (s).
const DT: f64 = 0.002;
/// Posture gains (1/s², 1/s).
const KP: f64 = 100.0;
const KD: f64 = 20.0;

/// What a run of the loop found.
#[derive(Debug)]
pub struct Summary {
    /// Steps taken.
    pub steps: usize,
    /// Largest `|J a + γ|` of the plant's accelerations (m/s²).
    pub worst_contact_acceleration: f64,
    /// Largest `|(a, λ)_plant - (a, λ)_controller|`, relative.
    pub worst_plant_mismatch: f64,
    /// Largest base row of `contact_inverse_dynamics` (N, N·m).
    pub worst_base_residual: f64,
    /// Largest arm posture error at the start and at the end (rad).
    pub arm_error: (f64, f64),
    /// Total vertical contact force at the end against the weight (N).
    pub vertical_force: (f64, f64),
    /// Centre of pressure at the end, and the centre of mass's ground projection (m).
    pub cop_and_com: ([f64; 2], [f64; 2]),
    /// Smallest vertical force on one foot over the run (N).
    pub min_foot_force: f64,
    /// Per step: time (s), arm posture error (rad), total vertical force (N).
    pub trace: Vec<(f64, f64, f64)>,
}

/// The standing posture: base 0.32 m up, thighs 0.8 rad, calves -1.5 rad, arm at zero.
pub fn standing() -> [f64; NQ] {
    let mut q = [0.0; NQ];
    q[2] = 0.32;
    q[6] = 1.0;
    for leg in 0..4 {
        q[7 + 3 * leg + 1] = 0.8;
        q[7 + 3 * leg + 2] = -1.5;
    }
    q
}

/// Runs the loop for `steps` steps from the standing posture with the arm
/// offset by `arm_offset` rad on each joint.
pub fn run(steps: usize, arm_offset: f64) -> Summary {
    let q_ref = standing();
    let mut q = q_ref;
    for x in &mut q[19..25] {
        *x += arm_offset;
    }
    let mut v = [0.0; NV];
    let arm_error = |q: &[f64; NQ]| {
        let e = go2_z1::difference(q, &q_ref);
        e[18..].iter().fold(0.0f64, |m, x| m.max(x.abs()))
    };
    let error_start = arm_error(&q);
    let mut summary = Summary {
        steps,
        worst_contact_acceleration: 0.0,
        worst_plant_mismatch: 0.0,
        worst_base_residual: 0.0,
        arm_error: (error_start, 0.0),
        vertical_force: (0.0, 0.0),
        cop_and_com: ([0.0; 2], [0.0; 2]),
        min_foot_force: f64::INFINITY,
        trace: Vec::with_capacity(steps),
    };
    for step in 0..steps {
        let (a, lambda, tau) = control(&q, &v, &q_ref);
        let (a_plant, lambda_plant) = go2_z1::contact_dynamics(&q, &v, &tau, 0.0);
        let scale = lambda.iter().fold(1.0f64, |m, x| m.max(x.abs()));
        let mismatch = a
            .iter()
            .zip(&a_plant)
            .chain(lambda.iter().zip(&lambda_plant))
            .fold(0.0f64, |m, (x, y)| m.max((x - y).abs() / scale));
        summary.worst_plant_mismatch = summary.worst_plant_mismatch.max(mismatch);
        let j = go2_z1::contact_jacobian(&q);
        let gamma = go2_z1::contact_drift(&q, &v);
        for (row, g) in j.iter().zip(gamma) {
            let ja: f64 = row.iter().zip(&a_plant).map(|(x, y)| x * y).sum();
            summary.worst_contact_acceleration =
                summary.worst_contact_acceleration.max((ja + g).abs());
        }
        let residual = go2_z1::contact_inverse_dynamics(&q, &v, &a_plant, &lambda_plant);
        let base = residual[..6].iter().fold(0.0f64, |m, x| m.max(x.abs()));
        summary.worst_base_residual = summary.worst_base_residual.max(base);
        for foot in lambda_plant.chunks(3) {
            summary.min_foot_force = summary.min_foot_force.min(foot[2]);
        }
        for k in 0..NV {
            v[k] += DT * a_plant[k];
        }
        q = go2_z1::integrate(&q, &v.map(|x| DT * x));
        let weight = total_mass() * 9.81;
        let fz: f64 = lambda_plant.chunks(3).map(|f| f[2]).sum();
        summary.vertical_force = (fz, weight);
        // The feet stand level: the front left one gives the ground's height.
        let feet_height = go2_z1::frame_placement(&q, go2_z1::Frame::FLFoot)[2][3];
        let cop = go2_z1::center_of_pressure(&q, &lambda_plant, feet_height);
        let com = go2_z1::center_of_mass(&q);
        summary.cop_and_com = (cop, [com[0], com[1]]);
        summary
            .trace
            .push(((step + 1) as f64 * DT, arm_error(&q), fz));
    }
    summary.arm_error.1 = arm_error(&q);
    summary
}

/// One control step: the task acceleration projected on the contacts, the
/// contact forces from the base rows, the actuated torques (base rows zero).
fn control(q: &[f64; NQ], v: &[f64; NV], q_ref: &[f64; NQ]) -> ([f64; NV], [f64; NC], [f64; NV]) {
    let m = DMatrix::from_row_iterator(NV, NV, go2_z1::crba(q).into_iter().flatten());
    let h = DVector::from_row_slice(&go2_z1::nonlinear_effects(q, v));
    let j = DMatrix::from_row_iterator(NC, NV, go2_z1::contact_jacobian(q).into_iter().flatten());
    let gamma = DVector::from_row_slice(&go2_z1::contact_drift(q, v));
    let e = go2_z1::difference(q, q_ref);
    let a_task = DVector::from_fn(NV, |k, _| KP * e[k] - KD * v[k]);
    let j_pinv = j.clone().pseudo_inverse(1e-10).expect("SVD converges");
    let a = &a_task - &j_pinv * (&j * &a_task + &gamma);
    let rhs = (&m * &a + &h).rows(0, 6).into_owned();
    let jb_t = j.columns(0, 6).transpose();
    let lambda = jb_t.pseudo_inverse(1e-10).expect("SVD converges") * rhs;
    let mut tau = &m * &a + &h - j.transpose() * &lambda;
    tau.rows_mut(0, 6).fill(0.0);
    (
        std::array::from_fn(|k| a[k]),
        std::array::from_fn(|k| lambda[k]),
        std::array::from_fn(|k| tau[k]),
    )
}

/// The robot's mass: the vertical force that holds it still (kg).
fn total_mass() -> f64 {
    // m g = the vertical base force of gravity compensation at any posture.
    go2_z1::nonlinear_effects(&standing(), &[0.0; NV])[2] / 9.81
}

#[allow(dead_code)]
fn main() {
    let s = run(500, 0.3);
    println!("Go2 + Z1 standing on four point contacts, armature 0.02 kg·m² on the knees");
    println!(
        "{} steps of {} ms: arm posture error {:.3} rad -> {:.2e} rad",
        s.steps,
        DT * 1e3,
        s.arm_error.0,
        s.arm_error.1
    );
    println!(
        "contact acceleration |J a + γ| <= {:.1e} m/s²; plant vs controller (a, λ) <= {:.1e} (relative)",
        s.worst_contact_acceleration, s.worst_plant_mismatch
    );
    println!(
        "base rows of rnea(q, v, a) - Jᵀλ <= {:.1e} (nothing actuates the base)",
        s.worst_base_residual
    );
    println!(
        "vertical contact force {:.2} N against a weight of {:.2} N; smallest foot force {:.2} N",
        s.vertical_force.0, s.vertical_force.1, s.min_foot_force
    );
    println!(
        "centre of pressure ({:.4}, {:.4}) m, centre of mass over ({:.4}, {:.4}) m",
        s.cop_and_com.0[0], s.cop_and_com.0[1], s.cop_and_com.1[0], s.cop_and_com.1[1]
    );
    let path = plot::out_path(&plot::plots_dir(), "standing_wbc.png");
    let series = [plot::Styled {
        label: "largest arm joint error (rad)",
        points: s.trace.iter().map(|&(t, e, _)| (t, e)).collect(),
        color: 0,
        dashed: false,
    }];
    plot::styled_lines(
        &path,
        "Go2+Z1 arm back to home, feet in contact",
        ("t (s)", "rad"),
        &series,
        &[],
    )
    .expect("the plot is written");
    println!("plot: {}", path.display());
}

// The example's numbers, asserted: `cargo test --all-features --example
// standing_wbc` runs these.
#[cfg(test)]
mod tests {

    /// The whole-body loop on generated code: the plant's contact dynamics return
    /// the controller's own `(a, λ)`, the contacts do not accelerate, nothing acts
    /// on the base, the robot's weight rests on its feet, and the arm reaches home.
    #[test]
    fn standing_wbc_loop() {
        let s = super::run(500, 0.3);
        assert!(s.worst_plant_mismatch < 1e-8, "{s:?}");
        assert!(s.worst_contact_acceleration < 1e-8, "{s:?}");
        assert!(s.worst_base_residual < 1e-7, "{s:?}");
        assert!(s.arm_error.0 > 0.29 && s.arm_error.1 < 1e-3, "{s:?}");
        let (fz, weight) = s.vertical_force;
        assert!((fz - weight).abs() < 0.05 * weight, "{s:?}");
        assert!(s.min_foot_force > 0.0, "a foot pulls on the ground: {s:?}");
        let (cop, com) = s.cop_and_com;
        assert!((cop[0] - com[0]).hypot(cop[1] - com[1]) < 0.02, "{s:?}");
    }
}
