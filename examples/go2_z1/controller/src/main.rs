//! The main job: dynamics of a Unitree Go2 with a Z1 arm, generated at compile
//! time from `models/go2_z1.urdf`, evaluated at a standing and at a random
//! configuration, and checked against the generic runtime.
//!
//! Run with `cargo run --release -p go2-z1`. The generated module lives in
//! the crate `go2-z1-dynamics` (`../dynamics`), which this one depends on:
//! editing this file recompiles this crate only.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rbdgen::runtime::{
    aba, crba, forward_kinematics, frame_placement, rnea, Data, FrameKind, Model,
};

use go2_z1_dynamics::go2_z1::{self, NQ, NV};

/// The blocks of `v`: free-flyer base, the four legs, the arm.
const BLOCKS: [(&str, std::ops::Range<usize>); 3] =
    [("base", 0..6), ("legs", 6..18), ("arm", 18..24)];

fn main() {
    let model = Model::from_urdf_file(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../../models/go2_z1.urdf"),
        true,
    )
    .expect("models/go2_z1.urdf is a valid URDF");
    let mut data = Data::new(&model);
    println!(
        "Go2 + Z1: nq = {NQ}, nv = {NV}, {} link frames",
        go2_z1::Frame::ALL.len()
    );

    // Standing: base 0.32 m up, legs folded (thigh 0.8 rad, calf -1.5 rad), arm at zero.
    let mut standing = [0.0; NQ];
    standing[2] = 0.32;
    standing[6] = 1.0;
    for leg in 0..4 {
        standing[7 + 3 * leg + 1] = 0.8;
        standing[7 + 3 * leg + 2] = -1.5;
    }
    report("standing, v = 0", &model, &mut data, &standing, &[0.0; NV]);

    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let mut q = [0.0; NQ];
    q[..3]
        .iter_mut()
        .for_each(|x| *x = rng.gen_range(-1.0..1.0));
    let quat: [f64; 4] = std::array::from_fn(|_| rng.gen_range(-1.0..1.0));
    let norm = quat.iter().map(|x| x * x).sum::<f64>().sqrt();
    q[3..7]
        .iter_mut()
        .zip(quat)
        .for_each(|(x, c)| *x = c / norm);
    q[7..]
        .iter_mut()
        .for_each(|x| *x = rng.gen_range(-1.5..1.5));
    let v: [f64; NV] = std::array::from_fn(|_| rng.gen_range(-1.0..1.0));
    report("random q and v", &model, &mut data, &q, &v);
}

fn report(title: &str, model: &Model, data: &mut Data<f64>, q: &[f64; NQ], v: &[f64; NV]) {
    println!("\n== {title}");
    let m = go2_z1::crba(q);
    println!("M block Frobenius norms (rows x cols):");
    print!("{:>8}", "");
    for (name, _) in &BLOCKS {
        print!("{name:>12}");
    }
    println!();
    for (row, rows) in &BLOCKS {
        print!("{row:>8}");
        for (_, cols) in &BLOCKS {
            print!("{:>12.5}", block_norm(&m, rows, cols));
        }
        println!();
    }
    let (base, legs, arm) = (&BLOCKS[0].1, &BLOCKS[1].1, &BLOCKS[2].1);
    println!(
        "coupling ‖M_ba‖/‖M_bb‖ = {:.5}   ‖M_la‖/‖M_ll‖ = {:.5}",
        block_norm(&m, base, arm) / block_norm(&m, base, base),
        block_norm(&m, legs, arm) / block_norm(&m, legs, legs)
    );

    let h = go2_z1::rnea(q, v, &[0.0; NV]);
    println!("h = rnea(q, v, 0):");
    for (name, range) in &BLOCKS {
        println!("  {name:>5}: {}", fmt(&h[range.clone()]));
    }
    // Joint torques that hold the legs and arm, no wrench on the base: the robot falls.
    let mut tau = h;
    tau[..6].fill(0.0);
    let a = go2_z1::aba(q, v, &tau);
    println!(
        "aba(q, v, tau = h with a free base): base acceleration {}",
        fmt(&a[..6])
    );
    let gripper = go2_z1::frame_placement(q, go2_z1::Frame::GripperLink);
    println!(
        "gripper_link position in world: {}",
        fmt(&[gripper[0][3], gripper[1][3], gripper[2][3]])
    );

    // The same quantities from the generic runtime.
    let zero = [0.0; NV];
    let dev_rnea = max_dev(
        &h,
        rnea(model, data, q, v, &zero).expect("sized for the model"),
    );
    let dev_crba = max_dev(
        m.as_flattened(),
        crba(model, data, q).expect("sized for the model"),
    );
    let dev_aba = max_dev(
        &a,
        aba(model, data, q, v, &tau).expect("sized for the model"),
    );
    forward_kinematics(model, data, q).expect("sized for the model");
    let dev_frames = go2_z1::Frame::ALL
        .iter()
        .map(|f| {
            let id = model
                .frame_id(f.name(), FrameKind::Body)
                .expect("frame exists");
            let ours = go2_z1::frame_placement(q, *f);
            max_dev(
                ours.as_flattened(),
                frame_placement(model, data, id)
                    .expect("sized for the model")
                    .to_homogeneous()
                    .as_flattened(),
            )
        })
        .fold(0.0, max_nan);
    println!(
        "max |generated - runtime|: rnea {dev_rnea:.1e}, crba {dev_crba:.1e}, aba {dev_aba:.1e}, frame_placement {dev_frames:.1e}"
    );
}

fn block_norm(
    m: &[[f64; NV]; NV],
    rows: &std::ops::Range<usize>,
    cols: &std::ops::Range<usize>,
) -> f64 {
    rows.clone()
        .flat_map(|i| cols.clone().map(move |j| m[i][j] * m[i][j]))
        .sum::<f64>()
        .sqrt()
}

fn max_dev(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, max_nan)
}

/// The larger of two deviations, NaN when either is (`f64::max` drops a NaN).
fn max_nan(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

fn fmt(x: &[f64]) -> String {
    x.iter()
        .map(|v| format!("{v:9.4}"))
        .collect::<Vec<_>>()
        .join(" ")
}
