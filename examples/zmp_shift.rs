//! How far Go2 + Z1's arm moves the zero-moment point (ZMP), on generated code.
//!
//! Quasi-statically (`v = 0`, `a = 0`) the ZMP is the ground projection of
//! the centre of mass. The arm's share of it is the pitch moment its weight
//! puts on the base, `τ_arm,y`, divided by the robot's weight:
//! `Δx_ZMP = τ_arm,y / (m g)`. Here `τ_arm,y` comes from the generated
//! `generalized_gravity`: the arm's links (the Z1's base `link00` to the
//! gripper, and the payload) are run-time parameters of the module
//! (`parameters = [...]`), so the gravity of the robot with and without them
//! differ by the arm's alone:
//!
//! `τ_arm,y = -(g(q; π_arm)[4] - g(q; 0)[4])`,
//!
//! row 4 the base's angular y row (the pitch moment about the base origin, in
//! base axes: the base stands level here) of the torque that holds the robot
//! against gravity, hence the sign. `m` is the module's `TOTAL_MASS` plus the
//! payload. The table gives it for the arm at home (folded, all joints 0),
//! raised 45° (shoulder joint2 at 135°: the upper arm 45° forward of
//! vertical) and reaching forward (shoulder at its 170° limit), the elbow
//! joint3 at its −165° limit (as straight as the Z1 gets) in the last two;
//! payloads of 0, 1 and 2 kg held at the gripper; the shift as a fraction of
//! the support half-length (half the distance between front and rear feet
//! along x, from the feet's `frame_placement`) with a risk label (< 25 %
//! low, < 50 % moderate, else high).
//!
//! Dynamically the ZMP also carries the momentum rate: with the feet on the
//! ground (four point contacts), base and legs still and the shoulder
//! accelerating, the controller's torques `τ = M a + h - J_cᵀ λ` go to
//! `contact_dynamics` (the plant), whose contact forces give the
//! `center_of_pressure`. It is checked against the centroidal momentum rate
//! `ḣ_G = centroidal_momentum_rate(q, v, a)`: the contact wrench is `ḣ_G`
//! minus gravity's, `f = ḣ_lin + (0, 0, m g)`, moment about the centre of
//! mass `c` `n = ḣ_ang`, so on the ground plane `z = z_0`
//!
//! `x_ZMP = c_x - ((c_z - z_0) ḣ_lin,x + ḣ_ang,y) / (m g + ḣ_lin,z)`.
//!
//! Run with `cargo run --release --example zmp_shift`.
//!
//! # Walkthrough
//!
//! When the robot is quasi-static, the ZMP is the ground projection of the centre
//! of mass. The arm's share of that shift is `Δx_ZMP = τ_arm,y / (m g)`, where
//! `τ_arm,y` is the pitch moment the arm's weight puts on the base about its
//! origin. The example takes `τ_arm,y` from the generated `generalized_gravity`.
//! All of the arm's links (`link00`, the Z1's base, through `gripper_link`) are
//! run-time parameters. Calling `generalized_gravity` with them and with zeros
//! removes the rest of the robot: `τ_arm,y = -(g(q; π_arm)[4] - g(q; 0)[4])`,
//! where row 4 is the base's angular y row (the base is level). `m` is the
//! module's `TOTAL_MASS` plus the payload. The three arm poses are:
//!
//! - **home**: folded, all arm joints at 0;
//! - **raised 45°**: shoulder at 135°, the upper arm 45° forward of vertical;
//! - **reaching**: shoulder at its 170° limit.
//!
//! In the last two the elbow is at −165°. The support half-length is half the
//! distance between the front and rear feet along x (`frame_placement`), and the
//! risk label is low below 25 %, moderate below 50 %, high above. The dynamic
//! ZMP is computed with the feet on the ground (four point contacts), the base
//! and legs still, and the shoulder braking at 10 rad/s² (`q̈ = −10`, `v = 0`):
//!
//! 1. A controller computes the forces from the base rows and the torques
//!    `τ = M a + h - J_cᵀ λ`.
//! 2. `contact_dynamics` applies `τ` as the plant.
//! 3. `center_of_pressure` turns the plant's contact forces into the ZMP.
//!
//! The centroidal momentum rate gives the same ZMP to 1e-15:
//! `x_ZMP = c_x - ((c_z - z_0) ḣ_x + ḣ_ang,y) / (m g + ḣ_z)`.
//!
//! ```text
//! TOTAL_MASS = 21.306 kg, feet at x = 0.1778 m (front) and -0.2090 m (rear), support half-length 0.1934 m
//! arm         payload    τ_arm,y    Δx_ZMP  % of half      risk   ZMP static   ZMP dynamic  dyn-stat
//! home            0 kg 11.427 N·m   54.7 mm      28.3%  moderate      53.6 mm       59.2 mm    5.6 mm
//! home            1 kg 16.059 N·m   73.4 mm      37.9%  moderate      72.4 mm       82.5 mm   10.2 mm
//! home            2 kg 20.691 N·m   90.5 mm      46.8%  moderate      89.5 mm      103.5 mm   14.0 mm
//! raised 45°      0 kg 28.745 N·m  137.5 mm      71.1%      high     136.5 mm      231.0 mm   94.5 mm
//! raised 45°      1 kg 38.297 N·m  175.0 mm      90.5%      high     174.0 mm      306.4 mm  132.4 mm
//! raised 45°      2 kg 47.849 N·m  209.3 mm     108.2%      high     208.3 mm      372.0 mm  163.7 mm
//! reaching        0 kg 33.732 N·m  161.4 mm      83.4%      high     160.3 mm      232.2 mm   71.9 mm
//! reaching        1 kg 45.200 N·m  206.6 mm     106.8%      high     205.6 mm      304.3 mm   98.7 mm
//! reaching        2 kg 56.669 N·m  247.9 mm     128.2%      high     246.9 mm      366.2 mm  119.3 mm
//! static ZMP = centre of mass x, and contact-force ZMP = centroidal ZMP, to 5.8e-16 m
//! sweep: shoulder 90° -> 170° (elbow -165°) in 0.9 s, minimum jerk:
//!   0 kg: dynamic ZMP x from -31.1 to 243.3 mm, up to 112.4 mm off the quasi-static one; beyond the front feet (the robot tips forward) 0.40 s dynamically, 0.00 s quasi-statically; quasi-static ZMP at the end 160.3 mm; peak shoulder torque 31.5 N·m (limit 60)
//!   1 kg: dynamic ZMP x from -68.8 to 320.9 mm, up to 167.4 mm off the quasi-static one; beyond the front feet (the robot tips forward) 0.47 s dynamically, 0.41 s quasi-statically; quasi-static ZMP at the end 205.6 mm; peak shoulder torque 47.9 N·m (limit 60)
//!   2 kg: dynamic ZMP x from -104.0 to 388.3 mm, up to 218.9 mm off the quasi-static one; beyond the front feet (the robot tips forward) 0.48 s dynamically, 0.51 s quasi-statically; quasi-static ZMP at the end 246.9 mm; peak shoulder torque 64.3 N·m (limit 60)
//! ```
//!
//! Go2 (16.1 kg) is a light counterweight for a 5.2 kg Z1 mounted 0.285 m ahead
//! of its base origin. With the real masses, a 1 kg payload reaching forward already puts the
//! quasi-static ZMP past the front feet, so the robot would tip forward. A fast
//! reach also tips the bare arm forward: the shoulder sweep runs at the joint's
//! speed limit (peak 2.9 rad/s), and its deceleration drives the dynamic ZMP
//! beyond the front feet for 0.4 s even though the quasi-static ZMP stays inside.
//! The plot shows both ZMPs along the sweep, with the front edge of the support
//! polygon as a reference line.
//!
//! ![quasi-static and dynamic ZMP x along a shoulder sweep](../docs/img/zmp_shift.png)
//!
//! The test recomputes `τ_arm,y`, `Δx_ZMP`, the fraction and the label with the
//! same formula on the runtime (`set_link_parameters`, `generalized_gravity`),
//! and takes the support polygon from the runtime's foot placements. It checks
//! `Δx_ZMP` against the arm's share of the runtime's centre of mass
//! (`c_x(π) - (m - m_arm)/m · c_x(0)`) and the quasi-static ZMP against the
//! centre of mass. For the dynamic ZMP, in the table and at every sample of the
//! sweeps, it uses two independent computations: the runtime's `contact_dynamics`
//! forces under the same controller, summed by hand into a centre of pressure,
//! and the runtime's `centroidal_momentum_rate`.

use nalgebra::{DMatrix, DVector};

#[path = "common/plot.rs"]
mod plot;

use rbdgen::runtime::{Inertia, Matrix3, Vector3};

rbdgen::robot_dynamics!(
    pub mod go2_z1,
    "models/go2_z1.urdf",
    floating_base,
    contacts = [FL_foot: point, FR_foot: point, RL_foot: point, RR_foot: point],
    parameters = [
        link00, link01, link02, link03, link04, link05, link06, gripperStator, gripperMover,
        gripper_link,
    ],
    frames = [FL_foot, FR_foot, RL_foot, RR_foot],
    functions = [
        generalized_gravity, center_of_mass, crba, nonlinear_effects, contact_jacobian,
        contact_dynamics, centroidal_momentum_rate, center_of_pressure, frame_placement,
    ]
);

pub use go2_z1::{NC, NPARAMETERS, NQ, NV};

/// Inertial parameters of the arm's links (`PARAMETER_LINKS`).
pub type Parameters = [[f64; 10]; NPARAMETERS];

/// `q` indices of the shoulder pitch (joint2) and the elbow (joint3).
pub const SHOULDER_Q: usize = 20;
/// See [`SHOULDER_Q`].
pub const ELBOW_Q: usize = 21;
/// `v` index of the shoulder pitch.
pub const SHOULDER_V: usize = 19;
/// Payloads held at the gripper (kg).
pub const PAYLOADS: [f64; 3] = [0.0, 1.0, 2.0];
/// Radius of the payload, a solid sphere centred on the tool centre point (m).
pub const PAYLOAD_RADIUS: f64 = 0.04;
/// The table's shoulder acceleration for the dynamic ZMP (rad/s²), `v = 0`:
/// the shoulder braking a forward swing (q̈ < 0 while the arm moves forward)
/// about as hard as the sweep below does, which pushes the ZMP forward.
pub const SHOULDER_ACCELERATION: f64 = -10.0;
/// The sweep: the shoulder from 90° (upper arm vertical) to its 170° limit,
/// elbow at −165°, a minimum-jerk move of this duration (s); its peak speed,
/// 2.9 rad/s, is within the joint's 3.14 rad/s.
pub const SWEEP_TIME: f64 = 0.9;

/// The arm poses of the table: name, shoulder and elbow angles (rad).
pub fn poses() -> [(&'static str, f64, f64); 3] {
    let elbow = go2_z1::Q_LOWER[ELBOW_Q];
    [
        ("home", 0.0, 0.0),
        ("raised 45°", 135f64.to_radians(), elbow),
        ("reaching", go2_z1::Q_UPPER[SHOULDER_Q], elbow),
    ]
}

/// The standing posture (base at the origin 0.32 m up, level; thighs 0.8
/// rad, calves -1.5 rad), the shoulder and elbow at these angles, the other
/// arm joints at 0.
pub fn standing(shoulder: f64, elbow: f64) -> [f64; NQ] {
    let mut q = [0.0; NQ];
    q[2] = 0.32;
    q[6] = 1.0;
    for leg in 0..4 {
        q[7 + 3 * leg + 1] = 0.8;
        q[7 + 3 * leg + 2] = -1.5;
    }
    q[SHOULDER_Q] = shoulder;
    q[ELBOW_Q] = elbow;
    q
}

/// The arm's parameters holding `payload` kg at the gripper (a solid sphere
/// of radius [`PAYLOAD_RADIUS`] centred on `gripper_link`'s origin).
pub fn arm_parameters(payload: f64) -> Parameters {
    let i = 0.4 * payload * PAYLOAD_RADIUS * PAYLOAD_RADIUS;
    let sphere = Inertia::from_com(
        payload,
        Vector3([0.0; 3]),
        Matrix3([[i, 0.0, 0.0], [0.0, i, 0.0], [0.0, 0.0, i]]),
    );
    let mut pi = go2_z1::LINK_PARAMETERS;
    let gripper = go2_z1::PARAMETER_LINKS
        .iter()
        .position(|&l| l == "gripper_link")
        .expect("the gripper link is a parameter");
    for (x, y) in pi[gripper].iter_mut().zip(sphere.to_parameters()) {
        *x += y;
    }
    pi
}

/// The robot without its arm: every arm link's parameters zero.
pub const NO_ARM: Parameters = [[0.0; 10]; NPARAMETERS];

/// `g = 9.81` m/s², from the module.
pub fn gravity() -> f64 {
    -go2_z1::GRAVITY[2]
}

/// The pitch moment of the arm's weight on the base about its origin (N·m,
/// positive nose down: the arm's weight ahead of the base origin).
pub fn arm_pitch_moment(q: &[f64; NQ], pi: &Parameters) -> f64 {
    -(go2_z1::generalized_gravity(q, pi)[4] - go2_z1::generalized_gravity(q, &NO_ARM)[4])
}

/// The support polygon along x: the front and rear feet's x (m), at the
/// standing posture (the legs do not move here).
pub fn support() -> (f64, f64) {
    let q = standing(0.0, 0.0);
    let x = |f| go2_z1::frame_placement(&q, f)[0][3];
    use go2_z1::Frame::*;
    (x(FLFoot).min(x(FRFoot)), x(RLFoot).max(x(RRFoot)))
}

/// The feet's height, the ground plane of the ZMP (m).
pub fn ground() -> f64 {
    go2_z1::frame_placement(&standing(0.0, 0.0), go2_z1::Frame::FLFoot)[2][3]
}

/// The risk label of a ZMP shift, as a fraction of the support half-length.
pub fn risk(fraction: f64) -> &'static str {
    match fraction.abs() {
        f if f < 0.25 => "low",
        f if f < 0.5 => "moderate",
        _ => "high",
    }
}

/// One row of the table.
#[derive(Debug, Clone)]
pub struct Row {
    /// Arm pose name.
    pub pose: &'static str,
    /// Shoulder, elbow (rad).
    pub arm: (f64, f64),
    /// Payload (kg).
    pub payload: f64,
    /// `τ_arm,y` (N·m).
    pub tau_arm_y: f64,
    /// `m` (kg): `TOTAL_MASS` plus the payload.
    pub mass: f64,
    /// `Δx_ZMP = τ_arm,y / (m g)` (m).
    pub dx_zmp: f64,
    /// `Δx_ZMP` over the support half-length.
    pub fraction: f64,
    /// Risk label of `fraction`.
    pub risk: &'static str,
    /// Quasi-static ZMP x from the contact forces (m), the centre of mass's x.
    pub zmp_static: f64,
    /// `center_of_mass` x (m).
    pub com_x: f64,
    /// Dynamic ZMP x with the shoulder accelerating at
    /// [`SHOULDER_ACCELERATION`] (m), from `contact_dynamics`' forces.
    pub zmp_dynamic: f64,
    /// The same from `centroidal_momentum_rate`.
    pub zmp_dynamic_centroidal: f64,
}

/// One instant of the stance with the arm moving.
#[derive(Debug, Clone, Copy)]
pub struct Stance {
    /// ZMP x from the contact forces of `contact_dynamics` (`center_of_pressure`, m).
    pub zmp_contacts: f64,
    /// ZMP x from `centroidal_momentum_rate` and `center_of_mass` (m).
    pub zmp_centroidal: f64,
    /// Largest `|a_plant - a|`: the plant does what the controller asked.
    pub plant_mismatch: f64,
    /// Shoulder torque (N·m).
    pub shoulder_torque: f64,
}

/// The ZMP with the feet on the ground, base and legs still and the arm at
/// `q`, `v` (arm entries only) accelerating with `a` (arm entries only).
pub fn stance(q: &[f64; NQ], v: &[f64; NV], a: &[f64; NV], pi: &Parameters) -> Stance {
    // Controller: contact forces from the base rows (least norm), torques on
    // the actuated rows.
    let m = DMatrix::from_row_iterator(NV, NV, go2_z1::crba(q, pi).into_iter().flatten());
    let h = DVector::from_row_slice(&go2_z1::nonlinear_effects(q, v, pi));
    let j = DMatrix::from_row_iterator(NC, NV, go2_z1::contact_jacobian(q).into_iter().flatten());
    let av = DVector::from_row_slice(a);
    let inverse = &m * &av + &h;
    let jb_t = j.columns(0, 6).transpose();
    let lambda = jb_t.pseudo_inverse(1e-12).expect("SVD converges") * inverse.rows(0, 6);
    let mut tau = inverse - j.transpose() * &lambda;
    tau.rows_mut(0, 6).fill(0.0);
    let tau: [f64; NV] = std::array::from_fn(|k| tau[k]);
    // Plant.
    let (a_plant, lambda_plant) = go2_z1::contact_dynamics(q, v, &tau, 0.0, pi);
    let plant_mismatch = a
        .iter()
        .zip(&a_plant)
        .fold(0.0f64, |w, (x, y)| w.max((x - y).abs()));
    let z0 = ground();
    let zmp_contacts = go2_z1::center_of_pressure(q, &lambda_plant, z0)[0];
    let zmp_centroidal = centroidal_zmp(q, v, &a_plant, pi, z0);
    Stance {
        zmp_contacts,
        zmp_centroidal,
        plant_mismatch,
        shoulder_torque: tau[SHOULDER_V],
    }
}

/// `x_ZMP = c_x - ((c_z - z_0) ḣ_x + ḣ_ang,y) / (m g + ḣ_z)` on the plane
/// `z = z0`, from the generated `centroidal_momentum_rate` and `center_of_mass`.
pub fn centroidal_zmp(
    q: &[f64; NQ],
    v: &[f64; NV],
    a: &[f64; NV],
    pi: &Parameters,
    z0: f64,
) -> f64 {
    let hdot = go2_z1::centroidal_momentum_rate(q, v, a, pi);
    let c = go2_z1::center_of_mass(q, pi);
    let mass = total_mass(pi);
    c[0] - ((c[2] - z0) * hdot[0] + hdot[4]) / (mass * gravity() + hdot[2])
}

/// The robot's mass with these arm parameters: `TOTAL_MASS` minus the URDF's
/// arm plus the given one (kg).
pub fn total_mass(pi: &Parameters) -> f64 {
    let urdf: f64 = go2_z1::LINK_PARAMETERS.iter().map(|p| p[0]).sum();
    let this: f64 = pi.iter().map(|p| p[0]).sum();
    go2_z1::TOTAL_MASS - urdf + this
}

/// The table: every pose and payload.
pub fn table() -> Vec<Row> {
    let (front, rear) = support();
    let half_length = 0.5 * (front - rear);
    let mut rows = Vec::new();
    for (pose, shoulder, elbow) in poses() {
        for payload in PAYLOADS {
            let pi = arm_parameters(payload);
            let q = standing(shoulder, elbow);
            let tau_arm_y = arm_pitch_moment(&q, &pi);
            let mass = go2_z1::TOTAL_MASS + payload;
            let dx_zmp = tau_arm_y / (mass * gravity());
            let fraction = dx_zmp / half_length;
            let zero = [0.0; NV];
            let still = stance(&q, &zero, &zero, &pi);
            let mut a = [0.0; NV];
            a[SHOULDER_V] = SHOULDER_ACCELERATION;
            let moving = stance(&q, &zero, &a, &pi);
            rows.push(Row {
                pose,
                arm: (shoulder, elbow),
                payload,
                tau_arm_y,
                mass,
                dx_zmp,
                fraction,
                risk: risk(fraction),
                zmp_static: still.zmp_contacts,
                com_x: go2_z1::center_of_mass(&q, &pi)[0],
                zmp_dynamic: moving.zmp_contacts,
                zmp_dynamic_centroidal: moving.zmp_centroidal,
            });
        }
    }
    rows
}

/// One sample of the sweep.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    /// Time (s).
    pub t: f64,
    /// Shoulder angle (rad), speed (rad/s), acceleration (rad/s²).
    pub shoulder: (f64, f64, f64),
    /// Quasi-static ZMP x at this pose (m): the centre of mass's x.
    pub zmp_static: f64,
    /// The stance while moving.
    pub moving: Stance,
}

/// The minimum-jerk shoulder sweep (90° to the 170° limit in
/// [`SWEEP_TIME`]) with `payload` kg, `n` samples.
pub fn sweep(payload: f64, n: usize) -> Vec<Sample> {
    let pi = arm_parameters(payload);
    let (q0, q1) = (90f64.to_radians(), go2_z1::Q_UPPER[SHOULDER_Q]);
    let elbow = go2_z1::Q_LOWER[ELBOW_Q];
    (0..n)
        .map(|k| {
            let t = SWEEP_TIME * k as f64 / (n - 1) as f64;
            let s = t / SWEEP_TIME;
            let d = q1 - q0;
            let pos = q0 + d * (10.0 * s.powi(3) - 15.0 * s.powi(4) + 6.0 * s.powi(5));
            let vel = d * (30.0 * s.powi(2) - 60.0 * s.powi(3) + 30.0 * s.powi(4)) / SWEEP_TIME;
            let acc = d * (60.0 * s - 180.0 * s.powi(2) + 120.0 * s.powi(3)) / SWEEP_TIME.powi(2);
            let q = standing(pos, elbow);
            let mut v = [0.0; NV];
            let mut a = [0.0; NV];
            v[SHOULDER_V] = vel;
            a[SHOULDER_V] = acc;
            Sample {
                t,
                shoulder: (pos, vel, acc),
                zmp_static: go2_z1::center_of_mass(&q, &pi)[0],
                moving: stance(&q, &v, &a, &pi),
            }
        })
        .collect()
}

/// What the example computed.
#[derive(Debug)]
pub struct Summary {
    /// Front and rear feet x (m).
    pub support: (f64, f64),
    /// The table.
    pub rows: Vec<Row>,
    /// The sweep, per payload of [`PAYLOADS`].
    pub sweeps: Vec<Vec<Sample>>,
}

/// Computes the table and the sweeps (`n` samples each).
pub fn run(n: usize) -> Summary {
    Summary {
        support: support(),
        rows: table(),
        sweeps: PAYLOADS.iter().map(|&p| sweep(p, n)).collect(),
    }
}

#[allow(dead_code)]
fn main() {
    let s = run(181);
    let (front, rear) = s.support;
    let half = 0.5 * (front - rear);
    println!(
        "Go2 + Z1 standing on four feet (generated code): TOTAL_MASS = {:.3} kg, feet at x = {:.4} m (front) and {:.4} m (rear), support half-length {:.4} m",
        go2_z1::TOTAL_MASS,
        front,
        rear,
        half
    );
    println!("τ_arm,y: pitch moment of the arm's weight on the base about its origin, from generalized_gravity with and without the arm's link parameters;");
    println!("Δx_ZMP = τ_arm,y / (m g), m = TOTAL_MASS + payload; dynamic ZMP with the shoulder accelerating at {SHOULDER_ACCELERATION} rad/s² (v = 0), from contact_dynamics' forces.");
    println!(
        "{:<11} {:>7} {:>10} {:>9} {:>10} {:>9} {:>12} {:>13} {:>9}",
        "arm",
        "payload",
        "τ_arm,y",
        "Δx_ZMP",
        "% of half",
        "risk",
        "ZMP static",
        "ZMP dynamic",
        "dyn-stat"
    );
    for r in &s.rows {
        println!(
            "{:<11} {:>5} kg {:>6.3} N·m {:>6.1} mm {:>9.1}% {:>9} {:>9.1} mm {:>10.1} mm {:>6.1} mm",
            r.pose,
            r.payload,
            r.tau_arm_y,
            1e3 * r.dx_zmp,
            1e2 * r.fraction,
            r.risk,
            1e3 * r.zmp_static,
            1e3 * r.zmp_dynamic,
            1e3 * (r.zmp_dynamic - r.zmp_static)
        );
    }
    let worst_identity = s.rows.iter().fold(0.0f64, |w, r| {
        w.max((r.zmp_static - r.com_x).abs())
            .max((r.zmp_dynamic - r.zmp_dynamic_centroidal).abs())
    });
    println!(
        "static ZMP = centre of mass x, and contact-force ZMP = centroidal ZMP, to {worst_identity:.1e} m"
    );
    println!(
        "sweep: shoulder 90° -> {:.0}° (elbow {:.0}°) in {SWEEP_TIME} s, minimum jerk:",
        go2_z1::Q_UPPER[SHOULDER_Q].to_degrees(),
        go2_z1::Q_LOWER[ELBOW_Q].to_degrees()
    );
    for (payload, samples) in PAYLOADS.iter().zip(&s.sweeps) {
        let (lo, hi) = samples.iter().fold((f64::MAX, f64::MIN), |(a, b), x| {
            (a.min(x.moving.zmp_contacts), b.max(x.moving.zmp_contacts))
        });
        let deviation = samples.iter().fold(0.0f64, |w, x| {
            w.max((x.moving.zmp_contacts - x.zmp_static).abs())
        });
        let torque = samples
            .iter()
            .fold(0.0f64, |w, x| w.max(x.moving.shoulder_torque.abs()));
        let outside = |zmp: fn(&Sample) -> f64| {
            let n = samples.iter().filter(|x| zmp(x) > front).count();
            SWEEP_TIME * n as f64 / (samples.len() - 1) as f64
        };
        let end = samples.last().unwrap();
        println!(
            "  {payload} kg: dynamic ZMP x from {:.1} to {:.1} mm, up to {:.1} mm off the quasi-static one; beyond the front feet (the robot tips forward) {:.2} s dynamically, {:.2} s quasi-statically; quasi-static ZMP at the end {:.1} mm; peak shoulder torque {:.1} N·m (limit {:.0})",
            1e3 * lo,
            1e3 * hi,
            1e3 * deviation,
            outside(|x| x.moving.zmp_contacts),
            outside(|x| x.zmp_static),
            1e3 * end.zmp_static,
            torque,
            go2_z1::TAU_MAX[SHOULDER_V],
        );
    }
    let path = plot(&s, &plot::plots_dir()).expect("the plot is written");
    println!("plot: {}", path.display());
}

/// The sweep plot: the quasi-static and the dynamic ZMP x against the
/// shoulder angle for each payload, with the front feet (the support
/// polygon's edge); written to `dir/zmp_shift.png`.
pub fn plot(
    s: &Summary,
    dir: &std::path::Path,
) -> Result<std::path::PathBuf, Box<dyn std::error::Error>> {
    let front = s.support.0;
    let mut series = Vec::new();
    let names: Vec<(String, String)> = PAYLOADS
        .iter()
        .map(|p| {
            (
                format!("quasi-static, {p} kg"),
                format!("dynamic ({SWEEP_TIME} s sweep), {p} kg"),
            )
        })
        .collect();
    for (k, (samples, (stat, dyn_))) in s.sweeps.iter().zip(&names).enumerate() {
        let deg = |x: &Sample| x.shoulder.0.to_degrees();
        series.push(plot::Styled {
            label: stat,
            points: samples
                .iter()
                .map(|x| (deg(x), 1e3 * x.zmp_static))
                .collect(),
            color: k,
            dashed: true,
        });
        series.push(plot::Styled {
            label: dyn_,
            points: samples
                .iter()
                .map(|x| (deg(x), 1e3 * x.moving.zmp_contacts))
                .collect(),
            color: k,
            dashed: false,
        });
    }
    let path = plot::out_path(dir, "zmp_shift.png");
    plot::styled_lines(
        &path,
        "Go2+Z1: ZMP x as the shoulder sweeps the arm forward",
        (
            "shoulder joint2 (deg), elbow at -165°",
            "ZMP x (mm, base origin at 0)",
        ),
        &series,
        &[(1e3 * front, "front feet: support polygon edge")],
    )?;
    Ok(path)
}

// The example's numbers, asserted: `cargo test --all-features --example
// zmp_shift` runs these.
#[cfg(test)]
#[path = "common/check.rs"]
mod check;

#[cfg(test)]
mod tests {
    use super::check;
    use super::check::{load, model_mass, TOL};
    use rbdgen::runtime::{
        center_of_mass, centroidal_momentum_rate, contact_dynamics, forward_kinematics,
        frame_placement, generalized_gravity, set_link_parameters, ContactKind, Data, FrameKind,
        Model,
    };

    /// The ZMP table: `τ_arm,y` and `Δx_ZMP` by the same formula on the runtime
    /// (generalized gravity with and without the arm's link parameters), the
    /// support from the runtime's foot placements; `τ_arm,y / (m g)` against the
    /// centre of mass of the runtime with and without the arm; the quasi-static
    /// ZMP against the centre of mass; the dynamic ZMP from the runtime's contact
    /// forces, summed here, and from the runtime's centroidal momentum rate.
    #[test]
    fn zmp_table_matches_the_runtime() {
        let s = super::run(13);
        let p = super::plot(&s, &check::plot_dir("zmp_shift")).expect("the plot is written");
        check::assert_drawn(&p, 400, 16);
        let mut model = load("models/go2_z1.urdf");
        model
            .set_parameters(&super::go2_z1::PARAMETER_LINKS)
            .unwrap();
        model
            .set_contacts(&[
                ("FL_foot", ContactKind::Point),
                ("FR_foot", ContactKind::Point),
                ("RL_foot", ContactKind::Point),
                ("RR_foot", ContactKind::Point),
            ])
            .unwrap();
        let g = 9.81;
        assert_eq!(super::gravity(), g);
        let total = model_mass(&model);
        assert!((super::go2_z1::TOTAL_MASS - total).abs() < 1e-12);
        // Support polygon from the runtime.
        let mut data = Data::new(&model);
        let q0 = super::standing(0.0, 0.0);
        forward_kinematics(&model, &mut data, &q0).unwrap();
        let foot_x = |name: &str| {
            let id = model.frame_id(name, FrameKind::Body).unwrap();
            frame_placement(&model, &data, id).unwrap().translation.0[0]
        };
        let front = foot_x("FL_foot").min(foot_x("FR_foot"));
        let rear = foot_x("RL_foot").max(foot_x("RR_foot"));
        assert!((s.support.0 - front).abs() < TOL && (s.support.1 - rear).abs() < TOL);
        let half = 0.5 * (front - rear);
        let no_arm = vec![0.0; 10 * super::NPARAMETERS];
        assert_eq!(s.rows.len(), 9);
        for r in &s.rows {
            let pi = super::arm_parameters(r.payload);
            let q = super::standing(r.arm.0, r.arm.1);
            let mut with = Data::new(&model);
            set_link_parameters(&model, &mut with, pi.as_flattened()).unwrap();
            let mut without = Data::new(&model);
            set_link_parameters(&model, &mut without, &no_arm).unwrap();
            let tau = -(generalized_gravity(&model, &mut with, &q).unwrap()[4]
                - generalized_gravity(&model, &mut without, &q).unwrap()[4]);
            let mass = total + r.payload;
            let dx = tau / (mass * g);
            let tag = format!("{} {} kg", r.pose, r.payload);
            assert!((r.tau_arm_y - tau).abs() < TOL, "{tag}: τ_arm,y");
            assert!((r.mass - mass).abs() < TOL, "{tag}: m");
            assert!((r.dx_zmp - dx).abs() < TOL, "{tag}: Δx");
            assert!((r.fraction - dx / half).abs() < TOL, "{tag}: fraction");
            assert_eq!(r.risk, super::risk(dx / half));
            // Δx_ZMP is the arm's share of the centre of mass ahead of the base origin.
            let c = center_of_mass(&model, &mut with, &q).unwrap().0;
            let c0 = center_of_mass(&model, &mut without, &q).unwrap().0;
            let arm_mass: f64 = pi.iter().map(|p| p[0]).sum();
            let share = c[0] - (mass - arm_mass) / mass * c0[0];
            assert!((dx - share).abs() < TOL, "{tag}: Δx = arm's com share");
            assert!((r.com_x - c[0]).abs() < TOL, "{tag}: com");
            assert!((r.zmp_static - c[0]).abs() < TOL, "{tag}: static ZMP = com");
            // The dynamic ZMP, independently: the runtime's contact dynamics
            // with the controller's torques, forces summed here; and the
            // runtime's centroidal momentum rate.
            let v = [0.0; super::NV];
            let mut a = [0.0; super::NV];
            a[super::SHOULDER_V] = super::SHOULDER_ACCELERATION;
            let (zmp_forces, zmp_centroidal) = runtime_zmp(&model, &pi, &q, &v, &a);
            assert!(
                (r.zmp_dynamic - zmp_forces).abs() < TOL,
                "{tag}: dynamic ZMP"
            );
            assert!((r.zmp_dynamic_centroidal - zmp_centroidal).abs() < TOL);
            assert!((zmp_forces - zmp_centroidal).abs() < TOL);
        }
        // The sweep, likewise, at every sample (v and a on the shoulder).
        for (payload, samples) in super::PAYLOADS.iter().zip(&s.sweeps) {
            assert_eq!(samples.last().unwrap().t, super::SWEEP_TIME);
            let pi = super::arm_parameters(*payload);
            for sample in samples {
                let q = super::standing(sample.shoulder.0, super::go2_z1::Q_LOWER[super::ELBOW_Q]);
                let mut v = [0.0; super::NV];
                let mut a = [0.0; super::NV];
                v[super::SHOULDER_V] = sample.shoulder.1;
                a[super::SHOULDER_V] = sample.shoulder.2;
                let (zmp_forces, zmp_centroidal) = runtime_zmp(&model, &pi, &q, &v, &a);
                assert!((sample.moving.zmp_contacts - zmp_forces).abs() < TOL);
                assert!((sample.moving.zmp_centroidal - zmp_centroidal).abs() < TOL);
                assert!(sample.moving.plant_mismatch < 1e-9);
            }
        }
    }

    /// The ZMP on the feet's plane of the stance `(q, v, a)` on the runtime:
    /// from the contact forces of `contact_dynamics` under the controller's
    /// torques (`τ = rnea - J_cᵀ λ`, the example's `stance`), summed here; and
    /// from `centroidal_momentum_rate` and `center_of_mass`.
    fn runtime_zmp(
        model: &Model,
        pi: &super::Parameters,
        q: &[f64; super::NQ],
        v: &[f64; super::NV],
        a: &[f64; super::NV],
    ) -> (f64, f64) {
        let mut data = Data::new(model);
        set_link_parameters(model, &mut data, pi.as_flattened()).unwrap();
        let tau = controller_torques(model, &mut data, q, v, a);
        let (_, lambda) =
            contact_dynamics(model, &mut data, q, v, &tau, &model.contacts, 0.0).unwrap();
        forward_kinematics(model, &mut data, q).unwrap();
        let z0 = super::ground();
        let (mut f, mut n_y) = ([0.0; 3], 0.0);
        for (c, l) in model.contacts.iter().zip(lambda.chunks(3)) {
            let p = frame_placement(model, &data, c.frame)
                .unwrap()
                .translation
                .0;
            for k in 0..3 {
                f[k] += l[k];
            }
            n_y += p[2] * l[0] - p[0] * l[2];
        }
        let from_forces = (z0 * f[0] - n_y) / f[2];
        let hdot = centroidal_momentum_rate(model, &mut data, q, v, a)
            .unwrap()
            .to_array();
        let c = center_of_mass(model, &mut data, q).unwrap().0;
        let m = model_mass(model)
            - super::go2_z1::LINK_PARAMETERS
                .iter()
                .map(|p| p[0])
                .sum::<f64>()
            + pi.iter().map(|p| p[0]).sum::<f64>();
        let from_momentum = c[0] - ((c[2] - z0) * hdot[0] + hdot[4]) / (m * 9.81 + hdot[2]);
        (from_forces, from_momentum)
    }

    /// The example's controller on the runtime: contact forces from the base
    /// rows (least norm), torques on the actuated rows.
    fn controller_torques(
        model: &Model,
        data: &mut Data<f64>,
        q: &[f64],
        v: &[f64],
        a: &[f64],
    ) -> Vec<f64> {
        use nalgebra::{DMatrix, DVector};
        let nv = model.nv;
        let rhs = DVector::from_column_slice(rbdgen::runtime::rnea(model, data, q, v, a).unwrap());
        let nc = model.nc();
        let j = DMatrix::from_row_slice(
            nc,
            nv,
            &rbdgen::runtime::contact_jacobian(model, data, q, &model.contacts).unwrap(),
        );
        let jb_t = j.columns(0, 6).transpose();
        let lambda = jb_t.pseudo_inverse(1e-12).unwrap() * rhs.rows(0, 6);
        let mut tau = rhs - j.transpose() * lambda;
        tau.rows_mut(0, 6).fill(0.0);
        tau.iter().copied().collect()
    }
}
