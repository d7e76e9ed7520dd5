//! Generates `$OUT_DIR/go2_z1.rs` (module `go2_z1`) from the repository's
//! Go2+Z1 URDF; cargo reruns this when the URDF changes.

use rbdgen::build::{Config, Function};

fn main() {
    Config::new("../../models/go2_z1.urdf")
        .floating_base()
        .functions(&[Function::Rnea, Function::Crba, Function::Aba])
        .std()
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
}
