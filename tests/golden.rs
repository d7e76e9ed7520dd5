//! Golden files: the generated `rnea` and `crba` of three tiny robots
//! (`tests/golden/*.urdf`: a double pendulum, a 3-link tree with a fixed
//! joint, a free-flyer with one leg), the derivative functions (RNEA and ABA
//! derivatives, with and without external forces, and the step
//! linearization) of the double pendulum, and the RNEA derivatives of a
//! branching chain with mimic joints (`mimic_chain`, as
//! `tests/urdf/mimic/chain.urdf`), and a user function's value, gradient
//! and Hessian with lanes (`double_pendulum_user`, a cost written below),
//! committed next to their URDF and compared as text, so that a change to
//! emission reads as a short diff of these files. They are also compiled (the
//! modules below) and checked against the runtime.
//!
//! After an intended change to the generated code, regenerate them with
//! `RBDGEN_BLESS=1 cargo test --test golden` (or the command each file's
//! header gives), review `git diff tests/golden`, and record the change in
//! CHANGELOG.md.

use std::path::PathBuf;

use rbdgen::runtime::{crba, rnea, rnea_derivatives, Data, Model};
use rbdgen::symbolic::{generate, Function, Options};

// The generator's formatting (prettyplease), not rustfmt's: each file's
// `#![cfg_attr(rustfmt, rustfmt::skip)]` keeps `cargo fmt` (and so CI's
// `cargo fmt --check`) off it. Only `rnea`, `crba`, `rnea_derivatives`, `NQ`,
// `NV` and `NEUTRAL` are used here.
#[allow(dead_code)]
#[path = "golden/double_pendulum.rs"]
mod double_pendulum;
#[allow(dead_code)]
#[path = "golden/double_pendulum_derivatives.rs"]
mod double_pendulum_derivatives;
#[allow(dead_code)]
#[path = "golden/hopper.rs"]
mod hopper;
#[allow(dead_code)]
#[path = "golden/mimic_chain_derivatives.rs"]
mod mimic_chain_derivatives;
#[allow(dead_code)]
#[path = "golden/tree_fixed.rs"]
mod tree_fixed;

/// One golden file: `tests/golden/{file}.rs`, generated from
/// `tests/golden/{urdf}.urdf` with these options.
struct Golden {
    file: &'static str,
    urdf: &'static str,
    floating_base: bool,
    mimic: bool,
    functions: &'static [Function],
}

/// The functions of the derivative golden files: those that go through the
/// RNEA derivative passes.
const DERIVATIVES: &[Function] = &[
    Function::RneaDerivatives,
    Function::AbaDerivatives,
    Function::RneaDerivativesFext,
    Function::AbaDerivativesFext,
    Function::StepLinearization,
];

/// The golden files.
const GOLDEN: [Golden; 5] = [
    Golden {
        file: "double_pendulum",
        urdf: "double_pendulum",
        floating_base: false,
        mimic: false,
        functions: &[Function::Rnea, Function::Crba],
    },
    Golden {
        file: "tree_fixed",
        urdf: "tree_fixed",
        floating_base: false,
        mimic: false,
        functions: &[Function::Rnea, Function::Crba],
    },
    Golden {
        file: "hopper",
        urdf: "hopper",
        floating_base: true,
        mimic: false,
        functions: &[Function::Rnea, Function::Crba],
    },
    Golden {
        file: "double_pendulum_derivatives",
        urdf: "double_pendulum",
        floating_base: false,
        mimic: false,
        functions: DERIVATIVES,
    },
    Golden {
        file: "mimic_chain_derivatives",
        urdf: "mimic_chain",
        floating_base: false,
        mimic: true,
        functions: &[Function::RneaDerivatives],
    },
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The options of `rbdgen generate tests/golden/URDF.urdf [--floating-base]
/// [--mimic] --functions ...`.
fn options(golden: &Golden) -> Options {
    Options {
        floating_base: golden.floating_base,
        mimic: golden.mimic,
        functions: golden.functions.iter().copied().collect(),
        source_name: format!("tests/golden/{}.urdf", golden.urdf),
        ..Options::default()
    }
}

/// A line diff of `expected` (the committed file) and `actual`: `-` lines
/// only in the file, `+` lines only in the new output, two lines of context,
/// at most `limit` lines of output.
fn diff(expected: &str, actual: &str, limit: usize) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    // Longest common subsequence table, from the ends.
    let mut lcs = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    // The edit script: (' ' | '-' | '+', line number in its file, text).
    let mut script = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            script.push((' ', i, a[i]));
            (i, j) = (i + 1, j + 1);
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            script.push(('-', i, a[i]));
            i += 1;
        } else {
            script.push(('+', j, b[j]));
            j += 1;
        }
    }
    let changed: Vec<usize> = (0..script.len()).filter(|&k| script[k].0 != ' ').collect();
    let near = |k: usize| changed.iter().any(|&c| c.abs_diff(k) <= 2);
    let mut out = Vec::new();
    let mut last = None;
    for (k, &(tag, n, line)) in script.iter().enumerate() {
        if !near(k) {
            continue;
        }
        if last.is_some_and(|l| l + 1 != k) {
            out.push("...".to_string());
        }
        last = Some(k);
        out.push(format!("{tag}{:>5} {line}", n + 1));
    }
    let total = out.len();
    out.truncate(limit);
    if total > limit {
        out.push(format!("... ({} more lines)", total - limit));
    }
    out.join("\n")
}

#[test]
fn committed_golden_files_are_current() {
    let bless = std::env::var_os("RBDGEN_BLESS").is_some();
    let mut stale = Vec::new();
    for golden in &GOLDEN {
        let (name, urdf) = (golden.file, golden.urdf);
        let source =
            std::fs::read_to_string(root().join(format!("tests/golden/{urdf}.urdf"))).unwrap();
        let fresh = generate(&source, &options(golden)).unwrap();
        let path = root().join(format!("tests/golden/{name}.rs"));
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed == fresh {
            continue;
        }
        if bless {
            std::fs::write(&path, &fresh).unwrap();
            continue;
        }
        let flags = match (golden.floating_base, golden.mimic) {
            (true, true) => " --floating-base --mimic",
            (true, false) => " --floating-base",
            (false, true) => " --mimic",
            (false, false) => "",
        };
        let functions: Vec<&str> = golden.functions.iter().map(|f| f.name()).collect();
        stale.push(format!(
            "tests/golden/{name}.rs differs from the generator's output (- committed, + new):\n\
             {}\n\
             regenerate with `cargo run --release -p rbdgen-cli -- generate tests/golden/{urdf}.urdf{flags} \
             --functions {} -o tests/golden/{name}.rs`",
            diff(&committed, &fresh, 60),
            functions.join(",")
        ));
    }
    assert!(
        stale.is_empty(),
        "{}\n\nor all at once: `RBDGEN_BLESS=1 cargo test --test golden`; then review \
         `git diff tests/golden` and record the change in CHANGELOG.md",
        stale.join("\n\n")
    );
}

/// The user function of `double_pendulum_user.rs`: half the squared height
/// of the `lower` link's origin above `target[0]`.
fn lower_height_cost<S: rbdgen::runtime::Scalar>(
    model: &Model,
    data: &mut Data<S>,
    x: &[Vec<S>],
) -> Result<Vec<S>, rbdgen::runtime::InputError> {
    rbdgen::runtime::forward_kinematics(model, data, &x[0])?;
    let lower = model.link_frame("lower").expect("the pendulum has `lower`");
    let placement = rbdgen::runtime::frame_placement(model, data, lower)?;
    let h = placement.translation.0[2] - x[1][0];
    Ok(vec![S::constant(0.5) * h * h])
}

/// `tests/golden/double_pendulum_user.rs`: the user function's items (value,
/// gradient and Hessian in `q`) over two lanes, and no function of the table.
#[test]
fn user_function_golden_file_is_current() {
    use rbdgen::symbolic::{Dim, Expr, Output, UserFunction};
    let cost = UserFunction::new(
        "lower_height_cost",
        Output::Scalar,
        lower_height_cost::<Expr>,
    )
    .input("q", Dim::Nq)
    .input("target", Dim::Fixed(1))
    .gradient(&["q"])
    .hessian(&["q"]);
    let options = Options {
        functions: Default::default(),
        user_functions: vec![cost],
        lanes: Some(2),
        source_name: "tests/golden/double_pendulum.urdf".into(),
        ..Options::default()
    };
    let source = std::fs::read_to_string(root().join("tests/golden/double_pendulum.urdf")).unwrap();
    let fresh = generate(&source, &options).unwrap();
    let path = root().join("tests/golden/double_pendulum_user.rs");
    if std::env::var_os("RBDGEN_BLESS").is_some() {
        std::fs::write(&path, &fresh).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "tests/golden/double_pendulum_user.rs differs from the generator's output (- committed, \
         + new):\n{}\nregenerate with `RBDGEN_BLESS=1 cargo test --test golden`, review \
         `git diff tests/golden` and record the change in CHANGELOG.md",
        diff(&committed, &fresh, 60)
    );
}

#[test]
fn diff_shows_the_changed_lines_with_context() {
    let old = "a\nb\nc\nd\ne\nf\ng\n";
    let new = "a\nb\nc\nD\ne\nf\ng\nh\n";
    assert_eq!(
        diff(old, new, 60),
        "     2 b\n     3 c\n-    4 d\n+    4 D\n     5 e\n     6 f\n     7 g\n+    8 h"
    );
    assert_eq!(diff(old, new, 2), "     2 b\n     3 c\n... (6 more lines)");
}

/// Moves every joint of `q` away from the neutral configuration and, for a
/// free-flyer, the base position.
fn displace(q: &mut [f64], floating_base: bool) {
    let joints = if floating_base { 7 } else { 0 };
    for (k, x) in q.iter_mut().enumerate().skip(joints) {
        *x += 0.3 + 0.1 * k as f64;
    }
    if floating_base {
        q[..3].copy_from_slice(&[0.1, -0.2, 0.5]);
    }
}

/// `rnea` and `crba` of a module against the runtime at one state.
macro_rules! check_module {
    ($module:ident, $name:literal, $floating_base:literal) => {{
        use $module::{NQ, NV};
        let model = Model::from_urdf_file(
            root().join(concat!("tests/golden/", $name, ".urdf")),
            $floating_base,
        )
        .unwrap();
        let mut data = Data::new(&model);
        let mut q = $module::NEUTRAL;
        displace(&mut q, $floating_base);
        let v: [f64; NV] = std::array::from_fn(|k| 0.5 - 0.2 * k as f64);
        let a: [f64; NV] = std::array::from_fn(|k| 1.0 - 0.3 * k as f64);
        let tau = $module::rnea(&q, &v, &a);
        let m = $module::crba(&q);
        let tau_runtime = rnea(&model, &mut data, &q, &v, &a).unwrap().to_vec();
        let m_runtime = crba(&model, &mut data, &q).unwrap().to_vec();
        assert_eq!(model.nq, NQ);
        for (k, (x, y)) in tau.iter().zip(&tau_runtime).enumerate() {
            assert!((x - y).abs() < 1e-12, "{}: rnea[{k}]", $name);
        }
        for (k, (x, y)) in m.iter().flatten().zip(&m_runtime).enumerate() {
            assert!((x - y).abs() < 1e-12, "{}: crba[{k}]", $name);
        }
    }};
}

#[test]
fn golden_modules_compile_and_match_the_runtime() {
    check_module!(double_pendulum, "double_pendulum", false);
    check_module!(tree_fixed, "tree_fixed", false);
    check_module!(hopper, "hopper", true);
}

/// `rnea_derivatives` of a derivative module against the runtime at one state.
macro_rules! check_derivatives {
    ($module:ident, $urdf:literal, $mimic:literal) => {{
        use $module::NV;
        let path = root().join(concat!("tests/golden/", $urdf, ".urdf"));
        let model = if $mimic {
            Model::from_urdf_file_mimic(path, false)
        } else {
            Model::from_urdf_file(path, false)
        }
        .unwrap();
        let mut data = Data::new(&model);
        let mut q = $module::NEUTRAL;
        displace(&mut q, false);
        let v: [f64; NV] = std::array::from_fn(|k| 0.5 - 0.2 * k as f64);
        let a: [f64; NV] = std::array::from_fn(|k| 1.0 - 0.3 * k as f64);
        let (dq, dv, da) = $module::rnea_derivatives(&q, &v, &a);
        let d = rnea_derivatives(&model, &mut data, &q, &v, &a).unwrap();
        for (generated, runtime) in [(dq, &d.d_dq), (dv, &d.d_dv), (da, &d.d_du)] {
            for (k, (x, y)) in generated.iter().flatten().zip(runtime).enumerate() {
                assert!((x - y).abs() < 1e-12, "{}: rnea_derivatives[{k}]", $urdf);
            }
        }
    }};
}

#[test]
fn derivative_modules_compile_and_match_the_runtime() {
    check_derivatives!(double_pendulum_derivatives, "double_pendulum", false);
    check_derivatives!(mimic_chain_derivatives, "mimic_chain", true);
}
