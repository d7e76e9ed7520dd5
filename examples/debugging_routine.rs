//! The debugging routine for a whole-body model, on generated Go2 + Z1 code,
//! then on two models with an injected bug to see which step catches it.
//!
//! 1. **Static h is gravity**: `nonlinear_effects(q, 0) = generalized_gravity(q)`
//!    at random `q`, `g(q) = m J_comᵀ g₀` (`jacobian_center_of_mass`), and the
//!    force on the base rows of `g` is the weight of the robot as weighed:
//!    `‖g_base,lin‖ = m_scale · 9.81` with `m_scale` the robot's known mass
//!    (21.31 kg, the URDF's; here the "scale" is the correct generated model).
//! 2. **`Jᵀf` directions**: a unit force at the gripper, `τ = J_linᵀ f`
//!    (`frame_jacobian_local_world_aligned`), equals the lever-arm
//!    computation from frame placements: base linear rows `Rᵀ f`, base
//!    angular rows `Rᵀ (r × f)`, arm joint `j`: `a_j · ((p - p_j) × f)`,
//!    legs 0; for `+z` the base rows push up and the shoulder is lifted.
//! 3. **`M` symmetric and positive definite**: `max |M - Mᵀ|`, Cholesky,
//!    smallest eigenvalue, at random `q`.
//! 4. **Energy is conserved** in a frictionless free-floating fall (no
//!    contacts, gravity on, `τ = 0`): semi-implicit Euler `v += h aba(q, v, 0)`,
//!    `q = integrate(q, h v)` for 1 s at `h = 4, 2, 1, 0.5` ms; the largest
//!    `|E(t) - E(0)|`, `E = kinetic_energy + potential_energy`, falls as `h¹`
//!    (the method is first order). In a free fall the centre of mass's
//!    speed grows without bound, and so does the error: the discrete fall
//!    lags the exact one by `g h t / 2`, which costs `m g² h t / 2` of
//!    potential energy, linear in `h` and in `t`.
//!
//! Then the "inject a bug" exercise on the runtime (`rbdgen::runtime`, the
//! same algorithms on a `Model` built at run time from a modified URDF):
//! (a) the arm's `link04` with mass 0 (its inertia tensor kept), (b) the
//! arm's last body massless (`link06`, `gripperStator`, `gripperMover`: mass
//! and inertia 0). The correct URDF on the runtime gives the generated code's
//! numbers.
//!
//! Run with `cargo run --release --example debugging_routine`; plot in
//! `target/plots/debugging_routine.png`.
//!
//! # Walkthrough
//!
//! Four checks that a whole-body model is sane, run on the generated Go2+Z1
//! code and then, through a common trait, on the runtime (`rbdgen::runtime`)
//! with the correct URDF and two broken copies made at run time:
//!
//! 1. **static h is gravity**: `nonlinear_effects(q, 0) = generalized_gravity(q)`
//!    and `g(q) = m J_comᵀ g₀` (`jacobian_center_of_mass`) at 20 random `q`, and
//!    the base rows of `g` carry the robot's weight as weighed (the "scale" is
//!    the correct model's `TOTAL_MASS`, 21.306 kg);
//! 2. **`Jᵀf` directions**: a unit force at the gripper, `J_linᵀ f`
//!    (`frame_jacobian_local_world_aligned`), equals the lever-arm computation
//!    from frame placements (base rows `Rᵀ f`, `Rᵀ (r × f)`, arm joint `j`: `a_j ·
//!    ((p − p_j) × f)`, legs 0);
//! 3. **`M` symmetric and positive definite** (`crba`, nalgebra's Cholesky and
//!    eigenvalues) at 20 random `q`;
//! 4. **energy** in a frictionless free fall (no contacts, gravity on, `τ = 0`)
//!    with semi-implicit Euler, `v += h aba(q, v, 0)`, `q = integrate(q, h v)`,
//!    1 s at `h = 4, 2, 1, 0.5` ms: the largest `|E(t) − E(0)|`, `E =
//!    kinetic_energy + potential_energy`, and its order in `h`.
//!
//! ```text
//! == The debugging routine on generated Go2 + Z1 code (nv = 24)
//! 1. static h: max |h(q, 0) - g(q)| = 0.0e0, max |g(q) - m J_comᵀ g₀| = 8.5e-14 over 20 random q; the base rows carry 209.0116 N = 21.3060 kg x 9.81 (scale: 21.3060 kg, off by -5.7e-14 N)
//! 2. Jᵀf: a unit force at the gripper gives the lever-arm torques to 2.1e-16; for +1 N up: base force z +1.000 N, base moment y -0.613 N·m (the arm reaches forward: the push pitches the base nose-up), shoulder -0.328 N·m and elbow -0.517 N·m (negative about their +y axes: lifting the arm), legs 0
//! 3. M: max |M - Mᵀ| = 0.0e0, Cholesky succeeds, smallest eigenvalue 5.74e-4 over 20 random q
//! 4. energy, free fall from 1 m with random v (kinetic 2.33 J, potential 225.62 J at the start; the fall converts up to 1018.9 J in 1 s):
//!    h =   4 ms: max |E(t) - E(0)| = 1.377e0 J
//!    h =   2 ms: max |E(t) - E(0)| = 6.914e-1 J
//!    h =   1 ms: max |E(t) - E(0)| = 3.464e-1 J
//!    h = 0.5 ms: max |E(t) - E(0)| = 1.734e-1 J
//!    the drift halves with h: order 1.00 (semi-implicit Euler is first order); at 0.5 ms it is 1.7e-4 of the energy converted
//!
//! == Inject a bug: which step catches it?
//!                              model | static h & weight | Jᵀf | M sym/PD | energy
//!                     generated code |              pass | pass |     pass | pass
//!              runtime, correct URDF |              pass | pass |     pass | pass
//!             bug (a): link04 mass 0 |              FAIL | pass |     pass | pass
//!    bug (b): last arm body massless |              FAIL | pass |     FAIL | FAIL
//! bug (a): link04 mass 0: weight off by -5.533 N (-0.564 kg), h(q,0) - g(q) 0.0e0, g - m J_comᵀ g₀ 8.5e-14, Cholesky succeeds, smallest eigenvalue 5.65e-4, energy drift at 0.5 ms 2.08e-1 J, order 1.00
//! bug (b): last arm body massless: weight off by -10.703 N (-1.091 kg), h(q,0) - g(q) 0.0e0, g - m J_comᵀ g₀ 5.7e-14, Cholesky fails, smallest eigenvalue 0.00e0, energy drift at 0.5 ms NaN J, order NaN
//! ```
//!
//! The energy error is first order (it halves with `h`, order 1.00) and small
//! against the 1019 J the fall converts; in a free fall it does not stay
//! bounded, since the discrete fall lags the exact one by `g h t / 2`.
//!
//! **Which step catches a zero link mass.** Bug (a) sets the mass of the arm's
//! `link04` to 0 and keeps its inertia tensor. The model stays self-consistent:
//! `h(q, 0) = g(q)`, `M` is symmetric and positive definite (the links beyond
//! `link04` still load its joint), and energy is conserved. Only the weight
//! check sees it: the base carries 5.53 N (0.564 kg) less than the robot
//! weighs. Identities test the code, not the model; a check against a
//! measurement does. Bug (b) removes the mass and inertia of the arm's last
//! body (`link06`, `gripperStator`, `gripperMover`): its joint carries nothing,
//! `M` is singular (Cholesky fails, smallest eigenvalue 0), and `aba` divides by
//! zero, so the energy check fails with NaN too. `Jᵀf`, pure kinematics, passes
//! in both cases.
//!
//! ![energy drift of the free fall against time and against the step size](../docs/img/debugging_routine.png)
//!
//! The test asserts the table above: the generated code and the runtime pass
//! every step with the same drifts (to 1e-8), order within 0.05 of 1, the signs of
//! the unit push; bug (a) fails the weight check alone, by `0.56404563 × 9.81`
//! N; bug (b) also fails Cholesky and the energy check.

use nalgebra::{DMatrix, DVector};
use plotters::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rbdgen::runtime::{self as rt, Data, FrameKind, Model, ReferenceFrame};

#[path = "common/plot.rs"]
mod plot;

rbdgen::robot_dynamics!(
    mod go2_z1,
    "models/go2_z1.urdf",
    floating_base,
    frames = [base, link01, link02, link03, link04, link05, link06, gripper_link],
    functions = [
        crba, nonlinear_effects, generalized_gravity, aba, integrate, kinetic_energy,
        potential_energy, jacobian_center_of_mass, frame_jacobian_local_world_aligned,
        frame_placement,
    ]
);

use go2_z1::{NQ, NV};

const URDF: &str = include_str!("../models/go2_z1.urdf");
/// Gravity (m/s²).
const G: f64 = 9.81;
/// The arm's joint axes in their child links' frames (`joint1`..`joint6` of the URDF).
const ARM_AXES: [[f64; 3]; 6] = [
    [0.0, 0.0, 1.0],
    [0.0, 1.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, 0.0, 1.0],
    [1.0, 0.0, 0.0],
];
/// The frames whose placements the `Jᵀf` check reads: base, link01..06, gripper.
const FRAMES: [&str; 8] = [
    "base",
    "link01",
    "link02",
    "link03",
    "link04",
    "link05",
    "link06",
    "gripper_link",
];
/// Step sizes of the energy check (s).
pub const STEPS: [f64; 4] = [0.004, 0.002, 0.001, 0.0005];

/// The dynamics a check needs, from generated code or from the runtime.
pub trait Dynamics {
    /// `M(q)`.
    fn mass_matrix(&mut self, q: &[f64]) -> DMatrix<f64>;
    /// `h(q, v)`.
    fn nle(&mut self, q: &[f64], v: &[f64]) -> DVector<f64>;
    /// `g(q)`.
    fn gravity(&mut self, q: &[f64]) -> DVector<f64>;
    /// `m J_comᵀ (0, 0, 9.81)`.
    fn com_gravity(&mut self, q: &[f64]) -> DVector<f64>;
    /// `aba(q, v, 0)`.
    fn free_acceleration(&mut self, q: &[f64], v: &[f64]) -> DVector<f64>;
    /// `integrate(q, v)`.
    fn integrate(&mut self, q: &[f64], v: &[f64]) -> Vec<f64>;
    /// Kinetic and potential energy (J).
    fn energy(&mut self, q: &[f64], v: &[f64]) -> (f64, f64);
    /// The gripper's LOCAL_WORLD_ALIGNED Jacobian, 6 x nv.
    fn gripper_jacobian(&mut self, q: &[f64]) -> DMatrix<f64>;
    /// Placements of `FRAMES`.
    fn placements(&mut self, q: &[f64]) -> Vec<[[f64; 4]; 4]>;
}

/// The generated module.
pub struct Generated;

fn arr<const K: usize>(x: &[f64]) -> [f64; K] {
    x.try_into().expect("length")
}

fn rows<const R: usize, const C: usize>(m: &[[f64; C]; R]) -> DMatrix<f64> {
    DMatrix::from_row_iterator(R, C, m.iter().flatten().copied())
}

impl Dynamics for Generated {
    fn mass_matrix(&mut self, q: &[f64]) -> DMatrix<f64> {
        rows(&go2_z1::crba(&arr(q)))
    }
    fn nle(&mut self, q: &[f64], v: &[f64]) -> DVector<f64> {
        DVector::from_row_slice(&go2_z1::nonlinear_effects(&arr(q), &arr(v)))
    }
    fn gravity(&mut self, q: &[f64]) -> DVector<f64> {
        DVector::from_row_slice(&go2_z1::generalized_gravity(&arr(q)))
    }
    fn com_gravity(&mut self, q: &[f64]) -> DVector<f64> {
        let j = rows(&go2_z1::jacobian_center_of_mass(&arr(q)));
        go2_z1::TOTAL_MASS * j.transpose() * DVector::from_row_slice(&[0.0, 0.0, G])
    }
    fn free_acceleration(&mut self, q: &[f64], v: &[f64]) -> DVector<f64> {
        DVector::from_row_slice(&go2_z1::aba(&arr(q), &arr(v), &[0.0; NV]))
    }
    fn integrate(&mut self, q: &[f64], v: &[f64]) -> Vec<f64> {
        go2_z1::integrate(&arr(q), &arr(v)).to_vec()
    }
    fn energy(&mut self, q: &[f64], v: &[f64]) -> (f64, f64) {
        (
            go2_z1::kinetic_energy(&arr(q), &arr(v)),
            go2_z1::potential_energy(&arr(q)),
        )
    }
    fn gripper_jacobian(&mut self, q: &[f64]) -> DMatrix<f64> {
        rows(&go2_z1::frame_jacobian_local_world_aligned(
            &arr(q),
            go2_z1::Frame::GripperLink,
        ))
    }
    fn placements(&mut self, q: &[f64]) -> Vec<[[f64; 4]; 4]> {
        use go2_z1::Frame;
        [
            Frame::Base,
            Frame::Link01,
            Frame::Link02,
            Frame::Link03,
            Frame::Link04,
            Frame::Link05,
            Frame::Link06,
            Frame::GripperLink,
        ]
        .iter()
        .map(|&f| go2_z1::frame_placement(&arr(q), f))
        .collect()
    }
}

/// A runtime model (`rbdgen::runtime`) and its workspace.
pub struct Runtime {
    model: Model,
    data: Data<f64>,
    frames: Vec<usize>,
    gripper: usize,
}

impl Runtime {
    /// The model of `urdf` with a free-flyer base.
    pub fn new(urdf: &str) -> Runtime {
        let model = Model::from_urdf_str(urdf, true).expect("a valid URDF");
        let data = Data::new(&model);
        let frames: Vec<usize> = FRAMES
            .iter()
            .map(|n| model.frame_id(n, FrameKind::Body).expect("a link frame"))
            .collect();
        let gripper = frames[7];
        Runtime {
            model,
            data,
            frames,
            gripper,
        }
    }

    /// Total mass of the moving bodies (kg).
    pub fn mass(&self) -> f64 {
        self.model.joints.iter().map(|j| j.inertia.mass).sum()
    }
}

impl Dynamics for Runtime {
    fn mass_matrix(&mut self, q: &[f64]) -> DMatrix<f64> {
        let n = self.model.nv;
        DMatrix::from_row_slice(
            n,
            n,
            rt::crba(&self.model, &mut self.data, q).expect("sized for the model"),
        )
    }
    fn nle(&mut self, q: &[f64], v: &[f64]) -> DVector<f64> {
        DVector::from_row_slice(
            rt::nonlinear_effects(&self.model, &mut self.data, q, v).expect("sized for the model"),
        )
    }
    fn gravity(&mut self, q: &[f64]) -> DVector<f64> {
        DVector::from_row_slice(
            rt::generalized_gravity(&self.model, &mut self.data, q).expect("sized for the model"),
        )
    }
    fn com_gravity(&mut self, q: &[f64]) -> DVector<f64> {
        let n = self.model.nv;
        let j = DMatrix::from_row_slice(
            3,
            n,
            rt::jacobian_center_of_mass(&self.model, &mut self.data, q)
                .expect("sized for the model"),
        );
        self.mass() * j.transpose() * DVector::from_row_slice(&[0.0, 0.0, G])
    }
    fn free_acceleration(&mut self, q: &[f64], v: &[f64]) -> DVector<f64> {
        let tau = vec![0.0; self.model.nv];
        DVector::from_row_slice(
            rt::aba(&self.model, &mut self.data, q, v, &tau).expect("sized for the model"),
        )
    }
    fn integrate(&mut self, q: &[f64], v: &[f64]) -> Vec<f64> {
        rt::integrate(&self.model, q, v).expect("sized for the model")
    }
    fn energy(&mut self, q: &[f64], v: &[f64]) -> (f64, f64) {
        (
            rt::kinetic_energy(&self.model, &mut self.data, q, v).expect("sized for the model"),
            rt::potential_energy(&self.model, &mut self.data, q).expect("sized for the model"),
        )
    }
    fn gripper_jacobian(&mut self, q: &[f64]) -> DMatrix<f64> {
        rt::compute_joint_jacobians(&self.model, &mut self.data, q).expect("sized for the model");
        let j = rt::frame_jacobian(
            &self.model,
            &self.data,
            self.gripper,
            ReferenceFrame::LocalWorldAligned,
        )
        .expect("sized for the model");
        DMatrix::from_row_slice(6, self.model.nv, &j)
    }
    fn placements(&mut self, q: &[f64]) -> Vec<[[f64; 4]; 4]> {
        rt::forward_kinematics(&self.model, &mut self.data, q).expect("sized for the model");
        self.frames
            .iter()
            .map(|&f| {
                let t =
                    rt::frame_placement(&self.model, &self.data, f).expect("sized for the model");
                let (r, p) = (t.rotation.0, t.translation.0);
                [
                    [r[0][0], r[0][1], r[0][2], p[0]],
                    [r[1][0], r[1][1], r[1][2], p[1]],
                    [r[2][0], r[2][1], r[2][2], p[2]],
                    [0.0, 0.0, 0.0, 1.0],
                ]
            })
            .collect()
    }
}

/// The URDF with the `<mass>` (and, `inertia_too`, the `<inertia>`) of the
/// links `links` set to zero.
pub fn without_mass(links: &[&str], inertia_too: bool) -> String {
    let mut out = String::new();
    let mut current: Option<&str> = None;
    for line in URDF.lines() {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("<link name=\"") {
            let name = rest.split('"').next().unwrap_or("");
            current = links.iter().copied().find(|&l| l == name);
        }
        let edited = match current {
            Some(_) if trimmed.starts_with("<mass ") => {
                let indent = &line[..line.len() - trimmed.len()];
                format!("{indent}<mass value=\"0\" />")
            }
            Some(_) if inertia_too && trimmed.starts_with("<inertia ") => {
                let indent = &line[..line.len() - trimmed.len()];
                format!(
                    "{indent}<inertia ixx=\"0\" ixy=\"0\" ixz=\"0\" iyy=\"0\" iyz=\"0\" izz=\"0\" />"
                )
            }
            _ => line.to_string(),
        };
        if trimmed.starts_with("</link>") {
            current = None;
        }
        out.push_str(&edited);
        out.push('\n');
    }
    out
}

/// The robot's mass as weighed (kg): the correct model's.
pub const SCALE_MASS: f64 = go2_z1::TOTAL_MASS;

/// What the routine found on one model.
#[derive(Debug, Clone)]
pub struct Report {
    /// Which model.
    pub name: String,
    /// 1. `max |h(q, 0) - g(q)|`, `max |g(q) - m J_comᵀ g₀|` (N, N·m), at random `q`.
    pub static_h: (f64, f64),
    /// 1. `‖g_base,lin‖ - m_scale · 9.81` (N).
    pub weight_error: f64,
    /// 2. Largest deviation of `J_linᵀ f` from the lever-arm computation, unit `f` along x, y, z.
    pub jtf_error: f64,
    /// 2. For `f = +z` at the standing posture: base force z (N), base moment y
    ///    (N·m), shoulder (`joint2`) and elbow (`joint3`) torques (N·m), largest |leg row|.
    pub jtf_up: [f64; 5],
    /// 3. `max |M - Mᵀ|`.
    pub symmetry: f64,
    /// 3. Cholesky succeeded at every `q`.
    pub cholesky: bool,
    /// 3. Smallest eigenvalue of `M` over the `q`.
    pub min_eigenvalue: f64,
    /// 4. `(h, max |E(t) - E(0)|)` per step size (J).
    pub drift: Vec<(f64, f64)>,
    /// 4. `E(t) - E(0)` along each run, every 10 ms: `(t, ΔE)`.
    pub traces: Vec<Vec<(f64, f64)>>,
    /// 4. Kinetic and potential energy at the start (J).
    pub energy0: (f64, f64),
    /// 4. The energy the fall converts: the largest `|V(t) - V(0)|` (J).
    pub exchanged: f64,
    /// 4. Order of the drift: the mean of `log2(drift(h) / drift(h/2))`.
    pub order: f64,
}

/// Pass or fail per step: static h, `Jᵀf`, `M`, energy.
impl Report {
    /// Step 1: identities to 1e-10 and the weight to 1e-6 N.
    pub fn static_ok(&self) -> bool {
        self.static_h.0 < 1e-10 && self.static_h.1 < 1e-10 && self.weight_error.abs() < 1e-6
    }
    /// Step 2: `Jᵀf` matches the lever arms to 1e-10.
    pub fn jtf_ok(&self) -> bool {
        self.jtf_error < 1e-10
    }
    /// Step 3: symmetric to 1e-12 and positive definite.
    pub fn mass_ok(&self) -> bool {
        self.symmetry < 1e-12 && self.cholesky && self.min_eigenvalue > 0.0
    }
    /// Step 4: finite, the drift at 0.5 ms below 1e-3 of the energy the fall
    /// converts, and first order (`0.9 < order < 1.1`).
    pub fn energy_ok(&self) -> bool {
        let last = self.drift.last().map_or(f64::NAN, |d| d.1);
        last.is_finite() && last < 1e-3 * self.exchanged && (0.9..1.1).contains(&self.order)
    }
}

/// The standing posture, arm reaching forward (shoulder 1.0, elbow -1.2 rad).
pub fn standing() -> [f64; NQ] {
    let mut q = go2_z1::NEUTRAL;
    q[2] = 0.32;
    for leg in 0..4 {
        q[7 + 3 * leg + 1] = 0.8;
        q[7 + 3 * leg + 2] = -1.5;
    }
    q[19..25].copy_from_slice(&[0.0, 1.0, -1.2, 0.0, 0.0, 0.0]);
    q
}

fn random_q(rng: &mut ChaCha8Rng) -> [f64; NQ] {
    let mut q = [0.0; NQ];
    for x in &mut q[..3] {
        *x = rng.gen_range(-1.0..1.0);
    }
    let quat: [f64; 4] = std::array::from_fn(|_| rng.gen_range(-1.0..1.0));
    let n = quat.iter().map(|x| x * x).sum::<f64>().sqrt();
    for k in 0..4 {
        q[3 + k] = quat[k] / n;
    }
    for x in &mut q[7..] {
        *x = rng.gen_range(-1.5..1.5);
    }
    q
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// `R x` and `Rᵀ x` of a placement's rotation.
fn rotate(m: &[[f64; 4]; 4], x: [f64; 3], transpose: bool) -> [f64; 3] {
    std::array::from_fn(|r| {
        (0..3)
            .map(|c| if transpose { m[c][r] } else { m[r][c] } * x[c])
            .sum()
    })
}

/// `J_linᵀ f` expected from the lever arms.
fn lever_arms(p: &[[[f64; 4]; 4]], f: [f64; 3]) -> DVector<f64> {
    let origin = |m: &[[f64; 4]; 4]| [m[0][3], m[1][3], m[2][3]];
    let gripper = origin(&p[7]);
    let mut tau = DVector::zeros(NV);
    let base = &p[0];
    let r = std::array::from_fn(|k| gripper[k] - base[k][3]);
    let lin = rotate(base, f, true);
    let ang = rotate(base, cross(r, f), true);
    for k in 0..3 {
        tau[k] = lin[k];
        tau[3 + k] = ang[k];
    }
    for j in 0..6 {
        let frame = &p[1 + j];
        let axis = rotate(frame, ARM_AXES[j], false);
        let o = origin(frame);
        let r = std::array::from_fn(|k| gripper[k] - o[k]);
        tau[18 + j] = dot(axis, cross(r, f));
    }
    tau
}

/// Runs the four steps on `model`.
pub fn routine(name: &str, model: &mut dyn Dynamics) -> Report {
    let mut rng = ChaCha8Rng::seed_from_u64(72);
    let qs: Vec<[f64; NQ]> = (0..20).map(|_| random_q(&mut rng)).collect();
    let amax = |v: &DVector<f64>| v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    // 1. Static h.
    let mut static_h = (0.0f64, 0.0f64);
    for q in &qs {
        let g = model.gravity(q);
        static_h.0 = static_h.0.max(amax(&(model.nle(q, &[0.0; NV]) - &g)));
        static_h.1 = static_h.1.max(amax(&(model.com_gravity(q) - &g)));
    }
    let g = model.gravity(&standing());
    let weight_error = g.rows(0, 3).norm() - SCALE_MASS * G;
    // 2. Jᵀf.
    let mut jtf_error = 0.0f64;
    let mut jtf_up = [0.0; 5];
    for q in qs.iter().take(5).chain([&standing()]) {
        let j = model.gripper_jacobian(q);
        let p = model.placements(q);
        for axis in 0..3 {
            let mut f = [0.0; 3];
            f[axis] = 1.0;
            let tau = j.rows(0, 3).transpose() * DVector::from_row_slice(&f);
            jtf_error = jtf_error.max(amax(&(&tau - lever_arms(&p, f))));
            if axis == 2 {
                let legs = amax(&tau.rows(6, 12).into_owned());
                jtf_up = [tau[2], tau[4], tau[19], tau[20], legs];
            }
        }
    }
    // 3. M.
    let (mut symmetry, mut cholesky, mut min_eigenvalue) = (0.0f64, true, f64::INFINITY);
    for q in &qs {
        let m = model.mass_matrix(q);
        symmetry = symmetry.max(amax(&DVector::from_column_slice(
            (&m - m.transpose()).as_slice(),
        )));
        cholesky &= m.clone().cholesky().is_some();
        let e = m.symmetric_eigen().eigenvalues.min();
        min_eigenvalue = min_eigenvalue.min(if e.is_nan() { f64::NEG_INFINITY } else { e });
    }
    // 4. Energy.
    let mut q0 = standing();
    q0[2] = 1.0;
    let mut v0 = [0.0; NV];
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    for (k, x) in v0.iter_mut().enumerate() {
        *x = rng.gen_range(-1.0..1.0) * [0.5, 2.0, 4.0][(k >= 3) as usize + (k >= 6) as usize];
    }
    let energy0 = model.energy(&q0, &v0);
    let e0 = energy0.0 + energy0.1;
    let mut exchanged = 0.0f64;
    let mut drift = vec![];
    let mut traces = vec![];
    for &h in &STEPS {
        let n = (1.0 / h).round() as usize;
        let every = (0.01 / h).round() as usize;
        let (mut q, mut v) = (q0.to_vec(), v0.to_vec());
        let mut worst = 0.0f64;
        let mut trace = vec![(0.0, 0.0)];
        for step in 1..=n {
            let a = model.free_acceleration(&q, &v);
            for k in 0..NV {
                v[k] += h * a[k];
            }
            let dq: Vec<f64> = v.iter().map(|x| h * x).collect();
            q = model.integrate(&q, &dq);
            let (kinetic, potential) = model.energy(&q, &v);
            let de = kinetic + potential - e0;
            exchanged = exchanged.max((potential - energy0.1).abs());
            worst = if de.is_nan() {
                f64::NAN
            } else {
                worst.max(de.abs())
            };
            if step % every == 0 {
                trace.push((step as f64 * h, de));
            }
        }
        drift.push((h, worst));
        traces.push(trace);
    }
    let order = drift
        .windows(2)
        .map(|w| (w[0].1 / w[1].1).log2())
        .sum::<f64>()
        / (drift.len() - 1) as f64;
    Report {
        name: name.to_string(),
        static_h,
        weight_error,
        jtf_error,
        jtf_up,
        symmetry,
        cholesky,
        min_eigenvalue,
        drift,
        traces,
        energy0,
        exchanged,
        order,
    }
}

/// The routine on the generated code, on the runtime with the correct URDF,
/// and on the two buggy models.
pub fn run() -> Vec<Report> {
    vec![
        routine("generated code", &mut Generated),
        routine("runtime, correct URDF", &mut Runtime::new(URDF)),
        routine(
            "bug (a): link04 mass 0",
            &mut Runtime::new(&without_mass(&["link04"], false)),
        ),
        routine(
            "bug (b): last arm body massless",
            &mut Runtime::new(&without_mass(
                &["link06", "gripperStator", "gripperMover"],
                true,
            )),
        ),
    ]
}

/// The frictionless free fall: the total energy's drift over time per step
/// size, and the drift against the step size; written to
/// `dir/debugging_routine.png`.
pub fn plot(
    r: &Report,
    dir: &std::path::Path,
) -> Result<std::path::PathBuf, Box<dyn std::error::Error>> {
    plot::fonts();
    let path = plot::out_path(dir, "debugging_routine.png");
    let file = path.clone();
    let root = BitMapBackend::new(&file, (1400, 520)).into_drawing_area();
    root.fill(&WHITE)?;
    let root = root.titled(
        "Go2+Z1 free fall, no contacts: semi-implicit Euler on aba + integrate",
        ("sans-serif", 24),
    )?;
    let (left, right) = root.split_horizontally(760);
    let colors = [
        RGBColor(0, 114, 178),
        RGBColor(213, 94, 0),
        RGBColor(0, 158, 115),
        RGBColor(204, 121, 167),
    ];
    // E(t) - E(0).
    let (mut y0, mut y1) = (0.0f64, 0.0f64);
    for (_, y) in r.traces.iter().flatten() {
        (y0, y1) = (y0.min(*y), y1.max(*y));
    }
    let pad = 0.05 * (y1 - y0);
    let mut chart = ChartBuilder::on(&left)
        .caption("total energy E(t) - E(0)", ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(36)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..1.0, (y0 - pad)..(y1 + pad))?;
    chart
        .configure_mesh()
        .x_desc("t (s)")
        .y_desc("ΔE (J)")
        .max_light_lines(1)
        .label_style(("sans-serif", 13))
        .draw()?;
    for (k, trace) in r.traces.iter().enumerate() {
        let color = colors[k];
        chart
            .draw_series(LineSeries::new(trace.clone(), color.stroke_width(2)))?
            .label(format!("h = {} ms", STEPS[k] * 1e3))
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], color.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 13))
        .draw()?;
    // Drift against h, log-log, with a slope-1 reference.
    let (h0, h1) = (STEPS[3] / 1.5, STEPS[0] * 2.2);
    let d: Vec<f64> = r.drift.iter().map(|x| x.1).collect();
    let (d0, d1) = (
        d.iter().copied().fold(f64::MAX, f64::min) / 3.0,
        d.iter().copied().fold(0.0, f64::max) * 3.0,
    );
    let mut chart = ChartBuilder::on(&right)
        .caption(
            format!("largest |ΔE| over 1 s vs step: order {:.2}", r.order),
            ("sans-serif", 18),
        )
        .margin(10)
        .x_label_area_size(36)
        .y_label_area_size(70)
        .build_cartesian_2d((h0 * 1e3..h1 * 1e3).log_scale(), (d0..d1).log_scale())?;
    chart
        .configure_mesh()
        .x_desc("step h (ms)")
        .y_desc("max |ΔE| (J)")
        .x_label_formatter(&|x| format!("{x}"))
        .y_label_formatter(&|y| format!("{y:.1e}"))
        .y_labels(6)
        .max_light_lines(1)
        .label_style(("sans-serif", 13))
        .draw()?;
    let pts: Vec<(f64, f64)> = r.drift.iter().map(|&(h, e)| (h * 1e3, e)).collect();
    chart
        .draw_series(LineSeries::new(pts.clone(), colors[0].stroke_width(2)))?
        .label("semi-implicit Euler")
        .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], colors[0].stroke_width(2)));
    chart.draw_series(pts.iter().map(|&p| Circle::new(p, 5, colors[0].filled())))?;
    chart.draw_series(pts.iter().map(|&(h, e)| {
        Text::new(
            format!("{h} ms: {e:.3} J"),
            (h * 1.06, e * 0.82),
            ("sans-serif", 13).into_font(),
        )
    }))?;
    let (hr, er) = pts[0];
    chart
        .draw_series(DashedLineSeries::new(
            STEPS.iter().map(|&h| (h * 1e3, er * h * 1e3 / hr)),
            6,
            6,
            BLACK.stroke_width(2),
        ))?
        .label("slope 1 (first order), through h = 4 ms")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 8, y)], BLACK.stroke_width(2)));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 13))
        .draw()?;
    root.present()?;
    Ok(path)
}

fn verdict(ok: bool) -> &'static str {
    if ok {
        "pass"
    } else {
        "FAIL"
    }
}

#[allow(dead_code)]
fn main() {
    let reports = run();
    let r = &reports[0];
    println!("== The debugging routine on generated Go2 + Z1 code (nv = {NV})");
    println!(
        "1. static h: max |h(q, 0) - g(q)| = {:.1e}, max |g(q) - m J_comᵀ g₀| = {:.1e} over 20 random q; \
         the base rows carry {:.4} N = {:.4} kg x 9.81 (scale: {:.4} kg, off by {:.1e} N)",
        r.static_h.0,
        r.static_h.1,
        r.weight_error + SCALE_MASS * G,
        (r.weight_error + SCALE_MASS * G) / G,
        SCALE_MASS,
        r.weight_error
    );
    println!(
        "2. Jᵀf: a unit force at the gripper gives the lever-arm torques to {:.1e}; for +1 N up: base force z {:+.3} N, \
         base moment y {:+.3} N·m (the arm reaches forward: the push pitches the base nose-up), \
         shoulder {:+.3} N·m and elbow {:+.3} N·m (negative about their +y axes: lifting the arm), legs {:.0}",
        r.jtf_error, r.jtf_up[0], r.jtf_up[1], r.jtf_up[2], r.jtf_up[3], r.jtf_up[4]
    );
    println!(
        "3. M: max |M - Mᵀ| = {:.1e}, Cholesky {}, smallest eigenvalue {:.2e} over 20 random q",
        r.symmetry,
        if r.cholesky { "succeeds" } else { "fails" },
        r.min_eigenvalue
    );
    println!(
        "4. energy, free fall from 1 m with random v (kinetic {:.2} J, potential {:.2} J at the start; \
         the fall converts up to {:.1} J in 1 s):",
        r.energy0.0, r.energy0.1, r.exchanged
    );
    for (h, d) in &r.drift {
        println!("   h = {:>3} ms: max |E(t) - E(0)| = {d:.3e} J", h * 1e3);
    }
    println!(
        "   the drift halves with h: order {:.2} (semi-implicit Euler is first order); at 0.5 ms it is {:.1e} of the \
         energy converted",
        r.order,
        r.drift.last().expect("steps").1 / r.exchanged
    );
    println!("\n== Inject a bug: which step catches it?");
    println!(
        "{:>34} | static h & weight | Jᵀf | M sym/PD | energy",
        "model"
    );
    for r in &reports {
        println!(
            "{:>34} | {:>17} | {:>4} | {:>8} | {}",
            r.name,
            verdict(r.static_ok()),
            verdict(r.jtf_ok()),
            verdict(r.mass_ok()),
            verdict(r.energy_ok())
        );
    }
    for r in &reports[2..] {
        println!(
            "{}: weight off by {:+.3} N ({:+.3} kg), h(q,0) - g(q) {:.1e}, g - m J_comᵀ g₀ {:.1e}, Cholesky {}, \
             smallest eigenvalue {:.2e}, energy drift at 0.5 ms {:.2e} J, order {:.2}",
            r.name,
            r.weight_error,
            r.weight_error / G,
            r.static_h.0,
            r.static_h.1,
            if r.cholesky { "succeeds" } else { "fails" },
            r.min_eigenvalue,
            r.drift.last().expect("steps").1,
            r.order
        );
    }
    let path = plot(r, &plot::plots_dir()).expect("the plot is written");
    println!("plot: {}", path.display());
}

// The example's numbers, asserted: `cargo test --all-features --example
// debugging_routine` runs these.
#[cfg(test)]
#[path = "common/check.rs"]
mod check;

#[cfg(test)]
mod tests {
    use super::check;

    /// The debugging routine: the generated code and the runtime pass every
    /// step with the same numbers; a zero link mass is caught by the weight check
    /// only, a massless end body also by `M`'s Cholesky and the energy check.
    #[test]
    fn debugging_routine_catches_the_bugs() {
        let reports = super::run();
        let p = super::plot(&reports[0], &check::plot_dir("debugging_routine"))
            .expect("the plot is written");
        check::assert_drawn(&p, 400, 16);
        let [generated, runtime, bug_a, bug_b] = &reports[..] else {
            panic!("four models")
        };
        for r in [generated, runtime] {
            assert!(
                r.static_ok() && r.jtf_ok() && r.mass_ok() && r.energy_ok(),
                "{r:?}"
            );
            assert!((r.order - 1.0).abs() < 0.05, "{r:?}");
            let [fz, my, shoulder, elbow, legs] = r.jtf_up;
            assert!(
                (fz - 1.0).abs() < 1e-12 && my < 0.0 && shoulder < 0.0 && elbow < 0.0,
                "{r:?}"
            );
            assert_eq!(legs, 0.0);
        }
        for (a, b) in generated.drift.iter().zip(&runtime.drift) {
            assert!((a.1 - b.1).abs() < 1e-8 * a.1.max(1.0), "{a:?} {b:?}");
        }
        assert!(!bug_a.static_ok() && bug_a.jtf_ok() && bug_a.mass_ok() && bug_a.energy_ok());
        assert!(
            (bug_a.weight_error + 0.56404563 * 9.81).abs() < 1e-6,
            "{bug_a:?}"
        );
        assert!(
            bug_a.static_h.0 < 1e-10,
            "h(q, 0) = g(q) holds for the wrong model too"
        );
        assert!(!bug_b.static_ok() && bug_b.jtf_ok() && !bug_b.mass_ok() && !bug_b.energy_ok());
        assert!(!bug_b.cholesky);
    }
}
