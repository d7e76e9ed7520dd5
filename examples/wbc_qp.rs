//! One step of whole-body control as a second-order cone program, on
//! generated Go2 + Z1 code, solved with Clarabel.
//!
//! Unknowns `x = (v̇ [24], τ [18 actuated dofs], λ [4 feet x 3])`. Constraints:
//!
//! - dynamics, all 24 rows: `M v̇ + h = S τ + J_cᵀ λ + J_eeᵀ f_ee`
//!   (`crba`, `nonlinear_effects`, `contact_jacobian`, the gripper's
//!   `frame_jacobian_local_world_aligned`, linear rows), `S` the selection of
//!   `ACTUATED_DOFS`: nothing acts on the base's 6 rows but the contacts and
//!   the push;
//! - the feet do not accelerate: `J_c v̇ + J̇_c v = 0` (`contact_drift`);
//! - hold still while pushing: the base does not accelerate (`v̇_base = 0`)
//!   and neither does the gripper: `J_ee v̇ + J̇_ee v = 0` (`frame_acceleration_drift`,
//!   classical);
//! - friction cones, second-order: `‖(λ_x, λ_y)‖ ≤ μ λ_z`, `μ = 0.6`, per foot;
//! - torque limits `|τ_i| ≤ TAU_MAX_i` from the URDF;
//!
//! and the cost `w_a ‖v̇‖² + w_τ ‖τ‖² + w_λ ‖λ‖²` (regularisation).
//!
//! Scenario: the gripper pushes on a wall along world +x, so the wall pushes
//! back, `f_ee = (-F, 0, 0)` N. `F` grows in 1 N steps from 0 until the QP
//! is infeasible (then bisection locates the limit to 0.01 N); for each `F`
//! the example records each foot's friction margin `μ λ_z - ‖λ_t‖`, the
//! base-row residual of the dynamics at the solution, and the torques'
//! largest fraction of their limits.
//!
//! Run with `cargo run --release --example wbc_qp`; plot in
//! `target/plots/wbc_qp.png`.
//!
//! # Walkthrough
//!
//! Go2+Z1 stands on four point feet with the arm raised forward (the gripper
//! 0.85 m above the feet) and pushes a wall along world +x, so the wall pushes
//! back, `f_ee = (−F, 0, 0)`. One QP (a second-order cone program) in `x = (v̇,
//! τ, λ)`, 24 + 18 + 12 unknowns, solved by Clarabel:
//!
//! - dynamics, all 24 rows: `M v̇ + h = S τ + J_cᵀ λ + J_eeᵀ f_ee` (`crba`,
//!   `nonlinear_effects`, `contact_jacobian`, the linear rows of
//!   `frame_jacobian_local_world_aligned(gripper_link)`; `S` selects
//!   `ACTUATED_DOFS`);
//! - feet still: `J_c v̇ + J̇_c v = 0` (`contact_drift`);
//! - hold still while pushing: `v̇_base = 0` and `J_ee v̇ + J̇_ee v = 0` (the
//!   classical drift of `frame_acceleration_drift`);
//! - friction cones `‖(λ_x, λ_y)‖ ≤ μ λ_z`, `μ = 0.6`, as second-order cones;
//! - torque limits `|τ| ≤ TAU_MAX` (the URDF's efforts);
//! - cost `1e-3 ‖v̇‖² + 1e-3 ‖τ‖² + 1e-4 ‖λ‖²`.
//!
//! `F` grows in 1 N steps until Clarabel reports the QP infeasible, and a
//! bisection finds the limit to 0.01 N.
//!
//! ```text
//! push F (N) | friction margin FL FR RL RR (N) | normal force FL FR RL RR (N) | base-row residual | all rows | max |τ|/τ_max legs, arm
//!          0 |   36.15   36.13   13.33   13.30 |   77.1   77.1   27.4   27.4 |   2.8e-14 |  2.8e-14 | 0.22, 0.25
//!         10 |   31.29   31.26   17.59   17.57 |   66.2   66.1   38.4   38.4 |   2.8e-14 |  2.8e-14 | 0.20, 0.22
//!         20 |   24.94   24.91   21.85   21.83 |   55.2   55.1   49.4   49.3 |   2.8e-14 |  2.8e-14 | 0.18, 0.19
//!         30 |   16.99   16.96   26.11   26.08 |   44.2   44.2   60.4   60.3 |   2.8e-14 |  2.8e-14 | 0.20, 0.17
//!         40 |    7.97    7.94   30.37   30.34 |   33.2   33.2   71.3   71.3 |   2.8e-14 |  2.8e-14 | 0.24, 0.23
//!         50 |    0.00    0.00   33.50   33.46 |   22.2   22.2   82.3   82.3 |   2.8e-14 |  2.8e-14 | 0.29, 0.29
//!         60 |    0.00    0.00   29.63   29.59 |   11.2   11.2   93.3   93.2 |   2.8e-14 |  2.8e-14 | 0.36, 0.36
//!         70 |    0.00    0.00   25.01   24.96 |    0.3    0.2  104.3  104.2 |   2.8e-14 |  2.8e-14 | 0.44, 0.42
//! the gripper is 0.849 m above the feet and 0.617 m ahead of the base's origin
//! the push pitches the robot backward and unloads the front feet: the FL foot reaches its friction cone's boundary first, at F = 49 N (from there on the front feet's friction is saturated)
//! largest push the robot can hold: 70.22 N; at 70 N the front feet carry 0.26 N and 0.23 N: no force distribution holds the robot still beyond it (it would tip backward about its rear feet); just above it Clarabel reports PrimalInfeasible
//! moving state (base 0.1 m/s and 0.37 rad/s, feet still, arm joints up to 0.5 rad/s, ‖J̇_c v‖ = 0.21 m/s²), F = 20 N: Solved, dynamics residual 2.8e-14, contact accelerations 2.8e-17 m/s², gripper acceleration 1.1e-16, base acceleration 1.3e-18, smallest friction margin 21.81 N, torques at most 0.19 of their limits
//! ```
//!
//! At the chapter's 20 N every foot keeps more than 21 N of friction margin.
//! The push's moment about the feet (it acts 0.85 m up) shifts the weight from
//! the front feet to the rear ones: the front feet's friction saturates at 49 N
//! (margin 0: a foot that would slip if asked for more), the rear feet take the
//! rest of the push, and at 70.2 N the front feet carry no load at all: holding
//! still is impossible, the QP is infeasible. The torques stay below 44 % of
//! their limits, so friction and tipping, not the motors, end the push. The
//! base-row residual (the 6 rows nothing actuates) is rounding, 3e-14 N.
//!
//! ![friction margin and normal force per foot, and the dynamics residual, against the push](../docs/img/wbc_qp.png)
//!
//! The test solves at 0, 20, 40 and 65 N standing and at 20 N in a moving state
//! (base moving and turning, legs keeping the feet still, arm joints moving, so
//! that `J̇_c v` and the gripper's drift are not zero), and checks the solution
//! against its constraints: dynamics, contact and gripper accelerations and base
//! acceleration below 1e-6, every force inside its cone, every torque within its
//! limit; the same over the whole sweep; a 200 N push infeasible; the limit
//! between 60 and 80 N, a front foot at its cone's edge before it.

use clarabel::algebra::CscMatrix;
use clarabel::solver::{
    DefaultSettingsBuilder, DefaultSolver, IPSolver, NonnegativeConeT, SecondOrderConeT,
    SolverStatus, SupportedConeT, ZeroConeT,
};
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
    frames = [FL_foot, gripper_link],
    functions = [
        crba, nonlinear_effects, contact_jacobian, contact_drift,
        frame_jacobian_local_world_aligned, frame_acceleration_drift, frame_placement,
    ]
);

use go2_z1::{Frame, ACTUATED_DOFS, NC, NQ, NU, NV};

/// Friction coefficient.
pub const MU: f64 = 0.6;
/// Cost weights: accelerations, torques, contact forces.
const W_ACC: f64 = 1e-3;
const W_TAU: f64 = 1e-3;
const W_FORCE: f64 = 1e-4;
/// Number of unknowns.
const N: usize = NV + NU + NC;
/// The feet, in the contact set's order.
pub const FEET: [&str; 4] = ["FL", "FR", "RL", "RR"];

/// Standing (base 0.32 m up, thighs 0.8 rad, calves -1.5 rad), the arm
/// reaching forward: shoulder 1.0 rad, elbow -1.2 rad, wrist pitch 0.2 rad.
pub fn standing() -> [f64; NQ] {
    let mut q = go2_z1::NEUTRAL;
    q[2] = 0.32;
    for leg in 0..4 {
        q[7 + 3 * leg + 1] = 0.8;
        q[7 + 3 * leg + 2] = -1.5;
    }
    q[19..25].copy_from_slice(&[0.0, 1.0, -1.2, 0.2, 0.0, 0.0]);
    q
}

/// A moving state: the standing posture with the base moving (0.1, 0, 0.05)
/// m/s and turning (0.2, -0.1, 0.3) rad/s, the legs' joint speeds that keep
/// the feet still (`J_c v = 0`), and the arm's joints at (0.5, -0.3, 0.4, 0.2,
/// -0.2, 0.3) rad/s; `contact_drift` and the gripper's drift are not zero there.
pub fn moving() -> ([f64; NQ], [f64; NV]) {
    let q = standing();
    let mut v = [0.0; NV];
    v[..6].copy_from_slice(&[0.1, 0.0, 0.05, 0.2, -0.1, 0.3]);
    v[18..].copy_from_slice(&[0.5, -0.3, 0.4, 0.2, -0.2, 0.3]);
    let jc = matrix(&go2_z1::contact_jacobian(&q));
    let base = DVector::from_row_slice(&v[..6]);
    let legs = jc.columns(6, 12).into_owned();
    let rhs = -(jc.columns(0, 6) * base);
    let v_legs = legs
        .lu()
        .solve(&rhs)
        .expect("the legs' Jacobian is invertible");
    v[6..18].copy_from_slice(v_legs.as_slice());
    (q, v)
}

/// A solved step.
#[derive(Clone, Debug)]
pub struct Step {
    /// `v̇`.
    pub a: [f64; NV],
    /// Torques on the actuated dofs (`ACTUATED_DOFS` order).
    pub tau: [f64; NU],
    /// Contact forces, world axes, per foot.
    pub lambda: [f64; NC],
    /// `μ λ_z - ‖λ_t‖` per foot (N).
    pub margins: [f64; 4],
    /// Largest `|row|` of `M v̇ + h - S τ - J_cᵀ λ - J_eeᵀ f_ee`: the base's 6 rows, all rows.
    pub residual: (f64, f64),
    /// Largest `|J_c v̇ + γ|` (m/s²).
    pub contact_residual: f64,
    /// Largest `|J_ee v̇ + γ_ee|` (m/s², rad/s²).
    pub gripper_residual: f64,
    /// Largest `|τ_i| / TAU_MAX_i` over the legs and over the arm.
    pub torque_ratio: (f64, f64),
}

fn matrix<const R: usize, const C: usize>(m: &[[f64; C]; R]) -> DMatrix<f64> {
    DMatrix::from_row_iterator(R, C, m.iter().flatten().copied())
}

/// The gripper's Jacobian (LOCAL_WORLD_ALIGNED, 6 x nv) and classical acceleration drift.
fn gripper(q: &[f64; NQ], v: &[f64; NV]) -> (DMatrix<f64>, DVector<f64>) {
    let j = matrix(&go2_z1::frame_jacobian_local_world_aligned(
        q,
        Frame::GripperLink,
    ));
    let (_, _, classical) = go2_z1::frame_acceleration_drift(q, v, Frame::GripperLink);
    (j, DVector::from_row_slice(&classical))
}

/// Builds and solves the QP at `(q, v)` with the wall's force `f_ee` (world
/// axes, on the gripper). `None` when Clarabel finds it infeasible (or
/// fails); the status is returned either way.
pub fn solve(q: &[f64; NQ], v: &[f64; NV], f_ee: [f64; 3]) -> (SolverStatus, Option<Step>) {
    let m = matrix(&go2_z1::crba(q));
    let h = DVector::from_row_slice(&go2_z1::nonlinear_effects(q, v));
    let jc = matrix(&go2_z1::contact_jacobian(q));
    let gamma = DVector::from_row_slice(&go2_z1::contact_drift(q, v));
    let (jee, gamma_ee) = gripper(q, v);
    let f = DVector::from_row_slice(&f_ee);
    let push = jee.rows(0, 3).transpose() * &f;

    // A x + s = b, s in the cones, rows in the cones' order.
    let mut a = DMatrix::<f64>::zeros(0, N);
    let mut b: Vec<f64> = vec![];
    // Dynamics: M v̇ - S τ - J_cᵀ λ = J_eeᵀ f - h.
    let mut dyn_rows = DMatrix::zeros(NV, N);
    dyn_rows.columns_mut(0, NV).copy_from(&m);
    for (k, &dof) in ACTUATED_DOFS.iter().enumerate() {
        dyn_rows[(dof, NV + k)] = -1.0;
    }
    dyn_rows
        .columns_mut(NV + NU, NC)
        .copy_from(&(-jc.transpose()));
    add(&mut a, &mut b, dyn_rows, &push - &h);
    // Contacts: J_c v̇ = -γ.
    let mut rows = DMatrix::zeros(NC, N);
    rows.columns_mut(0, NV).copy_from(&jc);
    add(&mut a, &mut b, rows, -&gamma);
    // Base still: v̇[0..6] = 0.
    let mut rows = DMatrix::zeros(6, N);
    for k in 0..6 {
        rows[(k, k)] = 1.0;
    }
    add(&mut a, &mut b, rows, DVector::zeros(6));
    // Gripper still: J_ee v̇ = -γ_ee.
    let mut rows = DMatrix::zeros(6, N);
    rows.columns_mut(0, NV).copy_from(&jee);
    add(&mut a, &mut b, rows, -&gamma_ee);
    let n_eq = a.nrows();
    // Torque limits: τ ≤ τ_max and -τ ≤ τ_max.
    let mut rows = DMatrix::zeros(2 * NU, N);
    let mut rhs = DVector::zeros(2 * NU);
    for (k, &dof) in ACTUATED_DOFS.iter().enumerate() {
        rows[(k, NV + k)] = 1.0;
        rows[(NU + k, NV + k)] = -1.0;
        rhs[k] = go2_z1::TAU_MAX[dof];
        rhs[NU + k] = go2_z1::TAU_MAX[dof];
    }
    add(&mut a, &mut b, rows, rhs);
    // Friction cones: s = (μ λ_z, λ_x, λ_y) in the second-order cone, s = -A x.
    for foot in 0..4 {
        let mut rows = DMatrix::zeros(3, N);
        let l = NV + NU + 3 * foot;
        rows[(0, l + 2)] = -MU;
        rows[(1, l)] = -1.0;
        rows[(2, l + 1)] = -1.0;
        add(&mut a, &mut b, rows, DVector::zeros(3));
    }
    let mut cones: Vec<SupportedConeT<f64>> = vec![ZeroConeT(n_eq), NonnegativeConeT(2 * NU)];
    cones.extend((0..4).map(|_| SecondOrderConeT(3)));

    let weights: Vec<f64> = (0..N)
        .map(|k| match k {
            k if k < NV => W_ACC,
            k if k < NV + NU => W_TAU,
            _ => W_FORCE,
        })
        .collect();
    let p = CscMatrix::new_from_triplets(N, N, (0..N).collect(), (0..N).collect(), weights);
    let a_csc = csc(&a);
    let settings = DefaultSettingsBuilder::default()
        .verbose(false)
        .build()
        .expect("valid settings");
    let mut solver = DefaultSolver::new(&p, &vec![0.0; N], &a_csc, &b, &cones, settings)
        .expect("a well-formed problem");
    solver.solve();
    let status = solver.solution.status;
    if status != SolverStatus::Solved {
        return (status, None);
    }
    let x = DVector::from_column_slice(&solver.solution.x);
    let acc = x.rows(0, NV).into_owned();
    let tau = x.rows(NV, NU).into_owned();
    let lambda = x.rows(NV + NU, NC).into_owned();
    // Check the solution against the model.
    let mut s_tau = DVector::zeros(NV);
    for (k, &dof) in ACTUATED_DOFS.iter().enumerate() {
        s_tau[dof] = tau[k];
    }
    let r = &m * &acc + &h - s_tau - jc.transpose() * &lambda - &push;
    let amax = |v: &DVector<f64>| v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let ratio = |range: std::ops::Range<usize>| {
        range
            .map(|k| tau[k].abs() / go2_z1::TAU_MAX[ACTUATED_DOFS[k]])
            .fold(0.0f64, f64::max)
    };
    let step = Step {
        a: std::array::from_fn(|k| acc[k]),
        tau: std::array::from_fn(|k| tau[k]),
        lambda: std::array::from_fn(|k| lambda[k]),
        margins: std::array::from_fn(|foot| {
            let f = &lambda.as_slice()[3 * foot..3 * foot + 3];
            MU * f[2] - f[0].hypot(f[1])
        }),
        residual: (amax(&r.rows(0, 6).into_owned()), amax(&r)),
        contact_residual: amax(&(&jc * &acc + &gamma)),
        gripper_residual: amax(&(&jee * &acc + &gamma_ee)),
        torque_ratio: (ratio(0..12), ratio(12..NU)),
    };
    (status, Some(step))
}

/// Appends the rows `rows` of `A` and `rhs` of `b`.
fn add(a: &mut DMatrix<f64>, b: &mut Vec<f64>, rows: DMatrix<f64>, rhs: DVector<f64>) {
    let r = a.nrows();
    *a = a.clone().resize_vertically(r + rows.nrows(), 0.0);
    a.rows_mut(r, rows.nrows()).copy_from(&rows);
    b.extend(rhs.iter());
}

/// A dense matrix in Clarabel's compressed-column form (nonzeros only).
fn csc(a: &DMatrix<f64>) -> CscMatrix<f64> {
    let (mut rows, mut cols, mut vals) = (vec![], vec![], vec![]);
    for c in 0..a.ncols() {
        for r in 0..a.nrows() {
            if a[(r, c)] != 0.0 {
                rows.push(r);
                cols.push(c);
                vals.push(a[(r, c)]);
            }
        }
    }
    CscMatrix::new_from_triplets(a.nrows(), a.ncols(), rows, cols, vals)
}

/// The wall's force on the gripper for a push `push` (N) along world +x.
pub fn wall(push: f64) -> [f64; 3] {
    [-push, 0.0, 0.0]
}

/// What the push sweep found.
#[derive(Debug)]
pub struct Summary {
    /// `(F, step)` for every feasible push of the 1 N sweep.
    pub sweep: Vec<(f64, Step)>,
    /// The largest feasible push (bisection to 0.01 N) and Clarabel's status just above it.
    pub limit: (f64, SolverStatus),
    /// The first push of the sweep at which a foot's margin is below 1e-3 N, and the foot.
    pub first_at_cone: Option<(f64, usize)>,
    /// The gripper's height above the feet and its reach ahead of the base (m).
    pub gripper: (f64, f64),
}

/// Sweeps the push from 0 until the QP is infeasible (at most 300 N).
pub fn run() -> Summary {
    let q = standing();
    let v = [0.0; NV];
    let mut sweep = vec![];
    let mut last_ok = 0.0;
    let mut first_bad = None;
    for k in 0..=300 {
        let push = k as f64;
        match solve(&q, &v, wall(push)) {
            (_, Some(step)) => {
                sweep.push((push, step));
                last_ok = push;
            }
            (status, None) => {
                first_bad = Some((push, status));
                break;
            }
        }
    }
    let (mut lo, (mut hi, mut status)) =
        (last_ok, first_bad.expect("a push the robot cannot hold"));
    while hi - lo > 0.01 {
        let mid = 0.5 * (lo + hi);
        match solve(&q, &v, wall(mid)) {
            (_, Some(_)) => lo = mid,
            (s, None) => (hi, status) = (mid, s),
        }
    }
    let first_at_cone = sweep.iter().find_map(|(push, s)| {
        (0..4)
            .find(|&f| s.margins[f] < 1e-3)
            .map(|foot| (*push, foot))
    });
    let g = go2_z1::frame_placement(&q, Frame::GripperLink);
    let foot = go2_z1::frame_placement(&q, Frame::FLFoot);
    Summary {
        sweep,
        limit: (lo, status),
        first_at_cone,
        gripper: (g[2][3] - foot[2][3], g[0][3] - q[0]),
    }
}

// ---------------------------------------------------------------- plots

const COLORS: [RGBColor; 4] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
];

/// One line of a panel: dashed or solid.
struct Line {
    label: String,
    color: RGBColor,
    dashed: bool,
    points: Vec<(f64, f64)>,
}

/// A vertical marker line.
struct Marker {
    x: f64,
    label: String,
    color: RGBColor,
}

/// A panel; `log` for a logarithmic y axis. The x range covers the markers.
fn panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    (x_label, y_label): (&str, &str),
    lines: &[Line],
    markers: &[Marker],
    (log, legend): (bool, SeriesLabelPosition),
) -> Result<(), Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    let floor = if log { 1e-16 } else { f64::MIN };
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in lines.iter().flat_map(|l| l.points.iter()) {
        let y = y.max(floor);
        (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
    }
    for m in markers {
        x1 = x1.max(m.x + 0.02 * (x1 - x0));
    }
    let (y0, y1) = if log {
        (y0 / 3.0, y1 * 3.0)
    } else {
        let pad = 0.05 * (y1 - y0).max(1e-12);
        (y0 - pad, y1 + pad)
    };
    let builder = |area| {
        let mut b = ChartBuilder::on(area);
        b.caption(title, ("sans-serif", 18))
            .margin(10)
            .x_label_area_size(36)
            .y_label_area_size(64);
        b
    };
    macro_rules! draw {
        ($chart:expr) => {{
            let mut chart = $chart;
            let mut mesh = chart.configure_mesh();
            mesh.x_desc(x_label)
                .y_desc(y_label)
                .max_light_lines(1)
                .label_style(("sans-serif", 13));
            if log {
                mesh.y_label_formatter(&|y| format!("{y:.0e}"));
            }
            mesh.draw()?;
            for l in lines {
                let color = l.color;
                let style = color.stroke_width(2);
                let points = l.points.iter().map(|&(x, y)| (x, y.max(floor)));
                let drawn = if l.dashed {
                    chart.draw_series(DashedLineSeries::new(points, 8, 6, style))?
                } else {
                    chart.draw_series(LineSeries::new(points, style))?
                };
                let dashed = l.dashed;
                drawn.label(l.label.clone()).legend(move |(x, y)| {
                    if dashed {
                        PathElement::new([(x, y), (x + 8, y)], style)
                    } else {
                        PathElement::new([(x, y), (x + 18, y)], style)
                    }
                });
            }
            for m in markers {
                let color = m.color;
                chart
                    .draw_series(LineSeries::new(
                        [(m.x, y0), (m.x, y1)],
                        color.stroke_width(2),
                    ))?
                    .label(m.label.clone())
                    .legend(move |(x, y)| {
                        PathElement::new([(x, y), (x + 18, y)], color.stroke_width(2))
                    });
            }
            chart
                .configure_series_labels()
                .position(legend.clone())
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .label_font(("sans-serif", 13))
                .draw()?;
        }};
    }
    if log {
        draw!(builder(area).build_cartesian_2d(x0..x1, (y0..y1).log_scale())?);
    } else {
        draw!(builder(area).build_cartesian_2d(x0..x1, y0..y1)?);
    }
    Ok(())
}

/// The push sweep: each foot's friction margin and normal force, and the
/// equation-of-motion residual, against the push, up to the largest feasible
/// push; written to `dir/wbc_qp.png`.
pub fn plot(
    s: &Summary,
    dir: &std::path::Path,
) -> Result<std::path::PathBuf, Box<dyn std::error::Error>> {
    plot::fonts();
    let path = plot::out_path(dir, "wbc_qp.png");
    let file = path.clone();
    let root = BitMapBackend::new(&file, (1500, 520)).into_drawing_area();
    root.fill(&WHITE)?;
    let root = root.titled(
        "Go2+Z1 one-step WBC QP (Clarabel): the gripper pushes a wall along +x",
        ("sans-serif", 24),
    )?;
    let areas = root.split_evenly((1, 3));
    let mut markers = vec![];
    if let Some((push, foot)) = s.first_at_cone {
        markers.push(Marker {
            x: push,
            label: format!("{} at its cone's edge", FEET[foot]),
            color: RGBColor(150, 150, 150),
        });
    }
    markers.push(Marker {
        x: s.limit.0,
        label: format!("infeasible above {:.1} N", s.limit.0),
        color: BLACK,
    });
    let per_foot = |f: fn(&Step, usize) -> f64| -> Vec<Line> {
        (0..4)
            .map(|foot| Line {
                label: format!("{} foot", FEET[foot]),
                color: COLORS[foot / 2 * 2],
                dashed: foot % 2 == 1,
                points: s.sweep.iter().map(|(p, st)| (*p, f(st, foot))).collect(),
            })
            .collect()
    };
    panel(
        &areas[0],
        "friction margin μ f_z - ‖f_t‖ per foot",
        ("push F (N)", "margin (N)"),
        &per_foot(|st, foot| st.margins[foot]),
        &markers,
        (false, SeriesLabelPosition::LowerLeft),
    )?;
    panel(
        &areas[1],
        "normal force f_z per foot",
        ("push F (N)", "f_z (N)"),
        &per_foot(|st, foot| st.lambda[3 * foot + 2]),
        &markers,
        (false, SeriesLabelPosition::LowerLeft),
    )?;
    let residual = [
        Line {
            label: "all 24 rows".into(),
            color: COLORS[1],
            dashed: false,
            points: s.sweep.iter().map(|(p, st)| (*p, st.residual.1)).collect(),
        },
        Line {
            label: "the base's 6 rows".into(),
            color: COLORS[0],
            dashed: true,
            points: s.sweep.iter().map(|(p, st)| (*p, st.residual.0)).collect(),
        },
    ];
    panel(
        &areas[2],
        "residual of M v̇ + h - Sτ - J_cᵀλ - J_eeᵀf",
        ("push F (N)", "largest |row| (N, N·m)"),
        &residual,
        &markers,
        (true, SeriesLabelPosition::LowerRight),
    )?;
    root.present()?;
    Ok(path)
}

#[allow(dead_code)]
fn main() {
    let s = run();
    println!(
        "Go2 + Z1 standing on four point contacts (μ = {MU}), base and gripper held still; \
         {} unknowns (v̇ {NV}, τ {NU}, λ {NC}), solved by Clarabel",
        N
    );
    println!(
        "push F (N) | friction margin FL FR RL RR (N) | normal force FL FR RL RR (N) | base-row residual | \
         all rows | max |τ|/τ_max legs, arm"
    );
    for (push, st) in &s.sweep {
        if (*push as usize) % 10 == 0 || *push == s.sweep.last().expect("sweep").0 {
            println!(
                "{push:10.0} | {:7.2} {:7.2} {:7.2} {:7.2} | {:6.1} {:6.1} {:6.1} {:6.1} | {:9.1e} | {:8.1e} | {:.2}, {:.2}",
                st.margins[0],
                st.margins[1],
                st.margins[2],
                st.margins[3],
                st.lambda[2],
                st.lambda[5],
                st.lambda[8],
                st.lambda[11],
                st.residual.0,
                st.residual.1,
                st.torque_ratio.0,
                st.torque_ratio.1
            );
        }
    }
    println!(
        "the gripper is {:.3} m above the feet and {:.3} m ahead of the base's origin",
        s.gripper.0, s.gripper.1
    );
    if let Some((push, foot)) = s.first_at_cone {
        println!(
            "the push pitches the robot backward and unloads the front feet: the {} foot reaches its friction \
             cone's boundary first, at F = {push:.0} N (from there on the front feet's friction is saturated)",
            FEET[foot]
        );
    }
    let (last_push, last) = s.sweep.last().expect("sweep");
    println!(
        "largest push the robot can hold: {:.2} N; at {last_push:.0} N the front feet carry {:.2} N and {:.2} N: \
         no force distribution holds the robot still beyond it (it would tip backward about its rear feet); \
         just above it Clarabel reports {:?}",
        s.limit.0, last.lambda[2], last.lambda[5], s.limit.1
    );
    let (q, v) = moving();
    let (status, step) = solve(&q, &v, wall(20.0));
    let step = step.expect("the QP is feasible at 20 N");
    let drift = go2_z1::contact_drift(&q, &v);
    println!(
        "moving state (base 0.1 m/s and 0.37 rad/s, feet still, arm joints up to 0.5 rad/s, ‖J̇_c v‖ = {:.2} m/s²), \
         F = 20 N: {status:?}, \
         dynamics residual {:.1e}, contact accelerations {:.1e} m/s², gripper acceleration {:.1e}, \
         base acceleration {:.1e}, smallest friction margin {:.2} N, torques at most {:.2} of their limits",
        drift.iter().map(|x| x * x).sum::<f64>().sqrt(),
        step.residual.1,
        step.contact_residual,
        step.gripper_residual,
        step.a[..6].iter().fold(0.0f64, |m, x| m.max(x.abs())),
        step.margins.iter().copied().fold(f64::MAX, f64::min),
        step.torque_ratio.0.max(step.torque_ratio.1)
    );
    let path = plot(&s, &plot::plots_dir()).expect("the plot is written");
    println!("plot: {}", path.display());
}

// The example's numbers, asserted: `cargo test --all-features --example
// wbc_qp` runs these.
#[cfg(test)]
#[path = "common/check.rs"]
mod check;

#[cfg(test)]
mod tests {
    use super::check;

    fn check_step(step: &super::Step, what: &str) {
        assert!(step.tau.iter().all(|t| t.is_finite()), "{what}: {step:?}");
        assert!(step.residual.1 < 1e-6, "{what}: dynamics {step:?}");
        assert!(step.contact_residual < 1e-6, "{what}: contacts {step:?}");
        assert!(step.gripper_residual < 1e-6, "{what}: gripper {step:?}");
        assert!(
            step.a[..6].iter().all(|x| x.abs() < 1e-6),
            "{what}: base {step:?}"
        );
        for foot in 0..4 {
            let f = &step.lambda[3 * foot..3 * foot + 3];
            assert!(
                f[0].hypot(f[1]) <= super::MU * f[2] + 1e-6,
                "{what}: foot {foot} outside its cone {step:?}"
            );
        }
        assert!(
            step.torque_ratio.0 <= 1.0 + 1e-6 && step.torque_ratio.1 <= 1.0 + 1e-6,
            "{what}: torque limits {step:?}"
        );
    }

    /// The QP's solution satisfies its constraints (dynamics, contacts, the held
    /// base and gripper, friction cones, torque limits) at a few pushes, standing
    /// and moving; a push the robot cannot hold is infeasible; the sweep finds the
    /// front feet at their cones' edge before the limit.
    #[test]
    fn wbc_qp_constraints() {
        let q = super::standing();
        for push in [0.0, 20.0, 40.0, 65.0] {
            let (status, step) = super::solve(&q, &[0.0; 24], super::wall(push));
            let step = step.unwrap_or_else(|| panic!("{push} N: {status:?}"));
            check_step(&step, &format!("standing, {push} N"));
        }
        let (q, v) = super::moving();
        let (status, step) = super::solve(&q, &v, super::wall(20.0));
        check_step(
            &step.unwrap_or_else(|| panic!("{status:?}")),
            "moving, 20 N",
        );
        let (_, step) = super::solve(&super::standing(), &[0.0; 24], super::wall(200.0));
        assert!(step.is_none(), "200 N cannot be held");

        let s = super::run();
        let p = super::plot(&s, &check::plot_dir("wbc_qp")).expect("the plot is written");
        check::assert_drawn(&p, 400, 16);
        assert!(s.limit.0 > 60.0 && s.limit.0 < 80.0, "{:?}", s.limit);
        let (push, foot) = s.first_at_cone.expect("a foot reaches its cone");
        assert!(foot < 2 && push < s.limit.0, "{push} {foot}");
        for (push, step) in &s.sweep {
            check_step(step, &format!("sweep, {push} N"));
        }
    }
}
