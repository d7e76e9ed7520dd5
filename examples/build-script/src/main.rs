//! Go2+Z1 dynamics from a build script: `build.rs` writes the module with
//! `rbdgen::build::Config`, this file includes it. Prints the base force that
//! holds the robot still and checks it against the robot's weight.

include!(concat!(env!("OUT_DIR"), "/go2_z1.rs"));

use go2_z1::{NQ, NV};

fn main() {
    // Standing: base 0.32 m up, thighs 0.8 rad, calves -1.5 rad, arm at zero.
    let mut q = go2_z1::NEUTRAL;
    q[2] = 0.32;
    for leg in 0..4 {
        q[7 + 3 * leg + 1] = 0.8;
        q[7 + 3 * leg + 2] = -1.5;
    }
    let zero = [0.0; NV];
    let g = go2_z1::rnea(&q, &zero, &zero);
    let weight = -go2_z1::TOTAL_MASS * go2_z1::GRAVITY[2];
    println!("nq = {NQ}, nv = {NV}");
    println!("base vertical force {:.6} N, weight {weight:.6} N", g[2]);
    assert!(
        (g[2] - weight).abs() < 1e-9 * weight,
        "gravity is not the weight"
    );
    // aba inverts rnea.
    let m = go2_z1::crba(&q);
    let a = go2_z1::aba(&q, &zero, &g);
    let worst = a.iter().fold(0.0f64, |w, x| w.max(x.abs()));
    println!(
        "aba(q, 0, g(q)) = 0 to {worst:.1e}; M[0][0] = {:.3} kg",
        m[0][0]
    );
    assert!(worst < 1e-9);
}
