//! Frame Jacobians (`frame_jacobian` in LOCAL, WORLD and LOCAL_WORLD_ALIGNED)
//! against central differences of the frame placements, from their
//! definitions and without going through the joint Jacobians:
//!
//! - LOCAL, the frame's twist in its own frame:
//!   `J_k ≈ (log6(oMf(q)⁻¹ oMf(q ⊕ h e_k)) − log6(oMf(q)⁻¹ oMf(q ⊕ −h e_k))) / 2h`;
//! - WORLD, the twist in the world frame (the world adjoint of LOCAL):
//!   `J_k ≈ (log6(oMf(q ⊕ h e_k) oMf(q)⁻¹) − log6(oMf(q ⊕ −h e_k) oMf(q)⁻¹)) / 2h`;
//! - LOCAL_WORLD_ALIGNED, the velocity of the frame origin and the angular
//!   velocity, both in world axes: linear `(p(q ⊕ h e_k) − p(q ⊕ −h e_k)) / 2h`
//!   with `p` the translation of `oMf`, angular as WORLD's.
//!
//! `q ⊕ δ = integrate(q, δ).unwrap()`, the tangent-space perturbation of Pinocchio. On
//! Go2+Z1 with a floating base and Panda with a fixed base, several random
//! states, every link frame; tolerance `1e-6 · max(1, max|J|)` (the central
//! difference with `h = 1e-5` is accurate to about 1e-9 here).

mod common;

use common::{random_q, Reference};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen_runtime::spatial::log6;
use rbdgen_runtime::{
    compute_joint_jacobians, forward_kinematics, frame_jacobian, frame_placement, integrate, Data,
    Model, ReferenceFrame, Transform,
};

/// Step of the central differences.
const H: f64 = 1e-5;

/// Accepted error, relative to `max(1, max|J|)` of each Jacobian.
const TOLERANCE: f64 = 1e-6;

/// Random states per model.
const STATES: usize = 4;

/// `oMf` of every link frame at `q`.
fn placements(model: &Model, data: &mut Data<f64>, q: &[f64]) -> Vec<Transform<f64>> {
    forward_kinematics(model, data, q).unwrap();
    model
        .body_frames()
        .map(|(id, _)| frame_placement(model, data, id).unwrap())
        .collect()
}

/// The three Jacobians of every link frame by central differences, each
/// `[6 x nv]` row-major: `(local, world, local_world_aligned)` per frame.
fn central_differences(model: &Model, q: &[f64]) -> Vec<[Vec<f64>; 3]> {
    let mut data = Data::new(model);
    let at_q = placements(model, &mut data, q);
    let nv = model.nv;
    let mut out = vec![[vec![0.0; 6 * nv], vec![0.0; 6 * nv], vec![0.0; 6 * nv]]; at_q.len()];
    for k in 0..nv {
        let step = |h: f64, data: &mut Data<f64>| {
            let mut delta = vec![0.0; nv];
            delta[k] = h;
            placements(model, data, &integrate(model, q, &delta).unwrap())
        };
        let (plus, minus) = (step(H, &mut data), step(-H, &mut data));
        for (f, [local, world, aligned]) in out.iter_mut().enumerate() {
            let o_m_f = &at_q[f];
            let f_m_o = o_m_f.inverse();
            let local_plus = log6(&(f_m_o * plus[f])).to_array();
            let local_minus = log6(&(f_m_o * minus[f])).to_array();
            let world_plus = log6(&(plus[f] * f_m_o)).to_array();
            let world_minus = log6(&(minus[f] * f_m_o)).to_array();
            let (p_plus, p_minus) = (plus[f].translation.0, minus[f].translation.0);
            for row in 0..6 {
                let at = row * nv + k;
                local[at] = (local_plus[row] - local_minus[row]) / (2.0 * H);
                world[at] = (world_plus[row] - world_minus[row]) / (2.0 * H);
                aligned[at] = if row < 3 {
                    (p_plus[row] - p_minus[row]) / (2.0 * H)
                } else {
                    world[at]
                };
            }
        }
    }
    out
}

/// `max |a - b| / max(1, max |b|)`.
fn relative_error(a: &[f64], b: &[f64]) -> f64 {
    let scale = b.iter().fold(1.0f64, |m, x| m.max(x.abs()));
    a.iter()
        .zip(b)
        .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()))
        / scale
}

/// Checks every link frame's three Jacobians of `reference`'s model at
/// `STATES` random states; returns the largest error and the largest
/// difference between the LOCAL and the WORLD Jacobian of a frame (so that a
/// mix-up of the frames cannot pass).
fn check(reference: &str, seed: u64) -> (f64, f64) {
    let model = Reference::load(reference).model;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut data = Data::new(&model);
    let (mut worst, mut local_vs_world) = (0.0f64, 0.0f64);
    for state in 0..STATES {
        let q = random_q(&model, &mut rng);
        let expected = central_differences(&model, &q);
        compute_joint_jacobians(&model, &mut data, &q).unwrap();
        for ((id, frame), fd) in model.body_frames().zip(&expected) {
            let rfs = [
                ReferenceFrame::Local,
                ReferenceFrame::World,
                ReferenceFrame::LocalWorldAligned,
            ];
            for (rf, want) in rfs.into_iter().zip(fd) {
                let ours = frame_jacobian(&model, &data, id, rf).unwrap();
                let error = relative_error(&ours, want);
                assert!(
                    error <= TOLERANCE,
                    "{reference}, state {state}, frame {} ({rf:?}): error {error:e}\nours {ours:?}\ncentral differences {want:?}",
                    frame.name
                );
                worst = worst.max(error);
            }
            local_vs_world = local_vs_world.max(relative_error(&fd[0], &fd[1]));
        }
    }
    println!("{reference}: worst error {worst:.1e}, LOCAL vs WORLD {local_vs_world:.1e}");
    (worst, local_vs_world)
}

#[test]
fn go2_z1_floating_jacobians_match_central_differences() {
    let (worst, local_vs_world) = check("go2_z1_floating", 7);
    assert!(
        worst < TOLERANCE && local_vs_world > 1e-2,
        "{worst:e} {local_vs_world:e}"
    );
}

#[test]
fn panda_fixed_jacobians_match_central_differences() {
    let (worst, local_vs_world) = check("panda_fixed", 11);
    assert!(
        worst < TOLERANCE && local_vs_world > 1e-2,
        "{worst:e} {local_vs_world:e}"
    );
}
