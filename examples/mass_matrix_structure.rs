//! The block structure of Go2 + Z1's mass matrix, on generated code.
//!
//! `M(q)` (`crba`, 24 x 24) splits into the base (free-flyer, v 0..6: linear
//! then angular velocity in the base frame), the four legs (v 6..18) and the
//! arm (v 18..24). This example
//!
//! 1. draws `log10 |M_ij|` at a standing pose with the arm reaching forward,
//!    block boundaries marked: the leg-leg and leg-arm blocks are exact zeros
//!    (separate branches of the tree couple only through the base);
//! 2. draws the coupling alone, `|M_ij| / sqrt(M_ii M_jj)` off the diagonal
//!    blocks (dimensionless, 1 = rigidly coupled);
//! 3. sweeps the arm's shoulder (joint2) and elbow (joint3) over their joint
//!    limits and maps `‖M_ba‖_F / ‖M_bb‖_F`, base-arm coupling against the
//!    base's own inertia, for payloads of 0, 1 and 2 kg held at the gripper:
//!    the payload is a run-time input of the generated `crba`
//!    (`parameters = [gripper_link]`), not a regenerated model.
//!
//! Run with `cargo run --release --example mass_matrix_structure`.
//!
//! # Walkthrough
//!
//! `M(q)` from the generated `crba` (24 x 24) has three blocks: the base (v 0..6,
//! linear then angular velocity in the base frame), the four legs (v 6..18) and
//! the arm (v 18..24). The robot stands (base 0.32 m up, thighs 0.8 rad, calves
//! −1.5 rad) with the arm reaching forward: the shoulder (joint2) at its 170°
//! limit and the elbow (joint3) at its −165° limit, which is as straight as the
//! Z1 gets. The leg-leg and leg-arm blocks are exact zeros, because separate
//! branches of the tree couple only through the base. The second plot shows only
//! the coupling, `|M_ij| / sqrt(M_ii M_jj)` (dimensionless; 1 means rigidly
//! coupled). The third maps `‖M_ba‖_F / ‖M_bb‖_F`, the base-arm coupling against
//! the base's own inertia, over the shoulder and elbow ranges for payloads of 0,
//! 1 and 2 kg. The payload is held at the gripper as a solid sphere of radius
//! 4 cm. It is a run-time input (`parameters = [gripper_link]`): the same
//! generated `crba` serves every payload, called with `LINK_PARAMETERS` plus the
//! payload's `Inertia::from_com(..).to_parameters()`.
//!
//! ```text
//! Frobenius norm of each block of M:
//!                base       legs        arm
//!     base    37.8872     0.3288     4.0369
//!     legs     0.3288     0.0696     0.0000
//!      arm     4.0369     0.0000     2.0319
//! leg-leg and leg-arm entries: largest |M_ij| = 0.0e0 (branches couple only through the base)
//! largest normalised coupling |M_ij|/sqrt(M_ii M_jj): base-legs 0.299, base-arm 0.883
//! ‖M_ba‖_F / ‖M_bb‖_F over shoulder [0°, 170°] x elbow [-165°, 0°] (61 x 61 grid):
//!  payload     home  reaching    min (shoulder, elbow)    max (shoulder, elbow)
//!      0 kg   0.0286    0.1066   0.0264 (  65°,     0°)   0.1066 ( 170°,  -165°)
//!      1 kg   0.0438    0.1536   0.0412 (  79°,     0°)   0.1536 ( 170°,  -165°)
//!      2 kg   0.0602    0.1950   0.0558 (  96°,     0°)   0.1950 ( 170°,  -165°)
//! ```
//!
//! Reaching out with 2 kg raises the arm's coupling to the base from 3 % to 20 %
//! of the base's own inertia.
//!
//! ![log10 |M| of Go2+Z1 with block boundaries](../docs/img/mass_matrix_log10.png)
//! ![coupling between base, legs and arm](../docs/img/mass_matrix_coupling.png)
//! ![base-arm coupling ratio over shoulder and elbow, 0/1/2 kg](../docs/img/mass_matrix_ratio.png)
//!
//! The test compares the generated `crba` with the runtime's, both given the same
//! link parameters, at every point of a grid and for every payload. It recomputes
//! the ratio map from the runtime's `M`, and checks that `M` is symmetric, that
//! `M[0..3, 0..3] = (TOTAL_MASS + payload) I`, that the blocks between branches
//! are exact zeros, and that the payload raises the ratio at every grid point.

use std::ops::Range;

use rbdgen::runtime::{Inertia, Matrix3, Vector3};

#[path = "common/plot.rs"]
mod plot;

rbdgen::robot_dynamics!(
    pub mod go2_z1,
    "models/go2_z1.urdf",
    floating_base,
    parameters = [gripper_link],
    frames = [gripper_link],
    functions = [crba, frame_placement]
);

pub use go2_z1::{NQ, NV};

/// The blocks of `v`: base, legs, arm.
pub const BLOCKS: [(&str, Range<usize>); 3] = [("base", 0..6), ("legs", 6..18), ("arm", 18..24)];
/// `q` indices of the shoulder pitch (joint2) and the elbow (joint3).
pub const SHOULDER_Q: usize = 20;
/// See [`SHOULDER_Q`].
pub const ELBOW_Q: usize = 21;
/// Payloads held at the gripper (kg).
pub const PAYLOADS: [f64; 3] = [0.0, 1.0, 2.0];
/// Radius of the payload, a solid sphere centred on the tool centre point (m).
pub const PAYLOAD_RADIUS: f64 = 0.04;

/// The standing posture (base 0.32 m up, thighs 0.8 rad, calves -1.5 rad),
/// the arm folded at home (all arm joints 0).
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

/// The standing posture with the arm reaching forward: shoulder and elbow at
/// their limits (170° and −165°, the straightest the Z1 gets).
pub fn extended() -> [f64; NQ] {
    with_arm(go2_z1::Q_UPPER[SHOULDER_Q], go2_z1::Q_LOWER[ELBOW_Q])
}

/// The standing posture with the shoulder and elbow at these angles (rad).
pub fn with_arm(shoulder: f64, elbow: f64) -> [f64; NQ] {
    let mut q = standing();
    q[SHOULDER_Q] = shoulder;
    q[ELBOW_Q] = elbow;
    q
}

/// The gripper link's inertial parameters holding `mass` kg: the URDF's
/// (none: `gripper_link` is a massless frame) plus a solid sphere of radius
/// [`PAYLOAD_RADIUS`] centred on the link's origin.
pub fn payload_parameters(mass: f64) -> [[f64; 10]; go2_z1::NPARAMETERS] {
    let i = 0.4 * mass * PAYLOAD_RADIUS * PAYLOAD_RADIUS;
    let sphere = Inertia::from_com(
        mass,
        Vector3([0.0; 3]),
        Matrix3([[i, 0.0, 0.0], [0.0, i, 0.0], [0.0, 0.0, i]]),
    );
    let mut pi = go2_z1::LINK_PARAMETERS;
    for (x, y) in pi[0].iter_mut().zip(sphere.to_parameters()) {
        *x += y;
    }
    pi
}

/// The Frobenius norm of the block `rows x cols` of `m`.
pub fn block_norm(m: &[[f64; NV]; NV], rows: Range<usize>, cols: Range<usize>) -> f64 {
    rows.flat_map(|r| cols.clone().map(move |c| m[r][c] * m[r][c]))
        .sum::<f64>()
        .sqrt()
}

/// `‖M_ba‖_F / ‖M_bb‖_F`: the base-arm coupling against the base's inertia.
pub fn coupling_ratio(m: &[[f64; NV]; NV]) -> f64 {
    block_norm(m, 0..6, 18..24) / block_norm(m, 0..6, 0..6)
}

/// The ratio map of one payload over the shoulder / elbow grid.
#[derive(Debug)]
pub struct RatioMap {
    /// Payload (kg).
    pub payload: f64,
    /// `ratio[e * n + s]` at elbow `elbow[e]`, shoulder `shoulder[s]`.
    pub ratio: Vec<f64>,
    /// The ratio with the arm folded at home and reaching forward.
    pub at_home: f64,
    /// See `at_home`.
    pub at_extended: f64,
    /// Smallest and largest ratio on the grid, with their (shoulder, elbow) (rad).
    pub min: (f64, f64, f64),
    /// See `min`.
    pub max: (f64, f64, f64),
}

/// What the example computed.
#[derive(Debug)]
pub struct Summary {
    /// `M` at [`extended`] without payload.
    pub m: [[f64; NV]; NV],
    /// Frobenius norm of each block pair of `m`, `[row block][column block]`.
    pub block_norms: [[f64; 3]; 3],
    /// Largest `|M_ij|` in the leg-leg (different legs) and leg-arm blocks.
    pub largest_branch_coupling: f64,
    /// Largest `|M_ij| / sqrt(M_ii M_jj)` between base and legs, base and arm.
    pub largest_coupling: (f64, f64),
    /// Gripper position in the base frame at [`extended`] (m).
    pub gripper: [f64; 3],
    /// Shoulder angles of the grid (rad), within the joint limits.
    pub shoulder: Vec<f64>,
    /// Elbow angles of the grid (rad).
    pub elbow: Vec<f64>,
    /// One map per payload of [`PAYLOADS`].
    pub maps: Vec<RatioMap>,
}

/// Evenly spaced `n` values from `a` to `b`.
pub fn linspace(a: f64, b: f64, n: usize) -> Vec<f64> {
    (0..n)
        .map(|k| a + (b - a) * k as f64 / (n - 1) as f64)
        .collect()
}

/// Computes everything on an `n x n` shoulder / elbow grid.
pub fn run(n: usize) -> Summary {
    let m = go2_z1::crba(&extended(), &payload_parameters(0.0));
    let mut block_norms = [[0.0; 3]; 3];
    for (i, (_, rows)) in BLOCKS.iter().enumerate() {
        for (j, (_, cols)) in BLOCKS.iter().enumerate() {
            block_norms[i][j] = block_norm(&m, rows.clone(), cols.clone());
        }
    }
    let mut largest_branch_coupling = 0.0f64;
    let mut largest_coupling = (0.0f64, 0.0f64);
    for r in 6..NV {
        for c in 6..NV {
            // Branch of a dof: leg 0..4 (3 dofs each) or the arm (4).
            let branch = |i: usize| if i < 18 { (i - 6) / 3 } else { 4 };
            if branch(r) != branch(c) {
                largest_branch_coupling = largest_branch_coupling.max(m[r][c].abs());
            }
        }
        for c in 0..6 {
            let k = m[r][c].abs() / (m[r][r] * m[c][c]).sqrt();
            if r < 18 {
                largest_coupling.0 = largest_coupling.0.max(k);
            } else {
                largest_coupling.1 = largest_coupling.1.max(k);
            }
        }
    }
    let g = go2_z1::frame_placement(&extended(), go2_z1::Frame::GripperLink);
    let base = extended();
    let gripper = [g[0][3] - base[0], g[1][3] - base[1], g[2][3] - base[2]];
    let shoulder = linspace(go2_z1::Q_LOWER[SHOULDER_Q], go2_z1::Q_UPPER[SHOULDER_Q], n);
    let elbow = linspace(go2_z1::Q_LOWER[ELBOW_Q], go2_z1::Q_UPPER[ELBOW_Q], n);
    let maps = PAYLOADS
        .iter()
        .map(|&payload| {
            let pi = payload_parameters(payload);
            let ratio_at = |q: &[f64; NQ]| coupling_ratio(&go2_z1::crba(q, &pi));
            let mut ratio = Vec::with_capacity(n * n);
            let mut min = (f64::MAX, 0.0, 0.0);
            let mut max = (f64::MIN, 0.0, 0.0);
            for &e in &elbow {
                for &s in &shoulder {
                    let r = ratio_at(&with_arm(s, e));
                    ratio.push(r);
                    if r < min.0 {
                        min = (r, s, e);
                    }
                    if r > max.0 {
                        max = (r, s, e);
                    }
                }
            }
            RatioMap {
                payload,
                ratio,
                at_home: ratio_at(&standing()),
                at_extended: ratio_at(&extended()),
                min,
                max,
            }
        })
        .collect();
    Summary {
        m,
        block_norms,
        largest_branch_coupling,
        largest_coupling,
        gripper,
        shoulder,
        elbow,
        maps,
    }
}

/// The three PNGs, written to `dir`: `log10 |M|`, the coupling, the ratio maps.
pub fn plots(
    s: &Summary,
    dir: &std::path::Path,
) -> Result<Vec<std::path::PathBuf>, Box<dyn std::error::Error>> {
    let boundaries = [6, 18];
    let index_axis = |label| plot::Axis {
        range: (0.0, NV as f64),
        label,
    };
    let log: Vec<f64> =
        s.m.iter()
            .flatten()
            .map(|x| {
                if x.abs() < 1e-14 {
                    f64::NAN
                } else {
                    x.abs().log10()
                }
            })
            .collect();
    let (lo, hi) = log
        .iter()
        .filter(|x| !x.is_nan())
        .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    let p1 = plot::out_path(dir, "mass_matrix_log10.png");
    plot::fields(
        &p1,
        "Go2+Z1 mass matrix M(q), standing, arm reaching forward",
        &[plot::Field {
            title: "log10 |M_ij|  (grey: exact zero)",
            values: &log,
            shape: (NV, NV),
            x: index_axis("column j: base 0-5 | legs 6-17 | arm 18-23"),
            y: index_axis("row i: base 0-5 | legs 6-17 | arm 18-23"),
            top_down: true,
            boundaries: &boundaries,
            marks: &[],
            texts: &[],
        }],
        (lo.floor(), hi.ceil()),
        "log10 |M_ij|  (kg, kg·m, kg·m²)",
        (640, 600),
    )?;
    let block = |i: usize| {
        if i < 6 {
            0
        } else if i < 18 {
            1
        } else {
            2
        }
    };
    let coupling: Vec<f64> = (0..NV * NV)
        .map(|k| {
            let (r, c) = (k / NV, k % NV);
            if block(r) == block(c) {
                f64::NAN
            } else {
                s.m[r][c].abs() / (s.m[r][r] * s.m[c][c]).sqrt()
            }
        })
        .collect();
    let p2 = plot::out_path(dir, "mass_matrix_coupling.png");
    plot::fields(
        &p2,
        "Go2+Z1 coupling between base, legs and arm",
        &[plot::Field {
            title: "|M_ij| / sqrt(M_ii M_jj), diagonal blocks grey",
            values: &coupling,
            shape: (NV, NV),
            x: index_axis("column j: base 0-5 | legs 6-17 | arm 18-23"),
            y: index_axis("row i: base 0-5 | legs 6-17 | arm 18-23"),
            top_down: true,
            boundaries: &boundaries,
            marks: &[],
            texts: &[
                (3.0, 3.0, "base"),
                (12.0, 12.0, "legs"),
                (21.0, 21.0, "arm"),
            ],
        }],
        (0.0, 1.0),
        "normalised coupling (1 = rigid)",
        (640, 600),
    )?;
    let deg = |x: f64| x.to_degrees();
    let n = s.shoulder.len();
    let (x_range, y_range) = (
        (deg(s.shoulder[0]), deg(s.shoulder[n - 1])),
        (deg(s.elbow[0]), deg(s.elbow[n - 1])),
    );
    // Cells centred on the grid points.
    let half = |(a, b): (f64, f64)| {
        let h = 0.5 * (b - a) / (n - 1) as f64;
        (a - h, b + h)
    };
    let titles: Vec<String> = s
        .maps
        .iter()
        .map(|m| format!("payload {} kg", m.payload))
        .collect();
    let hi = s.maps.iter().map(|m| m.max.0).fold(0.0, f64::max);
    let lo = s.maps.iter().map(|m| m.min.0).fold(f64::MAX, f64::min);
    let ext = extended();
    let marks = [
        (0.0, 0.0, "home"),
        (deg(ext[SHOULDER_Q]), deg(ext[ELBOW_Q]), "reaching"),
    ];
    let panels: Vec<plot::Field> = s
        .maps
        .iter()
        .zip(&titles)
        .map(|(m, t)| plot::Field {
            title: t,
            values: &m.ratio,
            shape: (n, n),
            x: plot::Axis {
                range: half(x_range),
                label: "shoulder joint2 (deg)",
            },
            y: plot::Axis {
                range: half(y_range),
                label: "elbow joint3 (deg)",
            },
            top_down: false,
            boundaries: &[],
            marks: &marks,
            texts: &[],
        })
        .collect();
    let p3 = plot::out_path(dir, "mass_matrix_ratio.png");
    plot::fields(
        &p3,
        "Base-arm coupling ‖M_ba‖_F / ‖M_bb‖_F over the arm's shoulder and elbow",
        &panels,
        (lo, hi),
        "‖M_ba‖_F / ‖M_bb‖_F",
        (470, 460),
    )?;
    Ok(vec![p1, p2, p3])
}

#[allow(dead_code)]
fn main() {
    let s = run(61);
    println!("Go2 + Z1 mass matrix (generated crba, nv = {NV}), standing, arm reaching forward");
    println!(
        "(shoulder {:.0}°, elbow {:.0}°: gripper at ({:.3}, {:.3}, {:.3}) m from the base origin)",
        extended()[SHOULDER_Q].to_degrees(),
        extended()[ELBOW_Q].to_degrees(),
        s.gripper[0],
        s.gripper[1],
        s.gripper[2]
    );
    println!("Frobenius norm of each block of M:");
    println!("{:>8} {:>10} {:>10} {:>10}", "", "base", "legs", "arm");
    for (i, (name, _)) in BLOCKS.iter().enumerate() {
        println!(
            "{:>8} {:>10.4} {:>10.4} {:>10.4}",
            name, s.block_norms[i][0], s.block_norms[i][1], s.block_norms[i][2]
        );
    }
    println!(
        "leg-leg and leg-arm entries: largest |M_ij| = {:.1e} (branches couple only through the base)",
        s.largest_branch_coupling
    );
    println!(
        "largest normalised coupling |M_ij|/sqrt(M_ii M_jj): base-legs {:.3}, base-arm {:.3}",
        s.largest_coupling.0, s.largest_coupling.1
    );
    println!(
        "‖M_ba‖_F / ‖M_bb‖_F over shoulder [{:.0}°, {:.0}°] x elbow [{:.0}°, {:.0}°] ({} x {} grid):",
        s.shoulder[0].to_degrees(),
        s.shoulder.last().unwrap().to_degrees(),
        s.elbow[0].to_degrees(),
        s.elbow.last().unwrap().to_degrees(),
        s.shoulder.len(),
        s.elbow.len()
    );
    println!(
        "{:>8} {:>8} {:>9} {:>24} {:>24}",
        "payload", "home", "reaching", "min (shoulder, elbow)", "max (shoulder, elbow)"
    );
    for m in &s.maps {
        println!(
            "{:>6} kg {:>8.4} {:>9.4} {:>8.4} ({:>4.0}°, {:>5.0}°) {:>8.4} ({:>4.0}°, {:>5.0}°)",
            m.payload,
            m.at_home,
            m.at_extended,
            m.min.0,
            m.min.1.to_degrees(),
            m.min.2.to_degrees(),
            m.max.0,
            m.max.1.to_degrees(),
            m.max.2.to_degrees()
        );
    }
    for p in plots(&s, &plot::plots_dir()).expect("the plots are written") {
        println!("plot: {}", p.display());
    }
}

// The example's numbers, asserted: `cargo test --all-features --example
// mass_matrix_structure` runs these.
#[cfg(test)]
#[path = "common/check.rs"]
mod check;

#[cfg(test)]
mod tests {
    use super::check;
    use super::check::{load, max_abs_diff, model_mass, TOL};
    use rbdgen::runtime::{crba, set_link_parameters, Data};

    /// The mass matrix with a payload: the generated `crba` against the
    /// runtime's with the same link parameters at every grid point, the
    /// coupling ratio recomputed from the runtime's `M`, the base block's
    /// linear part `m I` with the payload's mass, symmetry, and exact zeros
    /// between branches of the tree.
    #[test]
    fn mass_matrix_structure_matches_the_runtime() {
        let n = 7;
        let s = super::run(n);
        for p in super::plots(&s, &check::plot_dir("mass_matrix_structure"))
            .expect("the plots are written")
        {
            check::assert_drawn(&p, 400, 16);
        }
        let mut model = load("models/go2_z1.urdf");
        model.set_parameters(&["gripper_link"]).unwrap();
        assert!((super::go2_z1::TOTAL_MASS - model_mass(&model)).abs() < 1e-12);
        for map in &s.maps {
            let pi = super::payload_parameters(map.payload);
            let mut data = Data::new(&model);
            set_link_parameters(&model, &mut data, pi.as_flattened()).unwrap();
            let mass = super::go2_z1::TOTAL_MASS + map.payload;
            for (e_k, &e) in s.elbow.iter().enumerate() {
                for (s_k, &sh) in s.shoulder.iter().enumerate() {
                    let q = super::with_arm(sh, e);
                    let ours = super::go2_z1::crba(&q, &pi);
                    let theirs = crba(&model, &mut data, &q).unwrap().to_vec();
                    let scale = theirs.iter().fold(1.0f64, |w, v| w.max(v.abs()));
                    let err = max_abs_diff(ours.as_flattened(), &theirs) / scale;
                    assert!(
                        err < TOL,
                        "crba at ({sh}, {e}), {} kg: {err:e}",
                        map.payload
                    );
                    let m: [[f64; super::NV]; super::NV] =
                        std::array::from_fn(|r| std::array::from_fn(|c| theirs[r * super::NV + c]));
                    let ratio = super::coupling_ratio(&m);
                    assert!((ratio - map.ratio[e_k * n + s_k]).abs() < TOL);
                    for r in 0..super::NV {
                        for c in 0..super::NV {
                            assert!((ours[r][c] - ours[c][r]).abs() < TOL, "symmetry");
                            let branch = |i: usize| if i < 18 { (i - 6) / 3 } else { 4 };
                            if r >= 6 && c >= 6 && branch(r) != branch(c) {
                                assert_eq!(ours[r][c], 0.0, "branches ({r}, {c})");
                            }
                        }
                    }
                    for r in 0..3 {
                        for c in 0..3 {
                            let want = if r == c { mass } else { 0.0 };
                            assert!((ours[r][c] - want).abs() < TOL, "M_lin = m I");
                        }
                    }
                }
            }
            let home = super::coupling_ratio(&super::go2_z1::crba(&super::standing(), &pi));
            assert!((home - map.at_home).abs() < TOL);
            assert!(map.min.0 <= map.at_home && map.at_extended <= map.max.0);
        }
        // The payload increases the coupling everywhere on the grid.
        for k in 0..n * n {
            assert!(s.maps[0].ratio[k] < s.maps[1].ratio[k]);
            assert!(s.maps[1].ratio[k] < s.maps[2].ratio[k]);
        }
        assert_eq!(s.largest_branch_coupling, 0.0);
        assert!(s.block_norms[1][2] == 0.0 && s.block_norms[0][2] > 0.0);
    }
}
