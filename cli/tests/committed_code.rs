//! Committed generated code: `rbdgen generate` writes exactly the text of
//! `generate()`, byte-identical from process to process, with a header that
//! identifies the input; `--check` fails on a stale file; and the committed
//! no_std crate `examples/embedded` is current and builds.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rbdgen_symbolic::{generate, sha256_hex, Function, Options, ScalarType};

/// The workspace root, where the models and references are.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ is in the workspace")
        .to_path_buf()
}

/// A scratch directory of this test binary.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("committed_code")
        .join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the CLI in the workspace root.
fn rbdgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rbdgen"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn read(relative: &str) -> String {
    std::fs::read_to_string(root().join(relative)).unwrap()
}

#[test]
fn cli_writes_what_generate_returns() {
    let dir = scratch("same_as_library");
    let cases: [(&str, bool, &[Function], ScalarType); 3] = [
        (
            "tests/urdf/continuous_chain.urdf",
            false,
            &Function::ALL,
            ScalarType::F64,
        ),
        (
            "models/go2_z1.urdf",
            true,
            &[Function::Rnea, Function::Crba],
            ScalarType::F32,
        ),
        ("models/z1.urdf", false, &[Function::Aba], ScalarType::F64),
    ];
    for (k, (urdf, floating_base, functions, scalar)) in cases.into_iter().enumerate() {
        let out = dir.join(format!("case{k}.rs"));
        let names: Vec<&str> = functions.iter().map(|f| f.name()).collect();
        let names = names.join(",");
        let out_str = out.to_str().unwrap();
        let mut args = vec![
            "generate",
            urdf,
            "--functions",
            &names,
            "--scalar",
            scalar.name(),
            "-o",
            out_str,
            "--quiet",
        ];
        if floating_base {
            args.push("--floating-base");
        }
        let run = rbdgen(&args);
        assert!(run.status.success(), "{urdf}: {}", stderr(&run));
        assert!(run.stderr.is_empty(), "--quiet prints nothing");
        let options = Options {
            floating_base,
            functions: functions.iter().copied().collect(),
            source_name: urdf.to_string(),
            scalar,
            simplify: false,
            std: false,
            ..Options::default()
        };
        let expected = generate(&read(urdf), &options).unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), expected, "{urdf}");
    }
}

/// The build-script route (`rbdgen::build::Config`) writes, inside `pub mod
/// NAME { }`, exactly the bytes `rbdgen generate` writes for the same options.
#[test]
fn build_script_writes_what_the_cli_writes() {
    use rbdgen::build::{Config, ContactKind};
    let dir = scratch("build_script");
    let urdf = root().join("models/z1.urdf");
    let cli_file = dir.join("cli.rs");
    let run = rbdgen(&[
        "generate",
        urdf.to_str().unwrap(),
        "--functions",
        "rnea,crba,contact_jacobian",
        "--std",
        "--armature",
        "joint3=0.02",
        "--contacts",
        "link06:point",
        "--parameters",
        "link06",
        "--frames",
        "link06",
        "--lanes",
        "2",
        "--threads",
        "-o",
        cli_file.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    let written = Config::new(&urdf)
        .functions(&[Function::Rnea, Function::Crba, Function::ContactJacobian])
        .std()
        .armature(&[("joint3", 0.02)])
        .contacts(&[("link06", ContactKind::Point)])
        .parameters(&["link06"])
        .frames(&["link06"])
        .lanes(2)
        .threads()
        .out_dir(&dir)
        .generate()
        .unwrap();
    assert_eq!(written, dir.join("z1.rs"));
    let cli = std::fs::read_to_string(&cli_file).unwrap();
    assert!(
        cli.contains("pub mod lanes"),
        "--lanes 2 emits the lanes module"
    );
    assert!(
        cli.contains("pub fn rnea_batch_par(") && cli.contains("--lanes 2 --threads -o FILE"),
        "--threads emits the threaded batch and names itself in the regenerate command"
    );
    assert_eq!(
        std::fs::read_to_string(&written).unwrap(),
        format!("pub mod z1 {{\n{cli}}}\n")
    );
}

#[test]
fn sha256_matches_the_standard_vectors() {
    assert_eq!(
        sha256_hex(""),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(
        sha256_hex("abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

#[test]
fn header_names_version_source_hash_and_options() {
    let run = rbdgen(&[
        "generate",
        "models/go2_z1.urdf",
        "--floating-base",
        "--functions",
        "crba,rnea",
        "--scalar",
        "f32",
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    let text = String::from_utf8(run.stdout).unwrap();
    let header: String = text
        .lines()
        .take_while(|l| l.starts_with("//!"))
        .collect::<Vec<_>>()
        .join("\n");
    let hash = sha256_hex(&read("models/go2_z1.urdf"));
    for needle in [
        format!("generated by rbdgen {}", env!("CARGO_PKG_VERSION")),
        "Source: `models/go2_z1.urdf`, free-flyer root; nq = 25, nv = 24.".to_string(),
        format!("SHA-256 of the URDF: `{hash}`"),
        "Options: floating_base = true, scalar = f32, std = false, functions = [rnea, crba].".to_string(),
        "`rbdgen generate models/go2_z1.urdf --floating-base --functions rnea,crba --scalar f32 -o FILE`"
            .to_string(),
        "- `rnea`: ".to_string(),
    ] {
        assert!(header.contains(&needle), "missing `{needle}` in\n{header}");
    }
    assert!(
        !header.contains("frame_placement"),
        "only the asked functions"
    );

    // An absolute path is reduced to the file name.
    let absolute = root().join("models/z1.urdf");
    let run = rbdgen(&[
        "generate",
        absolute.to_str().unwrap(),
        "--functions",
        "rnea",
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    let text = String::from_utf8(run.stdout).unwrap();
    assert!(text.contains("Source: `z1.urdf`, fixed base"));
    assert!(!text.contains(root().to_str().unwrap()), "no absolute path");
}

#[test]
fn check_passes_when_current_and_fails_when_stale() {
    let dir = scratch("check");
    let file = dir.join("z1.rs");
    let path = file.to_str().unwrap();
    let args = |check: bool| {
        let mut a = vec![
            "generate",
            "models/z1.urdf",
            "--functions",
            "rnea",
            "-o",
            path,
            "--quiet",
        ];
        if check {
            a.push("--check");
        }
        a
    };
    let _ = std::fs::remove_file(&file);
    let missing = rbdgen(&args(true));
    assert_eq!(missing.status.code(), Some(1), "{}", stderr(&missing));
    assert!(!file.exists(), "--check writes nothing");

    assert!(rbdgen(&args(false)).status.success());
    let current = rbdgen(&args(true));
    assert!(current.status.success(), "{}", stderr(&current));
    // `cargo fmt` in the including crate leaves the file as generated
    // (`#![cfg_attr(rustfmt, rustfmt::skip)]`), so it stays current.
    let fmt = Command::new("rustfmt")
        .args(["--edition", "2021"])
        .arg(&file)
        .output()
        .expect("rustfmt (the toolchain's rustfmt component) runs");
    assert!(fmt.status.success(), "{}", stderr(&fmt));
    let formatted = rbdgen(&args(true));
    assert!(formatted.status.success(), "{}", stderr(&formatted));

    let text = std::fs::read_to_string(&file).unwrap();
    let edited: String = text
        .lines()
        .map(|l| {
            if l.starts_with("pub const NV: usize") {
                "pub const NV: usize = 99;\n".to_string()
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    assert_ne!(edited, text);
    std::fs::write(&file, edited).unwrap();
    let stale = rbdgen(&args(true));
    assert_eq!(stale.status.code(), Some(1), "{}", stderr(&stale));
    let message = stderr(&stale);
    assert!(message.contains("is stale"), "{message}");
    assert!(message.contains("pub const NV: usize = 99;"), "{message}");
    assert!(
        message.contains("rbdgen generate models/z1.urdf --functions rnea -o"),
        "{message}"
    );

    // A different option makes the file stale too.
    std::fs::write(&file, &text).unwrap();
    let mut other = args(true);
    other.extend(["--scalar", "f32"]);
    assert_eq!(rbdgen(&other).status.code(), Some(1));
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    for args in [
        &["generate", "models/no_such.urdf"][..],
        &["generate", "models/z1.urdf", "--functions", "nope"],
        &["generate", "models/z1.urdf", "--scalar", "f16"],
        &["generate", "models/README.md"],
        &["generate", "models/z1.urdf", "--functions", ""],
        &[
            "generate",
            "models/z1.urdf",
            "--functions",
            "rnea,crba,rnea",
        ],
        &[
            "generate",
            "models/z1.urdf",
            "--armature",
            "joint1=0.1,joint1=0.2",
        ],
    ] {
        let run = rbdgen(args);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {}", stderr(&run));
        assert!(
            stderr(&run).starts_with("rbdgen: "),
            "{args:?}: {}",
            stderr(&run)
        );
    }
    let run = rbdgen(&[
        "generate",
        "models/z1.urdf",
        "--functions",
        "rnea,crba,rnea",
    ]);
    assert!(
        stderr(&run).contains("`rnea` is listed twice"),
        "{}",
        stderr(&run)
    );
    let run = rbdgen(&[
        "generate",
        "models/z1.urdf",
        "--armature",
        "joint1=0.1,joint1=0.2",
    ]);
    assert!(
        stderr(&run).contains("armature of joint `joint1`: named twice"),
        "{}",
        stderr(&run)
    );
    let run = rbdgen(&["generate", "models/z1.urdf", "--functions", ""]);
    assert!(stderr(&run).contains("an empty name"), "{}", stderr(&run));
}

#[test]
fn a_model_without_dofs_generates_and_reports_what_needs_mass() {
    let dir = scratch("no_dof");
    let file = dir.join("rock.rs");
    let run = rbdgen(&[
        "generate",
        "tests/urdf/no_dof/rock.urdf",
        "--functions",
        "rnea,crba,minverse,aba_derivatives,frame_jacobian_world",
        "-o",
        file.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("pub const NV: usize = 0;"), "{text}");
    let run = rbdgen(&["generate", "tests/urdf/no_dof/rock.urdf", "--quiet"]);
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    let message = stderr(&run);
    assert!(
        message.contains("the moving bodies have no mass"),
        "{message}"
    );
    assert!(!message.contains("panicked"), "{message}");
}

/// The functions committed in the embedded example.
const EMBEDDED_FUNCTIONS: &str = "rnea,crba,aba,frame_placement,minverse,integrate,difference";

#[test]
fn committed_embedded_code_is_current() {
    let run = rbdgen(&[
        "generate",
        "models/go2_z1.urdf",
        "--floating-base",
        "--functions",
        EMBEDDED_FUNCTIONS,
        "-o",
        "examples/embedded/src/go2_z1.rs",
        "--check",
    ]);
    assert!(
        run.status.success(),
        "examples/embedded/src/go2_z1.rs is stale: {}",
        stderr(&run)
    );
}

/// The whole module (every function) of the free-flyer robot `urdf` in
/// `scalar`, written by the CLI in its own process and returned by
/// `generate()` in this one: byte-identical (each process hashes with its own
/// random seed), and naming nothing from std or alloc.
fn whole_module_is_deterministic_and_std_free(urdf: &str, scalar: ScalarType) {
    let stem = Path::new(urdf).file_stem().unwrap().to_str().unwrap();
    let file = scratch("deterministic").join(format!("{stem}_{}.rs", scalar.name()));
    let run = rbdgen(&[
        "generate",
        urdf,
        "--floating-base",
        "--scalar",
        scalar.name(),
        "-o",
        file.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    let written = std::fs::read_to_string(&file).unwrap();
    let options = Options {
        floating_base: true,
        scalar,
        source_name: urdf.to_string(),
        ..Options::default()
    };
    let text = generate(&read(urdf), &options).unwrap();
    assert!(text.len() > 100_000, "the whole module is written");
    assert!(
        written == text,
        "{}: the two processes differ",
        scalar.name()
    );
    for banned in [
        "std", "alloc", "Vec", "Box", "String", "format!", "panic!", "unwrap",
    ] {
        let code_lines = text.lines().filter(|l| !l.trim_start().starts_with("//"));
        assert!(
            code_lines.clone().all(|l| !l.contains(banned)),
            "{}: `{banned}` in generated code",
            scalar.name()
        );
    }
    assert!(text.contains("libm::"), "math goes through libm");
}

#[test]
fn whole_module_f64_is_deterministic_and_std_free() {
    whole_module_is_deterministic_and_std_free("models/go2_z1.urdf", ScalarType::F64);
}

/// The `f32` emission on a smaller free-flyer model (Z1 on a free-flyer, the
/// same functions at a quarter of Go2+Z1's generation time): the scalar
/// changes the literals and the `libm` calls, not the graph.
#[test]
fn whole_module_f32_is_deterministic_and_std_free() {
    whole_module_is_deterministic_and_std_free("models/z1.urdf", ScalarType::F32);
}

#[test]
fn embedded_crate_is_no_std_with_libm_and_wide_only() {
    let lib = read("examples/embedded/src/lib.rs");
    assert!(lib.contains("#![no_std]"));
    assert!(!lib.contains("extern crate"), "no alloc, no std");
    let manifest = read("examples/embedded/Cargo.toml");
    let deps: Vec<&str> = manifest
        .split("[dependencies]")
        .nth(1)
        .unwrap()
        .lines()
        .take_while(|l| !l.starts_with('['))
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    assert_eq!(
        deps,
        [
            "libm = \"0.2\"",
            "wide = { version = \"1\", default-features = false }"
        ],
        "libm and wide are the only dependencies"
    );
}

/// Targets without std installed for this toolchain (for example
/// `thumbv7em-none-eabihf`), if rustup can tell.
fn installed_no_std_targets() -> Vec<String> {
    let Ok(out) = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
    else {
        return Vec::new();
    };
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|t| t.contains("-none"))
        .map(str::to_string)
        .collect()
}

#[test]
fn embedded_crate_builds() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let target_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("embedded");
    let build = |extra: &[&str]| {
        Command::new(&cargo)
            .args(["build", "--locked", "--manifest-path"])
            .arg(root().join("examples/embedded/Cargo.toml"))
            .args(extra)
            .env("CARGO_TARGET_DIR", &target_dir)
            .output()
            .unwrap()
    };
    // On the host: a `#![no_std]` library, so nothing from std can be named.
    let host = build(&[]);
    assert!(host.status.success(), "{}", stderr(&host));
    assert!(!stderr(&host).contains("warning"), "{}", stderr(&host));
    // And for every installed target without std.
    for target in installed_no_std_targets() {
        let out = build(&["--target", &target]);
        assert!(out.status.success(), "{target}: {}", stderr(&out));
    }
}
