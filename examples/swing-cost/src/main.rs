//! A swing-foot and centre-of-mass cost for Go2+Z1, written in ordinary Rust
//! (`src/cost.rs`, generic over the scalar), traced by the build script with
//! its gradient, its Hessian and the Gauss-Newton model of its residual
//! (automatic differentiation on rbdgen's graph), and used in a few
//! Gauss-Newton steps that lift the front-left foot by 8 cm while the other
//! feet stay put, the centre of mass moves over the three standing feet and
//! the arm holds its gripper in place.
//!
//! It checks the generated numbers against central differences of the cost
//! that the runtime computes from the same source (the gradient, and the
//! Hessian of `δ ↦ cost(integrate(q, δ))`), prints the cost at each step and
//! what a gradient costs against central differences, and draws the cost
//! over the iterations in `target/plots/swing_cost.png`.
//!
//! `cargo run --release -p swing-cost`

// The module `go2_z1`, written by build.rs.
include!(concat!(env!("OUT_DIR"), "/go2_z1.rs"));

mod cost;
#[path = "../../common/plot.rs"]
mod plot;

use std::path::PathBuf;
use std::time::Instant;

use nalgebra::{DMatrix, DVector};
use rbdgen::runtime::{forward_kinematics, frame_placement, integrate, Data, Model};

use cost::NR;

/// What a run found.
#[derive(Debug)]
pub struct Summary {
    /// The cost at each iterate, the start first.
    pub costs: Vec<f64>,
    /// The largest deviation of the generated gradient from central
    /// differences of the runtime's cost, relative to the gradient's largest entry.
    pub gradient_deviation: f64,
    /// The same for the generated Hessian against second central differences.
    pub hessian_deviation: f64,
    /// The largest difference between the Gauss-Newton model's gradient
    /// `Jᵀ r` and the cost's gradient (the same number, two derivations).
    pub gauss_newton_gradient_difference: f64,
    /// How far the front-left foot rose (m).
    pub foot_lift: f64,
    /// The largest residual at the end (m).
    pub final_residual: f64,
}

/// The model the runtime evaluates the cost on.
pub fn model() -> Model {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models/go2_z1.urdf");
    Model::from_urdf_file(&path, true).expect("the repository's Go2+Z1 loads")
}

/// A standing start: the base 0.3 m up, legs bent.
pub fn start() -> [f64; go2_z1::NQ] {
    let mut q = go2_z1::NEUTRAL;
    q[2] = 0.3;
    for leg in 0..4 {
        q[7 + 3 * leg + 1] = 0.8; // thigh
        q[7 + 3 * leg + 2] = -1.5; // calf
    }
    q
}

/// The targets of [`cost::swing_residual`] for a start `q`: the front-left
/// foot 8 cm higher, the centre of mass over the three other feet's
/// centroid, the gripper and the other feet where they are.
pub fn targets(model: &Model, q: &[f64]) -> [f64; NR] {
    let mut data = Data::new(model);
    forward_kinematics(model, &mut data, q).expect("q has nq entries");
    let at = |link: &str| {
        let f = model.link_frame(link).expect("Go2+Z1 has the link");
        frame_placement(model, &data, f)
            .expect("a frame")
            .translation
            .0
    };
    let feet = [at("FR_foot"), at("RL_foot"), at("RR_foot")];
    let mut t = [0.0; NR];
    t[0] = at("FL_foot")[2] + 0.08;
    t[1] = feet.iter().map(|p| p[0]).sum::<f64>() / 3.0;
    t[2] = feet.iter().map(|p| p[1]).sum::<f64>() / 3.0;
    t[3..6].copy_from_slice(&at("gripperMover"));
    for (k, p) in feet.iter().enumerate() {
        t[6 + 3 * k..9 + 3 * k].copy_from_slice(p);
    }
    t
}

/// The runtime's cost at `q` (the reference of the generated code).
fn runtime_cost(model: &Model, data: &mut Data<f64>, q: &[f64], target: &[f64]) -> f64 {
    cost::swing_cost(model, data, &[q.to_vec(), target.to_vec()]).expect("lengths of the model")[0]
}

/// `q ⊕ δ` with `δ = Σ s_k h e_k` over `steps`.
fn moved(model: &Model, q: &[f64], steps: &[(usize, f64)]) -> Vec<f64> {
    let mut d = vec![0.0; model.nv];
    for &(k, s) in steps {
        d[k] += s;
    }
    integrate(model, q, &d).expect("lengths of the model")
}

/// The largest `|a - b|` over the largest `|b|` (at least 1).
fn deviation(a: &[f64], b: &[f64]) -> f64 {
    let scale = b.iter().fold(1.0f64, |m, x| m.max(x.abs()));
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
        / scale
}

/// The checks at the start and `iterations` Gauss-Newton steps (damped by
/// `1e-6 I`, as the 15 residuals leave 24 dofs partly free), each halved
/// until the cost decreases.
pub fn run(iterations: usize) -> Summary {
    let model = model();
    let mut data = Data::new(&model);
    let nv = go2_z1::NV;
    let mut q = start();
    let target = targets(&model, &q);

    // The generated gradient and Hessian against the runtime's cost.
    let gradient = go2_z1::swing_cost_gradient(&q, &target);
    let h = 1e-6;
    let fd: Vec<f64> = (0..nv)
        .map(|k| {
            let p = runtime_cost(&model, &mut data, &moved(&model, &q, &[(k, h)]), &target);
            let m = runtime_cost(&model, &mut data, &moved(&model, &q, &[(k, -h)]), &target);
            (p - m) / (2.0 * h)
        })
        .collect();
    let gradient_deviation = deviation(&gradient, &fd);
    let hessian = go2_z1::swing_cost_hessian(&q, &target);
    let h = 1e-4;
    let mut second = Vec::with_capacity(nv * nv);
    for i in 0..nv {
        for j in 0..nv {
            let mut c = |si: f64, sj: f64| {
                let at = moved(&model, &q, &[(i, si * h), (j, sj * h)]);
                runtime_cost(&model, &mut data, &at, &target)
            };
            second
                .push((c(1.0, 1.0) - c(1.0, -1.0) - c(-1.0, 1.0) + c(-1.0, -1.0)) / (4.0 * h * h));
        }
    }
    let hessian_deviation = deviation(hessian.as_flattened(), &second);
    let (_, g, _) = go2_z1::swing_residual_gauss_newton(&q, &target);
    let gauss_newton_gradient_difference = deviation(&g, &gradient);

    // Gauss-Newton steps on the tangent space.
    let foot_start = go2_z1::swing_residual(&q, &target)[0];
    let mut costs = vec![go2_z1::swing_cost(&q, &target)];
    for _ in 0..iterations {
        let (_, g, hgn) = go2_z1::swing_residual_gauss_newton(&q, &target);
        let mut h = DMatrix::from_fn(nv, nv, |i, j| hgn[i][j]);
        h += DMatrix::identity(nv, nv) * 1e-6;
        let step = h
            .cholesky()
            .expect("H + 1e-6 I is positive definite")
            .solve(&DVector::from_column_slice(&g));
        // The full step, halved until the cost decreases (a backtracking
        // line search: the full step overshoots far from the solution).
        let current = go2_z1::swing_cost(&q, &target);
        let mut scale = 1.0;
        let next = loop {
            let delta: Vec<f64> = step.iter().map(|x| -scale * x).collect();
            let next: [f64; go2_z1::NQ] = integrate(&model, &q, &delta)
                .expect("lengths of the model")
                .try_into()
                .expect("nq entries");
            if go2_z1::swing_cost(&next, &target) <= current || scale < 1e-3 {
                break next;
            }
            scale *= 0.5;
        };
        q = next;
        costs.push(go2_z1::swing_cost(&q, &target));
    }
    let r = go2_z1::swing_residual(&q, &target);
    Summary {
        costs,
        gradient_deviation,
        hessian_deviation,
        gauss_newton_gradient_difference,
        foot_lift: r[0] - foot_start,
        final_residual: r.iter().fold(0.0, |m: f64, x| m.max(x.abs())),
    }
}

/// The median time of `f` over a few calibrated batches (ns per call).
fn time_ns(mut f: impl FnMut()) -> f64 {
    let mut n = 1;
    while {
        let t = Instant::now();
        for _ in 0..n {
            f();
        }
        t.elapsed().as_millis() < 20
    } {
        n *= 2;
    }
    let mut times: Vec<f64> = (0..9)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..n {
                f();
            }
            t.elapsed().as_nanos() as f64 / n as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[4]
}

fn main() {
    let s = run(8);
    println!("Go2+Z1: lift the front-left foot 8 cm, centre of mass over the other three feet, gripper held.");
    println!(
        "generated gradient vs central differences of the runtime's cost: {:.1e} (relative)",
        s.gradient_deviation
    );
    println!(
        "generated Hessian vs second central differences:                 {:.1e} (relative)",
        s.hessian_deviation
    );
    println!(
        "Gauss-Newton gradient Jᵀr vs the cost's gradient:                 {:.1e}",
        s.gauss_newton_gradient_difference
    );
    for (k, c) in s.costs.iter().enumerate() {
        println!("iteration {k}: cost {c:.3e}");
    }
    println!(
        "the foot's residual moved by {:.4} m; the largest residual left is {:.1e} m",
        s.foot_lift, s.final_residual
    );

    let model = model();
    let mut data = Data::new(&model);
    let q = start();
    let target = targets(&model, &q);
    let gradient = time_ns(|| {
        std::hint::black_box(go2_z1::swing_cost_gradient(
            std::hint::black_box(&q),
            &target,
        ));
    });
    let differences = time_ns(|| {
        for k in 0..go2_z1::NV {
            for s in [1e-6, -1e-6] {
                let at = moved(&model, &q, &[(k, s)]);
                std::hint::black_box(runtime_cost(&model, &mut data, &at, &target));
            }
        }
    });
    let gn = time_ns(|| {
        std::hint::black_box(go2_z1::swing_residual_gauss_newton(
            std::hint::black_box(&q),
            &target,
        ));
    });
    println!(
        "one gradient: {gradient:.0} ns generated, {differences:.0} ns by central differences of the \
         runtime's cost ({:.0}x); the Gauss-Newton model (c, g, H): {gn:.0} ns",
        differences / gradient
    );

    let dir = plots_dir();
    let path = plot::out_path(&dir, "swing_cost.png");
    let points: Vec<(f64, f64)> = s
        .costs
        .iter()
        .enumerate()
        .map(|(k, c)| (k as f64, c.max(1e-300).log10()))
        .collect();
    plot::styled_lines(
        &path,
        "Go2+Z1 swing-foot cost, Gauss-Newton on generated derivatives",
        ("iteration", "log10 cost (m²)"),
        &[plot::Styled {
            label: "½|r|²",
            points,
            color: 0,
            dashed: false,
        }],
        &[],
    )
    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    println!("plot: {}", path.display());
}

/// The workspace's `target/plots`, named without `..` (the example is two
/// levels down, in `examples/swing-cost`) so that the printed path reads
/// cleanly.
fn plots_dir() -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("the example is two levels below the workspace")
        .join("target/plots")
}

#[cfg(test)]
mod tests {
    /// The generated derivatives equal the runtime's central differences, and
    /// Gauss-Newton on them lifts the foot with every residual met.
    #[test]
    fn derivatives_match_and_the_foot_lifts() {
        let s = super::run(8);
        assert!(s.gradient_deviation < 1e-7, "{s:?}");
        assert!(s.hessian_deviation < 1e-5, "{s:?}");
        assert!(s.gauss_newton_gradient_difference < 1e-12, "{s:?}");
        assert!(s.costs[0] > 1e-3, "{s:?}");
        assert!(s.costs.windows(2).all(|w| w[1] <= w[0]), "{s:?}");
        assert!(s.final_residual < 1e-6, "{s:?}");
        assert!((s.foot_lift - 0.08).abs() < 1e-6, "{s:?}");
    }

    /// The printed plot path is the workspace's `target/plots`, without `..`.
    #[test]
    fn the_plot_path_has_no_parent_steps() {
        let dir = super::plots_dir();
        assert!(dir.ends_with("target/plots"), "{}", dir.display());
        assert!(
            dir.components()
                .all(|c| c != std::path::Component::ParentDir),
            "{}",
            dir.display()
        );
        assert!(dir
            .parent()
            .unwrap()
            .parent()
            .unwrap()
            .join("Cargo.toml")
            .is_file());
    }
}
