//! Traces the cost of `src/cost.rs` on rbdgen's symbolic scalar and writes
//! `$OUT_DIR/go2_z1.rs`: the module `go2_z1` with `center_of_mass`,
//! `swing_cost`, its gradient and Hessian, and the Gauss-Newton model of its
//! residual.

#[path = "src/cost.rs"]
mod cost;

use rbdgen::build::{Config, Dim, Expr, Function, Output, UserFunction};

fn main() {
    println!("cargo:rerun-if-changed=src/cost.rs");
    let targets = Dim::Fixed(cost::NR);
    Config::new("../../models/go2_z1.urdf")
        .floating_base()
        .std()
        .functions(&[Function::CenterOfMass])
        .user_function(
            UserFunction::new("swing_cost", Output::Scalar, cost::swing_cost::<Expr>)
                .input("q", Dim::Nq)
                .input("target", targets)
                .doc("`½ |r|²` of the swing residual (`src/cost.rs`).")
                .gradient(&["q"])
                .hessian(&["q"]),
        )
        .user_function(
            UserFunction::new(
                "swing_residual",
                Output::Vector(targets),
                cost::swing_residual::<Expr>,
            )
            .input("q", Dim::Nq)
            .input("target", targets)
            .doc("The swing residual `r` (`src/cost.rs`).")
            .gauss_newton(&["q"]),
        )
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
}
