//! `--jacobians` on the command line: `NAME_jacobian` in the generated file
//! and its header, a bad name refused with exit status 2, and `info --ops`
//! printing the AD form beside the analytical derivative.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rbdgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rbdgen"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

#[test]
fn generate_emits_the_jacobians_asked_for() {
    let out = rbdgen(&[
        "generate",
        "models/z1.urdf",
        "--functions",
        "center_of_mass",
        "--jacobians",
        "center_of_mass, kinetic_energy",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("pub fn center_of_mass_jacobian(q: &[f64; NQ]) -> [[f64; NV]; 3]"));
    assert!(text.contains("pub fn kinetic_energy_jacobian("));
    assert!(
        !text.contains("pub fn kinetic_energy("),
        "only the Jacobian of kinetic_energy"
    );
    assert!(text.contains("--jacobians center_of_mass,kinetic_energy"));
    assert!(text.contains("`center_of_mass_jacobian` (automatic differentiation)"));
}

#[test]
fn a_bad_jacobian_name_is_refused() {
    let out = rbdgen(&["generate", "models/z1.urdf", "--jacobians", "rnea,ccrbaa"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--jacobians: unknown function `ccrbaa`; did you mean `ccrba`?"),
        "{stderr}"
    );
}

#[test]
fn info_ops_prints_the_ad_form_beside_the_analytical_one() {
    let out = rbdgen(&["info", "models/z1.urdf", "--ops"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("by automatic differentiation (`rnea_jacobian`):"),
        "{text}"
    );
    assert!(text.contains("by automatic differentiation (`center_of_mass_jacobian`):"));
}
