//! Go2+Z1 dynamics from a build script: `build.rs` writes the module with
//! `rbdgen::build::Config`, this file includes it. Prints the base force that
//! holds the robot still and checks it against the robot's weight (the test
//! below runs the same check under `cargo test`).

include!(concat!(env!("OUT_DIR"), "/go2_z1.rs"));

use go2_z1::{NQ, NV};

/// Standing: base 0.32 m up, thighs 0.8 rad, calves -1.5 rad, arm at zero.
fn standing() -> [f64; NQ] {
    let mut q = go2_z1::NEUTRAL;
    q[2] = 0.32;
    for leg in 0..4 {
        q[7 + 3 * leg + 1] = 0.8;
        q[7 + 3 * leg + 2] = -1.5;
    }
    q
}

/// The report `main` prints; `Err` names the check that failed: the base's
/// vertical force at rest is the robot's weight, and `aba` inverts `rnea`.
fn report() -> Result<String, String> {
    let q = standing();
    let zero = [0.0; NV];
    let g = go2_z1::rnea(&q, &zero, &zero);
    let weight = -go2_z1::TOTAL_MASS * go2_z1::GRAVITY[2];
    if (g[2] - weight).abs() >= 1e-9 * weight {
        return Err(format!("gravity {} N is not the weight {weight} N", g[2]));
    }
    let m = go2_z1::crba(&q);
    let a = go2_z1::aba(&q, &zero, &g);
    let worst = a.iter().fold(0.0f64, |w, x| w.max(x.abs()));
    if worst >= 1e-9 {
        return Err(format!("aba(q, 0, g(q)) = {worst:e}, not 0"));
    }
    Ok(format!(
        "nq = {NQ}, nv = {NV}\n\
         base vertical force {:.6} N, weight {weight:.6} N\n\
         aba(q, 0, g(q)) = 0 to {worst:.1e}; M[0][0] = {:.3} kg",
        g[2], m[0][0]
    ))
}

fn main() {
    match report() {
        Ok(text) => println!("{text}"),
        Err(e) => panic!("{e}"),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn standing_force_is_the_weight_and_aba_inverts_rnea() {
        let text = super::report().unwrap();
        assert!(text.starts_with("nq = 25, nv = 24\n"), "{text}");
    }
}
