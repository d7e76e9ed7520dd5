//! A null-space task hierarchy on generated code: three-level velocity
//! inverse kinematics (feet fixed ≻ gripper pose ≻ posture), first on Go2 + Z1
//! standing on its four feet, then on G1 with both hands.
//!
//! Level `k` has a Jacobian `J_k` and a desired task velocity `ẋ_k`; with
//! `A_k = [J_1; ...; J_k]` stacked and `N_k = I - A_k⁺ A_k` (`N_0 = I`),
//!
//! ```text
//! v_k = v_{k-1} + (J_k N_{k-1})⁺ (ẋ_k - J_k v_{k-1})
//! ```
//!
//! so that a lower level can only move in the null space of the levels above.
//! The pseudo-inverses `⁺` come from nalgebra's SVD `J = U Σ Vᵀ` as
//! `V f(Σ) Uᵀ`, with three filters `f(σ)`:
//!
//! - **fixed damping** `σ / (σ² + λ²)`, `λ = 0.02` (damped least squares);
//! - **adaptive damping** (Nakamura–Hanafusa, Chiaverini): the same filter
//!   with `λ² = λ_max² (1 - (σ_min/ε)²)` when the smallest singular value
//!   `σ_min` falls below `ε = 0.05`, `λ = 0` otherwise (`λ_max = 0.05`);
//!   singular values below `1e-9 σ_max`, the exact zeros a projected
//!   Jacobian has by construction, are dropped and do not count as `σ_min`;
//! - **SVD truncation** `1/σ` for `σ > 0.01`, 0 below.
//!
//! The priority property (each level's error is unaffected by the levels
//! below it) is checked numerically in two ways: `‖J_k (v_final - v_k)‖` at
//! every step of an IK run, and the change of `J_1 v` and `J_2 v` when the
//! lower levels' targets are replaced by random ones. It holds to rounding for
//! truncation, and for adaptive damping away from singularities; fixed
//! damping trades it for bounded velocities (`N` is then not a projector:
//! `J N = λ² (J Jᵀ + λ²)⁻¹ J ≠ 0`). A second run sends the gripper to a target
//! 1 m out of reach, where the projected gripper Jacobian becomes singular.
//!
//! For G1 the stacked dual-hand Jacobian (12 x 35) has rank 12, a null space of
//! `nv - 12 = 23` dimensions; its arm-only block loses one rank per arm when
//! an elbow straightens (an elbow sweep shows it), the whole body does not.
//!
//! Run with `cargo run --release --example nullspace_hierarchy`; plots go to
//! `target/plots/nullspace_go2_z1.png` and `target/plots/nullspace_g1.png`.
//!
//! # Walkthrough
//!
//! Three-level velocity IK, highest priority first: the feet stay where they are
//! (Go2+Z1: `contact_jacobian`, four point feet, 12 rows; G1: `pose_error` of
//! both ankle-roll links, 12 rows), the end effector goes to a target pose
//! (`pose_error` of `gripper_link`, 6 rows; G1: both hands, 12 rows), and a
//! posture task (identity Jacobian, `difference(q, q_ref)`) takes what is left.
//! Each level is solved in the null space of the levels above it:
//!
//! ```text
//! v_k = v_{k-1} + (J_k N_{k-1})⁺ (ẋ_k - J_k v_{k-1}),   N_k = N_{k-1} (I - (J_k N_{k-1})⁺ J_k N_{k-1}),   N_0 = I
//! ```
//!
//! The pseudo-inverses come from nalgebra's SVD with four filters of the
//! singular values: **fixed damping** `σ/(σ² + λ²)`, `λ = 0.02`, in the
//! solutions and in the projectors; **fixed damping, exact N**, the same damping
//! in the solutions only, the projectors from the exact pseudo-inverse;
//! **adaptive damping**, `λ² = λ_max² (1 − (σ_min/ε)²)` only while `σ_min < ε =
//! 0.05` (`λ_max = 0.05`); **SVD truncation**, `1/σ` above 0.01 and 0 below. The
//! priority property is checked two ways: `‖J_k (v_final − v_k)‖` for the upper
//! levels at every step of a 3 s run (dt = 10 ms), and the change of the upper
//! levels' `J v` when the lower levels' targets are replaced by random ones.
//!
//! ```text
//! == Go2 + Z1, four feet fixed: feet (12 rows) > gripper pose (6) > posture (24)
//! null space left after each level: 12 -> 6 -> 0 of nv = 24
//!          fixed damping: after 3.0 s feet drift 1.2e3 m, gripper error 7.7e2, posture error 52073.898; priority leakage ‖J_k (v - v_k)‖ level 1 4.3e5, level 2 7.3e8
//! fixed damping, exact N: after 3.0 s feet drift 5.4e-10 m, gripper error 8.4e-4, posture error 0.770; priority leakage ‖J_k (v - v_k)‖ level 1 5.6e-11, level 2 3.0e-11
//!       adaptive damping: after 3.0 s feet drift 5.0e-10 m, gripper error 8.2e-4, posture error 0.771; priority leakage ‖J_k (v - v_k)‖ level 1 2.5e-14, level 2 1.6e-16
//!         SVD truncation: after 3.0 s feet drift 5.0e-10 m, gripper error 8.2e-4, posture error 0.771; priority leakage ‖J_k (v - v_k)‖ level 1 1.9e-14, level 2 1.9e-16
//! random lower-level targets (20 trials) change the higher levels' J v by at most:
//!          fixed damping: level 1 under random levels 2-3: 2.3e1; levels 1-2 under random level 3: 2.2e1
//! fixed damping, exact N: level 1 under random levels 2-3: 7.7e-11; levels 1-2 under random level 3: 4.6e-11
//!       adaptive damping: level 1 under random levels 2-3: 2.4e-14; levels 1-2 under random level 3: 1.5e-15
//!         SVD truncation: level 1 under random levels 2-3: 3.6e-14; levels 1-2 under random level 3: 2.0e-15
//! target 1 m out of reach (the arm and the legs stretch):
//!          fixed damping: smallest σ(J_feet) 2.1e-2, σ(J_gripper N_feet) 6.3e-5; largest ‖v‖ 3285747.3, final gripper error 418.804, feet drift 8.1e2 m, priority leakage level 1 3.8e5, level 2 5.4e8
//! fixed damping, exact N: smallest σ(J_feet) 2.8e-2, σ(J_gripper N_feet) 1.2e-3; largest ‖v‖ 12.4, final gripper error 0.279, feet drift 7.6e-3 m, priority leakage level 1 1.9e-8, level 2 9.2e-9
//!       adaptive damping: smallest σ(J_feet) 7.8e-2, σ(J_gripper N_feet) 4.6e-2; largest ‖v‖ 112.7, final gripper error 0.341, feet drift 5.6e-3 m, priority leakage level 1 2.8e-10, level 2 6.0e0
//!         SVD truncation: smallest σ(J_feet) 1.8e-2, σ(J_gripper N_feet) 3.1e-3; largest ‖v‖ 72.1, final gripper error 0.273, feet drift 2.4e-2 m, priority leakage level 1 2.4e-11, level 2 2.9e-2
//!
//! == G1, two 6-D feet fixed: feet (12 rows) > both hands' poses (12) > posture (35)
//! stacked dual-hand Jacobian at elbows 0.91 rad: rank 12 of 12, null space 23 = nv - 12 = 35 - 12; arms-only block rank 12; in the feet's null space rank 12
//! elbow sweep: the arms-only block is near-singular at elbows -1.711 rad (σ_min 1.9e-5, rank 12 above 1e-6); the whole body keeps rank 12 (σ_min 0.017), 12 in the feet's null space (σ_min 0.013)
//! elbow sweep: the arms-only block is near-singular at elbows 1.419 rad (σ_min 4.2e-4, rank 12 above 1e-6); the whole body keeps rank 12 (σ_min 0.209), 12 in the feet's null space (σ_min 0.135)
//! null space left after each level: 23 -> 11 -> 0
//!          fixed damping: after 3.0 s feet error 5.0e6, hands error 4.8e6, posture error 3209382.779; priority leakage level 1 3.2e8, level 2 4.6e13; ...
//! fixed damping, exact N: after 3.0 s feet error 1.4e-9, hands error 6.1e-4, posture error 0.880; priority leakage level 1 2.6e-11, level 2 2.8e-11; smallest σ(J_feet) 0.14, σ(J_hands N_feet) 0.169
//!       adaptive damping: after 3.0 s feet error 1.4e-9, hands error 5.9e-4, posture error 0.880; priority leakage level 1 1.2e-14, level 2 2.6e-16; smallest σ(J_feet) 0.14, σ(J_hands N_feet) 0.169
//!         SVD truncation: after 3.0 s feet error 1.4e-9, hands error 5.9e-4, posture error 0.880; priority leakage level 1 9.1e-15, level 2 2.1e-16; smallest σ(J_feet) 0.14, σ(J_hands N_feet) 0.169
//!
//! nalgebra's SVD: 36684 decompositions; the default call was inaccurate on 86 of them (worst ‖U Σ Vᵀ - A‖ = 1.0e-2, nalgebra#1172): the example retries on the transpose and on a turned copy and keeps a decomposition that reproduces A
//! ```
//!
//! What it shows:
//!
//! - **Strict priority needs exact projectors.** With SVD truncation, and with
//!   adaptive damping while it is inactive, no level's velocity changes by more
//!   than 4e-14 when lower levels are added or randomised, on both robots. Fixed
//!   damping in the projectors breaks the hierarchy outright: `N = I − J⁺_λ J`
//!   then keeps `λ²/(σ² + λ²)` of every direction it should remove, and the
//!   damped inverse of the posture level (`J_3 N_2 = N_2`) amplifies exactly
//!   those directions (by `≈ 1/σ²`), so the posture task drives the feet: the
//!   IK diverges. Damping confined to the tasks' solutions ("fixed damping,
//!   exact N") keeps the priority to 1e-10 and still bounds the speeds.
//! - **Near a singularity** (target 1 m away: legs and arm stretch, the
//!   projected gripper Jacobian's `σ_min` drops to 1e-3) truncation leaves speeds
//!   of up to 72 rad/s (`1/σ` just above the threshold) and chatters as directions
//!   cross it; adaptive damping keeps `σ_min` near `ε` but, active inside the
//!   projector, lets the posture level leak into the gripper's level (6.0);
//!   fixed damping with exact projectors stays smooth at 12 rad/s. The feet keep
//!   their priority (≤ 2e-8) with every exact projector.
//! - **G1**: the stacked dual-hand Jacobian (12 x 35) has full rank 12 and a
//!   null space of 35 − 12 = 23 dimensions; after the feet (12) and the hands (12)
//!   11 dimensions remain for the posture. Its arms-only block (12 x 14) comes
//!   close to losing rank when the elbows straighten (σ_min 2e-5 at −1.71 rad,
//!   past the elbows' −1.05 rad limit, and 4e-4 at 1.42 rad), while the whole body
//!   (waist and legs) keeps `σ_min ≥ 0.013` in the feet's null space.
//! - nalgebra's SVD (0.33) is sometimes inaccurate (`U Σ Vᵀ` off by up to 1e-2
//!   with orthonormal factors; dimforge/nalgebra#1172, open): 86 of the 36684
//!   decompositions of a run. Before the example checked them, one such
//!   decomposition (24 x 35, G1's feet and hands Jacobians stacked) showed up as
//!   a priority leak of 0.1 with adaptive damping; now every decomposition is
//!   checked and redone (on the transpose, on a copy turned by a fixed orthogonal
//!   matrix) when it misses.
//!
//! ![Go2+Z1 three-level IK: task errors per method, and the out-of-reach run](../docs/img/nullspace_go2_z1.png)
//! ![G1: smallest singular value of the dual-hand Jacobian along an elbow sweep, and the IK](../docs/img/nullspace_g1.png)
//!
//! The test (60 steps per run) asserts the priority property (leakage and random
//! lower levels below 1e-9 for the exact-projector methods, above 1e-3 for fixed
//! damping), the feet's priority out of reach (< 1e-6), the null-space
//! dimensions `12 → 6 → 0` and `23 → 11 → 0`, G1's rank 12 and null space 23, and
//! the near-singular elbow angles.

// NaN-aware comparisons on purpose (`!(e <= tol)` is true for NaN); the
// elbow limit is the URDF's number, not π/3.
#![allow(
    clippy::neg_cmp_op_on_partial_ord,
    clippy::assign_op_pattern,
    clippy::approx_constant
)]

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use nalgebra::{DMatrix, DVector};
use plotters::coord::Shift;
use plotters::prelude::*;

#[path = "common/plot.rs"]
mod plot;

rbdgen::robot_dynamics!(
    mod go2_z1,
    "models/go2_z1.urdf",
    floating_base,
    contacts = [FL_foot: point, FR_foot: point, RL_foot: point, RR_foot: point],
    frames = [FL_foot, FR_foot, RL_foot, RR_foot, gripper_link],
    functions = [contact_jacobian, pose_error, frame_placement, integrate, difference]
);

rbdgen::robot_dynamics!(
    mod g1,
    "models/g1_29dof.urdf",
    floating_base,
    frames = [left_ankle_roll_link, right_ankle_roll_link, left_rubber_hand, right_rubber_hand],
    functions = [pose_error, frame_jacobian_local_world_aligned, frame_placement, integrate, difference]
);

/// IK time step (s).
const DT: f64 = 0.01;
/// Steps of each IK run in `main` (3 s).
pub const STEPS: usize = 300;
/// Task gains (1/s): feet, end effector(s), posture.
const GAINS: [f64; 3] = [20.0, 2.0, 1.0];
/// Largest desired end-effector speed `‖ẋ_2‖` (m/s and rad/s mixed, as `log6`).
const MAX_TASK_SPEED: f64 = 0.5;
/// Singular values below this fraction of the largest are exact zeros.
const STRUCTURAL_ZERO: f64 = 1e-9;

/// How a pseudo-inverse filters the singular values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pinv {
    /// `σ / (σ² + λ²)`.
    Fixed {
        /// `λ`.
        lambda: f64,
    },
    /// `σ / (σ² + λ²)`, `λ² = λ_max² (1 - (σ_min/ε)²)` below `ε`, else 0.
    Adaptive {
        /// `ε`.
        epsilon: f64,
        /// `λ_max`.
        lambda_max: f64,
    },
    /// `1/σ` above `tolerance`, 0 below.
    Truncated {
        /// The smallest singular value kept.
        tolerance: f64,
    },
    /// `σ / (σ² + λ²)` for the tasks' solutions, but the projectors from the
    /// exact pseudo-inverse (structural zeros dropped): the remedy.
    FixedExactProjector {
        /// `λ`.
        lambda: f64,
    },
}

/// The methods compared: the three of the text, and fixed damping with exact projectors.
pub const METHODS: [Pinv; 4] = [
    Pinv::Fixed { lambda: 0.02 },
    Pinv::FixedExactProjector { lambda: 0.02 },
    Pinv::Adaptive {
        epsilon: 0.05,
        lambda_max: 0.05,
    },
    Pinv::Truncated { tolerance: 0.01 },
];

impl Pinv {
    /// Its name in the printout and the plots.
    pub fn name(self) -> &'static str {
        match self {
            Pinv::Fixed { .. } => "fixed damping",
            Pinv::Adaptive { .. } => "adaptive damping",
            Pinv::Truncated { .. } => "SVD truncation",
            Pinv::FixedExactProjector { .. } => "fixed damping, exact N",
        }
    }

    /// The pseudo-inverse `A_k⁺` of the stacked Jacobian in `N_k = I - A_k⁺ A_k`.
    pub fn projector(self, a: &DMatrix<f64>) -> DMatrix<f64> {
        match self {
            Pinv::FixedExactProjector { .. } => Pinv::Truncated { tolerance: 0.0 }.apply(a).0,
            _ => self.apply(a).0,
        }
    }

    /// `J⁺` (`n x m` for an `m x n` `J`) and the smallest singular value of `J`
    /// that is not a structural zero.
    pub fn apply(self, j: &DMatrix<f64>) -> (DMatrix<f64>, f64) {
        let (u, s, v_t) = svd(j);
        let s = &s;
        let zero = STRUCTURAL_ZERO * s.max().max(1.0);
        let sigma_min = s
            .iter()
            .copied()
            .filter(|&x| x > zero)
            .fold(f64::INFINITY, f64::min);
        let filter = |sigma: f64| match self {
            Pinv::Fixed { lambda } | Pinv::FixedExactProjector { lambda } => {
                sigma / (sigma * sigma + lambda * lambda)
            }
            Pinv::Adaptive {
                epsilon,
                lambda_max,
            } => {
                if sigma <= zero {
                    return 0.0;
                }
                let l2 = if sigma_min >= epsilon {
                    0.0
                } else {
                    lambda_max * lambda_max * (1.0 - (sigma_min / epsilon).powi(2))
                };
                sigma / (sigma * sigma + l2)
            }
            Pinv::Truncated { tolerance } => {
                if sigma > tolerance.max(zero) {
                    1.0 / sigma
                } else {
                    0.0
                }
            }
        };
        let f = DVector::from_iterator(s.len(), s.iter().map(|&x| filter(x)));
        (
            v_t.transpose() * DMatrix::from_diagonal(&f) * u.transpose(),
            sigma_min,
        )
    }
}

/// One level: `J_k v = ẋ_k`.
pub struct Task {
    /// `J_k`, `m_k x nv`.
    pub j: DMatrix<f64>,
    /// `ẋ_k`, `m_k`.
    pub xdot: DVector<f64>,
}

/// The solution of a hierarchy.
pub struct Solution {
    /// `v_k`, the velocity after levels `1..=k`; the last is the answer.
    pub partial: Vec<DVector<f64>>,
    /// `nv - rank(A_k)`: the null space left after levels `1..=k`.
    pub null_dims: Vec<usize>,
    /// Smallest singular value (not a structural zero) of `J_k N_{k-1}`.
    pub sigma_min: Vec<f64>,
}

impl Solution {
    /// The final velocity.
    pub fn v(&self) -> &DVector<f64> {
        self.partial.last().expect("one level at least")
    }
}

/// SVDs computed, and those where nalgebra's `svd` of the matrix as given
/// did not reproduce it (`‖U Σ Vᵀ - A‖ > 1e-10 max(1, ‖A‖)`), with the worst error.
static SVD_COUNT: AtomicUsize = AtomicUsize::new(0);
static SVD_DEFAULT_BAD: AtomicUsize = AtomicUsize::new(0);
static SVD_DEFAULT_WORST: AtomicU64 = AtomicU64::new(0);

/// `(SVDs, inaccurate ones from nalgebra's default call, worst reconstruction error)` so far.
pub fn svd_statistics() -> (usize, usize, f64) {
    (
        SVD_COUNT.load(Ordering::Relaxed),
        SVD_DEFAULT_BAD.load(Ordering::Relaxed),
        f64::from_bits(SVD_DEFAULT_WORST.load(Ordering::Relaxed)),
    )
}

fn reconstruction_error(
    a: &DMatrix<f64>,
    svd: &nalgebra::SVD<f64, nalgebra::Dyn, nalgebra::Dyn>,
) -> f64 {
    let (u, v_t) = (svd.u.as_ref().expect("U"), svd.v_t.as_ref().expect("Vᵀ"));
    (u * DMatrix::from_diagonal(&svd.singular_values) * v_t - a).amax()
}

/// A checked thin SVD `A = U Σ Vᵀ` (`U`, `σ`, `Vᵀ`). nalgebra's `svd` is at
/// times inaccurate (dimforge/nalgebra#1172, still open): on some of this
/// example's Jacobians and projectors `U Σ Vᵀ` misses `A` by up to 1e-2
/// with orthonormal `U` and `V`. So: decompose `A`, and while `U Σ Vᵀ`
/// misses it by more than `1e-12 max(1, ‖A‖)` retry on `Aᵀ`, on `A Q` and on
/// `Qᵀ A` (`Q` a fixed orthogonal matrix), each also with a tighter
/// convergence threshold; keep the best and panic when none reproduces `A`
/// to `1e-8 max(1, ‖A‖)`.
pub fn svd(a: &DMatrix<f64>) -> (DMatrix<f64>, DVector<f64>, DMatrix<f64>) {
    let scale = a.amax().max(1.0);
    SVD_COUNT.fetch_add(1, Ordering::Relaxed);
    let plain = a.clone().svd(true, true);
    let plain_error = reconstruction_error(a, &plain);
    if !(plain_error <= 1e-8 * scale) {
        SVD_DEFAULT_BAD.fetch_add(1, Ordering::Relaxed);
        // One atomic read-modify-write: `run` calls this from two threads.
        let _ = SVD_DEFAULT_WORST.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |bits| {
            Some(f64::from_bits(bits).max(plain_error).to_bits())
        });
    }
    let split = |svd: nalgebra::SVD<f64, nalgebra::Dyn, nalgebra::Dyn>, transposed: bool| {
        let (u, v_t) = (svd.u.expect("U"), svd.v_t.expect("Vᵀ"));
        if transposed {
            (v_t.transpose(), svd.singular_values, u.transpose())
        } else {
            (u, svd.singular_values, v_t)
        }
    };
    let mut best = (plain_error, split(plain, false));
    // Retries: the transpose, then the transpose and `A` turned by a fixed
    // orthogonal matrix (`Q A = (Q U) Σ Vᵀ`), each with a tighter threshold too.
    for attempt in 0..6 {
        if best.0 <= 1e-12 * scale {
            break;
        }
        let eps = if attempt % 2 == 0 {
            5.0 * f64::EPSILON
        } else {
            1e-17
        };
        let (m, transposed, turn) = match attempt / 2 {
            0 => (a.transpose(), true, None),
            1 => {
                let q = orthogonal(a.ncols());
                ((a * &q).transpose(), true, Some(q))
            }
            _ => {
                let q = orthogonal(a.nrows());
                (q.transpose() * a, false, Some(q))
            }
        };
        let Some(svd) = m.clone().try_svd(true, true, eps, 1_000_000) else {
            continue;
        };
        if reconstruction_error(&m, &svd) >= best.0 {
            continue;
        }
        let (mut u, sigma, mut v_t) = split(svd, transposed);
        // Undo the turn: A Q = U Σ Vᵀ -> A = U Σ (Q Vᵀᵀ)ᵀ; Qᵀ A = U Σ Vᵀ -> A = (Q U) Σ Vᵀ.
        match (attempt / 2, turn) {
            (1, Some(q)) => v_t = v_t * q.transpose(),
            (2, Some(q)) => u = q * u,
            _ => {}
        }
        let error = (&u * DMatrix::from_diagonal(&sigma) * &v_t - a).amax();
        if error < best.0 {
            best = (error, (u, sigma, v_t));
        }
    }
    assert!(
        best.0 <= 1e-8 * scale,
        "no accurate SVD of a {} x {} matrix: error {:e}",
        a.nrows(),
        a.ncols(),
        best.0
    );
    best.1
}

/// A fixed `n x n` orthogonal matrix (QR of a pseudo-random one).
fn orthogonal(n: usize) -> DMatrix<f64> {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let m = DMatrix::from_fn(n, n, |_, _| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    });
    m.qr().q()
}

/// The rank of `a` (singular values above `1e-9 σ_max`).
pub fn rank(a: &DMatrix<f64>) -> usize {
    let s = svd(a).1;
    let zero = STRUCTURAL_ZERO * s.max().max(1.0);
    s.iter().filter(|&&x| x > zero).count()
}

/// Solves the hierarchy `tasks` (highest priority first) with `method`.
pub fn solve(tasks: &[Task], method: Pinv) -> Solution {
    let n = tasks[0].j.ncols();
    let mut v = DVector::zeros(n);
    let mut stacked = DMatrix::<f64>::zeros(0, n);
    let mut null = DMatrix::<f64>::identity(n, n);
    let mut out = Solution {
        partial: vec![],
        null_dims: vec![],
        sigma_min: vec![],
    };
    for task in tasks {
        let projected = &task.j * &null;
        let (pinv, sigma_min) = method.apply(&projected);
        v += pinv * (&task.xdot - &task.j * &v);
        null = &null * (DMatrix::identity(n, n) - method.projector(&projected) * &projected);
        let rows = stacked.nrows();
        stacked = stacked.resize_vertically(rows + task.j.nrows(), 0.0);
        stacked.rows_mut(rows, task.j.nrows()).copy_from(&task.j);
        out.partial.push(v.clone());
        out.null_dims.push(n - rank(&stacked));
        out.sigma_min.push(sigma_min);
    }
    out
}

/// The priority property at one state of a three-level hierarchy:
/// `‖J_k (v_final - v_k)‖` for the levels `k = 1, 2` above the last.
pub fn leakage(tasks: &[Task], s: &Solution) -> [f64; 2] {
    std::array::from_fn(|k| (&tasks[k].j * (s.v() - &s.partial[k])).norm())
}

fn max2(a: [f64; 2], b: [f64; 2]) -> [f64; 2] {
    [a[0].max(b[0]), a[1].max(b[1])]
}

/// The priority property under random lower levels: the largest change of
/// `J_k v` (`k` above `level`) when the targets of levels `level..` are
/// replaced by random vectors (a fixed pseudo-random sequence, 20 trials).
pub fn perturbation_change(tasks: &[Task], method: Pinv, level: usize) -> f64 {
    let base = solve(tasks, method);
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut random = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let mut worst = 0.0f64;
    for _ in 0..20 {
        let changed: Vec<Task> = tasks
            .iter()
            .enumerate()
            .map(|(k, t)| Task {
                j: t.j.clone(),
                xdot: if k >= level {
                    DVector::from_fn(t.xdot.len(), |_, _| random())
                } else {
                    t.xdot.clone()
                },
            })
            .collect();
        let s = solve(&changed, method);
        for t in &tasks[..level] {
            worst = worst.max((&t.j * (s.v() - base.v())).norm());
        }
    }
    worst
}

fn matrix<const R: usize, const C: usize>(m: &[[f64; C]; R]) -> DMatrix<f64> {
    DMatrix::from_row_iterator(R, C, m.iter().flatten().copied())
}

/// The end effectors' desired velocity, at most `MAX_TASK_SPEED` in norm.
fn clamp(x: DVector<f64>) -> DVector<f64> {
    let n = x.norm();
    if n > MAX_TASK_SPEED {
        x * (MAX_TASK_SPEED / n)
    } else {
        x
    }
}

fn vector(x: &[f64]) -> DVector<f64> {
    DVector::from_row_slice(x)
}

// ---------------------------------------------------------------- Go2 + Z1

mod quadruped {
    use super::*;
    use go2_z1::{Frame, NQ, NV};

    /// The feet, in the contact set's order.
    const FEET: [Frame; 4] = [Frame::FLFoot, Frame::FRFoot, Frame::RLFoot, Frame::RRFoot];

    /// Standing (base 0.32 m up, thighs 0.8 rad, calves -1.5 rad), the arm raised
    /// and bent: shoulder 1.2 rad, elbow -1.0 rad.
    pub fn standing() -> [f64; NQ] {
        let mut q = go2_z1::NEUTRAL;
        q[2] = 0.32;
        for leg in 0..4 {
            q[7 + 3 * leg + 1] = 0.8;
            q[7 + 3 * leg + 2] = -1.5;
        }
        q[19..25].copy_from_slice(&[0.0, 1.2, -1.0, 0.0, 0.0, 0.0]);
        q
    }

    fn feet(q: &[f64; NQ]) -> Vec<f64> {
        FEET.iter()
            .flat_map(|&f| {
                let m = go2_z1::frame_placement(q, f);
                [m[0][3], m[1][3], m[2][3]]
            })
            .collect()
    }

    /// The three levels at `q`: feet at `feet0`, gripper at `target`, posture `q_ref`.
    fn tasks(q: &[f64; NQ], feet0: &[f64], target: &[[f64; 4]; 4], q_ref: &[f64; NQ]) -> [Task; 3] {
        let p = feet(q);
        let (e, j_e) = go2_z1::pose_error(q, target, Frame::GripperLink);
        let posture = go2_z1::difference(q, q_ref);
        [
            Task {
                j: matrix(&go2_z1::contact_jacobian(q)),
                xdot: DVector::from_fn(12, |r, _| -GAINS[0] * (p[r] - feet0[r])),
            },
            Task {
                j: matrix(&j_e),
                xdot: clamp(-GAINS[1] * vector(&e)),
            },
            Task {
                j: DMatrix::identity(NV, NV),
                xdot: GAINS[2] * vector(&posture),
            },
        ]
    }

    /// One IK run with `method` towards `target`.
    pub fn run(method: Pinv, target: &[[f64; 4]; 4], steps: usize) -> Run {
        let q0 = standing();
        let feet0 = feet(&q0);
        let mut q = q0;
        let mut out = Run::default();
        for step in 0..=steps {
            let t = tasks(&q, &feet0, target, &q0);
            let s = solve(&t, method);
            let e = go2_z1::pose_error(&q, target, Frame::GripperLink).0;
            let foot_error = feet(&q)
                .iter()
                .zip(&feet0)
                .map(|(a, b)| (a - b).powi(2))
                .sum::<f64>()
                .sqrt();
            out.trace.push(Sample {
                t: step as f64 * DT,
                errors: [
                    foot_error,
                    vector(&e).norm(),
                    vector(&go2_z1::difference(&q, &q0)).norm(),
                ],
                sigma_min: s.sigma_min[1],
                feet_sigma_min: s.sigma_min[0],
                speed: s.v().norm(),
            });
            out.leakage = max2(out.leakage, leakage(&t, &s));
            out.null_dims = s.null_dims.clone();
            let dv: [f64; NV] = std::array::from_fn(|k| DT * s.v()[k]);
            q = go2_z1::integrate(&q, &dv);
        }
        out
    }

    /// The gripper's placement at the standing posture moved by (0.10, 0.05,
    /// 0.10) m and turned 0.3 rad about the world's vertical; or, `far`, moved
    /// 1 m forward (out of reach).
    pub fn target(far: bool) -> [[f64; 4]; 4] {
        let mut m = go2_z1::frame_placement(&standing(), Frame::GripperLink);
        if far {
            m[0][3] += 1.0;
            return m;
        }
        let (s, c) = 0.3f64.sin_cos();
        let r = m;
        for col in 0..3 {
            m[0][col] = c * r[0][col] - s * r[1][col];
            m[1][col] = s * r[0][col] + c * r[1][col];
        }
        m[0][3] += 0.10;
        m[1][3] += 0.05;
        m[2][3] += 0.10;
        m
    }

    /// The priority property under random lower levels at the standing posture:
    /// `(change of J_1 v when levels 2, 3 are random, change of [J_1; J_2] v
    /// when level 3 is random)`.
    pub fn perturbation(method: Pinv) -> (f64, f64) {
        let q0 = standing();
        let t = tasks(&q0, &feet(&q0), &target(false), &q0);
        (
            perturbation_change(&t, method, 1),
            perturbation_change(&t, method, 2),
        )
    }
}

// ---------------------------------------------------------------- G1

mod humanoid {
    use super::*;
    use g1::{Frame, NQ, NV};

    /// The arms' dofs in `v`: left 21..28, right 28..35.
    pub const ARMS_V: std::ops::Range<usize> = 21..35;

    /// Standing with bent knees (hip pitch -0.3, knee 0.6, ankle pitch -0.3
    /// rad), arms forward: shoulder pitch -0.3, shoulder roll ±0.2, elbow `elbow`.
    pub fn standing(elbow: f64) -> [f64; NQ] {
        let mut q = g1::NEUTRAL;
        q[2] = 0.75;
        for leg in [7, 13] {
            q[leg] = -0.3;
            q[leg + 3] = 0.6;
            q[leg + 4] = -0.3;
        }
        for (arm, roll) in [(22, 0.2), (29, -0.2)] {
            q[arm] = -0.3;
            q[arm + 1] = roll;
            q[arm + 3] = elbow;
        }
        q
    }

    /// The stacked dual-hand Jacobian `[J_left; J_right]` (LOCAL_WORLD_ALIGNED, 12 x 35).
    pub fn hands_jacobian(q: &[f64; NQ]) -> DMatrix<f64> {
        let mut j = DMatrix::zeros(12, NV);
        for (k, f) in [Frame::LeftRubberHand, Frame::RightRubberHand]
            .into_iter()
            .enumerate()
        {
            j.rows_mut(6 * k, 6)
                .copy_from(&matrix(&g1::frame_jacobian_local_world_aligned(q, f)));
        }
        j
    }

    fn pose_tasks(q: &[f64; NQ], frames: [Frame; 2], targets: &[[[f64; 4]; 4]; 2]) -> Task {
        let mut j = DMatrix::zeros(12, NV);
        let mut e = DVector::zeros(12);
        for k in 0..2 {
            let (ek, jk) = g1::pose_error(q, &targets[k], frames[k]);
            j.rows_mut(6 * k, 6).copy_from(&matrix(&jk));
            e.rows_mut(6 * k, 6).copy_from(&vector(&ek));
        }
        Task { j, xdot: -e }
    }

    const FEET: [Frame; 2] = [Frame::LeftAnkleRollLink, Frame::RightAnkleRollLink];
    const HANDS: [Frame; 2] = [Frame::LeftRubberHand, Frame::RightRubberHand];

    fn tasks(
        q: &[f64; NQ],
        feet0: &[[[f64; 4]; 4]; 2],
        hands: &[[[f64; 4]; 4]; 2],
        q_ref: &[f64; NQ],
    ) -> [Task; 3] {
        let mut feet = pose_tasks(q, FEET, feet0);
        feet.xdot *= GAINS[0];
        let mut reach = pose_tasks(q, HANDS, hands);
        reach.xdot = clamp(reach.xdot * GAINS[1]);
        [
            feet,
            reach,
            Task {
                j: DMatrix::identity(NV, NV),
                xdot: GAINS[2] * vector(&g1::difference(q, q_ref)),
            },
        ]
    }

    /// Hands' targets: the left hand 0.15 m forward and 0.1 m up, the right
    /// hand 0.1 m forward and 0.15 m down.
    pub fn targets(q: &[f64; NQ]) -> [[[f64; 4]; 4]; 2] {
        let mut t = HANDS.map(|f| g1::frame_placement(q, f));
        t[0][0][3] += 0.15;
        t[0][2][3] += 0.10;
        t[1][0][3] += 0.10;
        t[1][2][3] -= 0.15;
        t
    }

    /// The hierarchy on G1 (feet ≻ hands ≻ posture), `steps` steps with `method`.
    pub fn run(method: Pinv, steps: usize) -> Run {
        let q0 = standing(0.9);
        let feet0 = FEET.map(|f| g1::frame_placement(&q0, f));
        let hands = targets(&q0);
        let mut q = q0;
        let mut out = Run::default();
        for step in 0..=steps {
            let t = tasks(&q, &feet0, &hands, &q0);
            let s = solve(&t, method);
            out.trace.push(Sample {
                t: step as f64 * DT,
                errors: [
                    pose_tasks(&q, FEET, &feet0).xdot.norm(),
                    pose_tasks(&q, HANDS, &hands).xdot.norm(),
                    vector(&g1::difference(&q, &q0)).norm(),
                ],
                sigma_min: s.sigma_min[1],
                feet_sigma_min: s.sigma_min[0],
                speed: s.v().norm(),
            });
            out.leakage = max2(out.leakage, leakage(&t, &s));
            out.null_dims = s.null_dims.clone();
            let dv: [f64; NV] = std::array::from_fn(|k| DT * s.v()[k]);
            q = g1::integrate(&q, &dv);
        }
        out
    }

    /// The feet's contact Jacobian (the two 6-D feet, LOCAL, 12 x 35).
    fn feet_jacobian(q: &[f64; NQ]) -> DMatrix<f64> {
        let target = FEET.map(|f| g1::frame_placement(q, f));
        pose_tasks(q, FEET, &target).j
    }

    /// Ranks and the smallest singular values of the dual-hand Jacobian at
    /// elbow angle `elbow` (both arms): whole body, arms only (14 columns),
    /// whole body projected in the feet's null space.
    pub fn hands_rank(elbow: f64) -> HandsRank {
        let q = standing(elbow);
        let j = hands_jacobian(&q);
        let arms = j.columns(ARMS_V.start, ARMS_V.len()).into_owned();
        let feet = feet_jacobian(&q);
        let null =
            DMatrix::identity(NV, NV) - Pinv::Truncated { tolerance: 0.0 }.apply(&feet).0 * &feet;
        let projected = &j * null;
        let smallest = |m: &DMatrix<f64>| svd(m).1.min();
        HandsRank {
            elbow,
            rank: rank(&j),
            null_dim: NV - rank(&j),
            arms_rank: rank_tol(&arms, 1e-6),
            projected_rank: rank(&projected),
            sigma_min: [smallest(&j), smallest(&arms), smallest(&projected)],
        }
    }

    fn rank_tol(a: &DMatrix<f64>, tol: f64) -> usize {
        svd(a).1.iter().filter(|&&x| x > tol).count()
    }
}

/// One sample of an IK run.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Time (s).
    pub t: f64,
    /// Errors of the three levels: feet (m, or pose error norm for G1),
    /// end-effector pose error norm, posture error norm.
    pub errors: [f64; 3],
    /// Smallest singular value of the projected end-effector Jacobian `J_2 N_1`.
    pub sigma_min: f64,
    /// Smallest singular value of the feet's Jacobian `J_1`.
    pub feet_sigma_min: f64,
    /// `‖v‖`.
    pub speed: f64,
}

/// An IK run.
#[derive(Debug, Default)]
pub struct Run {
    /// Per step.
    pub trace: Vec<Sample>,
    /// Largest `‖J_k (v_final - v_k)‖` over the steps, for the levels 1 and 2.
    pub leakage: [f64; 2],
    /// `nv - rank(A_k)` after each level (at the last step).
    pub null_dims: Vec<usize>,
}

impl Run {
    /// The smallest `σ_min(J_1)` and `σ_min(J_2 N_1)` over the run.
    pub fn sigma_min(&self) -> [f64; 2] {
        let f = |g: fn(&Sample) -> f64| self.trace.iter().map(g).fold(f64::MAX, f64::min);
        [f(|x| x.feet_sigma_min), f(|x| x.sigma_min)]
    }
}

/// The dual-hand Jacobian of G1 at one elbow angle.
#[derive(Clone, Copy, Debug)]
pub struct HandsRank {
    /// Both elbows' angle (rad).
    pub elbow: f64,
    /// Rank of the whole-body `[J_left; J_right]` (12 x 35).
    pub rank: usize,
    /// `nv - rank`.
    pub null_dim: usize,
    /// Rank of its arms' block (12 x 14), singular values above 1e-6.
    pub arms_rank: usize,
    /// Rank in the feet's null space, `[J_left; J_right] N_feet`.
    pub projected_rank: usize,
    /// Smallest singular values: whole body, arms only, projected.
    pub sigma_min: [f64; 3],
}

/// Everything the example shows.
#[derive(Debug)]
pub struct Summary {
    /// Go2 + Z1, reachable target, per method.
    pub go2_reach: Vec<(Pinv, Run)>,
    /// Go2 + Z1, target 1 m out of reach, per method.
    pub go2_far: Vec<(Pinv, Run)>,
    /// Go2 + Z1, per method: change of `J_1 v` under random levels 2-3, of
    /// `[J_1; J_2] v` under a random level 3.
    pub go2_perturbation: Vec<(Pinv, (f64, f64))>,
    /// G1, per method.
    pub g1: Vec<(Pinv, Run)>,
    /// G1's dual-hand Jacobian along an elbow sweep.
    pub g1_sweep: Vec<HandsRank>,
    /// ... at the elbow angles where its arms' block is closest to singular
    /// (the sweep's local minima of its smallest singular value, refined).
    pub g1_singular: Vec<HandsRank>,
}

/// Computes everything, IK runs of `steps` steps (no printing, no plots).
pub fn run(steps: usize) -> Summary {
    // The humanoid's runs and the quadruped's are independent: one thread
    // each (a panic in either is raised again here).
    std::thread::scope(|scope| {
        let humanoid = scope.spawn(|| humanoid_runs(steps));
        let near = quadruped::target(false);
        let far = quadruped::target(true);
        let go2_reach = METHODS
            .iter()
            .map(|&m| (m, quadruped::run(m, &near, steps)))
            .collect();
        let go2_far = METHODS
            .iter()
            .map(|&m| (m, quadruped::run(m, &far, steps)))
            .collect();
        let go2_perturbation = METHODS
            .iter()
            .map(|&m| (m, quadruped::perturbation(m)))
            .collect();
        let (g1, g1_sweep, g1_singular) = humanoid
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        Summary {
            go2_reach,
            go2_far,
            go2_perturbation,
            g1,
            g1_sweep,
            g1_singular,
        }
    })
}

/// G1's part of [`run`]: the IK runs, the elbow sweep of the hands' rank and
/// the minima of the arms' smallest singular value along it.
#[allow(clippy::type_complexity)]
fn humanoid_runs(steps: usize) -> (Vec<(Pinv, Run)>, Vec<HandsRank>, Vec<HandsRank>) {
    let sweep: Vec<HandsRank> = (0..=90)
        .map(|k| -2.2 + 4.3 * k as f64 / 90.0)
        .map(humanoid::hands_rank)
        .collect();
    // Golden-section search of the arms' smallest singular value around each
    // local minimum of the sweep.
    let f = |e: f64| humanoid::hands_rank(e).sigma_min[1];
    let singular = sweep
        .windows(3)
        .filter(|w| w[1].sigma_min[1] < w[0].sigma_min[1] && w[1].sigma_min[1] < w[2].sigma_min[1])
        .map(|w| {
            let (mut a, mut b) = (w[0].elbow, w[2].elbow);
            let g = (5f64.sqrt() - 1.0) / 2.0;
            for _ in 0..60 {
                let (c, d) = (b - g * (b - a), a + g * (b - a));
                if f(c) < f(d) {
                    b = d;
                } else {
                    a = c;
                }
            }
            humanoid::hands_rank(0.5 * (a + b))
        })
        .collect();
    let runs = METHODS
        .iter()
        .map(|&m| (m, humanoid::run(m, steps)))
        .collect();
    (runs, sweep, singular)
}

// ---------------------------------------------------------------- plots

/// One line of a panel.
struct Line {
    label: String,
    color: RGBColor,
    points: Vec<(f64, f64)>,
}

const COLORS: [RGBColor; 4] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
];

/// A panel with a linear x axis and a logarithmic y axis.
fn log_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    (x_label, y_label): (&str, &str),
    lines: &[Line],
    marker: Option<(f64, &str)>,
) -> Result<(), Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    let floor = 1e-12;
    let pts = lines.iter().flat_map(|l| l.points.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in pts {
        let y = y.max(floor);
        (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
    }
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(36)
        .y_label_area_size(64)
        .build_cartesian_2d(x0..x1, (y0 / 3.0..y1 * 3.0).log_scale())?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .y_label_formatter(&|y| format!("{y:.0e}"))
        .max_light_lines(1)
        .y_labels(6)
        .label_style(("sans-serif", 13))
        .draw()?;
    for l in lines {
        let color = l.color;
        chart
            .draw_series(LineSeries::new(
                l.points.iter().map(|&(x, y)| (x, y.max(floor))),
                color.stroke_width(2),
            ))?
            .label(l.label.clone())
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], color.stroke_width(2)));
    }
    if let Some((x, label)) = marker {
        chart
            .draw_series(LineSeries::new(
                [(x, y0 / 3.0), (x, y1 * 3.0)],
                BLACK.stroke_width(1),
            ))?
            .label(label)
            .legend(|(x, y)| PathElement::new([(x, y), (x + 18, y)], BLACK));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 13))
        .draw()?;
    Ok(())
}

const LEVELS: [&str; 3] = ["feet", "gripper pose", "posture"];

/// Go2+Z1's velocity IK, feet fixed > gripper pose > posture: each level's
/// task error along the IK, per damped pseudo-inverse; written to
/// `dir/nullspace_go2_z1.png`.
pub fn plot_go2(
    s: &Summary,
    dir: &std::path::Path,
) -> Result<std::path::PathBuf, Box<dyn std::error::Error>> {
    plot::fonts();
    let path = plot::out_path(dir, "nullspace_go2_z1.png");
    let file = path.clone();
    let root = BitMapBackend::new(&file, (1400, 840)).into_drawing_area();
    root.fill(&WHITE)?;
    let root = root.titled(
        "Go2+Z1 velocity IK: feet fixed > gripper pose > posture",
        ("sans-serif", 24),
    )?;
    let (top, bottom) = root.split_vertically(410);
    let top = top.split_evenly((1, 4));
    for ((method, run), area) in s.go2_reach.iter().zip(&top) {
        let lines: Vec<Line> = (0..3)
            .map(|k| Line {
                label: format!("level {}: {}", k + 1, LEVELS[k]),
                color: COLORS[k],
                points: run
                    .trace
                    .iter()
                    .step_by(3)
                    .map(|x| (x.t, x.errors[k]))
                    .collect(),
            })
            .collect();
        log_panel(
            area,
            &format!("reachable target, {}", method.name()),
            ("t (s)", "task error (m, rad)"),
            &lines,
            None,
        )?;
    }
    let bottom = bottom.split_evenly((1, 3));
    let panels: [(&str, &str, fn(&Sample) -> f64); 3] = [
        (
            "1 m out of reach: gripper error (fixed damping not shown)",
            "pose error (m, rad)",
            |x| x.errors[1],
        ),
        (
            "smallest singular value of J_gripper N_feet",
            "σ_min",
            |x| x.sigma_min,
        ),
        ("joint speed ‖v‖", "‖v‖ (rad/s, m/s)", |x| x.speed),
    ];
    for ((title, y_label, f), area) in panels.iter().zip(&bottom) {
        let lines: Vec<Line> = s
            .go2_far
            .iter()
            .enumerate()
            .skip(1)
            .map(|(k, (m, run))| Line {
                label: m.name().to_string(),
                color: COLORS[k],
                points: run.trace.iter().step_by(3).map(|x| (x.t, f(x))).collect(),
            })
            .collect();
        log_panel(area, title, ("t (s)", y_label), &lines, None)?;
    }
    root.present()?;
    Ok(path)
}

/// G1: the smallest singular value of the dual-hand Jacobian along an elbow
/// sweep, and the feet > hands > posture IK's errors; written to
/// `dir/nullspace_g1.png`.
pub fn plot_g1(
    s: &Summary,
    dir: &std::path::Path,
) -> Result<std::path::PathBuf, Box<dyn std::error::Error>> {
    plot::fonts();
    let path = plot::out_path(dir, "nullspace_g1.png");
    let file = path.clone();
    let root = BitMapBackend::new(&file, (1500, 520)).into_drawing_area();
    root.fill(&WHITE)?;
    let root = root.titled(
        "G1: dual-hand Jacobian along an elbow sweep; feet > hands > posture IK",
        ("sans-serif", 24),
    )?;
    let areas = root.split_evenly((1, 2));
    let names = [
        "whole body [J_L; J_R] (12 x 35)",
        "arms only (12 x 14)",
        "whole body in the feet's null space",
    ];
    let lines: Vec<Line> = (0..3)
        .map(|k| Line {
            label: names[k].to_string(),
            color: COLORS[k],
            points: s
                .g1_sweep
                .iter()
                .map(|h| (h.elbow, h.sigma_min[k]))
                .collect(),
        })
        .collect();
    log_panel(
        &areas[0],
        "smallest singular value vs both elbows' angle",
        ("elbow angle (rad)", "σ_min"),
        &lines,
        Some((-1.0472, "elbow lower limit")),
    )?;
    let (_, run) = &s.g1[2];
    let lines: Vec<Line> = (0..3)
        .map(|k| Line {
            label: format!("level {}: {}", k + 1, ["feet", "hands", "posture"][k]),
            color: COLORS[k],
            points: run
                .trace
                .iter()
                .step_by(3)
                .map(|x| (x.t, x.errors[k]))
                .collect(),
        })
        .collect();
    log_panel(
        &areas[1],
        "hierarchy with adaptive damping",
        ("t (s)", "pose / posture error norm"),
        &lines,
        None,
    )?;
    root.present()?;
    Ok(path)
}

#[allow(dead_code)]
fn main() {
    let s = run(STEPS);
    println!("== Go2 + Z1, four feet fixed: feet (12 rows) > gripper pose (6) > posture (24)");
    let dims = &s.go2_reach[2].1.null_dims;
    println!(
        "null space left after each level: {} -> {} -> {} of nv = {}",
        dims[0],
        dims[1],
        dims[2],
        go2_z1::NV
    );
    for (m, run) in &s.go2_reach {
        let last = run.trace.last().expect("steps");
        println!(
            "{:>22}: after {:.1} s feet drift {:.1e} m, gripper error {:.1e}, posture error {:.3}; \
             priority leakage ‖J_k (v - v_k)‖ level 1 {:.1e}, level 2 {:.1e}",
            m.name(),
            last.t,
            last.errors[0],
            last.errors[1],
            last.errors[2],
            run.leakage[0],
            run.leakage[1]
        );
    }
    println!("random lower-level targets (20 trials) change the higher levels' J v by at most:");
    for (m, (one, two)) in &s.go2_perturbation {
        println!(
            "{:>22}: level 1 under random levels 2-3: {one:.1e}; levels 1-2 under random level 3: {two:.1e}",
            m.name()
        );
    }
    println!("target 1 m out of reach (the arm and the legs stretch):");
    for (m, run) in &s.go2_far {
        let vmax = run.trace.iter().map(|x| x.speed).fold(0.0, f64::max);
        let last = run.trace.last().expect("steps");
        println!(
            "{:>22}: smallest σ(J_feet) {:.1e}, σ(J_gripper N_feet) {:.1e}; largest ‖v‖ {vmax:.1}, \
             final gripper error {:.3}, feet drift {:.1e} m, priority leakage level 1 {:.1e}, level 2 {:.1e}",
            m.name(),
            run.sigma_min()[0],
            run.sigma_min()[1],
            last.errors[1],
            last.errors[0],
            run.leakage[0],
            run.leakage[1]
        );
    }

    println!("\n== G1, two 6-D feet fixed: feet (12 rows) > both hands' poses (12) > posture (35)");
    let at = |e: f64| {
        s.g1_sweep
            .iter()
            .min_by(|a, b| (a.elbow - e).abs().total_cmp(&(b.elbow - e).abs()))
            .expect("sweep")
    };
    let bent = at(0.9);
    println!(
        "stacked dual-hand Jacobian at elbows {:.2} rad: rank {} of 12, null space {} = nv - 12 = {} - 12; \
         arms-only block rank {}; in the feet's null space rank {}",
        bent.elbow,
        bent.rank,
        bent.null_dim,
        g1::NV,
        bent.arms_rank,
        bent.projected_rank
    );
    for near in &s.g1_singular {
        println!(
            "elbow sweep: the arms-only block is near-singular at elbows {:.3} rad (σ_min {:.1e}, rank {} above 1e-6); \
             the whole body keeps rank {} (σ_min {:.3}), {} in the feet's null space (σ_min {:.3})",
            near.elbow,
            near.sigma_min[1],
            near.arms_rank,
            near.rank,
            near.sigma_min[0],
            near.projected_rank,
            near.sigma_min[2]
        );
    }
    let dims = &s.g1[2].1.null_dims;
    println!(
        "null space left after each level: {} -> {} -> {}",
        dims[0], dims[1], dims[2]
    );
    for (m, run) in &s.g1 {
        let last = run.trace.last().expect("steps");
        println!(
            "{:>22}: after {:.1} s feet error {:.1e}, hands error {:.1e}, posture error {:.3}; \
             priority leakage level 1 {:.1e}, level 2 {:.1e}; smallest σ(J_feet) {:.2}, σ(J_hands N_feet) {:.3}",
            m.name(),
            last.t,
            last.errors[0],
            last.errors[1],
            last.errors[2],
            run.leakage[0],
            run.leakage[1],
            run.sigma_min()[0],
            run.sigma_min()[1]
        );
    }
    let (count, bad, worst) = svd_statistics();
    println!(
        "\nnalgebra's SVD: {count} decompositions; the default call was inaccurate on {bad} of them \
         (worst ‖U Σ Vᵀ - A‖ = {worst:.1e}, nalgebra#1172): the example retries on the transpose and on a turned copy \
         and keeps a decomposition that reproduces A"
    );
    let a = plot_go2(&s, &plot::plots_dir()).expect("the plot is written");
    let b = plot_g1(&s, &plot::plots_dir()).expect("the plot is written");
    println!("plots: {} {}", a.display(), b.display());
}

// The example's numbers, asserted: `cargo test --all-features --example
// nullspace_hierarchy` runs these.
#[cfg(test)]
#[path = "common/check.rs"]
mod check;

#[cfg(test)]
mod tests {
    use super::check;
    use super::Pinv;

    /// The priority property: with exact projectors (SVD truncation, adaptive
    /// damping while inactive, fixed damping confined to the tasks' solutions)
    /// no level's task velocity changes when the lower levels are added or
    /// replaced by random ones; fixed damping inside the projectors loses it. The
    /// null spaces have the expected dimensions, G1's dual-hand Jacobian has rank
    /// 12 (null space nv - 12 = 23), and the IK reaches its targets.
    #[test]
    fn nullspace_hierarchy_priority() {
        let s = super::run(60);
        let dir = check::plot_dir("nullspace_hierarchy");
        for p in [super::plot_go2(&s, &dir), super::plot_g1(&s, &dir)] {
            check::assert_drawn(&p.expect("the plot is written"), 400, 16);
        }
        let exact = |m: &Pinv| !matches!(m, Pinv::Fixed { .. });
        for (m, run) in &s.go2_reach {
            if exact(m) {
                assert_eq!(run.null_dims, [12, 6, 0], "{m:?}");
                assert!(
                    run.leakage[0] < 1e-9 && run.leakage[1] < 1e-9,
                    "{m:?} {:?}",
                    run.leakage
                );
                let first = run.trace[0];
                let last = run.trace.last().unwrap();
                assert!(last.errors[0] < 1e-5, "feet drift {m:?} {last:?}");
                assert!(
                    last.errors[1] < 0.5 * first.errors[1],
                    "gripper {m:?} {last:?}"
                );
            } else {
                assert!(
                    run.leakage[0] > 1e-3,
                    "fixed damping leaks: {:?}",
                    run.leakage
                );
            }
        }
        for (m, (one, two)) in &s.go2_perturbation {
            if exact(m) {
                assert!(*one < 1e-9 && *two < 1e-9, "{m:?}: {one} {two}");
            } else {
                assert!(*one > 1e-3, "{m:?}: {one}");
            }
        }
        // Out of reach: the feet keep their priority for every exact method.
        for (m, run) in &s.go2_far {
            if exact(m) {
                assert!(run.leakage[0] < 1e-6, "{m:?} {:?}", run.leakage);
            }
        }
        for (m, run) in &s.g1 {
            if exact(m) {
                assert_eq!(run.null_dims, [23, 11, 0], "{m:?}");
                assert!(
                    run.leakage[0] < 1e-9 && run.leakage[1] < 1e-9,
                    "{m:?} {:?}",
                    run.leakage
                );
                assert!(run.trace.last().unwrap().errors[0] < 1e-5, "{m:?}");
            }
        }
        let bent = s
            .g1_sweep
            .iter()
            .min_by(|a, b| (a.elbow - 0.9).abs().total_cmp(&(b.elbow - 0.9).abs()))
            .unwrap();
        assert_eq!(
            (bent.rank, bent.null_dim, bent.projected_rank),
            (12, 23, 12)
        );
        assert!(!s.g1_singular.is_empty());
        for near in &s.g1_singular {
            assert!(near.sigma_min[1] < 1e-3, "{near:?}");
            assert!(near.sigma_min[0] > 1e-2 && near.rank == 12, "{near:?}");
        }
        let (count, _, _) = super::svd_statistics();
        assert!(count > 0);
    }
}
