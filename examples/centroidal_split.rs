//! Which joints carry a robot's centroidal momentum: the centroidal momentum
//! matrix `A_G` (`ccrba`, `h_G = A_G v`, `[linear; angular]` about the centre
//! of mass, world axes) split into column blocks, on generated code for
//! Go2 + Z1 (base, legs, arm) and the Unitree G1 humanoid (base, legs,
//! waist, left arm, right arm; the blocks come from `JOINT_NAMES`).
//!
//! For each block it gives the Frobenius norms of the linear and angular
//! rows, then `h_G = A_G v` for arm swings (velocity on arm joints only), and
//! checks the identity that ties `A_G` to the mass matrix of a floating base:
//! the first six rows of `M` (`crba`) map `v` to the robot's momentum in the
//! base frame (linear; angular about the base origin, base axes), because
//! the free-flyer's motion subspace is the identity in that frame. Moving a
//! force-like quantity from the base frame to the centre of mass `c` with
//! world axes is the force transform
//!
//! `X_G* = [[R, 0], [[p - c]× R, R]]`
//!
//! (`R`, `p` the base's rotation and origin, `frame_placement`; `c` from
//! `center_of_mass`): the linear part is rotated, the moment is rotated and
//! moved from `p` to `c`, `n_c = n_p + (p - c) × f`. So
//!
//! `A_G = X_G* M[0..6, :]`,
//!
//! checked here to 1e-10 at the pose shown and at random configurations.
//!
//! Run with `cargo run --release --example centroidal_split`.
//!
//! # Walkthrough
//!
//! The example splits `A_G` from the generated `ccrba` (`h_G = A_G v`, linear
//! momentum and angular momentum about the centre of mass, world axes) into
//! column blocks, which it finds from `JOINT_NAMES`: base, legs and arm for
//! Go2+Z1; base, legs, waist, left arm and right arm for G1
//! (`models/g1_29dof.urdf`, floating). Go2+Z1 stands with the arm raised 45°.
//! G1 stands straight with its elbows bent 90°. For each block the example
//! prints the Frobenius norms of the linear and angular rows, and it computes
//! `h_G = A_G v` for arm swings in which only arm joints move.
//!
//! It also checks an identity for a floating base. The first six rows of `M`
//! (`crba`) give the momentum in the base frame, because the free-flyer's motion
//! subspace is the identity there. Moving that momentum to the centre of mass
//! with world axes is the force transform
//!
//! `A_G = X_G* M[0..6, :]`, with `X_G* = [[R, 0], [[p - c]× R, R]]`,
//!
//! where `R` and `p` are the base's rotation and origin (`frame_placement`) and
//! `c` is the centre of mass (`center_of_mass`). The transform rotates the
//! linear part, then rotates the moment and moves it from `p` to `c`:
//! `n_c = n_p + (p - c) × f`.
//!
//! ```text
//! Go2+Z1 (nv = 24; total mass 21.306 kg, read off A_G's base block):
//!   block             v    ‖A_lin‖_F    ‖A_ang‖_F
//!   base           0..6      37.2155       4.2267
//!   legs          6..18       0.3144       0.1247
//!   arm          18..24       2.6012       2.1168
//!   Go2+Z1 shoulder 1 rad/s: h_G linear (1.3416, 0.0000, -1.4438), angular (-0.0007, 1.5827, -0.0005) (A_G v = ccrba's h_G to 0.0e0)
//!   A_G = X_G* M[0..6, :] (force transform of crba's base rows to the centre of mass): largest error 1.7e-14 over 21 configurations
//! G1 (nv = 35; total mass 33.341 kg, read off A_G's base block):
//!   block             v    ‖A_lin‖_F    ‖A_ang‖_F
//!   base           0..6      57.9393       4.9015
//!   legs          6..18       4.0054       1.8554
//!   waist        18..21       2.7219       1.2988
//!   left arm     21..28       0.9228       0.1365
//!   right arm    28..35       0.9228       0.1366
//!   G1 shoulders ±1 rad/s (counter swing): h_G linear (-0.0000, 0.0090, -0.0000), angular (-0.0056, -0.0000, 0.1934) (A_G v = ccrba's h_G to 0.0e0)
//!   G1 shoulders +1 rad/s (together): h_G linear (-1.3022, 0.0000, -0.0304), angular (0.0000, -0.1396, -0.0001) (A_G v = ccrba's h_G to 0.0e0)
//!   A_G = X_G* M[0..6, :] (force transform of crba's base rows to the centre of mass): largest error 2.7e-14 over 21 configurations
//! ```
//!
//! On Go2+Z1, at unit velocities the arm's block carries half as much angular
//! momentum as the whole base block. When G1 swings its arms in opposite
//! directions, the linear momenta cancel and a yaw angular momentum
//! (0.19 kg·m²/s) is left. That is the momentum a walking gait's arm swing has to
//! balance.
//!
//! ![A_G block norms for Go2+Z1 and G1, and h_G of arm swings](../docs/img/centroidal_split.png)
//!
//! The test compares the generated `ccrba` with the runtime's, and checks
//! `A_G = X_G* M[0..6, :]` on the runtime's `crba`, `center_of_mass` and
//! `frame_placement`. It also recomputes the block norms from the runtime's
//! `A_G`, checks the total mass read off the base block, compares the swings'
//! `h_G` with the runtime's `ccrba` `h_G`, and checks that the block names
//! follow the joint order (G1: waist `18..21`, right arm `28..35`).

use std::ops::Range;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[path = "common/plot.rs"]
mod plot;

rbdgen::robot_dynamics!(
    pub mod go2_z1,
    "models/go2_z1.urdf",
    floating_base,
    frames = [base],
    functions = [ccrba, crba, center_of_mass, frame_placement]
);

rbdgen::robot_dynamics!(
    pub mod g1,
    "models/g1_29dof.urdf",
    floating_base,
    frames = [pelvis],
    functions = [ccrba, crba, center_of_mass, frame_placement]
);

/// The group of a joint, from its name.
pub fn group(name: &str) -> &'static str {
    let has = |s: &[&str]| s.iter().any(|k| name.contains(k));
    if has(&["hip", "thigh", "calf", "knee", "ankle"]) {
        "legs"
    } else if has(&["waist"]) {
        "waist"
    } else if has(&["shoulder", "elbow", "wrist"]) {
        if name.starts_with("left") {
            "left arm"
        } else {
            "right arm"
        }
    } else if name.starts_with("joint") {
        "arm"
    } else {
        "other"
    }
}

/// The column blocks of `v`: the free-flyer's six columns (`JOINT_NAMES[0]`),
/// then the runs of joints of one group (every other joint has one dof).
pub fn blocks(joint_names: &[&str], nv: usize) -> Vec<(&'static str, Range<usize>)> {
    assert_eq!(nv, 6 + joint_names.len() - 1, "one dof per joint");
    let mut out: Vec<(&'static str, Range<usize>)> = vec![("base", 0..6)];
    for (k, name) in joint_names.iter().enumerate().skip(1) {
        let (g, col) = (group(name), 6 + k - 1);
        match out.last_mut() {
            Some((last, r)) if *last == g => r.end = col + 1,
            _ => out.push((g, col..col + 1)),
        }
    }
    out
}

/// One robot's results.
#[derive(Debug)]
pub struct Robot {
    /// Robot name.
    pub name: &'static str,
    /// `nv`.
    pub nv: usize,
    /// Column blocks of `A_G`.
    pub blocks: Vec<(&'static str, Range<usize>)>,
    /// `A_G` at the pose shown, `6 x nv` row-major.
    pub ag: Vec<f64>,
    /// Per block, the Frobenius norms of its linear and angular rows.
    pub norms: Vec<(f64, f64)>,
    /// Arm swings: name, `v`, `h_G = A_G v`, and `ccrba`'s own `h_G`.
    pub swings: Vec<(String, Vec<f64>, [f64; 6], [f64; 6])>,
    /// Largest `|A_G - X_G* M[0..6, :]|` over the pose shown and random ones.
    pub identity_error: f64,
    /// Configurations checked.
    pub configurations: usize,
    /// Total mass from `A_G`'s base block (`‖A_G[0..3, 0..3]‖_F / √3`, kg).
    pub mass_from_ag: f64,
}

/// The functions of one generated module the split needs.
pub struct Functions<const NQ: usize, const NV: usize> {
    /// `ccrba`.
    pub ccrba: fn(&[f64; NQ], &[f64; NV]) -> ([[f64; NV]; 6], [f64; 6]),
    /// `crba`.
    pub crba: fn(&[f64; NQ]) -> [[f64; NV]; NV],
    /// `center_of_mass`.
    pub com: fn(&[f64; NQ]) -> [f64; 3],
    /// The base's `frame_placement`.
    pub base: fn(&[f64; NQ]) -> [[f64; 4]; 4],
}

/// `X_G* M[0..6, :]`, `6 x nv` row-major.
pub fn force_transform_of_base_rows<const NV: usize>(
    m: &[[f64; NV]; NV],
    placement: &[[f64; 4]; 4],
    com: &[f64; 3],
) -> Vec<f64> {
    let r = |i: usize, j: usize| placement[i][j];
    let d = [
        placement[0][3] - com[0],
        placement[1][3] - com[1],
        placement[2][3] - com[2],
    ];
    let mut out = vec![0.0; 6 * NV];
    for col in 0..NV {
        let f_b = [m[0][col], m[1][col], m[2][col]];
        let n_b = [m[3][col], m[4][col], m[5][col]];
        let rot = |x: [f64; 3]| -> [f64; 3] {
            std::array::from_fn(|i| r(i, 0) * x[0] + r(i, 1) * x[1] + r(i, 2) * x[2])
        };
        let (f, n) = (rot(f_b), rot(n_b));
        let moment = [
            n[0] + d[1] * f[2] - d[2] * f[1],
            n[1] + d[2] * f[0] - d[0] * f[2],
            n[2] + d[0] * f[1] - d[1] * f[0],
        ];
        for i in 0..3 {
            out[i * NV + col] = f[i];
            out[(3 + i) * NV + col] = moment[i];
        }
    }
    out
}

/// A random configuration: base within 1 m of the origin with a random
/// orientation, joints in (-1.5, 1.5) rad.
pub fn random_q<const NQ: usize>(rng: &mut ChaCha8Rng) -> [f64; NQ] {
    let mut q: [f64; NQ] = std::array::from_fn(|_| rng.gen_range(-1.5..1.5));
    for x in &mut q[..3] {
        *x = rng.gen_range(-1.0..1.0);
    }
    let quat: [f64; 4] = std::array::from_fn(|_| rng.gen_range(-1.0..1.0));
    let norm = quat.iter().map(|x| x * x).sum::<f64>().sqrt();
    for k in 0..4 {
        q[3 + k] = quat[k] / norm;
    }
    q
}

/// The split of one robot at `q`, the swings `(name, [(joint, rad/s)])`, and
/// the identity at `q` and `random` random configurations.
pub fn split<const NQ: usize, const NV: usize>(
    name: &'static str,
    joint_names: &[&str],
    f: &Functions<NQ, NV>,
    q: &[f64; NQ],
    swings: &[(&str, &[(&str, f64)])],
    random: usize,
) -> Robot {
    let blocks = blocks(joint_names, NV);
    let (ag, _) = (f.ccrba)(q, &[0.0; NV]);
    let norm = |rows: Range<usize>, cols: &Range<usize>| {
        rows.flat_map(|r| cols.clone().map(move |c| ag[r][c] * ag[r][c]))
            .sum::<f64>()
            .sqrt()
    };
    let norms = blocks
        .iter()
        .map(|(_, cols)| (norm(0..3, cols), norm(3..6, cols)))
        .collect();
    let swings = swings
        .iter()
        .map(|(swing, joints)| {
            let mut v = [0.0; NV];
            for (joint, speed) in *joints {
                let k = joint_names
                    .iter()
                    .position(|n| n == joint)
                    .unwrap_or_else(|| panic!("{name} has no joint {joint}"));
                v[6 + k - 1] = *speed;
            }
            let h: [f64; 6] =
                std::array::from_fn(|r| (0..NV).map(|c| ag[r][c] * v[c]).sum::<f64>());
            let (_, hg) = (f.ccrba)(q, &v);
            (swing.to_string(), v.to_vec(), h, hg)
        })
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(0xce27);
    let mut identity_error = 0.0f64;
    let configurations = 1 + random;
    for k in 0..configurations {
        let qk = if k == 0 { *q } else { random_q::<NQ>(&mut rng) };
        let (agk, _) = (f.ccrba)(&qk, &[0.0; NV]);
        let x = force_transform_of_base_rows(&(f.crba)(&qk), &(f.base)(&qk), &(f.com)(&qk));
        for (a, b) in agk.as_flattened().iter().zip(&x) {
            identity_error = identity_error.max((a - b).abs());
        }
    }
    let mass_from_ag = norm(0..3, &(0..3)) / 3f64.sqrt();
    Robot {
        name,
        nv: NV,
        blocks,
        ag: ag.as_flattened().to_vec(),
        norms,
        swings,
        identity_error,
        configurations,
        mass_from_ag,
    }
}

/// Go2 + Z1 standing (base 0.32 m up, thighs 0.8 rad, calves -1.5 rad), the
/// arm raised 45° (shoulder 135°, elbow -165°).
pub fn go2_z1_pose() -> [f64; go2_z1::NQ] {
    let mut q = [0.0; go2_z1::NQ];
    q[2] = 0.32;
    q[6] = 1.0;
    for leg in 0..4 {
        q[7 + 3 * leg + 1] = 0.8;
        q[7 + 3 * leg + 2] = -1.5;
    }
    q[20] = 135f64.to_radians();
    q[21] = go2_z1::Q_LOWER[21];
    q
}

/// G1 standing straight (pelvis 0.79 m up), the elbows bent 90° and the
/// other joints at zero.
pub fn g1_pose() -> [f64; g1::NQ] {
    let mut q = g1::NEUTRAL;
    q[2] = 0.79;
    for (k, name) in g1::JOINT_NAMES.iter().enumerate().skip(1) {
        if name.contains("elbow") {
            q[7 + k - 1] = 90f64.to_radians();
        }
    }
    q
}

/// Both robots.
pub fn run(random: usize) -> Vec<Robot> {
    let go2 = Functions {
        ccrba: go2_z1::ccrba,
        crba: go2_z1::crba,
        com: go2_z1::center_of_mass,
        base: |q| go2_z1::frame_placement(q, go2_z1::Frame::Base),
    };
    let humanoid = Functions {
        ccrba: g1::ccrba,
        crba: g1::crba,
        com: g1::center_of_mass,
        base: |q| g1::frame_placement(q, g1::Frame::Pelvis),
    };
    vec![
        split(
            "Go2+Z1",
            &go2_z1::JOINT_NAMES,
            &go2,
            &go2_z1_pose(),
            &[("Go2+Z1 shoulder 1 rad/s", &[("joint2", 1.0)])],
            random,
        ),
        split(
            "G1",
            &g1::JOINT_NAMES,
            &humanoid,
            &g1_pose(),
            &[
                (
                    "G1 shoulders ±1 rad/s (counter swing)",
                    &[
                        ("left_shoulder_pitch_joint", 1.0),
                        ("right_shoulder_pitch_joint", -1.0),
                    ],
                ),
                (
                    "G1 shoulders +1 rad/s (together)",
                    &[
                        ("left_shoulder_pitch_joint", 1.0),
                        ("right_shoulder_pitch_joint", 1.0),
                    ],
                ),
            ],
            random,
        ),
    ]
}

#[allow(dead_code)]
fn main() {
    let robots = run(20);
    println!("Centroidal momentum matrix A_G (generated ccrba) by column blocks; h_G = A_G v = [linear (kg·m/s); angular about the centre of mass (kg·m²/s)], world axes");
    for r in &robots {
        println!(
            "{} (nv = {}; total mass {:.3} kg, read off A_G's base block):",
            r.name, r.nv, r.mass_from_ag
        );
        println!(
            "  {:<10} {:>8} {:>12} {:>12}",
            "block", "v", "‖A_lin‖_F", "‖A_ang‖_F"
        );
        for ((name, cols), (lin, ang)) in r.blocks.iter().zip(&r.norms) {
            println!(
                "  {:<10} {:>8} {:>12.4} {:>12.4}",
                name,
                format!("{}..{}", cols.start, cols.end),
                lin,
                ang
            );
        }
        for (name, _, h, hg) in &r.swings {
            let agree = h
                .iter()
                .zip(hg)
                .fold(0.0f64, |w, (a, b)| w.max((a - b).abs()));
            println!(
                "  {name}: h_G linear ({:.4}, {:.4}, {:.4}), angular ({:.4}, {:.4}, {:.4}) (A_G v = ccrba's h_G to {agree:.1e})",
                h[0], h[1], h[2], h[3], h[4], h[5]
            );
        }
        println!(
            "  A_G = X_G* M[0..6, :] (force transform of crba's base rows to the centre of mass): largest error {:.1e} over {} configurations",
            r.identity_error, r.configurations
        );
    }
    let path = plot(&robots, &plot::plots_dir()).expect("the plot is written");
    println!("plot: {}", path.display());
}

/// The block norms of `A_G` per robot and the arm swings' `h_G`, as bar
/// charts; written to `dir/centroidal_split.png`.
pub fn plot(
    robots: &[Robot],
    dir: &std::path::Path,
) -> Result<std::path::PathBuf, Box<dyn std::error::Error>> {
    let panels: Vec<(Vec<&str>, Vec<(&str, Vec<f64>)>)> = robots
        .iter()
        .map(|r| {
            (
                r.blocks.iter().map(|b| b.0).collect(),
                vec![
                    (
                        "linear rows (kg per unit of v)",
                        r.norms.iter().map(|n| n.0).collect(),
                    ),
                    (
                        "angular rows (kg·m per unit of v)",
                        r.norms.iter().map(|n| n.1).collect(),
                    ),
                ],
            )
        })
        .collect();
    let titles: Vec<String> = robots
        .iter()
        .map(|r| format!("{}: ‖A_G block‖_F", r.name))
        .collect();
    let mut charts: Vec<plot::Bars> = panels
        .iter()
        .zip(&titles)
        .map(|((categories, series), title)| plot::Bars {
            title,
            categories,
            series,
            y_label: "Frobenius norm (log scale)",
            log: true,
            legend: plotters::prelude::SeriesLabelPosition::UpperRight,
        })
        .collect();
    let components = ["p_x", "p_y", "p_z", "L_x", "L_y", "L_z"];
    let swings: Vec<(&str, Vec<f64>)> = robots
        .iter()
        .flat_map(|r| r.swings.iter())
        .map(|(name, _, h, _)| (name.as_str(), h.to_vec()))
        .collect();
    charts.push(plot::Bars {
        title: "h_G of arm swings (arm joints only)",
        categories: &components,
        series: &swings,
        y_label: "p: kg·m/s,  L: kg·m²/s",
        log: false,
        legend: plotters::prelude::SeriesLabelPosition::LowerRight,
    });
    let path = plot::out_path(dir, "centroidal_split.png");
    plot::bars(
        &path,
        "Centroidal momentum split: which joints carry the momentum",
        &charts,
        (560, 480),
    )?;
    Ok(path)
}

// The example's numbers, asserted: `cargo test --all-features --example
// centroidal_split` runs these.
#[cfg(test)]
#[path = "common/check.rs"]
mod check;

#[cfg(test)]
mod tests {
    use super::check;
    use super::check::{load, max_abs_diff, model_mass, TOL};
    use rbdgen::runtime::{
        ccrba, center_of_mass, crba, forward_kinematics, frame_placement, Data, FrameKind,
    };

    /// The centroidal split: the generated `ccrba` against the runtime's, `A_G`
    /// against the force transform of the runtime's `M[0..6, :]` to the runtime's
    /// centre of mass, the block norms from the runtime's `A_G`, `h_G = A_G v` of
    /// the swings against the runtime's `h_G`, and the blocks named by joint.
    #[test]
    fn centroidal_split_matches_the_runtime() {
        let robots = super::run(5);
        let p = super::plot(&robots, &check::plot_dir("centroidal_split"))
            .expect("the plot is written");
        check::assert_drawn(&p, 400, 16);
        assert_eq!(robots.len(), 2);
        let go2 = &robots[0];
        let names: Vec<&str> = go2.blocks.iter().map(|b| b.0).collect();
        assert_eq!(names, ["base", "legs", "arm"]);
        assert_eq!(go2.blocks[1].1, 6..18);
        assert_eq!(go2.blocks[2].1, 18..24);
        let g1 = &robots[1];
        let names: Vec<&str> = g1.blocks.iter().map(|b| b.0).collect();
        assert_eq!(names, ["base", "legs", "waist", "left arm", "right arm"]);
        assert_eq!(g1.blocks[2].1, 18..21);
        assert_eq!(g1.blocks[4].1, 28..35);
        for (robot, urdf, base, q) in [
            (
                go2,
                "models/go2_z1.urdf",
                "base",
                super::go2_z1_pose().to_vec(),
            ),
            (
                g1,
                "models/g1_29dof.urdf",
                "pelvis",
                super::g1_pose().to_vec(),
            ),
        ] {
            let model = load(urdf);
            let mut data = Data::new(&model);
            let nv = model.nv;
            assert_eq!(robot.nv, nv);
            assert!(
                robot.identity_error < TOL,
                "{}: {}",
                robot.name,
                robot.identity_error
            );
            let (ag, _) = ccrba(&model, &mut data, &q, &vec![0.0; nv]).unwrap();
            let ag = ag.to_vec();
            let scale = ag.iter().fold(1.0f64, |w, v| w.max(v.abs()));
            assert!(
                max_abs_diff(&robot.ag, &ag) / scale < TOL,
                "{}: ccrba",
                robot.name
            );
            // A_G = X_G* M[0..6, :] on the runtime's M, placement and com.
            let m = crba(&model, &mut data, &q).unwrap().to_vec();
            let c = center_of_mass(&model, &mut data, &q).unwrap().0;
            forward_kinematics(&model, &mut data, &q).unwrap();
            let id = model.frame_id(base, FrameKind::Body).unwrap();
            let placement = frame_placement(&model, &data, id).unwrap();
            let (r, p) = (placement.rotation.0, placement.translation.0);
            for col in 0..nv {
                let rot = |o: usize| -> [f64; 3] {
                    std::array::from_fn(|i| (0..3).map(|k| r[i][k] * m[(o + k) * nv + col]).sum())
                };
                let (f, n) = (rot(0), rot(3));
                let d = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
                let moment = [
                    n[0] + d[1] * f[2] - d[2] * f[1],
                    n[1] + d[2] * f[0] - d[0] * f[2],
                    n[2] + d[0] * f[1] - d[1] * f[0],
                ];
                for i in 0..3 {
                    assert!(
                        (ag[i * nv + col] - f[i]).abs() < TOL,
                        "{} linear",
                        robot.name
                    );
                    assert!((ag[(3 + i) * nv + col] - moment[i]).abs() < TOL, "angular");
                }
            }
            for ((_, cols), (lin, ang)) in robot.blocks.iter().zip(&robot.norms) {
                let norm = |rows: std::ops::Range<usize>| {
                    rows.flat_map(|i| cols.clone().map(move |j| (i, j)))
                        .map(|(i, j)| ag[i * nv + j].powi(2))
                        .sum::<f64>()
                        .sqrt()
                };
                assert!((lin - norm(0..3)).abs() < TOL && (ang - norm(3..6)).abs() < TOL);
            }
            assert!((robot.mass_from_ag - model_mass(&model)).abs() < TOL);
            for (name, v, h, hg) in &robot.swings {
                let (_, theirs) = ccrba(&model, &mut data, &q, v).unwrap();
                let theirs = theirs.to_array();
                assert!(max_abs_diff(h, &theirs) < TOL, "{name}");
                assert!(max_abs_diff(hg, &theirs) < TOL, "{name}");
                // Only arm joints move.
                for (k, &x) in v.iter().enumerate() {
                    let block = robot.blocks.iter().find(|b| b.1.contains(&k)).unwrap().0;
                    assert!(x == 0.0 || block.contains("arm"), "{name}: {block}");
                }
            }
        }
    }
}
