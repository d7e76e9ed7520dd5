//! The numbers of the structure examples (`mass_matrix_structure`,
//! `zmp_shift`, `centroidal_split`), computed by generated code, against the
//! generic runtime and against identities, to 1e-10; each test also writes
//! the example's pictures and reads them back.

// Each example includes the plot helpers as a module of its own.
#![allow(clippy::duplicate_mod)]

#[path = "../examples/mass_matrix_structure.rs"]
mod mass_matrix_structure;

#[path = "../examples/zmp_shift.rs"]
mod zmp_shift;

#[path = "../examples/centroidal_split.rs"]
mod centroidal_split;

#[path = "common/png.rs"]
mod png;

use rbdgen::runtime::{
    ccrba, center_of_mass, centroidal_momentum_rate, contact_dynamics, crba, forward_kinematics,
    frame_placement, generalized_gravity, set_link_parameters, ContactKind, Data, FrameKind, Model,
};

const TOL: f64 = 1e-10;

fn load(urdf: &str) -> Model {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(urdf);
    Model::from_urdf_file(path, true).unwrap()
}

fn max_abs_diff(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .fold(0.0f64, |w, (x, y)| w.max((x - y).abs()))
}

fn model_mass(model: &Model) -> f64 {
    model.joints.iter().map(|j| j.inertia.mass).sum()
}

/// The mass matrix with a payload: the generated `crba` against the
/// runtime's with the same link parameters at every grid point, the
/// coupling ratio recomputed from the runtime's `M`, the base block's
/// linear part `m I` with the payload's mass, symmetry, and exact zeros
/// between branches of the tree.
#[test]
fn mass_matrix_structure_matches_the_runtime() {
    use mass_matrix_structure as x;
    let n = 7;
    let s = x::run(n);
    for p in x::plots(&s, &png::dir("mass_matrix_structure")).expect("the plots are written") {
        png::assert_drawn(&p, 400, 16);
    }
    let mut model = load("models/go2_z1.urdf");
    model.set_parameters(&["gripper_link"]).unwrap();
    assert!((x::go2_z1::TOTAL_MASS - model_mass(&model)).abs() < 1e-12);
    for map in &s.maps {
        let pi = x::payload_parameters(map.payload);
        let mut data = Data::new(&model);
        set_link_parameters(&model, &mut data, pi.as_flattened()).unwrap();
        let mass = x::go2_z1::TOTAL_MASS + map.payload;
        for (e_k, &e) in s.elbow.iter().enumerate() {
            for (s_k, &sh) in s.shoulder.iter().enumerate() {
                let q = x::with_arm(sh, e);
                let ours = x::go2_z1::crba(&q, &pi);
                let theirs = crba(&model, &mut data, &q).unwrap().to_vec();
                let scale = theirs.iter().fold(1.0f64, |w, v| w.max(v.abs()));
                let err = max_abs_diff(ours.as_flattened(), &theirs) / scale;
                assert!(
                    err < TOL,
                    "crba at ({sh}, {e}), {} kg: {err:e}",
                    map.payload
                );
                let m: [[f64; x::NV]; x::NV] =
                    std::array::from_fn(|r| std::array::from_fn(|c| theirs[r * x::NV + c]));
                let ratio = x::coupling_ratio(&m);
                assert!((ratio - map.ratio[e_k * n + s_k]).abs() < TOL);
                for r in 0..x::NV {
                    for c in 0..x::NV {
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
        let home = x::coupling_ratio(&x::go2_z1::crba(&x::standing(), &pi));
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

/// The ZMP table: `τ_arm,y` and `Δx_ZMP` by the same formula on the runtime
/// (generalized gravity with and without the arm's link parameters), the
/// support from the runtime's foot placements; `τ_arm,y / (m g)` against the
/// centre of mass of the runtime with and without the arm; the quasi-static
/// ZMP against the centre of mass; the dynamic ZMP from the runtime's contact
/// forces, summed here, and from the runtime's centroidal momentum rate.
#[test]
fn zmp_table_matches_the_runtime() {
    use zmp_shift as x;
    let s = x::run(13);
    let p = x::plot(&s, &png::dir("zmp_shift")).expect("the plot is written");
    png::assert_drawn(&p, 400, 16);
    let mut model = load("models/go2_z1.urdf");
    model.set_parameters(&x::go2_z1::PARAMETER_LINKS).unwrap();
    model
        .set_contacts(&[
            ("FL_foot", ContactKind::Point),
            ("FR_foot", ContactKind::Point),
            ("RL_foot", ContactKind::Point),
            ("RR_foot", ContactKind::Point),
        ])
        .unwrap();
    let g = 9.81;
    assert_eq!(x::gravity(), g);
    let total = model_mass(&model);
    assert!((x::go2_z1::TOTAL_MASS - total).abs() < 1e-12);
    // Support polygon from the runtime.
    let mut data = Data::new(&model);
    let q0 = x::standing(0.0, 0.0);
    forward_kinematics(&model, &mut data, &q0).unwrap();
    let foot_x = |name: &str| {
        let id = model.frame_id(name, FrameKind::Body).unwrap();
        frame_placement(&model, &data, id).unwrap().translation.0[0]
    };
    let front = foot_x("FL_foot").min(foot_x("FR_foot"));
    let rear = foot_x("RL_foot").max(foot_x("RR_foot"));
    assert!((s.support.0 - front).abs() < TOL && (s.support.1 - rear).abs() < TOL);
    let half = 0.5 * (front - rear);
    let no_arm = vec![0.0; 10 * x::NPARAMETERS];
    assert_eq!(s.rows.len(), 9);
    for r in &s.rows {
        let pi = x::arm_parameters(r.payload);
        let q = x::standing(r.arm.0, r.arm.1);
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
        assert_eq!(r.risk, x::risk(dx / half));
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
        let v = [0.0; x::NV];
        let mut a = [0.0; x::NV];
        a[x::SHOULDER_V] = x::SHOULDER_ACCELERATION;
        let (zmp_forces, zmp_centroidal) = runtime_zmp(&model, &pi, &q, &v, &a);
        assert!(
            (r.zmp_dynamic - zmp_forces).abs() < TOL,
            "{tag}: dynamic ZMP"
        );
        assert!((r.zmp_dynamic_centroidal - zmp_centroidal).abs() < TOL);
        assert!((zmp_forces - zmp_centroidal).abs() < TOL);
    }
    // The sweep, likewise, at every sample (v and a on the shoulder).
    for (payload, samples) in x::PAYLOADS.iter().zip(&s.sweeps) {
        assert_eq!(samples.last().unwrap().t, x::SWEEP_TIME);
        let pi = x::arm_parameters(*payload);
        for sample in samples {
            let q = x::standing(sample.shoulder.0, x::go2_z1::Q_LOWER[x::ELBOW_Q]);
            let mut v = [0.0; x::NV];
            let mut a = [0.0; x::NV];
            v[x::SHOULDER_V] = sample.shoulder.1;
            a[x::SHOULDER_V] = sample.shoulder.2;
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
    pi: &zmp_shift::Parameters,
    q: &[f64; zmp_shift::NQ],
    v: &[f64; zmp_shift::NV],
    a: &[f64; zmp_shift::NV],
) -> (f64, f64) {
    use zmp_shift as x;
    let mut data = Data::new(model);
    set_link_parameters(model, &mut data, pi.as_flattened()).unwrap();
    let tau = controller_torques(model, &mut data, q, v, a);
    let (_, lambda) = contact_dynamics(model, &mut data, q, v, &tau, &model.contacts, 0.0).unwrap();
    forward_kinematics(model, &mut data, q).unwrap();
    let z0 = x::ground();
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
    let m = model_mass(model) - x::go2_z1::LINK_PARAMETERS.iter().map(|p| p[0]).sum::<f64>()
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

/// The centroidal split: the generated `ccrba` against the runtime's, `A_G`
/// against the force transform of the runtime's `M[0..6, :]` to the runtime's
/// centre of mass, the block norms from the runtime's `A_G`, `h_G = A_G v` of
/// the swings against the runtime's `h_G`, and the blocks named by joint.
#[test]
fn centroidal_split_matches_the_runtime() {
    use centroidal_split as x;
    let robots = x::run(5);
    let p = x::plot(&robots, &png::dir("centroidal_split")).expect("the plot is written");
    png::assert_drawn(&p, 400, 16);
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
        (go2, "models/go2_z1.urdf", "base", x::go2_z1_pose().to_vec()),
        (g1, "models/g1_29dof.urdf", "pelvis", x::g1_pose().to_vec()),
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
