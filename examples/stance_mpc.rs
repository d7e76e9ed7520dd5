//! An MPC with the feet down: Go2+Z1 stands on its four feet (point
//! contacts) and swings its arm, and a short time-varying LQR on the stance
//! step's linearization holds the base where it is.
//!
//! Model: `contact_step_linearization_masked(q, v, u, h, active, damping) ->
//! (q⁺, v⁺, A, B)` of `robot_dynamics!`, one semi-implicit Euler step with
//! `v̇` from `contact_dynamics` on the feet that the run-time contact mask
//! `active` marks (here all four, [`STANCE`], at every knot: a gait would
//! change the mask knot by knot, with no other module), `δx⁺ ≈ A δx + B δu`
//! in the tangent space (`δx = (δq, δv)`, 48 states, `u` the 18 actuated
//! joints).
//!
//! 1. **Linearization three ways.** The horizon's 20 knots (mid-swing, moving
//!    arm, the stance's torques) go through the scalar function knot by knot,
//!    `lanes::contact_step_linearization_masked_batch` (four knots per instruction
//!    stream) and `..._batch_par` (that batch on rayon's threads); the lanes
//!    must match the scalar results to 1e-13 relative, the threads the lanes
//!    bit for bit. Times are indicative (one process on a shared machine).
//! 2. **A and B against central differences** of the stance step's `(q⁺, v⁺)`
//!    at one knot (`q ⊕ ±ε e_j`, `v ± ε e_j`, `u ± ε e_j`, `ε = 1e-6`, the
//!    output mapped by `difference(q⁺, ·)`): the largest entry error relative
//!    to the largest entry.
//! 3. **Closed loop.** Every 10 ms the MPC linearizes its 20 knots (0.2 s) at
//!    the previous solution shifted by one knot, with the measured state as
//!    the first knot (one batch on the threads), runs the Riccati recursion of
//!    the affine LQR (the knots' defects and the errors from the reference as
//!    affine terms) and applies the first input. The reference keeps the base
//!    and the legs at the standing posture and swings four arm joints
//!    (`(1 - cos πt) / 2` profiles, up to 0.9 rad); the input is penalised
//!    against the static torques that hold the robot up, so the torques that
//!    move the arm and absorb its reaction come from the linearization alone.
//!    The plant is the same stance step (`q⁺, v⁺` of
//!    `contact_step_linearization_masked`), and `contact_dynamics_masked` gives the contact
//!    forces recorded.
//!
//! Damping 0: the four point feet of the quadruped give a full-rank 12 x 24
//! contact Jacobian, so `J M⁻¹ Jᵀ` is invertible and the constraint exact;
//! damping (e.g. 1e-8) is for redundant contact sets (a 6-D foot and a point
//! on the same link, two hands on one object). Semi-implicit Euler holds the
//! feet's accelerations, not their positions, so the feet drift at second
//! order (printed).
//!
//! Output: the numbers in words, and `target/plots/stance_mpc.png` (the
//! base's drift in mm, the four feet's vertical forces in N, the arm's
//! tracking error in mrad) over the 3 s.
//!
//! Run with `cargo run --release --features rayon --example stance_mpc`
//! (native code: the workspace's `.cargo/config.toml`). Its release build (the generated module: the
//! masked stance step with its derivatives and `contact_dynamics_masked`,
//! scalar and 4 lanes, about 110k operations) took 30 s after its
//! dependencies on this machine (2 cores, 2026-12-07, nothing else running).
//!
//! # Walkthrough
//!
//! Go2+Z1 stands on its four feet (point contacts) and swings its arm (four
//! joints, up to 0.9 rad, a 2 s period) while an MPC holds the base where it is.
//! The model is `contact_step_linearization_masked(q, v, u, h, active, damping) -> (q⁺, v⁺, A,
//! B)`, all four feet active: one semi-implicit Euler step with `v̇` from `contact_dynamics` on the
//! module's `contacts = [FL_foot: point, ...]`, `δx⁺ ≈ A δx + B δu` in the
//! tangent space (48 states, 18 actuated joints). The example
//!
//! - linearizes the 20 knots of a horizon three ways (scalar knot by knot,
//!   `lanes::contact_step_linearization_masked_batch`, `..._batch_par`): the lanes
//!   match the scalar results to 2.6e-19 relative, the threads the lanes bit for
//!   bit;
//! - checks `A` and `B` at one knot against central differences of the stance
//!   step's `(q⁺, v⁺)` (`ε = 1e-6`, the output mapped by `difference(q⁺, ·)`):
//!   1.2e-7 and 7.3e-10 relative to their largest entries;
//! - runs the closed loop for 3 s at `h = 0.01 s`: every step the MPC
//!   linearizes its 20 knots (0.2 s) at the previous solution shifted by one
//!   knot, the measured state first (one threaded batch), runs the Riccati
//!   recursion of an affine time-varying LQR (the knots' defects and the errors
//!   from the reference as affine terms; weights on the base's pose 1e5 and
//!   1e4, on the arm 1e4, on the inputs 1e-2) and applies the first input. The
//!   inputs are penalised against the static torques that hold the robot up, so
//!   the torques that move the arm and absorb its reaction come from the
//!   linearization. The plant is the same stance step; `contact_dynamics` gives
//!   the contact forces plotted.
//!
//! Damping is 0: four point feet give a full-rank 12 x 24 contact Jacobian, so
//! the constraint is exact without it (damping, e.g. 1e-8, is for redundant
//! contact sets).
//!
//! ```text
//! Go2+Z1 on four point feet, contact_step_linearization_masked (all active): A 48x48, B 48x18, h = 0.01 s, damping 0
//! linearizing the 20 knots of a horizon (indicative times):
//! | way | µs per knot | µs per horizon | speed-up |
//! |---|---:|---:|---:|
//! | scalar, knot by knot | 19.6 | 391 | 1.00x |
//! | lanes = 4, batch | 8.8 | 176 | 2.22x |
//! | lanes = 4, batch on 2 threads | 6.6 | 132 | 2.97x |
//! lanes against scalar: largest difference 2.6e-19 (relative); threads against lanes: 0.0e0
//! A, B against central differences of the stance step (ε = 1e-6, knot 7): relative error 1.2e-7 (A, largest |entry| 1.05), 7.3e-10 (B, largest |entry| 1.32e1)
//! closed loop, 300 steps of 10 ms, horizon 20 knots (0.20 s): linearization 127 µs, Riccati and rollout 1088 µs per iteration
//! arm swing up to 0.90 rad from the standing posture, tracked within 1.9e-4 rad
//! base held: largest position drift 0.09 mm, largest tilt 0.016 deg
//! vertical contact forces 18.5 N to 91.6 N over the feet and the run (static stance: 75.4 75.3 29.2 29.1 N); all feet in compression: yes
//! largest torque change from the static stance 5.15 N·m; feet moved by at most 2.76e-9 m (the step holds their accelerations, not their positions)
//! ```
//!
//! The base stays within 0.1 mm and 0.02° while the arm's swing shifts the
//! load between the feet (vertical forces from 18.5 to 91.6 N, against 75 N on
//! each front foot and 29 N on each rear foot standing still); every foot stays
//! in compression. The feet
//! drift by nanometres: the step holds their accelerations at zero, not their
//! positions. The times are indicative (one run on the two-core machine,
//! 2026-12-07, nothing else running): the lanes batch at 2.22x of the scalar
//! loop, the two threads at 2.97x; the linearization of the whole horizon
//! (127 µs per MPC iteration on the threads) is now a tenth of the MPC's
//! time, the Riccati recursion on nalgebra's dynamic matrices the rest. The
//! example's release build (the generated module, scalar and lanes, after
//! the dependencies) took 30 s. The test below runs 0.3 s of it with a horizon of 8
//! knots and asserts the lanes against the scalar results, `A` and `B` against
//! central differences (below 1e-6), the base within 1 mm and 0.1°, every foot
//! in compression and the arm following its swing.
//!
//! ![base drift, vertical contact forces and arm tracking error over the swing](../docs/img/stance_mpc.png)

use std::time::Instant;

use nalgebra::{DMatrix, DVector};
use plotters::prelude::*;
use rbdgen::runtime::{self, ContactKind, Data, Model};

#[path = "common/plot.rs"]
mod plot;

rbdgen::robot_dynamics!(
    pub mod go2_z1,
    "models/go2_z1.urdf",
    floating_base,
    contacts = [FL_foot: point, FR_foot: point, RL_foot: point, RR_foot: point],
    lanes = 4,
    threads,
    functions = [contact_step_linearization_masked, contact_dynamics_masked]
);

use go2_z1::{lanes, NC, NQ, NU, NV};

/// Time step of the MPC, its model and the plant (s).
pub const H: f64 = 0.01;
/// Contact damping `μ` (see the header: full-rank contacts, none needed).
pub const DAMPING: f64 = 0.0;
/// The run-time contact mask of every knot: all four feet down (a gait
/// would put 0 on the rows of a swinging foot, knot by knot).
pub const STANCE: [f64; NC] = [1.0; NC];
/// Knots of the MPC's horizon.
pub const KNOTS: usize = 20;
/// Angular frequency of the arm's swing (rad/s): a 2 s period.
pub const OMEGA: f64 = std::f64::consts::PI;
/// The swing of the arm's six joints (`joint1..joint6`, rad), scaled by `(1 - cos ωt) / 2`.
pub const SWING: [f64; 6] = [0.9, 0.5, -0.6, 0.0, 0.4, 0.0];
/// Feet, in the contact order.
pub const FEET: [&str; 4] = ["FL", "FR", "RL", "RR"];
/// First arm dof in `v` (and first arm entry of `u` is `ARM_V - 6`).
const ARM_V: usize = 18;

/// One knot's linearization: `(q⁺, v⁺, A, B)`.
pub type Linearization = (
    [f64; NQ],
    [f64; NV],
    [[f64; 2 * NV]; 2 * NV],
    [[f64; NU]; 2 * NV],
);

/// The standing posture: base 0.32 m up, thighs 0.8 rad, calves -1.5 rad,
/// the arm raised (shoulder 0.8 rad, elbow -0.8 rad).
pub fn standing() -> [f64; NQ] {
    let mut q = [0.0; NQ];
    q[2] = 0.32;
    q[6] = 1.0;
    for leg in 0..4 {
        q[7 + 3 * leg + 1] = 0.8;
        q[7 + 3 * leg + 2] = -1.5;
    }
    q[7 + 12 + 1] = 0.8;
    q[7 + 12 + 2] = -0.8;
    q
}

/// The reference at time `t`: base and legs still, the arm on its swing.
pub fn reference(t: f64) -> ([f64; NQ], [f64; NV]) {
    let (mut q, mut v) = (standing(), [0.0; NV]);
    for (j, amp) in SWING.iter().enumerate() {
        q[7 + 12 + j] += amp * 0.5 * (1.0 - (OMEGA * t).cos());
        v[ARM_V + j] = amp * 0.5 * OMEGA * (OMEGA * t).sin();
    }
    (q, v)
}

/// The runtime's model with the module's four feet (gravity compensation,
/// integrate / difference, feet positions).
pub fn model() -> Model {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/models/go2_z1.urdf");
    let mut model = Model::from_urdf_file(path, true).expect("the URDF loads");
    let feet = ["FL_foot", "FR_foot", "RL_foot", "RR_foot"].map(|f| (f, ContactKind::Point));
    model.set_contacts(&feet).expect("the feet are frames");
    model
}

/// The actuated torques that hold the standing posture still: gravity on
/// the joints, the base's weight spread over the feet by the least-norm
/// forces `J_bᵀ λ = g_b`, `τ = g - Jᵀ λ` (zero on the base rows).
pub fn static_torques(model: &Model) -> [f64; NU] {
    let mut data = Data::new(model);
    let q = standing();
    let g = runtime::rnea(model, &mut data, &q, &[0.0; NV], &[0.0; NV])
        .expect("valid state")
        .to_vec();
    let j = runtime::contact_jacobian(model, &mut data, &q, &model.contacts).expect("valid q");
    let j = DMatrix::from_row_slice(NC, NV, &j);
    let jb_t = j.columns(0, 6).transpose();
    let g = DVector::from_column_slice(&g);
    let lambda = jb_t.pseudo_inverse(1e-12).expect("SVD converges") * g.rows(0, 6);
    let tau = g - j.transpose() * lambda;
    assert!(tau.rows(0, 6).amax() < 1e-9, "the feet carry the base");
    std::array::from_fn(|k| tau[6 + k])
}

/// The knots of one horizon for the linearization comparison and the
/// finite-difference check: the reference from `t0` on, the static torques
/// plus a smooth 1 N·m wave (so that no two knots are alike).
pub fn horizon(t0: f64, u_static: &[f64; NU]) -> (Vec<[f64; NQ]>, Vec<[f64; NV]>, Vec<[f64; NU]>) {
    let (mut qs, mut vs, mut us) = (vec![], vec![], vec![]);
    for k in 0..KNOTS {
        let t = t0 + k as f64 * H;
        let (q, v) = reference(t);
        qs.push(q);
        vs.push(v);
        us.push(std::array::from_fn(|j| {
            u_static[j] + (3.0 * t + j as f64).sin()
        }));
    }
    (qs, vs, us)
}

fn zero_linearization() -> Linearization {
    (
        [0.0; NQ],
        [0.0; NV],
        [[0.0; 2 * NV]; 2 * NV],
        [[0.0; NU]; 2 * NV],
    )
}

/// The three ways of linearizing a horizon, compared and timed.
#[derive(Debug)]
pub struct Comparison {
    /// Largest entry difference of the lanes batch from the scalar results,
    /// relative to `max(1, largest |entry|)` of the knot; largest
    /// `|threads - lanes batch|` (bit for bit: 0).
    pub worst_difference: (f64, f64),
    /// µs per knot: scalar, lanes batch, lanes batch on threads.
    pub us_per_knot: (f64, f64, f64),
}

/// Linearizes the horizon at `t0 = 0.5 s` `repeat` times each way.
pub fn compare(repeat: usize, u_static: &[f64; NU]) -> Comparison {
    let (q, v, u) = horizon(0.5, u_static);
    let (h, active, damping) = ([H; KNOTS], [STANCE; KNOTS], [DAMPING; KNOTS]);
    let mut scalar = vec![zero_linearization(); KNOTS];
    let mut batch = scalar.clone();
    let mut threads = scalar.clone();
    let start = Instant::now();
    for _ in 0..repeat {
        for k in 0..KNOTS {
            scalar[k] =
                go2_z1::contact_step_linearization_masked(&q[k], &v[k], &u[k], H, &STANCE, DAMPING);
        }
    }
    let t_scalar = start.elapsed().as_secs_f64();
    let start = Instant::now();
    for _ in 0..repeat {
        lanes::contact_step_linearization_masked_batch(
            &q, &v, &u, &h, &active, &damping, &mut batch,
        )
        .expect("equal lengths");
    }
    let t_batch = start.elapsed().as_secs_f64();
    let start = Instant::now();
    for _ in 0..repeat {
        lanes::contact_step_linearization_masked_batch_par(
            &q,
            &v,
            &u,
            &h,
            &active,
            &damping,
            &mut threads,
        )
        .expect("equal lengths");
    }
    let t_threads = start.elapsed().as_secs_f64();
    let flat = |l: &Linearization| -> Vec<f64> {
        [&l.0[..], &l.1, l.2.as_flattened(), l.3.as_flattened()].concat()
    };
    let worst = |reference: &[Linearization], other: &[Linearization], relative: bool| {
        reference.iter().zip(other).fold(0.0f64, |m, (a, b)| {
            let (a, b) = (flat(a), flat(b));
            let scale = if relative {
                a.iter().fold(1.0f64, |s, x| s.max(x.abs()))
            } else {
                1.0
            };
            a.iter()
                .zip(&b)
                .fold(m, |m, (x, y)| m.max((x - y).abs() / scale))
        })
    };
    let per_knot = |t: f64| t * 1e6 / (repeat * KNOTS) as f64;
    Comparison {
        worst_difference: (worst(&scalar, &batch, true), worst(&batch, &threads, false)),
        us_per_knot: (per_knot(t_scalar), per_knot(t_batch), per_knot(t_threads)),
    }
}

/// `A` and `B` of one knot against central differences of the stance step.
#[derive(Debug)]
pub struct FdCheck {
    /// Largest `|A - A_fd|` over the largest `|A|`, and the same for `B`.
    pub relative_error: (f64, f64),
    /// Largest `|A|`, `|B|`.
    pub scale: (f64, f64),
}

/// Central differences (`eps`) of the generated stance step's `(q⁺, v⁺)` at
/// knot `knot` of the horizon at `t0 = 0.5 s`, in the tangent space.
pub fn fd_check(model: &Model, u_static: &[f64; NU], knot: usize, eps: f64) -> FdCheck {
    let (qs, vs, us) = horizon(0.5, u_static);
    let (q, v, u) = (qs[knot], vs[knot], us[knot]);
    let (q_next, v_next, a, b) =
        go2_z1::contact_step_linearization_masked(&q, &v, &u, H, &STANCE, DAMPING);
    // The step's output as a tangent vector at the nominal (q⁺, v⁺).
    let out = |q: &[f64; NQ], v: &[f64; NV], u: &[f64; NU]| -> Vec<f64> {
        let (qn, vn, _, _) =
            go2_z1::contact_step_linearization_masked(q, v, u, H, &STANCE, DAMPING);
        let dq = runtime::difference(model, &q_next, &qn).expect("valid q");
        let dv = vn.iter().zip(&v_next).map(|(x, y)| x - y);
        dq.into_iter().chain(dv).collect()
    };
    let column = |plus: Vec<f64>, minus: Vec<f64>| -> Vec<f64> {
        plus.iter()
            .zip(&minus)
            .map(|(p, m)| (p - m) / (2.0 * eps))
            .collect()
    };
    let (mut err_a, mut err_b, mut max_a, mut max_b) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for j in 0..2 * NV {
        let shifted = |s: f64| -> Vec<f64> {
            let (mut qp, mut vp) = (q, v);
            if j < NV {
                let mut dq = [0.0; NV];
                dq[j] = s;
                let moved = runtime::integrate(model, &q, &dq).expect("valid q");
                qp.copy_from_slice(&moved);
            } else {
                vp[j - NV] += s;
            }
            out(&qp, &vp, &u)
        };
        let col = column(shifted(eps), shifted(-eps));
        for i in 0..2 * NV {
            err_a = err_a.max((a[i][j] - col[i]).abs());
            max_a = max_a.max(a[i][j].abs());
        }
    }
    for j in 0..NU {
        let shifted = |s: f64| {
            let mut up = u;
            up[j] += s;
            out(&q, &v, &up)
        };
        let col = column(shifted(eps), shifted(-eps));
        for i in 0..2 * NV {
            err_b = err_b.max((b[i][j] - col[i]).abs());
            max_b = max_b.max(b[i][j].abs());
        }
    }
    FdCheck {
        relative_error: (err_a / max_a, err_b / max_b),
        scale: (max_a, max_b),
    }
}

/// The LQR's weights: the diagonal of `Q` (per tangent state) and of `R`.
fn weights() -> (DVector<f64>, DVector<f64>) {
    let mut q = DVector::zeros(2 * NV);
    for i in 0..3 {
        q[i] = 1e5; // base position (m)
        q[3 + i] = 1e4; // base orientation (rad)
        q[NV + i] = 1e2; // base linear velocity
        q[NV + 3 + i] = 1e2; // base angular velocity
    }
    for i in 6..ARM_V {
        q[i] = 1e2; // leg joints (set by the base and the feet)
        q[NV + i] = 1.0;
    }
    for i in ARM_V..NV {
        q[i] = 1e4; // arm joints
        q[NV + i] = 10.0;
    }
    (q, DVector::from_element(NU, 1e-2))
}

/// One sample of the closed loop.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Time (s).
    pub t: f64,
    /// Base position minus its start (m).
    pub base_drift: [f64; 3],
    /// Base orientation error (rad, the angle of `difference`).
    pub base_tilt: f64,
    /// Contact forces on the robot (N, world axes, FL FR RL RR).
    pub lambda: [f64; NC],
    /// Arm joint angles minus their reference (rad).
    pub arm_error: [f64; 6],
    /// Arm joint angles (rad).
    pub arm: [f64; 6],
}

/// What a closed-loop run found.
#[derive(Debug)]
pub struct Run {
    /// One sample per step (after the step).
    pub trace: Vec<Sample>,
    /// Largest base position drift (m).
    pub max_base_drift: f64,
    /// Largest base tilt (rad).
    pub max_base_tilt: f64,
    /// Largest arm tracking error (rad).
    pub max_arm_error: f64,
    /// Largest arm excursion from the standing posture (rad).
    pub max_arm_excursion: f64,
    /// Smallest and largest vertical force over the feet and the run (N).
    pub vertical_force_range: (f64, f64),
    /// The vertical forces of the static stance (N, per foot).
    pub static_vertical: [f64; 4],
    /// Largest foot displacement (m).
    pub max_feet_drift: f64,
    /// Largest `|u - u_static|` (N·m).
    pub max_torque_change: f64,
    /// Wall time per MPC iteration (linearization, Riccati), µs.
    pub us_per_iteration: (f64, f64),
}

/// Affine time-varying LQR over the knots `(A_k, B_k, c_k)`, stage cost
/// `½ (δx + e_k)ᵀ Q (δx + e_k) + ½ (δu + d_k)ᵀ R (δu + d_k)`, terminal
/// `½ (δx + e_N)ᵀ Q_f (δx + e_N)`; returns the gains `(K_k, k_k)` of
/// `δu_k = -K_k δx_k - k_k`.
#[allow(clippy::too_many_arguments)]
fn riccati(
    a: &[DMatrix<f64>],
    b: &[DMatrix<f64>],
    c: &[DVector<f64>],
    e: &[DVector<f64>],
    d: &[DVector<f64>],
    q: &DVector<f64>,
    r: &DVector<f64>,
    q_final: &DVector<f64>,
) -> Vec<(DMatrix<f64>, DVector<f64>)> {
    let n = a.len();
    let mut p = DMatrix::from_diagonal(q_final);
    let mut s = q_final.component_mul(&e[n]);
    let mut gains = vec![(DMatrix::zeros(0, 0), DVector::zeros(0)); n];
    for k in (0..n).rev() {
        let pa = &p * &a[k];
        let pb = &p * &b[k];
        let g = &p * &c[k] + &s;
        let mut quu = b[k].transpose() * &pb;
        for i in 0..NU {
            quu[(i, i)] += r[i];
        }
        let qux = b[k].transpose() * &pa;
        let qu = r.component_mul(&d[k]) + b[k].transpose() * &g;
        let qx = q.component_mul(&e[k]) + a[k].transpose() * &g;
        let chol = quu
            .clone()
            .cholesky()
            .expect("R > 0 keeps Quu positive definite");
        let gain = chol.solve(&qux);
        let ff = chol.solve(&qu);
        let mut qxx = a[k].transpose() * &pa;
        for i in 0..2 * NV {
            qxx[(i, i)] += q[i];
        }
        p = qxx - gain.transpose() * &quu * &gain;
        p = (&p + p.transpose()) * 0.5;
        s = qx - gain.transpose() * &qu;
        gains[k] = (gain, ff);
    }
    gains
}

fn tangent(
    model: &Model,
    x0: &([f64; NQ], [f64; NV]),
    x1: &([f64; NQ], [f64; NV]),
) -> DVector<f64> {
    let dq = runtime::difference(model, &x0.0, &x1.0).expect("valid q");
    DVector::from_iterator(
        2 * NV,
        dq.into_iter().chain((0..NV).map(|i| x1.1[i] - x0.1[i])),
    )
}

/// Runs the closed loop for `steps` steps of `H` with a horizon of `knots`.
pub fn run(model: &Model, u_static: &[f64; NU], steps: usize, knots: usize) -> Run {
    let mut data = Data::new(model);
    let (w_q, w_r) = weights();
    let w_final = &w_q * 10.0;
    let u_ref = DVector::from_column_slice(u_static);
    let feet_positions = |data: &mut Data<f64>, q: &[f64; NQ]| -> Vec<[f64; 3]> {
        runtime::forward_kinematics(model, data, q).expect("valid q");
        model
            .contacts
            .iter()
            .map(|c| {
                runtime::frame_placement(model, data, c.frame)
                    .expect("a frame")
                    .translation
                    .0
            })
            .collect()
    };
    let (q0, v0) = reference(0.0);
    let feet0 = feet_positions(&mut data, &q0);
    let (mut q, mut v) = (q0, v0);
    // The guess: the reference and the static torques.
    let mut xs: Vec<([f64; NQ], [f64; NV])> =
        (0..=knots).map(|k| reference(k as f64 * H)).collect();
    let mut us: Vec<[f64; NU]> = vec![*u_static; knots];
    let (hs, active, damping) = (vec![H; knots], vec![STANCE; knots], vec![DAMPING; knots]);
    let mut lin = vec![zero_linearization(); knots];
    let static_lambda =
        go2_z1::contact_dynamics_masked(&q0, &v0, &torques(u_static), &STANCE, DAMPING).1;
    let mut out = Run {
        trace: Vec::with_capacity(steps),
        max_base_drift: 0.0,
        max_base_tilt: 0.0,
        max_arm_error: 0.0,
        max_arm_excursion: 0.0,
        vertical_force_range: (f64::INFINITY, f64::NEG_INFINITY),
        static_vertical: std::array::from_fn(|f| static_lambda[3 * f + 2]),
        max_feet_drift: 0.0,
        max_torque_change: 0.0,
        us_per_iteration: (0.0, 0.0),
    };
    let (mut t_lin, mut t_lqr) = (0.0, 0.0);
    for step in 0..steps {
        let t = step as f64 * H;
        xs[0] = (q, v);
        let start = Instant::now();
        let (qk, vk): (Vec<[f64; NQ]>, Vec<[f64; NV]>) = xs[..knots].iter().copied().unzip();
        lanes::contact_step_linearization_masked_batch_par(
            &qk, &vk, &us, &hs, &active, &damping, &mut lin,
        )
        .expect("equal lengths");
        t_lin += start.elapsed().as_secs_f64();
        let start = Instant::now();
        let a: Vec<DMatrix<f64>> = lin
            .iter()
            .map(|l| DMatrix::from_row_slice(2 * NV, 2 * NV, l.2.as_flattened()))
            .collect();
        let b: Vec<DMatrix<f64>> = lin
            .iter()
            .map(|l| DMatrix::from_row_slice(2 * NV, NU, l.3.as_flattened()))
            .collect();
        // Defects: the knot's step lands at (q⁺, v⁺), the next knot is xs[k + 1].
        let c: Vec<DVector<f64>> = (0..knots)
            .map(|k| tangent(model, &xs[k + 1], &(lin[k].0, lin[k].1)))
            .collect();
        let e: Vec<DVector<f64>> = (0..=knots)
            .map(|k| tangent(model, &reference(t + k as f64 * H), &xs[k]))
            .collect();
        let d: Vec<DVector<f64>> = us
            .iter()
            .map(|u| DVector::from_column_slice(u) - &u_ref)
            .collect();
        let gains = riccati(&a, &b, &c, &e, &d, &w_q, &w_r, &w_final);
        // Forward pass on the linear model: the new guess.
        let mut dx = DVector::zeros(2 * NV);
        let mut next_xs = Vec::with_capacity(knots + 1);
        let mut next_us = Vec::with_capacity(knots);
        for k in 0..knots {
            let du = -(&gains[k].0 * &dx) - &gains[k].1;
            next_xs.push(retract(model, &xs[k], &dx));
            next_us.push(std::array::from_fn(|j| us[k][j] + du[j]));
            dx = &a[k] * &dx + &b[k] * &du + &c[k];
        }
        next_xs.push(retract(model, &xs[knots], &dx));
        t_lqr += start.elapsed().as_secs_f64();
        let u: [f64; NU] = next_us[0];
        // The plant: the stance step itself, and the contact forces at its start.
        let (_, lambda) = go2_z1::contact_dynamics_masked(&q, &v, &torques(&u), &STANCE, DAMPING);
        let (q_next, v_next, _, _) =
            go2_z1::contact_step_linearization_masked(&q, &v, &u, H, &STANCE, DAMPING);
        (q, v) = (q_next, v_next);
        // Shift the guess by one knot; its last knot repeats.
        xs = next_xs[1..].to_vec();
        xs.push(next_xs[knots]);
        us = next_us[1..].to_vec();
        us.push(next_us[knots - 1]);

        let t_next = t + H;
        let (q_ref, _) = reference(t_next);
        let err = runtime::difference(model, &q_ref, &q).expect("valid q");
        let feet = feet_positions(&mut data, &q);
        let feet_drift = feet.iter().zip(&feet0).fold(0.0f64, |m, (p, p0)| {
            m.max(((p[0] - p0[0]).powi(2) + (p[1] - p0[1]).powi(2) + (p[2] - p0[2]).powi(2)).sqrt())
        });
        let sample = Sample {
            t: t_next,
            base_drift: [q[0] - q0[0], q[1] - q0[1], q[2] - q0[2]],
            base_tilt: (err[3].powi(2) + err[4].powi(2) + err[5].powi(2)).sqrt(),
            lambda,
            arm_error: std::array::from_fn(|j| err[ARM_V + j]),
            arm: std::array::from_fn(|j| q[7 + 12 + j]),
        };
        let drift = sample.base_drift.iter().map(|x| x * x).sum::<f64>().sqrt();
        out.max_base_drift = out.max_base_drift.max(drift);
        out.max_base_tilt = out.max_base_tilt.max(sample.base_tilt);
        for j in 0..6 {
            out.max_arm_error = out.max_arm_error.max(sample.arm_error[j].abs());
            out.max_arm_excursion = out
                .max_arm_excursion
                .max((sample.arm[j] - q0[7 + 12 + j]).abs());
        }
        for f in 0..4 {
            let fz = lambda[3 * f + 2];
            out.vertical_force_range.0 = out.vertical_force_range.0.min(fz);
            out.vertical_force_range.1 = out.vertical_force_range.1.max(fz);
        }
        out.max_feet_drift = out.max_feet_drift.max(feet_drift);
        for j in 0..NU {
            out.max_torque_change = out.max_torque_change.max((u[j] - u_static[j]).abs());
        }
        out.trace.push(sample);
    }
    let per = |t: f64| t * 1e6 / steps.max(1) as f64;
    out.us_per_iteration = (per(t_lin), per(t_lqr));
    out
}

/// `τ = S u`: zero on the base.
fn torques(u: &[f64; NU]) -> [f64; NV] {
    std::array::from_fn(|k| if k < 6 { 0.0 } else { u[k - 6] })
}

/// `x ⊕ δx`.
fn retract(model: &Model, x: &([f64; NQ], [f64; NV]), dx: &DVector<f64>) -> ([f64; NQ], [f64; NV]) {
    let q = runtime::integrate(model, &x.0, &dx.as_slice()[..NV]).expect("valid q");
    (
        q.try_into().expect("nq entries"),
        std::array::from_fn(|i| x.1[i] + dx[NV + i]),
    )
}

/// The run's picture: base drift (mm), vertical forces (N), arm tracking
/// error (mrad); written to `dir/stance_mpc.png`.
pub fn plot(
    r: &Run,
    dir: &std::path::Path,
) -> Result<std::path::PathBuf, Box<dyn std::error::Error>> {
    plot::fonts();
    let path = plot::out_path(dir, "stance_mpc.png");
    let file = path.clone();
    let root = BitMapBackend::new(&file, (1500, 520)).into_drawing_area();
    root.fill(&WHITE)?;
    let root = root.titled(
        "Go2+Z1 on four feet, arm swinging: stance MPC (affine TV-LQR on contact_step_linearization_masked)",
        ("sans-serif", 22),
    )?;
    let areas = root.split_evenly((1, 3));
    let t_end = r.trace.last().map_or(1.0, |s| s.t);
    type Lines = Vec<(String, usize, Vec<(f64, f64)>)>;
    let panel = |area: &DrawingArea<BitMapBackend, plotters::coord::Shift>,
                 title: &str,
                 y_label: &str,
                 lines: Lines|
     -> Result<(), Box<dyn std::error::Error>> {
        let (lo, hi) = lines
            .iter()
            .flat_map(|l| l.2.iter().map(|p| p.1))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| {
                (a.min(y), b.max(y))
            });
        let pad = 0.08 * (hi - lo).max(1e-9);
        // The legend in a corner the lines leave free, or above them (the
        // plotting area: the panel less the margins, label areas and caption).
        let (w, h) = area.dim_in_pixel();
        let points: Vec<&[(f64, f64)]> = lines.iter().map(|l| l.2.as_slice()).collect();
        let labels: Vec<&str> = lines.iter().map(|l| l.0.as_str()).collect();
        let (corner, (lo, hi)) = plot::legend_corner(
            &points,
            (0.0, t_end),
            (lo - pad, hi + pad),
            (
                f64::from(w) - 24.0 - 60.0,
                f64::from(h) - 24.0 - 40.0 - 27.0,
            ),
            &labels,
            13.0,
        );
        let mut chart = ChartBuilder::on(area)
            .caption(title, ("sans-serif", 17))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..t_end, lo..hi)?;
        chart
            .configure_mesh()
            .x_desc("t (s)")
            .y_desc(y_label)
            .label_style(("sans-serif", 13))
            .axis_desc_style(("sans-serif", 14))
            .draw()?;
        for (label, color, points) in lines {
            let c = plot::PALETTE[color % plot::PALETTE.len()];
            chart
                .draw_series(LineSeries::new(points, c.stroke_width(2)))?
                .label(label)
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], c.stroke_width(2)));
        }
        chart
            .configure_series_labels()
            .position(corner)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 13))
            .draw()?;
        Ok(())
    };
    let series =
        |f: &dyn Fn(&Sample) -> f64| r.trace.iter().map(|s| (s.t, f(s))).collect::<Vec<_>>();
    panel(
        &areas[0],
        "base position drift",
        "mm",
        ["x", "y", "z"]
            .iter()
            .enumerate()
            .map(|(i, n)| (format!("base {n}"), i, series(&|s| 1e3 * s.base_drift[i])))
            .collect(),
    )?;
    panel(
        &areas[1],
        "vertical contact force per foot",
        "N",
        (0..4)
            .map(|f| {
                (
                    format!("{} foot", FEET[f]),
                    f,
                    series(&|s| s.lambda[3 * f + 2]),
                )
            })
            .collect(),
    )?;
    panel(
        &areas[2],
        "arm tracking error q - q_ref",
        "mrad",
        [0usize, 1, 2, 4]
            .iter()
            .enumerate()
            .map(|(c, &j)| {
                (
                    format!("joint{}", j + 1),
                    c,
                    series(&|s| 1e3 * s.arm_error[j]),
                )
            })
            .collect(),
    )?;
    root.present()?;
    Ok(path)
}

#[allow(dead_code)]
fn main() {
    let model = model();
    let u_static = static_torques(&model);
    println!(
        "Go2+Z1 on four point feet, contact_step_linearization_masked (all active): A {}x{}, B {}x{}, h = {H} s, damping {DAMPING}",
        2 * NV,
        2 * NV,
        2 * NV,
        NU
    );

    let c = compare(50, &u_static);
    let (s, b, t) = c.us_per_knot;
    println!("linearizing the {KNOTS} knots of a horizon (indicative times):");
    println!("| way | µs per knot | µs per horizon | speed-up |");
    println!("|---|---:|---:|---:|");
    let threads = format!(
        "lanes = 4, batch on {} threads",
        rayon::current_num_threads()
    );
    for (name, us) in [
        ("scalar, knot by knot", s),
        ("lanes = 4, batch", b),
        (&*threads, t),
    ] {
        println!(
            "| {name} | {us:.1} | {:.0} | {:.2}x |",
            us * KNOTS as f64,
            s / us
        );
    }
    println!(
        "lanes against scalar: largest difference {:.1e} (relative); threads against lanes: {:.1e}",
        c.worst_difference.0, c.worst_difference.1
    );

    let fd = fd_check(&model, &u_static, 7, 1e-6);
    println!(
        "A, B against central differences of the stance step (ε = 1e-6, knot 7): \
         relative error {:.1e} (A, largest |entry| {:.2}), {:.1e} (B, largest |entry| {:.2e})",
        fd.relative_error.0, fd.scale.0, fd.relative_error.1, fd.scale.1
    );

    let steps = 300;
    let r = run(&model, &u_static, steps, KNOTS);
    println!(
        "closed loop, {steps} steps of {} ms, horizon {KNOTS} knots ({:.2} s): linearization {:.0} µs, \
         Riccati and rollout {:.0} µs per iteration",
        H * 1e3,
        KNOTS as f64 * H,
        r.us_per_iteration.0,
        r.us_per_iteration.1
    );
    println!(
        "arm swing up to {:.2} rad from the standing posture, tracked within {:.1e} rad",
        r.max_arm_excursion, r.max_arm_error
    );
    println!(
        "base held: largest position drift {:.2} mm, largest tilt {:.3} deg",
        r.max_base_drift * 1e3,
        r.max_base_tilt.to_degrees()
    );
    println!(
        "vertical contact forces {:.1} N to {:.1} N over the feet and the run (static stance: {:.1} {:.1} {:.1} {:.1} N); \
         all feet in compression: {}",
        r.vertical_force_range.0,
        r.vertical_force_range.1,
        r.static_vertical[0],
        r.static_vertical[1],
        r.static_vertical[2],
        r.static_vertical[3],
        if r.vertical_force_range.0 > 0.0 { "yes" } else { "no" }
    );
    println!(
        "largest torque change from the static stance {:.2} N·m; feet moved by at most {:.2e} m \
         (the step holds their accelerations, not their positions)",
        r.max_torque_change, r.max_feet_drift
    );
    let path = plot(&r, &plot::plots_dir()).expect("the plot is written");
    println!("plot: {}", path.display());
}

// The example's numbers, asserted: `cargo test --all-features --example
// stance_mpc` runs these.
#[cfg(test)]
#[path = "common/check.rs"]
mod check;

#[cfg(test)]
mod tests {
    use super::check;

    /// The stance MPC at reduced size (a horizon of 8 knots, 0.3 s of the arm's
    /// swing): the lanes and threads match the scalar linearization, `A` and
    /// `B` match central differences of the stance step, the base stays within
    /// a millimetre and a tenth of a degree, every foot stays in compression, the
    /// arm follows its swing, and the plot is drawn.
    #[test]
    fn stance_mpc_holds_the_base() {
        let model = super::model();
        let u_static = super::static_torques(&model);
        let c = super::compare(1, &u_static);
        assert!(c.worst_difference.0 <= 1e-13, "{c:?}");
        assert_eq!(c.worst_difference.1, 0.0, "{c:?}");
        let fd = super::fd_check(&model, &u_static, 7, 1e-6);
        assert!(
            fd.relative_error.0 < 1e-6 && fd.relative_error.1 < 1e-6,
            "{fd:?}"
        );
        let r = super::run(&model, &u_static, 30, 8);
        let summary = |r: &super::Run| {
            format!(
                "drift {:e} m, tilt {:e} rad, arm error {:e} rad, excursion {:e} rad, forces {:?} N, feet {:e} m",
                r.max_base_drift,
                r.max_base_tilt,
                r.max_arm_error,
                r.max_arm_excursion,
                r.vertical_force_range,
                r.max_feet_drift
            )
        };
        assert!(r.max_base_drift < 1e-3, "{}", summary(&r));
        assert!(r.max_base_tilt < 0.1f64.to_radians(), "{}", summary(&r));
        assert!(r.vertical_force_range.0 > 0.0, "{}", summary(&r));
        assert!(r.max_arm_excursion > 0.15, "{}", summary(&r));
        assert!(r.max_arm_error < 0.05, "{}", summary(&r));
        assert!(r.max_feet_drift < 1e-3, "{}", summary(&r));
        let dir = check::plot_dir("stance_mpc");
        check::assert_drawn(
            &super::plot(&r, &dir).expect("the plot is written"),
            400,
            16,
        );
    }
}
