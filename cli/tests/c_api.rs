//! The C interface from C and C++: the committed C library crate
//! `examples/cpp/go2_z1_c` is what `rbdgen generate --c-api go2_z1 --crate`
//! writes; it builds as a static library; the C++ control loop
//! `examples/cpp/controller.cpp`, built against it with the system's C++
//! compiler, gives the runtime's `g(q) + J(q)ᵀ w` on random states; and
//! `c_api/checks.c` (C, against the same header) gets the status codes for
//! bad pointers and frames and batches equal to the single calls.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rbdgen_runtime::{Data, Model};
use rbdgen_symbolic::Function;

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ is in the workspace")
        .to_path_buf()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The command line that writes the committed crate (docs/cpp.md shows it).
const GENERATE: [&str; 15] = [
    "generate",
    "models/go2_z1.urdf",
    "--floating-base",
    "--functions",
    "generalized_gravity,frame_jacobian_local_world_aligned",
    "--frames",
    "gripper_link",
    "--std",
    "--lanes",
    "4",
    "--threads",
    "--c-api",
    "go2_z1",
    "--crate",
    "examples/cpp/go2_z1_c",
];

/// Builds the crate (release) and returns the directory of `libgo2_z1.a`.
fn build_library() -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("c_api");
    let out = Command::new(cargo)
        .args([
            "build",
            "--release",
            "--locked",
            "--quiet",
            "--manifest-path",
        ])
        .arg(root().join("examples/cpp/go2_z1_c/Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let dir = target.join("release");
    assert!(dir.join("libgo2_z1.a").exists());
    assert!(dir.join("libgo2_z1.so").exists());
    dir
}

/// Compiles `source` with `compiler` against the static library.
fn compile(compiler: &str, std: &str, source: &Path, lib: &Path, exe: &Path) {
    let out = Command::new(compiler)
        .args(["-O2", std, "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(root().join("examples/cpp/go2_z1_c/include"))
        .arg(source)
        .arg(lib.join("libgo2_z1.a"))
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(exe)
        .output()
        .unwrap_or_else(|e| {
            panic!("{compiler}: {e} (the C and C++ tests need the system's compiler)")
        });
    assert!(
        out.status.success(),
        "{compiler} {}: {}",
        source.display(),
        stderr(&out)
    );
}

#[test]
fn c_and_cpp_against_the_runtime() {
    // The committed crate is current.
    let mut check = GENERATE.to_vec();
    check.extend(["--check", "--quiet"]);
    let out = Command::new(env!("CARGO_BIN_EXE_rbdgen"))
        .args(&check)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));

    let lib = build_library();
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("c_api");
    let checks = scratch.join("checks");
    compile(
        "gcc",
        "-std=c11",
        &root().join("cli/tests/c_api/checks.c"),
        &lib,
        &checks,
    );
    let out = Command::new(&checks).output().unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        stderr(&out)
    );

    let controller = scratch.join("controller");
    compile(
        "g++",
        "-std=c++17",
        &root().join("examples/cpp/controller.cpp"),
        &lib,
        &controller,
    );
    // Random states and wrenches, through the C++ loop and the runtime.
    let urdf = std::fs::read_to_string(root().join("models/go2_z1.urdf")).unwrap();
    let model = Model::from_description_str(&urdf, true).unwrap();
    let frame = model.link_frame("gripper_link").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let mut input = String::new();
    let mut expected = Vec::new();
    for _ in 0..20 {
        let q = model.random_configuration(|| rng.gen::<f64>());
        let v: Vec<f64> = (0..model.nv).map(|_| rng.gen_range(-1.0..1.0)).collect();
        let w: Vec<f64> = (0..6).map(|_| rng.gen_range(-20.0..20.0)).collect();
        let line: Vec<String> = q
            .iter()
            .chain(&v)
            .chain(&w)
            .map(|x| format!("{x:e}"))
            .collect();
        input.push_str(&line.join(" "));
        input.push('\n');
        let mut data = Data::new(&model);
        let eval = |f: Function, data: &mut Data<f64>, frame| {
            f.evaluate(&model, data, std::slice::from_ref(&q), frame)
                .unwrap()
        };
        let g = eval(Function::GeneralizedGravity, &mut data, None);
        let j = eval(
            Function::FrameJacobianLocalWorldAligned,
            &mut data,
            Some(frame),
        );
        let tau: Vec<f64> = (0..model.nv)
            .map(|c| g[c] + (0..6).map(|r| j[r * model.nv + c] * w[r]).sum::<f64>())
            .collect();
        expected.push(tau);
    }
    let mut child = Command::new(&controller)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), expected.len(), "{text}");
    for (k, (line, tau)) in lines.iter().zip(&expected).enumerate() {
        let got: Vec<f64> = line
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect();
        assert_eq!(got.len(), model.nv, "state {k}");
        for (i, (a, b)) in got.iter().zip(tau).enumerate() {
            assert!(
                (a - b).abs() <= 1e-9 * (1.0 + b.abs()),
                "state {k}, tau[{i}]: C++ {a}, runtime {b}"
            );
        }
    }
}

/// Every function of the table gets wrappers that compile, with and without
/// lanes and threads (arguments of every kind: `fext`, a placement, the step
/// `h`, the contact forces; results that are tuples and scalars; the
/// Jacobians of `--jacobians`), and the
/// header that `--header` writes is what the crate holds.
#[test]
fn every_function_compiles() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("c_api_all");
    for (k, extra) in [&[][..], &["--lanes", "2", "--threads"][..]]
        .into_iter()
        .enumerate()
    {
        let dir = scratch.join(format!("case{k}"));
        let dir_str = dir.to_str().unwrap().to_string();
        let header = scratch.join(format!("case{k}.h"));
        let mut args = vec![
            "generate",
            "tests/golden/double_pendulum.urdf",
            "--contacts",
            "lower:point",
            "--parameters",
            "lower",
            "--jacobians",
            "rnea,kinetic_energy,frame_placement",
            "--c-api",
            "pendulum",
            "--quiet",
        ];
        args.extend(extra);
        let run = |more: &[&str]| {
            let out = Command::new(env!("CARGO_BIN_EXE_rbdgen"))
                .args(&args)
                .args(more)
                .current_dir(root())
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", stderr(&out));
        };
        run(&["--crate", &dir_str]);
        run(&["-o", "/dev/null", "--header", header.to_str().unwrap()]);
        assert_eq!(
            std::fs::read_to_string(&header).unwrap(),
            std::fs::read_to_string(dir.join("include/pendulum.h")).unwrap()
        );
        let out = Command::new(&cargo)
            .args(["build", "--quiet", "--manifest-path"])
            .arg(dir.join("Cargo.toml"))
            .env("CARGO_TARGET_DIR", scratch.join("target"))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    }
}

/// `rbdgen::build::Config::c_api()` writes the module with the wrappers
/// prefixed with the module's name, and the header beside it: the same text
/// as `rbdgen generate --c-api NAME --header`.
#[test]
fn build_script_config_writes_the_header() {
    use rbdgen::build::{Config, Function};
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("c_api_config");
    std::fs::create_dir_all(&dir).unwrap();
    let urdf = root().join("tests/golden/double_pendulum.urdf");
    let path = Config::new(&urdf)
        .module_name("pendulum")
        .functions(&[Function::Rnea, Function::AbaDerivatives])
        .c_api()
        .out_dir(&dir)
        .generate()
        .unwrap();
    let source = std::fs::read_to_string(&path).unwrap();
    assert!(source.contains("pub unsafe extern \"C\" fn pendulum_rnea("));
    let header = std::fs::read_to_string(dir.join("pendulum.h")).unwrap();
    let cli_header = dir.join("cli.h");
    let out = Command::new(env!("CARGO_BIN_EXE_rbdgen"))
        .arg("generate")
        .arg(&urdf)
        .args(["--functions", "rnea,aba_derivatives", "--c-api", "pendulum"])
        .args(["-o", "/dev/null", "--quiet", "--header"])
        .arg(&cli_header)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&cli_header).unwrap(), header);
    // A module name that is no C identifier cannot happen (it is a Rust
    // one); a bad prefix on the command line is an error naming it.
    let out = Command::new(env!("CARGO_BIN_EXE_rbdgen"))
        .arg("generate")
        .arg(&urdf)
        .args(["--c-api", "2link", "-o", "/dev/null"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("`2link` is not a C identifier"),
        "{}",
        stderr(&out)
    );
}
