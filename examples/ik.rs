//! Inverse kinematics of the Z1 arm on a standing Go2: damped least squares
//! with a backtracking line search on the generated `pose_error` of
//! `gripper_link`. The base and the legs stay fixed; only the arm's six dofs
//! move (the columns 18..24 of `J_e`).
//!
//! Two targets: a reachable one (the gripper's placement at another arm
//! configuration) and an unreachable one (that placement moved 2 m away).
//! Each run prints the error norm per iteration and ends with `converged`
//! (`‖e‖ < TOLERANCE`), `failed: no descent` (the line search finds no step
//! that lowers `‖e‖`) or `failed: iteration limit`.
//!
//! Run with `cargo run --release --example ik`.

rbdgen::robot_dynamics!(
    mod go2_z1,
    "models/go2_z1.urdf",
    floating_base,
    functions = [pose_error, integrate, frame_placement]
);

use go2_z1::{Frame, NQ, NV};

/// The arm's dofs in `v` (joints `joint1` .. `joint6`, after the free-flyer's 6
/// and the legs' 12).
const ARM: std::ops::Range<usize> = 18..24;
/// Convergence: `‖e‖` (m and rad mixed, as `log6` gives them) below this.
const TOLERANCE: f64 = 1e-10;
/// Damping `λ` of `(JᵀJ + λ I) δ = -Jᵀ e`.
const DAMPING: f64 = 1e-8;
const MAX_ITERATIONS: usize = 200;
/// The line search halves the step down to this fraction of it.
const MIN_STEP: f64 = 1e-10;

/// How a run ended.
#[derive(Debug, PartialEq)]
enum Outcome {
    Converged,
    NoDescent,
    IterationLimit,
}

fn main() {
    // Standing: base 0.32 m up, legs folded (thigh 0.8 rad, calf -1.5 rad), arm at zero.
    let mut standing = go2_z1::NEUTRAL;
    standing[2] = 0.32;
    for leg in 0..4 {
        standing[7 + 3 * leg + 1] = 0.8;
        standing[7 + 3 * leg + 2] = -1.5;
    }
    // The target: the gripper at another arm configuration.
    let mut elsewhere = standing;
    let arm_q = 7 + ARM.start - 6;
    elsewhere[arm_q..arm_q + 6].copy_from_slice(&[0.6, 1.2, -0.9, 0.4, -0.5, 0.7]);
    let reachable = go2_z1::frame_placement(&elsewhere, Frame::GripperLink);
    let mut unreachable = reachable;
    unreachable[0][3] += 2.0;

    let first = solve("reachable target", &standing, &reachable);
    let second = solve("unreachable target (2 m away)", &standing, &unreachable);
    assert_eq!(
        first,
        Outcome::Converged,
        "the reachable target must be reached"
    );
    assert_ne!(
        second,
        Outcome::Converged,
        "the unreachable target cannot be reached"
    );
}

fn norm(x: &[f64]) -> f64 {
    x.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// The error and its Jacobian restricted to the arm's columns, `[6 x 6]`.
fn error(q: &[f64; NQ], target: &[[f64; 4]; 4]) -> ([f64; 6], [[f64; 6]; 6]) {
    let (e, j) = go2_z1::pose_error(q, target, Frame::GripperLink);
    (e, j.map(|row| row[ARM].try_into().unwrap()))
}

/// Damped least squares from `q0` to `target`, printing each iteration.
fn solve(title: &str, q0: &[f64; NQ], target: &[[f64; 4]; 4]) -> Outcome {
    println!("== {title}");
    let mut q = *q0;
    let (mut e, mut j) = error(&q, target);
    for iteration in 0..MAX_ITERATIONS {
        let e_norm = norm(&e);
        println!("iteration {iteration:3}: |e| = {e_norm:.3e}");
        if e_norm < TOLERANCE {
            println!("converged after {iteration} iterations: |e| = {e_norm:.3e}\n");
            return Outcome::Converged;
        }
        let step = damped_step(&j, &e);
        // Backtracking: halve until |e| decreases enough (Armijo on ½|e|²).
        let mut alpha = 1.0;
        let accepted = loop {
            let mut dv = [0.0; NV];
            for (k, s) in ARM.zip(step) {
                dv[k] = alpha * s;
            }
            let q_try = go2_z1::integrate(&q, &dv);
            let (e_try, j_try) = error(&q_try, target);
            if norm(&e_try).powi(2) <= (1.0 - 1e-4 * alpha) * e_norm * e_norm {
                break Some((q_try, e_try, j_try));
            }
            alpha *= 0.5;
            if alpha < MIN_STEP {
                break None;
            }
        };
        match accepted {
            Some((q_next, e_next, j_next)) => (q, e, j) = (q_next, e_next, j_next),
            None => {
                println!("failed: no descent after {iteration} iterations: |e| = {e_norm:.3e}\n");
                return Outcome::NoDescent;
            }
        }
    }
    println!(
        "failed: iteration limit ({MAX_ITERATIONS}): |e| = {:.3e}\n",
        norm(&e)
    );
    Outcome::IterationLimit
}

/// `δ = -(JᵀJ + λ I)⁻¹ Jᵀ e` by Cholesky (the matrix is positive definite for λ > 0).
fn damped_step(j: &[[f64; 6]; 6], e: &[f64; 6]) -> [f64; 6] {
    let mut a = [[0.0; 6]; 6];
    let mut b = [0.0; 6];
    for r in 0..6 {
        for c in 0..6 {
            a[r][c] = (0..6).map(|k| j[k][r] * j[k][c]).sum::<f64>();
        }
        a[r][r] += DAMPING;
        b[r] = -(0..6).map(|k| j[k][r] * e[k]).sum::<f64>();
    }
    // a = L Lᵀ, in place (lower triangle).
    for c in 0..6 {
        let d = a[c][c] - (0..c).map(|k| a[c][k] * a[c][k]).sum::<f64>();
        a[c][c] = d.sqrt();
        for r in c + 1..6 {
            a[r][c] = (a[r][c] - (0..c).map(|k| a[r][k] * a[c][k]).sum::<f64>()) / a[c][c];
        }
    }
    for r in 0..6 {
        b[r] = (b[r] - (0..r).map(|k| a[r][k] * b[k]).sum::<f64>()) / a[r][r];
    }
    for r in (0..6).rev() {
        b[r] = (b[r] - (r + 1..6).map(|k| a[k][r] * b[k]).sum::<f64>()) / a[r][r];
    }
    b
}
