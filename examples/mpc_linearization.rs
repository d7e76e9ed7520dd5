//! The linearization an MPC needs at every iteration: `step_linearization`
//! (one semi-implicit Euler step of Go2+Z1 and its `A`, `B`) at the 40 knots
//! of a horizon, three ways: the scalar generated function knot by knot, the
//! `lanes = 4` batch (four knots per instruction stream), and that batch split
//! across rayon's threads (`threads`: `lanes::step_linearization_batch_par`).
//! The lanes take their sines and cosines from `wide`'s vectorised
//! polynomial (within one unit in the last place of `libm`'s), so their
//! matrices match the scalar ones to about 1e-15 relative; the threaded batch
//! equals the single-thread batch bit for bit.
//!
//! Run with `cargo run --release --features rayon --example
//! mpc_linearization` (AVX2 + FMA where the CPU has them, from the
//! workspace's `.cargo/config.toml`: four `f64` lanes per instruction). The
//! times are indicative (one process, a shared machine); `scripts/bench
//! --lanes` measures the same functions beside Pinocchio's
//! `computeABADerivatives` + `dIntegrate` composition. Its test (at the end
//! of this file) asserts that the lanes match the scalar linearizations to
//! 1e-13 and that the threaded batch equals the single-thread one bit for bit.

use std::time::Instant;

rbdgen::robot_dynamics!(
    pub mod go2_z1,
    "models/go2_z1.urdf",
    floating_base,
    lanes = 4,
    threads,
    functions = [step_linearization]
);

use go2_z1::{lanes, NQ, NU, NV};

/// Knots of the horizon.
pub const KNOTS: usize = 40;
/// Time step (s).
pub const DT: f64 = 0.01;

/// One knot's linearization: `(q⁺, v⁺, A, B)`.
pub type Linearization = (
    [f64; NQ],
    [f64; NV],
    [[f64; 2 * NV]; 2 * NV],
    [[f64; NU]; 2 * NV],
);

/// The horizon's states and controls: a smooth motion around standing, as
/// the previous MPC solution gives them (the base rising and turning slowly,
/// every joint swinging by 0.2 rad about its standing angle at 2 rad/s, with
/// the matching velocities), and smooth torques of up to 2 N·m. (A rollout of
/// the unconstrained floating base under such torques leaves any realistic
/// state within a few tenths of a second: the light wrist links spin up.)
pub fn horizon() -> (Vec<[f64; NQ]>, Vec<[f64; NV]>, Vec<[f64; NU]>) {
    let mut standing = [0.0; NQ];
    standing[2] = 0.32;
    for leg in 0..4 {
        standing[7 + 3 * leg + 1] = 0.8;
        standing[7 + 3 * leg + 2] = -1.5;
    }
    let (mut qs, mut vs, mut us) = (Vec::new(), Vec::new(), Vec::new());
    for k in 0..KNOTS {
        let t = k as f64 * DT;
        let mut q = standing;
        let mut v = [0.0; NV];
        // Base: 2 cm/s up, 0.5 rad/s of yaw (quaternion about z, v in the base frame).
        q[2] += 0.02 * t;
        (q[5], q[6]) = ((0.25 * t).sin(), (0.25 * t).cos());
        (v[2], v[5]) = (0.02, 0.5);
        for j in 0..NU {
            let phase = 2.0 * t + j as f64;
            q[7 + j] += 0.2 * phase.sin();
            v[6 + j] = 0.4 * phase.cos();
        }
        let u: [f64; NU] = std::array::from_fn(|j| 2.0 * (3.0 * t + j as f64).sin());
        qs.push(q);
        vs.push(v);
        us.push(u);
    }
    (qs, vs, us)
}

/// The three ways, their results (which must agree) and their times per knot (ns).
pub struct Comparison {
    /// Largest difference of the lanes batch from the scalar results (per
    /// entry, relative to `max(1, max |scalar entry|)` of its knot), and the
    /// largest `|threads - lanes batch|`.
    pub worst_difference: (f64, f64),
    /// ns per knot: scalar, lanes batch, lanes batch on threads.
    pub ns_per_knot: (f64, f64, f64),
}

/// Linearizes the horizon `repeat` times each way.
pub fn compare(repeat: usize) -> Comparison {
    let (q, v, u) = horizon();
    let h = [DT; KNOTS];
    let zero: Linearization = (
        [0.0; NQ],
        [0.0; NV],
        [[0.0; 2 * NV]; 2 * NV],
        [[0.0; NU]; 2 * NV],
    );
    let mut scalar = vec![zero; KNOTS];
    let mut batch = vec![zero; KNOTS];
    let mut threads = vec![zero; KNOTS];

    let start = Instant::now();
    for _ in 0..repeat {
        for k in 0..KNOTS {
            scalar[k] = go2_z1::step_linearization(&q[k], &v[k], &u[k], DT);
        }
    }
    let t_scalar = start.elapsed().as_secs_f64();

    let start = Instant::now();
    for _ in 0..repeat {
        lanes::step_linearization_batch(&q, &v, &u, &h, &mut batch).expect("equal lengths");
    }
    let t_batch = start.elapsed().as_secs_f64();

    let start = Instant::now();
    for _ in 0..repeat {
        lanes::step_linearization_batch_par(&q, &v, &u, &h, &mut threads).expect("equal lengths");
    }
    let t_threads = start.elapsed().as_secs_f64();

    let flat = |l: &Linearization| -> Vec<f64> {
        [&l.0[..], &l.1, l.2.as_flattened(), l.3.as_flattened()].concat()
    };
    let worst = |reference: &[Linearization], other: &[Linearization], relative: bool| -> f64 {
        reference.iter().zip(other).fold(0.0, |m, (a, b)| {
            let (a, b) = (flat(a), flat(b));
            let scale = if relative {
                a.iter().fold(1.0, |s: f64, x| s.max(x.abs()))
            } else {
                1.0
            };
            a.iter()
                .zip(&b)
                .fold(m, |m, (x, y)| m.max((x - y).abs() / scale))
        })
    };
    let per_knot = |t: f64| t * 1e9 / (repeat * KNOTS) as f64;
    Comparison {
        worst_difference: (worst(&scalar, &batch, true), worst(&batch, &threads, false)),
        ns_per_knot: (per_knot(t_scalar), per_knot(t_batch), per_knot(t_threads)),
    }
}

#[allow(dead_code)]
fn main() {
    let c = compare(50);
    let (s, b, t) = c.ns_per_knot;
    println!(
        "Go2+Z1 step_linearization (A: {}x{}, B: {}x{}) at {KNOTS} knots, dt = {DT} s",
        2 * NV,
        2 * NV,
        2 * NV,
        NU
    );
    println!("| way | µs per knot | µs per horizon | speed-up |");
    println!("|---|---:|---:|---:|");
    for (name, ns) in [
        ("scalar, knot by knot", s),
        ("lanes = 4, batch", b),
        (
            &*format!(
                "lanes = 4, batch on {} threads",
                rayon::current_num_threads()
            ),
            t,
        ),
    ] {
        println!(
            "| {name} | {:.2} | {:.1} | {:.2}x |",
            ns / 1e3,
            ns * KNOTS as f64 / 1e3,
            s / ns
        );
    }
    println!(
        "largest difference: lanes from scalar {:.1e} (relative), threads from lanes {:.1e}",
        c.worst_difference.0, c.worst_difference.1
    );
}

// The example's numbers, asserted: `cargo test --all-features --example
// mpc_linearization` runs these.
#[cfg(test)]
mod tests {

    /// The horizon's linearizations through lanes match the scalar ones (the
    /// lanes' vectorised sine and cosine are within one unit in the last place),
    /// and the threaded batch equals the single-thread batch bit for bit.
    #[test]
    fn mpc_linearization_lanes_and_threads_equal_scalar() {
        let c = super::compare(1);
        assert!(c.worst_difference.0 <= 1e-13, "{:e}", c.worst_difference.0);
        assert_eq!(c.worst_difference.1, 0.0);
    }
}
