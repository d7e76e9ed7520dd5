//! `--mimic` on the command line: `rbdgen generate --mimic` writes what
//! `generate()` returns with `Options::mimic`, for the model without the
//! mimicking dofs; `rbdgen info --mimic` shows which joint follows which.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rbdgen_symbolic::{generate, Function, Options};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ is in the workspace")
        .to_path_buf()
}

fn rbdgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rbdgen"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

#[test]
fn generate_with_mimic_writes_what_generate_returns() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mimic_cli");
    std::fs::create_dir_all(&dir).unwrap();
    let urdf = "models/panda.urdf";
    let text = std::fs::read_to_string(root().join(urdf)).unwrap();
    for mimic in [false, true] {
        let out = dir.join(format!("panda_{mimic}.rs"));
        let mut args = vec!["generate", urdf, "--functions", "rnea,crba", "--quiet"];
        args.extend(["-o", out.to_str().unwrap()]);
        if mimic {
            args.push("--mimic");
        }
        let run = rbdgen(&args);
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let options = Options {
            mimic,
            functions: [Function::Rnea, Function::Crba].into_iter().collect(),
            source_name: urdf.to_string(),
            ..Options::default()
        };
        let written = std::fs::read_to_string(&out).unwrap();
        assert_eq!(written, generate(&text, &options).unwrap());
        let nv = if mimic { 8 } else { 9 };
        assert!(
            written.contains(&format!("pub const NV: usize = {nv};")),
            "{mimic}"
        );
        assert_eq!(written.contains("fixed base, mimic joints"), mimic);
        assert_eq!(
            written.contains("--functions rnea,crba --mimic")
                || written.contains("--mimic --functions rnea,crba"),
            mimic
        );
    }
}

#[test]
fn info_with_mimic_names_the_primary() {
    let run = rbdgen(&["info", "tests/urdf/mimic/chain.urdf", "--mimic", "--no-ops"]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(out.contains("nq = 2, nv = 2"), "{out}");
    assert!(out.contains("mimics shoulder: -0.68"), "{out}");
}

#[test]
fn mimic_on_an_mjcf_model_is_an_error() {
    let run = rbdgen(&[
        "generate",
        "models/mjcf/menagerie/unitree_go2/go2.xml",
        "--mimic",
        "--functions",
        "rnea",
    ]);
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("no <mimic> joints"));
}
